import MotetEvents

/// A place where PCM goes: PulseAudio, ALSA, a WAV file or nowhere at all (`null`).
///
/// Frames arrive as interleaved 32-bit floats in WAV (WAVEFORMATEXTENSIBLE / SMPTE) channel order,
/// the shape described by `AudioFormat`. A sink converts them to what its device takes.
///
/// Threads and duties:
/// - `open`, `write`, `drain`, `flush` and `close` are called by one thread, the player's *sink
///   thread*. `write` never allocates and takes no lock that the UI or a plugin can hold.
/// - `interruptWrite`, `pause`, `resume` and `heardFrames` may be called from any thread.
/// - `onEvent` is set before `open` and is called from the sink's own threads (PulseAudio's
///   main loop); the handler must only enqueue.
public protocol AudioSink: AnyObject, Sendable {
    /// The output's name as the user chooses it: "pulse", "alsa", "wav" or "null".
    var name: String { get }

    /// Opens the device for `format`, or reopens it when the format really changes (what was
    /// written before is played out first; call `flush` first to drop it). Opening with the format
    /// already open does nothing. Resets `heardFrames` to 0 when it (re)opens. Called on the sink
    /// thread.
    func open(_ format: AudioFormat) throws(OutputError)

    /// Plays `frames` (count = frames.count / channels). Blocks, paced by the device, until all are
    /// accepted, and returns how many frames were accepted: fewer (maybe 0) when `interruptWrite()`
    /// was called from another thread, when the stream is paused (corked), or when the server is
    /// lost. Never allocates; takes no lock that the UI or a plugin can hold. Called only on the
    /// sink thread.
    func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int

    /// Makes a blocked `write` (or `drain`) return soon. An interruption that arrives while no
    /// `write` is running makes the next `write` return at once (so none is ever lost), unless
    /// `resume` or `flush` comes first: they cancel a pending interruption. Thread-safe.
    func interruptWrite()

    /// Corks the stream: the device stops playing and the heard clock stops. A running `write`
    /// returns once the device's buffer is full. Thread-safe.
    func pause()

    /// Uncorks the stream after `pause`, and cancels a pending `interruptWrite`. Thread-safe.
    func resume()

    /// Drops what is buffered and not yet heard (seek, skip, stop); resets `heardFrames` to 0 and
    /// cancels a pending `interruptWrite`.
    func flush()

    /// Blocks until everything written has been heard (end of the queue, before exit). Returns at
    /// once when paused, when the server is lost, or when `interruptWrite` is called.
    func drain()

    /// Releases the device (and finalises a file). Further writes are refused.
    func close()

    /// Frames of the current stream heard so far: what the device has played minus its latency,
    /// never more than written. Thread-safe, lock-free, cheap enough to call 10 times a second.
    var heardFrames: Int64 { get }

    /// Interruptions from the sound server. Set before `open`; called from the sink's own threads;
    /// the handler only enqueues.
    var onEvent: (@Sendable (SinkEvent) -> Void)? { get set }
}
