// The lobby: create a game (any game id; each seat you, an invited person, a person with their
// own link, or a bot), show the links, list "Your games" (the seats this browser holds, from
// seats.js) and the open games. Everything goes through the JSON API (docs/SERVER.md).
import { api, el, inkOn, PLAYER_COLORS } from "./util.js";
import { forgetSeat, mySeats, rememberSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);
const NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"];
const MINE_LIMIT = 20;

let catalog = [];
let seats = [];
// The rule options the maker changed (name -> value), only those that differ from the chosen
// edition's value; sent as POST /api/games `rules` (GET /api/catalog lists each game's).
let ruleChoices = {};

function current() {
  return catalog.find((g) => g.game === $("game").value) || catalog[0];
}

const botTitle = (kind) => (kind === "mcts" ? "MCTS" : kind.charAt(0).toUpperCase() + kind.slice(1));

function defaultSeat(i) {
  if (i === 0) return { type: "you", name: "" };
  const g = current();
  return { type: "bot", bot: g.bots.includes("standard") ? "standard" : g.bots[0], name: "" };
}

function renderSeats() {
  const g = current();
  const box = $("seats");
  box.textContent = "";
  seats.forEach((s, i) => {
    const kind = el("select", { class: "seat-kind", "aria-label": `Seat ${i + 1} player`, dataset: { seat: i } },
      el("option", { value: "you" }, "You"),
      el("option", { value: "open" }, "Invite someone"),
      el("option", { value: "human" }, "Person (own link)"),
      g.bots.map((b) => el("option", { value: `bot:${b}` }, `Bot: ${b}`)));
    kind.value = s.type === "bot" ? `bot:${s.bot}` : s.type;
    kind.addEventListener("change", () => {
      const v = kind.value;
      if (v === "you") seats.forEach((o, k) => { if (o.type === "you") seats[k] = { type: "human", name: o.name }; });
      if (v.startsWith("bot:")) seats[i] = { type: "bot", bot: v.slice(4), name: "" };
      else seats[i] = { type: v, name: v === "open" ? "" : s.name };
      renderSeats();
    });
    const named = s.type === "you" || s.type === "human";
    const name = el("input", {
      class: "seat-name", maxlength: 40, "aria-label": `Seat ${i + 1} name`, disabled: !named,
      placeholder: named ? (s.type === "you" ? `Your name (${NAMES[i]})` : NAMES[i]) : s.type === "open" ? "they pick a name" : `${botTitle(s.bot)} bot (named by the server)`,
      value: named ? s.name : "",
    });
    name.addEventListener("input", () => { seats[i].name = name.value; });
    const remove = el("button", {
      type: "button", class: "small", title: "Remove this seat", "aria-label": `Remove seat ${i + 1}`,
      disabled: seats.length <= g.min_players,
      onclick: () => { seats.splice(i, 1); renderSeats(); },
    }, "✕");
    box.append(el("div", { class: "seat-row" },
      el("span", { class: "seat-no", style: `background:${PLAYER_COLORS[i]};color:${inkOn(PLAYER_COLORS[i])}` }, String(i + 1)),
      kind, name, remove));
  });
  $("add-seat").disabled = seats.length >= g.max_players;
  // Whoever fixes the seed can foresee every roll: fair only when one person plays.
  const people = seats.filter((s) => s.type !== "bot").length;
  const seed = $("seed");
  seed.disabled = people > 1;
  seed.placeholder = people > 1 ? "random (more than one person)" : "random";
  if (people > 1) seed.value = "";
  $("game-info").textContent = `${g.title}: ${g.min_players} to ${g.max_players} players.`;
}

// ---------------------------------------------------------------- house rules

const ruleValue = (o) => (o.name in ruleChoices ? ruleChoices[o.name] : o.default);

function chooseRule(o, value) {
  if (value === o.default) delete ruleChoices[o.name];
  else ruleChoices[o.name] = value;
  showRuleState();
}

