import MotetEvents
import MotetSystem

/// Reads the INI-like config file into the same option occurrences the command line produces.
///
/// Grammar, one line at a time (CRLF and a UTF-8 byte-order mark are fine):
/// - blank lines, and lines whose first non-blank character is `#` or `;`, are ignored;
/// - a `#` after a space or a tab starts a comment that runs to the end of the line
///   (`volume = 80 # quieter`); a `#` right after another character is part of the value
///   (`/music/a#b.ogg`), and so is everything inside double quotes (`"/music/My #1 Hits"`);
/// - `key = value`: before the first section, a long option without `--` (flags take yes/no);
///   inside a `[plugin NAME]` section, an option for that plugin (`library = PATH` loads PATH under
///   the instance name NAME; no plugin option can be called `library`). `file = PATH`, its old
///   name, still loads PATH (with a deprecation warning) unless the section has `library =` or
///   the plugin NAME declares an option called `file` (decided at load, see
///   `PluginRequest.deprecatedFileKey`). Spaces around key and value are trimmed; a value wrapped in double
///   quotes keeps its inner spaces;
/// - `[plugin NAME]` starts a section that lasts to the next section header.
struct ConfigFileReader {
    /// Largest config file read.
    static let sizeLimit = 1 << 20

    /// What a file produced.
    struct Contents {
        var occurrences: [OptionOccurrence] = []
        var plugins: [PluginRequest] = []
        var warnings: [String] = []
    }

    private struct Section {
        var name: String
        var line: Int
        var library: String?
        var file: String?
        var options: [PluginOption] = []
    }

    /// Reads and checks `path`.
    static func read(path: String) throws(LocatedProblem) -> Contents {
        switch FileSystem.readFile(path, limit: sizeLimit) {
        case .failure(let failure):
            throw LocatedProblem(.unreadableConfigFile(path: path, reason: failure.reason), at: .commandLine(option: nil))
        case .success(let bytes):
            return try parse(bytes, path: path)
        }
    }

    /// Parses the bytes of a config file called `path` (used in messages and origins).
    static func parse(_ bytes: [UInt8], path: String) throws(LocatedProblem) -> Contents {
        var contents = Contents()
        var section: Section?
        var firstLineOfKey: [String: Int] = [:]
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let here = ProblemLocation.configFile(path: path, line: number, key: nil)
            if rawLine.contains(0) { throw LocatedProblem(.nulByte, at: here) }
            var line = trimmed(Substring(decoding: rawLine, as: UTF8.self))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            line = withoutTrailingComment(line)
            if line.hasPrefix("[") {
                if let finished = section { try close(finished, path: path, into: &contents) }
                section = try header(line, at: here, number: number)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw LocatedProblem(.notKeyValue(String(line)), at: here)
            }
            let key = String(trimmed(line[..<equals]))
            let value = unquoted(trimmed(line[line.index(after: equals)...]))
            guard !key.isEmpty else { throw LocatedProblem(.emptyKey, at: here) }
            let keyed = ProblemLocation.configFile(path: path, line: number, key: key)
            if section != nil {
                if key == "library" || key == "file" {
                    guard !value.isEmpty else {
                        throw LocatedProblem(.invalidValue(value, expected: "the path of a plugin's shared object"), at: keyed)
                    }
                    if key == "library" {
                        section!.library = value
                    } else {
                        // Kept in order too: with `library =` it is the plugin's own option.
                        section!.file = value
                        section!.options.append(PluginOption(key: key, value: value, origin: "\(path):\(number)"))
                    }
                } else {
                    section!.options.append(PluginOption(key: key, value: value, origin: "\(path):\(number)"))
                }
                continue
            }
            guard let definition = OptionTable.named(key) else {
                if key == "input" || key == "inputs" { throw LocatedProblem(.inputsInConfigFile(key), at: here) }
                let keys = OptionTable.all.filter(\.allowedInConfigFile).map(\.name)
                throw LocatedProblem(.unknownKey(key, suggestion: Suggestion.closest(to: key, among: keys)), at: here)
            }
            guard definition.allowedInConfigFile else { throw LocatedProblem(.commandLineOnly(key), at: here) }
            if !definition.repeatable {
                if let first = firstLineOfKey[key] {
                    contents.warnings.append(MessageRenderer.warning(
                        "set again (first on line \(first)); the last value wins.", at: keyed))
                } else {
                    firstLineOfKey[key] = number
                }
            }
            contents.occurrences.append(OptionOccurrence(
                definition: definition, value: value, source: .configFile(path: path, line: number, key: key)))
        }
        if let finished = section { try close(finished, path: path, into: &contents) }
        return contents
    }

    /// `[plugin NAME]`.
    private static func header(_ line: Substring, at here: ProblemLocation, number: Int) throws(LocatedProblem) -> Section {
        guard line.hasSuffix("]") else { throw LocatedProblem(.unterminatedSection(String(line)), at: here) }
        let inside = trimmed(line.dropFirst().dropLast())
        guard inside.hasPrefix("plugin"), let first = inside.dropFirst(6).first, first == " " || first == "\t" else {
            throw LocatedProblem(.unknownSection(String(line)), at: here)
        }
        let name = trimmed(inside.dropFirst(6))
        guard !name.isEmpty else { throw LocatedProblem(.unknownSection(String(line)), at: here) }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw LocatedProblem(.badValue(String(name), explanation: "a plugin instance name cannot contain control characters"), at: here)
        }
        return Section(name: String(name), line: number)
    }

    /// Turns a finished section into a plugin request.
    private static func close(_ section: Section, path: String, into contents: inout Contents) throws(LocatedProblem) {
        var section = section
        if section.library != nil {
            section.file = nil  // the plugin's own option, already in `options`
        } else if section.file != nil {
            section.options.removeAll { $0.key == "file" }
        }
        if section.library == nil && section.file == nil {
            do throws(ParseProblem) {
                try PluginSpecParser.validateName(section.name, spec: section.name)
            } catch {
                throw LocatedProblem(error, at: .configFile(path: path, line: section.line, key: nil))
            }
        }
        var request = PluginRequest(
            name: section.library ?? section.file ?? section.name, options: section.options, instanceName: section.name,
            origin: "\(path):\(section.line)")
        request.deprecatedFileKey = section.file
        contents.plugins.append(request)
    }

    /// `line` (trimmed, not a comment line) without a trailing comment: from the first `#` that
    /// follows a space or a tab outside double quotes, trimmed again. A quote opens only at the
    /// start of the value (after `=` and blanks), where ``unquoted(_:)`` takes quotes off.
    static func withoutTrailingComment(_ line: Substring) -> Substring {
        var previous: Character = "x"
        var inQuotes = false
        var afterEquals = false
        var valueStarted = false
        for index in line.indices {
            let c = line[index]
            if inQuotes {
                if c == "\"" { inQuotes = false }
            } else if c == "#" && (previous == " " || previous == "\t") {
                return trimmed(line[..<index])
            } else if afterEquals && !valueStarted && !isBlank(c) {
                valueStarted = true
                inQuotes = c == "\""
            } else if c == "=" && !afterEquals {
                afterEquals = true
            }
            previous = c
        }
        return line
    }

    private static func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" }

    private static func trimmed(_ s: Substring) -> Substring {
        var s = s
        while let c = s.first, isBlank(c) { s = s.dropFirst() }
        while let c = s.last, isBlank(c) { s = s.dropLast() }
        return s
    }

    private static func unquoted(_ s: Substring) -> String {
        if s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") { return String(s.dropFirst().dropLast()) }
        return String(s)
    }
}
