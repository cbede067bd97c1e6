import CGIO
import DBusSupport

/// A D-Bus property value as Swift sees it: comparable (to find what changed) and turned into a
/// GVariant only when it goes on the bus.
enum MPRISValue: Sendable, Equatable {
    case bool(Bool)
    case double(Double)
    case int64(Int64)
    case string(String)
    case strings([String])
    case metadata(MPRISMetadata)

    /// A new floating GVariant of the property's D-Bus type.
    func variant() -> OpaquePointer {
        switch self {
        case .bool(let b): g_variant_new_boolean(b ? 1 : 0)
        case .double(let d): g_variant_new_double(d)
        case .int64(let i): g_variant_new_int64(Int(i))
        case .string(let s): g_variant_new_string(s)
        case .strings(let list): GVariantBuild.strings(list)
        case .metadata(let m): m.variant()
        }
    }
}
