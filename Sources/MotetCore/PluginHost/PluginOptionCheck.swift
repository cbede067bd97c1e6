#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI

/// One option a plugin describes in its descriptor (ABI 1.1 `motet_option_description`).
struct PluginOptionDescription: Equatable {
    var name: String
    var kind: PluginOptionKind
    var defaultValue: String?
    var help: String
}

/// `MOTET_OPTION_*`: what values an option takes.
enum PluginOptionKind: UInt32, Equatable {
    case string = 0, bool, integer, duration, inputPath, outputPath

    /// The kind in `--list-plugins`: "duration (s)".
    var label: String {
        switch self {
        case .string: "string"
        case .bool: "yes/no"
        case .integer: "integer"
        case .duration: "seconds"
        case .inputPath: "input file"
        case .outputPath: "output file"
        }
    }

    /// The kind as the completion cache records it.
    var completionKind: DescribedPluginOption.Kind {
        switch self {
        case .string: .string
        case .bool: .bool
        case .integer: .integer
        case .duration: .duration
        case .inputPath: .inputPath
        case .outputPath: .outputPath
        }
    }

    /// What is allowed, for the one-line refusal.
    var allowed: String {
        switch self {
        case .string: "any text"
        case .bool: "yes or no (also true/false, on/off, 1/0)"
        case .integer: "a whole number such as 42 or -1"
        case .duration: "a number of seconds >= 0 such as 2 or 0.5"
        case .inputPath, .outputPath: "a file path (~/ is your home directory)"
        }
    }
}

/// Checks the options of a request against what the plugin describes, before create.
enum PluginOptionCheck {
    /// The options the descriptor describes, or nil when it describes none (ABI 1.0, or NULL
    /// `options`): then every key reaches create unchecked, as in ABI 1.0.
    static func descriptions(_ d: UnsafePointer<motet_plugin_descriptor>) -> [PluginOptionDescription]? {
        // Field by field: only struct_size bytes of the descriptor are the plugin's.
        guard d.pointee.struct_size >= MOTET_DESCRIPTOR_SIZE_1_1, let list = d.pointee.options,
            d.pointee.option_count > 0
        else { return nil }
        var out: [PluginOptionDescription] = []
        for i in 0..<Int(min(d.pointee.option_count, 1024)) {
            let item = list.advanced(by: i)
            guard item.pointee.struct_size >= MOTET_OPTION_DESCRIPTION_SIZE_1_1, let name = item.pointee.name else { continue }
            out.append(
                PluginOptionDescription(
                    name: LogText.fromPlugin(name),
                    kind: PluginOptionKind(rawValue: item.pointee.kind) ?? .string,
                    defaultValue: item.pointee.default_value.map { LogText.fromPlugin($0) },
                    help: item.pointee.help.map { LogText.fromPlugin($0) } ?? ""))
        }
        return out
    }

    /// An option the plugin does not allow, and why.
    struct Refusal: Error {
        var failure: PluginLoadFailure
        /// The option refused (its `origin` says where it was written).
        var option: PluginOption
    }

    /// The options as create gets them (paths with "~/" expanded), or the first one that is not
    /// allowed.
    static func checked(
        _ options: [PluginOption], against described: [PluginOptionDescription], home: String?
    ) -> Result<[PluginOption], Refusal> {
        var out: [PluginOption] = []
        for option in options {
            guard let d = described.first(where: { $0.name == option.key }) else {
                return .failure(Refusal(failure: .unknownOption(option.key, known: described.map(\.name)), option: option))
            }
            guard let value = value(option.value, d.kind, home: home) else {
                return .failure(Refusal(
                    failure: .badOptionValue(option.key, value: option.value, allowed: d.kind.allowed), option: option))
            }
            out.append(PluginOption(key: option.key, value: value, origin: option.origin))
        }
        return .success(out)
    }

    /// The value create gets, or nil when `text` is not one of `kind`.
    static func value(_ text: String, _ kind: PluginOptionKind, home: String?) -> String? {
        switch kind {
        case .string:
            return text
        case .bool:
            return ["yes", "no", "true", "false", "on", "off", "1", "0"].contains(text.lowercased()) ? text : nil
        case .integer:
            return Int64(text) != nil ? text : nil
        case .duration:
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, !text.hasPrefix("+") else { return nil }
            return text
        case .inputPath, .outputPath:
            guard !text.isEmpty else { return nil }
            if text == "~" || text.hasPrefix("~/"), let home, !home.isEmpty {
                return home + text.dropFirst()
            }
            return text
        }
    }

    /// `$HOME`, for "~/".
    static var home: String? { getenv("HOME").map { String(cString: $0) } }
}
