import MotetEvents

/// A place where PCM goes: PulseAudio, ALSA, a WAV file or nowhere at all (`null`), seen as a
/// buffer that the device plays from. Shaped like mpv's `audio/out/internal.h` driver: small and
/// single-threaded; the player's sink worker owns blocking, pausing, interruptions, the heard
/// position and draining.
///
/// Frames arrive as interleaved 32-bit floats in WAV (WAVEFORMATEXTENSIBLE / SMPTE) channel order,
/// the shape described by `AudioFormat`. A device converts them to what it takes.
///
/// Threads:
/// - **[sink thread]** requirements are called by one thread at a time, the sink worker's (before
///   the worker starts and after it is joined, by the thread that owns the worker). They never
///   allocate in the steady state (a device's library may) and take no lock that the UI or a plugin
///   can hold.
/// - **[thread-safe]** requirements (`wakeup`, and the `onEvent` handler the device calls) may be
///   used from any thread.
public protocol AudioOutput: AnyObject, Sendable {
    /// The output's name as the user chooses it: "pulse", "alsa", "wav" or "null". [thread-safe]
    var name: String { get }

    /// Opens the device for `format`, or reopens it when the format really changes (call `drain`
    /// first to play out what was written, or `reset` to drop it). Opening with the format already
    /// open does nothing. [sink thread]
    func open(_ format: AudioFormat) throws(OutputError)

    /// Takes at most `state().freeFrames` of `frames` (count = frames.count / channels) and returns
    /// how many it took. Never blocks: 0 when the device is full, paused, lost or not open.
    /// [sink thread]
    func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int

    /// Free space, delay and whether the device is playing or lost, now. Cheap: the worker asks
    /// after every write and wait. [sink thread]
    func state() -> DeviceState

    /// Blocks until there is room worth writing, the device's state changes, `wakeup()` is called
    /// or `timeout` passes, whichever comes first. May return early for no reason. A `wakeup()`
    /// that came while nobody waited makes the next `wait` (or `drain`) return at once.
    /// [sink thread]
    func wait(timeout: Duration)

    /// Plays out what was written. Blocks until all of it has been heard and returns true (true
    /// too when it never can be: the device is closed, or lost for a device that cannot come
    /// back with it; PulseAudio instead waits while the server is gone with audio unheard, for
    /// the owner to go back to what was heard once `.restored` comes), or returns false soon
    /// (within 50 ms) after `wakeup()`, or at once when the device is paused; what is buffered
    /// stays.
    /// [sink thread]
    @discardableResult
    func drain() -> Bool

    /// Drops what is buffered and not yet heard (seek, skip, stop): the delay becomes 0. Also
    /// forgets a pending `wakeup()`. [sink thread]
    func reset()

    /// Prepares a cut (seek, skip, stop, pause with a de-click): returns how many of the frames
    /// written will never be heard if `reset` follows at once, the sound stopping exactly before
    /// them, so that a fade out written next starts at the very frame that plays next. Nil when
    /// the device cannot tell: `reset` then drops what is not heard, which `state().delayFrames`
    /// only estimates. A `write` or `setPaused` before `reset` forgets the cut. Optional: the
    /// default says nil. [sink thread]
    func cut() -> Int64?

    /// Nothing more is written for now (after a cut's fade out: a pause point, a stop): what was
    /// written is to be heard to its end, even a remainder shorter than the device's block (a
    /// server that plays whole blocks only would hold it back until more came). Never blocks.
    /// Optional: the default does nothing. [sink thread]
    func playOut()

    /// Pauses (corks) the device, keeping what it holds, or plays on. While paused the device
    /// plays nothing and its delay stands still. [sink thread]
    func setPaused(_ paused: Bool)

    /// Releases the device (and finalises a file). Further writes are refused. [sink thread]
    func close()

    /// Makes a running `wait` or `drain` return soon, or the next one return at once.
    /// [thread-safe] Never blocks for long, never allocates.
    func wakeup()

    /// Set once, before `open`, by the device's owner. The device calls it from its own threads
    /// (PulseAudio's main loop) or the sink thread, one call at a time, in the order things
    /// happened. The handler must only enqueue. [thread-safe]
    var onEvent: (@Sendable (OutputNotice) -> Void)? { get set }

    /// What `reset` leaves to be heard: true for a file (it cannot take back what it holds) and
    /// for `null`; false for a device, which drops what it had not played. A fade out of a cut
    /// starts where the sound really stops (`SinkWorker.cutWhileParked`). [thread-safe]
    var keepsWrittenAudio: Bool { get }

    /// Names the track being heard, for what a desktop shows about the output (PulseAudio's
    /// `media.title` / `media.artist`). Called by the control thread when the heard track changes,
    /// never on the sample path. Optional: the default does nothing. [thread-safe]
    func describe(title: String?, artist: String?)
}

extension AudioOutput {
    /// A device drops what it had not played.
    public var keepsWrittenAudio: Bool { false }

    /// No cut: `reset` drops what the device holds.
    public func cut() -> Int64? { nil }

    /// A device plays what it holds.
    public func playOut() {}

    /// Nothing to show: most devices have no place for it.
    public func describe(title: String?, artist: String?) {}
}

/// A device's buffer as `AudioOutput.state()` sees it.
public struct DeviceState: Sendable, Equatable {
    /// Frames `write` would take now. A device may say 0 below its own granularity (an ALSA
    /// period while it runs) so that the worker sleeps instead of writing a trickle.
    public var freeFrames: Int
    /// Frames written and not yet heard. After a loss it includes what the lost stream took away
    /// (never to be heard) until `reset`.
    public var delayFrames: Int64
    /// The device clock runs: what is buffered is being heard right now.
    public var playing: Bool
    /// The device or server is gone; the device tries to come back by itself (`.lost`, then
    /// `.restored`, through `onEvent`).
    public var lost: Bool
    /// True when the sound server paused us on its own, false when it did not, nil when the device
    /// cannot tell (every device today: PulseAudio only *asks* us to cork).
    public var pausedByServer: Bool?
    /// The part of `delayFrames` still held in this process (PulseAudio's staging ring): it
    /// reaches the server only with later writes, so while the process does not run (Ctrl-Z) it
    /// is not heard, and the heard position is never extrapolated into it.
    public var stagedFrames: Int64

    /// A state with everything spelled out.
    public init(
        freeFrames: Int, delayFrames: Int64, playing: Bool, lost: Bool = false, pausedByServer: Bool? = nil,
        stagedFrames: Int64 = 0
    ) {
        self.freeFrames = freeFrames
        self.delayFrames = delayFrames
        self.playing = playing
        self.lost = lost
        self.pausedByServer = pausedByServer
        self.stagedFrames = stagedFrames
    }
}
