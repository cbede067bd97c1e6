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
            "plugins/mpris.md", "plugins/web.md", "plugins/schema/now-playing.schema.json", "plugins/schema/events.schema.json",
            "../motet-plugin-dev/examples/c-plugin/plugin.c", "../motet-plugin-dev/examples/c-plugin/Makefile",
            "examples/systemd/motet-station.service",
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
        for name in ["LOG", "JSON", "NOTIFY", "MPRIS", "WEB"] {
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

    /// The names a shared object exports: its defined global and weak dynamic symbols.
    static func exportedSymbols(_ file: String) throws -> [String] {
        let table = try Shell.check(["readelf", "--dyn-syms", "-W", file]).stdout
        return table.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 8, f[4] == "GLOBAL" || f[4] == "WEAK", f[6] != "UND" else { return nil }
            return String(f[7].prefix { $0 != "@" })
        }
    }

    /// What a packager checks before shipping: each plugin has a SONAME (so no build path is
    /// recorded in `.gnu.version_d`) and exports only its entry; the installed player does not
    /// search its own bin directory as a build tree, does not need libraries it does not call,
    /// and plays.
    @Test func theInstalledPlayerAndPluginsAreFitToShip() throws {
        let destdir = try install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let root = destdir + Self.prefix
        for name in ["log", "json", "notify", "mpris", "web"] {
            let file = root + "/lib/motet/plugins/\(name).so"
            let dynamic = try Shell.check(["readelf", "-d", file]).stdout
            #expect(dynamic.contains("Library soname: [\(name).so]"), "\(name).so: \(dynamic)")
            let exported = try Self.exportedSymbols(file)
            #expect(exported == ["motet_plugin_entry"], "\(name).so exports \(exported.count): \(exported.prefix(5))")
            let versions = try Shell.check(["readelf", "-V", file]).stdout
            #expect(!versions.contains(Paths.packageRoot) && !versions.contains("/.build/"), "\(name).so: \(versions)")
        }
        let motet = root + "/bin/motet"
        let needed = try Shell.check(["readelf", "-d", motet]).stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libvorbisfile.so.3") } && needed.contains { $0.contains("libopusfile.so.0") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libvorbis.so.0") || $0.contains("libogg.so.0") || $0.contains("libopus.so.0") }, "\(needed)")
        let environment = ["XDG_DATA_HOME": destdir + "/none", "HOME": destdir]
        let listing = try Shell.run([motet, "--no-config", "--list-plugins"], environment: environment)
        #expect(!listing.stdout.contains("build tree") && !listing.stdout.contains(" \(root)/bin "), "\(listing.stdout)")
        #expect(listing.stdout.contains("\(root)/lib/motet/plugins  (installed with motet)"), "\(listing.stdout)")
        let play = try Shell.run(
            [motet, "--no-config", "--output", "null", "--untimed", "--status", "events", Paths.packageRoot + "/Examples/demo/motet-demo.ogg"],
            environment: environment)
        #expect(play.status == 0 && play.stdout.contains("Finished: "), "\(play.stdout)\(play.stderr)")
    }

    /// The man pages go through groff's every warning silently, say each thing once, and name the
    /// config-file key that loads a shared object.
    @Test func theInstalledManPagesAreCleanForGroff() throws {
        let destdir = try install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let pages = [destdir + Self.prefix + "/share/man/man1/motet.1", destdir + Self.prefix + "/share/man/man7/motet-plugins.7"]
        for page in pages {
            let groff = try Shell.run(["groff", "-ww", "-man", "-z", page])
            #expect(groff.status == 0 && groff.stderr.isEmpty, "\(page): \(groff.stderr)")
            let lines = try String(contentsOfFile: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where line == "Repeatable." && i > 0 {
                #expect(!lines[i - 1].contains("Repeatable"), "\(page): 'Repeatable' twice: \(lines[i - 1])")
            }
        }
        let motet = try String(contentsOfFile: pages[0], encoding: .utf8)
        #expect(motet.contains("\\fBlibrary = \\fR\\fIPATH\\fR") && !motet.contains("\\fBfile = \\fR"), "motet(1) names the wrong key")
        #expect(motet.contains("2, 4 ... 30 s"), "motet(1) lost the retry times")
    }
}
