#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI

extension PluginHost {
    /// For `motet --list-plugins`: the search path in order, then every candidate file in it with
    /// name, version, description, ABI and file, or why it cannot load. A name found again in a
    /// later directory is shown as shadowed. Loads each file (never creates an instance).
    public static func listing(searchPath: PluginSearchPath, allowUnsafePermissions: Bool) -> String {
        listingAndOptions(searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions).text
    }

    /// What listing one file found: its lines, the options it describes, whether it can load.
    public struct Inspection: Sendable, Equatable {
        public var text: String
        public var options: [DescribedPluginOption]
        public var loadable: Bool
    }

    /// The listing, the options each listed plugin describes (ABI 1.1; a shadowed file or one
    /// that cannot load contributes none) for the completion cache, and how many listed files
    /// cannot load. `inspect` looks at one file (`name`, `file`): in this process by default;
    /// `motet --list-plugins` gives ``PluginInspection/inChild(executable:allowUnsafePermissions:)``
    /// so that a plugin that crashes while loading ends only its own child.
    ///
    /// `named`: the requests of `--list-plugins --plugin PATH`; each one given as a path is
    /// looked at too, under "Named with --plugin" (its options are not cached: completion
    /// completes keys for names only).
    public static func listingAndOptions(
        searchPath: PluginSearchPath, allowUnsafePermissions: Bool, named: [PluginRequest] = [],
        inspect: ((_ name: String, _ file: String) -> Inspection)? = nil, isolation: PluginIsolationSettings? = nil
    ) -> (text: String, options: [DescribedPluginOption], unloadable: Int) {
        let inspect = inspect ?? { name, file in Self.inspect(name: name, file: file, allowUnsafePermissions: allowUnsafePermissions) }
        var unloadable = 0
        var options: [DescribedPluginOption] = []
        var out = "Plugin search path (a name loads the first match; --plugin PATH with a '/' loads that file):\n"
        for (i, entry) in searchPath.entries.enumerated() {
            let exists = isDirectory(entry.directory)
            out += "  \(i + 1). \(LogText.escaped(entry.directory))  (\(entry.source.label)\(exists ? "" : ", does not exist"))\n"
        }
        if searchPath.entries.isEmpty { out += "  (none)\n" }
        for ignored in searchPath.ignored { out += "  ignored: \(LogText.escaped(ignored))\n" }
        out += "\nPlugins:\n"
        var firstFile: [String: String] = [:]
        var any = false
        for entry in searchPath.entries {
            for fileName in sortedFiles(entry.directory) {
                guard let name = PluginSearchPath.pluginName(forFile: fileName, in: entry.source) else { continue }
                let file = entry.directory + "/" + fileName
                any = true
                if let first = firstFile[name] {
                    out += "  \(name)  shadowed by \(LogText.escaped(first)): \(LogText.escaped(file))\n"
                    continue
                }
                firstFile[name] = file
                let found = inspect(name, file)
                out += found.text
                if found.loadable, let isolation { out += "      runs " + isolation.describe(file) + "\n" }
                options += found.options
                if !found.loadable { unloadable += 1 }
            }
        }
        if !any { out += "  (none found)\n" }
        let files = named.filter(\.isPath)
        if !files.isEmpty { out += "\nNamed with --plugin:\n" }
        for request in files {
            guard case .success(let file) = resolve(request.name, in: searchPath) else { continue }
            let found = inspect(request.instanceName, file)
            out += found.text
            if found.loadable, let isolation { out += "      runs " + isolation.describe(file) + "\n" }
            if !found.loadable { unloadable += 1 }
        }
        return (out, options, unloadable)
    }

    /// The options the plugin `name` (first match on `searchPath`) describes, looked at with
    /// `inspect` (for completion: `motet --complete-plugin-options NAME` when the cache does not
    /// know NAME yet); nil when no such plugin is on the search path or it cannot load.
    public static func describedOptions(
        of name: String, searchPath: PluginSearchPath, inspect: (_ name: String, _ file: String) -> Inspection
    ) -> [DescribedPluginOption]? {
        guard !name.contains("/"), case .success(let file) = resolve(name, in: searchPath) else { return nil }
        let found = inspect(name, file)
        return found.loadable ? found.options : nil
    }

