"use strict";
// The now-playing page: one EventSource for the state, fetch() for commands. The clock is
// advanced here from the last event's elapsed, elapsedAt and rate, so nothing is polled.
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token");
const query = token ? "?token=" + encodeURIComponent(token) : "";
const words = { playing: "Playing", paused: "Paused", stopped: "Stopped", loading: "Loading", stalled: "Stalled", interrupted: "Interrupted" };
const stalledReasons = { "device-lost": "the sound device went away" };
const answers = { 409: "Motet refused that just now.", 429: "Motet is busy; try again.", 501: "This Motet does not know that command." };
const trackCommands = new Set(["like", "dislike", "unlike", "next", "previous", "seek"]);
let state = null;
let skew = 0;
let timer = 0;
let volumeHeld = false;
// The volume last asked for, until the player says it (or 2 s pass: it may have refused): the
// player's answers to the steps before it must not move the slider back under the user's keys.
let volumeWanted = null;
let volumeWantedAt = 0;

function clock(seconds) {
  if (seconds == null || !isFinite(seconds)) return "\u2013:\u2013\u2013";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = String(s % 60).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + x : m + ":" + x;
}

// Where the track is now: the sample plus the time since, at its rate, on the player's clock
// (the browser's clock minus its difference to the player's, measured when the event came).
function position() {
  if (!state || state.elapsed == null) return null;
  const now = Date.now() / 1000 - skew;
  let p = state.elapsed + (state.rate || 0) * Math.max(0, now - state.elapsedAt);
  if (state.duration != null) p = Math.min(p, state.duration);
  return p;
}

function tick() {
  const p = position(), bar = $("progress");
  $("elapsed").textContent = clock(p);
  if (state && state.duration) {
    bar.max = state.duration;
    bar.value = p || 0;
    bar.setAttribute("aria-valuetext", clock(p) + " of " + clock(state.duration));
  } else {
    bar.max = 1;
    bar.value = 0;
    bar.setAttribute("aria-valuetext", p == null ? "unknown" : clock(p));
  }
}

function stateText(s) {
  const word = words[s.state] || s.state;
  if (s.state === "stalled") {
    // The player's reason (stalledReason; a lost device is also an interruption): none is made up.
    const reason = s.stalledReason || s.interruption;
    if (reason === "buffering") return word + ": waiting for " + (s.url ? "the stream" : "data");
    return stalledReasons[reason] ? word + ": " + stalledReasons[reason] : word;
  }
  if (s.state === "interrupted") return word + " by the sound server";
  return word;
}

function show(s) {
  state = s;
  skew = Date.now() / 1000 - s.updatedAt;
  const playing = s.state === "playing" && s.rate > 0;
  const has = s.title != null;
  $("state").textContent = stateText(s);
  $("state").className = s.state;
  $("title").textContent = has ? s.title : "Nothing playing";
  $("artist").textContent = s.artist || "";
  $("album").textContent = s.album || "";
  $("station").textContent = s.station && s.station.name ? "Station: " + s.station.name : "";
  document.title = has ? s.title + (s.artist ? " \u2013 " + s.artist : "") + " \u00b7 Motet" : "Motet";
  $("duration").textContent = clock(s.duration);
  const art = $("art");
  if (s.artwork && s.artwork.id) {
    const src = "/artwork/" + s.artwork.id + query;
    if (art.getAttribute("src") !== src) art.src = src;
    art.alt = "Cover of " + (s.album || s.title || "this track");
    art.hidden = false;
    $("noart").hidden = true;
  } else {
    art.hidden = true;
    art.removeAttribute("src");
    $("noart").hidden = false;
  }
  // Sound is wanted while loading or stalled too: there the player's toggle pauses, so the button
  // offers Pause (interrupted, paused and stopped offer Play).
  const wanted = playing || s.state === "loading" || s.state === "stalled";
  const toggle = $("toggle");
  toggle.classList.toggle("playing", wanted);
  toggle.setAttribute("aria-label", wanted ? "Pause" : "Play");
  toggle.disabled = !has;
  $("previous").disabled = !s.previousTrackEnabled;
  const next = $("next");
  next.disabled = !s.nextTrackEnabled;
  // The player's own words for why (plugin ABI 1.3); an older player does not say.
  const why = s.nextTrackDisabledReason;
  const reason = has && !s.nextTrackEnabled ? "Next is off: " + (why || "not possible now") + "." : "";
  $("next-reason").textContent = reason;
  next.title = reason;
  for (const [id, on] of [["like", s.liked], ["dislike", s.disliked]]) {
    $(id).setAttribute("aria-pressed", on ? "true" : "false");
    $(id).disabled = !has;
  }
  if (!volumeHeld && s.volume != null) {
    const behind = volumeWanted != null && s.volume !== volumeWanted && Date.now() - volumeWantedAt < 2000;
    if (!behind) {
      volumeWanted = null;
      $("volume").value = s.volume;
    }
  }
  clearInterval(timer);
  timer = playing ? setInterval(tick, 250) : 0;
  tick();
}

async function command(name, value) {
  const body = { command: name };
  if (value != null) body.value = value;
  // Naming the track: a like or a skip meant for a song that has just ended is refused, not
  // applied to the next one. Play, pause and volume are for whatever plays.
  if (state && state.trackId != null && trackCommands.has(name)) body.track = state.trackId;
  $("message").textContent = "";
  try {
    const r = await fetch("/api/command" + query, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!r.ok) {
      const j = await r.json().catch(() => ({}));
      $("message").textContent = j.error || answers[r.status] || "Error " + r.status;
    }
  } catch (e) {
    $("message").textContent = "Motet cannot be reached.";
  }
}

$("toggle").addEventListener("click", () => command("toggle"));
$("previous").addEventListener("click", () => command("previous"));
$("next").addEventListener("click", () => command("next"));
$("like").addEventListener("click", () => command(state && state.liked ? "unlike" : "like"));
$("dislike").addEventListener("click", () => command(state && state.disliked ? "unlike" : "dislike"));
const volume = $("volume");
volume.addEventListener("input", () => { volumeHeld = true; });
// One volume command at a time, the latest value next: fetches sent at once may reach the player
// in another order (each on a connection of its own), and a key held down sends one per step.
let volumeSending = false;
async function sendVolume() {
  if (volumeSending) return;
  volumeSending = true;
  let sent = null;
  while (volumeWanted != null && volumeWanted !== sent) {
    sent = volumeWanted;
    await command("volume", sent);
  }
  volumeSending = false;
}
volume.addEventListener("change", () => {
  volumeHeld = false;
  volumeWanted = Number(volume.value);
  volumeWantedAt = Date.now();
  sendVolume();
});

const events = new EventSource("/api/events" + query);
events.addEventListener("now-playing", (e) => show(JSON.parse(e.data)));
events.addEventListener("error", () => {
  if (events.readyState !== EventSource.OPEN) $("state").textContent = "Reconnecting\u2026";
});
