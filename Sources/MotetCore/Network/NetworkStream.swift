#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetSystem

/// An HTTP resource as a byte source for libvorbisfile: libcurl fills a bounded buffer on the
/// stream's own thread; the decoder reads from it (`NetworkStreamCallbacks`), blocking while it is
/// dry. Memory stays bounded whatever the server sends: when the buffer is full, the write callback
/// waits, so libcurl stops reading the socket and TCP holds the server back.
///
/// Reads start after a pre-buffer, and when the buffer runs dry while the listener has nothing
/// left they block until it is back above that threshold (hysteresis): the sink starves and the
/// player shows stalled meanwhile. At the live edge, where the reader is always caught up, the
/// stream paces itself instead (`pace`): while the listener has seconds of audio ahead (the reader
/// says when it runs out: `listenerRunsOut`), the network thread lets the socket gather a second
/// at a time, so that it, the decoder and the sink wake about once a second, not once per page. A
/// dropped, stalled or restarted connection is retried with back-off (1, 2, 4 … 30 s) for
/// `reconnectFor`: a finite file resumes at its byte offset (Range), a live stream at whatever
/// the server sends next (libvorbisfile finds the next page); a server that answered but never
/// sent a byte of audio is not retried (`Reconnection.neverSent`). A wait for the pre-buffer that
/// lasts because the connection is slower than the stream says so (`BufferingReport`).
/// `interrupt` (park, skip, quit) makes a blocked read return at once.
public final class NetworkStream: @unchecked Sendable {
    // Unchecked: every mutable field is guarded by `monitor`.
    public let url: String
    public let options: NetworkOptions
    /// The buffer's size.
    public static let capacity = 256 * 1024
    /// The most bytes read before the decoder has its headers (`headersDone`).
    public static let headerLimit = 4 * 1024 * 1024
    private let notice: @Sendable (NetworkNotice) -> Void
    private let monitor = ConditionLock()
    private var ring = ByteRing(capacity: NetworkStream.capacity)
    /// The resource offset of the buffer's first byte.
    private var bufferOffset: Int64 = 0
    /// Where the reader is: a seek moves it; reading catches the buffer up.
    private var readOffset: Int64 = 0
    /// Bumped by each seek outside the buffer: the transfer for an older generation stops.
    private var generation = 0
    private var ended = false
    private var failure: NetworkError?
    private var interrupted = false
    private var dry = true
    private var threshold: Int
    private var response: ResponseHead?
    private var firstBytes: [UInt8] = []
    private var headerBudget: Int? = NetworkStream.headerLimit
    private var reconnected = false
    /// The stream's nominal bit rate (a guess until the decoder knows it: `bitrateKnown`).
    private var bitsPerSecond = 160_000
    private var bitrateKnown = false
    /// A wait for the pre-buffer that lasts says why.
    private var buffering = BufferingReport()
    /// When the audio already decoded runs out for the listener (nil: unknown, i.e. now). Set by
    /// the reader.
    private var runsOutAt: MonotonicInstant?
    /// The network thread waits for room in the buffer (the reader wakes it when it made some).
    private var writerWaitsForRoom = false
    /// Bytes came since the network thread's last nap: one nap per round of reads.
    private var mayNap = false
    /// Bytes came that the reader has not been woken for: it had time ahead, so it is woken once
    /// at the end of the round of reads (`pace`), not for each piece (`NetworkPacing.wakesReader`).
    private var readerOwed = false
    private var caughtUp: (@Sendable () -> Void)?

    /// Starts fetching `url` on a new thread. `notice` gets the news of a lost and a recovered
    /// connection, and of a connection too slow for the stream (from that thread).
    public init(url: String, options: NetworkOptions, notice: @escaping @Sendable (NetworkNotice) -> Void) {
        self.url = url
        self.options = options
        self.notice = notice
        threshold = Self.threshold(for: options.prebuffer, bitsPerSecond: 160_000)
        reconnection = Reconnection(limit: options.reconnectFor)
        let started = DetachedThread.start(name: "motet-net") { [self] in run() }
        precondition(started, "motet: cannot start the network thread")
    }

