import MotetPluginKit
import NowPlayingJSON

/// The snapshot and the two files, shared by the plugin queue and the refresh thread. One lock
/// covers a change and its write, so the file on disk never goes back to an older state.
final class StateFiles: Sendable {
    private struct Guarded {
        var snapshot: PlayerSnapshot
        var stateFile: AtomicFile
        var events: AppendOnlyFile?
        var stateFailureReported = false
        var eventsFailureReported = false
        var closed = false
    }

    private let host: MotetHost
    private let guarded: Locked<Guarded>

    /// Opens the events file (when asked for) and writes the initial, stopped state, so that a bad
    /// path is reported at create time. Throws the reason.
    init(host: MotetHost, statePath: String, eventsPath: String?) throws {
        self.host = host
        var events: AppendOnlyFile?
        if let eventsPath {
            switch AppendOnlyFile.open(eventsPath) {
            case .success(let f): events = f
            case .failure(let f):
                throw DelegateError("events file '\(eventsPath)': \(f.action): \(f.reason); \(f.advice) or set events= to another file")
            }
        }
        var stateFile = AtomicFile(path: statePath)
        let snapshot = PlayerSnapshot(process: .current())
        var json = JSONWriter()
        snapshot.write(to: &json, extrapolated: false)
        json.newline()
        if let f = stateFile.replace(with: json.bytes) {
            events?.close()
            throw DelegateError("state file '\(statePath)': \(f.action): \(f.reason); \(f.advice) or set path= to another file")
        }
        guarded = Locked(Guarded(snapshot: snapshot, stateFile: stateFile, events: events))
    }

    /// Applies `change`, rewrites the state file and appends one events line (the event's own
    /// `fields`, then the whole state as `current`).
    func update(event: String, fields: (inout JSONWriter) -> Void, _ change: (inout PlayerSnapshot) -> Void) {
        guarded.withLock { g in
            guard !g.closed else { return }
            change(&g.snapshot)
            var state = JSONWriter()
            g.snapshot.write(to: &state, extrapolated: false)
            state.newline()
            reportState(g.stateFile.replace(with: state.bytes), &g)
            if let events = g.events {
                var line = JSONWriter()
                line.beginObject()
                line.key("event"); line.string(event)
                line.key("time"); line.seconds(micros: Clock.wallMicros())
                fields(&line)
                line.key("current"); g.snapshot.write(to: &line, extrapolated: false)
                line.endObject()
                line.newline()
                report(
                    events.append(line.bytes), flag: &g.eventsFailureReported, file: "events file '\(events.path)'",
                    outcome: "events are left out of it until it can be written again (it still ends with a whole line)")
            }
        }
    }

    /// Rewrites the state file with `elapsed` extrapolated to now, only while playing.
    func refreshElapsed() {
        guarded.withLock { g in
            guard !g.closed, g.snapshot.state == "playing", let np = g.snapshot.nowPlaying, np.hasTrack,
                np.rate > 0, np.elapsedMicros != nil
            else { return }
            var state = JSONWriter()
            g.snapshot.write(to: &state, extrapolated: true)
            state.newline()
            reportState(g.stateFile.replace(with: state.bytes), &g)
        }
    }

    func close() {
        guarded.withLock { g in
            g.closed = true
            g.events?.close()
        }
    }

    private func reportState(_ failure: FileFailure?, _ g: inout Guarded) {
        report(
            failure, flag: &g.stateFailureReported, file: "state file '\(g.stateFile.path)'",
            outcome: "it keeps the previous state")
    }

    /// Logs the first failure of each file (one line: the file, what failed and why, what the file
    /// holds now, what to do), and when it works again.
    private func report(_ failure: FileFailure?, flag: inout Bool, file: String, outcome: String) {
        if let f = failure {
            if !flag {
                host.log(.error, "\(file): \(f.action): \(f.reason); \(outcome); \(f.advice) (will keep trying)")
            }
            flag = true
        } else if flag {
            host.log(.info, "\(file): writing again")
            flag = false
        }
    }
}
