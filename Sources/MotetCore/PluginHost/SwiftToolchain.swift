/// The Swift compiler the host is built with, compared with a Swift plugin's descriptor
/// `swift_toolchain` (stamped by MotetPluginKit): a plugin built by another compiler is refused,
/// because it would share this process's one Swift runtime. The kit computes its stamp the same way
/// (`Sources/MotetPluginKit/SwiftToolchain.swift`): keep the two lists in step.
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

extension PluginHost {
    /// The Swift compiler this host was built with ("6.3"): a Swift plugin must be built with the
    /// same one (`motet --version` says which).
    public static let swiftToolchain = SwiftToolchain.version
}
