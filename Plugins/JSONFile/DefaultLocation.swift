#if canImport(Glibc)
import Glibc
#endif
import MotetPluginKit

/// Where the state file goes when `path=` is not given:
/// `$XDG_RUNTIME_DIR/motet/now-playing.json`, or `/tmp/motet-$UID/now-playing.json` without one.
/// The `motet` directory is created (0700) when missing; the /tmp fallback must be a real
/// directory owned by this user and writable by nobody else, or it is refused.
enum DefaultLocation {
    static let fileName = "now-playing.json"

    /// The default state file path, or why it cannot be used.
    static func stateFile() -> Result<String, LocationError> {
        if let runtime = XDGDirectories().runtimeDirectory {
            let dir = runtime + "/motet"
            if mkdir(dir, 0o700) != 0, errno != EEXIST {
                return .failure(LocationError("cannot create '\(dir)': \(AtomicFile.lastError())"))
            }
            return .success(dir + "/" + fileName)
        }
        let dir = "/tmp/motet-\(getuid())"
        if mkdir(dir, 0o700) != 0, errno != EEXIST {
            return .failure(LocationError("cannot create '\(dir)': \(AtomicFile.lastError())"))
        }
        var info = stat()
        guard lstat(dir, &info) == 0 else {
            return .failure(LocationError("cannot inspect '\(dir)': \(AtomicFile.lastError())"))
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o022 == 0 else {
            return .failure(
                LocationError("refusing '\(dir)': not a directory owned by this user and closed to others"))
        }
        return .success(dir + "/" + fileName)
    }

    struct LocationError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
