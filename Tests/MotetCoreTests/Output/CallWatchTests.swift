import Testing

@testable import MotetOutput

/// The call policy: one interruption per call, whether the server corks us, we see the call, or
/// both, in any order.
@Suite struct CallWatchTests {
    @Test func aCallSeenByUsBeginsAndItsEndEndsTheInterruption() {
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.sinkInput(7, isCall: true) == .corkRequested)
        #expect(watch.sinkInputRemoved(7) == .uncorkRequested)
    }

    @Test func otherStreamsAreNoCall() {
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.sinkInput(3, isCall: CallWatch.isCall(role: "music")) == nil)
        #expect(watch.sinkInput(4, isCall: CallWatch.isCall(role: nil)) == nil)
        #expect(CallWatch.isCall(role: "phone") && CallWatch.isCall(role: "communication"))
        #expect(watch.sinkInputRemoved(3) == nil)
    }

    @Test func twoOverlappingCallsAreOneInterruptionEndingWithTheLast() {
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.sinkInput(1, isCall: true) == .corkRequested)
        #expect(watch.sinkInput(2, isCall: true) == nil)
        #expect(watch.sinkInputRemoved(1) == nil)
        #expect(watch.sinkInputRemoved(2) == .uncorkRequested)
    }

    @Test func theServersCorkAndOurDetectionOfTheSameCallAreOneInterruption() {
        // PulseAudio with module-role-cork: the request usually comes first.
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.serverRequest(cork: true) == .corkRequested)
        #expect(watch.sinkInput(9, isCall: true) == nil)
        #expect(watch.serverRequest(cork: false) == nil)
        #expect(watch.sinkInputRemoved(9) == .uncorkRequested)
        // … or the other way round.
        #expect(watch.sinkInput(10, isCall: true) == .corkRequested)
        #expect(watch.serverRequest(cork: true) == nil)
        #expect(watch.sinkInputRemoved(10) == nil)
        #expect(watch.serverRequest(cork: false) == .uncorkRequested)
    }

    @Test func aStreamThatStopsBeingACallEndsIt() {
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.sinkInput(5, isCall: true) == .corkRequested)
        #expect(watch.sinkInput(5, isCall: false) == .uncorkRequested)
    }

    @Test func disabledReportsNothingNotEvenTheServersRequests() {
        var watch = CallWatch.listening(enabled: false)
        #expect(watch.serverRequest(cork: true) == nil)
        #expect(watch.sinkInput(1, isCall: true) == nil)
        #expect(watch.serverRequest(cork: false) == nil)
        #expect(watch.sinkInputRemoved(1) == nil)
    }

    @Test func nothingIsReportedBeforeAnyoneListens() {
        var watch = CallWatch(enabled: true)
        #expect(watch.sinkInput(1, isCall: true) == nil)  // seen while connecting
        #expect(watch.resume() == .corkRequested)  // the owner set its handler
        #expect(watch.sinkInputRemoved(1) == .uncorkRequested)
    }

    @Test func aLostServerForgetsItsCallsAndReportsOnlyAfterResuming() {
        var watch = CallWatch.listening(enabled: true)
        #expect(watch.sinkInput(1, isCall: true) == .corkRequested)
        watch.forget()  // the loss is the player's interruption now
        #expect(watch.sinkInput(2, isCall: true) == nil)  // seen while reconnecting
        #expect(watch.resume() == .corkRequested)
        #expect(watch.sinkInputRemoved(2) == .uncorkRequested)
        watch.forget()
        #expect(watch.resume() == nil)
    }
}

extension CallWatch {
    /// A watch whose owner listens.
    static func listening(enabled: Bool) -> CallWatch {
        var watch = CallWatch(enabled: enabled)
        _ = watch.resume()
        return watch
    }
}
