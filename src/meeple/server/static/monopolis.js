// Monopolis' game page: the city around the castle with its requirement cards, the resource
// market, the tile supply, each player's board, and every decision as a control.
//
// Issue 38 (readable on a 390 px phone): the city is drawn from the part of the 7 x 7 grid in
// use (every tile and card, at least the castle's neighbours), so its cells are as large as the
// screen allows, and no text in it is drawn under MIN_PX CSS px (fit.js): where a cell has no
// room for a word at that size, a shorter word or none is drawn, and tapping the cell says it
// all in words under the city. The build choices are grouped by what they build, each named by
// where its card lies ("2 north, 1 east"), and the words come from the server (the view's
// `where`, `about` and `builds`: games/monopolis/describe.py, the terminal's words too).
import { el, svg, parseAction, inkOn, autoPanel } from "./util.js";
import { MIN_PX, textWidth, fitOne, watchScale } from "./fit.js";

const CELL = 120;
const PAD = 8;
const GRID = 7;
const MAX_PX = 1.25; // CSS px per unit at most: a small city is not drawn huge on a desktop
const KIND_COLORS = {
  castle: "#6b6f76", park: "#2f7d3a", residential: "#b35c00", business: "#2f6fc0",
  workplace: "#8a5a3c", special: "#8e3fae",
};
const KIND_NAMES = {
  castle: "Castle", park: "Park", residential: "Residential", business: "Business",
  workplace: "Workplace", special: "Special",
};
const KIND_SHORT = { residential: "Resid.", business: "Busin.", workplace: "Work", special: "Spec." };
const ICON_SHORT = { brick_wall: "wall", hot_air_balloon: "balloon" };
// Dark enough for white text on them (WCAG AA: 4.5 to 1).
const RES_COLORS = { wood: "#8d5a3b", iron: "#5f7282", tools: "#8c6a00", workers: "#4f5bb3" };

let G = null;
let dom = null;
let layers = null; // {root, dyn}
let win = null; // the part of the grid drawn: {c0, r0, cols, rows}
let unit = 1; // CSS px per city unit, as drawn
let floor = MIN_PX; // the smallest font, in city units
let family = "sans-serif";
let selected = -1; // the plot whose words are shown under the city

const resColor = (r) => RES_COLORS[r] || "#777";
const resMark = (r) => ({ workers: "P" }[r] || r.charAt(0).toUpperCase());
const words = (s) => s.replaceAll("_", " ");
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const near = (where) => where.replace(/ of the castle$/, "");
const fs = (size) => Math.max(size, floor);
const width = (text, size, weight = 700) => textWidth(text, size, weight, family);
const fit = (options, room, size, weight = 700) => fitOne(options, room, size, weight, family);

function legalActions() {
  if (!G.myTurn) return [];
  return G.legal.map((a) => ({ ...parseAction(a.action), label: G.words(a.text) }));
}

function button(a, label, cls = "") {
  return el("button", {
    type: "button", class: cls, disabled: !a || G.busy, dataset: { action: a ? a.text : "" },
    title: a ? a.label : undefined, onclick: () => a && G.act(a.text),
  }, label || (a ? cap(a.label) : ""));
}

function resChip(r, n) {
  return el("span", { class: `res ${r}`, style: `background:${resColor(r)}` }, n !== undefined ? `${n} ${r}` : r);
}

// ---------------------------------------------------------------- the city

// The columns and rows in use: every tile and card, and at least the castle's neighbours.
function windowOf(v) {
  let c0 = 2, c1 = 4, r0 = 2, r1 = 4;
  for (const p of [...v.city.map((t) => t.plot), ...v.requirement_cards.map((rc) => rc.plot)]) {
    const c = p % GRID, r = Math.floor(p / GRID);
    c0 = Math.min(c0, c); c1 = Math.max(c1, c); r0 = Math.min(r0, r); r1 = Math.max(r1, r);
  }
  return { c0, r0, cols: c1 - c0 + 1, rows: r1 - r0 + 1 };
}

const sizeOf = (w) => [w.cols * CELL + 2 * PAD, w.rows * CELL + 2 * PAD];

// CSS px per city unit: as drawn once the city is on screen, else as the page's layout will draw it.
function measuredUnit() {
  const [w, h] = sizeOf(win);
  const box = layers ? layers.root.getBoundingClientRect() : null;
  if (box && box.width > 0) return Math.min(box.width / w, box.height / h);
  const vw = window.innerWidth, vh = window.innerHeight;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 15;
  if (vw <= 980) return Math.min((vw - rem) / w, MAX_PX); // one column
  return Math.min((Math.min(vw, 1400) - 380 - 3 * rem) / w, (vh - 5.5 * rem) / h, MAX_PX);
}

