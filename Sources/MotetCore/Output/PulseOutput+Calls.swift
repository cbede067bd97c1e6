import CPulse
import Glibc
import MotetEvents

/// Calls: the server's `request-cork` / `request-uncork`, and the calls we notice ourselves.
///
/// PulseAudio's module-role-cork asks music streams to cork while a `media.role=phone` stream
/// plays. PipeWire's pipewire-pulse with WirePlumber's default policy does not: there a call
/// starts and Motet would play on. So the device also subscribes to sink inputs (the same pulse
/// API on both servers) and treats another client's stream with role phone or communication as a
/// call. `CallWatch` merges both sources into one interruption per call; the player sees only
/// `.corkRequested` / `.uncorkRequested`, whichever source spoke. Everything here runs on the main
/// loop's thread with its lock held.
extension PulseOutput {
    /// The context is ready: subscribe to sink inputs and look at those already playing (a call
    /// that was going on when we connected).
    func watchCalls(_ c: OpaquePointer) {
        guard callWatch.enabled else { return }
        pa_context_set_subscribe_callback(
            c, { c, type, index, ud in PulseOutput.device(ud).sinkInputEvent(c, type, index) }, userdata)
        if let operation = pa_context_subscribe(c, PA_SUBSCRIPTION_MASK_SINK_INPUT, nil, nil) {
            pa_operation_unref(operation)
        }
        if let operation = pa_context_get_sink_input_info_list(
            c, { c, info, eol, ud in PulseOutput.device(ud).sinkInputInfo(c, info, eol) }, userdata)
        {
            pa_operation_unref(operation)
        }
    }

    /// The server's `request-cork` (true) or `request-uncork` (false).
    func serverRequested(cork: Bool) {
        report(callWatch.serverRequest(cork: cork))
    }

    /// The owner listens now (`onEvent` was set), or our stream is back after a loss (`.restored`
    /// was reported): a call seen meanwhile counts now.
    func resumeCallWatch() {
        report(callWatch.resume())
    }

    private func sinkInputEvent(_ c: OpaquePointer?, _ type: pa_subscription_event_type_t, _ index: UInt32) {
        guard let c, c == context,
            type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue
        else { return }
        if type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
            report(callWatch.sinkInputRemoved(index))
        } else if let operation = pa_context_get_sink_input_info(
            c, index, { c, info, eol, ud in PulseOutput.device(ud).sinkInputInfo(c, info, eol) }, userdata)
        {
            pa_operation_unref(operation)  // new or changed: is it a call?
        }
    }

    private func sinkInputInfo(_ c: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?, _ eol: Int32) {
        guard eol == 0, let c, c == context, let info = info?.pointee else { return }
        // Our own streams are never a call, whatever role they carry.
        guard info.client != pa_context_get_index(c) else { return }
        let role = pa_proplist_gets(info.proplist, "media.role").map { String(cString: $0) }
        report(callWatch.sinkInput(info.index, isCall: CallWatch.isCall(role: role)))
    }

    private func report(_ event: OutputNotice?) {
        if let event { handler?(event) }
    }
}
