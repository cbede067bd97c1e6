import MotetDecoding
import MotetEvents
import MotetNetwork
import MotetSystem
import Synchronization

/// The decoder thread's side of the ring: segments and their markers, samples published, the
/// sink woken, a network stream told when the audio runs out.
extension DecodeWorker {
    /// Decoder thread.
    /// Tells a network stream when the audio decoded so far runs out for the listener: what the
    /// ring holds and what the device has not played yet.
    func tellRunsOut(_ stream: NetworkStream, format: AudioFormat) {
        ThreadRole.decoder.check()
        let now = MonotonicInstant.now()
        let position = heard()
        let inDevice = max(0, position.limitFrames - position.frames(at: now))
        let frames = Int64(ring.availableToRead / max(1, format.channels)) + inDevice
        stream.listenerRunsOut(at: now.advanced(byNanoseconds: FrameTime.nanoseconds(frames: frames, rate: format.sampleRate)))
    }

    /// Decoder thread.
    /// The network stream the current track comes from (nil for a local file).
    var currentStream: NetworkStream? {
        ThreadRole.decoder.check()
        return blockingStream.withLock { $0 }
    }

    /// Decoder thread.
    /// A new track id.
    func takeTrackID() -> UInt64 { nextTrackID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Decoder thread.
    /// Reports a new segment and marks where its samples start. `crossfade`: the fade that brings
    /// it in, when it starts in the middle of one.
    func startSegment(_ d: any AudioDecoder, trackID: UInt64, request: TrackRequest, gain: Float, crossfade: CrossfadeSpan? = nil) {
        ThreadRole.decoder.check()
        let id = nextSegmentID.wrappingAdd(1, ordering: .relaxed).oldValue
        let stream = currentStream
        let head = stream?.head
        // The fade out of a stream after a cut is of the stream's segment: its times, its station.
        let origin = (d as? TailDecoder)?.tail.origin
        // A stream read link after link (a live station) counts each link from its own start: the
        // time listened, as the stream does not say where in the song it joined.
        let linkStart = origin?.linkStart.microseconds ?? (d.linkCount > 1 || (stream != nil && !d.canSeek) ? d.linkStartMicros : 0)
        let info = SegmentInfo(
            segmentID: id, generation: request.generation, trackID: trackID, orderPosition: request.orderPosition,
            path: request.path,
            metadata: d.metadata,
            artwork: artworkStore.artwork(embedded: d.metadata.picture, trackPath: request.path, defaultArtwork: defaultArtwork),
            format: d.format, fileStart: .microseconds(d.positionMicros - linkStart),
            duration: origin?.duration ?? (d.linkCount > 1 ? d.linkDurationMicros : d.durationMicros).map(Duration.microseconds),
            canSeek: d.canSeek, linkStart: .microseconds(linkStart), url: origin?.url ?? stream?.url,
            station: origin?.station ?? head.map(\.station).flatMap { $0.isEmpty ? nil : $0 },
            isLive: origin?.isLive ?? head?.isLive ?? false, crossfade: crossfade)
        // Reported before its marker is pushed: the control thread knows the segment before the
        // sink can say it was written.
        report(.segmentOpened(info))
        pushMarker(
            SegmentMarker(
                sampleIndex: ring.writeIndex, segmentID: id, sampleRate: d.format.sampleRate,
                channels: d.format.channels, gain: gain, isEnd: false, keepsHistory: stream != nil))
    }

    /// Decoder thread.
    /// Queues `marker` for the sink, waiting for room unless a park or quit is pending.
    func pushMarker(_ marker: SegmentMarker) {
        ThreadRole.decoder.check()
        while !markers.push(marker) {
            if gate.mustStop { return }
            spaceReady.wait(for: .milliseconds(100))
        }
        dataReady.post()
    }

    /// Decoder thread.
    /// Copies samples decoded into scratch into the ring, around its wrap. They fit: the read was
    /// sized by the ring's free space, which only the sink thread changes, and only by freeing more.
    func push(_ samples: UnsafeMutablePointer<Float>, count: Int, stream: NetworkStream?) {
        ThreadRole.decoder.check()
        let n = ring.write(samples, count: count)
        assert(n == count, "the ring had less room than the read was sized for")
        if n > 0 { wakeSinkForBatch(stream) }
    }

    /// Decoder thread.
    /// Publishes `count` samples decoded straight into the ring's writable region.
    func published(_ count: Int, stream: NetworkStream?) {
        ThreadRole.decoder.check()
        guard count > 0 else { return }
        ring.commitWrite(count)
        wakeSinkForBatch(stream)
    }

    /// Decoder thread.
    /// Wakes the sink for a batch, not for every packet: an untimed sink would otherwise sleep and
    /// wake ~40 times per second of audio (bench/RESULTS.md). Markers and the end of the queue
    /// still wake it at once. A network stream's bytes come a second at a time (its pacing): the
    /// sink is woken when they are all decoded (the stream's `whenCaughtUp`), not for each batch
    /// of them (each wake-up is a write to the device, and on PulseAudio a wake-up of its loop
    /// thread too).
    func wakeSinkForBatch(_ stream: NetworkStream?) {
        ThreadRole.decoder.check()
        let nearlyFull = ring.availableToWrite < Self.wakeBatch / 4
        if stream != nil, !nearlyFull { return }
        if ring.availableToRead >= Self.wakeBatch || nearlyFull { dataReady.post() }
    }
}
