import Foundation
import MotetConfiguration
import MotetEvents
import Testing
import MotetSystem
import MotetLikes

/// The host's one reading of the XDG base directories, and the one fallback when HOME is unset.
@Suite struct XDGDirectoriesTests {
    /// This user's home directory in the password database, as `getpwuid` gives it.
    private var accountHome: String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    @Test func theSpecificationsDefaultsAreUnderHome() {
        let xdg = XDGDirectories(environment: ["HOME": "/h"])
        #expect(xdg.home == "/h")
        #expect([xdg.configHome, xdg.cacheHome, xdg.dataHome, xdg.stateHome] == [
            "/h/.config", "/h/.cache", "/h/.local/share", "/h/.local/state",
        ])
        #expect(xdg.runtimeDirectory == nil, "XDG_RUNTIME_DIR has no default")
    }

    @Test func absoluteVariablesWinAndRelativeOrEmptyOnesAreIgnored() {
        let xdg = XDGDirectories(environment: [
            "HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_CACHE_HOME": "relative", "XDG_DATA_HOME": "",
            "XDG_STATE_HOME": "/s", "XDG_RUNTIME_DIR": "/run/user/7",
        ])
        #expect([xdg.configHome, xdg.cacheHome, xdg.dataHome, xdg.stateHome] == ["/c", "/h/.cache", "/h/.local/share", "/s"])
        #expect(xdg.runtimeDirectory == "/run/user/7")
        #expect(XDGDirectories(environment: ["XDG_RUNTIME_DIR": "run"]).runtimeDirectory == nil)
    }

    @Test func withoutHOMEEveryDefaultIsUnderThePasswordDatabasesHome() {
        for environment in [[:], ["HOME": ""], ["HOME": "relative/home"]] {
            #expect(XDGDirectories(environment: environment).home == accountHome)
            #expect(Options.defaultConfigPath(environment: environment) == accountHome + "/.config/motet/motet.conf")
            #expect(FeedbackStore.defaultDirectory(environment: environment) == accountHome + "/.local/state/motet")
        }
    }

    @Test func helpTextNamesTheVariableAndItsDefault() {
        #expect(XDGDirectories.documented(.config, "motet/motet.conf")
            == "$XDG_CONFIG_HOME/motet/motet.conf (default ~/.config/motet/motet.conf)")
    }
}
