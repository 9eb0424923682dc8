// The game page: one seat's or a spectator's view of a game, kept live over the
// WebSocket. The family module (monopoly.js, monopolis.js) draws the board and the controls;
// this module owns the connection, the state, the event log and sending actions.
import { api, ApiError, el, toast, PLAYER_COLORS } from "./util.js";
import { rememberSeat, seatOf, forgetSeat } from "./seats.js";
import { renderEnd } from "./end.js";
import { sayLines, sayDecision } from "./announce.js";

const $ = (id) => document.getElementById(id);
const gid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
// A seat's link carries its token in the #fragment (never sent to the server, never in a
// Referer); older links in ?token=. The page keeps it in this browser (seats.js) and takes it
// out of the address bar, so a shared screenshot or a copied address holds no key. A later
// visit to /play/ID finds it there.
function takeToken() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token") || new URLSearchParams(location.search).get("token");
  if (fromLink) {
    history.replaceState(null, "", location.pathname);
    return { token: fromLink, fromLink: true };
  }
  const held = seatOf(gid);
  return { token: held && held.token ? held.token : null, fromLink: false };
}
const { token, fromLink } = takeToken();
// A seat's link opened over this page (the same address, only its #fragment new: the browser
// does not load the page again): load it again, so the link's seat is taken.
window.addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).get("token")) location.reload();
});
const hostKey = (seatOf(gid) || {}).host || null;

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
  proxy: null, // our standing bid limit in the open auction
  // Who is here and the timers (docs/SERVER.md, "A table that never stalls"): the seats'
  // presence as of seatsAt, the running timer as of timerAt (both Date.now()), and the game's
  // timers ({turn, away, handover} seconds).
  seatsAt: Date.now(),
  timer: null,
  timerAt: 0,
  timers: null,
  lastLogged: -1,
  logFirst: 1, // the first position the loaded log covers
  log: [],
  colors: PLAYER_COLORS,
  rematch: null, // the id of this game's rematch, once someone started it
  replay: null, // while the end screen replays the game (end.js): the live position is kept aside
  // The seat deciding now (-1 when the game is over).
  get decider() {
    if (!this.view || (this.status === "finished" && !this.replay)) return -1;
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
  // A bot's name without its mark, "Ada" for "Ada (bot)" (server/names.py), where space is
  // short or a "bot" badge follows: the board's owner labels and the players list.
  short(seat) {
    return this.name(seat).replace(/ \(bot\)$/, "");
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
  // Seconds since the person in `seat` was last here (null: here now, or not a person).
  awayFor(seat) {
    const s = this.seats[seat];
    if (!s || s.type !== "human" || s.connected !== false || typeof s.away_for !== "number") return null;
    return s.away_for + (Date.now() - this.seatsAt) / 1000;
  },
  // Seconds before the standard bot plays the deciding person's seat (null: no timer runs).
  timerLeft() {
    if (!this.timer || this.timer.seat !== this.decider || this.status !== "active") return null;
    return Math.max(0, this.timer.left - (Date.now() - this.timerAt) / 1000);
  },
  // A person's presence for the players' list: "here" or "away 2:05" (null for bots and us).
  presence(seat) {
    const s = this.seats[seat];
    if (!s || s.type !== "human" || seat === this.seat) return null;
    return ticker("span", { class: "badge presence", dataset: { presence: seat } }, (node) => {
      const away = this.awayFor(seat);
      node.classList.toggle("away", away !== null);
      node.title = away === null ? "Their page is open" : "No page of theirs is open";
      return `${away === null ? "here" : `away ${duration(away)}`}${s.stand_in ? " · a bot plays" : ""}`;
    });
  },
  // "Waiting for Hana (away 40 s): a bot plays for Hana in 12 s", kept up to date.
  waitingFor(seat) {
    return ticker("span", { class: "waiting-for", dataset: { waiting: seat } }, () => {
      const away = this.awayFor(seat);
      const left = this.timerLeft();
      const name = this.name(seat);
      return `Waiting for ${name}${away === null ? "" : ` (away ${duration(away)})`}${left === null ? "…" : `: a bot plays for ${name} in ${duration(left)}`}`;
    });
  },
  // Seconds left before the server moves on for us (0 when nothing is pending).
  autoLeft() {
    if (!this.auto || this.decider !== this.seat) return 0;
    return Math.max(0, this.auto.grace - (Date.now() - this.autoSince) / 1000);
  },
  act: (action) => act(action),
  hold: (on) => hold(on),
  setProxy: (limit) => setProxy(limit),
  explain: (action) => explain(action),
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

// "45 s", "2:05" (minutes and seconds), "3 h".
function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return `${Math.floor(s / 3600)} h`;
}

// Texts that change with time alone (how long someone has been away, a timer running down):
// each made by a function of its node, redrawn every 100 ms without redrawing the page; an
// empty text hides the node. Not announced as they tick (aria-live off, inside the decision
// panel's live region): a screen reader reads them where they stand.
let ticking = [];

function ticker(tag, attrs, text) {
  const node = el(tag, { ...attrs, "aria-live": "off" });
  const t = { node, text };
  tick(t);
  ticking.push(t);
  return node;
}

function tick(t) {
  const words = t.text(t.node);
  if (t.node.textContent !== words) t.node.textContent = words;
  t.node.hidden = !words;
}

// A message's seats (their presence as of now) and running timer, when it has them.
function takeTable(m) {
  if (Array.isArray(m.seats)) {
    game.seats = m.seats;
    game.seatsAt = Date.now();
  }
  if ("timer" in m) {
    game.timer = m.timer;
    game.timerAt = Date.now();
  }
  if (m.timers) game.timers = m.timers;
}

// ---- the event log: the game's own, from the first move (GET /log), the same for everyone ----

const LOG_PAGE = 200;

const flatten = (entries) => entries.flatMap((e) => e.events.map((text) => ({ sid: e.state_id, text })));

// The newest page of the log, merged with whatever live updates arrived meanwhile.
async function loadLog() {
  let r;
  try {
    r = await api(`/api/games/${encodeURIComponent(gid)}/log?limit=${LOG_PAGE}`);
  } catch (e) {
    toast(`Could not load the log: ${e.message}`, true);
    return;
  }
  const newer = game.log.filter((e) => e.sid > r.state_id);
  game.log = [...flatten(r.entries), ...newer];
  game.lastLogged = Math.max(game.lastLogged, r.state_id);
  game.logFirst = r.first;
  renderLog();
}

// One page further back.
async function earlierLog() {
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/log?limit=${LOG_PAGE}&before=${game.logFirst}`);
    game.log = [...flatten(r.entries), ...game.log];
    game.logFirst = r.first;
  } catch (e) {
    toast(`Could not load the log: ${e.message}`, true);
  }
  renderLog();
}

// A bot's reason for its move (the update's "why": Bot.explain) joins the log when the person
// asked for reasons ("Say why bots move", kept in this browser).
const WHY_KEY = "meeple.why";
const wantWhy = () => localStorage.getItem(WHY_KEY) === "1";

// New lines are said by a screen reader (announce.js), but not those a connection's hello
// brings: they happened before.
function addLog(stateId, events, why, say) {
  if (stateId <= game.lastLogged) return;
  game.lastLogged = stateId;
  const added = events.map((text) => ({ sid: stateId, text }));
  if (why && wantWhy()) added.push({ sid: stateId, text: `Why: ${why}.`, why: true });
  game.log.push(...added);
  if (say) sayLines(added.map((e) => game.words(e.text)));
}

function renderLog() {
  const list = $("log");
  list.textContent = "";
  const shown = game.log.slice().reverse();
  if (!shown.length) list.append(el("li", { class: "muted" }, game.stateId > 0 ? "Loading the log…" : "Nothing yet."));
  for (const e of shown) list.append(el("li", e.why ? { class: "why" } : {}, el("span", { class: "sid" }, `#${e.sid}`), game.words(e.text)));
  if (game.logFirst > 1) {
    list.append(el("li", { class: "more" }, el("button", { type: "button", class: "small", id: "log-earlier", onclick: earlierLog }, `Show earlier moves (1 to ${game.logFirst - 1})`)));
  }
}

// ---- the chat: stored with the game, for everyone who watches; people may write ----

const chatSeen = new Set();

function addChat(m) {
  if (chatSeen.has(m.id)) return;
  chatSeen.add(m.id);
  const list = $("chat");
  const empty = list.querySelector(".muted");
  if (empty) empty.remove();
  // The seat's colour as a dot: as the name's colour it was under WCAG AA on white.
  const dot = PLAYER_COLORS[m.seat] ? el("span", { class: "dot", style: `background:${PLAYER_COLORS[m.seat]}`, "aria-hidden": "true" }) : null;
  list.prepend(el("li", { dataset: { id: m.id } }, dot, el("b", {}, m.name), ": ", m.text));
}

// The host muted someone, removed them from the chat (their messages hidden for everyone) or
// let them back: the chat is read again, and our own box says so when it is about us.
function reloadChat() {
  chatSeen.clear();
  $("chat").textContent = "";
  loadChat();
}

function showChatStanding() {
  const mine = game.seat !== null ? game.seats[game.seat] : null;
  const standing = mine ? mine.chat : null;
  $("chat-text").disabled = $("chat-send").disabled = !!standing;
  $("chat-text").placeholder = standing === "muted" ? "The host muted you in this chat"
    : standing === "removed" ? "The host removed you from this chat" : "Say something to the table";
}

async function loadChat() {
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/chat?after=-1&limit=100`);
    if (!r.messages.length && !$("chat").childElementCount) $("chat").append(el("li", { class: "muted" }, "No messages yet."));
    for (const m of r.messages) addChat(m);
  } catch (e) {
    toast(`Could not load the chat: ${e.message}`, true);
  }
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text || game.seat === null) return;
  try {
    addChat(await api(`/api/games/${encodeURIComponent(gid)}/chat`, { method: "POST", body: { token: game.token, text } }));
    input.value = "";
  } catch (e) {
    toast(e.message, true);
  }
}

// ---- state ----

// Our seat's settings, hold and pending automatic move, from any message that has them.
function takeSeatState(m) {
  if (!("auto" in m) || game.seat === null) return;
  game.ask = m.ask;
  game.held = m.held;
  game.proxy = m.proxy ?? null;
  const was = game.auto;
  game.auto = m.auto;
  if (m.auto && !(was && was.action === m.auto.action && game.autoAt === m.state_id)) game.autoSince = Date.now();
  game.autoAt = m.state_id;
}

// A new position from the WebSocket or an action's answer; returns whether it was newer.
function ingest(m) {
  if (game.replay) return false; // the game is over: a reconnect's hello brings nothing new
  if (Array.isArray(m.events) && m.events.length) addLog(m.state_id, m.events, m.why, m.type !== "hello");
  if (m.state_id < game.stateId) return false;
  if (m.state_id === game.stateId) {
    if ("auto" in m) { takeSeatState(m); render(null); }
    return false;
  }
  takeSeatState(m);
  takeTable(m);
  const prev = game.view;
  game.stateId = m.state_id;
  game.status = m.status || game.status;
  if (m.result !== undefined) game.result = m.result;
  game.view = m.view;
  // A seat's update carries its choices when it decides; a spectator's has none to carry.
  game.legal = Array.isArray(m.legal_actions) ? m.legal_actions : [];
  game.legalAt = Array.isArray(m.legal_actions) ? m.state_id : -1;
  render(prev);
  if (game.seat !== null && game.decider === game.seat && game.legalAt !== game.stateId) refreshView();
  return true;
}

let viewRequest = 0;

// GET /view for our seat. The token rides in a header, never in the URL: a URL ends up in
// access logs.
async function seatView() {
  const r = await fetch(`/api/games/${encodeURIComponent(gid)}/view`, {
    headers: { authorization: `Bearer ${game.token}` },
  });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

// The seat's view with its legal actions (on loading, after a refusal, or for an update that
// did not carry them).
async function refreshView() {
  const ticket = ++viewRequest;
  let v;
  try {
    v = game.token
      ? await seatView()
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
  takeTable(v);
  render(prev);
}

// A request about our own seat (hold, ask settings, a standing bid): the server answers with
// the seat's state, which the page takes; a refusal is shown.
async function seatRequest(path, method, body, done) {
  if (game.seat === null) return;
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/${path}`, {
      method, body: { token: game.token, ...body },
    });
    // An answer older than the position on the page is stale: the update after it carried
    // the seat's state already (a move the table made at once, say).
    if (r.state_id >= game.stateId) takeSeatState(r);
    if (done) toast(done);
  } catch (e) {
    toast(e.message, true);
  }
  render(null);
}

