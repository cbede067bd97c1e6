/// The options an instance was created with, as the header promises them: in the order given,
/// a key may repeat (`--plugin NAME:KEY=VALUE,...` or the config section, top to bottom).
public struct PluginOptions: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// Every key/value pair, in order.
    public var pairs: [(key: String, value: String)]

    public init(_ pairs: [(key: String, value: String)]) { self.pairs = pairs }

    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The last value given for `key` (a later one overrides), or nil.
    public subscript(_ key: String) -> String? { pairs.last { $0.key == key }?.value }

    /// Every value given for `key`, in order.
    public func values(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }

    /// The keys, in order, each once.
    public var keys: [String] {
        var seen: Set<String> = []
        return pairs.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    public static func == (a: PluginOptions, b: PluginOptions) -> Bool {
        a.pairs.elementsEqual(b.pairs) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// One option a delegate understands (`motet_option_description`): the host checks values
/// against `kind` before the delegate is made, and `motet --list-plugins` shows them.
public struct OptionDescription: Sendable, Equatable {
    /// `MOTET_OPTION_*`.
    public enum Kind: UInt32, Sendable {
        case string = 0
        /// yes/no, true/false, on/off, 1/0.
        case bool = 1
        case integer = 2
        /// Seconds, a decimal number >= 0.
        case duration = 3
        /// A file the delegate reads; the host expands "~/".
        case inputPath = 4
        /// A file the delegate writes; the host expands "~/".
        case outputPath = 5
    }

    /// The key: lowercase letters, digits, '-' or '_'.
    public var name: String
    public var kind: Kind
    /// Shown to the user; nil when there is none.
    public var defaultValue: String?
    /// One line.
    public var help: String

    public init(_ name: String, _ kind: Kind, default defaultValue: String? = nil, help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
    }
}

extension PluginOptions {
    /// A bool option's value (yes/true/on/1), or `fallback` when absent.
    public func flag(_ key: String, default fallback: Bool) -> Bool {
        guard let v = self[key]?.lowercased() else { return fallback }
        return ["yes", "true", "on", "1"].contains(v)
    }
}
