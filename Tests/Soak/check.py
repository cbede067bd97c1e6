#!/usr/bin/env python3
"""Checks one soak run (bench/soak.sh, Tests/IntegrationTests/SoakTests.swift) and reports it.

Reads, from --work: recorder.out and chaos.out (the two chaos-plugin instances' event records),
log.txt (the log delegate), events.jsonl (the json delegate's events file), stderr.txt (the
player's messages); and --samples (the sampler's TSV: seconds, rss_kib, hwm_kib, fds, threads,
finished). Prints one line per check and a summary, writes --summary (JSON) and, with --report,
bench/SOAK.md. Exit status 0 when every check passed, 1 otherwise.

What "every track's events reach every plugin in order" means here. The playlist has N entries,
each its own hard link t/00001.ogg ... t/N.ogg, so a track-finished names its playlist position.
Random commands (next, previous, stop, seek past the end) make the player skip, go back and
replay, so the finished sequence is not simply 1..N; instead, for every recording plugin:
  - track ids strictly increase (each track id finishes exactly once), none failed;
  - the sequence starts at position 1 and ends with position N, completed;
  - each step follows from the reason: completed -> the next position, exactly; skipped (next,
    dislike, seek past the end, previous) -> the one before or any later one; stopped (stop,
    then the chaos plugin's play) -> the same position or a later one. Later, because a "next"
    that comes while a track is loading (after a skip or a play, before it is heard) counts from
    that track, so several can pass positions that were never heard (a double press skips two);
  so playback never goes back more than one "previous", and a completed track is always
    followed by the next;
  - the title matches the position (the four sources cycle);
  - every track id seen in a now-playing event finishes, and no now-playing names a track after
    that track finished (now-playing may coalesce, latest wins: not every track has one);
  - the stream ends: nothing-playing, shutdown, destroy;
and the two recorders, the log delegate and the json delegate's events file list the same
track-finished sequence (log: reason and file; json: track id, reason and file).
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys

TITLES = ["Soak A", "Soak B", "Soak C", "Soak D"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REASONS = {0: "completed", 1: "skipped", 2: "stopped", 3: "failed"}
NOTES_MARK = "<!-- Everything below this line is kept when soak.sh rewrites the file. -->"

# RSS may move by at most this much after the first 20 % of the run (see bench/SOAK.md);
# --rss-bound-kib changes it (a sanitizer's own allocator and shadow memory grow as it runs).
RSS_BOUND_KIB = 1024
# Open descriptors may differ by this much between the early and late windows: at any moment
# a track file may be open twice (gapless read-ahead), the json delegate's temporary file, the
# ratings file and its directory lock may be open.
FD_SLACK = 3


class Checks:
    def __init__(self):
        self.results = []

    def check(self, name, ok, detail=""):
        self.results.append({"check": name, "ok": bool(ok), "detail": detail})
        print("soak: %s %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail else ""))
        return ok

    @property
    def passed(self):
        return all(r["ok"] for r in self.results)


def position(path):
    m = re.search(r"/t/(\d+)\.ogg$", path or "")
    return int(m.group(1)) if m else None


def parse_recorder(path):
    """The chaos plugin's lines as dicts: kind, and key=value fields (title/file/message last)."""
    events = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            kind, _, rest = line.partition(" ")
            e = {"kind": kind}
            # text fields are last: split them off first
            for key in ("title", "message"):
                marker = " %s=" % key
                if marker in " " + rest:
                    before, _, value = (" " + rest).partition(marker)
                    e[key] = value
                    rest = before.strip()
            for part in rest.split(" "):
                if "=" in part:
                    k, _, v = part.partition("=")
                    e[k] = v
            events.append(e)
    return events


