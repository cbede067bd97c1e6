import Foundation
import MotetConfiguration
import MotetEvents
import Testing

/// The man pages and the shell completions come from the same option table as `--help`.
@Suite struct GeneratedDocumentTests {
    /// The long options `--help` lists (the option table, as a user sees it).
    private var helpOptions: [String] {
        Options.helpText.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let dashes = line.range(of: "--") else { return nil }
            return String(line[dashes.lowerBound...].prefix { $0 != " " })
        }
    }

    private func render(_ kind: GeneratedDocument, plugins: [PluginDocumentation] = []) throws -> String {
        kind.render(version: "9.9.9", plugins: plugins)
    }

    @Test func helpListsTheOptionsTheGeneratorsWorkFrom() {
        #expect(helpOptions.count > 15)
        #expect(helpOptions.contains("--output") && helpOptions.contains("--plugin-dir"))
    }

    @Test func theManPageDocumentsEveryOptionAndTheSectionsAManPageNeeds() throws {
        let page = try render(.man)
        #expect(page.hasPrefix(".\\\""))
        #expect(page.contains(".TH MOTET 1 \"\" \"motet 9.9.9\""))
        for option in helpOptions {
            #expect(page.contains("\\fB" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(option) missing")
        }
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "SEE ALSO"] {
            #expect(page.contains(".SH \(section)\n"), "no \(section)")
        }
        #expect(page.contains("MOTET_PLUGIN_PATH"))
    }

    @Test func everyCompletionScriptOffersEveryOption() throws {
        let bash = try render(.bash), zsh = try render(.zsh), fish = try render(.fish)
        for option in helpOptions {
            #expect(bash.contains(option), "bash lacks \(option)")
            #expect(zsh.contains(option), "zsh lacks \(option)")
            #expect(fish.contains("-l \(option.dropFirst(2))"), "fish lacks \(option)")
        }
    }

    @Test func outputValuesComeFromTheTablesPlaceholder() throws {
        let bash = try render(.bash), fish = try render(.fish)
        #expect(bash.contains("'auto pulse alsa alsa: wav: wav-float: null'"))
        #expect(fish.contains("-l output -x -a 'auto pulse alsa alsa: wav: wav-float: null'"))
        #expect(bash.contains("'track album off'"))
    }

    @Test func pluginNamesComeFromTheSearchPathNeverFromLoading() throws {
        for kind in [GeneratedDocument.bash, .zsh, .fish] {
            let script = try render(kind)
            #expect(script.contains(GeneratedDocument.pluginNamesFlag), "\(kind) does not ask for names")
            #expect(script.contains(PluginOptionCache.flag), "\(kind) does not ask for option keys")
            #expect(!script.contains("--list-plugins 2>"), "\(kind) would load plugins")
        }
    }

    /// motet-plugins(7) shows what each plugin says about itself (the real plugins' page is
    /// checked after `make install` in InstallTests).
    @Test func thePluginsPageHasASectionPerPluginWithItsOwnOptionDescriptions() throws {
        let echo = PluginDocumentation(
            name: "echo", version: "2.1", description: "Says it back", options: [
                .init(key: "loud-ness", value: "yes/no", defaultValue: "no", help: "shout."),
                .init(key: "to", value: "output file", defaultValue: nil, help: "where \\ to"),
            ])
        let quiet = PluginDocumentation(name: "quiet", version: "1", description: "Nothing to set", options: [])
        let page = try render(.pluginsMan, plugins: [echo, quiet])
        #expect(page.contains(".TH MOTET-PLUGINS 7 \"\" \"motet 9.9.9\""))
        #expect(page.contains(".SH \"ECHO\"\nSays it back. Version 2.1.\n"), "\(page)")
        #expect(page.contains(".TP\n\\fBloud\\-ness\\fR=\\fIyes/no\\fR\nshout. Default: no.\n"), "\(page)")
        #expect(page.contains(".TP\n\\fBto\\fR=\\fIoutput file\\fR\nwhere \\e to.\n"), "\(page)")
        #expect(page.contains("More: \\fI/usr/share/doc/motet/plugins/echo.md\\fR."))
        #expect(page.contains(".SH \"QUIET\"\nNothing to set. Version 1.\n.PP\nNo options"), "\(page)")
        #expect(page.hasSuffix(".SH SEE ALSO\n.BR motet (1)\n"))
    }
}