function showRuleState() {
  const g = current();
  const changed = (g.rules || []).filter((o) => o.name in ruleChoices);
  $("rules-state").textContent = changed.length ? `${changed.length} changed: ${changed.map((o) => o.label).join(", ")}` : "as the rulebook says";
  $("rules-reset").disabled = changed.length === 0;
}

function ruleControl(o) {
  const id = `rule-${o.name}`;
  const help = el("div", { class: "muted small rule-help", id: `${id}-help` }, o.description);
  if (o.kind === "bool") {
    const box = el("input", { type: "checkbox", id, checked: ruleValue(o), "aria-describedby": `${id}-help`, dataset: { rule: o.name } });
    box.addEventListener("change", () => chooseRule(o, box.checked));
    return el("div", { class: "rule" }, el("label", { class: "check", for: id }, box, o.label), help);
  }
  if (o.kind === "choice") {
    const pick = el("select", { id, "aria-describedby": `${id}-help`, dataset: { rule: o.name } },
      o.choices.map((c, k) => el("option", { value: c }, o.choice_labels[k] || c)));
    pick.value = ruleValue(o);
    pick.addEventListener("change", () => chooseRule(o, pick.value));
    return el("div", { class: "rule" }, el("label", { for: id }, o.label), pick, help);
  }
  // A whole number: the browser holds the form back while it is out of range (min/max).
  const input = el("input", {
    type: "number", id, step: 1, min: o.minimum, max: o.maximum, value: ruleValue(o), required: true,
    inputmode: "numeric", "aria-describedby": `${id}-help`, dataset: { rule: o.name },
  });
  input.addEventListener("input", () => {
    if (input.value.trim() !== "" && Number.isInteger(Number(input.value))) chooseRule(o, Number(input.value));
  });
  return el("div", { class: "rule" }, el("label", { for: id }, o.label), input, help);
}

// The chosen game's rule options, grouped ("House rules", "Rulebook readings"), each at the
// value the maker chose or else the edition's; a game without any hides the section.
function renderRules() {
  const g = current();
  const options = g.rules || [];
  const offered = new Set(options.map((o) => o.name));
  // A choice carries over to another edition that offers the option (then it may equal that
  // edition's own value: dropped, so only real changes are sent).
  for (const name of Object.keys(ruleChoices)) {
    const o = options.find((x) => x.name === name);
    if (!offered.has(name) || ruleChoices[name] === o.default) delete ruleChoices[name];
  }
  $("house-rules").hidden = options.length === 0;
  const box = $("rule-options");
  box.textContent = "";
  for (const group of [...new Set(options.map((o) => o.group))]) {
    box.append(el("fieldset", { class: "rule-group" }, el("legend", {}, group),
      options.filter((o) => o.group === group).map(ruleControl)));
  }
  showRuleState();
}

function adaptSeats() {
  const g = current();
  seats = seats.map((s) => (s.type === "bot" && !g.bots.includes(s.bot) ? { ...s, bot: g.bots[0] } : s));
  while (seats.length < Math.min(4, g.max_players)) seats.push(defaultSeat(seats.length));
  while (seats.length > g.max_players) seats.pop();
  renderSeats();
  renderRules();
}

// A person is asked only for real decisions, as the game has people asked (the catalog's `ask`:
// meeple.kernel.asking.for_game; My First Monopoly's child rolls the die); the rest moves on by
// itself, with no countdown. Each player can change it on the game page.
function seatBody(s, i) {
  if (s.type === "bot") return { type: "bot", bot: s.bot };
  if (s.type === "open") return { type: "open" };
  return { type: "human", name: (s.name || NAMES[i]).trim() || NAMES[i], ask: current().ask };
}

