import MotetEvents
import MotetSystem

/// Settings while they are being assembled: the config file's values first, the command line's
/// on top, plus what only matters until ``finish()`` (where each value came from, lists kept apart
/// by origin).
struct SettingsDraft {
    var settings = Settings()
    var listPlugins = false
    var configPath: String?
    var noConfig = false
    var filePlugins: [PluginRequest] = []
    var commandLinePlugins: [PluginRequest] = []
    var fileDirectories: [String] = []
    var commandLineDirectories: [String] = []
    var fileNoPlugins = false
    var commandLineNoPlugins = false
    /// Where `--untimed` was switched on, to name it if the output does not allow it.
    var untimedSource: OptionSource?
    /// The output as written, to quote it in messages.
    var outputText = "auto"
    var warnings: [String] = []

    /// Appends the plugin to the list of its origin.
    mutating func addPlugin(_ request: PluginRequest, from source: OptionSource) {
        if source.isCommandLine { commandLinePlugins.append(request) } else { filePlugins.append(request) }
    }

    /// Validates the combination and resolves plugin lists and instance names.
    func finish(action: Action) throws(LocatedProblem) -> Invocation {
        var result = settings
        var warnings = self.warnings
        if result.untimed, let untimedSource {
            switch result.output {
            case .null, .wav: break
            case .auto, .pulse, .alsa:
                throw LocatedProblem(.untimedNeedsOfflineOutput(output: outputText), at: ProblemLocation(untimedSource))
            }
        }
        var requests: [PluginRequest] = []
        if commandLineNoPlugins {
            result.noPlugins = true
            for request in commandLinePlugins {
                warnings.append(MessageRenderer.warning(
                    "ignoring --plugin \(DisplayText.quoted(request.name)) because --no-plugins is given.",
                    at: .commandLine(option: nil)))
            }
        } else if fileNoPlugins {
            requests = commandLinePlugins
            result.noPlugins = requests.isEmpty
        } else {
            requests = filePlugins + commandLinePlugins
            result.noPlugins = false
        }
        result.plugins = Self.named(requests)
        result.pluginDirectories = commandLineDirectories + fileDirectories
        if action == .play && result.inputs.isEmpty {
            throw LocatedProblem(.noInputs, at: .commandLine(option: nil))
        }
        return Invocation(action: action, settings: result, warnings: warnings)
    }

    /// Makes every instance name unique: the first keeps its section or default name, repeats
    /// become `NAME#2`, `NAME#3`…
    static func named(_ requests: [PluginRequest]) -> [PluginRequest] {
        var taken = Set<String>()
        var named: [PluginRequest] = []
        for var request in requests {
            let base = request.instanceName
            var number = 2
            while taken.contains(request.instanceName) {
                request.instanceName = "\(base)#\(number)"
                number += 1
            }
            taken.insert(request.instanceName)
            named.append(request)
        }
        return named
    }
}
