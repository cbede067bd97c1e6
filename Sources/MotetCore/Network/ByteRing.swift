/// A fixed ring of bytes: what came from the network and the decoder has not read yet. Not
/// thread-safe: its owner guards it (`NetworkStream` with its monitor). Never grows.
struct ByteRing: ~Copyable {
    let capacity: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private var start = 0
    /// The bytes held.
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    var room: Int { capacity - count }

    /// Appends as much of `bytes` as fits; the count appended.
    mutating func put(_ bytes: UnsafeRawBufferPointer) -> Int {
        let n = min(room, bytes.count)
        guard n > 0, let from = bytes.baseAddress else { return 0 }
        let end = (start + count) % capacity
        let first = min(n, capacity - end)
        UnsafeMutableRawPointer(storage + end).copyMemory(from: from, byteCount: first)
        if n > first { UnsafeMutableRawPointer(storage).copyMemory(from: from + first, byteCount: n - first) }
        count += n
        return n
    }

    /// Moves the oldest `n` bytes (at most `count`) into `buffer`; the count moved.
    mutating func take(into buffer: UnsafeMutableRawPointer, _ wanted: Int) -> Int {
        let n = min(max(0, wanted), count)
        let first = min(n, capacity - start)
        buffer.copyMemory(from: storage + start, byteCount: first)
        if n > first { (buffer + first).copyMemory(from: storage, byteCount: n - first) }
        drop(n)
        return n
    }

    /// Forgets the oldest `n` bytes (at most `count`).
    mutating func drop(_ n: Int) {
        let n = min(max(0, n), count)
        start = (start + n) % capacity
        count -= n
    }

    mutating func removeAll() {
        start = 0
        count = 0
    }
}
