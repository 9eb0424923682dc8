// Monopolis' game page: the 7 x 7 city grid around the castle with its requirement cards, the
// resource market, the tile supply, each player's board, and every decision as a control.
import { el, svg, parseAction, inkOn, autoPanel } from "./util.js";

const CELL = 120;
const PAD = 10;
const GRID = 7;
const KIND_COLORS = {
  castle: "#6b6f76", park: "#2f7d3a", residential: "#b35c00", business: "#2f6fc0",
  workplace: "#8a5a3c", special: "#8e3fae",
};
const KIND_NAMES = {
  castle: "Castle", park: "Park", residential: "Residential", business: "Business",
  workplace: "Workplace", special: "Special",
};
// Dark enough for white text on them (WCAG AA: 4.5 to 1).
const RES_COLORS = { wood: "#8d5a3b", iron: "#5f7282", tools: "#8c6a00", workers: "#4f5bb3" };

let G = null;
let dom = null;
let layers = null;

const resColor = (r) => RES_COLORS[r] || "#777";
const resMark = (r) => ({ workers: "P" }[r] || r.charAt(0).toUpperCase());
const words = (s) => s.replaceAll("_", " ");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function legalActions() {
  if (!G.myTurn) return [];
  return G.legal.map((a) => ({ ...parseAction(a.action), label: G.words(a.text) }));
}

function button(a, label, cls = "") {
  return el("button", {
    type: "button", class: cls, disabled: !a || G.busy, dataset: { action: a ? a.text : "" },
    title: a ? a.label : undefined, onclick: () => a && G.act(a.text),
  }, label || (a ? a.label : ""));
}

function resChip(r, n) {
  return el("span", { class: `res ${r}`, style: `background:${resColor(r)}` }, n !== undefined ? `${n} ${r}` : r);
}

// ---------------------------------------------------------------- the city

function drawCity() {
  const size = GRID * CELL + 2 * PAD;
  const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, role: "group", "aria-label": "The city: 7 by 7 plots around the castle", id: "city-svg" });
  root.append(svg("rect", { x: 0, y: 0, width: size, height: size, rx: 10, fill: "#dfe9dc" }));
  const grid = svg("g", {});
  for (let p = 0; p < GRID * GRID; p++) {
    const [x, y] = cellXY(p);
    grid.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: "#eef3ec", stroke: "#c8d4c6", "stroke-dasharray": "4 4" }));
  }
  root.append(grid);
  const dyn = svg("g", { id: "city" });
  root.append(dyn);
  layers = { root, dyn };
  dom.board.textContent = "";
  dom.board.append(root);
  dom.board.append(el("div", { class: "row small muted", style: "justify-content: center; margin-top: .4rem" },
    G.board.resources.map((r) => el("span", { class: "row", style: "gap: .25rem" },
      el("span", { class: "res", style: `background:${resColor(r)}` }, resMark(r)), r))));
}

function cellXY(plot) {
  return [PAD + (plot % GRID) * CELL, PAD + Math.floor(plot / GRID) * CELL];
}

