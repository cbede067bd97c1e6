import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// Off loopback, on a terminal, motet prints the URL with the token as a QR code: what a phone
    /// held to the screen reads. The terminal is a real pseudo-terminal (`script`); the printed
    /// blocks are drawn as pixels, as a terminal shows them (light blocks on its dark background),
    /// and read by zbarimg (zbar-tools).
    @Suite struct WebQRCodeTests {
        @Test func offLoopbackOnATerminalTheQRCodeReadsAsTheURLWithTheToken() throws {
            let box = try PlayerSandbox()
            let port = try WebRig.freePort("127.0.0.2")
            let tracks = try box.tracks(["First"], seconds: 30)
            let typescript = box.path("terminal.txt")
            let command = box.motet(["--status", "quiet", "--output", "null", "--plugin", "web:listen=127.0.0.2:\(port)"] + tracks)
            let process = try SpawnedProcess(
                ["script", "-q", "-f", "-e", "-c", "exec " + command.map(Self.quoted).joined(separator: " "), typescript],
                environment: box.environment.merging(["TERM": "xterm-256color", "SHELL": "/bin/sh"]) { $1 })
            defer {
                // motet is script's child (exec): stopped by its PID first.
                let children = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ pid_t($0) }) { kill(child, SIGTERM) }
                process.stop()
            }
            var screen = ""
            let printed = try Shell.waitUntil(timeout: 20) {
                screen = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
                // The code follows the URL, whole once its last row is the quiet zone's (all light).
                let code = Self.rows(screen).filter(Self.isCodeRow)
                return screen.contains("web: serving") && code.count > 10 && code.last?.allSatisfy { $0 == "█" } == true
                    && screen.unicodeScalars.last == "\n"
            }
            #expect(printed, "\(screen)")
            let token = try String(contentsOfFile: box.path("state/motet/plugins/web/token"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let url = "http://127.0.0.2:\(port)/?token=\(token)"
            #expect(screen.contains("web: serving \(url)"), "\(screen)")
            let image = box.path("code.pgm")
            try Self.picture(of: Self.rows(screen).filter(Self.isCodeRow), to: image)
            let read = try Shell.run(["zbarimg", "--quiet", "--raw", image], timeout: 20)
            #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == url, "zbarimg: \(read.stdout) \(read.stderr)")
        }

        /// The terminal's lines (a terminal ends them with CR LF, one Character in Swift).
        static func rows(_ screen: String) -> [String] { screen.split(whereSeparator: \.isNewline).map(String.init) }

        /// A row of the printed code: only the four block characters.
        static func isCodeRow(_ row: String) -> Bool { row.count > 20 && row.allSatisfy { "█▀▄ ".contains($0) } }

        /// The rows as a terminal draws them, 8 pixels a module, in a PGM file: each character
        /// is two modules stacked, its drawn half light and the rest the dark background, with a
        /// margin of that background around.
        static func picture(of rows: [String], to path: String) throws {
            let scale = 8
            let margin = 4
            var modules: [[Bool]] = []  // true: light
            for row in rows {
                let cells = Array(row)
                modules.append(cells.map { $0 == "█" || $0 == "▀" })
                modules.append(cells.map { $0 == "█" || $0 == "▄" })
            }
            let width = (modules.map(\.count).max() ?? 0) + 2 * margin
            let height = modules.count + 2 * margin
            var pixels = [UInt8]()
            for y in 0..<height * scale {
                let my = y / scale - margin
                for x in 0..<width * scale {
                    let mx = x / scale - margin
                    let light = my >= 0 && my < modules.count && mx >= 0 && mx < modules[my].count && modules[my][mx]
                    pixels.append(light ? 230 : 20)
                }
            }
            let header = Array("P5\n\(width * scale) \(height * scale)\n255\n".utf8)
            try Data(header + pixels).write(to: URL(fileURLWithPath: path))
        }

        static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    }
}
