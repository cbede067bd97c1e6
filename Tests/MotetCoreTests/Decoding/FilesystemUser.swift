import Foundation

/// Runs a closure with this thread's file-system user id set to nobody, when running as root.
enum FilesystemUser {
    static func asNobody<T>(_ body: () -> T) -> T {
        guard geteuid() == 0, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid") else { return body() }
        typealias SetFSUID = @convention(c) (UInt32) -> Int32
        let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
        _ = setfsuid(65534)
        defer { _ = setfsuid(0) }
        return body()
    }
}
