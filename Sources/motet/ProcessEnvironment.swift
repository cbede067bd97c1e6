#if canImport(Glibc)
import Glibc
import MotetSystem
#endif

/// The process's environment and paths (the XDG directories are `XDGDirectories`).
enum ProcessEnvironment {
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") {
                result[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            p += 1
        }
        return result
    }

    /// The absolute path of this executable (for plugins installed relative to it).
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard n > 0 else { return CommandLine.arguments.first ?? "motet" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute against the current directory (not resolved: links stay as given).
    static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return cwd == "/" ? "/" + relative : cwd + "/" + relative
    }
}
