import Foundation
import MotetNetwork
import MotetTestSupport
import Synchronization
import Testing

/// `NetworkStream`'s reads against a real server: the pre-buffer, its hysteresis once the buffer
/// ran dry, and `interrupt` ending a blocked read.
@Suite struct NetworkStreamTests {
    static func server() throws -> FaultyHTTPServer {
        let dir = try Paths.temporaryDirectory("motet-stream")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: dir + "/data.bin"))
        return try FaultyHTTPServer(directory: dir)
    }

    /// A read on its own thread: its result once it returned.
    final class BackgroundRead: Sendable {
        let result = Mutex<Int?>(nil)
        init(_ stream: NetworkStream) {
            Thread.detachNewThread { [self] in
                var byte: UInt8 = 0
                let n = stream.read(&byte, 1)
                result.withLock { $0 = n }
            }
        }
    }

    static func options(prebuffer seconds: Double) -> NetworkOptions {
        var o = NetworkOptions()
        o.prebuffer = .seconds(seconds)  // × 160 kbit/s before the bit rate is known: 20,000 bytes a second
        return o
    }

    @Test func aReadWaitsForThePreBufferAndInterruptEndsIt() throws {
        let server = try Self.server()
        // 10,000 bytes arrive, then nothing: less than a 1 s pre-buffer (20,000 bytes).
        let url = server.url("data.bin?stall=10000&type=application/octet-stream")
        let waiting = NetworkStream(url: url, options: Self.options(prebuffer: 1), notice: { _ in })
        let read = BackgroundRead(waiting)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(read.result.withLock { $0 } == nil, "a read returned before the pre-buffer was full")
        waiting.interrupt()
        #expect(try Shell.waitUntil(timeout: 2) { read.result.withLock { $0 } == -1 })

        // A quarter second (5,000 bytes) is there: reads go on at once.
        let flowing = NetworkStream(url: url, options: Self.options(prebuffer: 0.25), notice: { _ in })
        defer { flowing.interrupt() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(flowing.read(&buffer, buffer.count) > 0)
    }

    @Test func afterRunningDryAReadWaitsUntilThePreBufferIsBackNotForTheNextByte() throws {
        let server = try Self.server()
        // 10,000 bytes fast, then a byte a second.
        let url = server.url("data.bin?trickle=10000&type=application/octet-stream")
        let stream = NetworkStream(url: url, options: Self.options(prebuffer: 0.25), notice: { _ in })
        defer { stream.interrupt() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < 10_000 {
            let n = stream.read(&buffer, buffer.count)
            try #require(n > 0)
            total += n
        }
        #expect(total < 10_010)  // the first trickled byte may come with them
        // Trickled bytes that came before a read found the buffer empty are read at once (on a
        // slow machine, a sanitizer, one or two may be there): take them without pausing, so that
        // no more pile up, until a read finds the buffer empty and waits.
        var read = BackgroundRead(stream)
        var early = 0
        while try Shell.waitUntil(timeout: 0.3, { read.result.withLock { $0 } != nil }) {
            #expect(read.result.withLock { $0 } == 1)
            early += 1
            try #require(early < 5, "reads keep returning trickled bytes: the buffer never ran dry")
            read = BackgroundRead(stream)
        }
        // Dry now: a byte comes every second, but the read waits for 5,000 of them.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(read.result.withLock { $0 } == nil, "a read returned a trickled byte before the pre-buffer was back")
        stream.interrupt()
        #expect(try Shell.waitUntil(timeout: 2) { read.result.withLock { $0 } == -1 })
    }
}
