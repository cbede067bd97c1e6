import Glibc
import MotetEvents
import MotetSystem

/// Writes exactly what would be played to a WAV file: 16-bit PCM (as libvorbisfile's `ov_read`
/// rounds) or 32-bit IEEE float.
///
/// The header's sizes are rewritten after every write, so the file is valid even if the process is
/// killed. When the format changes after samples were written (or a file reaches 4 GiB), this file
/// is finished and writing continues in a numbered sibling (`song.wav` → `song.2.wav`), reported
/// through `notice`. A pipe (`wav:/dev/stdout`) gets one header with the largest sizes (length
/// unknown) before the first samples. Paced in real time by a `PacingClock` unless untimed: the
/// file is written as the music would be heard, ~200 ms ahead.
///
/// When a write fails (disk full, read-only file system, I/O error), nothing that reached the disk
/// is thrown away, but the file must not pass for a complete one: it is cut to its last whole
/// frame, its header says what it holds, and it is renamed with `.partial` before the extension
/// (`song.wav` → `song.partial.wav`, `song.2.wav` → `song.2.partial.wav`, replacing an older file
/// of that name). A file that holds no sound yet is removed instead. The thrown
/// `OutputError.cannotWrite` (`endsPlayback`) says what was kept; every later `open` or `write`
/// throws it again. Devices and pipes are never renamed or removed.
public final class WAVOutput: AudioOutput, @unchecked Sendable {
    // Everything below is touched only on the sink thread, except `wakeups` (thread-safe).
    /// "wav".
    public let name = "wav"
    private let basePath: String
    private let float: Bool
    private let notice: @Sendable (String) -> Void
    private var clock: PacingClock
    private let wakeups = WakeupPipe()
    private var path: String
    private var fileNumber = 1
    private var fd: Int32 = -1
    private var header: WAVHeader?
    private var framesInFile: Int64 = 0
    private var buffer: UnsafeMutableRawPointer?
    /// False for a pipe or a terminal (`wav:/dev/stdout | …`): the header is written once, before
    /// the first samples, with the largest sizes (length unknown), and never rewritten.
    private var seekable = true
    /// The header still to write before the first samples (non-seekable outputs only).
    private var pendingHeader: [UInt8] = []
    /// Set when a write failed: every later `open` and `write` throws it again.
    private var failure: OutputError?
    /// Frames converted per `write(2)`.
    private static let chunkFrames = 4096

    /// Creates (truncates) the file at `path` now, so a bad path fails before anything is decoded.
    public init(
        path: String, float: Bool, untimed: Bool, notice: @escaping @Sendable (String) -> Void
    ) throws(OutputError) {
        self.basePath = path
        self.path = path
        self.float = float
        self.notice = notice
        self.clock = PacingClock(untimed: untimed)
        fd = try Self.create(path)
        seekable = lseek(fd, 0, SEEK_CUR) >= 0
    }

    deinit { close() }

    /// The file being written now (changes when the format changes).
    public var currentPath: String { path }

    /// Starts the file (or, after samples of another format, the next numbered file).
    public func open(_ format: AudioFormat) throws(OutputError) {
        if let failure { throw failure }
        guard fd >= 0 else { throw .closed(what: "the WAV output \(path)") }
        if let header, header.format == format { return }
        if header != nil, framesInFile > 0 {
            try continueInNextFile(reason: "the format changed to \(format)")
        }
        try start(format)
    }

