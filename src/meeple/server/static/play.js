// The game page: one seat's (?token=...) or a spectator's view of a game, kept live over the
// WebSocket. The family module (monopoly.js, monopolis.js) draws the board and the controls;
// this module owns the connection, the state, the event log and sending actions.
import { api, ApiError, el, toast, PLAYER_COLORS } from "./util.js";

const $ = (id) => document.getElementById(id);
const gid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.search).get("token");
const LOG_LIMIT = 300;

const game = {
  id: gid,
  token,
  seat: null, // our seat, or null for a spectator
  seats: [],
  board: null,
  family: "",
  title: "",
  stateId: -1, // the position the view shows
  legalAt: -1, // the position the legal actions belong to
  status: "active",
  result: null,
  view: null,
  legal: [],
  busy: false,
  // What the server plays for our seat without asking (docs/SERVER.md, "Only real decisions
  // ask"): {action, text, moment, grace} or null; when it arrived; our settings and hold.
  auto: null,
  autoSince: 0,
  autoAt: -1,
  ask: null,
  held: false,
  lastLogged: -1,
  log: [],
  colors: PLAYER_COLORS,
  // The seat deciding now (-1 when the game is over).
  get decider() {
    if (!this.view || this.status === "finished") return -1;
    const d = this.view.decider ?? this.view.current_player;
    return typeof d === "number" ? d : -1;
  },
  get myTurn() {
    return this.seat !== null && this.decider === this.seat && this.legalAt === this.stateId;
  },
  name(seat) {
    const s = this.seats[seat];
    return s ? s.name : `Player ${seat + 1}`;
  },
  // The letter on a seat's token: its initial, or its number when initials clash.
  mark(seat) {
    const initial = (s) => this.name(s).trim().charAt(0).toUpperCase();
    const mine = initial(seat);
    const clash = this.seats.some((s) => s.seat !== seat && initial(s.seat) === mine);
    return clash || !mine ? String(seat + 1) : mine;
  },
  // Event texts say "Player 2"; show the seat's name instead.
  words(text) {
    return text.replace(/\bPlayer (\d+)\b/g, (m, n) => (this.seats[Number(n) - 1] ? this.name(Number(n) - 1) : m));
  },
  // Seconds left before the server moves on for us (0 when nothing is pending).
  autoLeft() {
    if (!this.auto || this.decider !== this.seat) return 0;
    return Math.max(0, this.auto.grace - (Date.now() - this.autoSince) / 1000);
  },
  act: (action) => act(action),
  hold: (on) => hold(on),
  setAsk: (ask) => setAsk(ask),
  rerender: () => render(null),
};

let renderer = null;

function fatal(message) {
  $("fatal-text").textContent = message;
  $("fatal").hidden = false;
  $("game").hidden = true;
  setConn("off", "offline");
}

function setConn(kind, text) {
  const c = $("conn");
  c.className = `pill ${kind}`;
  c.lastElementChild.textContent = text;
}

// ---- the event log (kept in sessionStorage so a reload shows it again) ----

function logKey() {
  return `meeple-log:${gid}:${game.seat === null ? "spectator" : game.seat}`;
}

function restoreLog() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(logKey()) || "null");
    if (saved && Array.isArray(saved.entries) && saved.lastLogged <= game.stateId) {
      game.log = saved.entries.slice(-LOG_LIMIT);
      game.lastLogged = saved.lastLogged;
    }
  } catch {
    game.log = [];
  }
}

function addLog(stateId, events) {
  if (stateId <= game.lastLogged) return;
  game.lastLogged = stateId;
  for (const text of events) game.log.push({ sid: stateId, text });
  if (game.log.length > LOG_LIMIT) game.log.splice(0, game.log.length - LOG_LIMIT);
  try {
    sessionStorage.setItem(logKey(), JSON.stringify({ lastLogged: game.lastLogged, entries: game.log }));
  } catch {
    /* storage full or disabled: the log just won't survive a reload */
  }
}

function renderLog() {
  const list = $("log");
  list.textContent = "";
  const shown = game.log.slice(-80).reverse();
  if (!shown.length) list.append(el("li", { class: "muted" }, game.stateId > 0 ? "New moves appear here as they happen." : "Nothing yet."));
  for (const e of shown) list.append(el("li", {}, el("span", { class: "sid" }, `#${e.sid}`), game.words(e.text)));
}

// ---- state ----

// Our seat's settings, hold and pending automatic move, from any message that has them.
function takeSeatState(m) {
  if (!("auto" in m) || game.seat === null) return;
  game.ask = m.ask;
  game.held = m.held;
  const was = game.auto;
  game.auto = m.auto;
  if (m.auto && !(was && was.action === m.auto.action && game.autoAt === m.state_id)) game.autoSince = Date.now();
  game.autoAt = m.state_id;
}

// A new position from the WebSocket or an action's answer; returns whether it was newer.
function ingest(m) {
  if (Array.isArray(m.events) && m.events.length) addLog(m.state_id, m.events);
  if (m.state_id < game.stateId) return false;
  if (m.state_id === game.stateId) {
    if ("auto" in m) { takeSeatState(m); render(null); }
    return false;
  }
  takeSeatState(m);
  const prev = game.view;
  game.stateId = m.state_id;
  game.status = m.status || game.status;
  if (m.result !== undefined) game.result = m.result;
  game.view = m.view;
  game.legal = [];
  game.legalAt = -1;
  render(prev);
  if (game.seat !== null && game.decider === game.seat) refreshView();
  return true;
}

let viewRequest = 0;