function cellXY(plot) {
  return [PAD + ((plot % GRID) - win.c0) * CELL, PAD + (Math.floor(plot / GRID) - win.r0) * CELL];
}

// The grid's empty plots, for the part in use; the tiles and cards go in `layers.dyn`.
function drawCity() {
  family = getComputedStyle(dom.board).fontFamily || family;
  const [w, h] = sizeOf(win);
  const root = svg("svg", {
    viewBox: `0 0 ${w} ${h}`, role: "group", id: "city-svg", style: `max-width:${Math.round(w * MAX_PX)}px`,
    "aria-label": `The city around the castle, north up: ${win.cols} by ${win.rows} plots of the 7 by 7 grid`,
  });
  root.append(svg("rect", { x: 0, y: 0, width: w, height: h, rx: 10, fill: "#dfe9dc" }));
  const grid = svg("g", {});
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      grid.append(svg("rect", { x: PAD + c * CELL + 3, y: PAD + r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: "#eef3ec", stroke: "#c8d4c6", "stroke-dasharray": "4 4" }));
    }
  }
  root.append(grid);
  const dyn = svg("g", { id: "city" });
  root.append(dyn);
  layers = { root, dyn };
  dom.city.textContent = "";
  dom.city.append(root);
}

// Draw the city again when its size on screen changes enough to change the type.
function watchSize() {
  watchScale(dom.board, measuredUnit, () => unit, (u) => {
    unit = u;
    floor = MIN_PX / unit;
    drawCityState();
  });
}

function tileAbout(t) {
  const by = t.owner >= 0 ? `, built by ${G.name(t.owner)} (${plural(t.houses, "house")})` : "";
  const icons = t.icons.length ? `; ${t.icons.length === 1 ? "icon" : "icons"} ${t.icons.map(words).join(" and ")}` : "";
  const cubes = t.cubes ? `; ${plural(t.cubes, "cube")}, 1 point each` : "";
  if (t.kind === "castle") return "The castle, the heart of the city";
  return `${cap(t.name)} (${plural(t.value, "point")}), ${t.where}${by}${icons}${cubes}`;
}

function cardAbout(rc, a) {
  const you = rc.builds && a ? ` You can build here: ${rc.builds.options.map((o) => `pay ${o.payment} for ${o.words}`).join("; or ")}.` : "";
  return `${cap(rc.where)}: ${rc.about}: ${G.board.types[rc.card.type]}.${you}`;
}