function drawCityState() {
  const v = G.view;
  const d = layers.dyn;
  d.textContent = "";
  const builds = new Map(legalActions().filter((a) => a.kind === "build_at").map((a) => [a.args[0], a]));
  for (const t of v.city) {
    const [x, y] = cellXY(t.plot);
    const c = KIND_COLORS[t.kind] || "#777";
    const about = `${KIND_NAMES[t.kind] || t.kind} worth ${t.value}${t.icons.length ? `, ${t.icons.map(words).join(", ")}` : ""}${t.owner >= 0 ? `, built by ${G.name(t.owner)} (${plural(t.houses, "house")})` : ""}${t.cubes ? `, ${plural(t.cubes, "cube")}` : ""}`;
    const g = svg("g", { class: "tile", id: `plot-${t.plot}`, dataset: { plot: t.plot, kind: t.kind, owner: t.owner }, role: "img", "aria-label": about });
    g.append(svg("title", {}, about));
    g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: c, stroke: "#24302b", "stroke-width": 1.5 }));
    if (t.kind === "castle") {
      g.append(svg("path", { d: `M${x + 30} ${y + 88} v-40 h10 v10 h10 v-10 h20 v10 h10 v-10 h10 v40 z`, fill: "#d9dde2", stroke: "#24302b", "stroke-width": 1.5 }));
      g.append(svg("text", { x: x + CELL / 2, y: y + 24, "text-anchor": "middle", "font-size": 15, fill: "#fff", class: "city-tile-label" }, "Castle"));
    } else {
      g.append(svg("text", { x: x + 12, y: y + 30, "font-size": 24, fill: inkOn(c), class: "city-tile-label" }, String(t.value)));
      g.append(svg("text", { x: x + CELL - 9, y: y + 25, "text-anchor": "end", "font-size": 11.5, fill: inkOn(c), class: "city-tile-label" }, KIND_NAMES[t.kind] || t.kind));
      t.icons.forEach((icon, k) => {
        g.append(svg("rect", { x: x + 10, y: y + 42 + k * 20, width: CELL - 20, height: 17, rx: 8, fill: "#1fb5a8", opacity: 0.95 }));
        g.append(svg("text", { x: x + CELL / 2, y: y + 54.5 + k * 20, "text-anchor": "middle", "font-size": 11, fill: "#fff", "font-weight": 700 }, words(icon)));
      });
      // The builder's houses and the white cubes.
      if (t.owner >= 0) {
        for (let k = 0; k < t.houses; k++) {
          g.append(svg("rect", { class: "house", x: x + 12 + k * 22, y: y + CELL - 32, width: 18, height: 18, rx: 3, fill: G.colors[t.owner], stroke: "#fff", "stroke-width": 2 }));
        }
      }
      for (let k = 0; k < t.cubes; k++) {
        g.append(svg("rect", { class: "cube", x: x + CELL - 26 - k * 16, y: y + CELL - 28, width: 13, height: 13, fill: "#fff", stroke: "#24302b" }));
      }
    }
    d.append(g);
  }
  for (const rc of v.requirement_cards) {
    const [x, y] = cellXY(rc.plot);
    const a = builds.get(rc.plot);
    const card = rc.card;
    // A card a build can start on is a button (Enter or Space on it, as a tap); the others are pictures.
    const about = `Type ${card.type} card: ${card.needs.join(", ")}${a ? ` (choose to ${a.label})` : ""}`;
    const g = svg("g", {
      class: `req${a ? " target" : ""}`, id: `plot-${rc.plot}`, dataset: { plot: rc.plot, card: card.id },
      style: a ? "cursor:pointer" : "", onclick: () => a && G.act(a.text),
      role: a ? "button" : "img", "aria-label": about, tabindex: a ? 0 : null,
      onkeydown: (e) => { if (a && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); G.act(a.text); } },
    });
    g.append(svg("title", {}, about));
    g.append(svg("rect", { x: x + 12, y: y + 10, width: CELL - 24, height: CELL - 20, rx: 8, fill: a ? "#e6f6ec" : "#ffffff", stroke: a ? "#1f6f4a" : "#8a968f", "stroke-width": a ? 3 : 1.5 }));
    g.append(svg("text", { x: x + CELL / 2, y: y + 30, "text-anchor": "middle", "font-size": 13, "font-weight": 800, fill: "#24302b" }, `Type ${card.type}`));
    const n = card.needs.length;
    card.needs.forEach((r, k) => {
      const cx = x + CELL / 2 + (k - (n - 1) / 2) * 22;
      g.append(svg("circle", { cx, cy: y + 56, r: 10, fill: resColor(r), stroke: "#fff", "stroke-width": 1.5 }));
      g.append(svg("text", { x: cx, y: y + 60, "text-anchor": "middle", "font-size": 11, "font-weight": 800, fill: "#fff" }, resMark(r)));
    });
    const extras = [];
    if (card.coins) extras.push(`+${card.coins} money`);
    if (card.liza) extras.push("+ joker");
    if (card.icon) extras.push(words(card.icon));
    if (extras.length) g.append(svg("text", { x: x + CELL / 2, y: y + 88, "text-anchor": "middle", "font-size": 11, fill: "#24302b", class: "city-small" }, extras.join(" · ")));
    d.append(g);
  }
  if (v.pending && v.pending.plot >= 0) {
    const [x, y] = cellXY(v.pending.plot);
    d.append(svg("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 8, fill: "none", stroke: "#d7263d", "stroke-width": 4, "stroke-dasharray": "8 5" }));
  }
}

// ---------------------------------------------------------------- controls

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
      return `${who}: choose how to pay the requirement card.`;
    case "tile":
      return `${who}: choose the building to lay${v.pending.payment ? ` (paid with ${v.pending.payment === "full" ? "the full card" : `two ${v.pending.payment}`})` : ""}.`;
    case "joker":
      return `${who}: a joker! Take it as a resource now or hold it.`;
    default:
      return `${who} decides.`;
  }
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
  const res = G.board.resources;
  const pays = [...of("pay_full"), ...of("pay_pair")];
  if (pays.length) {
    box.append(el("div", { class: "actions", id: "pay-actions" }, pays.map((a) => button(a, a.kind === "pay_full" ? "Pay the whole card" : `Pay two ${res[a.args[0]]}`, "primary"))));
  }
  const tiles = of("tile");
  if (tiles.length) {
    const supply = G.view.tile_supply;
    box.append(el("div", { class: "actions", id: "tile-actions" }, tiles.map((a) => {
      const top = supply[String(a.args[0])] && supply[String(a.args[0])].top;
      const icons = top && top.icons.length ? ` (${top.icons.map(words).join(", ")})` : "";
      return button(a, `${KIND_NAMES[top ? top.kind : ""] || "Tile"} ${a.args[0]}${icons}`, "primary");
    })));
  }
  const jokers = [...of("joker"), ...of("joker_hold")];
  if (jokers.length) {
    box.append(el("div", { class: "actions", id: "joker-actions" }, jokers.map((a) => button(a, a.kind === "joker" ? `Take ${res[a.args[0]]}` : "Hold it"))));
  }
  const builds = of("build_at");
  if (builds.length) {
    box.append(el("div", { class: "section-title" }, "Build (or tap a highlighted card)"));
    box.append(el("div", { class: "actions", id: "build-actions" }, builds.map((a) => button(a, a.label.replace(/^build on /, "").replace(/, paying.*$/, ""), "small"))));
  }
  const pass = of("pass_action")[0];
  if (pass) box.append(el("div", { class: "actions", style: "margin-top: .5rem" }, button(pass, "Take 1 money (no action possible)", "primary")));
  box.append(marketPanel(of("buy")));
  box.append(supplyPanel());
}

