#if canImport(Glibc)
import Glibc
#endif

extension PluginHost {
    /// The names `--plugin NAME` would find, in search-path order, each once: what shell
    /// completion offers. Only directory listings are read; no plugin is opened or loaded, so
    /// pressing TAB never runs a plugin's code.
    public static func names(searchPath: PluginSearchPath) -> [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for entry in searchPath.entries {
            for fileName in sortedFiles(entry.directory) {
                guard let name = PluginSearchPath.pluginName(forFile: fileName, in: entry.source),
                    seen.insert(name).inserted
                else { continue }
                names.append(name)
            }
        }
        return names
    }
}
