@testable import MotetPlayback
import MotetSystem

/// A `PlaybackEngine` whose output the test scripts: it records what the state machine asked for
/// and reports whatever heard position the test sets. No threads, no device, no sleeps.
final class ScriptedEngine: PlaybackEngine {
    struct Reposition: Equatable {
        var position: Int?
        var start: Duration
        var reuseTrackID: UInt64?
        var hold: Bool
        var backwards = false
    }

    private(set) var repositions: [Reposition] = []
    /// Each reposition's fade: where the cut fell and its kind (nil: none).
    private(set) var fades: [(FadePlace, CutFade)?] = []
    /// Where `cut()` says the sound stops: the heard position, unless a test sets it.
    var cutAt: OutputCut?

    func cut(tail: Duration) -> OutputCut { cutAt ?? OutputCut(epoch: heardNow.epoch, frame: heardNow.frames) }
    private(set) var generation = 0
    private(set) var paused = false
    private(set) var pauseCalls: [Bool] = []
    private(set) var released = 0
    private(set) var volume: Float = 1
    /// The play order the decoder would follow: the one the machine gave last (the rig sets the first).
    var queue = PlayQueue(files: [], shuffle: false, loop: false)
    /// Each playlist whose entries the machine placed (`entriesPlaced`): where, and from when.
    private(set) var placed: [(position: Int, start: Duration)] = []
    /// The last order position the scripted decoder took (nil: none since the last reposition).
    var lastDecoded: Int?
    /// What `heard()` answers.
    var heardNow = HeardNow(epoch: 1, frames: 0, framesPerSecond: 44100, at: MonotonicInstant(nanoseconds: 0), limitFrames: .max)

    func reposition(
        to position: Int?, start: Duration, reuseTrackID: UInt64?, hold: Bool, backwards: Bool, fade: (FadePlace, CutFade)?
    ) -> Int {
        lastDecoded = nil
        fades.append(fade)
        repositions.append(
            Reposition(position: position, start: start, reuseTrackID: reuseTrackID, hold: hold, backwards: backwards))
        generation += 1
        // A flush starts a new output stream: nothing written, nothing heard.
        heardNow.epoch += 1
        heardNow.frames = 0
        return generation
    }

    func release() { released += 1 }

    func setPaused(_ paused: Bool, atPausePoint: Bool) {
        self.paused = paused
        pauseCalls.append(paused)
    }

    func setVolume(_ scale: Float) { volume = scale }

    func heard() -> HeardNow { heardNow }

    func changeQueue(_ queue: inout PlayQueue, _ body: (inout PlayQueue, _ lastDecoded: Int?) -> Void) {
        body(&queue, lastDecoded)
        self.queue = queue
    }

    func entriesPlaced(at position: Int, in queue: PlayQueue, start: Duration) {
        self.queue = queue
        placed.append((position, start))
    }
}