    /// The pre-buffer in bytes for `audio` at `bitsPerSecond`, within the buffer.
    static func threshold(for audio: Duration, bitsPerSecond: Int) -> Int {
        let bytes = Int(max(0, audio.inSeconds) * Double(max(8000, bitsPerSecond)) / 8)
        return min(max(bytes, 1), capacity / 2)
    }

    // MARK: The reader's side (the decoder thread)

    /// Blocks until the server's response is accepted (its header checked) or refused.
    public func waitForResponse() -> Result<ResponseHead, NetworkError> {
        monitor.withLock {
            while true {
                if let response { return .success(response) }
                if let failure { return .failure(failure) }
                if interrupted { return .failure(.interrupted) }
                monitor.wait()
            }
        }
    }

    /// The response accepted first (nil before).
    public var head: ResponseHead? { monitor.withLock { response } }

    /// Why the stream failed, when it did.
    public var error: NetworkError? { monitor.withLock { failure } }

    /// The first bytes of the body, to say what a stream libvorbisfile refused is.
    public var leadingBytes: [UInt8] { monitor.withLock { firstBytes } }

    /// Sets the pre-buffer (and what the stream needs, for the buffering line) from its bit rate:
    /// the nominal one once the headers are read, then what the decoder measures.
    public func setBitrate(_ bitsPerSecond: Int) {
        guard bitsPerSecond > 0 else { return }
        monitor.withLock {
            self.bitsPerSecond = bitsPerSecond
            bitrateKnown = true
            threshold = Self.threshold(for: options.prebuffer, bitsPerSecond: bitsPerSecond)
        }
    }

    /// The reader's news: the audio decoded so far (in its ring and in the device) lasts the
    /// listener until `moment`. Until then an empty buffer is not a stall, and the network thread
    /// may pace itself.
    public func listenerRunsOut(at moment: MonotonicInstant) {
        monitor.withLock { runsOutAt = moment }
    }

    /// The decoder has read the stream's headers: later bytes are sound, without a limit.
    public func headersDone() { monitor.withLock { headerBudget = nil } }

    /// True once after each reconnection.
    public func takeReconnected() -> Bool {
        monitor.withLock {
            defer { reconnected = false }
            return reconnected
        }
    }

    /// `hook` runs (on the reader's thread) each time a read is about to wait for the network:
    /// the reader has taken everything that came.
    public func whenCaughtUp(_ hook: @escaping @Sendable () -> Void) { monitor.withLock { caughtUp = hook } }

    /// Makes every blocked and later read fail at once, and ends the transfer.
    public func interrupt() {
        monitor.withLock {
            interrupted = true
            monitor.broadcast()
        }
    }

    /// Up to `wanted` bytes into `buffer`: the count, 0 at the end, -1 on failure or interrupt.
    public func read(_ buffer: UnsafeMutableRawPointer, _ wanted: Int) -> Int {
        monitor.withLock {
            var waited = false
            while true {
                if interrupted { return -1 }
                catchUp()
                let finishing = ended || failure != nil
                if ring.count > 0, !dry || ring.count >= threshold || finishing {
                    dry = false
                    buffering.flowing()
                    var n = wanted
                    if let budget = headerBudget {
                        guard budget > 0 else {
                            failure = .headersTooLarge(limit: Self.headerLimit)
                            return -1
                        }
                        n = min(n, budget)
                        headerBudget = budget - n
                    }
                    n = ring.take(into: buffer, n)
                    bufferOffset += Int64(n)
                    readOffset = bufferOffset
                    if writerWaitsForRoom { monitor.broadcast() }
                    return n
                }
                if ring.count == 0 {
                    if ended { return 0 }
                    if failure != nil { return -1 }
                    if !waited { caughtUp?() }
                    waited = true
                    // Caught up with the network while the listener still has audio: wait for
                    // the next bytes, but no longer than that audio lasts. Then it is a stall.
                    let now = MonotonicInstant.now()
                    if !dry, let runsOutAt, runsOutAt > now {
                        _ = monitor.wait(until: NetworkPacing.readerDeadline(now: now, runsOutAt: runsOutAt))
                        continue
                    }
                    if !dry {
                        dry = true
                        monitor.broadcast()  // a napping network thread reads at once
                    }
                }
                monitor.wait()
            }
        }
    }