    /// Writes what the clock has room for to the file and rewrites the header's sizes.
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        if let failure { throw failure }
        guard let header, let base = frames.baseAddress, fd >= 0, let buffer else { throw .writtenBeforeOpen }
        let channels = header.format.channels
        let now = MonotonicInstant.now()
        let count = min(frames.count / channels, clock.state(at: now).freeFrames)
        guard count > 0 else { return 0 }
        if !pendingHeader.isEmpty {
            let bytes = pendingHeader.count
            let written = pendingHeader.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress, bytes) }
            guard written == bytes else { throw abandon(errno: written < 0 ? errno : ENOSPC) }
            pendingHeader.removeAll(keepingCapacity: true)
        }
        var done = 0
        while done < count {
            if seekable, framesInFile >= self.header!.maximumFrames {
                try continueInNextFile(reason: "\(path) reached the 4 GiB limit of WAV")
                try start(header.format, restartingClock: false)
            }
            let n = min(count - done, Self.chunkFrames, seekable ? Int(self.header!.maximumFrames - framesInFile) : .max)
            let samples = n * channels
            let source = base + done * channels
            if float {
                buffer.copyMemory(from: source, byteCount: samples * 4)
            } else {
                SampleConversion.int16(from: source, to: buffer.assumingMemoryBound(to: Int16.self), count: samples)
            }
            try writeAll(buffer, byteCount: samples * header.bytesPerSample)
            framesInFile += Int64(n)
            done += n
        }
        try updateSizes()
        clock.wrote(count, at: now)
        return count
    }

    /// The clock's free space and delay.
    public func state() -> DeviceState { clock.state(at: MonotonicInstant.now()) }
    /// Sleeps until the clock frees a quarter of its buffer.
    public func wait(timeout: Duration) { clock.wait(timeout: timeout, wakeup: wakeups) }
    /// Waits until the clock has "played" what was written: the file already holds it.
    @discardableResult
    public func drain() -> Bool { clock.drain(wakeup: wakeups) }
    /// A file cannot take back what it holds.
    public var keepsWrittenAudio: Bool { true }

    /// A file cannot take back what it holds: only the clock forgets.
    public func reset() {
        clock.reset()
        _ = wakeups.take()
    }
    /// Stops or restarts the clock.
    public func setPaused(_ paused: Bool) { clock.setPaused(paused, at: MonotonicInstant.now()) }
    /// Ends a `wait` or `drain` at once.
    public func wakeup() { wakeups.signal() }

    /// Finishes the file. A file that never got a header (nothing was played) is removed rather
    /// than left as 0 bytes that no program can read as WAV.
    public func close() {
        if fd >= 0 {
            if header == nil, fileNumber == 1, isOurEmptyRegularFile() {
                unlink(path)
            } else {
                try? updateSizes()
            }
            Glibc.close(fd)
            fd = -1
        }
        buffer?.deallocate()
        buffer = nil
    }

    /// Never called: nothing interrupts a file (a failed write is thrown).
    public var onEvent: (@Sendable (OutputNotice) -> Void)?

    // MARK: The file

    /// True when `fd` is an empty regular file that `path` still names (never a device such as
    /// /dev/null or a pipe, never a file someone put there since).
    private func isOurEmptyRegularFile() -> Bool {
        var open = stat()
        return isOurRegularFile(&open) && open.st_size == 0
    }

    /// True when `fd` is a regular file that `path` still names; `open` gets its status.
    private func isOurRegularFile(_ open: inout stat) -> Bool {
        var named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_mode & S_IFMT == S_IFREG && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    private static func create(_ path: String) throws(OutputError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotCreate(path: path, code: errno)
        }
        return fd
    }

    /// Writes a fresh header for `format` and starts a new stream in the current file.
    private func start(_ format: AudioFormat, restartingClock: Bool = true) throws(OutputError) {
        let header = WAVHeader(format: format, float: float)
        if seekable {
            let bytes = header.bytes(frames: 0)
            let written = bytes.withUnsafeBytes { raw in pwrite(fd, raw.baseAddress, raw.count, 0) }
            guard written == bytes.count else { throw abandon(errno: written < 0 ? errno : ENOSPC) }
            // A device such as /dev/full cannot be truncated; a regular file can.
            guard ftruncate(fd, off_t(bytes.count)) == 0 || errno == EINVAL else { throw abandon(errno: errno) }
            guard lseek(fd, off_t(bytes.count), SEEK_SET) >= 0 else { throw abandon(errno: errno) }
        } else {
            pendingHeader = header.bytes(frames: header.maximumFrames)
        }
        self.header = header
        framesInFile = 0
        buffer?.deallocate()
        buffer = UnsafeMutableRawPointer.allocate(
            byteCount: Self.chunkFrames * format.channels * header.bytesPerSample, alignment: 16)
        if restartingClock { clock.start(rate: format.sampleRate) }
    }

    /// Finishes the current file and opens the next numbered one (`song.wav` → `song.2.wav`).
    private func continueInNextFile(reason: String) throws(OutputError) {
        try updateSizes()
        Glibc.close(fd)
        fd = -1
        // The finished file is complete; nothing of the next one exists yet.
        header = nil
        framesInFile = 0
        fileNumber += 1
        path = Self.numbered(basePath, fileNumber)
        do {
            fd = try Self.create(path)
        } catch {
            failure = error
            throw error
        }
        seekable = lseek(fd, 0, SEEK_CUR) >= 0
        notice("motet: \(reason); continuing in \(path)")
    }

    /// `dir/song.wav` → `dir/song.N.wav`; `dir/song` → `dir/song.N`.
    static func numbered(_ path: String, _ number: Int) -> String { inserting(".\(number)", into: path) }

    /// `dir/song.wav` → `dir/song.partial.wav`; `dir/song` → `dir/song.partial`: a file cut short.
    static func partial(_ path: String) -> String { inserting(".partial", into: path) }

    /// Inserts `infix` before the file name's extension (or at the end when it has none).
    private static func inserting(_ infix: String, into path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(path[..<dot]) + infix + String(path[dot...])
        }
        return path + infix
    }

    /// Rewrites the RIFF, fact and data sizes for what the file holds now.
    private func updateSizes() throws(OutputError) {
        guard let header, fd >= 0, seekable else { return }
        let data = header.dataBytes(frames: framesInFile)
        try patch(header.riffSize(dataBytes: data), at: header.riffSizeOffset)
        if let fact = header.factFramesOffset { try patch(UInt32(truncatingIfNeeded: framesInFile), at: fact) }
        try patch(data, at: header.dataSizeOffset)
    }

    private func patch(_ value: UInt32, at offset: Int) throws(OutputError) {
        var le = value.littleEndian
        let n = pwrite(fd, &le, 4, off_t(offset))
        guard n == 4 else { throw abandon(errno: n < 0 ? errno : ENOSPC) }
    }

    private func writeAll(_ bytes: UnsafeRawPointer, byteCount: Int) throws(OutputError) {
        var done = 0
        while done < byteCount {
            let n = Glibc.write(fd, bytes + done, byteCount - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw abandon(errno: errno, partialBytes: done)
            }
            done += n
        }
    }

    /// After a failed write: keeps the whole frames that reached the file (`partialBytes` of the
    /// chunk being written count too), makes the header say so, renames the file `….partial.wav`
    /// (or removes it when it holds no sound), closes it, and returns the error to throw. Every
    /// later `open` and `write` throws the same error.
    private func abandon(errno code: Int32, partialBytes: Int = 0) -> OutputError {
        if let failure { return failure }
        var kept = OutputError.PartialFile.leftAlone
        var info = stat()
        if fd >= 0, seekable, isOurRegularFile(&info) {
            if let header {
                framesInFile += Int64(partialBytes / header.blockAlign)
                // Shrinking needs no free space: drop a half-written frame, keep every whole one.
                _ = ftruncate(fd, off_t(header.size) + off_t(header.dataBytes(frames: framesInFile)))
                try? updateSizes()
            }
            if let header, framesInFile > 0 {
                let partial = Self.partial(path)
                let length = Self.seconds(frames: framesInFile, rate: header.format.sampleRate)
                kept = rename(path, partial) == 0
                    ? .renamed(path: partial, seconds: length) : .notRenamed(path: partial, seconds: length)
            } else {
                unlink(path)
                kept = .removed
            }
        }
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        let error = OutputError.cannotWrite(path: path, code: code, kept: kept)
        failure = error
        return error
    }

    /// `frames` at `rate` as seconds, rounded to one decimal ("12.3 s").
    private static func seconds(frames: Int64, rate: Int) -> String {
        let rate = Int64(max(1, rate))
        let tenths = (frames * 10 + rate / 2) / rate
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
