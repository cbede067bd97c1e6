import Foundation
import MotetTestSupport
import Testing

/// Shell completion on the real binary: plugin names, and option keys from the cache of what
/// plugins describe (filled by `--list-plugins`, or for one plugin the first time its keys are
/// completed).
@Suite struct CompletionTests {
    /// What the generated bash completion offers for the last of `words` (motet first).
    private func bashOffers(_ run: MotetRun, _ words: [String], environment: [String: String]) throws -> [String] {
        let script = try run.run(["--generate", "bash"])
        try script.stdout.write(toFile: run.path("motet.bash"), atomically: true, encoding: .utf8)
        var env = run.environment
        for (k, v) in environment { env[k] = v }
        let result = try Shell.run(
            ["/bin/bash", "-c", "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _motet; printf '%s\\n' \"${COMPREPLY[@]}\"",
             run.path("motet.bash"), Paths.motet] + words,
            environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// A plugin in `directory` whose constructor leaves `mark`: any load of it shows.
    private func tripwire(_ run: MotetRun, in directory: String, mark: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
            #include <stdio.h>
            __attribute__((constructor)) static void loaded(void) { FILE *f = fopen("\(mark)", "w"); if (f) fclose(f); }
            """.write(toFile: run.path("tripwire.c"), atomically: true, encoding: .utf8)
        try Shell.check(["cc", "-shared", "-fPIC", "-o", directory + "/tripwire.so", run.path("tripwire.c")])
    }

    @Test func optionKeysCompleteWithoutListPluginsFirstLoadingOnlyTheNamedPluginOnce() throws {
        let run = try MotetRun("motet-complete")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugins = run.path("plugins"), mark = run.path("tripped")
        try tripwire(run, in: plugins, mark: mark)
        let env = ["MOTET_PLUGIN_PATH": plugins]
        func keys(_ plugin: String) throws -> String {
            let result = try run.run(["--complete-plugin-options", plugin], extraEnvironment: env)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let cache = run.home + "/cache/motet/plugin-options"
        #expect(!FileManager.default.fileExists(atPath: cache))

        // No --list-plugins has run: the first TAB after `json:` looks at json (in a child) and
        // caches what it describes; no other plugin is loaded.
        let offered = try bashOffers(run, ["--plugin", "json", ":", ""], environment: env)
        #expect(offered == ["events=", "interval=", "path="], "\(offered)")
        #expect(!FileManager.default.fileExists(atPath: mark), "completing json loaded another plugin")
        let cached = try String(contentsOfFile: cache, encoding: .utf8)
        #expect(cached.contains("json\tinterval\tduration\n"), "\(cached)")
        #expect(!cached.contains("log\t"), "only the plugin named is cached: \(cached)")
        // The next completion of log adds log's keys and keeps json's.
        #expect(try keys("log").contains("level\tstring\n"))
        let both = try String(contentsOfFile: cache, encoding: .utf8)
        #expect(both.contains("json\tinterval\tduration\n") && both.contains("log\tlevel\tstring\n"), "\(both)")
        #expect(try keys("tripwire") == "")
        #expect(try keys("nonexistent") == "")
        #expect(try keys("../plugins/tripwire") == "")
        try? FileManager.default.removeItem(atPath: mark)  // looking at `tripwire` itself loads it (in a child)

        // bash: keys after NAME: and after a comma, files after a path key's '=', yes/no after a
        // yes/no key's '=', nothing after another key's '='.
        #expect(try bashOffers(run, ["--plugin", "=", "json", ":", "inter"], environment: env) == ["interval="])
        #expect(try bashOffers(run, ["--plugin", "json", ":", "interval", "=", "2,ev"], environment: env) == ["2,events="])
        try "".write(toFile: run.path("state-here.json"), atomically: true, encoding: .utf8)
        #expect(try bashOffers(run, ["--plugin", "json", ":", "path", "=", run.path("state-")], environment: env) == [run.path("state-here.json")])
        #expect(try bashOffers(run, ["--plugin", "json", ":", "interval", "=", run.path("state-")], environment: env) == [])
        #expect(try bashOffers(run, ["--plugin", "notify", ":", "actions", "=", ""], environment: env) == ["no", "yes"])
        #expect(try bashOffers(run, ["--plugin", "notify", ":", "actions", "=", "y"], environment: env) == ["yes"])
        #expect(!FileManager.default.fileExists(atPath: mark), "completing loaded a plugin it was not asked about")
    }

    @Test func listPluginsWritesTheWholeCache() throws {
        let run = try MotetRun("motet-complete-list")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugins = run.path("plugins"), mark = run.path("tripped")
        try tripwire(run, in: plugins, mark: mark)
        let env = ["MOTET_PLUGIN_PATH": plugins]
        let list = try run.run(["--no-config", "--list-plugins"], extraEnvironment: env)
        // tripwire.so has no entry function: listed as such, and the exit status says so.
        #expect(list.status == 1 && list.stderr == "", "\(list.stderr)")
        #expect(list.stdout.contains("  tripwire  cannot load: \(plugins)/tripwire.so: no entry function"), "\(list.stdout)")
        #expect(FileManager.default.fileExists(atPath: mark), "--list-plugins did not load the tripwire")
        let cached = try String(contentsOfFile: run.home + "/cache/motet/plugin-options", encoding: .utf8)
        for line in ["json\tpath\toutput-path\n", "json\tevents\toutput-path\n", "log\tlevel\tstring\n", "notify\tactions\tbool\n"] {
            #expect(cached.contains(line), "\(cached)")
        }
    }

    /// In a real interactive bash (readline, `complete -o filenames`): a folder in the current
    /// directory called like the plugin must not turn the plugin's name into a path.
    @Test func pluginNamesCompleteAsNamesBesideAFolderOfTheSameName() throws {
        let run = try MotetRun("motet-complete-folder")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugins = run.path("plugins"), cwd = run.path("cwd")
        try FileManager.default.createDirectory(atPath: cwd + "/scrobbler", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: cwd + "/scratch", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let probe = try ProbePlugin.build(in: run.home)
        try FileManager.default.copyItem(atPath: probe, toPath: plugins + "/scrobbler.so")
        let script = try run.run(["--generate", "bash"])
        try script.stdout.write(toFile: run.path("motet.bash"), atomically: true, encoding: .utf8)
        try """
            PS1='ready$ '
            source \(run.path("motet.bash"))
            cd \(cwd)
            """.write(toFile: run.path("bashrc"), atomically: true, encoding: .utf8)
        var env = run.environment
        env["MOTET_PLUGIN_PATH"] = plugins
        env["PATH"] = (Paths.motet as NSString).deletingLastPathComponent + ":/usr/bin:/bin"
        let terminal = try PlayerTerminal(command: ["bash", "--noprofile", "--rcfile", run.path("bashrc"), "-i"], environment: env)
        defer { terminal.close() }
        #expect(try terminal.waitFor("ready$"), "\(terminal.screen())")
        try terminal.press("motet --plugin scro")
        try terminal.pressKey("Tab")
        // The mark typed after TAB shows what TAB left (tmux drops trailing blanks).
        Thread.sleep(forTimeInterval: 1)
        try terminal.press("X")
        #expect(try terminal.waitFor("motet --plugin scrobbler X"), "\(terminal.screen())")
        // A name that matches no plugin is not completed as a folder either.
        try terminal.pressKey("C-u")
        try terminal.press("motet --plugin scra")
        try terminal.pressKey("Tab")
        Thread.sleep(forTimeInterval: 1)
        try terminal.press("Y")
        #expect(try terminal.waitFor("motet --plugin scraY"), "\(terminal.screen())")
    }
}