    /// Moves the reader (libvorbisfile's seek): nothing is fetched until the next read.
    func seek(offset: Int64, whence: Int32) -> Int32 {
        monitor.withLock {
            let target: Int64
            switch whence {
            case SEEK_SET: target = offset
            case SEEK_CUR: target = readOffset + offset
            case SEEK_END:
                guard let length = response?.contentLength else { return -1 }
                target = length + offset
            default: return -1
            }
            guard target >= 0 else { return -1 }
            readOffset = target
            return 0
        }
    }

    /// Where the reader is in the resource (bytes).
    public func tell() -> Int64 { monitor.withLock { readOffset } }

    /// Inside the lock: drops buffered bytes a forward seek skipped, or restarts the transfer at
    /// the reader's offset when it is outside the buffer.
    private func catchUp() {
        guard readOffset != bufferOffset else { return }
        if readOffset > bufferOffset, readOffset <= bufferOffset + Int64(ring.count) {
            ring.drop(Int(readOffset - bufferOffset))
            bufferOffset = readOffset
            monitor.broadcast()
            return
        }
        generation += 1
        ring.removeAll()
        bufferOffset = readOffset
        ended = false
        failure = nil
        dry = true
        monitor.broadcast()
    }

    // MARK: The network thread

    private enum Outcome {
        case complete
        case superseded
        case failed(NetworkError)
    }

    /// The network thread's own state (never touched by the reader).
    private var reconnection: Reconnection

    /// Once a reconnected transfer has brought a pre-buffer's worth of bytes (or the rest of the
    /// file), the stream is back: one line, and the back-off starts over.
    private func recovered() {
        if reconnection.recovered() { notice(.back) }
    }

    private func run() {
        var everAccepted = false
        while true {
            // A finite file resumes where its buffered bytes end; a live stream starts afresh.
            let (current, offset, finished): (Int, Int64, Bool) = monitor.withLock {
                (generation, response?.isSeekable == true ? bufferOffset + Int64(ring.count) : 0, interrupted)
            }
            if finished { return }
            let outcome = transfer(generation: current, offset: offset) { [self] in
                reconnection.accepted()
                everAccepted = true
            }
            var problem: NetworkError
            var closed = false
            switch outcome {
            case .superseded:
                continue
            case .complete:
                // A station never ends: its server closing is a loss. Anything else (a file, or a
                // body without a length that is not a station's) has simply ended.
                let station = monitor.withLock { response?.isStation ?? false }
                guard station else {
                    recovered()
                    waitWhileSettled(generation: current) { ended = true }
                    continue
                }
                problem = .transfer("the server closed the connection")
                closed = true
            case .failed(let error):
                problem = error
            }
            if let silent = reconnection.neverSent(problem, closed: closed, timeout: options.timeout) {
                waitWhileSettled(generation: current) { failure = silent }
                continue
            }
            guard everAccepted, problem.isRetryable, options.reconnectFor > .zero,
                monitor.withLock({ response?.isSeekable ?? false || response?.isLive ?? false })
            else {
                waitWhileSettled(generation: current) { failure = problem }
                continue
            }
            let delay: Duration
            switch reconnection.lost(problem, now: .now()) {
            case .giveUp(let gaveUp):
                waitWhileSettled(generation: current) { failure = gaveUp }
                continue
            case .retry(let wait, let first):
                if first {
                    notice(.lost(problem, reconnectingFor: options.reconnectFor))
                }
                delay = wait
            }
            monitor.withLock {
                let until = MonotonicInstant.now() + delay
                while !interrupted, generation == current, MonotonicInstant.now() < until { monitor.wait(until: until) }
                if generation == current { reconnected = true }
            }
        }
    }

    /// Records how the transfer for `generation` ended and waits until a seek asks for another
    /// one or the stream is interrupted.
    private func waitWhileSettled(generation current: Int, _ settle: () -> Void) {
        monitor.withLock {
            guard generation == current else { return }
            settle()
            monitor.broadcast()
            while !interrupted, generation == current { monitor.wait() }
        }
    }

