#if canImport(Glibc)
import Glibc
#endif
import COpusFile
import CVorbisFile
import MotetEvents
import MotetNetwork

/// Why a file (or a stream) cannot be (fully) decoded, typed: each case carries what the user's
/// line needs, and `line(path:)` renders every case in one place as one clear line that names the
/// file, says what is wrong and what to do, e.g. `"song.ogg: no such file — check the path"`.
///
/// Control characters in the path are kept as they are: the display layers escape them.
public enum DecoderError: Error, Sendable, Equatable {
    /// The file could not be opened (or stat'ed); the `errno` of `open(2)` or `fstat(2)`.
    case openFailed(errno: Int32)
    /// The path names a directory.
    case isDirectory
    /// The path names something that is neither a file nor a directory (a FIFO, a device).
    case notRegularFile
    /// The file has 0 bytes.
    case empty
    /// The first byte could not be read; the `errno` of `pread(2)`.
    case unreadable(errno: Int32)
    /// libvorbisfile returned `code` (an `OV_*` value), at a position when there is one.
    case vorbis(Int32, atMicros: Int64? = nil)
    /// libopusfile returned `code` (an `OP_*` value), at a position when there is one.
    case opus(Int32, atMicros: Int64? = nil)
    /// An Ogg Opus link has more channels than Motet can place (1 to 8: mapping families 0 and 1).
    case opusChannels(Int)
    /// libvorbisfile refused the file (`code`) and it is Ogg Vorbis whose headers are damaged or cut short.
    case damagedHeaders(Int32)
    /// libvorbisfile refused the file (`code`) and it is not Ogg at all.
    case notOgg(Int32)
    /// libvorbisfile refused the file (`code`) and it is Ogg of another kind (`what`: `OggFileInspection`'s words).
    case notVorbis(Int32, what: String)
    /// The file's last page is cut off or damaged (said once its last good frame was decoded).
    case endsEarly
    /// `--start` at or after the end of the file.
    case startPastEnd(startMicros: Int64, durationMicros: Int64)
    /// Damage (libvorbisfile's `code`) that decoding skipped at a position.
    case skipped(Int32, atMicros: Int64)
    /// An Ogg Opus link in a chain of Ogg Vorbis links, skipped (libvorbisfile's `OV_ENOTVORBIS`).
    case opusLinkSkipped(atMicros: Int64)
    /// The stream over the network failed: why (`NetworkError`), and libvorbisfile's `code` when it
    /// was libvorbisfile that met the failure (`motetCode` when the network said so first).
    case network(NetworkError, code: Int32 = -1000)
    /// `--output-rate`: libsoxr could not make a resampler for the track (its message).
    case resampler(String)

    /// The code of errors found by Motet rather than by libvorbisfile.
    public static let motetCode: Int32 = -1000

    /// libvorbisfile's code (`OV_*`, negative) for Vorbis, libopusfile's (`OP_*`, the same numbers
    /// for the same problems) for Opus, or `motetCode` (-1000) for a problem found by Motet itself
    /// (missing file, not Ogg, truncated…). Plugins get it in the decode-error event.
    public var code: Int32 {
        switch self {
        case .openFailed, .isDirectory, .notRegularFile, .empty, .unreadable, .endsEarly, .startPastEnd, .opusChannels, .resampler:
            Self.motetCode
        case .opusLinkSkipped: OV_ENOTVORBIS
        case .vorbis(let code, _), .opus(let code, _), .damagedHeaders(let code), .notOgg(let code), .notVorbis(let code, _), .skipped(let code, _):
            code
        case .network(_, let code): code
        }
    }

    /// The one line shown to users about `path` (a file's path, or a URL, shown without any
    /// `user:password@`): `"<path>: <what is wrong> — <what to do>"`.
    public func line(path: String) -> String {
        let name = WebAddress.isRemote(path) ? WebAddress.shown(path) : path
        return "\(name): " + problem
    }

    /// What is wrong and what to do, without the path.
    private var problem: String {
        switch self {
        case .openFailed(let errnoValue):
            switch errnoValue {
            case ENOENT: "no such file — check the path"
            case EACCES, EPERM: "permission denied — check the file's permissions"
            case ENOTDIR: "a part of the path is not a directory — check the path"
            case ELOOP: "too many symbolic links — check the path"
            case ENAMETOOLONG: "the path is too long — check the path"
            case EMFILE, ENFILE: "too many open files — close other programs and try again"
            default: "cannot be opened (\(Self.systemMessage(errnoValue))) — check the file"
            }
        case .isDirectory: "is a directory, not an Ogg file — name a file inside it instead"
        case .notRegularFile: "is not a regular file — give an Ogg Vorbis or Ogg Opus file"
        case .empty: "the file is empty (0 bytes) — re-copy or re-download it"
        case .unreadable(let errnoValue): "cannot be read (\(Self.systemMessage(errnoValue))) — check the disk and the file"
        case .vorbis(let code, let positionMicros): Self.vorbisProblem(code, at: positionMicros)
        case .damagedHeaders: "its Vorbis headers are damaged or cut short — re-copy or re-encode the file"
        case .opus(let code, let positionMicros): Self.opusProblem(code, at: positionMicros)
        case .opusChannels(let channels):
            "an Ogg Opus file with \(channels) channels — Motet plays Opus with 1 to 8 channels; re-encode it with at most 8"
        case .notOgg: "not an Ogg file — Motet plays Ogg Vorbis and Ogg Opus files"
        case .notVorbis(_, let what): "\(what), not Ogg Vorbis or Ogg Opus — Motet plays only those"
        case .endsEarly:
            "the file ends early (its last page is cut off or damaged) — it may be an incomplete copy or download; copy or download it again"
        case .startPastEnd(let start, let duration): "--start \(Self.seconds(start)) is past the end (\(Self.seconds(duration)) s)"
        case .skipped(let code, let positionMicros):
            "\(Self.skippedDamage(code)) at \(Self.formatTime(positionMicros)) was skipped — the file is corrupt; re-copy or re-encode it"
        case .opusLinkSkipped(let positionMicros):
            "an Ogg Opus link (chained section) at \(Self.formatTime(positionMicros)) was skipped — Motet plays a chain of one codec at a time; split the file"
        case .network(let error, _): error.problem
        case .resampler(let message): "cannot be resampled to --output-rate (\(message)) — play it without --output-rate"
        }
    }

