import MotetConfiguration
import MotetOutput
import MotetLikes
import MotetSystem

/// The player: a façade over the state machine (`PlayerStateMachine`), the threads that decode and
/// play (`WorkerEngine`), and the one inbox between them and the rest of the program.
///
/// `run()` is the control thread: it sleeps until the state machine's next deadline or a message,
/// then hands it everything that arrived, in order. `send(_:from:)` may be called from any thread.
public final class Player: Sendable {
    private let configuration: PlayerConfiguration
    private let device: any AudioOutput
    private let events: @Sendable (PlayerEvent) -> Void
    private let display: @Sendable (PlayerDisplay) -> Void
    private let message: @Sendable (String) -> Void
    private let inbox = PlayerInbox()
    private let answers = CommandAnswers()

    /// How a run ended: what the exit status (``exitStatus``) is made from.
    public struct Outcome: Sendable, Equatable {
        /// Something was heard.
        public var playedAnything = false
        /// The output failed for good (a WAV file that cannot be written).
        public var outputFailed = false
        /// A network stream that had opened was lost for good (not back within `--reconnect-for`,
        /// or a failure no reconnection can mend).
        public var streamGivenUp = false
        /// An address (URL) could not be played at all (refused, not found, not a stream).
        public var addressFailed = false
        /// The run ended by a quit (a key, a signal, a delegate), not at the end of the queue.
        public var quit = false

        /// The status the program exits with; the rules are ``ExitStatus``'s.
        public var exitStatus: ExitStatus {
            if outputFailed { return .outputFailed }
            if streamGivenUp { return .streamGivenUp }
            // Quitting before anything was heard is no failure: nothing that was tried failed.
            if playedAnything || quit { return .played }
            return addressFailed ? .streamGivenUp : .nothingPlayable
        }
    }

    /// - Parameters:
    ///   - events: every event for the delegates (called on the control thread; must not block).
    ///   - display: the status for the terminal, when it changes and every
    ///     `configuration.displayInterval` while playing.
    ///   - message: one human line to show the user (errors, notices).
    public init(
        configuration: PlayerConfiguration, device: any AudioOutput,
        events: @escaping @Sendable (PlayerEvent) -> Void,
        display: @escaping @Sendable (PlayerDisplay) -> Void,
        message: @escaping @Sendable (String) -> Void
    ) {
        var configuration = configuration
        configuration.outputName = device.name
        self.configuration = configuration
        self.device = device
        self.events = events
        self.display = display
        self.message = message
    }

    /// Any thread.
    /// Asks the player to do something; only enqueues (see `PlayerInbox` for the
    /// bounds: a source whose queue is full is answered `.busy`). A skip is refused at once when
    /// none is possible now (the person at the keyboard is also told why, on the status line).
    ///
    /// `track` names the track the command is meant for (0: whatever is current when the player
    /// acts on it); a command for a track that is no longer current is refused as stale, one for an
    /// id that never named a track as "no such track". Once `run` has returned, every command is
    /// refused ("motet is quitting"): nothing would act on it.
    @discardableResult
    public func send(_ command: PlayerCommand, track: UInt64 = 0, from source: CommandSource) -> CommandAnswer {
        if let why = answers.trackRefusal(track: track) { return .refused(why) }
        if command == .next, let why = answers.nextRefusal() {
            if source == .user { _ = inbox.post(command, from: source) }
            return .refused(why)
        }
        return inbox.post(command, from: source, track: track)
    }

    /// Any thread.
    /// Whether a screen shows the status line now: the periodic refresh (and the control thread's
    /// wake-up for it) stops while it is hidden, e.g. while Motet is a background job, and when it
    /// is shown again the status is sent at once. Shown until said otherwise.
    public func setDisplayShown(_ shown: Bool) {
        inbox.post(displayShown: shown)
    }

    /// Control thread.
    /// Plays the queue to its end or until `quit`, on the calling thread, which becomes the control
    /// thread (`ThreadRole.control`) for good. The state machine (`PlayerStateMachine`) is reached
    /// only from here, so its methods carry no check of their own: this one covers them.
    public func run() -> Outcome {
        ThreadRole.control.enter()
        let queue = PlayQueue(
            files: configuration.files, titles: configuration.titles, origins: configuration.origins, shuffle: configuration.shuffle,
            loop: configuration.loop)
        // One store for the player and the decoder: a dislike given now counts on the next pass.
        let feedback = configuration.feedbackDirectory.map { FeedbackStore(directory: $0) }
        let engine = WorkerEngine(
            configuration: configuration, queue: queue, device: device, inbox: inbox,
            disliked: DislikedTracks(enabled: configuration.skipDisliked, feedback: feedback))
        let machine = PlayerStateMachine(
            configuration: configuration, queue: queue, engine: engine, answers: answers, feedback: feedback, now: { .now() },
            wallNow: unixMicros, outputs: .init(events: events, display: display, message: message))
        machine.start()
        engine.start()
        var more = false
        var unhandled: [PlayerMessage] = []
        while !machine.isFinished {
            if !more { inbox.wakeup.wait(until: machine.nextDeadline()) }
            // Output events first, then the inbox (see PlayerStateMachine.handle(inbox:output:)).
            var output: [OutputEvent] = []
            engine.takeEvents { output.append($0) }
            let taken = inbox.take()
            more = taken.more
            unhandled = machine.handle(inbox: taken.messages, output: output)
        }
        reportUnapplied(unhandled + inbox.close(), machine)
        engine.shutdown()
        return machine.outcome
    }

    /// Control thread.
    /// Ratings accepted just before the end (in the batch that quit, or while it was handled)
    /// that nothing will apply: one line each, so that none is lost silently. Later ones are
    /// refused (`PlayerInbox.close`).
    private func reportUnapplied(_ messages: [PlayerMessage], _ machine: PlayerStateMachine) {
        ThreadRole.control.check()
        for case .command(let command, let source, _) in messages
        where command == .like || command == .dislike || command == .unlike {
            message("motet: \(command.name)\(machine.who(source)) not applied: motet was quitting")
        }
    }
}
