#if canImport(Glibc)
import Glibc
#endif

/// The trust rule for plugin files: loading a shared object runs its code as the user, so the
/// file and its directory must be changeable only by the user or root.
///
/// Refused: a file or directory writable by group or others, or owned by a user other than root
/// and the current user. The file is checked through symbolic links, and both the directory the
/// path names and the directory of the real file are checked.
///
/// A shared directory that everyone may write to with the sticky bit (`/tmp`, `/var/tmp`) is not
/// something to `chmod` or `chown`: the advice is to move the plugin to the user's plugin
/// directory.
enum PluginTrust {
    /// The problems with `path` and how to fix them, or nil when it is trusted.
    static func check(_ path: String) -> PluginLoadFailure? {
        var realFile = path
        if let resolved = realpath(path, nil) {
            realFile = String(cString: resolved)
            free(resolved)
        }
        var problems: [String] = []
        var fixes: [String] = []
        // By device and inode: `/d/./ww` and `/d/ww` (or a link to it) are one directory, named once.
        var seen: Set<[UInt64]> = []

        func inspect(_ target: String, isDirectory: Bool) {
            var info = stat()
            guard stat(target, &info) == 0, seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
            let what = isDirectory ? "directory \(target)" : target
            let writable = info.st_mode & (S_IWGRP | S_IWOTH)
            if isDirectory && writable != 0 && info.st_mode & S_ISVTX != 0 {
                problems.append("\(what) lets anyone add files (mode \(octal(info.st_mode & 0o7777))): keep plugins out of it")
                let move = "mkdir -p \(userPluginDirectory) && mv \(shellQuoted(realFile)) \(userPluginDirectory)/"
                if !fixes.contains(move) { fixes.append(move) }
                return
            }
            if writable != 0 {
                let by = writable == (S_IWGRP | S_IWOTH) ? "group and others" : (writable & S_IWOTH != 0 ? "others" : "group")
                problems.append("\(what) is writable by \(by) (mode \(octal(info.st_mode & 0o7777)))")
                fixes.append("chmod go-w \(shellQuoted(target))")
            }
            let uid = getuid()
            if info.st_uid != 0 && info.st_uid != uid {
                let allowed = uid == 0 ? "not by root" : "neither by you (\(userName(uid))) nor by root"
                problems.append("\(what) is owned by \(userName(info.st_uid)), \(allowed)")
                fixes.append("chown \(userName(uid)) \(shellQuoted(target))")
            }
        }

        let directory = PluginSearchPath.parent(path)
        inspect(realFile, isDirectory: false)
        inspect(directory, isDirectory: true)
        inspect(PluginSearchPath.parent(realFile), isDirectory: true)
        return problems.isEmpty ? nil : .unsafePermissions(problems: problems, fixes: fixes)
    }

    /// Where the advice moves a plugin: the user's plugin directory, as the docs name it.
    static let userPluginDirectory = "~/.local/share/motet/plugins"

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func userName(_ uid: uid_t) -> String {
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return String(cString: name) }
        return "uid \(uid)"
    }

    /// Quotes a path for a shell command the user may paste.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "/") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_")
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "@")
        }
        return plain ? path : "'" + path.replacingAll("'", with: "'\\''") + "'"
    }
}

extension String {
    /// `replacingOccurrences` without Foundation.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
