import MotetPluginABI

/// Checks what a plugin's entry function returned before anything else is read from it.
enum PluginDescriptorCheck {
    /// The smallest descriptor prefix that holds the version fields.
    private static let versionFieldsSize: UInt32 = 16

    /// Why the descriptor cannot be used, or nil when it can.
    /// `isolated`: the plugin runs in a process of its own, with its own Swift runtime if it has
    /// one, so the compiler it was built with does not matter.
    static func problem(_ d: UnsafePointer<motet_plugin_descriptor>, isolated: Bool = false) -> PluginLoadFailure? {
        // Only the version fields are read until the size and the major say the rest is ours.
        let size = UnsafeRawPointer(d).load(as: UInt32.self)
        guard size >= versionFieldsSize else {
            return .invalidDescriptor("struct_size \(size) is too small to hold the ABI version")
        }
        let major = UnsafeRawPointer(d).load(fromByteOffset: 4, as: UInt32.self)
        let minor = UnsafeRawPointer(d).load(fromByteOffset: 8, as: UInt32.self)
        let minimum = UnsafeRawPointer(d).load(fromByteOffset: 12, as: UInt32.self)
        guard major == MOTET_ABI_MAJOR else {
            return .abiMajorMismatch(
                pluginMajor: major, pluginMinor: minor, hostMajor: MOTET_ABI_MAJOR, hostMinor: MOTET_ABI_MINOR)
        }
        guard minimum <= MOTET_ABI_MINOR else {
            return .needsNewerHost(
                pluginMajor: major, minimumMinor: minimum, hostMajor: MOTET_ABI_MAJOR, hostMinor: MOTET_ABI_MINOR)
        }
        guard size >= MOTET_DESCRIPTOR_SIZE_1_0 else {
            return .invalidDescriptor("struct_size \(size) is smaller than the ABI 1.0 descriptor (\(MOTET_DESCRIPTOR_SIZE_1_0))")
        }
        var missing: [String] = []
        if d.pointee.create == nil { missing.append("create") }
        if d.pointee.on_event == nil { missing.append("on_event") }
        if d.pointee.destroy == nil { missing.append("destroy") }
        if !missing.isEmpty {
            return .invalidDescriptor("no \(missing.joined(separator: ", ")) function")
        }
        // A Swift plugin shares this process's one Swift runtime: only the same compiler will do.
        // (swift_toolchain is the first field past the 1.0 baseline; kits built before ABI 1.1
        // declared an 80-byte descriptor that ends with it.)
        if !isolated, size >= MOTET_DESCRIPTOR_SIZE_1_0 + UInt32(MemoryLayout<UnsafePointer<CChar>?>.size),
            let stamp = UnsafeRawPointer(d).load(
                fromByteOffset: Int(MOTET_DESCRIPTOR_SIZE_1_0), as: UnsafePointer<CChar>?.self)
        {
            let plugin = LogText.fromPlugin(stamp)
            if plugin != SwiftToolchain.version {
                return .swiftToolchainMismatch(plugin: plugin, host: SwiftToolchain.version)
            }
        }
        return nil
    }
}
