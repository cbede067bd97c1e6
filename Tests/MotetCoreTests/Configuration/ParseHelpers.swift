import MotetConfiguration
import Testing

/// An environment whose default config file does not exist, so tests see only what they pass.
let isolatedEnvironment = ["HOME": "/nonexistent-motet-home", "XDG_CONFIG_HOME": "/nonexistent-motet-config"]

/// Parses a command line with no config file.
func parse(_ arguments: [String], environment: [String: String] = isolatedEnvironment) throws(UsageError) -> Invocation {
    try Options.parse(arguments, environment: environment)
}

/// The settings for a command line that must parse.
func settings(_ arguments: [String], environment: [String: String] = isolatedEnvironment) throws -> Settings {
    try parse(arguments, environment: environment).settings
}

/// The error a command line must produce (nil if it parsed).
func usageError(_ arguments: [String], environment: [String: String] = isolatedEnvironment) -> UsageError? {
    do {
        _ = try parse(arguments, environment: environment)
        return nil
    } catch {
        return error
    }
}

/// Checks that the command line fails with exactly `message` and exit code 64.
func expectUsageError(
    _ arguments: [String], _ message: String, environment: [String: String] = isolatedEnvironment,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = usageError(arguments, environment: environment)
    #expect(error?.description == message, sourceLocation: sourceLocation)
    #expect(error?.exitCode == 64, sourceLocation: sourceLocation)
}
