import CGIO

/// Typed GVariant constructors for the containers the D-Bus delegates need (`g_variant_new` is
/// variadic and unavailable in Swift). Every function returns a new floating reference, consumed
/// by the call or container it is passed to.
public enum GVariantBuild {
    /// `as`.
    public static func strings(_ list: [String]) -> OpaquePointer {
        let builder = withType("as") { g_variant_builder_new($0) }
        defer { g_variant_builder_unref(builder) }
        for s in list { g_variant_builder_add_value(builder, g_variant_new_string(s)) }
        return g_variant_builder_end(builder)
    }

    /// `a{sv}`, filled by `body` through `add(key, value)`: each value (a floating GVariant) is
    /// wrapped in `v`; a nil value leaves the key out.
    public static func dictionary(_ body: ((String, OpaquePointer?) -> Void) -> Void) -> OpaquePointer {
        let builder = withType("a{sv}") { g_variant_builder_new($0) }
        defer { g_variant_builder_unref(builder) }
        body { key, value in
            guard let value else { return }
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        return g_variant_builder_end(builder)
    }

    /// A tuple of the given floating children (`()` when empty).
    public static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// Runs `body` with a GVariantType made from a type string (e.g. `(u)`), freed afterwards.
    public static func withType<R>(_ signature: String, _ body: (OpaquePointer?) -> R) -> R {
        let type = g_variant_type_new(signature)
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
