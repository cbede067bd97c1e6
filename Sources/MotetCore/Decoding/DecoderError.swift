#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile

/// Why a file cannot be (fully) decoded, as one clear line for users: it names the file, says what
/// is wrong and what to do, e.g. `"song.ogg: no such file — check the path"`.
///
/// Control characters in the path are kept as they are: the display layers escape them.
public struct DecoderError: Error, CustomStringConvertible, Sendable {
    /// libvorbisfile's code (`OV_*`, negative), or `DecoderError.motetCode` (-1000) for a problem
    /// found by Motet itself (missing file, not Ogg, truncated…).
    public var code: Int32
    /// The one line shown to users.
    public var description: String

    /// The code of errors found by Motet rather than by libvorbisfile.
    public static let motetCode: Int32 = -1000

    /// An error with libvorbisfile's `code` (or `motetCode`) and the line users see.
    public init(code: Int32, description: String) {
        self.code = code
        self.description = description
    }

    /// An error found by Motet: `"<path>: <problem> — <advice>"`.
    static func motet(_ path: String, _ problem: String, _ advice: String) -> DecoderError {
        DecoderError(code: motetCode, description: "\(path): \(problem) — \(advice)")
    }

    /// The file could not be opened; `errnoValue` is the `errno` of `open(2)`.
    static func openFailed(_ path: String, errnoValue: Int32) -> DecoderError {
        switch errnoValue {
        case ENOENT: motet(path, "no such file", "check the path")
        case EACCES, EPERM: motet(path, "permission denied", "check the file's permissions")
        case ENOTDIR: motet(path, "a part of the path is not a directory", "check the path")
        case ELOOP: motet(path, "too many symbolic links", "check the path")
        case ENAMETOOLONG: motet(path, "the path is too long", "check the path")
        case EMFILE, ENFILE: motet(path, "too many open files", "close other programs and try again")
        default: motet(path, "cannot be opened (\(systemMessage(errnoValue)))", "check the file")
        }
    }

    /// An `OV_*` code returned by libvorbisfile, in words.
    static func vorbis(_ path: String, code: Int32, at positionMicros: Int64? = nil) -> DecoderError {
        let at = positionMicros.map { " at \(formatTime($0))" } ?? ""
        let text: String
        switch code {
        case OV_HOLE: text = "damaged or missing data\(at) was skipped — the file is corrupt; re-copy or re-encode it"
        case OV_EREAD: text = "read error\(at) — check the disk or network share the file is on"
        case OV_EFAULT: text = "the Vorbis decoder failed internally\(at) — re-encode the file"
        case OV_EIMPL: text = "uses a Vorbis feature this decoder does not support — re-encode the file"
        case OV_EINVAL: text = "the decoder was given an invalid request — re-open the file"
        case OV_ENOTVORBIS: text = "not Ogg Vorbis data — Motet plays only Ogg Vorbis files"
        case OV_EBADHEADER: text = "its Vorbis headers are damaged — re-copy or re-encode the file"
        case OV_EVERSION: text = "uses a Vorbis version this decoder does not know — re-encode the file"
        case OV_ENOTAUDIO: text = "its first stream is not audio — re-encode the file"
        case OV_EBADPACKET: text = "contains a damaged packet\(at) — re-copy or re-encode the file"
        case OV_EBADLINK: text = "a damaged link (chained section)\(at) stops decoding — re-copy or re-encode the file"
        case OV_ENOSEEK: text = "cannot seek in this stream — play it from the start"
        default: text = "the Vorbis decoder failed (code \(code))\(at) — re-copy or re-encode the file"
        }
        return DecoderError(code: code, description: "\(path): \(text)")
    }

    /// `--start` at or after the end of the file: `"FILE: --start 5 is past the end (3 s)"`.
    static func startPastEnd(_ path: String, startMicros: Int64, durationMicros: Int64) -> DecoderError {
        motetPlain(path, "--start \(seconds(startMicros)) is past the end (\(seconds(durationMicros)) s)")
    }

    private static func motetPlain(_ path: String, _ text: String) -> DecoderError {
        DecoderError(code: motetCode, description: "\(path): \(text)")
    }

    /// Seconds for a message, cut (not rounded) to hundredths: `5`, `2.5`, `2.97`.
    static func seconds(_ micros: Int64) -> String {
        let hundredths = max(0, micros) / 10_000
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Damage that decoding skipped (a gap, a damaged packet, link or link header) at a position.
    static func skipped(_ path: String, code: Int32, at positionMicros: Int64) -> DecoderError {
        let what: String
        switch code {
        case OV_EBADPACKET: what = "a damaged packet"
        case OV_EBADHEADER, OV_ENOTVORBIS: what = "a link with damaged headers"
        case OV_EBADLINK: what = "a damaged link"
        default: what = "damaged or missing data"
        }
        return DecoderError(
            code: code,
            description: "\(path): \(what) at \(formatTime(positionMicros)) was skipped — the file is corrupt; re-copy or re-encode it")
    }

    /// `strerror(3)` as a Swift string.
    static func systemMessage(_ errnoValue: Int32) -> String {
        guard let cString = strerror(errnoValue) else { return "error \(errnoValue)" }
        return String(cString: cString)
    }

    /// `m:ss.mmm` (or `h:mm:ss.mmm`) for messages.
    static func formatTime(_ micros: Int64) -> String {
        let totalMillis = max(0, micros) / 1000
        let millis = totalMillis % 1000
        let seconds = (totalMillis / 1000) % 60
        let minutes = (totalMillis / 60_000) % 60
        let hours = totalMillis / 3_600_000
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let tail = "\(pad(seconds, 2)).\(pad(millis, 3))"
        return hours > 0 ? "\(hours):\(pad(minutes, 2)):\(tail)" : "\(minutes):\(tail)"
    }
}
