import CGIO

/// Typed GVariant constructors for the containers MPRIS needs (`g_variant_new` is variadic and
/// unavailable in Swift). Every function returns a new floating reference.
enum GVariantBuild {
    /// `as`.
    static func strings(_ list: [String]) -> OpaquePointer {
        let builder = withType("as") { g_variant_builder_new($0) }
        for s in list { g_variant_builder_add_value(builder, g_variant_new_string(s)) }
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }

    /// `a{sv}`, filled by `body` through `add(key, value)` (value: a floating GVariant, wrapped in `v`).
    static func dictionary(_ body: ((String, OpaquePointer?) -> Void) -> Void) -> OpaquePointer {
        let builder = withType("a{sv}") { g_variant_builder_new($0) }
        body { key, value in
            guard let value else { return }
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }

    /// A tuple of the given floating children (`()` when empty).
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// Runs `body` with a GVariantType made from a type string, freed afterwards.
    static func withType<R>(_ signature: String, _ body: (OpaquePointer?) -> R) -> R {
        let type = g_variant_type_new(signature)
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
