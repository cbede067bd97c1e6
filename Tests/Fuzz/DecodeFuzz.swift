// libFuzzer target: whole-file decoding of a (mutated) Ogg file through the real VorbisDecoder path,
// or, built with -D FUZZ_OPUS (the `opus` target of bench/fuzz.sh), through the real OpusDecoder.
import Glibc

/// The temporary file every input is written to (one per process: libFuzzer runs inputs one by one).
nonisolated(unsafe) private var fuzzPath: String = {
    var template = Array("/tmp/motet-fuzz-decode-XXXXXX.ogg".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    precondition(fd >= 0, "mkstemps failed")
    close(fd)
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    atexit_b { unlink(path) }
    return path
}()

private func atexit_b(_ body: @escaping () -> Void) { cleanup = body; atexit { cleanup?() } }
nonisolated(unsafe) private var cleanup: (() -> Void)?

/// One input: the bytes of a file, decoded to the end (and once more after a seek to the middle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = fuzzPath
    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    precondition(fd >= 0)
    var written = 0
    while written < size, let data {
        let n = write(fd, data + written, size - written)
        precondition(n > 0)
        written += n
    }
    close(fd)
    #if FUZZ_OPUS
    guard let decoder = try? OpusDecoder(path: path) else { return 0 }
    precondition(decoder.format.channels >= 1 && decoder.format.channels <= OpusDecoder.maximumChannels)
    precondition(decoder.format.sampleRate == 48000)
    #else
    guard let decoder = try? VorbisDecoder(path: path) else { return 0 }
    precondition(decoder.format.channels >= 1 && decoder.format.channels <= 255)
    #endif
    decodeAll(decoder)
    if decoder.canSeek, let duration = decoder.durationMicros, duration > 0 {
        if (try? decoder.seek(toMicros: duration / 2)) != nil { decodeAll(decoder) }
    }
    return 0
}

private func decodeAll(_ decoder: any AudioDecoder) {
    let chunk = 1024
    var capacity = chunk * max(1, decoder.format.channels)
    var buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    var steps = 0
    loop: while steps < 1_000_000 {
        steps += 1
        switch decoder.read(into: buffer, maxFrames: chunk) {
        case .frames(let n):
            precondition(n > 0 && n <= chunk)
        case .linkChanged:
            precondition(decoder.format.channels >= 1 && decoder.format.channels <= 255)
            if chunk * decoder.format.channels > capacity {
                buffer.deallocate()
                capacity = chunk * decoder.format.channels
                buffer = .allocate(capacity: capacity)
            }
        case .hole:
            continue
        case .endOfStream, .failed:
            break loop
        }
    }
    precondition(steps < 1_000_000, "decoding did not end")
}
