import Synchronization
import Testing

@testable import MotetPlayback
import MotetSystem

/// `ThreadRole`'s rule: a check fails only on a thread that entered another role; a thread that
/// entered none (these tests' own) is not checked. Debug builds only: release has no check.
@Suite struct ThreadRoleTests {
    /// Runs `body` on a new thread that entered `role`, and waits for it.
    private static func onThread(_ role: ThreadRole, _ body: @escaping @Sendable () -> Void) {
        let thread = PosixThread(name: "motet-test-role") {
            role.enter()
            body()
        }
        thread.join()
    }

    @Test func aThreadWithNoRoleIsNotChecked() {
        #expect(ThreadRole.control.isCurrent)
        #expect(ThreadRole.decoder.isCurrent)
        #expect(ThreadRole.sink.isCurrent)
        ThreadRole.control.check()
        ThreadRole.sink.check()
    }

    #if DEBUG
    @Test func aThreadThatEnteredARoleIsThatRoleOnly() {
        let seen = Mutex<[ThreadRole: Bool]>([:])
        Self.onThread(.sink) {
            seen.withLock {
                for role in [ThreadRole.control, .decoder, .sink] { $0[role] = role.isCurrent }
                $0[.sink] = $0[.sink]! && ThreadRole.current == .sink
            }
        }
        #expect(seen.withLock { $0 } == [.control: false, .decoder: false, .sink: true])
        // The role belongs to that thread only.
        #expect(ThreadRole.current == nil)
    }

    @Test func aControlOnlyMethodOnTheSinkThreadTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Self.onThread(.sink) { _ = PlayerInbox().take() }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("take() is for the control thread only, but ran on the sink thread (motet-test-role)"))
    }

    @Test func aSinkOnlyMethodOnTheControlThreadTraps() async {
        await #expect(processExitsWith: .failure) {
            Self.onThread(.control) { _ = OutputEventQueues().pushFromWorker(.fed) }
        }
    }

    @Test func aThreadCannotTakeASecondRole() async {
        await #expect(processExitsWith: .failure) {
            Self.onThread(.decoder) { ThreadRole.sink.enter() }
        }
    }
    #endif
}