// Hold the table to act first (or let it move on again).
const hold = (on) => seatRequest("hold", "POST", { hold: on });
// "Bid for me up to N" in the open auction (null: stop).
const setProxy = (limit) => seatRequest("proxy", "POST", { limit });
// Change when we are asked; kept on the server for this seat.
const setAsk = (ask) => seatRequest("ask", "PUT", ask, "Saved: the table asks you as you chose.");

// Why a control is off: the engine's reason for refusing that action now.
async function explain(action) {
  if (game.seat === null) return;
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/why`, {
      method: "POST", body: { token: game.token, actions: [action] },
    });
    const why = r.reasons[action];
    // (The table's own reason may start "not now: ..." already: said once.)
    const reason = why ? game.words(why).replace(/^not now:\s*/i, "") : "";
    toast(why ? `Not now: ${reason}.` : "You can do that now.", !!why);
  } catch (e) {
    toast(e.message, true);
  }
}

// An action goes on the game's socket once the socket is this seat's (`socket.ws`, set by the
// seat's hello: one message, no new request; docs/SERVER.md, "WebSocket"), else by POST. Its
// update arrives before its answer.
const socket = { ws: null, ref: 0, waiting: new Map() };

function sendOnSocket(action) {
  const ref = ++socket.ref;
  return new Promise((resolve, reject) => {
    socket.waiting.set(ref, { resolve, reject });
    socket.ws.send(JSON.stringify({ type: "act", action, state_id: game.stateId, ref }));
  });
}

function answered(m) {
  const waiter = socket.waiting.get(m.ref);
  if (!waiter) return;
  socket.waiting.delete(m.ref);
  if (m.type === "acted") waiter.resolve(m);
  else waiter.reject(new ApiError(m.status, { detail: m.detail }));
}

function socketLost() {
  for (const waiter of socket.waiting.values()) {
    waiter.reject(new ApiError(0, { detail: "the connection was lost: here is the game as it is now" }));
  }
  socket.waiting.clear();
}

async function act(action) {
  if (game.busy || game.seat === null) return;
  game.busy = true;
  render(null);
  try {
    let r;
    if (socket.ws && socket.ws.readyState === WebSocket.OPEN) {
      r = await sendOnSocket(action); // its update, already taken, drew the page
      game.busy = false;
      render(null);
    } else {
      r = await api(`/api/games/${encodeURIComponent(gid)}/actions`, {
        method: "POST",
        body: { token: game.token, state_id: game.stateId, action },
      });
      game.busy = false;
      if (!ingest({ ...r, result: undefined })) render(null);
    }
    if (r.status === "finished") refreshView();
  } catch (e) {
    game.busy = false;
    if (e instanceof ApiError && e.status === 409) toast("Someone moved first: here is the game as it is now.");
    else toast(e.message, true);
    await refreshView();
  }
}

// ---- drawing ----

// The end screen and the replay viewer (end.js), once the game is over.
function renderResult() {
  renderEnd(game, $("result"));
}

// ---- the table: waiting for players, the host's controls, a seat handed to a bot ----

async function tableCall(path, body, done) {
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/${path}`, { method: "POST", body });
    if (r && r.seats) { takeTable(r); game.status = r.status; }
    if (done) toast(done);
  } catch (e) {
    toast(e.message, true);
  }
  render(null);
}

