import Foundation
import MotetTestSupport
import Testing

/// What the plugin author's documents promise matches what ships: the file names, the answers
/// of send_command, the kit's version and what changed in it.
@Suite struct PluginDocsTests {
    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
    }

    @Test func eachBundledPluginsReadmeNamesTheFileThatIsInstalled() throws {
        for (readme, name) in [("Log", "log"), ("JSONFile", "json"), ("Notify", "notify"), ("MPRIS", "mpris"), ("Web", "web")] {
            let text = try read("Plugins/\(readme)/README.md")
            #expect(text.contains("installed as `\(name).so` in `/usr/lib/motet/plugins`"), "Plugins/\(readme)/README.md")
        }
    }

    @Test func theLogReadmeSaysUnknownOptionsAreRefused() throws {
        let text = try read("Plugins/Log/README.md")
        #expect(!text.contains("Unknown options get a warning"))
        #expect(text.contains("exit status 64"))
        // And so it is: an unknown option of log on the command line is a usage error.
        let run = try MotetRun()
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let r = try run.run(["--no-config", "--output", "null", "--plugin", "log:colour=red", Paths.packageRoot + "/Examples/demo/motet-demo.ogg"])
        #expect(r.status == 64 && r.stderr.contains("colour"), "\(r.status): \(r.stderr)")
    }

    @Test func theHeaderListsEveryAnswerOfSendCommand() throws {
        let header = try read("Sources/MotetPluginABI/include/motet/plugin.h")
        let start = try #require(header.range(of: "int32_t (*send_command)"))
        let comment = header[..<start.lowerBound].components(separatedBy: "/**").last ?? ""
        // The sentence that lists what it returns.
        let answers = comment.components(separatedBy: "returns at once with").dropFirst().first?
            .components(separatedBy: ". ").first ?? ""
        for answer in ["MOTET_COMMAND_ACCEPTED", "_REFUSED", "_UNSUPPORTED", "_BUSY"] {
            #expect(answers.contains(answer), "send_command's list of answers lacks \(answer): \(answers)")
        }
    }

    /// PLUGINS.md has a section for the kit's version in `KitVersion`, which says that
    /// `init(host:options:)` changed, and the scrobbler section.
    @Test func pluginsMdDescribesTheKitsVersionAndTheScrobbler() throws {
        let source = try read("Sources/MotetPluginKit/KitVersion.swift")
        func number(_ name: String) -> String? {
            source.components(separatedBy: "\n").first { $0.contains("static let \(name) = ") }?
                .components(separatedBy: "= ").last?.trimmingCharacters(in: .whitespaces)
        }
        let version = try "\(#require(number("major"))).\(#require(number("minor"))).\(#require(number("patch")))"
        let plugins = try read("PLUGINS.md")
        // The current version has its section; the one that changed init(host:options:) says so.
        let heading = "### MotetPluginKit \(version) "
        #expect(plugins.contains(heading), "no '\(heading)' in PLUGINS.md")
        let section = try #require(plugins.components(separatedBy: "### MotetPluginKit 1.1.0 ").dropFirst().first)
        let body = section.components(separatedBy: "\n### ").first ?? ""
        #expect(body.contains("`MotetDelegate.init(host:options:)` takes `PluginOptions` instead of\n  `[String: String]`"), "\(body)")
        #expect(plugins.contains("\n## Writing a scrobbler\n"))
        for topic in ["Keep `on_event` fast", "own thread", "Persist unsent work", "What happens at exit"] {
            #expect(plugins.contains(topic), "the scrobbler section lacks \(topic)")
        }
    }
}
