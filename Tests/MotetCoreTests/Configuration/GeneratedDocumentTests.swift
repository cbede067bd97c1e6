import Foundation
import MotetConfiguration
import MotetEvents
import MotetTestSupport
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

    @Test func helpTheManPageAndTheREADMEListEveryExitStatus() throws {
        let page = try render(.man)
        let exitSection = String(page[try #require(page.range(of: ".SH EXIT STATUS\n")).upperBound...])
        let help = String(Options.helpText[try #require(Options.helpText.range(of: "Exit status")).lowerBound...])
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        for status in ExitStatus.allCases {
            #expect(exitSection.contains(".B \(status.rawValue)\n"), "motet(1) lacks \(status)")
            #expect(help.contains(" \(status.rawValue) "), "--help lacks \(status)")
            #expect(readme.contains("| \(status.rawValue) "), "the README lacks \(status)")
        }
        #expect(!help.contains(" 1 "), "1 is no status of a run any more: \(help)")
    }

    @Test func helpAndTheManPageDescribeURLsAndEveryPlaylistFormat() throws {
        let page = try render(.man)
        #expect(page.contains(".SH INPUTS\n"))
        for text in [Options.helpText, page] {
            #expect(text.contains("URL\\fR...") || text.contains("PLAYLIST|URL..."))
            for word in ["https://", ".m3u8", ".pls", ".xspf", "File1=", "<location>", "remote playlist"] {
                #expect(text.contains(word), "\(word) missing")
            }
        }
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
