// What a screen reader is told during a game (docs/SERVER.md, "On a phone, and for everyone at
// the table"; issue 38: the decision panel and the countdown were live regions, drawn again 509
// times in 30 s of play, and the log was never said). The page has one polite live region, made
// once (play.html's #announce), and it receives only new text: the game's new log lines, a few
// at a time, another person's chat message, and the decision that waits for this seat when it
// comes. The panels drawn again on every update are not live regions.

import { el } from "./util.js";

// Lines that come together are said together: a batch goes when no line came for QUIET_MS, or
// MAX_WAIT_MS after its first line while the bots play on; of a long batch the last MAX_LINES
// are said, after how many came before them (the log has them all, and is a Tab stop).
const QUIET_MS = 1200;
const MAX_WAIT_MS = 3000;
const MAX_LINES = 4;

const queue = [];
let timer = null;
let firstAt = 0;
let decision = ""; // the decision last said: its position and what it was
let active = false; // the page saw the game being played (its end is then said)

function flush(last = null) {
  clearTimeout(timer);
  timer = null;
  const lines = queue.splice(0);
  if (lines.length > MAX_LINES) {
    const earlier = lines.length - MAX_LINES;
    lines.splice(0, earlier, `${earlier} earlier line${earlier === 1 ? "" : "s"} in the log.`);
  }
  if (last) lines.push(last);
  const region = document.getElementById("announce");
  if (region && lines.length) region.replaceChildren(...lines.map((text) => el("p", {}, text)));
}

// New lines of the game's log (in the page's words), said politely once the burst is over.
export function sayLines(lines) {
  if (!lines.length) return;
  if (!queue.length) firstAt = Date.now();
  queue.push(...lines);
  clearTimeout(timer);
  const wait = Math.min(QUIET_MS, Math.max(0, firstAt + MAX_WAIT_MS - Date.now()));
  timer = setTimeout(() => flush(), wait);
}

// After each drawing of the page: when a decision waits for this seat (the same moment as the
// tab title's "Your move" and the chime), or the table is about to move for it on its own turn
// (a countdown it can stop), say so once, after the lines that led to it; say the end of a game
// the page saw being played.
export function sayDecision(G) {
  if (G.replay) return;
  if (G.status === "active") active = true;
  if (G.status === "finished" && active) {
    active = false;
    const title = document.getElementById("end-title");
    flush(title ? title.textContent : "The game is over.");
    return;
  }
  const auto = G.auto && G.decider === G.seat ? G.auto : null;
  const ownCountdown = auto && auto.grace > 0 && (auto.moment === "roll" || auto.moment === "end_turn");
  const waiting = G.status === "active" && G.myTurn && (!auto || ownCountdown);
  if (!waiting) return;
  const key = `${G.stateId}:${auto ? auto.action : ""}`;
  if (key === decision) return;
  decision = key;
  const prompt = (document.getElementById("prompt") || {}).textContent || "";
  const countdown = auto ? (document.querySelector("#auto-move > div") || {}).textContent || "" : "";
  flush(auto ? `${prompt} ${countdown}.` : `Your decision: ${prompt}`);
}
