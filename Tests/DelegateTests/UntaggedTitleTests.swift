import Foundation
import MotetTestSupport
import Testing

/// A track without a title (here `TITLE=`, an empty tag, which counts as none) is named after its
/// file the same way on every surface: the notification bubble (dunst), MPRIS (playerctl), the
/// status line (tmux) and the JSON state file. Before, the bubble said `bgm1.ogg` and MPRIS `bgm1`.
/// In the serialized notify suite: it runs its own X server and dunst.
extension NotifyDelegateTests {
    @Test func anUntaggedTrackHasOneTitleOnEverySurface() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let file = box.path("bgm1.ogg")
        try Fixtures.oggVorbis(file, seconds: 30)
        try Fixtures.replaceComments(file, [Array("TITLE=".utf8), Array("ARTIST=Band".utf8)])
        let state = box.path("np.json")
        let term = try PlayerTerminal(
            command: box.motet(["--output", "null", "--plugin", "notify", "--plugin", "mpris", "--plugin", "json:path=\(state)", file]),
            environment: box.environment.merging(bus.environment) { $1 })
        defer { term.close() }

        #expect(try Shell.waitUntil(timeout: 15) { JSONDelegateFiles.state(state)?["title"] as? String == "bgm1" },
            "JSON: \(String(describing: JSONDelegateFiles.state(state)?["title"])); \(term.screen())")
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 15))
        var mpris = ""
        _ = try Shell.waitUntil(timeout: 10) {
            mpris = (try? Shell.run(["playerctl", "-p", "motet", "metadata", "title"], environment: bus.environment, timeout: 20))?
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return mpris == "bgm1"
        }
        #expect(mpris == "bgm1", "MPRIS xesam:title")
        #expect(try term.waitFor("bgm1 — Band"), "status line: \(term.screen())")
        #expect(!term.screen().contains("bgm1.ogg"), "status line: \(term.screen())")
        #expect(try Shell.waitUntil(timeout: 10) { (try? dunst.displayedCount()) == 1 })

        #expect(try term.quit(), "motet quits on q")
        // The bubble is closed at shutdown, so dunst's history holds what it showed.
        var bubbles: [DunstRig.Notification] = []
        _ = try Shell.waitUntil(timeout: 10) {
            bubbles = (try? dunst.history()) ?? []
            return !bubbles.isEmpty
        }
        #expect(bubbles.map(\.summary) == ["bgm1"], "notification bubbles: \(bubbles)")
    }
}