def check_recorder(checks, name, events, n):
    """Checks one recorder's stream; returns its finished list [(track, reason, position)]."""
    finished = []
    problems = []
    last_finished_id = 0
    finished_ids = set()
    np_ids = []
    for i, e in enumerate(events):
        if e["kind"] == "finished":
            t, reason, ok = int(e["track"]), int(e["reason"]), e["ok"]
            p = position(e.get("file"))
            if t <= last_finished_id:
                problems.append("line %d: track %d finished after track %d" % (i + 1, t, last_finished_id))
            if ok != "1" or reason == 3:
                problems.append("line %d: track %d failed (reason %d ok %s)" % (i + 1, t, reason, ok))
            if p is None:
                problems.append("line %d: finished names no playlist entry: %r" % (i + 1, e.get("file")))
            elif e.get("title") != TITLES[(p - 1) % 4]:
                problems.append("line %d: position %d has title %r" % (i + 1, p, e.get("title")))
            last_finished_id = max(last_finished_id, t)
            finished_ids.add(t)
            finished.append((t, reason, p))
        elif e["kind"] == "np" and int(e["present"], 16) & 1:
            t = int(e["track"])
            np_ids.append(t)
            if t <= last_finished_id:
                problems.append("line %d: now-playing for track %d after track %d finished" % (i + 1, t, last_finished_id))
    for p in problems[:5]:
        print("soak:   %s: %s" % (name, p))
    checks.check("%s: track-finished in increasing track order, none failed, titles match" % name, not problems,
                 "%d problems" % len(problems) if problems else "%d track-finished events" % len(finished))

    # Every now-playing track finished.
    unfinished = sorted(set(np_ids) - finished_ids)
    checks.check("%s: every track shown as now-playing finished" % name, not unfinished,
                 "unfinished: %s" % unfinished[:10] if unfinished else "%d now-playing events for %d tracks"
                 % (len(np_ids), len(set(np_ids))))

    # The walk through the playlist.
    steps = []
    if not finished:
        steps.append("no track finished")
    else:
        if finished[0][2] != 1:
            steps.append("the first track finished is position %s" % finished[0][2])
        for (t0, r0, p0), (t1, r1, p1) in zip(finished, finished[1:]):
            if p0 is None or p1 is None:
                continue
            ok = {0: p1 == p0 + 1, 1: p1 >= max(1, p0 - 1), 2: p1 >= p0}.get(r0, False)
            if not ok:
                steps.append("track %d (position %d) %s, then track %d is position %d" % (t0, p0, REASONS.get(r0), t1, p1))
        t, r, p = finished[-1]
        if (p, r) != (n, 0):
            steps.append("the last track finished is position %s, %s (expected %d, completed)" % (p, REASONS.get(r), n))
    for s in steps[:5]:
        print("soak:   %s: %s" % (name, s))
    visited = len({p for _, _, p in finished if p})
    checks.check("%s: the walk through playlist positions 1..%d follows from each finish reason" % (name, n), not steps,
                 "%d problems" % len(steps) if steps else "%d positions" % visited)

    # The end of the stream.
    kinds = [e["kind"] for e in events]
    tail_ok = kinds[-2:] == ["shutdown", "destroy"]
    last_np = next((e for e in reversed(events) if e["kind"] == "np"), None)
    checks.check("%s: ends with nothing-playing, shutdown, destroy" % name,
                 tail_ok and last_np is not None and int(last_np["present"], 16) == 0,
                 "last lines: %s" % kinds[-3:])
    return finished


def parse_log(path):
    """The log delegate's track-finished lines: [(reason word, file)]."""
    out = []
    pattern = re.compile(r' track-finished reason=(\w+) successfully=(\w+)(?: title="((?:[^"\\]|\\.)*)")? file="((?:[^"\\]|\\.)*)"')
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = pattern.search(line)
            if m:
                out.append((m.group(1), m.group(4)))
    return out


def parse_json_events(path):
    """The json delegate's track-finished lines: [(trackId, reason, file)], and lines that did not parse."""
    out, bad = [], 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if e.get("event") == "track-finished":
                out.append((e.get("trackId"), e.get("reason"), e.get("file")))
    return out, bad


def read_samples(path):
    rows = []
    with open(path) as f:
        header = f.readline().split()
        for line in f:
            parts = line.split()
            if len(parts) == len(header):
                rows.append({k: float(v) for k, v in zip(header, parts)})
    return rows


