import Glibc
import MotetEvents

/// Why an output could not be opened or written. Each case carries what the user's line needs;
/// the line itself is made in one place, `description` (from `reason` and `advice`).
public enum OutputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// libpulse or alsa-lib could not be loaded (`library` is the dynamic loader's text).
    case libraryMissing(Output, library: String)
    /// The PulseAudio main loop (or its thread) could not be made.
    case mainLoopFailed(starting: Bool)
    /// No PulseAudio server answered at `server` (the default one when nil).
    case serverUnreachable(server: String?, why: String)
    /// The ALSA device could not be opened (`why`: alsa-lib's text).
    case deviceUnavailable(device: String, why: String)
    /// PulseAudio takes at most `maximumChannels` channels.
    case tooManyChannels(AudioFormat, maximumChannels: Int)
    /// The server refused a stream of `format`.
    case streamRefused(AudioFormat, why: String)
    /// The ALSA device refused `format` (`why`: alsa-lib's text).
    case formatRefused(device: String, AudioFormat, why: String)
    /// The output was used after `close()`; `what` names it ("the ALSA output default").
    case closed(what: String)
    /// The WAV output was written before it was opened.
    case writtenBeforeOpen
    /// The WAV file could not be created (`code`: errno).
    case cannotCreate(path: String, code: Int32)
    /// The WAV file could not be written (`code`: errno); `kept` says what became of it.
    case cannotWrite(path: String, code: Int32, kept: PartialFile)

    /// The outputs, as the user's lines name them.
    public enum Output: Sendable, Equatable {
        case pulse, alsa
    }

    /// What became of a WAV file whose write failed.
    public enum PartialFile: Sendable, Equatable {
        /// A device or a pipe: nothing was renamed or removed.
        case leftAlone
        /// `seconds` of sound were kept, renamed to `path`.
        case renamed(path: String, seconds: String)
        /// `seconds` of sound were kept, but the rename to `path` failed.
        case notRenamed(path: String, seconds: String)
        /// It held no sound yet and was removed.
        case removed
    }

    /// True when the output can take nothing more (a WAV file that cannot be written: disk full,
    /// read-only file system, I/O error): the player shows the line, stops, and exits with status 1.
    /// False for a problem with one stream (a format the device cannot play): playback goes on.
    public var endsPlayback: Bool {
        switch self {
        case .cannotCreate, .cannotWrite: true
        default: false
        }
    }

    /// The one line to show the user: "motet: what failed: why; what to do".
    public var description: String {
        "motet: " + reason + (advice.map { "; " + $0 } ?? "")
    }

    /// What failed and why, without the "motet: " prefix and the advice (the `auto` notice puts
    /// two of these in one line).
    public var reason: String {
        switch self {
        case .libraryMissing(let output, let library):
            "cannot use \(output == .pulse ? "PulseAudio" : "ALSA"): \(library)"
        case .mainLoopFailed(let starting):
            starting ? "cannot start the PulseAudio main loop thread" : "cannot create a PulseAudio main loop"
        case .serverUnreachable(let server, let why):
            "cannot connect to the PulseAudio server\(server.map { " \($0)" } ?? ""): \(why)"
        case .deviceUnavailable(let device, let why):
            "cannot open the ALSA device \(device): \(why)"
        case .tooManyChannels(let format, let maximum):
            "PulseAudio cannot play \(format) (at most \(maximum) channels)"
        case .streamRefused(let format, let why):
            "PulseAudio refused a \(format) stream: \(why)"
        case .formatRefused(let device, let format, let why):
            "the ALSA device \(device) cannot play \(format): \(why)"
        case .closed(let what):
            "\(what) is already closed"
        case .writtenBeforeOpen:
            "the WAV output was written before it was opened"
        case .cannotCreate(let path, let code):
            "cannot create the WAV file \(path): \(Self.text(errno: code))"
        case .cannotWrite(let path, let code, let kept):
            "cannot write the WAV file \(path): \(Self.text(errno: code))" + {
                switch kept {
                case .leftAlone: ""
                case .renamed(let path, let seconds): "; the \(seconds) written so far are kept as \(path)"
                case .notRenamed(let path, let seconds): "; it holds only the first \(seconds) (could not rename it to \(path))"
                case .removed: "; removed it (it held no sound yet)"
                }
            }()
        }
    }

    /// What the user can do, when there is something.
    public var advice: String? {
        switch self {
        case .libraryMissing(.pulse, _): "install libpulse0, or choose --output alsa, wav:PATH or null"
        case .libraryMissing(.alsa, _): "install libasound2, or choose --output pulse, wav:PATH or null"
        case .serverUnreachable: "start it, or choose --output alsa, wav:PATH or null"
        case .deviceUnavailable: "check `aplay -L`, or choose --output pulse, wav:PATH or null"
        case .tooManyChannels: "choose --output wav:PATH"
        case .cannotCreate(_, let code), .cannotWrite(_, let code, _):
            switch code {
            case ENOSPC, EDQUOT: "free some space or choose another path"
            case EIO: "check the disk or choose another path"
            case EPIPE: "the program reading it has stopped"
            default: "choose a writable path"
            }
        default: nil
        }
    }

    /// The system's text for an errno value.
    static func text(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
