import Foundation
import MotetTestSupport
import Testing

/// Motet through ALSA with no sound card: a `file` PCM records exactly what was played.
@Suite struct ALSAOutputTests {
    @Test func whatALSAReceivesIsBitExact() throws {
        let alsa = try ALSARig()
        defer { alsa.stop() }
        let run = try MotetRun()
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 0.7, synth: ["sine", "200-3000"])
        let r = try run.run(
            ["--output", "alsa:\(ALSARig.deviceName)", "--no-config", "--status", "events", ogg],
            extraEnvironment: alsa.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let reference = try Fixtures.referenceDecode(ogg)
        let captured = alsa.capturedBytes()
        #expect(captured.count >= reference.count)
        #expect(Array(captured.prefix(reference.count)) == reference)
    }
}