def check_resources(checks, rows, bound):
    """RSS flat, no fd or thread leak. Returns numbers for the report."""
    if len(rows) < 10:
        checks.check("resources: enough samples (>= 10)", False, "%d samples" % len(rows))
        return {}
    total = rows[-1]["seconds"]

    def at(fraction):
        return min(rows, key=lambda r: abs(r["seconds"] - fraction * total))

    def window(lo, hi):
        return [r for r in rows if lo * total <= r["seconds"] <= hi * total] or [at((lo + hi) / 2)]

    base = at(0.2)
    late = [r for r in rows if r["seconds"] >= 0.2 * total]
    peak = max(late, key=lambda r: r["rss_kib"])
    growth = peak["rss_kib"] - base["rss_kib"]
    checks.check("resources: RSS flat (max over the last 80 %% minus RSS at 20 %% <= %d KiB)" % bound,
                 growth <= bound,
                 "%.0f KiB at 20 %%, max %.0f KiB at %.0f s: %+.0f KiB" % (base["rss_kib"], peak["rss_kib"], peak["seconds"], growth))
    early_w, late_w = window(0.1, 0.3), window(0.8, 0.97)
    fd_early, fd_late = max(r["fds"] for r in early_w), max(r["fds"] for r in late_w)
    th_early, th_late = max(r["threads"] for r in early_w), max(r["threads"] for r in late_w)
    checks.check("resources: no file descriptor leak (late max <= early max + %d)" % FD_SLACK, fd_late <= fd_early + FD_SLACK,
                 "early (10-30 %%) max %d, late (80-97 %%) max %d, min..max over the run %d..%d"
                 % (fd_early, fd_late, min(r["fds"] for r in rows), max(r["fds"] for r in rows)))
    checks.check("resources: no thread leak (late max <= early max)", th_late <= th_early,
                 "early max %d, late max %d, min..max over the run %d..%d"
                 % (th_early, th_late, min(r["threads"] for r in rows), max(r["threads"] for r in rows)))
    curve = []
    for pct in range(0, 101, 10):
        r = at(pct / 100)
        curve.append({"percent": pct, "seconds": r["seconds"], "rss_kib": r["rss_kib"], "hwm_kib": r["hwm_kib"],
                      "fds": r["fds"], "threads": r["threads"], "finished": r["finished"]})
    return {"rss_at_20_kib": base["rss_kib"], "rss_max_late_kib": peak["rss_kib"], "rss_growth_kib": growth,
            "hwm_kib": max(r["hwm_kib"] for r in rows), "fds_early": fd_early, "fds_late": fd_late,
            "threads_early": th_early, "threads_late": th_late, "samples": len(rows), "curve": curve}


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            mem = "%.1f GiB" % (int(f.readline().split()[1]) / 1048576)
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory": mem, "kernel": platform.release()}


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--work", required=True)
    a.add_argument("--tracks", type=int, required=True)
    a.add_argument("--status", type=int, required=True)
    a.add_argument("--samples", required=True)
    a.add_argument("--seconds", type=float, default=0)
    a.add_argument("--mpris", default="unknown")
    a.add_argument("--notifications", type=int, default=-1)
    a.add_argument("--mpris-answers", type=int, default=-1, help="answers playerctl got during the run (-1: not asked)")
    a.add_argument("--dunst-alive", default="unknown")
    a.add_argument("--seed", default="")
    a.add_argument("--threads", default="")
    a.add_argument("--command", default="")
    a.add_argument("--summary")
    a.add_argument("--report")
    a.add_argument("--raw", default="")
    a.add_argument("--rss-bound-kib", type=int, default=RSS_BOUND_KIB)
    a.add_argument("--commit", default="", help="the commit the player was built from (default: git HEAD)")
    args = a.parse_args()
    w, n = args.work, args.tracks
    checks = Checks()

    stderr = open(os.path.join(w, "stderr.txt"), encoding="utf-8", errors="replace").read().splitlines()
    checks.check("exit status 0", args.status == 0, "status %d" % args.status)
    crash = [l for l in stderr if re.search(r"Fatal error|Segmentation|Aborted|Crash|backtrace|Sanitizer", l, re.I)]
    checks.check("no crash or sanitizer report on stderr", not crash, "; ".join(crash[:3]))
    dropped = [l for l in stderr if "not keeping up" in l]
    gave_up = [l for l in stderr if "gave up waiting" in l]
    # A plugin that failed to load: "motet: plugin NAME: FILE: reason (from ORIGIN)".
    failed_plugins = [l for l in stderr if re.match(r"motet: plugin .*: .*\(from .*\)$", l)]
    # A slow plugin's queue drops superseded playback states first, by design; whether any
    # track-finished went missing is checked below, plugin by plugin.
    print("soak: info: %d 'not keeping up' lines%s" % (len(dropped), (": " + "; ".join(dropped[:3])) if dropped else ""))
    checks.check("every plugin loaded and shut down in time", not gave_up and not failed_plugins,
                 "; ".join((gave_up + failed_plugins)[:3]))

    recorders = {}
    for name in ("recorder", "chaos"):
        events = parse_recorder(os.path.join(w, name + ".out"))
        recorders[name] = check_recorder(checks, name, events, n)
    chaos_destroy = next((e for e in parse_recorder(os.path.join(w, "chaos.out")) if e["kind"] == "destroy"), {})
    sent = int(chaos_destroy.get("sent", 0))
    checks.check("chaos: commands sent, none unsupported", sent > 0 and chaos_destroy.get("unsupported") == "0",
                 " ".join("%s=%s" % (k, v) for k, v in chaos_destroy.items() if k != "kind"))

    reference = recorders["recorder"]
    checks.check("both chaos-plugin instances saw the same track-finished sequence", recorders["chaos"] == reference,
                 "%d vs %d events" % (len(recorders["chaos"]), len(reference)))
    log = parse_log(os.path.join(w, "log.txt"))
    expected_log = [(REASONS[r], "%s/t/%05d.ogg" % (w, p) if p else None) for _, r, p in reference]
    # The log shows the file as given (absolute, below the work directory).
    log_norm = [(r, os.path.basename(f)) for r, f in log]
    exp_norm = [(r, os.path.basename(f or "")) for r, f in expected_log]
    first_diff = next((i for i, (x, y) in enumerate(zip(log_norm, exp_norm)) if x != y), None)
    checks.check("log delegate: the same track-finished sequence (reason, file)", log_norm == exp_norm,
                 "%d vs %d lines%s" % (len(log), len(reference), "" if first_diff is None else
                                       ", first difference at %d: %s vs %s" % (first_diff, log_norm[first_diff], exp_norm[first_diff])))
    js, bad = parse_json_events(os.path.join(w, "events.jsonl"))
    js_norm = [(t, r, os.path.basename(f or "")) for t, r, f in js]
    exp_js = [(t, REASONS[r], "%05d.ogg" % p if p else "") for t, r, p in reference]
    first_diff = next((i for i, (x, y) in enumerate(zip(js_norm, exp_js)) if x != y), None)
    checks.check("json delegate: the same track-finished sequence (trackId, reason, file), every line valid JSON",
                 js_norm == exp_js and bad == 0,
                 "%d vs %d events, %d bad lines%s" % (len(js), len(reference), bad, "" if first_diff is None else
                                                      ", first difference at %d: %s vs %s" % (first_diff, js_norm[first_diff], exp_js[first_diff])))
    checks.check("mpris delegate owned org.mpris.MediaPlayer2.motet during the run", args.mpris == "yes", args.mpris)
    if args.mpris_answers >= 0:
        checks.check("mpris delegate answered playerctl (title and status, every 0.2 s) during the run",
                     args.mpris_answers > 0, "%d answers" % args.mpris_answers)
    checks.check("notify delegate: dunst received notifications and is still running",
                 args.notifications > 0 and args.dunst_alive == "yes",
                 "%d notifications, dunst alive: %s" % (args.notifications, args.dunst_alive))

    resources = check_resources(checks, read_samples(args.samples), args.rss_bound_kib)
    resources["rss_bound_kib"] = args.rss_bound_kib

    reasons = {}
    for _, r, _ in reference:
        reasons[REASONS[r]] = reasons.get(REASONS[r], 0) + 1
    summary = {
        "passed": checks.passed, "tracks": n, "seconds": args.seconds, "status": args.status,
        "finished_events": len(reference), "finished_by_reason": reasons,
        "tracks_per_second": round(len(reference) / args.seconds, 1) if args.seconds else None,
        "chaos": {k: v for k, v in chaos_destroy.items() if k != "kind"},
        "stderr_lines": len(stderr), "dropped_lines": dropped, "resources": resources, "checks": checks.results,
        "machine": machine(), "work": w, "seed": args.seed, "threads": args.threads, "command": args.command,
    }
    print("soak: %s: %d tracks in %.1f s, %d track-finished events (%s), %s commands sent; RSS %s KiB at 20 %%, "
          "late max %s KiB, peak (VmHWM) %s KiB; fds %s -> %s; threads %s -> %s"
          % ("PASSED" if checks.passed else "FAILED", n, args.seconds, len(reference),
             ", ".join("%s %d" % kv for kv in sorted(reasons.items())), chaos_destroy.get("sent", "?"),
             resources.get("rss_at_20_kib"), resources.get("rss_max_late_kib"), resources.get("hwm_kib"),
             resources.get("fds_early"), resources.get("fds_late"), resources.get("threads_early"),
             resources.get("threads_late")))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(summary, f, indent=1)
    if args.report:
        write_report(args.report, summary, args.raw, args.commit)
    return 0 if checks.passed else 1