async function create(ev) {
  ev.preventDefault();
  const err = $("create-error");
  err.hidden = true;
  const body = { game: $("game").value, seats: seats.map(seatBody), listed: $("listed").checked, hints: $("hints").checked };
  body.turn_timer = $("timer").value ? Number($("timer").value) : null; // off: none at all
  const seed = $("seed").value.trim();
  // As typed, digits in a string: Number() would round a seed above 2^53 (the API takes both).
  if (seed !== "" && !$("seed").disabled) body.seed = seed;
  if (Object.keys(ruleChoices).length) body.rules = { ...ruleChoices };
  $("create").disabled = true;
  try {
    const made = await api("/api/games", { method: "POST", body });
    const title = current().title;
    const you = seats.findIndex((s) => s.type === "you");
    const entry = { title, host: made.host_token, invite_url: made.invite_url };
    if (you >= 0) Object.assign(entry, { token: made.seats[you].token, seat: you, name: body.seats[you].name });
    rememberSeat(made.id, entry);
    showLinks(made, body, you);
    loadGames();
    loadMine();
  } catch (e) {
    err.textContent = `Could not create the game: ${e.message}`;
    err.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

function linkRow(label, color, url, testid, open = true) {
  const full = new URL(url, location.origin).href;
  const input = el("input", { readonly: true, value: full, "aria-label": `${label} link`, onfocus: (e) => e.target.select() });
  return el("div", { class: "link-row", dataset: { testid } },
    el("div", {},
      el("div", { class: "row" }, el("span", { class: "seat-no", style: `background:${color};color:${inkOn(color)}` }, label[0]), el("b", {}, label)),
      input),
    el("button", {
      type: "button", class: "small copy",
      onclick: async (e) => {
        try { await navigator.clipboard.writeText(full); e.target.textContent = "Copied"; } catch { input.select(); }
      },
    }, "Copy"),
    open ? el("a", { href: url, target: "_blank", rel: "noopener" }, el("button", { type: "button", class: "small primary" }, "Open")) : null);
}

function showLinks(made, body, you) {
  const box = $("links");
  box.textContent = "";
  if (you >= 0) {
    box.append(el("p", {}, el("a", { href: `/play/${made.id}`, id: "play-mine" }, el("button", { type: "button", class: "primary" }, `Play as ${body.seats[you].name}`))));
  }
  if (made.invite_url) box.append(linkRow("Invite link (for every free seat)", "#8a6d1d", made.invite_url, "invite-link", false));
  made.seats.forEach((s, i) => {
    if (s.url) box.append(linkRow(i === you ? `${body.seats[i].name} (you)` : body.seats[i].name, PLAYER_COLORS[i], s.url, `seat-link-${i}`));
  });
  const bots = body.seats.filter((s) => s.type === "bot").length;
  if (bots) box.append(el("p", { class: "muted small" }, `${bots} bot seat${bots > 1 ? "s" : ""}: played by the server.`));
  if (made.invite_url) box.append(el("p", { class: "muted small" }, "The game starts when you (the host) press Start on its page; seats still free then go to bots."));
  box.append(linkRow("Spectators", "#555", `/play/${made.id}`, "spectator-link"));
  $("created").hidden = false;
  $("created").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function ago(iso) {
  const t = Date.parse(iso.endsWith("Z") || iso.includes("+") ? iso : `${iso}Z`);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

const STATUS_WORDS = { waiting: "waiting for players", active: "in play", finished: "finished", cancelled: "cancelled" };

// The games this browser holds a seat (or the host's key) in, with where each stands now.
async function loadMine() {
  const entries = mySeats().slice(0, MINE_LIMIT);
  $("mine-card").hidden = entries.length === 0;
  if (!entries.length) return;
  const rows = await Promise.all(entries.map(async (e) => {
    try {
      return { e, g: await api(`/api/games/${encodeURIComponent(e.gid)}`) };
    } catch (err) {
      return { e, g: null, gone: err.status === 404 };
    }
  }));
  const box = $("mine");
  box.textContent = "";
  box.append(el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "You"), el("th", {}, "Now"), el("th", {}))),
    el("tbody", {}, rows.map(({ e, g, gone }) => {
      const yourMove = g && g.status === "active" && e.seat !== undefined && g.current_player === e.seat;
      const now = g ? (yourMove ? "your move" : STATUS_WORDS[g.status] || g.status) : gone ? "gone from this server" : "unreachable";
      return el("tr", { dataset: { game: e.gid } },
        el("td", {}, e.title || (g ? g.game : e.gid)),
        el("td", {}, e.name || (e.host ? "host" : "")),
        el("td", { class: yourMove ? "your-move" : "muted" }, now),
        el("td", { class: "row" },
          g ? el("a", { href: `/play/${e.gid}`, class: "resume" }, el("button", { type: "button", class: "small primary" }, g.status === "finished" || g.status === "cancelled" ? "Open" : "Resume")) : null,
          el("button", { type: "button", class: "small", title: "Forget this game in this browser", onclick: () => { forgetSeat(e.gid); loadMine(); } }, "Forget")));
    }))));
}

