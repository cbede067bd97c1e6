import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing

/// `--crossfade`, `--crossfade-albums`, `--output-rate` (#22): their defaults, values, limits and
/// config file keys.
@Suite struct CrossfadeOptionTests {
    @Test func defaultsAreOffAndNoResampling() throws {
        let d = try settings(["a.ogg"])
        #expect(d.crossfade == .zero && !d.crossfadeAlbums && d.outputRate == nil)
    }

    @Test func crossfadeIsATimeUpTo15Seconds() throws {
        #expect(try settings(["--crossfade", "5", "a.ogg"]).crossfade == .seconds(5))
        #expect(try settings(["--crossfade=2.5", "a.ogg"]).crossfade == .milliseconds(2500))
        #expect(try settings(["--crossfade", "0:15", "a.ogg"]).crossfade == .seconds(15))
        #expect(try settings(["--crossfade", "0", "a.ogg"]).crossfade == .zero)
    }

    @Test func crossfadeOutOfRangeIsNamedWithWhatToDo() {
        expectUsageError(
            ["--crossfade", "15.5", "a.ogg"],
            "motet: --crossfade: '15.5': the crossfade is at most 15 seconds; give a time from 0 (off) to 15.")
        expectUsageError(
            ["--crossfade", "1:00", "a.ogg"],
            "motet: --crossfade: '1:00': the crossfade is at most 15 seconds; give a time from 0 (off) to 15.")
        expectUsageError(
            ["--crossfade", "-1", "a.ogg"],
            "motet: --crossfade: '-1' is not a time: SS, MM:SS or HH:MM:SS, each with an optional .fraction (e.g. 90, 1:30, 1:02:03.5).")
        expectUsageError(["--crossfade"], "motet: --crossfade: missing value; expected a time: SS, MM:SS or HH:MM:SS, each with an optional .fraction (e.g. 90, 1:30, 1:02:03.5).")
    }

    @Test func crossfadeAlbumsIsYesNo() throws {
        #expect(try settings(["--crossfade-albums", "yes", "a.ogg"]).crossfadeAlbums)
        #expect(try !settings(["--crossfade-albums=no", "a.ogg"]).crossfadeAlbums)
        expectUsageError(
            ["--crossfade-albums", "maybe", "a.ogg"],
            "motet: --crossfade-albums: 'maybe' is not yes or no (also true/false, on/off, 1/0).")
    }

    @Test func outputRateIsAWholeNumberOfHertzInRange() throws {
        #expect(try settings(["--output-rate", "48000", "a.ogg"]).outputRate == 48000)
        #expect(try settings(["--output-rate=8000", "a.ogg"]).outputRate == 8000)
        #expect(try settings(["--output-rate", "384000", "a.ogg"]).outputRate == 384_000)
        let expected = "is not a sample rate in Hz, a whole number from 8000 to 384000 (e.g. 48000)."
        for bad in ["7999", "384001", "48k", "44100.0", "", "-48000", "1000000"] {
            expectUsageError(["--output-rate=\(bad)", "a.ogg"], "motet: --output-rate: '\(bad)' \(expected)")
        }
    }

    @Test func theConfigFileKeysAreReadAndTheCommandLineWins() throws {
        let dir = try Paths.temporaryDirectory("motet-crossfade")
        let path = dir + "/motet.conf"
        try Data("crossfade = 3.5\ncrossfade-albums = yes\noutput-rate = 44100\n".utf8).write(to: URL(fileURLWithPath: path))
        let invocation = try parse(["--config", path, "a.ogg"])
        let s = invocation.settings
        #expect(s.crossfade == .milliseconds(3500) && s.crossfadeAlbums && s.outputRate == 44100)
        #expect(invocation.warnings.isEmpty)
        let over = try settings(["--config", path, "--crossfade", "0", "--crossfade-albums", "no", "--output-rate", "96000", "a.ogg"])
        #expect(over.crossfade == .zero && !over.crossfadeAlbums && over.outputRate == 96000)
    }

    @Test func theConfigFileNamesItsLineForAValueOutOfRange() throws {
        let dir = try Paths.temporaryDirectory("motet-crossfade")
        let path = dir + "/motet.conf"
        try Data("volume = 80\ncrossfade = 20\n".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            ["--config", path, "a.ogg"],
            "motet: \(path):2: crossfade: '20': the crossfade is at most 15 seconds; give a time from 0 (off) to 15.")
        try Data("output-rate = 500\n".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            ["--config", path, "a.ogg"],
            "motet: \(path):1: output-rate: '500' is not a sample rate in Hz, a whole number from 8000 to 384000 (e.g. 48000).")
    }
}
