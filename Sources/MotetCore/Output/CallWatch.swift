/// Decides when a call interrupts us, from two sources that may both speak about the same call:
/// the server's own `request-cork` / `request-uncork` (PulseAudio's module-role-cork) and the
/// calls we see ourselves — sink inputs with `media.role` phone or communication — for servers
/// whose policy never corks us (PipeWire with WirePlumber's default policy).
///
/// The interruption is the union of the two: it begins when the first source says "a call" and
/// ends when neither does any more. So a call that PulseAudio corks us for *and* that we see is
/// one interruption (one `.corkRequested`, one `.uncorkRequested`), whichever news comes first.
///
/// Pure bookkeeping: each method returns the event to report, if any. `PulseOutput` feeds it from
/// the main loop's thread.
struct CallWatch: Sendable, Equatable {
    /// `--pause-for-calls`: when false, nothing is ever reported (the server's requests included).
    let enabled: Bool
    /// Sink inputs of other clients that are calls, by index.
    private(set) var calls: Set<UInt32> = []
    /// The server asked us to cork and has not yet allowed us to play again.
    private(set) var serverCorked = false
    /// We reported `.corkRequested` and not yet `.uncorkRequested`.
    private(set) var reported = false
    /// Nobody listens yet (no event handler: a call seen while connecting would be lost), or the
    /// server is gone and not yet back: news is kept, nothing is reported until `resume`.
    private(set) var suspended = true

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The `media.role` values that are calls.
    static func isCall(role: String?) -> Bool {
        role == "phone" || role == "communication"
    }

    /// A sink input appeared or changed: `isCall` says whether it is (now) a call.
    mutating func sinkInput(_ index: UInt32, isCall: Bool) -> OutputNotice? {
        if isCall { calls.insert(index) } else { calls.remove(index) }
        return settle()
    }

    /// A sink input went away.
    mutating func sinkInputRemoved(_ index: UInt32) -> OutputNotice? {
        calls.remove(index)
        return settle()
    }

    /// The server sent `request-cork` (true) or `request-uncork` (false).
    mutating func serverRequest(cork: Bool) -> OutputNotice? {
        serverCorked = cork
        return settle()
    }

    /// The server went away: its calls and requests with it. Reports nothing until `resume` — the
    /// loss is an interruption of its own, and the player must hear its end first.
    mutating func forget() {
        calls.removeAll()
        serverCorked = false
        reported = false
        suspended = true
    }

    /// Someone listens now, or the server and our stream are back (after `.restored` was
    /// reported): a call seen meanwhile begins an interruption now.
    mutating func resume() -> OutputNotice? {
        suspended = false
        return settle()
    }

    private mutating func settle() -> OutputNotice? {
        guard !suspended else { return nil }
        let interrupted = enabled && (serverCorked || !calls.isEmpty)
        guard interrupted != reported else { return nil }
        reported = interrupted
        return interrupted ? .corkRequested : .uncorkRequested
    }
}
