import MotetEvents
import MotetSystem

/// The command line and the config file, parsed with one option table.
public enum Options {
    /// Parses `arguments` — the command line WITHOUT the program name
    /// (`Array(CommandLine.arguments.dropFirst())`).
    ///
    /// Order: `--help`/`-h` and `--version`/`-V` win over everything (even mistakes). Otherwise the
    /// command line is checked for unknown options and missing values, then the config file is read
    /// (`--config FILE`; else `$XDG_CONFIG_HOME/motet/motet.conf` when that variable holds an absolute
    /// path, else `~/.config/motet/motet.conf`; a missing default file is fine; `--no-config` reads
    /// none), then the command line's values are applied on top. Inputs come only from the command
    /// line, and `play` needs at least one.
    ///
    /// - Throws: a ``UsageError`` whose message names the option (or `FILE:LINE: key`), the value and
    ///   what is allowed; exit with its ``UsageError/exitCode`` (64).
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
        do {
            return try parseLocated(arguments, environment: environment)
        } catch {
            throw error.usageError
        }
    }

    /// The text `--help` prints, generated from the option table.
    public static var helpText: String { HelpText.render() }

    /// The config file read when neither `--config` nor `--no-config` is given.
    public static func defaultConfigPath(environment: [String: String]) -> String {
        XDGDirectories(environment: environment).configHome + "/" + configFileUnderXDG
    }

    /// The default config file, relative to `$XDG_CONFIG_HOME`.
    static let configFileUnderXDG = "motet/motet.conf"

    private static func parseLocated(_ arguments: [String], environment: [String: String]) throws(LocatedProblem) -> Invocation {
        let elements = ArgumentLexer.split(arguments)
        if let information = ArgumentLexer.requestedInformation(elements) {
            return Invocation(action: information, settings: Settings(), warnings: [])
        }
        let commandLine = try ArgumentLexer.resolve(elements)

        // The command line's own choices about the config file come first.
        var draft = SettingsDraft()
        var configPath: String?
        var noConfig = false
        var configOption: String?
        for occurrence in commandLine.occurrences where ["config", "no-config"].contains(occurrence.definition.name) {
            try apply(occurrence, to: &draft)
            if occurrence.definition.name == "config" {
                configOption = occurrence.source.origin
            }
            configPath = draft.configPath
            noConfig = draft.noConfig
        }
        if noConfig, configPath != nil {
            throw LocatedProblem(.conflict("--config", "--no-config"), at: .commandLine(option: nil))
        }

        draft = SettingsDraft()
        if !noConfig {
            let path = configPath ?? defaultConfigPath(environment: environment)
            let explicit = configPath != nil
            if explicit || FileSystem.exists(path) {
                let contents: ConfigFileReader.Contents
                do throws(LocatedProblem) {
                    contents = try ConfigFileReader.read(path: path)
                } catch {
                    if explicit, case .unreadableConfigFile = error.problem {
                        throw LocatedProblem(error.problem, at: .commandLine(option: configOption ?? "--config"))
                    }
                    throw error
                }
                for occurrence in contents.occurrences { try apply(occurrence, to: &draft) }
                draft.filePlugins += contents.plugins
                draft.warnings += contents.warnings
                draft.settings.configFile = path
            }
        }
        for occurrence in commandLine.occurrences { try apply(occurrence, to: &draft) }
        draft.settings.inputs = commandLine.inputs
        return try draft.finish(action: draft.listPlugins ? .listPlugins : .play)
    }

    private static func apply(_ occurrence: OptionOccurrence, to draft: inout SettingsDraft) throws(LocatedProblem) {
        do throws(ParseProblem) {
            try occurrence.definition.apply(&draft, occurrence.value, occurrence.source)
        } catch {
            throw LocatedProblem(error, at: ProblemLocation(occurrence.source))
        }
    }
}