// A seat's new link the host asked for (POST /reissue), shown in the host panel to pass on.
let newLink = "";

// The host's controls of a person besides handing the seat to a bot: a new link (the old one
// stops at once: a link that went astray) and the chat (mute, remove, let back).
function hostSeatControls(s) {
  const out = [];
  if (s.seat === game.seat) return out; // the host's own seat: nothing to moderate
  out.push(el("button", {
    type: "button", class: "small", dataset: { newLink: s.seat }, title: "The link they have stops working; pass the new one on",
    onclick: async () => {
      if (!confirm(`Give ${s.name}'s seat a new link? The one they have stops working.`)) return;
      try {
        const r = await api(`/api/games/${encodeURIComponent(gid)}/reissue`, { method: "POST", body: { token: hostKey, seat: s.seat } });
        newLink = new URL(r.url, location.origin).href;
        toast(`${s.name}'s seat has a new link: pass it on.`);
      } catch (e) {
        toast(e.message, true);
      }
      render(null);
    },
  }, "New link"), " ");
  const choice = (value, label) => el("button", {
    type: "button", class: "small", dataset: { chat: value || "allowed", chatSeat: s.seat },
    onclick: () => tableCall("moderate", { host_token: hostKey, seat: s.seat, chat: value }, value ? `${s.name}: ${label.toLowerCase()}.` : `${s.name} may chat again.`),
  }, label);
  if (s.chat) out.push(el("span", { class: "muted small" }, s.chat === "muted" ? "(muted) " : "(removed from chat) "), choice(null, "Let chat"));
  else out.push(choice("muted", "Mute"));
  if (s.chat !== "removed") out.push(" ", choice("removed", "Remove from chat"));
  return out;
}

