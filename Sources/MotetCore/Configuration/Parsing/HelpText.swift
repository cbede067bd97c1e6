import MotetEvents

/// Renders `--help` from the option table.
enum HelpText {
    /// Column where the descriptions start.
    private static let column = 28
    /// Line width the descriptions wrap at.
    private static let width = 100

    static func render() -> String {
        var out = """
            Usage: motet [OPTIONS] FILE|DIR|PLAYLIST|URL...

            Plays Ogg Vorbis files, directories (recursively, in natural order: 2 before 10),
            http:// and https:// URLs (streams and files on a server) and playlists, and tells
            delegate plugins what is playing. '-' reads a list of files from standard input, one
            per line.

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
            plugin's options ('file = PATH' loads a shared object under the instance name NAME).

            Keys while playing:
            \(KeyTable.table)
            \(KeyTable.escapeNote)
            \(KeyTable.liveStreamNote)

            Exit status: 0 when something played, 1 when nothing could be played, 64 for a usage error.

            """
        return out
    }
}