// The seat's view with its legal actions (the WebSocket update does not carry them).
async function refreshView() {
  const ticket = ++viewRequest;
  let v;
  try {
    v = game.token
      ? await api(`/api/games/${encodeURIComponent(gid)}/view?token=${encodeURIComponent(game.token)}`)
      : await api(`/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    toast(`Could not load the game: ${e.message}`, true);
    return;
  }
  if (ticket !== viewRequest || v.state_id < game.stateId) return;
  const prev = game.view;
  game.stateId = v.state_id;
  game.status = v.status;
  game.result = v.result;
  game.view = v.view;
  game.legal = v.legal_actions || [];
  game.legalAt = v.state_id;
  takeSeatState(v);
  render(prev);
}

// Hold the table to act first (or let it move on again); the server answers with our state.
async function hold(on) {
  if (game.seat === null) return;
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/hold`, {
      method: "POST", body: { token: game.token, hold: on },
    });
    if (r.held === on) takeSeatState({ ...r, state_id: game.stateId });
  } catch (e) {
    toast(e.message, true);
  }
  render(null);
}

// Change when we are asked; kept on the server for this seat.
async function setAsk(ask) {
  if (game.seat === null) return;
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/ask`, {
      method: "PUT", body: { token: game.token, ...ask },
    });
    takeSeatState({ ...r, state_id: game.stateId });
    toast("Saved: the table asks you as you chose.");
  } catch (e) {
    toast(e.message, true);
  }
  render(null);
}

async function act(action) {
  if (game.busy || game.seat === null) return;
  game.busy = true;
  render(null);
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/actions`, {
      method: "POST",
      body: { token: game.token, state_id: game.stateId, action },
    });
    game.busy = false;
    if (!ingest({ ...r, result: undefined })) render(null);
    if (r.status === "finished") refreshView();
  } catch (e) {
    game.busy = false;
    if (e instanceof ApiError && e.status === 409) toast("Someone moved first: here is the game as it is now.");
    else toast(e.message, true);
    await refreshView();
  }
}

// ---- drawing ----

function renderResult() {
  const box = $("result");
  const r = game.result;
  if (game.status !== "finished" || !r) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.className = "card result";
  box.textContent = "";
  const winners = r.winners.map((w) => game.name(w)).join(" and ");
  box.append(
    el("h2", {}, `Game over: ${winners} ${r.winners.length > 1 ? "share the win" : "wins"}`),
    el("p", { class: "muted small" }, `${String(r.end_reason).replaceAll("_", " ")} after ${r.turns} turns`),
    el("ol", { class: "small" }, r.ranking.map((s) => el("li", {}, `${game.name(s)}: ${r.scores[s]}`))),
  );
}

function render(prev) {
  if (!renderer || !game.view) return;
  renderer.render(game, prev);
  $("controls").hidden = game.status === "finished";
  renderResult();
  renderLog();
  alertTurn();
}

// The tab's title says when a decision waits for us (the turn alert), and the countdown of an
// automatic move ticks without redrawing the page.
function alertTurn() {
  const waiting = game.myTurn && !game.auto && game.status !== "finished";
  document.title = `${waiting ? "● Your move · " : ""}${game.title} · meeple`;
}

setInterval(() => {
  const left = game.autoLeft();
  const n = document.getElementById("auto-left");
  if (n) n.textContent = String(Math.ceil(left));
  const bar = document.getElementById("auto-bar");
  if (bar && game.auto) bar.style.width = `${(100 * left) / Math.max(0.001, game.auto.grace)}%`;
}, 100);

// ---- start ----

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = game.token ? `?token=${encodeURIComponent(game.token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(gid)}/ws${q}`);
  ws.onopen = () => setConn("live", "live");
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (m.type === "hello" || m.type === "update") ingest(m);
    else if (m.type === "seat" && m.state_id === game.stateId) { takeSeatState(m); render(null); }
  };
  ws.onclose = (e) => {
    if (e.code === 1008) {
      fatal(`The server refused this page: ${e.reason || "policy violation"}.`);
      return;
    }
    setConn("off", "reconnecting");
    setTimeout(connect, 1500);
  };
}

async function main() {
  let pub;
  try {
    pub = await api(`/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    fatal(e.status === 404 ? "There is no such game on this server." : `Could not load the game: ${e.message}`);
    return;
  }
  game.seats = pub.seats;
  try {
    game.board = await api(`/api/games/${encodeURIComponent(gid)}/board`);
  } catch (e) {
    fatal(`Could not load the board: ${e.message}`);
    return;
  }
  game.family = game.board.family;
  game.title = game.board.name || pub.game[0].toUpperCase() + pub.game.slice(1);
  let first = pub;
  if (game.token) {
    try {
      first = await api(`/api/games/${encodeURIComponent(gid)}/view?token=${encodeURIComponent(game.token)}`);
    } catch (e) {
      fatal(e.status === 403 ? "This link's token is not a seat of this game." : `Could not load your seat: ${e.message}`);
      return;
    }
    game.seat = first.seat;
    game.legal = first.legal_actions || [];
    game.legalAt = first.state_id;
    takeSeatState(first);
  }
  game.stateId = first.state_id;
  game.status = first.status;
  game.result = first.result;
  game.view = first.view;
  document.title = `${game.title} · meeple`;
  $("title").textContent = game.title;
  const who = $("who");
  if (game.seat === null) who.textContent = "Spectating";
  else {
    who.textContent = "";
    who.append(el("span", { class: "dot", style: `background:${PLAYER_COLORS[game.seat]}` }), `You are ${game.name(game.seat)}`);
  }
  restoreLog();
  renderer = await import(game.family === "monopolis" ? "./monopolis.js" : "./monopoly.js");
  renderer.setup(game, { board: $("board"), controls: $("controls"), players: $("players"), inspect: $("inspect") });
  $("game").hidden = false;
  render(null);
  connect();
}

main();