function renderTable() {
  const box = $("table");
  // The table is drawn anew on every update: a host panel the host opened stays open (it
  // closed at the next bot move, under the host's pointer).
  const hostOpen = !!(document.getElementById("host-panel") || {}).open;
  box.textContent = "";
  const me = game.seat;
  const mine = me !== null ? game.seats[me] : null;
  const parts = [];
  if (game.status === "waiting") {
    const free = game.seats.filter((s) => s.type === "open").length;
    parts.push(el("h2", {}, "Waiting for players"));
    parts.push(el("ul", { class: "seat-list", id: "waiting-seats" }, game.seats.map((s) =>
      el("li", {}, el("span", { class: "dot", style: `background:${PLAYER_COLORS[s.seat]}` }),
        s.type === "open" ? el("span", { class: "muted" }, `Seat ${s.seat + 1}: free`) : `${s.name}${s.seat === me ? " (you)" : ""}`))));
    const entry = seatOf(gid) || {};
    if (hostKey && entry.invite_url) {
      const link = new URL(entry.invite_url, location.origin).href;
      const input = el("input", { readonly: true, value: link, id: "invite-link", "aria-label": "Invite link", onfocus: (e) => e.target.select() });
      parts.push(el("p", { class: "small" }, "Send this link to the people you invite: each picks a free seat and a name."));
      parts.push(el("div", { class: "bid-box" }, input, el("button", {
        type: "button", onclick: async (e) => { try { await navigator.clipboard.writeText(link); e.target.textContent = "Copied"; } catch { input.select(); } },
      }, "Copy")));
    }
    if (hostKey) {
      parts.push(el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", id: "host-start", onclick: () => tableCall("start", { host_token: hostKey }, "The game has started.") },
          free ? `Start now (${free} free seat${free > 1 ? "s" : ""} to bots)` : "Start the game"),
        el("button", { type: "button", class: "danger", id: "host-cancel", onclick: () => confirm("Cancel this game for everyone?") && tableCall("cancel", { host_token: hostKey }, "The game is cancelled.") }, "Cancel the game")));
    } else {
      parts.push(el("p", { class: "muted small" }, "The host starts the game when everyone is here."));
    }
  } else if (game.status === "cancelled") {
    parts.push(el("h2", {}, "Cancelled"), el("p", { id: "cancelled" }, "The host cancelled this game. It is kept as a record; nobody can play in it."));
  } else if (game.status === "active") {
    if (mine && mine.stand_in) {
      parts.push(el("div", { class: "notice", id: "stand-in" }, "A bot is playing your seat for now. ",
        el("button", { type: "button", class: "primary", id: "take-back", onclick: () => tableCall("stand-in", { token: game.token, seat: me, on: false }, "Your seat is yours again.") }, "Take my seat back")));
    }
    if (mine && !mine.stand_in && urgent()) {
      parts.push(ticker("div", { class: "notice", id: "my-timer" }, () =>
        `Decide within ${duration(game.timerLeft() || 0)}, or a bot plays for you until you take your seat back.`));
    }
    // Someone away: any person at the table may let a bot play for them once they have been
    // away a short while; they take their seat back by coming back (docs/SERVER.md).
    if (mine) {
      for (const s of game.seats) {
        if (s.seat === me || s.type !== "human" || s.stand_in || game.awayFor(s.seat) === null) continue;
        const ready = handoverReady(s.seat);
        parts.push(el("div", { class: "notice away-notice", dataset: { away: s.seat } },
          ticker("span", {}, () => `${s.name} is away (${duration(game.awayFor(s.seat) || 0)}). `),
          el("button", {
            type: "button", class: "small", disabled: !ready, dataset: { handover: s.seat },
            title: ready ? "" : `A bot may play for them once they have been away ${duration(game.timers ? game.timers.handover : 0)}`,
            onclick: () => tableCall("stand-in", { token: game.token, seat: s.seat, on: true }, `A bot plays for ${s.name} until they are back.`),
          }, `Let a bot play for ${s.name}`)));
      }
    }
    if (hostKey) {
      const people = game.seats.filter((s) => s.type === "human");
      const panel = el("details", { class: "host", id: "host-panel" }, el("summary", {}, "Host"),
        el("ul", { class: "seat-list" }, people.map((s) => el("li", {},
          el("span", { class: "dot", style: `background:${PLAYER_COLORS[s.seat]}` }), `${s.name}${s.stand_in ? " (a bot plays)" : ""} `,
          el("button", {
            type: "button", class: "small", dataset: { seat: s.seat },
            onclick: () => tableCall("stand-in", { token: hostKey, seat: s.seat, on: !s.stand_in }, s.stand_in ? `${s.name} plays again.` : `A bot plays for ${s.name}.`),
          }, s.stand_in ? "Give back" : "Hand to a bot"), " ",
          ...hostSeatControls(s)))),
        newLink ? el("div", { class: "bid-box", id: "new-link-box" },
          el("input", { readonly: true, value: newLink, id: "new-link", "aria-label": "The seat's new link", onfocus: (e) => e.target.select() }),
          el("button", { type: "button", onclick: async (e) => { try { await navigator.clipboard.writeText(newLink); e.target.textContent = "Copied"; } catch { $("new-link").select(); } } }, "Copy")) : null,
        el("button", { type: "button", class: "danger small", id: "host-cancel", onclick: () => confirm("Cancel this game for everyone?") && tableCall("cancel", { host_token: hostKey }, "The game is cancelled.") }, "Cancel the game"));
      panel.open = hostOpen;
      parts.push(panel);
    }
  }
  box.hidden = parts.length === 0;
  box.append(...parts);
  showChatStanding();
}