    /// An `OV_*` code returned by libvorbisfile, in words.
    private static func vorbisProblem(_ code: Int32, at positionMicros: Int64?) -> String {
        let at = positionMicros.map { " at \(formatTime($0))" } ?? ""
        switch code {
        case OV_HOLE: return "damaged or missing data\(at) was skipped — the file is corrupt; re-copy or re-encode it"
        case OV_EREAD: return "read error\(at) — check the disk or network share the file is on"
        case OV_EFAULT: return "the Vorbis decoder failed internally\(at) — re-encode the file"
        case OV_EIMPL: return "uses a Vorbis feature this decoder does not support — re-encode the file"
        case OV_EINVAL: return "the decoder was given an invalid request — re-open the file"
        case OV_ENOTVORBIS: return "not Ogg Vorbis data — Motet plays only Ogg Vorbis files"
        case OV_EBADHEADER: return "its Vorbis headers are damaged — re-copy or re-encode the file"
        case OV_EVERSION: return "uses a Vorbis version this decoder does not know — re-encode the file"
        case OV_ENOTAUDIO: return "its first stream is not audio — re-encode the file"
        case OV_EBADPACKET: return "contains a damaged packet\(at) — re-copy or re-encode the file"
        case OV_EBADLINK: return "a damaged link (chained section)\(at) stops decoding — re-copy or re-encode the file"
        case OV_ENOSEEK: return "cannot seek in this stream — play it from the start"
        default: return "the Vorbis decoder failed (code \(code))\(at) — re-copy or re-encode the file"
        }
    }

    /// An `OP_*` code returned by libopusfile, in words.
    private static func opusProblem(_ code: Int32, at positionMicros: Int64?) -> String {
        let at = positionMicros.map { " at \(formatTime($0))" } ?? ""
        switch code {
        case OP_HOLE: return "damaged or missing data\(at) was skipped — the file is corrupt; re-copy or re-encode it"
        case OP_EREAD: return "read error\(at) — check the disk or network share the file is on"
        case OP_EFAULT: return "the Opus decoder failed internally\(at) — re-encode the file"
        case OP_EIMPL:
            return "uses an Opus channel mapping this decoder does not support (more than 8 channels?) — re-encode it with at most 8 channels"
        case OP_EINVAL: return "the decoder was given an invalid request — re-open the file"
        case OP_ENOTFORMAT:
            // At open: no stream could be read at all; while playing: a later link of another codec.
            guard positionMicros != nil else { return "holds no complete Ogg Opus stream (its headers are missing or cut short) — re-copy or re-encode the file" }
            return "a link (chained section) is not Ogg Opus\(at) — split the file or re-encode it as one codec"
        case OP_EBADHEADER: return "its Opus headers are damaged or cut short — re-copy or re-encode the file"
        case OP_EVERSION: return "uses an Ogg Opus version this decoder does not know — re-encode the file"
        case OP_EBADPACKET: return "contains a damaged packet\(at) — re-copy or re-encode the file"
        case OP_EBADLINK: return "a damaged link (chained section)\(at) stops decoding — re-copy or re-encode the file"
        case OP_ENOSEEK: return "cannot seek in this stream — play it from the start"
        case OP_EBADTIMESTAMP:
            // At open: not one audio page with a valid granule position (headers alone, or every
            // timestamp damaged); while playing: a damaged one.
            guard positionMicros != nil else {
                return "has Opus headers but no audio with a valid timestamp (granule position) — re-copy or re-encode the file"
            }
            return "its Opus timestamps (granule positions) are damaged\(at) — re-copy or re-encode the file"
        default: return "the Opus decoder failed (code \(code))\(at) — re-copy or re-encode the file"
        }
    }

    /// What damage that decoding skipped was: a gap, a damaged packet, link or link header.
    private static func skippedDamage(_ code: Int32) -> String {
        switch code {
        case OV_EBADPACKET: "a damaged packet"
        case OV_EBADHEADER, OV_ENOTVORBIS: "a link with damaged headers"
        case OV_EBADLINK: "a damaged link"
        default: "damaged or missing data"
        }
    }

    /// Seconds for a message, cut (not rounded) to hundredths: `5`, `2.5`, `2.97`.
    static func seconds(_ micros: Int64) -> String { Duration.microseconds(micros).secondsText }

    /// `strerror(3)` as a Swift string.
    static func systemMessage(_ errnoValue: Int32) -> String {
        guard let cString = strerror(errnoValue) else { return "error \(errnoValue)" }
        return String(cString: cString)
    }

    /// `m:ss.mmm` (or `h:mm:ss.mmm`) for messages.
    static func formatTime(_ micros: Int64) -> String { Duration.microseconds(micros).clockText(milliseconds: true) }
}

extension DecoderError {
    /// What a decoder that reads a stream once says to a seek (libvorbisfile's own code).
    public static var cannotSeek: DecoderError { .vorbis(OV_ENOSEEK) }
}