function drawTile(g, t, x, y) {
  const c = KIND_COLORS[t.kind] || "#777";
  const ink = inkOn(c);
  g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: c, stroke: "#24302b", "stroke-width": 1.5 }));
  if (t.kind === "castle") {
    const s = fs(15);
    g.append(svg("path", { d: `M${x + 30} ${y + 100} v-40 h10 v10 h10 v-10 h20 v10 h10 v-10 h10 v40 z`, fill: "#d9dde2", stroke: "#24302b", "stroke-width": 1.5 }));
    g.append(svg("text", { x: x + CELL / 2, y: y + 10 + s * 0.9, "text-anchor": "middle", "font-size": s, fill: "#fff", class: "city-tile-label" }, "Castle"));
    return;
  }
  // The value, big, and the kind beside it when there is room.
  const vs = fs(26);
  g.append(svg("text", { x: x + 11, y: y + 8 + vs * 0.85, "font-size": vs, "font-weight": 800, fill: ink, class: "city-tile-label" }, String(t.value)));
  const ks = fs(11.5);
  const kind = fit([KIND_NAMES[t.kind], KIND_SHORT[t.kind] || ""].filter(Boolean), CELL - 30 - width(String(t.value), vs, 800), ks);
  if (kind) g.append(svg("text", { x: x + CELL - 10, y: y + 10 + ks * 0.9, "text-anchor": "end", "font-size": ks, fill: ink, class: "city-tile-label" }, kind));
  // The builder's houses (with the seat's letter) and the cubes, along the bottom.
  const hs = Math.max(20, fs(11) + 8);
  const base = y + CELL - 8 - hs;
  if (t.owner >= 0) {
    for (let k = 0; k < t.houses; k++) {
      const hx = x + 9 + k * (hs + 4);
      const oc = G.colors[t.owner];
      g.append(svg("rect", { class: "house", x: hx, y: base, width: hs, height: hs, rx: 3, fill: oc, stroke: "#fff", "stroke-width": 2 }));
      g.append(svg("text", { x: hx + hs / 2, y: base + hs / 2, "text-anchor": "middle", "dominant-baseline": "central", "font-size": fs(11), "font-weight": 800, fill: inkOn(oc) }, G.mark(t.owner)));
    }
  }
  if (t.cubes) {
    const cs = fs(11), label = `+${t.cubes}`, cw = width(label, cs, 800) + 8;
    g.append(svg("rect", { class: "cube", x: x + CELL - 9 - cw, y: base + (hs - cs - 6) / 2, width: cw, height: cs + 6, rx: 2, fill: "#fff", stroke: "#24302b" }));
    g.append(svg("text", { x: x + CELL - 9 - cw / 2, y: base + hs / 2, "text-anchor": "middle", "dominant-baseline": "central", "font-size": cs, "font-weight": 800, fill: "#1c2421" }, label));
  }
  // The collection icons between: named where a name fits, else a turquoise mark each.
  const is = fs(10.5), ih = is + 6;
  let top = y + 12 + vs;
  t.icons.forEach((icon, k) => {
    const name = fit([words(icon), ICON_SHORT[icon] || ""].filter(Boolean), CELL - 28, is);
    if (name && top + ih <= base - 3) {
      g.append(svg("rect", { x: x + 10, y: top, width: CELL - 20, height: ih, rx: ih / 2, fill: "#137a71" }));
      g.append(svg("text", { x: x + CELL / 2, y: top + ih / 2, "text-anchor": "middle", "dominant-baseline": "central", "font-size": is, fill: "#fff", "font-weight": 700 }, name));
      top += ih + 3;
    } else { // a mark per icon at the bottom right (tiles with icons have no cubes there)
      g.append(svg("circle", { cx: x + CELL - 17 - k * 15, cy: base + hs / 2, r: 6, fill: "#1fb5a8", stroke: "#fff", "stroke-width": 1.5 }));
    }
  });
}

function drawCard(g, rc, x, y, target) {
  const card = rc.card;
  g.append(svg("rect", { x: x + 9, y: y + 7, width: CELL - 18, height: CELL - 14, rx: 8, fill: target ? "#e6f6ec" : "#ffffff", stroke: target ? "#1f6f4a" : "#8a968f", "stroke-width": target ? 3 : 1.5 }));
  const room = CELL - 26;
  let top = y + 10;
  const ts = fs(12.5);
  const type = fit([`Type ${card.type}`, card.type], room, ts, 800);
  g.append(svg("text", { x: x + CELL / 2, y: top + ts * 0.9, "text-anchor": "middle", "font-size": ts, "font-weight": 800, fill: "#24302b" }, type));
  top += ts * 1.1 + 2;
  // Each resource the card asks, a disc with its letter (the legend under the city names them).
  const ls = fs(11), rr = Math.max(10, ls * 0.66);
  const per = Math.max(1, Math.floor((room + 3) / (2 * rr + 3)));
  const n = card.needs.length;
  card.needs.forEach((r, k) => {
    const row = Math.floor(k / per), inRow = Math.min(per, n - row * per);
    const cx = x + CELL / 2 + ((k % per) - (inRow - 1) / 2) * (2 * rr + 3);
    const cy = top + rr + row * (2 * rr + 3);
    g.append(svg("circle", { cx, cy, r: rr, fill: resColor(r), stroke: "#fff", "stroke-width": 1.5 }));
    g.append(svg("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central", "font-size": ls, "font-weight": 800, fill: "#fff" }, resMark(r)));
  });
  top += Math.ceil(n / per) * (2 * rr + 3) + 2;
  // The card's reward, where it fits.
  const rs = fs(11);
  const options = card.coins ? [`+${card.coins} money`, `+${card.coins}`] : card.liza ? ["+ joker", "joker"] : card.icon ? [words(card.icon), ICON_SHORT[card.icon] || ""] : [];
  const reward = fit(options.filter(Boolean), room, rs);
  if (reward && top + rs <= y + CELL - 9) {
    g.append(svg("text", { x: x + CELL / 2, y: top + rs * 0.85, "text-anchor": "middle", "font-size": rs, fill: "#1c2421", class: "city-small" }, reward));
  }
}

function select(plot) {
  selected = selected === plot ? -1 : plot;
  showPlot();
}

