import MotetEvents

/// Splits the command line into elements before anything interprets them (like
/// swift-argument-parser's `SplitArguments`): `--name`, `--name=value`, `-x`, `-xVALUE`, plain
/// words, and everything after `--` as plain words.
enum ArgumentLexer {
    /// One piece of the command line.
    enum Element: Equatable {
        /// `--name` or `--name=value`.
        case long(name: String, attached: String?)
        /// `-x` or `-xTEXT` (TEXT is the value of a short option that takes one).
        case short(Character, attached: String?)
        /// A word that is not an option: a value or an input. `afterTerminator` when it followed `--`.
        case word(String, afterTerminator: Bool)
    }

    /// The elements of `arguments` (without the program name), in order.
    static func split(_ arguments: [String]) -> [Element] {
        var elements: [Element] = []
        var terminated = false
        for argument in arguments {
            if terminated {
                elements.append(.word(argument, afterTerminator: true))
            } else if argument == "--" {
                terminated = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    elements.append(.long(name: String(body[..<equals]), attached: String(body[body.index(after: equals)...])))
                } else {
                    elements.append(.long(name: String(body), attached: nil))
                }
            } else if argument.hasPrefix("-") && argument.count > 1 {
                let body = argument.dropFirst()
                let letter = body.first!
                let rest = body.dropFirst()
                elements.append(.short(letter, attached: rest.isEmpty ? nil : String(rest)))
            } else {
                elements.append(.word(argument, afterTerminator: false))
            }
        }
        return elements
    }

    /// The action `--help`/`-h` or `--version`/`-V` asks for, whichever comes first: they win over
    /// everything else on the command line, even over mistakes.
    static func requestedInformation(_ elements: [Element]) -> Action? {
        for element in elements {
            switch element {
            case .long(name: "help", _), .short("h", attached: nil): return .help
            case .long(name: "version", _), .short("V", attached: nil): return .version
            default: continue
            }
        }
        return nil
    }

    /// Resolves the elements against the option table: option occurrences (with their values) and
    /// the positional inputs, or the first problem (unknown option, missing value).
    static func resolve(_ elements: [Element]) throws(LocatedProblem) -> (occurrences: [OptionOccurrence], inputs: [String]) {
        var occurrences: [OptionOccurrence] = []
        var inputs: [String] = []
        var index = 0
        while index < elements.count {
            let element = elements[index]
            index += 1
            let definition: OptionDefinition
            let spelling: String
            var attached: String?
            switch element {
            case .word(let word, _):
                inputs.append(word)
                continue
            case .long(let name, let value):
                spelling = "--" + name
                guard let found = OptionTable.named(name) else {
                    let suggestion = Suggestion.closest(to: name, among: OptionTable.all.map(\.name)).map { "--" + $0 }
                    throw LocatedProblem(.unknownOption(spelling, suggestion: suggestion), at: .commandLine(option: nil))
                }
                definition = found
                attached = value
            case .short(let letter, let value):
                spelling = "-" + String(letter)
                guard let found = OptionTable.short(letter) else {
                    throw LocatedProblem(.unknownOption(spelling), at: .commandLine(option: nil))
                }
                definition = found
                if case .flag = found.kind, let value {
                    throw LocatedProblem(.unexpectedText(option: spelling, text: value), at: .commandLine(option: nil))
                }
                attached = value
            }
            if case .value = definition.kind, attached == nil {
                // The next word is the value, unless it is an option, `--`, or absent. A dash
                // followed by something that is no short option (`-5`) is a (bad) value, so the
                // message can quote it.
                if index < elements.count, case .word(let word, afterTerminator: false) = elements[index] {
                    attached = word
                    index += 1
                } else if index < elements.count, case .short(let letter, let rest) = elements[index],
                    OptionTable.short(letter) == nil
                {
                    attached = "-" + String(letter) + (rest ?? "")
                    index += 1
                } else {
                    throw LocatedProblem(.missingValue(expected: definition.expected), at: .commandLine(option: spelling))
                }
            }
            occurrences.append(OptionOccurrence(definition: definition, value: attached, source: .commandLine(spelling: spelling)))
        }
        return (occurrences, inputs)
    }
}
