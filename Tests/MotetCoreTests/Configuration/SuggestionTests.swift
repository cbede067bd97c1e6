import Foundation
import MotetConfiguration
import MotetEvents
import MotetTestSupport
import Testing

/// "Did you mean …?": the one edit-distance rule, and each place a typo can be made (options,
/// option values, config keys; plugin names are in PluginHostTests' SearchPathTests).
@Suite struct SuggestionTests {
    @Test func distanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        #expect(Suggestion.distance("output", "output") == 0)
        #expect(Suggestion.distance("outptu", "output") == 1)  // a swap is one edit
        #expect(Suggestion.distance("jsn", "json") == 1)
        #expect(Suggestion.distance("json", "jsn") == 1)
        #expect(Suggestion.distance("pluse", "pulse") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("ca", "abc") == 3)  // OSA, not unrestricted Damerau–Levenshtein
    }

    @Test func theNearestCandidateWithinTheThresholdIsSuggested() {
        #expect(Suggestion.closest(to: "outptu", among: ["untimed", "output", "shuffle"]) == "output")
        #expect(Suggestion.closest(to: "jsn", among: ["json", "log", "mpris", "notify"]) == "json")
        #expect(Suggestion.closest(to: "VOLUME", among: ["volume"]) == "volume")  // case is ignored
        // Nothing near enough: no guess.
        #expect(Suggestion.closest(to: "foo", among: ["loop", "help", "output"]) == nil)
        #expect(Suggestion.closest(to: "xyz", among: ["log"]) == nil)
        // The word itself is no suggestion.
        #expect(Suggestion.closest(to: "log", among: ["log", "lg"]) == nil)
        // The nearest wins over an earlier, farther one; a tie goes to the first.
        #expect(Suggestion.closest(to: "shufle", among: ["shuffled", "shuffle"]) == "shuffle")
        #expect(Suggestion.closest(to: "lag", among: ["log", "lug"]) == "log")
        #expect(Suggestion.closest(to: "", among: ["a"]) == nil)
    }

    @Test func aMistypedOptionGetsASuggestion() {
        expectUsageError(["--outptu", "pulse", "a.ogg"], "motet: unknown option '--outptu'; did you mean '--output'?")
        expectUsageError(["--shuffel", "a.ogg"], "motet: unknown option '--shuffel'; did you mean '--shuffle'?")
        expectUsageError(["--skip-limt=1/2", "a.ogg"], "motet: unknown option '--skip-limt'; did you mean '--skip-limit'?")
        expectUsageError(["--foo", "a.ogg"], "motet: unknown option '--foo'. Try 'motet --help'.")
    }

    @Test func everyEnumeratedValueGetsASuggestion() {
        let output = "an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null"
        expectUsageError(["--output", "pusle", "a.ogg"], "motet: --output: 'pusle' is not \(output); did you mean 'pulse'?")
        expectUsageError(["-o", "nul", "a.ogg"], "motet: -o: 'nul' is not \(output); did you mean 'null'?")
        expectUsageError(["-o", "wva:/tmp/x.wav", "a.ogg"], "motet: -o: 'wva:/tmp/x.wav' is not \(output); did you mean 'wav:/tmp/x.wav'?")
        expectUsageError(["-o", "wav-flaot:x", "a.ogg"], "motet: -o: 'wav-flaot:x' is not \(output); did you mean 'wav-float:x'?")
        expectUsageError(["-o", "speakers", "a.ogg"], "motet: -o: 'speakers' is not \(output).")
        expectUsageError(
            ["--replaygain", "albmu", "a.ogg"], "motet: --replaygain: 'albmu' is not track, album or off; did you mean 'album'?")
        expectUsageError(
            ["--status", "evnets", "a.ogg"], "motet: --status: 'evnets' is not auto, line, events or quiet; did you mean 'events'?")
        expectUsageError(
            ["--remote-commands", "ys", "a.ogg"],
            "motet: --remote-commands: 'ys' is not yes or no (also true/false, on/off, 1/0); did you mean 'yes'?")
        expectUsageError(
            ["--loop=flase", "a.ogg"], "motet: --loop: 'flase' is not yes or no (also true/false, on/off, 1/0); did you mean 'false'?")
    }

    @Test func aMistypedConfigKeyOrValueGetsASuggestion() throws {
        let dir = try Paths.temporaryDirectory("motet-suggest")
        let path = dir + "/motet.conf"
        try Data("volume = 50\nshufle = yes\n".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(["--config", path, "a.ogg"], "motet: \(path):2: unknown key 'shufle'; did you mean 'shuffle'?")
        // Keys only the command line takes are not offered for the config file.
        try Data("confg = x\n".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            ["--config", path, "a.ogg"],
            "motet: \(path):1: unknown key 'confg'. The keys are the long options without '--'; try 'motet --help'.")
        try Data("output = plse\n".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            ["--config", path, "a.ogg"],
            "motet: \(path):1: output: 'plse' is not an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null; did you mean 'pulse'?")
    }
}