function marketPanel(buys) {
  const v = G.view;
  const wrapBox = el("div", { id: "market" });
  wrapBox.append(el("div", { class: "section-title" }, "Resource cards"));
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
    grid.append(el("div", { class: "st", style: `background:${KIND_COLORS[kind] || "#999"}`, title: s.top ? `${KIND_NAMES[kind]}${s.top.icons.length ? `: ${s.top.icons.map(words).join(", ")}` : ""}` : "none left" },
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
      el("div", { class: "trk", style: "background:#9c27b0", title: "jokers held" }, el("b", {}, String(p.jokers)), "joker"));
    // The house spaces, column by column, with each column's reward.
    const boardGrid = el("div", { class: "mp-board" });
    b.columns.forEach((col) => {
      const bits = [];
      if (col.money) bits.push(`+${col.money}`);
      if (col.jokers) bits.push("+res");
      if (col.points) bits.push(`${col.points} pts`);
      boardGrid.append(el("div", { class: "colh" }, bits.join(" ")));
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
        el("div", { class: "who" }, G.name(p.seat), badges),
        el("div", { class: "meta" }, `${p.houses_left} houses left · ${p.cards.length} cards${hand.length ? ` (${hand.join(", ")})` : ""}`),
        tracks, boardGrid),
      el("div", { class: "cash", dataset: { money: p.money } }, `${p.money}`, el("small", {}, "money"))));
  }
}

// ---------------------------------------------------------------- entry points

export function setup(game, elements) {
  G = game;
  dom = elements;
  drawCity();
}

export function render() {
  drawCityState();
  renderControls();
  renderPlayers();
}
