// The end of a game (docs/SERVER.md, "The end of a game"): who won, the ranking with what makes
// up each net worth (Monopoly) or the score sheets (Monopolis), a chart of worth or points over
// the game, the key moments, the seed with the game's save file to verify it, the rematch, and
// the replay viewer that steps through the whole game on the page's own board.
//
// play.js calls renderEnd(game, box) on every render; the end screen is built once per finished
// game and only its moving parts (the rematch, the replay panel) are drawn again. The replay
// swaps the page's position (game.view, game.stateId, game.log) for the replayed one and asks
// play.js to render; leaving it puts the final position back.
import { api, el, svg, toast, inkOn } from "./util.js";
import { rememberSeat, seatOf } from "./seats.js";
import { watchScale } from "./fit.js";

let G = null; // the page's game (play.js)
let box = null; // the end screen's card
let story = null; // GET /api/games/{id}/history of the finished game
let storyFor = ""; // the game and position it was asked for
let storyError = "";
let built = ""; // the game and position the screen was built for
let replay = null; // {n, total, turn, events, decider, saved, ticket, timer}
let keysBound = false;
const parts = {}; // the screen's moving parts

const SEP = " · ";
const STEP_NAMES = {
  money: "Money (1 per 5)", board: "Player board", collections: "Collections", parks: "Parks", tiles: "Buildings and cubes",
};

// ---------------------------------------------------------------- helpers

function isMonopoly() {
  return G.family !== "monopolis";
}

function money(x) {
  const cur = (G.board && G.board.currency) || "";
  const abs = Math.abs(x).toLocaleString("en-US");
  return x < 0 ? `−${cur}${abs}` : `${cur}${abs}`;
}

function worthText(x) {
  return isMonopoly() ? money(x) : `${x}`;
}

// A compact axis label: $1.5k, $12k.
function shortMoney(x) {
  const cur = isMonopoly() ? (G.board && G.board.currency) || "" : "";
  const a = Math.abs(x);
  let s;
  if (a >= 10000) s = `${Math.round(a / 1000)}k`;
  else if (a >= 1000) s = `${(a / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  else s = String(a);
  return `${x < 0 ? "−" : ""}${cur}${s}`;
}

function token(seat, cls = "end-token") {
  const c = G.colors[seat];
  return el("span", { class: cls, style: `background:${c};color:${inkOn(c)}`, "aria-hidden": "true" }, G.mark(seat));
}

function finalStateId() {
  return replay ? replay.saved.stateId : G.stateId;
}

function place(i) {
  return ["1st", "2nd", "3rd"][i] || `${i + 1}th`;
}

// The rematch's page: play.js finds this browser's seat in it by itself, if it holds one.
function rematchLink(id) {
  return `/play/${encodeURIComponent(id)}`;
}

// Keep our seat's token in the rematch (a new one: the old game's opens nothing there).
function rememberRematch(id, token) {
  const held = seatOf(G.id) || {};
  const info = { token, seat: G.seat, name: G.name(G.seat), title: G.title };
  if (held.host) info.host = held.host; // the host's key carries over to the rematch
  rememberSeat(id, info);
}

// Our seat's token in the rematch: kept in this browser (the socket brought it, or this page
// started the rematch), else asked for once (POST /rematch gives each seat's once).
async function joinRematch(ev) {
  ev.preventDefault();
  const held = seatOf(G.rematch);
  if (!held || !held.token) {
    try {
      const r = await api(`/api/games/${encodeURIComponent(G.id)}/rematch`, { method: "POST", body: { token: G.token } });
      if (r.token) rememberRematch(r.id, r.token);
      else toast("Your seat's link in the rematch went to another of your pages; the host can give you a new one. You watch for now.", true);
    } catch (e) {
      toast(e.message, true);
      return;
    }
  }
  location.assign(rematchLink(G.rematch));
}

// ---------------------------------------------------------------- entry point

export function renderEnd(game, card) {
  G = game;
  box = card;
  const r = G.result;
  if (G.status !== "finished" || !r) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  document.getElementById("game")?.classList.add("ended");
  const key = `${G.id}:${finalStateId()}`;
  if (storyFor !== key) loadStory(key);
  if (built !== `${key}:${story ? "story" : storyError ? "error" : "wait"}`) build(key);
  drawRematch();
  drawReplay();
  bindKeys();
}

async function loadStory(key) {
  storyFor = key;
  story = null;
  storyError = "";
  try {
    const h = await api(`/api/games/${encodeURIComponent(G.id)}/history`);
    if (storyFor !== key) return;
    story = h;
  } catch (e) {
    if (storyFor !== key) return;
    storyError = e.message;
  }
  G.rerender();
}

function build(key) {
  built = `${key}:${story ? "story" : storyError ? "error" : "wait"}`;
  const r = G.result;
  box.className = "card result end";
  box.textContent = "";
  const winners = r.winners.map((w) => G.name(w)).join(" and ");
  parts.rematch = el("div", { class: "end-actions", id: "end-actions" });
  parts.replay = el("div", { class: "replay", id: "replay", role: "region", "aria-label": "Replay of the game", hidden: true });
  box.append(
    el("h2", { id: "end-title" }, `Game over: ${winners} ${r.winners.length > 1 ? "share the win" : "wins"}`),
    el("p", { class: "muted small", style: "margin: .25rem 0 .6rem" }, `${String(r.end_reason).replaceAll("_", " ")} after ${r.turns} turns`),
    parts.rematch,
    parts.replay,
  );
  if (storyError) {
    box.append(el("p", { class: "error small" }, `Could not load the game's story: ${storyError}`));
    box.append(ranking(null));
    return;
  }
  if (!story) {
    box.append(el("p", { class: "muted small", id: "end-loading" }, "Adding up the game…"));
    return;
  }
  box.append(ranking(story));
  box.append(el("h3", { class: "section-title" }, isMonopoly() ? "Net worth over the game" : "Points over the game"));
  box.append(chart(story));
  box.append(chancesSection(key));
  box.append(moments(story));
  box.append(verify(story));
  watchCharts(box);
}

