#if canImport(Glibc)
import MotetEvents
import Glibc
#endif
import CLTDL
import MotetPluginABI
import MotetSystem

/// Opens plugin shared objects with libltdl and finds their entry function.
///
/// libltdl facts this follows (reproduced on libltdl 2.4.7; docs/ARCHITECTURE.md, "Plugin
/// loading"): it always binds lazily, so an unresolved symbol would kill the process at its first
/// call — each file is first opened with `dlopen(RTLD_NOW | RTLD_LOCAL)` to get the real error;
/// `lt_dlerror` is a process-global static, so one lock covers every `lt_*` call and the copy of
/// its error text.
/// Nothing is ever closed: unloading Swift code is unsafe, and keeping C code costs nothing.
enum PluginLibrary {
    /// The process-wide ltdl lock; the value says whether `lt_dlinit` succeeded.
    private static let ltdl = Locked<Bool?>(nil)

    /// Opens `path` (absolute) and returns its entry function.
    static func open(_ path: String) -> Result<motet_plugin_entry_fn, PluginLoadFailure> {
        if let problem = checkELF(path) { return .failure(problem) }
        return ltdl.withLock { initialized -> Result<motet_plugin_entry_fn, PluginLoadFailure> in
            // The pre-check. The handle is kept (never dlclose'd): ltdl's open below shares it.
            _ = dlerror()
            if dlopen(path, RTLD_NOW | RTLD_LOCAL) == nil {
                let text = stripPath(path, from: dlerror().map { String(cString: $0) } ?? "unknown dlopen error")
                if text.includes("undefined symbol") { return .failure(.unresolvedSymbol(text)) }
                if ["invalid ELF header", "file too short", "wrong ELF class", "ELF file"].contains(where: text.includes) {
                    return .failure(.notSharedObject(text))
                }
                return .failure(.loaderFailed(text))
            }
            if initialized == nil {
                initialized = lt_dlinit() == 0
            }
            guard initialized == true else {
                return .failure(.loaderFailed("lt_dlinit failed: \(ltdlError())"))
            }
            var advise: lt_dladvise? = nil
            guard lt_dladvise_init(&advise) == 0 else {
                return .failure(.loaderFailed("lt_dladvise_init failed: \(ltdlError())"))
            }
            defer { lt_dladvise_destroy(&advise) }
            lt_dladvise_local(&advise)
            guard let handle = lt_dlopenadvise(path, advise) else {
                return .failure(.loaderFailed(stripPath(path, from: ltdlError())))
            }
            guard let symbol = lt_dlsym(handle, pluginEntrySymbol) else {
                _ = lt_dlerror()
                return .failure(.noEntryFunction)
            }
            return .success(unsafeBitCast(symbol, to: motet_plugin_entry_fn.self))
        }
    }

    /// Refuses anything but a regular file that starts with the ELF magic, before the dynamic
    /// linker sees it (so that a FIFO or a device cannot block or surprise the loader).
    static func checkELF(_ path: String) -> PluginLoadFailure? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .noSuchFile("\(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .noSuchFile("not a regular file")
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .loaderFailed("cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var magic: [UInt8] = [0, 0, 0, 0]
        let count = read(fd, &magic, 4)
        guard count == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else {
            return .notSharedObject(count < 4 ? "file too short" : "no ELF header")
        }
        return nil
    }

    /// The text of the last ltdl error. Call with the lock held.
    private static func ltdlError() -> String {
        lt_dlerror().map { String(cString: $0) } ?? "unknown libltdl error"
    }

    /// dlopen's messages start with the path, which the log line already names.
    private static func stripPath(_ path: String, from text: String) -> String {
        let prefix = path + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}

extension String {
    /// Whether `needle` occurs in this string, byte for byte. (`contains(_: String)` comes from
    /// _StringProcessing, which the engine does not load: see Package.swift.)
    func includes(_ needle: String) -> Bool {
        let haystack = Array(utf8), needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
