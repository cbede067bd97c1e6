import MotetConfiguration
import MotetEvents
import MotetTestSupport
import Foundation
import Testing

@Suite struct PluginSpecTests {
    private func plugins(_ arguments: [String]) throws -> [PluginRequest] {
        try settings(arguments + ["a.ogg"]).plugins
    }

    @Test func nameAlone() throws {
        var expected = PluginRequest(name: "log", options: [], instanceName: "log", origin: "--plugin")
        expected.fromCommandLine = true
        #expect(try plugins(["--plugin", "log"]) == [expected])
    }

    @Test func onlyTheCommandLinesPluginsAreMarkedAsSuch() throws {
        let dir = try Paths.temporaryDirectory("motet-plugin-origin")
        let path = dir + "/motet.conf"
        try "plugin = json\n[plugin log]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let requests = try plugins(["--config", path, "--plugin", "notify"])
        #expect(requests.map(\.name) == ["json", "log", "notify"])
        #expect(requests.map(\.fromCommandLine) == [false, false, true])
    }

    @Test func optionsInOrder() throws {
        let spec = try plugins(["--plugin=json:path=/tmp/np.json,pretty=yes,path=again"])[0]
        #expect(spec.name == "json")
        #expect(spec.options == [
            PluginOption(key: "path", value: "/tmp/np.json"), PluginOption(key: "pretty", value: "yes"),
            PluginOption(key: "path", value: "again"),
        ])
    }

    @Test func escapedSeparatorsStayInValues() throws {
        let spec = try plugins(["--plugin", #"log:format=a\,b\:c\=d\\e,empty="#])[0]
        #expect(spec.options == [PluginOption(key: "format", value: #"a,b:c=d\e"#), PluginOption(key: "empty", value: "")])
        let escapedName = try plugins(["--plugin", #"/opt/a\:b.so:k=v"#])[0]
        #expect(escapedName.name == "/opt/a:b.so" && escapedName.options == [PluginOption(key: "k", value: "v")])
    }

    @Test func valuesMayContainUnescapedColonsAndEquals() throws {
        let spec = try plugins(["--plugin", "notify:title=a=b:c"])[0]
        #expect(spec.options == [PluginOption(key: "title", value: "a=b:c")])
    }

    @Test func pathSpecsSplitAfterTheLastSlash() throws {
        let plain = try plugins(["--plugin", "/opt/x/y.so:k=v"])[0]
        #expect(plain.name == "/opt/x/y.so" && plain.options == [PluginOption(key: "k", value: "v")])
        #expect(plain.isPath)
        let colonInDirectory = try plugins(["--plugin", "/opt/a:b/y.so:k=v"])[0]
        #expect(colonInDirectory.name == "/opt/a:b/y.so")
        let slashInValue = try plugins(["--plugin", "/x/y.so:file=/tmp/out,mode=a"])[0]
        #expect(slashInValue.name == "/x/y.so")
        #expect(slashInValue.options == [PluginOption(key: "file", value: "/tmp/out"), PluginOption(key: "mode", value: "a")])
        let relative = try plugins(["--plugin", "./build/libmine.so"])[0]
        #expect(relative.name == "./build/libmine.so" && relative.options.isEmpty && relative.instanceName == "mine")
        let named = try plugins(["--plugin", "log:file=/var/log/m.log"])[0]
        #expect(named.name == "log" && named.options == [PluginOption(key: "file", value: "/var/log/m.log")])
    }

    @Test func instanceNamesAreUnique() throws {
        let specs = try plugins([
            "--plugin", "log", "--plugin", "log:level=debug", "--plugin", "json",
            "--plugin", "/usr/lib/motet/plugins/libmotet-log.so", "--plugin", "log",
        ])
        #expect(specs.map(\.instanceName) == ["log", "log#2", "json", "log#3", "log#4"])
        #expect(specs[1].options == [PluginOption(key: "level", value: "debug")])
    }

    @Test func pathInstanceNamesDropLibraryPrefixAndSuffix() throws {
        let names = try plugins([
            "--plugin", "/a/libmotet-mpris.so", "--plugin", "/b/motet-notify.so.1", "--plugin", "/c/libfoo.so",
            "--plugin", "/d/my.sound.so",
        ]).map(\.instanceName)
        #expect(names == ["mpris", "notify", "foo", "my.sound"])
    }

    @Test func badSpecsAreExplained() {
        expectUsageError(["--plugin", "", "a"],
            "motet: --plugin: '': the plugin name is missing; expected NAME[:KEY=VALUE,…] with a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'.")
        expectUsageError(["--plugin", ":k=v", "a"],
            "motet: --plugin: ':k=v': the plugin name is missing; expected NAME[:KEY=VALUE,…] with a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'.")
        expectUsageError(["--plugin", "lo g", "a"],
            "motet: --plugin: 'lo g' is not a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'.")
        expectUsageError(["--plugin", "log:level", "a"],
            #"motet: --plugin: 'log:level': option 'level' is not KEY=VALUE (escape a literal ',' ':' '=' or '\' with '\')."#)
        expectUsageError(["--plugin", "log:a=1,,b=2", "a"],
            "motet: --plugin: 'log:a=1,,b=2': an option between ',' is empty; write NAME:KEY=VALUE,KEY=VALUE.")
        expectUsageError(["--plugin", "log:=v", "a"], "motet: --plugin: 'log:=v': an option has no KEY before '='.")
        expectUsageError(["--plugin", #"log:a=b\"#, "a"],
            #"motet: --plugin: 'log:a=b\': it ends with a lone '\'; write '\\' for a backslash."#)
        expectUsageError(["--plugin", #"log:a=\n"#, "a"],
            #"motet: --plugin: 'log:a=\n': unknown escape '\n'; only ',' ':' '=' and '\' are escaped with '\'."#)
        expectUsageError(["--plugin"], "motet: --plugin: missing value; expected NAME[:KEY=VALUE,…] or PATH[:KEY=VALUE,…].")
    }

    /// The parser checks names with the plugin host's own rule (`PluginName`): a name the host
    /// would refuse to look up (`.foo` would find a hidden file) is a one-line usage error at once,
    /// not a load failure later.
    @Test func namesTheHostWouldRefuseAreUsageErrors() {
        for name in [".foo", ".", "..", ".foo:k=v"] {
            let shown = name.split(separator: ":")[0]
            expectUsageError(["--plugin", name, "a"],
                "motet: --plugin: '\(shown)' is not a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'.")
        }
    }

    @Test func emptyOptionListIsAllowed() throws {
        #expect(try plugins(["--plugin", "log:"])[0].options.isEmpty)
    }
}
