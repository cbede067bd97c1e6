import Foundation

/// Where things are: the package, the built products, a fresh temporary directory per test.
public enum Paths {
    /// The package root (the directory holding Package.swift).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// The directory with the built `motet` binary and bundled plugins: `$MOTET_BUILD_DIR`, set by
    /// the Makefile from `swift build --show-bin-path`, else `.build/debug`.
    public static var buildDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["MOTET_BUILD_DIR"], !dir.isEmpty { return dir }
        return packageRoot + "/.build/debug"
    }

    /// The `motet` executable under test.
    public static var motet: String { buildDirectory + "/motet" }

    /// A bundled plugin's shared object, e.g. `plugin("log")`.
    public static func plugin(_ name: String) -> String { buildDirectory + "/libmotet-\(name).so" }

    /// A new empty directory under /tmp, unique to the caller.
    public static func temporaryDirectory(_ label: String = "motet-test") throws -> String {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw TestError.failed("mkdtemp failed") }
        return String(cString: p)
    }
}
