/// Motet's exit statuses, from sysexits.h, so that a script or systemd (`RestartPreventExitStatus=`)
/// can tell why a run ended. `--help`, motet(1) and the README list them with these rules; when
/// several apply, the larger wins (`Player.Outcome.exitStatus`).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Something played, or the person quit (a key, a signal, a delegate), and neither the output
    /// failed nor a stream was given up on. Files and addresses that cannot be opened are skipped
    /// with one line each: they change the status only when nothing played.
    case played = 0
    /// `EX_USAGE`: a bad option or config line, or a `--plugin` that cannot be loaded.
    case usage = 64
    /// `EX_NOINPUT`: nothing could be played — no input could be opened (missing, not Ogg Vorbis or Opus,
    /// an empty folder), every track was disliked, or `--start` is past the only track's end.
    case nothingPlayable = 66
    /// `EX_UNAVAILABLE`: a stream was given up on — one that played was lost and did not come back
    /// within `--reconnect-for` (even when other entries played), or nothing played and an
    /// address could not be played (refused, not found, not a stream).
    case streamGivenUp = 69
    /// `EX_IOERR`: the output could not be opened, or it failed while playing (a WAV file on a
    /// full or read-only disk).
    case outputFailed = 74
}