// Whether our own decision's timer is near its end (the page says so from the last minute on).
function urgent() {
  const left = game.timerLeft();
  return game.seat !== null && game.decider === game.seat && left !== null && left <= 60;
}

// Whether the person in `seat` has been away long enough for another to hand their seat over.
function handoverReady(seat) {
  const away = game.awayFor(seat);
  return away !== null && !!game.timers && away >= game.timers.handover;
}

// What the page draws differently as time alone passes; drawn again when it changes.
function timeState() {
  return JSON.stringify([urgent(), game.seats.map((s) => handoverReady(s.seat))]);
}

let drawnTimeState = "";

function render(prev) {
  if (!renderer || !game.view) return;
  drawnTimeState = timeState();
  renderTable();
  renderer.render(game, prev);
  $("controls").hidden = game.status !== "active";
  renderHint();
  renderResult();
  renderLog();
  alertTurn();
  sayDecision(game);
}

// ---- the advisor (POST /hint): each choice's chance of winning, at our own decision ----

// The answer belongs to the position it was asked at; a newer position clears it.
const hint = { at: -1, asking: -1, data: null };

function renderHint() {
  const card = $("hint-card");
  const open = game.hints && game.myTurn && game.status === "active" && !game.replay;
  card.hidden = !open;
  if (!open) return;
  const fresh = hint.at === game.stateId ? hint.data : null;
  const asking = hint.asking === game.stateId;
  $("hint").disabled = asking || !!fresh;
  $("hint").textContent = asking ? "Thinking…" : "Hint";
  const note = fresh
    ? `Chance to win against standard play (${fresh.rollouts} games played out; bars: 95% range).`
    : "What are my chances with each choice?";
  if ($("hint-note").textContent !== note) $("hint-note").textContent = note; // a live region: new text only
  const list = $("hint-list");
  list.replaceChildren();
  if (!fresh) return;
  for (const o of fresh.options) {
    const pct = (x) => `${(100 * x).toFixed(0)}%`;
    list.append(el("li", { class: o.best ? "best" : "" },
      el("span", { class: "hint-text" }, `${o.best ? "★ " : ""}${game.words(o.text)}${!o.best && o.close ? " (≈ as good)" : ""}`),
      el("span", { class: "hint-bar", role: "img", "aria-label": `${pct(o.win)} chance to win, from ${pct(o.low)} to ${pct(o.high)}` },
        el("span", { class: "range", style: `left:${100 * o.low}%;width:${Math.max(0.5, 100 * (o.high - o.low))}%` }),
        el("span", { class: "mark", style: `left:${100 * o.win}%` })),
      el("span", { class: "hint-pct" }, pct(o.win))));
  }
  if (fresh.note) list.append(el("li", { class: "small muted" }, fresh.note));
}

