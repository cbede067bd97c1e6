import CGIO

/// Reading the GVariants a D-Bus reply or signal carries.
public enum GVariantRead {
    /// Runs `body` with child `index` of a container GVariant (a new reference, released
    /// afterwards).
    public static func withChild<R>(_ container: OpaquePointer, _ index: Int, _ body: (OpaquePointer) -> R) -> R {
        let child = g_variant_get_child_value(container, gsize(index))!
        defer { g_variant_unref(child) }
        return body(child)
    }

    /// The text of an `s`, `o` or `g` value ("" for any other type).
    public static func string(_ value: OpaquePointer) -> String {
        guard let s = g_variant_get_string(value, nil) else { return "" }
        return String(cString: s)
    }

    /// The texts of an `as`.
    public static func strings(_ value: OpaquePointer) -> [String] {
        (0..<Int(g_variant_n_children(value))).map { i in withChild(value, i) { string($0) } }
    }
}
