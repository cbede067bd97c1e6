import Foundation
import MotetTestSupport
import Testing

/// `make install PREFIX=/usr/local` into a DESTDIR scratch, as a packager would: the docs the
/// installed docs link to are there under the names the links use, and `man motet` and `man
/// motet-plugins` work, the latter listing what the installed plugins say about their options.
@Suite(.serialized) struct InstallTests {
    static let prefix = "/usr/local"

    /// The DESTDIR the build under test was installed into.
    private func install() throws -> String {
        let destdir = try Paths.temporaryDirectory("motet-destdir")
        let make = try Shell.run([
            "make", "-s", "-C", Paths.packageRoot, "install", "DESTDIR=\(destdir)", "PREFIX=\(Self.prefix)",
            "BIN=\(Paths.buildDirectory)",
        ])
        guard make.status == 0 else { throw TestError.failed("make install failed: \(make.stdout)\(make.stderr)") }
        return destdir
    }

    /// The relative link targets of a Markdown text (`[text](target)`), without `#fragment`;
    /// web addresses and links within the page are left out.
    static func relativeLinks(_ markdown: String) -> [String] {
        var out: [String] = []
        var rest = markdown[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close].prefix { $0 != "#" })
            if !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") { out.append(target) }
        }
        return out
    }

    @Test func everyLinkOfTheInstalledDocsResolves() throws {
        let destdir = try install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let docs = destdir + Self.prefix + "/share/doc/motet"
        for file in [
            "README.md", "PLUGINS.md", "motet.conf", "plugins/log.md", "plugins/json.md", "plugins/notify.md",
            "plugins/mpris.md", "plugins/schema/now-playing.schema.json", "plugins/schema/events.schema.json",
            "examples/c-plugin/plugin.c", "examples/c-plugin/Makefile", "examples/systemd/motet-station.service",
        ] {
            #expect(FileManager.default.fileExists(atPath: docs + "/" + file), "missing share/doc/motet/\(file)")
        }
        let pages = try #require(FileManager.default.enumerator(atPath: docs)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".md") }
        #expect(pages.count >= 6, "\(pages)")
        var checked = 0
        for page in pages {
            let text = try String(contentsOfFile: docs + "/" + page, encoding: .utf8)
            let directory = (docs + "/" + page as NSString).deletingLastPathComponent
            for link in Self.relativeLinks(text) {
                checked += 1
                #expect(
                    FileManager.default.fileExists(atPath: directory + "/" + link),
                    "share/doc/motet/\(page) links to \(link), which is not installed")
            }
        }
        #expect(checked >= 10, "links followed: \(checked)")
        // The links that name the bundled plugins' options go to their READMEs.
        let plugins = try String(contentsOfFile: docs + "/PLUGINS.md", encoding: .utf8)
        #expect(Self.relativeLinks(plugins).contains("plugins/json.md"), "\(Self.relativeLinks(plugins))")
    }

    @Test func manMotetAndManMotetPluginsWorkAndListWhatThePluginsDescribe() throws {
        let destdir = try install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let root = destdir + Self.prefix
        let environment = ["MANPATH": root + "/share/man", "MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat"]
        let motet = try Shell.run(["man", "motet"], environment: environment)
        #expect(motet.status == 0, "man motet: \(motet.stderr)")
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS"] {
            #expect(motet.stdout.contains("\n\(section)\n"), "motet(1) has no \(section)")
        }
        #expect(motet.stdout.contains("--plugin-dir") && motet.stdout.contains("Ctrl-L"))

        let page = try Shell.run(["man", "motet-plugins"], environment: environment)
        #expect(page.status == 0, "man motet-plugins: \(page.stderr)")
        // Every option the installed plugins describe (as --list-plugins shows them) is on the page,
        // with its kind and its help.
        let listing = try Shell.run(
            [root + "/bin/motet", "--no-config", "--list-plugins"], environment: ["XDG_DATA_HOME": destdir + "/none", "HOME": destdir])
        let options = listing.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains("=") && !$0.hasPrefix("/") }
        #expect(options.count >= 7, "options listed: \(listing.stdout)")
        let flat = page.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for line in options {
            let spelling = String(line.prefix { $0 != " " })  // key=kind
            let help = line.range(of: "  ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } ?? ""
            #expect(flat.contains(spelling), "motet-plugins(7) lacks \(spelling)")
            #expect(flat.contains(help.split(separator: " ").joined(separator: " ")), "motet-plugins(7) lacks the help of \(spelling): \(help)")
        }
        for name in ["LOG", "JSON", "NOTIFY", "MPRIS"] {
            #expect(page.stdout.contains("\n\(name)\n"), "no section for \(name)")
        }
        // The documents the pages name are installed there.
        for text in [motet.stdout, page.stdout] {
            var rest = text[...]
            while let found = rest.range(of: Self.prefix + "/share/doc/motet/") {
                let path = String(text[found.lowerBound...].prefix { !$0.isWhitespace && $0 != "," && $0 != ")" })
                let file = path.hasSuffix(".") ? String(path.dropLast()) : path
                #expect(FileManager.default.fileExists(atPath: destdir + file), "a man page names \(file), which is not installed")
                rest = text[found.upperBound...]
            }
        }
    }
}