// ---------------------------------------------------------------- the ranking

function bankruptSeats(h) {
  return new Set((h ? h.moments : []).filter((m) => m.kind === "bankrupt").map((m) => m.seats[0]));
}

function scoreOf(h, seat) {
  const r = G.result;
  const score = r.scores[seat];
  const rule = h && h.ranking_rule;
  if (!isMonopoly()) return [`${score}`, "points"];
  if (rule === "properties_then_cash") return [`${score}`, score === 1 ? "property" : "properties"];
  if (rule === "cash_then_properties") return [money(score), "cash"];
  return [money(score), "net worth"];
}

function ranking(h) {
  const r = G.result;
  const wrap = el("div", { class: "ranking-wrap" });
  wrap.append(el("h3", { class: "section-title" }, isMonopoly() ? "Ranking and net worth" : "Ranking and score sheet"));
  if (h && !isMonopoly() && h.sheets) {
    wrap.append(sheetTable(h));
    return wrap;
  }
  const worth = h && h.worth ? Object.fromEntries(h.worth.map((w) => [w.seat, w])) : {};
  const out = bankruptSeats(h);
  const gross = (w) => w.cash + w.deeds + w.buildings;
  const widest = Math.max(1, ...Object.values(worth).map(gross));
  if (h && h.worth) {
    wrap.append(el("div", { class: "worth-key small muted", "aria-hidden": "true" },
      el("span", {}, el("i", { class: "seg cash" }), "Cash"),
      el("span", {}, el("i", { class: "seg deeds" }), "Deeds"),
      el("span", {}, el("i", { class: "seg mort" }), "Mortgaged"),
      el("span", {}, el("i", { class: "seg build" }), "Buildings")));
  }
  const list = el("ol", { class: "ranking", id: "ranking" });
  r.ranking.forEach((seat, i) => {
    const w = worth[seat];
    const [score, label] = scoreOf(h, seat);
    const badges = [];
    if (r.winners.includes(seat)) badges.push(el("span", { class: "badge win" }, "winner"));
    if (out.has(seat) || (w && !w.alive)) badges.push(el("span", { class: "badge out" }, "bankrupt"));
    if (seat === G.seat) badges.push(el("span", { class: "badge you" }, "you"));
    const main = el("div", { class: "rank-main" }, el("div", { class: "rank-name" }, G.name(seat), badges));
    if (w) {
      const pct = (x) => `${(100 * Math.max(0, x)) / widest}%`;
      const mort = w.deeds ? Math.min(100, (100 * -w.mortgages) / w.deeds) : 0;
      main.append(el("div", { class: "worth-bar", "aria-hidden": "true" },
        el("i", { class: "seg cash", style: `width:${pct(w.cash)}` }),
        el("i", { class: "seg deeds", style: `width:${pct(w.deeds)}` }, mort > 0 ? el("i", { class: "seg mort", style: `width:${mort}%` }) : null),
        el("i", { class: "seg build", style: `width:${pct(w.buildings)}` })));
      const bits = [`Cash ${money(w.cash)}`, `Deeds ${money(w.deeds)} (${w.deed_count})`];
      if (G.board.rules && G.board.rules.buildings) {
        const names = G.board.names;
        const what = [w.houses ? `${w.houses} ${names.house}${w.houses === 1 ? "" : "s"}` : "", w.hotels ? `${w.hotels} ${names.hotel}${w.hotels === 1 ? "" : "s"}` : ""].filter(Boolean).join(", ");
        bits.push(`Buildings ${money(w.buildings)}${what ? ` (${what})` : ""}`);
      }
      if (w.mortgaged_count) bits.push(`Mortgages ${money(w.mortgages)} (${w.mortgaged_count})`);
      const sum = el("div", { class: "worth-parts small muted", dataset: { seat } }, bits.join(SEP));
      if (label !== "net worth") sum.append(`${SEP}Net worth ${money(w.net_worth)}`);
      main.append(sum);
    }
    list.append(el("li", { class: "rank-row", dataset: { seat } },
      el("span", { class: "place" }, place(i)),
      token(seat),
      main,
      el("div", { class: "rank-score" }, score, el("small", {}, label))));
  });
  wrap.append(list);
  return wrap;
}

