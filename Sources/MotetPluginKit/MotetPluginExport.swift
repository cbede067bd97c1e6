#if canImport(Glibc)
import Glibc
#endif

/// Turns a `MotetDelegate` type into the C descriptor the host loads. One delegate type per
/// shared object: the first type exported is the one the descriptor makes.
public enum MotetPluginExport {
    /// The body of a Swift plugin's `motet_plugin_entry`. Returns the descriptor, or nil (decline)
    /// when the host's ABI major is not the one this kit was built for.
    public static func entry<D: MotetDelegate>(_ type: D.Type, _ hostMajor: UInt32, _ hostMinor: UInt32)
        -> UnsafeRawPointer?
    {
        guard hostMajor == MOTET_ABI_MAJOR else { return nil }
        return exported.withLock { slot in
            if let existing = slot { return UnsafeRawPointer(existing.descriptor) }
            let made = Exported(
                descriptor: makeDescriptor(D.descriptor),
                factory: { host, options in try D(host: host, options: options) })
            slot = made
            return UnsafeRawPointer(made.descriptor)
        }
    }

    // Unchecked: written once under the lock, then only read (the pointer is leaked on purpose),
    // and `factory` captures the delegate's metatype, which `MotetDelegate` does not promise Sendable.
    struct Exported: @unchecked Sendable {
        let descriptor: UnsafeMutablePointer<motet_plugin_descriptor>
        let factory: (MotetHost, PluginOptions) throws -> any MotetDelegate
    }

    static let exported = Locked<MotetPluginExport.Exported?>(nil)

    static func makeDescriptor(_ d: DelegateDescriptor) -> UnsafeMutablePointer<motet_plugin_descriptor> {
        let p = UnsafeMutablePointer<motet_plugin_descriptor>.allocate(capacity: 1)
        p.initialize(
            to: motet_plugin_descriptor(
                struct_size: UInt32(MemoryLayout<motet_plugin_descriptor>.size),
                abi_major: MOTET_ABI_MAJOR, abi_minor: MOTET_ABI_MINOR,
                min_host_minor: d.minimumHostMinor,
                id: UnsafePointer(strdup(d.id)), name: UnsafePointer(strdup(d.name)),
                version: UnsafePointer(strdup(d.version)), description: UnsafePointer(strdup(d.description)),
                create: { host, options, count, out in
                    guard let host, let out, let factory = MotetPluginExport.exported.withLock({ $0?.factory })
                    else { return MOTET_ERROR }
                    let swiftHost = MotetHost(host)
                    // In order, with repeats, as the header promises.
                    var pairs: [(key: String, value: String)] = []
                    if let options {
                        for i in 0..<Int(count) {
                            if let k = options[i].key, let v = options[i].value {
                                pairs.append((String(cString: k), String(cString: v)))
                            }
                        }
                    }
                    do {
                        let instance = try factory(swiftHost, PluginOptions(pairs))
                        out.pointee = Unmanaged.passRetained(DelegateBox(instance)).toOpaque()
                        return MOTET_OK
                    } catch {
                        swiftHost.log(.error, "\(error)")
                        return MOTET_ERROR
                    }
                },
                on_event: { instance, event in
                    guard let instance, let event else { return }
                    let delegate = Unmanaged<DelegateBox>.fromOpaque(instance).takeUnretainedValue().delegate
                    MotetPluginExport.dispatch(event, to: delegate)
                },
                destroy: { instance in
                    guard let instance else { return }
                    Unmanaged<DelegateBox>.fromOpaque(instance).release()
                },
                swift_toolchain: UnsafePointer(strdup(SwiftToolchain.version)),
                options: makeOptions(d.options), option_count: UInt32(d.options.count), reserved0: 0))
        return p
    }

    /// The C option descriptions, leaked with the descriptor (static data for the host).
    static func makeOptions(_ options: [OptionDescription]) -> UnsafePointer<motet_option_description>? {
        guard !options.isEmpty else { return nil }
        let list = UnsafeMutablePointer<motet_option_description>.allocate(capacity: options.count)
        for (i, o) in options.enumerated() {
            (list + i).initialize(
                to: motet_option_description(
                    struct_size: UInt32(MemoryLayout<motet_option_description>.size), kind: o.kind.rawValue,
                    name: UnsafePointer(strdup(o.name)), default_value: o.defaultValue.map { UnsafePointer(strdup($0)) },
                    help: UnsafePointer(strdup(o.help))))
        }
        return UnsafePointer(list)
    }

    final class DelegateBox {
        let delegate: any MotetDelegate
        init(_ delegate: any MotetDelegate) { self.delegate = delegate }
    }

    static func dispatch(_ event: UnsafePointer<motet_event>, to delegate: any MotetDelegate) {
        let raw = UnsafeRawPointer(event)
        let size = Int(event.pointee.struct_size)
        func fits(_ baseline: UInt32) -> Bool { size >= Int(baseline) }
        switch event.pointee.type {
        case MOTET_EVENT_NOW_PLAYING where fits(MOTET_NOW_PLAYING_SIZE_1_0):
            delegate.nowPlayingChanged(NowPlayingInfo(raw.assumingMemoryBound(to: motet_now_playing.self)))
        case MOTET_EVENT_PLAYBACK_STATE where fits(MOTET_PLAYBACK_STATE_SIZE_1_0):
            delegate.playbackStateChanged(PlaybackStateInfo(raw.assumingMemoryBound(to: motet_playback_state.self)))
        case MOTET_EVENT_TRACK_STARTED where fits(MOTET_TRACK_STARTED_SIZE_1_1):
            if let info = TrackStartedInfo(raw.assumingMemoryBound(to: motet_track_started.self)) {
                delegate.trackStarted(info)
            }
        case MOTET_EVENT_TRACKS_LOST where fits(MOTET_TRACKS_LOST_SIZE_1_1):
            delegate.tracksLost(Int(raw.assumingMemoryBound(to: motet_tracks_lost.self).pointee.count))
        case MOTET_EVENT_SEEKED where fits(MOTET_SEEKED_SIZE_1_1):
            delegate.seeked(SeekedInfo(raw.assumingMemoryBound(to: motet_seeked.self)))
        case MOTET_EVENT_TRACK_FINISHED where fits(MOTET_TRACK_FINISHED_SIZE_1_0):
            delegate.trackFinished(TrackFinishedInfo(raw.assumingMemoryBound(to: motet_track_finished.self)))
        case MOTET_EVENT_DECODE_ERROR where fits(MOTET_DECODE_ERROR_SIZE_1_0):
            delegate.decodeErrorOccurred(DecodeErrorInfo(raw.assumingMemoryBound(to: motet_decode_error.self)))
        case MOTET_EVENT_INTERRUPTION_BEGAN where fits(MOTET_INTERRUPTION_SIZE_1_0):
            delegate.interruptionBegan(InterruptionKind(raw.assumingMemoryBound(to: motet_interruption.self).pointee.reason))
        case MOTET_EVENT_INTERRUPTION_ENDED where fits(MOTET_INTERRUPTION_SIZE_1_0):
            delegate.interruptionEnded(InterruptionKind(raw.assumingMemoryBound(to: motet_interruption.self).pointee.reason))
        case MOTET_EVENT_SHUTDOWN:
            delegate.shutdown()
        default:
            break  // an event type this kit does not know: ignored, as the contract says
        }
    }
}

