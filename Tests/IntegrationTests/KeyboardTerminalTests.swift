import Foundation
import MotetTestSupport
import Testing

/// Keys come from the controlling terminal (as in mpv) when standard input is a pipe or the output
/// goes to a file.
@Suite struct KeyboardTerminalTests {
    func tracks(_ run: MotetRun) throws -> [String] {
        try ["First", "Second"].enumerated().map { i, title in
            let f = run.path("\(i)-\(title).ogg")
            try Fixtures.oggVorbis(f, seconds: 20, tags: .init(title: title, artists: ["Band"], album: "Record"), serial: i + 1)
            return f
        }
    }

    @Test func keysWorkWhenTheFilesComeThroughAPipe() throws {
        let run = try MotetRun()
        let files = try tracks(run)
        let list = run.path("list.txt")
        try (files.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let term = try PlayerTerminal(
            command: ["sh", "-c", "cat '\(list)' | '\(Paths.motet)' --output null --no-config -"], environment: run.environment)
        defer { term.close() }
        #expect(try Shell.waitUntil { term.statusLine().contains("First — Band") }, "\(term.screen())")
        try term.press("n")
        #expect(try Shell.waitUntil { term.statusLine().contains("Second — Band") }, "\(term.screen())")
        #expect(try term.quit())
    }

    @Test func keysWorkWhenTheOutputGoesToAFile() throws {
        let run = try MotetRun()
        let files = try tracks(run)
        let log = run.path("out.log")
        let quoted = files.map { "'\($0)'" }.joined(separator: " ")
        let term = try PlayerTerminal(
            command: ["sh", "-c", "'\(Paths.motet)' --output null --no-config \(quoted) >'\(log)' 2>&1"], environment: run.environment)
        defer { term.close() }
        let contents = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(try Shell.waitUntil { contents().contains("Playing: First") }, "\(contents())")
        try term.press("n")
        #expect(try Shell.waitUntil { contents().contains("Playing: Second") }, "\(contents())")
        #expect(try term.quit(), "\(contents())")
    }
}
