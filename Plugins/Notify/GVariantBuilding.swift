import CGIO

/// Typed GVariant constructors for the Notify call (`g_variant_new` is variadic, so unavailable
/// in Swift). Every function returns a new floating reference, consumed by the call.
enum GVariantBuilding {
    /// `as`.
    static func strings(_ list: [String]) -> OpaquePointer {
        let type = g_variant_type_new("as")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        defer { g_variant_builder_unref(builder) }
        for s in list { g_variant_builder_add_value(builder, g_variant_new_string(s)) }
        return g_variant_builder_end(builder)
    }

    /// `a{sv}`, filled by `body` through `add(key, value)`; each value (floating) is wrapped in `v`.
    static func dictionary(_ body: ((String, OpaquePointer) -> Void) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        defer { g_variant_builder_unref(builder) }
        body { key, value in
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        return g_variant_builder_end(builder)
    }

    /// A tuple of floating children.
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
}
