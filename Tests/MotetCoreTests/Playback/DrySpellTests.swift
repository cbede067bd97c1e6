import MotetOutput
import MotetSystem
import Testing

@testable import MotetPlayback

/// The sink's watch on an empty ring (`DrySpell`), with a hand-moved clock.
@Suite struct DrySpellTests {
    let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)
    let rate = 44100

    @Test func aDeviceThatHoldsMoreThanATenthOfASecondIsNoStall() {
        var spell = DrySpell()
        // 1 s in the device: look again when it holds only 100 ms, 0.9 s from now.
        let device = DeviceState(freeFrames: 0, delayFrames: 44100, playing: true)
        let (wait, starved) = spell.ringEmpty(device: device, rate: rate, now: t0)
        #expect(starved == nil && spell.since == nil)
        #expect(wait == Duration.milliseconds(900).nanoseconds)
    }

    @Test func aRingDryForATenthOfASecondStarvesOnceAndFlowingEndsIt() {
        var spell = DrySpell()
        let nearlyEmpty = DeviceState(freeFrames: 4096, delayFrames: 441, playing: true)
        var look = spell.ringEmpty(device: nearlyEmpty, rate: rate, now: t0)
        #expect(look.starvedSince == nil && look.lookAgainInNanos == DrySpell.starvingAfterNanos)
        look = spell.ringEmpty(device: nearlyEmpty, rate: rate, now: t0 + .milliseconds(60))
        #expect(look.starvedSince == nil && look.lookAgainInNanos == Duration.milliseconds(40).nanoseconds)
        look = spell.ringEmpty(device: nearlyEmpty, rate: rate, now: t0 + .milliseconds(100))
        #expect(look.starvedSince == t0, "the stall is dated from when the ring ran dry")
        look = spell.ringEmpty(device: nearlyEmpty, rate: rate, now: t0 + .milliseconds(300))
        #expect(look.starvedSince == nil, "said once")
        let ended = spell.flowing(), endedAgain = spell.flowing()
        #expect(ended)
        #expect(!endedAgain, "fed is said once")
        #expect(spell.since == nil && !spell.starving)
    }

    @Test func aLostOrStoppedDeviceCountsFromTheFirstLook() {
        for device in [DeviceState(freeFrames: 0, delayFrames: 44100, playing: true, lost: true),
                       DeviceState(freeFrames: 0, delayFrames: 44100, playing: false), nil] {
            var spell = DrySpell()
            _ = spell.ringEmpty(device: device, rate: rate, now: t0)
            let look = spell.ringEmpty(device: device, rate: rate, now: t0 + .milliseconds(100))
            #expect(look.starvedSince == t0)
        }
    }

    @Test func aFlushForgetsTheSpellButNotThatStarvingWasSaid() {
        var spell = DrySpell()
        _ = spell.ringEmpty(device: nil, rate: rate, now: t0)
        spell.flushed()
        #expect(spell.since == nil)
        _ = spell.ringEmpty(device: nil, rate: rate, now: t0 + .seconds(1))
        let look = spell.ringEmpty(device: nil, rate: rate, now: t0 + .milliseconds(1050))
        #expect(look.starvedSince == nil)
    }
}
