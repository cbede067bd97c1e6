import Foundation
import MotetTestSupport
import Testing

/// SIGINT and SIGTERM stop Motet cleanly: the WAV file is complete and valid.
@Suite struct SignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalLeavesAValidWAVFileAndExitsZero(_ signal: Int32) throws {
        let run = try MotetRun()
        let ogg = run.path("long.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 6)
        let out = run.path("out.wav")
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "wav:\(out)", "--no-config", "--status", "events", ogg], environment: run.environment)
        Thread.sleep(forTimeInterval: 1.2)
        motet.signal(signal)
        let ended = try Shell.waitUntil(timeout: 10) { !motet.isRunning }
        #expect(ended, "motet stops within 10 s of the signal")
        motet.wait(timeout: 60)
        #expect(motet.exitCode == 0)
        let wav = try wavData(out)
        let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        #expect(wav.data.count > 0 && wav.data.count % 4 == 0)
        #expect(size >= wav.data.count + 44)
        let reference = try Fixtures.referenceDecode(ogg)
        #expect(wav.data.count < reference.count, "stopped before the end")
        #expect(Array(reference.prefix(wav.data.count)) == wav.data, "what was written is the start of the track")
    }
}