    /// Loads `file` in this process and describes it (one listing entry).
    public static func inspect(name: String, file: String, allowUnsafePermissions: Bool) -> Inspection {
        var options: [DescribedPluginOption] = []
        let text = describe(name: name, file: file, allowUnsafePermissions: allowUnsafePermissions, options: &options)
        return Inspection(text: text.text, options: options, loadable: text.loadable)
    }

    /// The listing entry for a file that could not be looked at, or crashed while loading.
    static func cannotLoad(_ name: String, _ file: String, _ reason: String) -> String {
        "  \(name)  cannot load: \(LogText.escaped(file)): \(LogText.escaped(reason))\n"
    }

    private static func describe(
        name: String, file: String, allowUnsafePermissions: Bool, options: inout [DescribedPluginOption]
    ) -> (text: String, loadable: Bool) {
        switch openDescriptor(file, allowUnsafePermissions: allowUnsafePermissions) {
        case .failure(let failure):
            return (cannotLoad(name, file, failure.reason), false)
        case .success(let d):
            // Field by field, never a copy of the whole struct: a plugin's descriptor may be
            // shorter than this header's (only struct_size bytes are the plugin's).
            let version = LogText.fromPlugin(d.pointee.version)
            let title = LogText.fromPlugin(d.pointee.name)
            let description = LogText.fromPlugin(d.pointee.description)
            let id = LogText.fromPlugin(d.pointee.id)
            let (major, minor, minimum) = (d.pointee.abi_major, d.pointee.abi_minor, d.pointee.min_host_minor)
            var out = "  \(name)  \(version)  \(title) (\(id)), ABI \(major).\(minor),"
                + " needs host ABI \(major).\(minimum)+\n"
                + "      \(description)\n"
                + "      \(LogText.escaped(file))\n"
            for option in PluginOptionCheck.descriptions(d) ?? [] {
                let value = option.defaultValue.map { " (default: \($0))" } ?? ""
                out += "      \(option.name)=\(option.kind.label)\(value)  \(option.help)\n"
                options.append(DescribedPluginOption(plugin: name, key: option.name, kind: option.kind.completionKind))
            }
            return (out, true)
        }
    }

    /// What each plugin file says about itself, for `motet-plugins(7)` (`motet --generate
    /// plugins-man FILE…`, run by `make install` on the bundled delegates it just built). The name
    /// is the file's (`json.so` and `libmotet-json.so` are `json`). The files are the build's own,
    /// so permissions are not checked (a build directory may be anywhere). Fails with the first
    /// file that cannot be read, as one line.
    public static func documentation(files: [String]) -> Result<[PluginDocumentation], PluginFileError> {
        var out: [PluginDocumentation] = []
        for file in files {
            let base = String(file.split(separator: "/").last ?? Substring(file))
            let stem = base.hasSuffix(".so") ? String(base.dropLast(3)) : base
            let name = stem.hasPrefix("libmotet-") ? String(stem.dropFirst("libmotet-".count)) : stem
            switch openDescriptor(file, allowUnsafePermissions: true) {
            case .failure(let failure):
                return .failure(PluginFileError(description: "motet: \(LogText.escaped(file)): \(LogText.escaped(failure.reason))"))
            case .success(let d):
                let options = (PluginOptionCheck.descriptions(d) ?? []).map {
                    PluginDocumentation.Option(key: $0.name, value: $0.kind.label, defaultValue: $0.defaultValue, help: $0.help)
                }
                out.append(
                    PluginDocumentation(
                        name: name, version: LogText.fromPlugin(d.pointee.version),
                        description: LogText.fromPlugin(d.pointee.description), options: options))
            }
        }
        return .success(out)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func sortedFiles(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            // In place: copying the whole `dirent` can read past the end of readdir's buffer
            // (records are only `d_reclen` bytes long).
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                    .assumingMemoryBound(to: CChar.self))
            if name.hasSuffix(".so") { names.append(name) }
        }
        return names.sorted()
    }
}

/// A plugin file that could not be read, as one line naming it.
public struct PluginFileError: Error, CustomStringConvertible {
    public var description: String
}
