#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A single-producer, single-consumer ring of Float samples between the decoder thread and the
/// sink thread. Lock-free and allocation-free after init. Indexes count samples since the start
/// and never wrap (Int is 64-bit: centuries of audio).
final class SampleRing: @unchecked Sendable {
    // Unchecked: the storage is shared raw memory; the atomic read and write indexes order who
    // may touch which samples (one producer, one consumer).
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let mask: Int
    /// Samples ever written (producer-owned).
    private let written = Atomic<Int>(0)
    /// Samples ever read (consumer-owned).
    private let consumed = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    init(minimumCapacity: Int) {
        var c = 1
        while c < minimumCapacity { c <<= 1 }
        capacity = c
        mask = c - 1
        storage = .allocate(capacity: c)
        storage.initialize(repeating: 0, count: c)
    }
    deinit { storage.deallocate() }

    var writeIndex: Int { written.load(ordering: .acquiring) }
    var readIndex: Int { consumed.load(ordering: .acquiring) }
    var availableToRead: Int { written.load(ordering: .acquiring) - consumed.load(ordering: .relaxed) }
    var availableToWrite: Int { capacity - (written.load(ordering: .relaxed) - consumed.load(ordering: .acquiring)) }

    /// Producer: copies up to `count` samples in; returns how many fit.
    func write(_ source: UnsafePointer<Float>, count: Int) -> Int {
        let n = min(count, availableToWrite)
        guard n > 0 else { return 0 }
        let start = written.load(ordering: .relaxed)
        let first = min(n, capacity - (start & mask))
        (storage + (start & mask)).update(from: source, count: first)
        if n > first { storage.update(from: source + first, count: n - first) }
        written.store(start + n, ordering: .releasing)
        return n
    }

    /// Producer: the free samples that follow the write index without wrapping, to be filled in
    /// place (the decoder interleaves straight into them) and then published with `commitWrite`.
    func writableRegion() -> UnsafeMutableBufferPointer<Float> {
        let start = written.load(ordering: .relaxed)
        let free = capacity - (start - consumed.load(ordering: .acquiring))
        return UnsafeMutableBufferPointer(start: storage + (start & mask), count: min(free, capacity - (start & mask)))
    }

    /// Producer: publishes `count` samples written into `writableRegion()`.
    func commitWrite(_ count: Int) {
        written.store(written.load(ordering: .relaxed) + count, ordering: .releasing)
    }

    /// Consumer: the buffered samples that follow the read index without wrapping, to be used in
    /// place (the sink writes straight from them) and then released with `commitRead`. The
    /// consumer may change them in place (volume): the producer does not touch them until then.
    func readableRegion() -> UnsafeMutableBufferPointer<Float> {
        let start = consumed.load(ordering: .relaxed)
        let buffered = written.load(ordering: .acquiring) - start
        return UnsafeMutableBufferPointer(start: storage + (start & mask), count: min(buffered, capacity - (start & mask)))
    }

    /// Consumer: releases `count` samples of `readableRegion()` to the producer.
    func commitRead(_ count: Int) {
        consumed.store(consumed.load(ordering: .relaxed) + count, ordering: .releasing)
    }

    /// Consumer: copies the first `count` buffered samples out without releasing them (a frame
    /// split by the ring's wrap, which the device may not take at once); returns how many.
    func peek(into destination: UnsafeMutablePointer<Float>, count: Int) -> Int {
        let n = min(count, availableToRead)
        guard n > 0 else { return 0 }
        let start = consumed.load(ordering: .relaxed)
        let first = min(n, capacity - (start & mask))
        destination.update(from: storage + (start & mask), count: first)
        if n > first { (destination + first).update(from: storage, count: n - first) }
        return n
    }

    /// Only while both threads are parked: copies the `count` samples from sample index `index` on
    /// into `destination`. The ring still holds every sample of the last `capacity` written (a
    /// sample stays in its slot until the producer overwrites it), read or not: `index` must be
    /// at least `writeIndex - capacity`, and `index + count` at most `writeIndex`.
    func copy(from index: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        precondition(index >= writeIndex - capacity && index + count <= writeIndex, "outside what the ring holds")
        let first = min(count, capacity - (index & mask))
        destination.update(from: storage + (index & mask), count: first)
        if count > first { (destination + first).update(from: storage, count: count - first) }
    }

    /// Only while both threads are parked: forget everything buffered.
    func reset() {
        consumed.store(written.load(ordering: .acquiring), ordering: .releasing)
    }
}

/// Where a segment (one link of one track, one format) starts in the sample stream. Plain data, so
/// passing it to the sink thread allocates nothing.
struct SegmentMarker: Sendable {
    /// Sample index (SampleRing coordinates) of the segment's first sample.
    var sampleIndex: Int
    var segmentID: UInt64
    var sampleRate: Int
    var channels: Int
    /// ReplayGain scale for this segment.
    var gain: Float
    /// The end of the queue: no samples follow.
    var isEnd: Bool
    /// A pause asked with a fade (`SinkWorker.setPaused(_:atPausePoint:)`) takes effect here, after
    /// the fade-out before it. Such a marker, like the one of a fade's tail, has segment id 0: it
    /// starts no segment the control thread knows.
    var pausePoint = false
    /// The segment is read over the network: the sink keeps what it writes of it
    /// (`WrittenHistory`), since a cut cannot read it again for its fade out.
    var keepsHistory = false
}

/// A fixed-capacity single-producer, single-consumer queue of plain values.
final class SPSCQueue<Element: Sendable>: @unchecked Sendable {
    // Unchecked: the slots are raw memory; the atomic head and tail order the one producer and
    // the one consumer.
    private let slots: UnsafeMutablePointer<Element?>
    private let capacity: Int
    private let head = Atomic<Int>(0)  // next to read
    private let tail = Atomic<Int>(0)  // next to write

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }
    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }

    /// Producer: no room for another value now.
    var isFull: Bool { tail.load(ordering: .relaxed) - head.load(ordering: .acquiring) >= capacity }

    /// Producer. Returns false when full.
    @discardableResult
    func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < capacity else { return false }
        slots[t % capacity] = value
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Consumer.
    func peek() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        return slots[h % capacity]
    }

    /// Consumer.
    func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        let v = slots[h % capacity]
        head.store(h + 1, ordering: .releasing)
        return v
    }

    /// Only while both sides are parked.
    func reset() {
        while pop() != nil {}
    }
}