async function loadGames() {
  const box = $("games");
  let games;
  try {
    const [waiting, active] = await Promise.all([api("/api/games?status=waiting"), api("/api/games?status=active")]);
    games = [...waiting, ...active];
  } catch (e) {
    box.textContent = `Could not list the games: ${e.message}`;
    return;
  }
  box.textContent = "";
  if (!games.length) {
    box.append(el("p", { class: "muted" }, "No open games listed: create one (tick \u201cList it\u201d to show it here)."));
    return;
  }
  const title = (id) => (catalog.find((g) => g.game === id) || { title: id }).title;
  box.append(el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "Players"), el("th", { class: "hide-phone" }, "Moves"), el("th", { class: "hide-phone" }, "Started"), el("th", {}))),
    el("tbody", {}, games.map((g) => el("tr", { dataset: { game: g.id } },
      el("td", {}, title(g.game), g.status === "waiting" ? el("span", { class: "badge" }, "waiting") : null),
      el("td", {}, String(g.players)),
      el("td", { class: "hide-phone" }, String(g.state_id)),
      el("td", { class: "hide-phone muted" }, ago(g.created)),
      el("td", {}, el("a", { href: `/play/${g.id}`, class: "watch" }, "Watch")))))));
}

const minutes = (s) => (s % 60 ? `${s} s` : `${s / 60} min`);

// The table's timers, as the server gives every game (GET /api/timers): the turn timer the
// form starts at, and the words on what happens to someone who leaves.
async function showTimers() {
  let t;
  try {
    t = await api("/api/timers");
  } catch {
    return; // the words in the page stay: the server's usual values
  }
  const pick = $("timer");
  if (![...pick.options].some((o) => o.value === String(t.turn_timer))) {
    pick.prepend(el("option", { value: String(t.turn_timer) }, minutes(t.turn_timer)));
  }
  pick.value = String(t.turn_timer);
  $("away-help").textContent = t.away_timer
    ? `Someone who leaves (closes the page) is shown as away to everyone; when their turn comes, a bot plays for them after ${minutes(t.away_timer)}, and anyone at the table may hand their seat to a bot once they have been away ${minutes(t.handover_after)}. It is theirs again when they come back.`
    : `Someone who leaves (closes the page) is shown as away to everyone; anyone at the table may hand their seat to a bot once they have been away ${minutes(t.handover_after)}. It is theirs again when they come back.`;
}

async function main() {
  catalog = await api("/api/catalog");
  const select = $("game");
  const families = [...new Set(catalog.map((g) => g.family))];
  for (const f of families) {
    const group = el("optgroup", { label: f === "monopoly" ? "Monopoly" : f[0].toUpperCase() + f.slice(1) });
    for (const g of catalog.filter((x) => x.family === f)) group.append(el("option", { value: g.game }, g.title));
    select.append(group);
  }
  select.addEventListener("change", adaptSeats);
  $("add-seat").addEventListener("click", () => { seats.push(defaultSeat(seats.length)); renderSeats(); });
  $("rules-reset").addEventListener("click", () => { ruleChoices = {}; renderRules(); });
  $("create-form").addEventListener("submit", create);
  showTimers();
  $("refresh").addEventListener("click", () => { loadGames(); loadMine(); });
  adaptSeats();
  loadMine();
  loadGames();
  setInterval(loadGames, 15000);
  setInterval(loadMine, 15000);
}

main();
