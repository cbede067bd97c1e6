/// The Swift compiler this kit (and so the plugin) is built with, stamped into the descriptor's
/// `swift_toolchain`: the host refuses a Swift plugin built by another compiler than its own,
/// because both share the host's one Swift runtime. The host computes its own the same way
/// (`Sources/MotetCore/PluginHost/SwiftToolchain.swift`): keep the two lists in step.
enum SwiftToolchain {
    static let version: String = {
        #if compiler(>=6.5)
        return "6.5 or newer"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0 or older"
        #endif
    }()
}
