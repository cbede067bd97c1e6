import MotetEvents
import MotetOutput
import Synchronization
import MotetSystem

/// Where a segment began in the sink's frame count, so the control thread can tell when it is heard.
struct SegmentBoundary: Sendable, Equatable {
    var segmentID: UInt64
    /// Sink stream generation (bumped by each open and flush, which reset the sink's frame count).
    var epoch: Int
    /// Frames written to the device in this epoch before the segment's first frame.
    var frame: Int64
}

/// What the output side tells the control thread, in the order it happened (`SinkWorker.takeEvents`).
enum OutputEvent: Sendable, Equatable {
    /// The segment's first frame went to the device. Never dropped.
    case segmentWritten(SegmentBoundary)
    /// The ring ran dry before the end, with the device open and not paused, and stayed dry for
    /// ~100 ms (so untimed runs, which empty the ring all the time, send none); once per episode.
    /// `since`: when it ran dry.
    case starving(since: MonotonicInstant)
    /// Samples flow again after a `.starving`.
    case fed
    /// The end marker was reached and the device drained (every `segmentWritten` came before).
    case ended
    /// The device's own events (cork/uncork requests, lost, restored, glitch), in the order the
    /// device sent them; never counted or coalesced.
    case notice(OutputNotice)
    /// Opening or writing the device failed; `endsPlayback` says whether the output is finished
    /// for good.
    case failed(OutputError)
}

/// A value with its place in the order of all output events.
struct Stamped<Value: Sendable>: Sendable {
    var order: UInt64
    var value: Value
}

/// The output events on their way to the control thread: one lock-free queue per producer thread
/// (the sink thread; the device's own thread), merged back into one order when taken.
///
/// Each event takes a stamp from one atomic counter as it is queued, so `take` can replay both
/// queues in the order things happened. Two events queued at the same moment on two threads have
/// no order of their own: either may come first.
final class OutputEventQueues: Sendable {
    private let order = Atomic<UInt64>(0)
    /// Filled by the sink thread only.
    private let fromWorker = SPSCQueue<Stamped<OutputEvent>>(capacity: 256)
    /// Filled by the device's handler only (one call at a time, as `AudioOutput.onEvent` promises).
    private let fromDevice = SPSCQueue<Stamped<OutputNotice>>(capacity: 64)
    private let dropped = Atomic<Int>(0)

    /// Any thread.
    /// Device events dropped because their queue was full (the control thread did not take them
    /// for 64 events).
    var droppedDeviceEvents: Int { dropped.load(ordering: .relaxed) }

    /// Sink thread.
    /// False when the queue is full (the caller waits for room: nothing it sends may be dropped).
    func pushFromWorker(_ event: OutputEvent) -> Bool {
        ThreadRole.sink.check()
        guard !fromWorker.isFull else { return false }
        return fromWorker.push(Stamped(order: order.add(1, ordering: .relaxed).newValue, value: event))
    }

    /// The device's thread (it has no `ThreadRole`: not checked).
    /// Queues `event`, or drops and counts it when the queue is full.
    func pushFromDevice(_ event: OutputNotice) {
        let stamped = Stamped(order: order.add(1, ordering: .relaxed).newValue, value: event)
        if !fromDevice.push(stamped) { dropped.add(1, ordering: .relaxed) }
    }

    /// Control thread.
    /// Every queued event, oldest first.
    func take(_ body: (OutputEvent) -> Void) {
        ThreadRole.control.check()
        while true {
            let worker = fromWorker.peek()
            let device = fromDevice.peek()
            if let worker, device.map({ worker.order < $0.order }) ?? true {
                _ = fromWorker.pop()
                body(worker.value)
            } else if let device {
                _ = fromDevice.pop()
                body(.notice(device.value))
            } else {
                return
            }
        }
    }
}
