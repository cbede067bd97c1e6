import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// The server's connection limits (README: 256 connections, 128 from one address) and its
    /// 30 s close of a connection that makes no progress, against the real player: the clients past
    /// a limit get nothing, the others are served, and the music plays on.
    @Suite struct WebLimitTests {
        /// Most of its half minute is spent waiting for libmicrohttpd's timer, which a sanitizer does
        /// not change: the debug pass (make test-unit) runs it, the sanitizer passes skip it.
        @Test(.enabled(
            if: ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil,
            "waits 30 s for the server's own timer, the same under a sanitizer: the debug pass (make test-unit) runs it"))
        func connectionsPastTheLimitsGetNothingAndAHalfSentRequestIsClosedAfter30Seconds() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First"], seconds: 60))
            defer { rig.stop() }
            #expect(try rig.playing("First"))
            let seen = try WebClients.run("limits", [String(rig.port), "128", "256"], timeout: 90)
            // Past 128 from one address: closed at once, without an answer.
            #expect(seen["pastPerAddress"] as? Bool == true, "\(seen)")
            // Past 256 in all: not served while the others hold every place, served once they leave.
            #expect(seen["pastTotal"] as? String == "no answer", "\(seen)")
            #expect(seen["pastTotalLater"] as? Int == 200, "\(seen)")
            // The connections within the limits are served as usual.
            #expect(seen["heldServed"] as? Int == 200 && seen["heldTitle"] as? String == "First", "\(seen)")
            #expect(seen["freshServed"] as? Int == 200, "\(seen)")
            // Headers that never end: closed after 30 s without progress (not answered).
            let closed = seen["halfClosedAfter"] as? Double ?? 0
            #expect(closed > 29 && closed < 36, "the half-sent request was closed after \(seen["halfClosedAfter"] ?? "never") s")
            // The music went on: the player plays, further into its track than when the test began.
            let state = JSONDelegateFiles.state(rig.stateFile) ?? [:]
            #expect(rig.process.isRunning && state["state"] as? String == "playing" && state["title"] as? String == "First", "\(state)")
            let position = (state["elapsed"] as? Double ?? 0) + (Date().timeIntervalSince1970 - (state["elapsedAt"] as? Double ?? 0)) * (state["rate"] as? Double ?? 0)
            #expect(position > 30, "\(state)")
        }
    }
}
