/// Nil when `a == b`, else a short account of where they differ (failure messages stay readable
/// instead of printing a million samples).
func difference<T: Equatable>(_ a: [T], _ b: [T]) -> String? {
    if a == b { return nil }
    let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    return "\(a.count) vs \(b.count) elements, first difference at \(index)"
}
