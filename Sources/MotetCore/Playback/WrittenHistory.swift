import MotetEvents

/// What the sink wrote of a track read over the network to a device, as the decoder made it
/// (before volume and ReplayGain), so that a cut can fade out of it (README, "Crossfade and fades"): a file is
/// read again from the cut for its fade out, a stream cannot be (a station's past is gone, and a
/// file over HTTP would be fetched again for a second of audio). What plays at a cut was written
/// to the device seconds ago (PulseAudio holds 3 s of it) and is no longer in the ring, whose
/// slots the decoder refilled: so the sink copies each stretch of such a segment here before it
/// scales it in place and hands it to the device. A local file costs nothing: its segments keep
/// nothing (`SegmentMarker.keepsHistory`); nor does an output that plays all it was given (a WAV
/// file, `null`: `AudioOutput.keepsWrittenAudio`), whose cut comes after what it was written.
///
/// Kept as 16-bit samples, what a 16-bit device plays: it is only ever heard fading out, and it
/// halves what a stream costs in memory (PulseAudio held 5.3 s past the cut in StationFadeTests:
/// 0.9 MiB of 44.1 kHz stereo at 16 bits).
///
/// Sink thread, and the control thread while the sink is parked (`SinkWorker`'s rule). Indexes
/// are the ring's sample indexes: what the sink wrote at output frame `f` is found from the ring's
/// read index and the frames written since.
struct WrittenHistory {
    /// Samples kept (1 MiB): 5.9 s of 44.1 kHz stereo, 5.5 s at 48 kHz, more than a device holds
    /// at a cut (PulseAudio 5.3 s, ALSA 2 s), so that what it holds is here (a cut further back
    /// is a cut without a fade). Allocated once and only touched while a stream plays on a
    /// device: a player of local files never makes these pages resident.
    static let capacity = 1 << 19
    private static let mask = capacity - 1
    private let storage = UnsafeMutablePointer<Int16>.allocate(capacity: WrittenHistory.capacity)
    /// The ring samples held: [from, through).
    private(set) var from = 0
    private(set) var through = 0
    /// The segment being written is read over the network (a cut fades out of it from here
    /// and the ring), and its history is kept (it goes to a device).
    private(set) var isStream = false
    private(set) var isOn = false
    private(set) var segmentStart = 0
    private(set) var segmentID: UInt64 = 0

    /// Frees the storage (the owner's deinit).
    func deallocate() { storage.deallocate() }

    /// A segment's marker was reached: it keeps its history or not (`toDevice`: the output drops
    /// what it did not play); what an earlier one kept is of no use to a cut in this one.
    mutating func enter(_ marker: SegmentMarker, toDevice: Bool) {
        isStream = marker.keepsHistory
        isOn = isStream && toDevice
        segmentStart = marker.sampleIndex
        segmentID = marker.segmentID
        from = marker.sampleIndex
        through = marker.sampleIndex
    }

    /// The ring was reset (a reposition): nothing written before is cut into again.
    mutating func forget() {
        isStream = false
        isOn = false
        from = through
    }

    /// Keeps `count` samples, ring indexes `index…`, before they are scaled and written: what was
    /// kept already (a region offered again after a short write) is not copied twice.
    mutating func keep(_ samples: UnsafePointer<Float>, at index: Int, count: Int) {
        let skip = max(0, through - index)
        guard count > skip else { return }
        if index > through { from = index }  // a gap: what came before does not lead here
        var i = index + skip
        let end = index + count
        while i < end {
            let n = min(end - i, Self.capacity - (i & Self.mask))
            let to = storage + (i & Self.mask), from = samples + (i - index)
            // Clamped first (`min` takes a NaN's place with full scale), then truncated: rounding
            // is a library call per sample here (bench-radio: stream / local CPU 1.24 with it).
            for k in 0..<n { to[k] = Int16(max(-32767, min(32767, from[k] * 32767))) }
            i += n
        }
        through = end
        from = max(from, through - Self.capacity)
    }

    /// Copies `count` kept samples from ring index `index` on into `destination`.
    func copy(from index: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        precondition(index >= from && index + count <= through, "outside what the history holds")
        var i = index
        while i < index + count {
            let n = min(index + count - i, Self.capacity - (i & Self.mask))
            let from = storage + (i & Self.mask), to = destination + (i - index)
            for k in 0..<n { to[k] = Float(from[k]) / 32767 }
            i += n
        }
    }
}

/// What a device was to play of a stream after a cut (`SinkWorker.tailWhileParked`): the fade out
/// of a track that cannot be read again, as the decoder made it, in the output's format.
struct AudioTail: Sendable, Equatable {
    var samples: [Float]
    var format: AudioFormat
    /// The segment it is of.
    var segmentID: UInt64
    /// That segment as the control thread knows it (`placeOfCut`): the fade's own segment says
    /// the same (tags, station, live).
    var origin: SegmentInfo?
    var frames: Int { samples.count / max(1, format.channels) }

    static func == (a: AudioTail, b: AudioTail) -> Bool {
        a.segmentID == b.segmentID && a.format == b.format && a.samples == b.samples
    }
}