    private func transfer(generation current: Int, offset: Int64, accepted: @escaping () -> Void) -> Outcome {
        var firstResponse = true
        var received = 0
        let enough = monitor.withLock {
            buffering.connected(at: .now())
            return threshold
        }
        let curl = CurlTransfer(
            onHead: { [self] head in
                if head.status >= 400 { return .httpStatus(head.status, head.reason) }
                if let refused = ContentCheck.rejectType(head.contentType) { return refused }
                let problem: NetworkError? = monitor.withLock {
                    if let known = response {
                        // A Range request must get that range; a live stream starts where it is.
                        if known.isSeekable, offset > 0, head.status != 206 || head.rangeStart != offset {
                            return .transfer("the server no longer serves byte ranges (status \(head.status))")
                        }
                    } else {
                        response = head
                    }
                    monitor.broadcast()
                    return nil
                }
                if problem == nil, firstResponse {
                    firstResponse = false
                    accepted()
                }
                return problem
            },
            onBody: { [self] bytes in
                if !bytes.isEmpty { reconnection.arrived() }
                received += bytes.count
                if received >= enough { recovered() }
                let (goOn, slow) = write(bytes, generation: current)
                if let slow { notice(slow) }
                return goOn
            },
            between: { [self] in pace(generation: current) })
        let error = curl.perform(url: url, offset: offset, options: options)
        if monitor.withLock({ interrupted || generation != current }) { return .superseded }
        return error.map { .failed($0) } ?? .complete
    }

    /// Copies a piece of the body into the buffer, waiting for room; false when the transfer must
    /// stop (interrupted or superseded by a seek). While the reader waits for the pre-buffer, the
    /// news that the connection is too slow, when it is (said by the caller, out of the lock).
    private func write(_ bytes: UnsafeRawBufferPointer, generation current: Int) -> (Bool, NetworkNotice?) {
        monitor.withLock {
            var done = 0
            if bufferOffset == 0, firstBytes.count < 64, ring.count == 0 || firstBytes.count == ring.count {
                firstBytes.append(contentsOf: bytes.prefix(64 - firstBytes.count))
            }
            while done < bytes.count {
                if interrupted || generation != current { return (false, nil) }
                if ring.room == 0 {
                    writerWaitsForRoom = true
                    monitor.broadcast()  // the reader takes what is owed first
                    monitor.wait()
                    writerWaitsForRoom = false
                    continue
                }
                let put = ring.put(UnsafeRawBufferPointer(rebasing: bytes[done...]))
                buffering.arrived(put, at: .now())
                done += put
                mayNap = true
            }
            if NetworkPacing.wakesReader(now: .now(), runsOutAt: runsOutAt, dry: dry) {
                readerOwed = false
                monitor.broadcast()
            } else {
                readerOwed = true
            }
            guard dry else { return (true, nil) }
            let slow = buffering.waiting(
                at: .now(), needsBitsPerSecond: bitrateKnown ? bitsPerSecond : nil, prebuffer: options.prebuffer)
            return (true, slow)
        }
    }

    /// Between reads (libcurl's progress callback): after a round of reads, when the listener has
    /// plenty ahead, naps (`NetworkPacing`). A stall, a seek or an interrupt ends the nap. True
    /// when the transfer must stop.
    private func pace(generation current: Int) -> Bool {
        monitor.withLock {
            if interrupted || generation != current { return true }
            if readerOwed {
                readerOwed = false
                monitor.broadcast()
            }
            guard mayNap, !dry, let runsOutAt else { return false }
            mayNap = false
            let now = MonotonicInstant.now()
            guard let nap = NetworkPacing.nap(now: now, runsOutAt: runsOutAt, buffered: ring.count, bitsPerSecond: bitsPerSecond)
            else { return false }
            let until = now + nap
            while !interrupted, generation == current, !dry, MonotonicInstant.now() < until {
                _ = monitor.wait(until: until)
            }
            return interrupted || generation != current
        }
    }
}
