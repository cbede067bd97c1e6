#if canImport(Glibc)
import Glibc
#endif

/// Which of the player's threads runs the calling code (docs/ARCHITECTURE.md, "Threads"), and a
/// debug-build check that a method documented for one thread runs there.
///
/// A thread takes its role once, first thing: `ThreadRole.control.enter()` in `Player.run`,
/// `.decoder` at the top of `DecodeWorker.run`, `.sink` at the top of `SinkWorker.run`. A method
/// that belongs to one thread starts with `ThreadRole.control.check()` (or `.decoder`, `.sink`),
/// and its doc comment's first line names the thread the same way (`/// Control thread.`).
///
/// The rule: a check fails only on a thread that entered another role. A thread that entered none
/// (Swift Testing's threads calling a worker's control methods, the keyboard and signal threads,
/// a plugin's, a device's) is not checked. So the sink or decoder thread calling a control-only
/// method traps, and so does the control thread calling a sink- or decoder-only one; the unit tests
/// declare nothing. A thread enters one role in its life: entering a second traps.
///
/// Debug builds only (`#if DEBUG`): in a release build `enter()` and `check()` are empty and
/// inlined away, and `isCurrent` is always true. The check allocates nothing and takes no lock
/// (one `pthread_getspecific`), so the sink thread may check; the message is built only when the
/// check fails.
package enum ThreadRole: UInt, Sendable {
    /// The main thread in `Player.run`: the state machine and everything it calls.
    case control = 1
    /// `motet-decode` (`DecodeWorker`).
    case decoder
    /// `motet-sink` (`SinkWorker`), the audio thread.
    case sink

    #if DEBUG
    /// The calling thread's role from now on; called once, at the top of the thread's body.
    @inline(__always)
    package func enter() {
        if let held = ThreadRole.current, held != self {
            ThreadRole.enteredTwice(held, self)
        }
        pthread_setspecific(threadRoleKey, UnsafeRawPointer(bitPattern: rawValue))
    }

    /// Traps when the calling thread entered another role; see the type's rule. `function`,
    /// `file` and `line` name the method in the message.
    @inline(__always)
    package func check(_ function: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        if !isCurrent { ThreadRole.failed(self, function: function, file: file, line: line) }
    }
    #else
    // Release builds: empty, and inlinable so that no call is left in another module's code.
    @inlinable @inline(__always)
    package func enter() {}

    @inlinable @inline(__always)
    package func check(_ function: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {}
    #endif

    /// True when the calling thread entered this role, or none (release builds: always true).
    package var isCurrent: Bool {
        #if DEBUG
        guard let current = ThreadRole.current else { return true }
        return current == self
        #else
        return true
        #endif
    }

    #if DEBUG
    /// The role the calling thread entered, if any.
    package static var current: ThreadRole? {
        ThreadRole(rawValue: UInt(bitPattern: pthread_getspecific(threadRoleKey)))
    }

    /// Out of line, so that the check itself stays a load and a compare.
    @inline(never)
    private static func failed(_ role: ThreadRole, function: StaticString, file: StaticString, line: UInt) -> Never {
        let ran = current.map { "the \($0) thread" } ?? "a thread with no role"
        preconditionFailure(
            "motet: thread role check failed: \(function) is for the \(role) thread only, but ran on \(ran) (\(threadName()))",
            file: file, line: line)
    }

    @inline(never)
    private static func enteredTwice(_ held: ThreadRole, _ role: ThreadRole) -> Never {
        preconditionFailure("motet: thread role check failed: the \(held) thread (\(threadName())) cannot also enter the \(role) role")
    }

    /// The calling thread's name (`PosixThread.nameThisThread`), from /proc/thread-self/comm
    /// (`pthread_getname_np` is not in Swift's Glibc module).
    private static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "unnamed" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else { return "unnamed" }
        return String(decoding: bytes[..<n].prefix { $0 != 0 && $0 != 10 }, as: UTF8.self)
    }
    #endif
}

#if DEBUG
/// The thread-specific slot holding the calling thread's role (its raw value; none: 0).
private let threadRoleKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key, nil)
    precondition(rc == 0, "motet: cannot create the thread role key (error \(rc))")
    return key
}()
#endif
