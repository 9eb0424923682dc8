// The lobby: create a game (any game id, each seat a person or a bot), show the private links,
// list the open games. Everything goes through the JSON API (docs/SERVER.md).
import { api, el, PLAYER_COLORS } from "./util.js";

const $ = (id) => document.getElementById(id);
const NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"];
const BOT_NAMES = ["Ada", "Bolt", "Cog", "Dex", "Echo", "Flux", "Gizmo", "Hal"];
// A person is asked only for real decisions; the rest moves on after 2 s (each player can
// change this on the game page). meeple.kernel.asking.WEB_DEFAULT.
const ASK_DEFAULT = { others_turns: "never", own_turn: "build", grace: 2 };

let catalog = [];
let seats = [];

function current() {
  return catalog.find((g) => g.game === $("game").value) || catalog[0];
}

function defaultSeat(i) {
  return i === 0 ? { type: "human", name: "" } : { type: "bot", bot: current().bots.includes("standard") ? "standard" : current().bots[0], name: "" };
}

function renderSeats() {
  const g = current();
  const box = $("seats");
  box.textContent = "";
  seats.forEach((s, i) => {
    const kind = el("select", { class: "seat-kind", "aria-label": `Seat ${i + 1} player`, dataset: { seat: i } },
      el("option", { value: "human" }, "Person"),
      g.bots.map((b) => el("option", { value: `bot:${b}` }, `Bot: ${b}`)));
    kind.value = s.type === "human" ? "human" : `bot:${s.bot}`;
    kind.addEventListener("change", () => {
      if (kind.value === "human") seats[i] = { type: "human", name: s.type === "human" ? s.name : "" };
      else seats[i] = { type: "bot", bot: kind.value.slice(4), name: "" };
      renderSeats();
    });
    const name = el("input", {
      class: "seat-name", maxlength: 40, "aria-label": `Seat ${i + 1} name`,
      placeholder: s.type === "human" ? NAMES[i] : `${BOT_NAMES[i]} (${s.bot} bot)`, value: s.name,
    });
    name.addEventListener("input", () => { seats[i].name = name.value; });
    const remove = el("button", {
      type: "button", class: "small", title: "Remove this seat", "aria-label": `Remove seat ${i + 1}`,
      disabled: seats.length <= g.min_players,
      onclick: () => { seats.splice(i, 1); renderSeats(); },
    }, "✕");
    box.append(el("div", { class: "seat-row" },
      el("span", { class: "seat-no", style: `background:${PLAYER_COLORS[i]}` }, String(i + 1)),
      kind, name, remove));
  });
  $("add-seat").disabled = seats.length >= g.max_players;
  $("game-info").textContent = `${g.title}: ${g.min_players} to ${g.max_players} players.`;
}

function adaptSeats() {
  const g = current();
  seats = seats.map((s) => (s.type === "bot" && !g.bots.includes(s.bot) ? { ...s, bot: g.bots[0] } : s));
  while (seats.length < Math.min(4, g.max_players)) seats.push(defaultSeat(seats.length));
  while (seats.length > g.max_players) seats.pop();
  renderSeats();
}

async function create(ev) {
  ev.preventDefault();
  const err = $("create-error");
  err.hidden = true;
  const body = {
    game: $("game").value,
    seats: seats.map((s, i) => (s.type === "human"
      ? { type: "human", name: (s.name || NAMES[i]).trim() || NAMES[i], ask: ASK_DEFAULT }
      : { type: "bot", bot: s.bot, name: s.name.trim() || `${BOT_NAMES[i]} (${s.bot} bot)` })),
  };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  $("create").disabled = true;
  try {
    const made = await api("/api/games", { method: "POST", body });
    showLinks(made, body);
    loadGames();
  } catch (e) {
    err.textContent = `Could not create the game: ${e.message}`;
    err.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

function linkRow(label, color, url, testid) {
  const full = new URL(url, location.origin).href;
  const input = el("input", { readonly: true, value: full, "aria-label": `${label} link`, onfocus: (e) => e.target.select() });
  return el("div", { class: "link-row", dataset: { testid } },
    el("div", {},
      el("div", { class: "row" }, el("span", { class: "seat-no", style: `background:${color}` }, label[0]), el("b", {}, label)),
      input),
    el("button", {
      type: "button", class: "small copy",
      onclick: async (e) => {
        try { await navigator.clipboard.writeText(full); e.target.textContent = "Copied"; } catch { input.select(); }
      },
    }, "Copy"),
    el("a", { href: url, target: "_blank", rel: "noopener" }, el("button", { type: "button", class: "small primary" }, "Open")));
}

function showLinks(made, body) {
  const box = $("links");
  box.textContent = "";
  made.seats.forEach((s, i) => {
    const spec = body.seats[i];
    if (s.url) box.append(linkRow(spec.name, PLAYER_COLORS[i], s.url, `seat-link-${i}`));
  });
  const bots = body.seats.filter((s) => s.type === "bot").length;
  if (bots) box.append(el("p", { class: "muted small" }, `${bots} bot seat${bots > 1 ? "s" : ""}: played by the server.`));
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

async function loadGames() {
  const box = $("games");
  let games;
  try {
    games = await api("/api/games?status=active");
  } catch (e) {
    box.textContent = `Could not list the games: ${e.message}`;
    return;
  }
  box.textContent = "";
  if (!games.length) {
    box.append(el("p", { class: "muted" }, "No open games yet: create one."));
    return;
  }
  const title = (id) => (catalog.find((g) => g.game === id) || { title: id }).title;
  box.append(el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "Players"), el("th", { class: "hide-phone" }, "Moves"), el("th", { class: "hide-phone" }, "Started"), el("th", {}))),
    el("tbody", {}, games.map((g) => el("tr", { dataset: { game: g.id } },
      el("td", {}, title(g.game)),
      el("td", {}, String(g.players)),
      el("td", { class: "hide-phone" }, String(g.state_id)),
      el("td", { class: "hide-phone muted" }, ago(g.created)),
      el("td", {}, el("a", { href: `/play/${g.id}`, class: "watch" }, "Watch")))))));
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
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadGames);
  adaptSeats();
  loadGames();
  setInterval(loadGames, 15000);
}

main();
