// A third party's Swift delegate, built outside the Motet tree against MotetPluginKit (the
// package without-swift.sh writes depends on the kit by path). It appends what it sees to the
// file given as its `out` option.
#if canImport(Glibc)
import Glibc
#endif
import MotetPluginKit

public final class HelloSwift: MotetDelegate {
    public static let descriptor = DelegateDescriptor(
        id: "org.example.hello-swift", name: "hello-swift", version: "1.0.0",
        description: "Writes the artist and title of each track to a file",
        options: [OptionDescription("out", .outputPath, help: "the file to append to")])

    private let host: MotetHost
    private let out: String

    public init(host: MotetHost, options: PluginOptions) throws {
        guard let out = options["out"] else { throw DelegateError("hello-swift needs out=FILE") }
        self.host = host
        self.out = out
        write("created by \(host.instanceName)")
        for runtime in Self.loadedSwiftRuntimes() { write("swift runtime: \(runtime)") }
    }

    /// The libswiftCore.so files mapped into this process (there must be one: the host's).
    static func loadedSwiftRuntimes() -> [String] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var found: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), maps) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasSuffix("/libswiftCore.so"), let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if !found.contains(path) { found.append(path) }
        }
        return found
    }

    public func nowPlayingChanged(_ info: NowPlayingInfo) {
        guard info.hasTrack else { return write("nothing playing") }
        write("now playing: \(info.artist ?? "?") — \(info.title ?? "?")")
    }

    public func shutdown() { write("shutting down") }

    private func write(_ line: String) {
        guard let file = fopen(out, "a") else { return host.log(.error, "cannot open \(out)") }
        fputs(line + "\n", file)
        fclose(file)
    }
}

@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(HelloSwift.self, major, minor)
}
