/// A value behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex`, whose Linux implementation (priority-inheritance
/// futexes) ThreadSanitizer cannot see: under contention it reports false data races, and
/// `make test-tsan` must stay clean.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