def write_report(path, s, raw, commit):
    kept = ""
    if os.path.exists(path):
        text = open(path, encoding="utf-8").read()
        if NOTES_MARK in text:
            kept = text.split(NOTES_MARK, 1)[1]
    m, r = s["machine"], s["resources"]
    commit = commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                      cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    lines = [
        "# Soak: %d short tracks, untimed, every bundled delegate and a chaos plugin" % s["tracks"], "",
        "Generated by `bench/soak.sh` (`make soak`); the part below the marker at the end is written by hand.", "",
        "**Result: %s.** %d tracks (0.2-0.5 s each) in %.1f s: %d track-finished events (%s), %s remote "
        "commands from %s threads (seed %s)."
        % ("every check passed" if s["passed"] else "FAILED", s["tracks"], s["seconds"], s["finished_events"],
           ", ".join("%s %d" % kv for kv in sorted(s["finished_by_reason"].items())), s["chaos"].get("sent", "?"),
           s["threads"], s["seed"]), "",
        "- Machine: %s CPUs (`nproc`), %s, %s RAM, Linux %s; commit %s, release build." % (
            m["nproc"], m["cpu"], m["memory"], m["kernel"], commit or "?"),
        "- Reproduce: `make soak` (or `SOAK_TRACKS=%d SOAK_SEED=%s bench/soak.sh` with a release build)." % (s["tracks"], s["seed"]),
        "- The player ran as (WORK: the run's private directory, on /dev/shm):", "", "```",
        s["command"].replace(os.path.dirname(s["command"].split()[0]) + "/", "BUILD/").replace(s.get("work") or "\0", "WORK")
        if s["command"] else "", "```", "",
        "## Checks", "", "| Check | | Detail |", "|---|---|---|",
    ]
    for c in s["checks"]:
        lines.append("| %s | %s | %s |" % (c["check"], "pass" if c["ok"] else "**FAIL**", c["detail"].replace("|", "/")))
    lines += ["", "Commands sent by the chaos instance (answers: accepted, refused, unsupported; the longest "
              "`send_command` call in microseconds):", "", "```",
              " ".join("%s=%s" % kv for kv in s["chaos"].items()), "```", ""]
    if r:
        lines += ["## Memory, descriptors, threads over the run", "",
                  "Sampled every ~0.5 s from `/proc/PID/status` (VmRSS, VmHWM), `/proc/PID/fd` and `/proc/PID/task` "
                  "(%d samples; raw TSV: `%s`)." % (r["samples"], raw), "",
                  "| % of run | s | tracks finished | RSS KiB | peak (HWM) KiB | fds | threads |", "|---|---|---|---|---|---|---|"]
        for c in r["curve"]:
            lines.append("| %d | %.1f | %d | %d | %d | %d | %d |" % (c["percent"], c["seconds"], c["finished"], c["rss_kib"],
                                                                     c["hwm_kib"], c["fds"], c["threads"]))
        lines += ["", "RSS at 20 %%: %d KiB; max over the last 80 %%: %d KiB (%+d KiB; bound %d KiB). Peak RSS (VmHWM): "
                  "%d KiB. Descriptors early/late max: %d/%d; threads %d/%d." % (
                      r["rss_at_20_kib"], r["rss_max_late_kib"], r["rss_growth_kib"], r["rss_bound_kib"], r["hwm_kib"],
                      r["fds_early"], r["fds_late"], r["threads_early"], r["threads_late"]), ""]
    if raw and os.path.exists(raw if os.path.isabs(raw) else os.path.join(ROOT, raw)):
        with open(raw if os.path.isabs(raw) else os.path.join(ROOT, raw)) as f:
            lines += ["<details><summary>The raw samples (TSV)</summary>", "", "```", f.read().rstrip("\n"), "```", "",
                      "</details>", ""]
    lines += [NOTES_MARK]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + (kept if kept else "\n"))


if __name__ == "__main__":
    sys.exit(main())
