import MotetEvents
import MotetSystem

/// The control thread's one inbox: the decoder's reports, and the commands of keys, signals and
/// plugins, each source in its own bounded lane.
///
/// - Bounded: a lane holds `laneCapacity` commands; the last `reservedForStop` places are kept for
///   quit and stop, so a flood of other commands can neither grow memory nor keep the player from
///   stopping. A full lane answers `.busy`. A quit or stop that finds its lane full while the same
///   command is already waiting there is accepted: the waiting one will do.
/// - Fair: each turn takes at most `perTurn` commands from each lane, one lane after the other, so
///   one plugin's flood delays another plugin's command or a key press by at most a turn.
/// - Ordered: commands from one source keep their order; the decoder's reports keep theirs.
/// Posting never blocks for long (a short lock, then a wake-up); the sink thread never posts here
/// (its events go through the sink worker's lock-free queue).
final class PlayerInbox: Sendable {
    static let laneCapacity = 64
    static let reservedForStop = 2
    static let perTurn = 4

    private struct State {
        var reports: [DecoderReport] = []
        /// The last word on whether the status line is shown, not yet taken.
        var displayShown: Bool?
        /// Lanes in the order their sources first sent something.
        var lanes: [(source: CommandSource, commands: [(command: PlayerCommand, track: UInt64)])] = []
        /// The player has finished: commands are refused from now on.
        var closed = false
    }

    /// The answer to every command once the player has finished (a plugin's like sent while the
    /// plugins shut down, for example): refused, so that its sender knows it was not applied.
    static let closedRefusal = "motet is quitting"

    private let state = Locked(State())
    /// Wakes the control thread; shared with the sink worker.
    let wakeup = Wakeup()

    /// Any thread.
    /// Queues a command for `track` (0: whatever is current), or answers `.busy` when its source's
    /// lane is full.
    func post(_ command: PlayerCommand, from source: CommandSource, track: UInt64 = 0) -> CommandAnswer {
        let answer: CommandAnswer = state.withLock { s in
            guard !s.closed else { return .refused(Self.closedRefusal) }
            let i: Int
            if let found = s.lanes.firstIndex(where: { $0.source == source }) {
                i = found
            } else {
                s.lanes.append((source, []))
                i = s.lanes.count - 1
            }
            let stops = command == .quit || command == .stop
            let room = stops ? Self.laneCapacity : Self.laneCapacity - Self.reservedForStop
            guard s.lanes[i].commands.count < room else {
                return stops && s.lanes[i].commands.contains { $0.command == command } ? .accepted : .busy
            }
            s.lanes[i].commands.append((command, track))
            return .accepted
        }
        if answer == .accepted { wakeup.signal() }
        return answer
    }

    /// Any thread (the decoder).
    /// Queues a report; never refused.
    func post(_ report: DecoderReport) {
        state.withLock { $0.reports.append(report) }
        wakeup.signal()
    }

    /// Any thread (the terminal's keyboard reader).
    /// The status line is now shown, or no longer; only the last word counts.
    func post(displayShown shown: Bool) {
        state.withLock { $0.displayShown = shown }
        wakeup.signal()
    }

    /// Control thread.
    /// Whether the status line is shown (if that was said), every report, then up to `perTurn`
    /// commands of each lane taken in turns. `more` is true when commands are left for the next
    /// turn.
    func take() -> (messages: [PlayerMessage], more: Bool) {
        ThreadRole.control.check()
        return state.withLock { s in
            var messages: [PlayerMessage] = s.displayShown.map { [.display(shown: $0)] } ?? []
            s.displayShown = nil
            messages += s.reports.map(PlayerMessage.decoder)
            s.reports.removeAll(keepingCapacity: true)
            for round in 0..<Self.perTurn {
                for i in s.lanes.indices where round < s.lanes[i].commands.count {
                    let (command, track) = s.lanes[i].commands[round]
                    messages.append(.command(command, s.lanes[i].source, track: track))
                }
            }
            var more = false
            for i in s.lanes.indices {
                s.lanes[i].commands.removeFirst(min(Self.perTurn, s.lanes[i].commands.count))
                more = more || !s.lanes[i].commands.isEmpty
            }
            return (messages, more)
        }
    }

    /// Control thread.
    /// Once the player has finished: refuses every command from now on, and returns the ones
    /// still waiting (accepted, never to be acted on).
    func close() -> [PlayerMessage] {
        ThreadRole.control.check()
        return state.withLock { s in
            s.closed = true
            defer { s.lanes = [] }
            return s.lanes.flatMap { lane in lane.commands.map { PlayerMessage.command($0.command, lane.source, track: $0.track) } }
        }
    }
}
