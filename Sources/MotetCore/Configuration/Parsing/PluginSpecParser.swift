import MotetEvents
import MotetSystem

/// Parses `--plugin NAME[:KEY=VALUE,…]` (also the config file's top-level `plugin = …`).
///
/// A backslash escapes `,` `:` `=` and `\` itself; any other escape is an error. The name ends at
/// the first unescaped `:`, except for a path (a name containing `/`): there the split is at the
/// first unescaped `:` after the last `/` that comes before the first unescaped `=`, so both
/// `/opt/a:b/y.so:k=v` and `/x/y.so:file=/tmp/out` work.
enum PluginSpecParser {
    /// What a plugin name may contain when it is not a path.
    static let nameExpected = "a plugin name (\(PluginName.rule)) or a path containing '/'"

    private struct Unit {
        var scalar: Unicode.Scalar
        var escaped: Bool
        func `is`(_ c: Unicode.Scalar) -> Bool { !escaped && scalar == c }
    }

    /// The plugin name or path and its options, in order.
    static func parse(_ spec: String) throws(ParseProblem) -> (name: String, options: [PluginOption]) {
        let units = try unescape(spec)
        let firstEquals = units.firstIndex { $0.is("=") } ?? units.endIndex
        let searchStart: Int
        if let lastSlash = units[..<firstEquals].lastIndex(where: { $0.scalar == "/" }) {
            searchStart = lastSlash + 1
        } else {
            searchStart = 0
        }
        let colon = units[searchStart...].firstIndex { $0.is(":") }
        let name = text(units[..<(colon ?? units.endIndex)])
        try validateName(name, spec: spec)
        guard let colon else { return (name, []) }
        let rest = Array(units[(colon + 1)...])
        if rest.isEmpty { return (name, []) }
        var options: [PluginOption] = []
        for item in rest.split(omittingEmptySubsequences: false, whereSeparator: { $0.is(",") }) {
            guard !item.isEmpty else {
                throw .badValue(spec, explanation: "an option between ',' is empty; write NAME:KEY=VALUE,KEY=VALUE")
            }
            guard let equals = item.firstIndex(where: { $0.is("=") }) else {
                throw .badValue(spec, explanation: "option '\(DisplayText.escaped(text(item[...])))' is not KEY=VALUE (escape a literal ',' ':' '=' or '\\' with '\\')")
            }
            let key = text(item[..<equals])
            guard !key.isEmpty else {
                throw .badValue(spec, explanation: "an option has no KEY before '='")
            }
            options.append(PluginOption(key: key, value: text(item[(equals + 1)...])))
        }
        return (name, options)
    }

    /// Checks a plugin name (not a path) or path given on its own, e.g. a `[plugin NAME]` section,
    /// with the rule the plugin host looks names up by (``PluginName``), so that a name the host
    /// would refuse is a usage error here.
    static func validateName(_ name: String, spec: String) throws(ParseProblem) {
        if name.isEmpty {
            throw .badValue(spec, explanation: "the plugin name is missing; expected NAME[:KEY=VALUE,…] with \(nameExpected)")
        }
        if name.contains("/") { return }
        if !PluginName.isValid(name) {
            throw .invalidValue(name, expected: nameExpected)
        }
    }

    /// The instance name a plugin gets when nobody names it: the name, or for a path the file name
    /// without `libmotet-`/`motet-`/`lib` and `.so…` (`/x/libmotet-log.so` → `log`).
    static func defaultInstanceName(for name: String) -> String {
        guard name.contains("/") else { return name }
        let fileName = name.split(separator: "/").last ?? Substring(name)
        let pieces = fileName.split(separator: ".", omittingEmptySubsequences: false)
        let so = pieces.indices.dropFirst().first { pieces[$0] == "so" } ?? pieces.endIndex
        var base = Substring(pieces[..<so].joined(separator: "."))
        for prefix in ["libmotet-", "motet-", "lib"] where base.hasPrefix(prefix) && base.count > prefix.count {
            base = base.dropFirst(prefix.count)
            break
        }
        return base.isEmpty ? name : String(base)
    }

    private static func unescape(_ spec: String) throws(ParseProblem) -> [Unit] {
        var units: [Unit] = []
        var iterator = spec.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                units.append(Unit(scalar: scalar, escaped: false))
                continue
            }
            guard let next = iterator.next() else {
                throw .badValue(spec, explanation: "it ends with a lone '\\'; write '\\\\' for a backslash")
            }
            guard next == "," || next == ":" || next == "=" || next == "\\" else {
                throw .badValue(spec, explanation: "unknown escape '\\\(DisplayText.escaped(String(next)))'; only ',' ':' '=' and '\\' are escaped with '\\'")
            }
            units.append(Unit(scalar: next, escaped: true))
        }
        return units
    }

    private static func text(_ units: ArraySlice<Unit>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: units.map(\.scalar))
        return String(s)
    }
}
