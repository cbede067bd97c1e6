import Foundation
import MotetConfiguration
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

    private func render(_ kind: GeneratedDocument, inputFiles: [String] = []) throws -> String {
        try kind.render(version: "9.9.9", inputFiles: inputFiles).get()
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

    @Test func thePluginsPageTurnsEachReadmesIntroductionAndOptionTableIntoASection() throws {
        let readme = NSTemporaryDirectory() + "motet-readme-\(getpid()).md"
        defer { try? FileManager.default.removeItem(atPath: readme) }
        try """
            # echo — says it back

            The `echo` delegate repeats *everything*.

            | Option | Values | Default |
            |---|---|---|
            | `loud` | `yes` or `no` | `no` |

            ## Details

            Not in the man page.
            """.write(toFile: readme, atomically: true, encoding: .utf8)
        let page = try render(.pluginsMan, inputFiles: [readme])
        #expect(page.contains(".TH MOTET-PLUGINS 7"))
        #expect(page.contains(".SH \"ECHO — SAYS IT BACK\"\n"))
        #expect(page.contains("The \\fBecho\\fR delegate repeats \\fIeverything\\fR."))
        #expect(page.contains(".TP\n\\fBloud\\fR\nValues: \\fByes\\fR or \\fBno\\fR\n.br\nDefault: \\fBno\\fR\n"))
        #expect(!page.contains("Not in the man page"))
    }

    @Test func anUnreadableReadmeIsAnErrorNamingTheFile() {
        let result = GeneratedDocument.pluginsMan.render(version: "1", inputFiles: ["/nonexistent/README.md"])
        guard case .failure(let error) = result else {
            Issue.record("rendered anyway")
            return
        }
        #expect(error.description == "motet: cannot read /nonexistent/README.md: no such file or directory")
    }
}
