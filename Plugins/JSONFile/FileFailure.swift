#if canImport(Glibc)
import Glibc
#endif

/// Why writing one of the delegate's files failed: what was being done, and the system's errno.
struct FileFailure: Error {
    /// What failed, e.g. "cannot create a temporary file beside '/run/…/now-playing.json'".
    let action: String
    /// The errno value.
    let code: Int32

    /// Captures `errno` now, for `action`.
    static func now(_ action: String) -> FileFailure { FileFailure(action: action, code: errno) }

    /// The system's text for the errno value ("No space left on device").
    var reason: String { String(cString: strerror(code)) }

    /// What the user can do about it.
    var advice: String {
        switch code {
        case ENOSPC, EDQUOT: "free some space"
        case EROFS, EACCES, EPERM: "choose a writable place"
        default: "check the disk"
        }
    }
}