async function askHint() {
  const at = game.stateId;
  hint.asking = at;
  render(null);
  try {
    const r = await api(`/api/games/${encodeURIComponent(gid)}/hint`, {
      method: "POST", body: { token: game.token, state_id: at },
    });
    hint.at = r.state_id;
    hint.data = r;
  } catch (e) {
    if (game.stateId === at) toast(`No hint: ${e.message}`, true);
  }
  if (hint.asking === at) hint.asking = -1;
  render(null);
}

// The tab's title says when a decision waits for us (the turn alert), and the countdown of an
// automatic move ticks without redrawing the page.
let alerted = false;

function alertTurn() {
  const waiting = game.myTurn && !game.auto && game.status === "active";
  document.title = `${waiting ? "● Your move · " : ""}${game.title} · meeple`;
  if (waiting && !alerted && soundOn()) chime();
  alerted = waiting;
}

// The turn alert's sound, if the player turned it on (kept in this browser): two short notes
// made by the browser itself, no sound file to fetch.
const SOUND_KEY = "meeple-sound";
const soundOn = () => localStorage.getItem(SOUND_KEY) === "on";
let audio = null;

function chime() {
  try {
    audio = audio || new AudioContext();
    [660, 880].forEach((hz, k) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t = audio.currentTime + k * 0.16;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.15);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.16);
    });
  } catch {
    /* no audio here: the title still says it */
  }
}

