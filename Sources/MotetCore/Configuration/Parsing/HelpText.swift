import MotetEvents
import MotetSystem

/// Renders `--help` from the option table.
enum HelpText {
    /// Column where the descriptions start.
    private static let column = 28
    /// Line width the descriptions wrap at.
    private static let width = 100

    static func render() -> String {
        var out = """
            Usage: motet [OPTIONS] FILE|DIR|PLAYLIST|URL...

            Plays Ogg Vorbis and Ogg Opus files, directories (recursively, in natural order: 2
            before 10), http:// and https:// URLs (streams and files on a server) and playlists,
            and tells delegate plugins what is playing. '-' reads a list of files from standard
            input, one per line.

            Playlists: .m3u/.m3u8 (one entry a line), .pls (File1=...) and .xspf (<location>),
            local or remote: a URL whose name ends in .m3u, .m3u8, .pls or .xspf is fetched and
            its entries played. Entries may be files, directories, URLs or playlists; relative
            ones start at the playlist's directory, or at its URL for a remote playlist.

            Options:

            """
        for option in OptionTable.all {
            var head = "  "
            head += option.short.map { "-\($0), " } ?? "    "
            head += option.spelling
            if case .value(let placeholder, _) = option.kind { head += " " + placeholder }
            out += head
            let words = option.help.split(separator: " ")
            var line = ""
            var first = true
            func flush() {
                if first && head.count < column - 1 {
                    out += String(repeating: " ", count: column - head.count) + line + "\n"
                } else {
                    if first { out += "\n" }
                    out += String(repeating: " ", count: column) + line + "\n"
                }
                first = false
                line = ""
            }
            for word in words {
                if !line.isEmpty && column + line.count + 1 + word.count > width { flush() }
                line += (line.isEmpty ? "" : " ") + word
            }
            if !line.isEmpty { flush() }
        }
        out += """

            Flags also take a value: --shuffle=no turns off what the config file turned on.

            Config file: \(XDGDirectories.documented(.config, Options.configFileUnderXDG)), read
            before the command line, which overrides it. Lines are 'key = value' with the long options'
            names (flags take yes/no), '# comments', and '[plugin NAME]' sections whose keys are that
            plugin's options ('library = PATH' loads a shared object under the instance name NAME).

            Keys while playing:
            \(KeyTable.table)
            \(KeyTable.escapeNote)
            \(KeyTable.liveStreamNote)

            Exit status (sysexits.h; the larger wins): 0 something played, or you quit; 64 a usage
            error; 66 nothing could be played (no input opened, all disliked; --loop stops after a
            whole pass with nothing played); 69 a stream was given up on (one that played was lost and
            not back within --reconnect-for, or nothing played and an address failed); 74 the output
            failed. Files and addresses that cannot be opened are skipped with one line each; they
            change the status only when nothing played.

            """
        return out
    }
}
