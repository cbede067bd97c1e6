import Foundation
import MotetTestSupport
import Testing

/// Shell completion of plugin option keys on the real binary: `--list-plugins` (which loads the
/// plugins) caches what they describe, and completing reads only that cache.
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

    @Test func optionKeysComeFromTheCacheListPluginsWritesAndCompletingLoadsNoPlugin() throws {
        let run = try MotetRun("motet-complete")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        // A plugin whose constructor leaves a mark: only --list-plugins may load it.
        let plugins = run.path("plugins"), mark = run.path("tripped")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try """
            #include <stdio.h>
            __attribute__((constructor)) static void loaded(void) { FILE *f = fopen("\(mark)", "w"); if (f) fclose(f); }
            """.write(toFile: run.path("tripwire.c"), atomically: true, encoding: .utf8)
        try Shell.check(["cc", "-shared", "-fPIC", "-o", plugins + "/tripwire.so", run.path("tripwire.c")])
        let env = ["MOTET_PLUGIN_PATH": plugins]
        func keys(_ plugin: String) throws -> String {
            let result = try run.run(["--complete-plugin-options", plugin], extraEnvironment: env)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }

        #expect(try keys("json") == "")
        #expect(try bashOffers(run, ["--plugin", "json", ":", ""], environment: env) == [])
        #expect(!FileManager.default.fileExists(atPath: mark), "completing loaded a plugin")

        let list = try run.run(["--no-config", "--list-plugins"], extraEnvironment: env)
        // tripwire.so has no entry function: listed as such, and the exit status says so.
        #expect(list.status == 1 && list.stderr == "", "\(list.stderr)")
        #expect(list.stdout.contains("  tripwire  cannot load: \(plugins)/tripwire.so: no entry function"), "\(list.stdout)")
        #expect(FileManager.default.fileExists(atPath: mark), "--list-plugins did not load the tripwire")
        try FileManager.default.removeItem(atPath: mark)
        #expect(FileManager.default.fileExists(atPath: run.home + "/cache/motet/plugin-options"))

        let json = try keys("json")
        for line in ["path\toutput-path\n", "events\toutput-path\n", "interval\tduration\n"] {
            #expect(json.contains(line), "json: \(json)")
        }
        #expect(try keys("log").contains("level\tstring\n"))
        #expect(try keys("tripwire") == "")
        #expect(try keys("nonexistent") == "")

        // bash: keys after NAME: and after a comma, files after a path key's '='.
        let offered = try bashOffers(run, ["--plugin", "json", ":", ""], environment: env)
        #expect(offered.contains("path=") && offered.contains("events=") && offered.contains("interval="), "\(offered)")
        #expect(try bashOffers(run, ["--plugin", "=", "json", ":", "inter"], environment: env) == ["interval="])
        #expect(try bashOffers(run, ["--plugin", "json", ":", "interval", "=", "2,ev"], environment: env) == ["2,events="])
        try "".write(toFile: run.path("state-here.json"), atomically: true, encoding: .utf8)
        #expect(try bashOffers(run, ["--plugin", "json", ":", "path", "=", run.path("state-")], environment: env) == [run.path("state-here.json")])
        #expect(try bashOffers(run, ["--plugin", "json", ":", "interval", "=", run.path("state-")], environment: env) == [])
        #expect(!FileManager.default.fileExists(atPath: mark), "completing loaded a plugin")
    }
}
