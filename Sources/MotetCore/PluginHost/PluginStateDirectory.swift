#if canImport(Glibc)
import Glibc
#endif
import MotetEvents

/// Each instance's own directory (`motet_host.state_dir`, ABI 1.2):
/// `$XDG_STATE_HOME/motet/plugins/INSTANCE`, made by the host before create, private to the user.
enum PluginStateDirectory {
    /// The directory for `instanceName` under `base` (`…/motet/plugins`), made (with its parents)
    /// if missing; or the one line that says why it could not be.
    static func make(base: String, instanceName: String) -> Result<String, PluginFileError> {
        let path = base + "/" + instanceName
        if let (made, error) = makeDirectories(path) {
            return .failure(PluginFileError(
                description: "cannot make its state directory \(LogText.escaped(made)): \(String(cString: strerror(error)))"))
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return .failure(PluginFileError(description: "its state directory \(LogText.escaped(path)) is not a directory"))
        }
        return .success(path)
    }

    /// Makes the absolute `path` and its missing parents with mode 0700; nil when done, else the
    /// directory that could not be made and the errno. (Also the sandbox's output directories.)
    static func makeDirectories(_ path: String) -> (String, Int32)? {
        var made = ""
        for part in path.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST { return (made, errno) }
        }
        return nil
    }
}