function showSound() {
  const b = $("sound");
  b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  b.setAttribute("aria-label", soundOn() ? "Sound on: a chime when a decision waits" : "Sound off");
  b.lastElementChild.textContent = soundOn() ? "sound on" : "sound off";
}

setInterval(() => {
  if (renderer && game.view && timeState() !== drawnTimeState) render(null);
  ticking = ticking.filter((t) => t.node.isConnected);
  for (const t of ticking) tick(t);
  const left = game.autoLeft();
  const n = document.getElementById("auto-left");
  if (n) n.textContent = String(Math.ceil(left));
  const bar = document.getElementById("auto-bar");
  if (bar && game.auto) bar.style.width = `${(100 * left) / Math.max(0.001, game.auto.grace)}%`;
}, 100);

// ---- start ----

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(gid)}/ws`);
  // A seat's token goes in the first message, never in the URL (a URL ends up in logs). The
  // socket is a spectator's until the seat's hello answers it: skip the positions before.
  let ours = !game.token;
  ws.onopen = () => {
    if (game.token) ws.send(JSON.stringify({ type: "auth", token: game.token }));
    setConn("live", "live");
  };
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (!ours) {
      if (m.type === "hello" && m.seat !== null) {
        ours = true;
        socket.ws = ws; // the seat's socket now: actions go on it
      } else if (m.type === "hello" || m.type === "update" || m.type === "seat") return;
    }
    if (m.type === "acted" || m.type === "refused") { answered(m); return; }
    if (m.type === "hello" || m.type === "update") ingest(m);
    if (m.type === "hello") { takeTable(m); render(null); loadLog(); loadChat(); } // from the first move, and whatever a reconnection missed
    if (m.type === "chat") {
      // Another's new message is said (announce.js; the chat's history, loaded, is not).
      if (!chatSeen.has(m.id) && m.seat !== game.seat) sayLines([`${m.name}: ${m.text}`]);
      addChat(m);
    } else if (m.type === "seat" && m.state_id === game.stateId) { takeSeatState(m); render(null); }
    else if (m.type === "rematch") {
      // Our seat's token in the rematch rides in this message alone (the old one opens nothing
      // there): kept in this browser, so "Join the rematch" finds it.
      if (m.token && game.seat !== null) {
        const held = seatOf(gid) || {};
        rememberSeat(m.id, { token: m.token, seat: game.seat, name: game.name(game.seat), title: game.title, ...(held.host ? { host: held.host } : {}) });
      }
      game.rematch = m.id;
      render(null);
    } else if (m.type === "revoked") {
      // The seat got a new link: this page's opens nothing any more. Watch instead.
      forgetSeat(gid);
      game.token = null;
      game.seat = null;
      $("chat-form").hidden = true;
      $("who").textContent = "Spectating";
      toast("This seat has a new link: the one this page had opens it no more. You are watching.", true);
      render(null);
    } else if (m.type === "moderated") reloadChat();
    else if (m.type === "seats") {
      takeTable(m);
      game.status = m.status;
      if (game.status === "active" && game.seat !== null) refreshView();
      render(null);
    }
  };
  ws.onclose = (e) => {
    if (socket.ws === ws) socket.ws = null;
    socketLost();
    if (e.code === 1008) {
      fatal(`The server refused this page: ${e.reason || "policy violation"}.`);
      return;
    }
    setConn("off", "reconnecting");
    setTimeout(connect, 1500);
  };
}

async function main() {
  const whyBox = $("why-toggle");
  whyBox.checked = wantWhy();
  whyBox.addEventListener("change", () => localStorage.setItem(WHY_KEY, whyBox.checked ? "1" : "0"));
  let pub;
  try {
    pub = await api(`/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    fatal(e.status === 404 ? "There is no such game on this server." : `Could not load the game: ${e.message}`);
    return;
  }
  takeTable(pub);
  game.rematch = pub.rematch || null;
  game.hints = pub.hints !== false;
  $("hint").addEventListener("click", askHint);
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
      first = await seatView();
    } catch (e) {
      if (e.status === 403 && !fromLink) {
        // A seat this browser remembered is not valid any more: watch instead.
        forgetSeat(gid);
        game.token = null;
        toast("This browser's seat in this game is no longer valid: you are watching.", true);
      } else {
        fatal(e.status === 403 ? "This link's token is not a seat of this game." : `Could not load your seat: ${e.message}`);
        return;
      }
    }
  }
  if (game.token) {
    game.seat = first.seat;
    rememberSeat(gid, { token: game.token, seat: first.seat, name: game.name(first.seat), title: game.title });
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
  renderer = await import(game.family === "monopolis" ? "./monopolis.js" : "./monopoly.js");
  renderer.setup(game, { board: $("board"), controls: $("controls"), players: $("players") });
  $("game").hidden = false;
  for (const line of game.board.rules_summary || []) $("rules-list").append(el("li", {}, line));
  // The rules this game set that differ from its edition's (POST /api/games `rules`), shown
  // open: the summary above already reads them, but a player should not have to look.
  const changed = game.board.rules_changed || [];
  for (const line of changed) $("house-rules-list").append(el("li", {}, line));
  $("house-rules").hidden = changed.length === 0;
  $("chat-form").hidden = game.seat === null;
  $("sound").hidden = game.seat === null;
  showSound();
  $("sound").addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    showSound();
    if (soundOn()) chime(); // a sample, and browsers allow audio after a click
  });
  $("chat-form").addEventListener("submit", sendChat);
  render(null);
  connect();
}

main();
