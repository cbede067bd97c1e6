import Foundation

/// Builds `CPlugins/probe.c` with `cc`, the way a third party builds a plugin, and reads what the
/// probe wrote.
public enum ProbePlugin {
    public static let source = Paths.packageRoot + "/Tests/PluginHostTests/CPlugins/probe.c"
    public static let include = Paths.packageRoot + "/Sources/MotetPluginABI/include"
    /// The frozen copy of the ABI 1.0 header: a plugin built against it is an ABI 1.0 plugin.
    public static let include1_0 = Paths.packageRoot + "/Tests/PluginHostTests/CPlugins/abi-1.0"

    /// Compiles the probe into `directory/fileName` with `-D` `defines`; `linkStrictly: false`
    /// drops `-Wl,-z,defs` (to build one with an unresolved symbol); `abi1_0` builds it against
    /// the frozen ABI 1.0 header. Returns the path.
    @discardableResult
    public static func build(
        in directory: String, fileName: String = "probe.so", defines: [String] = [], linkStrictly: Bool = true,
        source: String = ProbePlugin.source, abi1_0: Bool = false
    ) throws -> String {
        let output = directory + "/" + fileName
        var argv = ["cc", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror"]
        argv += ["-I", abi1_0 ? include1_0 : include]
        if linkStrictly { argv.append("-Wl,-z,defs") }
        argv += defines.map { "-D" + $0 }
        argv += ["-o", output, source, "-lpthread"]
        try Shell.check(argv)
        return output
    }

    /// The lines the probe wrote to `path` ("<monotonic us> <instance> <what>"), without the
    /// timestamp and instance.
    public static func lines(_ path: String) -> [String] {
        entries(path).map(\.text)
    }

    /// The lines with their timestamps (CLOCK_MONOTONIC microseconds).
    public static func entries(_ path: String) -> [(micros: Int64, instance: String, text: String)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let micros = Int64(parts[0]) else { return nil }
            return (micros, String(parts[1]), String(parts[2]))
        }
    }

    /// Waits until the probe wrote a line satisfying `predicate`.
    public static func waitForLine(_ path: String, timeout: Double = 10, _ predicate: (String) -> Bool) throws -> Bool {
        try Shell.waitUntil(timeout: timeout) { lines(path).contains(where: predicate) }
    }
}