function sheetTable(h) {
  const r = G.result;
  const sheets = Object.fromEntries(h.sheets.map((s) => [s.seat, s]));
  const order = r.ranking;
  const table = el("table", { class: "sheet", id: "score-sheet" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), order.map((s, i) =>
      el("th", { scope: "col" }, token(s), el("span", { class: "sheet-name" }, G.name(s)), el("small", {}, place(i)))))),
    el("tbody", {},
      h.steps.map((step) => el("tr", {}, el("th", { scope: "row" }, STEP_NAMES[step] || step), order.map((s) => el("td", {}, String(sheets[s][step]))))),
      el("tr", { class: "total" }, el("th", { scope: "row" }, "Total"), order.map((s) => el("td", {}, String(sheets[s].total))))));
  // It may scroll sideways (many players on a phone): a Tab stop, so the keyboard scrolls it.
  return el("div", { class: "sheet-wrap", role: "region", tabindex: 0, "aria-label": "Score sheet" }, table);
}

// ---------------------------------------------------------------- the chart

function niceStep(range, ticks) {
  const raw = range / Math.max(1, ticks);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// The charts' width in their own units: the end screen's width on screen in CSS px (at least
// 280, at most 560), so that a unit is a CSS px (or more, on a wide screen) and the type's
// sizes in style.css are its sizes on screen (issue 38: the ticks were 9.1 px on a desktop).
// A chart whose scale on screen changes (the window was resized) is drawn again (watchCharts).
function chartWidth() {
  const s = getComputedStyle(box);
  const inner = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  return Math.round(Math.max(280, Math.min(560, inner || 360)));
}

function watchCharts(within) {
  for (const chartSvg of within.querySelectorAll("svg.worth-chart")) {
    const scale = () => chartSvg.getBoundingClientRect().width / chartSvg.viewBox.baseVal.width;
    const drawn = scale();
    watchScale(chartSvg, scale, () => drawn, () => { if (chartSvg.isConnected) { built = ""; G.rerender(); } });
  }
}

function chart(h) {
  const pts = h.series.points;
  const seats = G.seats.map((s) => s.seat);
  const W = chartWidth(), H = 230, L = 54, R = 30, T = 12, B = 40;
  const pw = W - L - R, ph = H - T - B;
  const x0 = pts.length ? pts[0].turn : 1;
  const x1 = Math.max(x0 + 1, pts.length ? pts[pts.length - 1].turn : 2);
  let lo = 0, hi = 1;
  for (const p of pts) for (const v of p.values) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const X = (t) => L + ((t - x0) / (x1 - x0)) * pw;
  const Y = (v) => T + ph - ((v - lo) / (hi - lo || 1)) * ph;
  const unit = isMonopoly() ? "Net worth" : "Points";
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "worth-chart", id: "worth-chart", role: "img",
    "aria-label": `${unit} of each player over the game, turn by turn: ${seats.map((s) => `${G.name(s)} ends at ${worthText(pts.length ? pts[pts.length - 1].values[s] : 0)}`).join(", ")}. Click a turn to replay it.` });
  // Grid and axes
  for (let v = lo; v <= hi + step / 2; v += step) {
    root.append(svg("line", { x1: L, x2: L + pw, y1: Y(v), y2: Y(v), class: v === 0 ? "axis" : "grid" }));
    root.append(svg("text", { x: L - 5, y: Y(v) + 4, "text-anchor": "end", class: "tick" }, shortMoney(v)));
  }
  const xs = niceStep(x1 - x0, 5);
  for (let t = Math.ceil(x0 / xs) * xs; t <= x1; t += xs) {
    root.append(svg("line", { x1: X(t), x2: X(t), y1: T + ph, y2: T + ph + 4, class: "axis" }));
    root.append(svg("text", { x: X(t), y: T + ph + 15, "text-anchor": "middle", class: "tick" }, String(t)));
  }
  root.append(svg("line", { x1: L, x2: L, y1: T, y2: T + ph, class: "axis" }));
  root.append(svg("text", { x: L + pw / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" }, "Turn"));
  root.append(svg("text", { x: 11, y: T + ph / 2, "text-anchor": "middle", class: "axis-title", transform: `rotate(-90 11 ${T + ph / 2})` },
    isMonopoly() ? `Net worth (${(G.board && G.board.currency) || ""})` : "Points"));
  // Bankruptcies: a dotted line at their turn.
  for (const m of h.moments.filter((m) => m.kind === "bankrupt")) {
    root.append(svg("line", { x1: X(m.turn), x2: X(m.turn), y1: T, y2: T + ph, class: "chart-mark" }, svg("title", {}, G.words(m.text))));
  }
  // The lines, each ending in its seat's letter (not only colour tells them apart).
  const ends = [];
  for (const s of seats) {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${X(p.turn).toFixed(1)},${Y(p.values[s]).toFixed(1)}`).join("");
    root.append(svg("path", { d, class: "chart-line", stroke: G.colors[s], dataset: { seat: s } }));
    if (pts.length) ends.push({ s, x: X(pts[pts.length - 1].turn), y: Y(pts[pts.length - 1].values[s]) });
  }
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i].ly = Math.max(ends[i].y, (ends[i - 1].ly ?? ends[i - 1].y) + 19);
  if (ends.length) ends[0].ly = ends[0].y;
  const over = ends.length ? ends[ends.length - 1].ly - (T + ph + 6) : 0;
  if (over > 0) for (const e of ends) e.ly -= over;
  for (const e of ends) {
    const c = G.colors[e.s];
    const lx = e.x + 12;
    if (Math.abs(e.ly - e.y) > 1) root.append(svg("line", { x1: e.x, y1: e.y, x2: lx - 9, y2: e.ly, stroke: c, "stroke-width": 1 }));
    root.append(svg("g", { class: "chart-end", dataset: { seat: e.s } },
      svg("circle", { cx: lx, cy: e.ly, r: 9, fill: c, stroke: "#fff", "stroke-width": 1.5 }),
      svg("text", { x: lx, y: e.ly + 4.3, "text-anchor": "middle", fill: inkOn(c) }, G.mark(e.s))));
  }
  // Click (or tap) a turn to replay it.
  const hit = svg("rect", { x: L, y: T, width: pw, height: ph, fill: "transparent", class: "chart-hit" });
  hit.append(svg("title", {}, "Replay from this turn"));
  hit.addEventListener("click", (ev) => {
    const box = root.getBoundingClientRect();
    const vx = ((ev.clientX - box.left) / box.width) * W;
    const turn = x0 + ((vx - L) / pw) * (x1 - x0);
    let best = pts[0];
    for (const p of pts) if (Math.abs(p.turn - turn) < Math.abs(best.turn - turn)) best = p;
    if (best) openReplay(best.state_id, true);
  });
  root.append(hit);
  const legend = el("ul", { class: "legend", id: "chart-legend" }, seats.map((s) =>
    el("li", { dataset: { seat: s } }, el("i", { class: "legend-line", style: `background:${G.colors[s]}` }), token(s), G.name(s),
      el("b", {}, pts.length ? worthText(pts[pts.length - 1].values[s]) : ""))));
  return el("figure", { class: "chart" }, root, legend);
}

// ---------------------------------------------------------------- where the game was decided

// GET /chances: each seat's chance of winning over the game, from games the advisor played out
// (a few seconds of the server's time, asked once the screen is up and kept per game).
let chances = null;
let chancesFor = "";
let chancesLoad = null;

function chancesSection(key) {
  const wrap = el("div", { id: "chances" });
  wrap.append(el("h3", { class: "section-title" }, "Chance of winning over the game"));
  const body = el("div", {}, el("p", { class: "muted small" }, "Working out who was winning when…"));
  wrap.append(body);
  const draw = () => {
    body.textContent = "";
    if (chances.error) {
      body.append(el("p", { class: "muted small" }, `Not available: ${chances.error}`));
      return;
    }
    body.append(decidedText(chances), chanceChart(chances.points, chances.decided));
    watchCharts(body);
  };
  if (chancesFor !== key) {
    chancesFor = key;
    chances = null;
    chancesLoad = api(`/api/games/${encodeURIComponent(G.id)}/chances`)
      .then((c) => { chances = c; })
      .catch((e) => { chances = { error: e.message }; });
  }
  // Drawn once loaded, into whichever section is on the page then.
  chancesLoad.then(() => { if (chancesFor === key && body.isConnected) draw(); });
  return wrap;
}

// The turn a position falls in, from the story's series (one point per turn).
function turnAt(stateId) {
  let turn = 1;
  for (const p of story ? story.series.points : []) if (p.state_id <= stateId) turn = p.turn;
  return turn;
}

function decidedText(c) {
  const d = c.decided;
  const p = el("p", { class: "small", id: "decided" });
  if (!d) return p;
  const pct = (x) => `${Math.round(100 * x)}%`;
  const who = G.name(d.winner);
  p.append(el("b", {}, "Where the game was decided: "));
  if (d.turning) {
    const t = d.turning;
    const moment = (story ? story.moments : []).find((m) => m.state_id > t.from && m.state_id <= t.to);
    p.append(`around turn ${turnAt(t.to)}, when ${who} became the favourite for good (from ${pct(t.before)} to ${pct(t.after)})`,
      moment ? `: ${G.words(moment.text)}` : "", ".");
  } else p.append(`${who} was the favourite from the start.`);
  if (d.settled !== null) p.append(` From turn ${turnAt(d.settled)} on, ${who}'s chance never fell below 80%.`);
  p.append(el("span", { class: "muted" }, " Chances from games the advisor played out with standard bots from each point."));
  return p;
}

function chanceChart(pts, d) {
  const seats = G.seats.map((s) => s.seat);
  const W = chartWidth(), H = 200, L = 44, R = 12, T = 10, B = 34;
  const pw = W - L - R, ph = H - T - B;
  const x0 = pts.length ? pts[0].state_id : 0;
  const x1 = Math.max(x0 + 1, pts.length ? pts[pts.length - 1].state_id : 1);
  const X = (n) => L + ((n - x0) / (x1 - x0)) * pw;
  const Y = (v) => T + ph - v * ph;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "worth-chart", id: "chance-chart", role: "img",
    "aria-label": `Each player's chance of winning over the game: ${seats.map((s) => `${G.name(s)} from ${Math.round(100 * (pts[0] ? pts[0].chances[s] : 0))}% to ${Math.round(100 * (pts.length ? pts[pts.length - 1].chances[s] : 0))}%`).join(", ")}. Click a point to replay it.` });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { x1: L, x2: L + pw, y1: Y(v), y2: Y(v), class: v === 0 ? "axis" : "grid" }));
    root.append(svg("text", { x: L - 5, y: Y(v) + 4, "text-anchor": "end", class: "tick" }, `${100 * v}%`));
  }
  root.append(svg("line", { x1: L, x2: L, y1: T, y2: T + ph, class: "axis" }));
  root.append(svg("text", { x: L + pw / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" }, "Turn"));
  const ticks = 5;
  for (let k = 0; k <= ticks; k++) {
    const n = x0 + ((x1 - x0) * k) / ticks;
    root.append(svg("text", { x: X(n), y: T + ph + 15, "text-anchor": "middle", class: "tick" }, String(turnAt(n))));
  }
  if (d && d.turning) {
    root.append(svg("rect", { x: X(d.turning.from), y: T, width: Math.max(2, X(d.turning.to) - X(d.turning.from)), height: ph, class: "chance-swing" },
      svg("title", {}, "Where the game was decided")));
  }
  for (const s of seats) {
    const path = pts.map((p, i) => `${i ? "L" : "M"}${X(p.state_id).toFixed(1)},${Y(p.chances[s]).toFixed(1)}`).join("");
    root.append(svg("path", { d: path, class: "chart-line", stroke: G.colors[s], dataset: { seat: s } }));
  }
  const hit = svg("rect", { x: L, y: T, width: pw, height: ph, fill: "transparent", class: "chart-hit" });
  hit.append(svg("title", {}, "Replay from this point"));
  hit.addEventListener("click", (ev) => {
    const b = root.getBoundingClientRect();
    const n = x0 + ((((ev.clientX - b.left) / b.width) * W - L) / pw) * (x1 - x0);
    let best = pts[0];
    for (const p of pts) if (Math.abs(p.state_id - n) < Math.abs(best.state_id - n)) best = p;
    if (best) openReplay(best.state_id, true);
  });
  root.append(hit);
  return el("figure", { class: "chart" }, root);
}

// ---------------------------------------------------------------- key moments

function moments(h) {
  const wrap = el("div", {});
  wrap.append(el("h3", { class: "section-title" }, "Key moments"));
  if (!h.moments.length) {
    wrap.append(el("p", { class: "muted small" }, "Nothing stood out."));
    return wrap;
  }
  wrap.append(el("ol", { class: "moments", id: "moments" }, h.moments.map((m) =>
    el("li", {}, el("button", {
      type: "button", class: "moment", dataset: { stateId: m.state_id, kind: m.kind },
      title: `Replay move ${m.state_id}`, onclick: () => openReplay(m.state_id, true),
    }, el("span", { class: "moment-when" }, `Turn ${m.turn}`),
    // (A title its text starts with, "Game over", is not read twice.)
    el("b", { "aria-hidden": m.text.startsWith(m.title) ? "true" : null }, m.title),
    el("span", { class: "moment-text" }, G.words(m.text)))))));
  return wrap;
}

// ---------------------------------------------------------------- replay and verify

function verify(h) {
  const wrap = el("div", { id: "verify" });
  wrap.append(el("h3", { class: "section-title" }, "Replay and verify"));
  // The seed as the server's digits (`seed_text`): a 64-bit seed read as a JavaScript number
  // is rounded above 2^53, and a rounded seed replays another game.
  const seed = h.seed_text ?? null;
  if (seed === null) return wrap;
  const file = `meeple-${G.id}.json`;
  wrap.append(el("p", { class: "small" }, "Every die and card came from the seed ", el("code", { id: "seed" }, seed),
    ". ", el("a", { href: `/api/games/${encodeURIComponent(G.id)}/save`, download: file, id: "save-link" }, "Download the game"),
    " (the seed and every move) and run ", el("code", {}, `meeple replay ${file}`),
    ": it plays the game again from the seed and prints each move and the winner."));
  const changed = h.rules_changed || [];
  if (changed.length) {
    wrap.append(el("p", { class: "small", id: "rules-changed" }, "Played with these rules changed (the file keeps them): ",
      changed.join("; "), "."));
  }
  return wrap;
}

// ---------------------------------------------------------------- the rematch

function drawRematch() {
  const row = parts.rematch;
  if (!row) return;
  row.textContent = "";
  if (G.rematch) {
    const mine = G.seat !== null && G.token;
    row.append(el("a", { class: "button primary", id: "join-rematch", href: rematchLink(G.rematch), onclick: mine ? joinRematch : null },
      mine ? "Join the rematch" : "Watch the rematch"));
  } else if (G.seat !== null && G.token) {
    row.append(el("button", { type: "button", class: "primary", id: "rematch", title: "The same seats and players, a new seed", onclick: startRematch }, "Rematch"));
  }
  if (!replay) row.append(el("button", { type: "button", id: "replay-open", onclick: () => openReplay(0, true) }, "Replay the game"));
}

async function startRematch(ev) {
  ev.target.disabled = true;
  try {
    const r = await api(`/api/games/${encodeURIComponent(G.id)}/rematch`, { method: "POST", body: { token: G.token } });
    G.rematch = r.id;
    if (r.token) rememberRematch(r.id, r.token);
    location.assign(rematchLink(r.id));
  } catch (e) {
    ev.target.disabled = false;
    toast(e.message, true);
  }
}

// ---------------------------------------------------------------- the replay viewer

export function openReplay(n, show = false) {
  if (!replay) {
    replay = {
      n: -1, total: finalStateId(), turn: null, events: [], decider: -1, ticket: 0, timer: null,
      saved: { view: G.view, stateId: G.stateId, log: G.log },
    };
    G.replay = replay;
    document.getElementById("game")?.classList.add("replaying");
    document.body.classList.add("replaying");
  }
  if (show) {
    const board = document.getElementById("board");
    if (board && window.innerWidth <= 980) board.scrollIntoView({ block: "start" });
  }
  goTo(n);
}

export function closeReplay() {
  if (!replay) return;
  clearTimeout(replay.timer);
  const { saved } = replay;
  replay = null;
  G.replay = null;
  G.view = saved.view;
  G.stateId = saved.stateId;
  G.log = saved.log;
  document.getElementById("game")?.classList.remove("replaying");
  document.body.classList.remove("replaying");
  G.rerender();
}

// Show position n at once (the slider and the number), then the board when it arrives; when
// several steps come quickly, only the last one is fetched and drawn.
function goTo(n, wait = 0) {
  if (!replay) return;
  n = Math.max(0, Math.min(replay.total, n));
  replay.want = n;
  const ticket = ++replay.ticket;
  clearTimeout(replay.timer);
  drawReplay();
  replay.timer = setTimeout(async () => {
    let r;
    try {
      r = await api(`/api/games/${encodeURIComponent(G.id)}/replay/${n}`);
    } catch (e) {
      toast(`Could not replay move ${n}: ${e.message}`, true);
      return;
    }
    if (!replay || ticket !== replay.ticket) return;
    replay.n = n;
    replay.events = r.events;
    replay.mover = r.mover;
    replay.move = r.move;
    replay.decider = r.current_player;
    replay.turn = r.view.turn_no ?? (r.view.turns !== undefined ? r.view.turns + 1 : null);
    G.view = r.view;
    G.stateId = n;
    G.log = r.events.map((text) => ({ sid: n, text }));
    G.rerender();
  }, wait);
}

function step(d) {
  if (replay) goTo((replay.want ?? replay.n) + d);
}

function drawReplay() {
  const panel = parts.replay;
  if (!panel) return;
  const at = replay ? String(replay.want ?? replay.n) : "";
  for (const b of box.querySelectorAll(".moment")) b.classList.toggle("now", b.dataset.stateId === at);
  if (!replay) {
    panel.hidden = true;
    panel.textContent = "";
    return;
  }
  const n = replay.want ?? replay.n;
  const total = replay.total;
  let slider = panel.querySelector("#replay-slider");
  if (!slider) {
    panel.textContent = "";
    slider = el("input", { type: "range", id: "replay-slider", min: 0, max: total, step: 1, value: n, "aria-label": "Move" });
    slider.setAttribute("aria-valuetext", `Move ${n} of ${total}`);
    slider.addEventListener("input", () => goTo(Number(slider.value), 60));
    const btn = (id, label, text, fn) => el("button", { type: "button", id, "aria-label": label, title: label, onclick: fn }, text);
    panel.append(
      el("div", { class: "replay-head" },
        el("b", {}, "Replay"),
        el("span", { id: "replay-pos", class: "small" }),
        el("button", { type: "button", class: "small", id: "replay-close", onclick: closeReplay }, "Back to the end")),
      slider,
      el("div", { class: "replay-buttons" },
        btn("replay-first", "First move", "«", () => goTo(0)),
        btn("replay-back", "Back one move", "◀ Back", () => step(-1)),
        btn("replay-forward", "Forward one move", "Forward ▶", () => step(1)),
        btn("replay-last", "Last move", "»", () => goTo(total))),
      // The move's events: the replay's live region (a screen reader says each move once, with
      // its place in the game), and a Tab stop, as it scrolls.
      el("ul", { class: "replay-events small", id: "replay-events", tabindex: 0, "aria-label": "The move", "aria-live": "polite" }));
  }
  panel.hidden = false;
  if (Number(slider.value) !== n) slider.value = String(n);
  slider.setAttribute("aria-valuetext", `Move ${n} of ${total}`);
  const turn = replay.n === n && replay.turn !== null ? `${SEP}Turn ${replay.turn}` : "";
  panel.querySelector("#replay-pos").textContent = `Move ${n} of ${total}${turn}`;
  panel.querySelector("#replay-back").disabled = n <= 0;
  panel.querySelector("#replay-first").disabled = n <= 0;
  panel.querySelector("#replay-forward").disabled = n >= total;
  panel.querySelector("#replay-last").disabled = n >= total;
  // Drawn again only when the move it shows changes (it is a live region).
  const list = panel.querySelector("#replay-events");
  const shows = replay.n === n ? String(n) : "";
  if (list.dataset.shows === shows) return;
  list.dataset.shows = shows;
  list.textContent = "";
  if (replay.n !== n) {
    list.append(el("li", { class: "muted", "aria-hidden": "true" }, "…"));
    return;
  }
  list.append(el("li", { class: "visually-hidden" }, `Move ${n} of ${total}${replay.turn !== null ? `, turn ${replay.turn}` : ""}.`));
  if (n === 0) list.append(el("li", { class: "muted" }, "The game begins."));
  else {
    const what = replay.move === null ? "works on a trade offer (private until it is made)" : `: ${G.words(replay.move)}`;
    list.append(el("li", { class: "replay-move" }, el("b", {}, G.name(replay.mover)), replay.move === null ? ` ${what}` : what));
    for (const t of replay.events) list.append(el("li", {}, G.words(t)));
  }
  if (replay.n === n && replay.decider >= 0) list.append(el("li", { class: "muted" }, `Next: ${G.name(replay.decider)} decides.`));
}

function bindKeys() {
  if (keysBound) return;
  keysBound = true;
  document.addEventListener("keydown", (e) => {
    if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const typing = t && (t.id === "replay-slider" || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName));
    if (typing && e.key !== "Escape") return; // the slider moves itself with the arrows
    const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0), End: () => goTo(replay.total), Escape: closeReplay };
    const f = moves[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  });
}
