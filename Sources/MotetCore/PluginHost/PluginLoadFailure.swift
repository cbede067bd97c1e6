import MotetEvents

/// Why a plugin instance did not start. Each one becomes one log line that names the plugin, the
/// file and the reason; the player plays on without it.
enum PluginLoadFailure: Error, Equatable {
    /// A name not found in any directory of the search path; `available` are the names that are
    /// there (``PluginHost/names(searchPath:)``), the nearest one suggested.
    case notFound(name: String, fileNames: [String], directories: [String], available: [String])
    /// A name with characters a plugin name cannot have.
    case invalidName(String)
    /// An explicit path that does not exist or is not a regular file.
    case noSuchFile(String)
    /// The file, or its directory, may be changed by someone else; `fixes` says how to fix it.
    case unsafePermissions(problems: [String], fixes: [String])
    /// Not an ELF file at all.
    case notSharedObject(String)
    /// The dynamic linker found a symbol that nothing defines (dlopen RTLD_NOW pre-check).
    case unresolvedSymbol(String)
    /// Any other dynamic linker or libltdl error, with its text.
    case loaderFailed(String)
    /// The file does not export `motet_plugin_entry`.
    case noEntryFunction
    /// The descriptor is malformed (too small, missing functions).
    case invalidDescriptor(String)
    /// Built against another ABI major.
    case abiMajorMismatch(pluginMajor: UInt32, pluginMinor: UInt32, hostMajor: UInt32, hostMinor: UInt32)
    /// Needs a newer host minor than this one.
    case needsNewerHost(pluginMajor: UInt32, minimumMinor: UInt32, hostMajor: UInt32, hostMinor: UInt32)
    /// A Swift plugin built by another Swift compiler than the host's (descriptor `swift_toolchain`).
    case swiftToolchainMismatch(plugin: String, host: String)
    /// The entry function returned NULL.
    case declined(hostMajor: UInt32, hostMinor: UInt32)
    /// create returned an error.
    case createFailed(Int32)
    /// A key the plugin does not describe (ABI 1.1 descriptor options).
    case unknownOption(String, known: [String])
    /// A value that is not of the option's kind.
    case badOptionValue(String, value: String, allowed: String)
    /// The host could not start the instance's thread.
    case threadFailed
    /// The plugin's own process (isolation) could not be started, or ended while it loaded;
    /// the text says which.
    case isolationFailed(String)
    /// create raised a fatal signal (caught by the crash guard).
    case createCrashed(signal: Int32)

    /// The reason, as the part of the log line after the plugin and the file.
    var reason: String {
        switch self {
        case .notFound(let name, let fileNames, let directories, let available):
            let searched = directories.isEmpty ? "no plugin directory exists" : directories.joined(separator: ", ")
            // What helps first: the name meant, the names there are; then where it looked.
            var text = "not found"
            if let suggestion = Suggestion.closest(to: name, among: available) {
                text += " (did you mean '\(suggestion)'?)"
            }
            text += available.isEmpty ? "; no plugin is installed" : "; the plugins found are \(available.joined(separator: ", "))"
            return text + "; looked for \(fileNames.joined(separator: " or ")) in: \(searched)"
        case .invalidName(let name):
            return "\"\(name)\" is not a plugin name (\(PluginName.rule); give a path containing '/' to load a file)"
        case .noSuchFile(let detail):
            return "no such plugin file (\(detail))"
        case .unsafePermissions(let problems, let fixes):
            return "refused: \(problems.joined(separator: "; ")); fix with: \(fixes.joined(separator: " && "))"
                + " (or allow it with allow-unsafe-plugins = yes / --allow-unsafe-plugins)"
        case .notSharedObject(let detail):
            return "not a shared object (\(detail))"
        case .unresolvedSymbol(let detail):
            return "unresolved symbol: \(detail) (link the plugin with -Wl,-z,defs to catch this when building it)"
        case .loaderFailed(let detail):
            return "cannot be loaded: \(detail)"
        case .noEntryFunction:
            return "no entry function: the file does not export \(pluginEntrySymbol)"
                + " (mark it __attribute__((visibility(\"default\"))) or @_cdecl(\"\(pluginEntrySymbol)\") public)"
        case .swiftToolchainMismatch(let plugin, let host):
            return "refused: built with Swift \(plugin), but this motet runs Swift \(host)'s runtime"
                + " (a Swift plugin shares it; rebuild the plugin with Swift \(host))"
        case .invalidDescriptor(let detail):
            return "invalid descriptor: \(detail)"
        case .abiMajorMismatch(let pluginMajor, let pluginMinor, let hostMajor, let hostMinor):
            return "built for plugin ABI \(pluginMajor).\(pluginMinor), but this host has ABI \(hostMajor).\(hostMinor)"
                + " (the major versions differ; rebuild it against motet/plugin.h \(hostMajor).x)"
        case .needsNewerHost(let pluginMajor, let minimumMinor, let hostMajor, let hostMinor):
            return "needs host ABI \(pluginMajor).\(minimumMinor) or newer, but this host has ABI \(hostMajor).\(hostMinor)"
                + " (update motet)"
        case .declined(let hostMajor, let hostMinor):
            return "declined to load (its \(pluginEntrySymbol) returned NULL for host ABI \(hostMajor).\(hostMinor))"
        case .createFailed(let status):
            return "create failed (status \(status)); the plugin's own messages, if any, are above"
        case .unknownOption(let key, let known):
            let guess = Suggestion.closest(to: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
            return "unknown option '\(key)'\(guess) (it has: \(known.isEmpty ? "no options" : known.joined(separator: ", ")))"
        case .badOptionValue(let key, let value, let allowed):
            return "option \(key): '\(value)' is not allowed (\(allowed))"
        case .isolationFailed(let detail):
            return detail
        case .threadFailed:
            return "the host could not start a thread for it"
        case .createCrashed(let signal):
            return "crashed in create with \(PluginCrash.signalName(signal)); it is not used"
                + " (report it to the plugin's author, or remove it from the configuration)"
        }
    }
}

/// The exported symbol every plugin has.
let pluginEntrySymbol = "motet_plugin_entry"