// The words of the plot tapped, under the city (the cell may have had no room for them).
function showPlot() {
  const box = dom.plotInfo;
  box.textContent = "";
  const v = G.view;
  const t = v.city.find((x) => x.plot === selected);
  const rc = v.requirement_cards.find((x) => x.plot === selected);
  box.hidden = !t && !rc;
  if (box.hidden) return;
  const a = rc ? legalActions().find((x) => x.kind === "build_at" && x.args[0] === rc.plot) : null;
  box.append(el("p", { class: "small" }, t ? `${tileAbout(t)}.` : cardAbout(rc, a)),
    el("div", { class: "actions" },
      a ? button(a, `Build ${near(rc.where)}`, "small primary") : null,
      el("button", { type: "button", class: "small", onclick: () => select(selected) }, "Close")));
}

function drawCityState() {
  const v = G.view;
  const next = windowOf(v);
  if (!win || next.c0 !== win.c0 || next.r0 !== win.r0 || next.cols !== win.cols || next.rows !== win.rows || !layers) {
    win = next;
    drawCity();
    unit = measuredUnit();
    floor = MIN_PX / unit;
  }
  const d = layers.dyn;
  d.textContent = "";
  const builds = new Map(legalActions().filter((a) => a.kind === "build_at").map((a) => [a.args[0], a]));
  // A tile's and a card's words are their <title>: their name for a screen reader and the
  // pointer's tooltip (an aria-label as well made the <title> a description, read twice).
  for (const t of v.city) {
    const [x, y] = cellXY(t.plot);
    const about = tileAbout(t);
    const g = svg("g", { class: "tile", id: `plot-${t.plot}`, dataset: { plot: t.plot, kind: t.kind, owner: t.owner }, role: "img", onclick: () => select(t.plot) });
    g.append(svg("title", {}, about));
    drawTile(g, t, x, y);
    d.append(g);
  }
  for (const rc of v.requirement_cards) {
    const [x, y] = cellXY(rc.plot);
    const a = builds.get(rc.plot);
    // A card a build can start on is a button (Enter or Space on it, as a tap); the others show their words.
    const about = cardAbout(rc, a);
    const go = () => (a ? G.act(a.text) : select(rc.plot));
    const g = svg("g", {
      class: `req${a ? " target" : ""}`, id: `plot-${rc.plot}`, dataset: { plot: rc.plot, card: rc.card.id },
      style: "cursor:pointer", onclick: go, role: a ? "button" : "img", tabindex: a ? 0 : null,
      onkeydown: (e) => { if (a && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); go(); } },
    });
    g.append(svg("title", {}, about));
    drawCard(g, rc, x, y, Boolean(a));
    d.append(g);
  }
  if (v.pending && v.pending.plot >= 0) {
    const [x, y] = cellXY(v.pending.plot);
    d.append(svg("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 8, fill: "none", stroke: "#d7263d", "stroke-width": 4, "stroke-dasharray": "8 5" }));
  }
  showPlot();
}

// ---------------------------------------------------------------- controls

function pendingWhere() {
  const rc = G.view.requirement_cards.find((x) => x.plot === G.view.pending.plot);
  return rc ? ` ${rc.where}` : "";
}

function phaseText() {
  const v = G.view;
  const me = G.seat;
  const dec = G.decider;
  if (G.status === "finished" || v.phase === "over") return "The game is over.";
  const who = dec === me ? "You" : G.name(dec);
  const round = v.final_round ? " This is the final round." : "";
  switch (v.phase) {
    case "action":
      return `${who}: action ${v.actions_done + 1} of 2: buy a resource card or build.${round}`;
    case "pay":
      return `${who}: choose how to pay the requirement card${pendingWhere()}.`;
    case "tile":
      return `${who}: choose the building to lay${pendingWhere()}${v.pending.payment ? ` (paid with ${v.pending.payment === "full" ? "the whole card" : `two ${v.pending.payment}`})` : ""}.`;
    case "joker":
      return `${who}: a joker (Liza)! Take it as any resource now, or hold it on the joker track (at most 3) to pay for any one resource at a later build.`;
    default:
      return `${who} decides.`;
  }
}

// The build choices, grouped by what they let one build (the best first), each named by where
// its card lies (issue 38: not a list of "plot 26" buttons that do not say what they build).
function buildPanel(builds) {
  const cards = new Map(G.view.requirement_cards.map((rc) => [rc.plot, rc]));
  const groups = new Map();
  for (const a of builds) {
    const rc = cards.get(a.args[0]);
    const what = rc && rc.builds ? rc.builds : { words: "a building", values: [0] };
    if (!groups.has(what.words)) groups.set(what.words, { best: Math.max(...what.values), count: what.values.length, list: [] });
    groups.get(what.words).list.push([a, rc]);
  }
  const order = [...groups.entries()].sort((p, q) => q[1].best - p[1].best || q[1].count - p[1].count);
  return el("div", { id: "build-actions" },
    el("div", { class: "section-title" }, "Build: tap a green card on the city, or choose here"),
    order.map(([what, grp]) => el("div", { class: "build-group" },
      el("div", { class: "build-what" }, `${cap(what)}:`),
      el("div", { class: "actions" }, grp.list.map(([a, rc]) => button(a, rc ? near(rc.where) : a.label, "small"))))));
}

function renderControls() {
  const box = dom.controls;
  box.textContent = "";
  const acts = legalActions();
  const mine = acts.length > 0;
  box.append(el("h2", {}, mine ? "Your decision" : G.status === "finished" ? "Finished" : "Waiting"));
  box.append(el("p", { class: `prompt${mine ? " mine" : ""}`, id: "prompt", style: "margin: .45rem 0 .6rem" }, phaseText()));
  if (G.seat !== null && !mine && G.status !== "finished" && G.decider >= 0) {
    box.append(el("p", { class: "muted small" }, G.decider === G.seat ? "Loading your choices…" : G.waitingFor(G.decider)));
  }
  if (G.seat !== null && G.auto && G.decider === G.seat) {
    box.append(autoPanel(G, G.auto)); // a forced move: the table plays it for us
    box.append(marketPanel([]));
    box.append(supplyPanel());
    return;
  }
  const of = (kind) => acts.filter((a) => a.kind === kind);
  const pays = [...of("pay_full"), ...of("pay_pair")];
  if (pays.length) box.append(el("div", { class: "actions", id: "pay-actions" }, pays.map((a) => button(a, cap(a.label), "primary"))));
  const tiles = of("tile");
  if (tiles.length) box.append(el("div", { class: "actions", id: "tile-actions" }, tiles.map((a) => button(a, cap(a.label), "primary"))));
  const jokers = [...of("joker"), ...of("joker_hold")];
  if (jokers.length) box.append(el("div", { class: "actions", id: "joker-actions" }, jokers.map((a) => button(a, cap(a.label)))));
  const builds = of("build_at");
  if (builds.length) box.append(buildPanel(builds));
  const pass = of("pass_action")[0];
  if (pass) box.append(el("div", { class: "actions", style: "margin-top: .5rem" }, button(pass, "Take 1 money (no action possible)", "primary")));
  box.append(marketPanel(of("buy")));
  box.append(supplyPanel());
}

function marketPanel(buys) {
  const v = G.view;
  const wrapBox = el("div", { id: "market" });
  wrapBox.append(el("div", { class: "section-title" }, "Resource cards: the left row, then the right"));
  const grid = el("div", { class: "mp-market" });
  for (const m of v.market) {
    const a = buys.find((b) => b.args[0] === m.slot);
    const c = m.card;
    const deck = c ? c.deck : G.board.decks[m.slot < 3 ? 0 : 1];
    grid.append(el("div", { class: `mp-card ${deck}`, dataset: { slot: m.slot } },
      el("div", { class: "row", style: "justify-content: space-between" }, el("span", { class: "price" }, `${m.price}`), el("span", { class: "muted small" }, "money")),
      c ? el("div", { class: "res-list" },
        c.resources.map((r) => resChip(r)),
        c.liza ? el("span", { class: "res joker" }, "joker") : null,
        c.coins ? el("span", { class: "res coin" }, `+${c.coins}`) : null) : el("span", { class: "muted" }, "empty"),
      button(a, "Buy", a ? "small primary" : "small")));
  }
  wrapBox.append(grid);
  return wrapBox;
}

function supplyPanel() {
  const v = G.view;
  const wrapBox = el("div", {});
  wrapBox.append(el("div", { class: "section-title" }, "Building tiles"));
  const grid = el("div", { class: "supply" });
  for (const [value, s] of Object.entries(v.tile_supply)) {
    const kind = s.top ? s.top.kind : "";
    grid.append(el("div", { class: "st", style: `background:${KIND_COLORS[kind] || "#999"}`, title: s.top ? `${cap(G.board.buildings[value])}${s.top.icons.length ? `: ${s.top.icons.map(words).join(", ")}` : ""}` : "none left" },
      el("b", {}, value), `${s.count} left`));
  }
  wrapBox.append(grid);
  wrapBox.append(el("p", { class: "muted small", style: "margin: .4rem 0 0" }, `${v.bag} requirement cards in the bag.`));
  return wrapBox;
}

// ---------------------------------------------------------------- players

function renderPlayers() {
  const box = dom.players;
  box.textContent = "";
  const v = G.view;
  const b = G.board;
  for (const p of v.seats) {
    const c = G.colors[p.seat];
    const seatInfo = G.seats[p.seat] || { type: "human" };
    const badges = [];
    if (p.seat === G.seat) badges.push(el("span", { class: "badge you" }, "you"));
    if (seatInfo.type === "bot") badges.push(el("span", { class: "badge" }, "bot"));
    badges.push(G.presence(p.seat)); // a person's: here, or away for how long
    const tracks = el("div", { class: "mp-tracks" },
      b.resources.map((r) => el("div", { class: "trk", style: `background:${resColor(r)}`, title: r }, el("b", {}, String(p.resources[r])), r)),
      el("div", { class: "trk", style: "background:#7b1f8c", title: "Jokers held on the joker track (at most 3): each pays for any one resource at a build" }, el("b", {}, String(p.jokers)), "jokers"));
    // The house spaces, column by column, with each column's reward.
    const boardGrid = el("div", { class: "mp-board" });
    b.columns.forEach((col, k) => {
      const bits = [];
      if (col.money) bits.push(`+${col.money}`);
      if (col.jokers) bits.push("+res.");
      if (col.points) bits.push(`${col.points} pts`);
      const title = `Column ${k + 1}: each house placed from it gives ${[col.money ? `${col.money} money` : "", col.jokers ? "a resource of your choice" : "", col.points ? `${col.points} points at the end` : ""].filter(Boolean).join(" and ")}`;
      boardGrid.append(el("div", { class: "colh", title }, bits.join(" ")));
    });
    for (let r = 0; r < b.rows; r++) {
      for (let k = 0; k < b.columns.length; k++) {
        const house = k * b.rows + r;
        const used = house < p.houses_used;
        boardGrid.append(el("div", { class: `space${used ? " used" : ""}`, style: used ? "background:#e6ece8" : `background:${c}` }));
      }
    }
    const hand = p.cards.filter((card) => card.icon).map((card) => words(card.icon));
    box.append(el("div", { class: `player${G.decider === p.seat ? " deciding" : ""}`, dataset: { seat: p.seat }, style: "grid-template-columns: 2rem minmax(0,1fr) auto" },
      el("div", { class: "token", style: `background:${c};color:${inkOn(c)}` }, G.mark(p.seat)),
      el("div", { style: "min-width:0" },
        el("div", { class: "who" }, G.short(p.seat), badges),
        el("div", { class: "meta" }, `${plural(p.houses_left, "house")} left · ${plural(p.cards.length, "requirement card")}${hand.length ? ` (icons: ${hand.join(", ")})` : ""}`),
        tracks, boardGrid),
      el("div", { class: "cash", dataset: { money: p.money } }, `${p.money}`, el("small", {}, "money"))));
  }
}

// ---------------------------------------------------------------- entry points

function legend() {
  const b = G.board;
  const names = Object.entries(b.buildings).map(([value, name]) => `${value} ${name}`).join(" · ");
  return el("div", { class: "city-legend" },
    el("div", { class: "row", style: "justify-content: center; gap: .6rem" },
      b.resources.map((r) => el("span", { class: "row", style: "gap: .25rem" },
        el("span", { class: "res", style: `background:${resColor(r)}` }, resMark(r)), r))),
    el("p", {}, `North is up. Points: ${names}. Tap a card or a tile for its words.`));
}

export function setup(game, elements) {
  G = game;
  dom = elements;
  document.getElementById("game")?.classList.add("monopolis");
  dom.city = el("div", { id: "city-box" });
  // Not a live region: it is drawn again on every update while a plot is chosen, and its words
  // are the plot's own label already (a card's and a tile's aria-label).
  dom.plotInfo = el("div", { class: "plot-info card", id: "plot-info", hidden: true });
  dom.board.textContent = "";
  dom.board.append(dom.city, dom.plotInfo, legend());
  drawCityState();
  watchSize();
}

export function render() {
  drawCityState();
  renderControls();
  renderPlayers();
}
