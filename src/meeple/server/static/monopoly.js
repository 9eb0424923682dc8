// The Monopoly family's game page: the board as SVG (any edition: 40 or 24 squares, colour
// groups, owners, mortgages, buildings, tokens, the snowflake, Jail or Time Out), the players,
// and every decision as controls built from the seat's legal actions.
import { el, svg, parseAction, inkOn, readable, autoPanel } from "./util.js";
import { MIN_PX, textWidth as measure, fitOne as fitFirst, watchScale } from "./fit.js";

const SIZE = 1000;
let G = null; // the game (play.js)
let dom = null;
let geo = null; // square rectangles
let tokens = []; // per seat: {g, at, jailed, timer}
let layers = null;
let selected = -1; // the square whose deed is open (tapped), or -1
let preview = -1; // the square hovered or focused, whose deed shows meanwhile
let rover = -1; // the square the board's Tab stop is on
let rendered = false;
let codes = []; // each colour group's letter (groupCodes)
let lastDiceSid = -1;

// ---------------------------------------------------------------- geometry

function geometry(n) {
  const k = n / 4 - 1;
  const C = n >= 40 ? 130 : 150;
  const W = (SIZE - 2 * C) / k;
  const B = Math.max(Math.round(C * 0.2), Math.round(floor * 1.2)); // the colour band, room for its letter
  const out = [];
  for (let i = 0; i < n; i++) {
    const side = Math.floor(i / (n / 4));
    const j = i % (n / 4);
    let r;
    if (j === 0) {
      const corners = [[SIZE - C, SIZE - C], [0, SIZE - C], [0, 0], [SIZE - C, 0]];
      r = { x: corners[side][0], y: corners[side][1], w: C, h: C, side: "corner", corner: side };
    } else if (side === 0) r = { x: SIZE - C - j * W, y: SIZE - C, w: W, h: C, side: "bottom" };
    else if (side === 1) r = { x: 0, y: SIZE - C - j * W, w: C, h: W, side: "left" };
    else if (side === 2) r = { x: C + (j - 1) * W, y: 0, w: W, h: C, side: "top" };
    else r = { x: SIZE - C, y: C + (j - 1) * W, w: C, h: W, side: "right" };
    // The band (inner edge) and the text area (the rest).
    if (r.side === "bottom") { r.band = [r.x, r.y, r.w, B]; r.area = [r.x, r.y + B, r.w, r.h - B]; r.outer = [r.x, r.y + r.h - 7, r.w, 7]; }
    else if (r.side === "top") { r.band = [r.x, r.y + r.h - B, r.w, B]; r.area = [r.x, r.y, r.w, r.h - B]; r.outer = [r.x, r.y, r.w, 7]; }
    else if (r.side === "left") { r.band = [r.x + r.w - B, r.y, B, r.h]; r.area = [r.x, r.y, r.w - B, r.h]; r.outer = [r.x, r.y, 7, r.h]; }
    else if (r.side === "right") { r.band = [r.x, r.y, B, r.h]; r.area = [r.x + B, r.y, r.w - B, r.h]; r.outer = [r.x + r.w - 7, r.y, 7, r.h]; }
    else { r.area = [r.x, r.y, r.w, r.h]; }
    r.rest = r.band; // the band beside the group's letter: buildings and the mortgage tag
    out.push(r);
  }
  // Tokens: their letter never under the floor either; on narrow squares two to a row.
  const base = n >= 40 ? 13 : 19;
  const font = Math.max(base * 1.05, floor);
  const rad = Math.max(base, font * 0.8);
  const per = Math.max(2, Math.min(4, Math.floor((W - 4) / (rad * 1.6))));
  const token = { r: rad, font, per, step: Math.max(n >= 40 ? 26 : 36, rad * 1.45) };
  return { n, C, W, B, squares: out, token };
}

// ---------------------------------------------------------------- helpers

const money = (x) => `${G.board.currency}${x}`;
const sqName = (i) => G.board.squares[i].name;
const group = (i) => (G.board.squares[i].group >= 0 ? G.board.groups[G.board.squares[i].group] : null);
const isProperty = (i) => ["street", "railroad", "utility"].includes(G.board.squares[i].kind);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function members(g) {
  return G.board.squares.filter((s) => s.group === g).map((s) => s.index);
}

function levelText(level) {
  const names = G.board.names;
  if (level >= 5) return `a ${names.hotel}`;
  if (level === 0) return "";
  return plural(level, names.house);
}

function legalActions() {
  if (!G.myTurn) return [];
  return G.legal.map((a) => ({ ...parseAction(a.action), label: G.words(a.text) }));
}

function button(a, opts = {}) {
  if (!a && opts.intended && !G.busy) {
    // Not legal now: the control says why when pressed (the engine's reason, POST /why),
    // rather than sitting there greyed out with no explanation.
    return el("button", {
      type: "button", class: `${opts.cls || ""} off`, title: opts.title, "aria-disabled": "true",
      dataset: { intended: opts.intended }, onclick: () => G.explain(opts.intended),
    }, opts.label || "");
  }
  const b = el("button", {
    type: "button", class: opts.cls || "", title: opts.title,
    dataset: { action: a ? a.text : "" },
    disabled: !a || G.busy || opts.disabled,
    onclick: () => a && G.act(a.text),
  }, opts.label || (a ? a.label : ""));
  return b;
}

// ---------------------------------------------------------------- type on the board

// No text on the board is drawn under MIN_PX CSS px (issue 16: names readable on a 390 px
// phone). The board is drawn in the units of its 1000 x 1000 viewBox; `unit` is how many CSS px
// one unit is on screen (measured, and the board drawn again when it changes), so no font is
// smaller than `floor` = MIN_PX / unit units. A name that does not fit its square at that size
// is shortened: the usual abbreviations, then without its small words, then words cut with a
// full stop ("Medit."); the deed (tap or hover) has it in full.
let unit = 1; // CSS px per board unit, as drawn
let floor = MIN_PX; // the smallest font size, in board units
let family = "sans-serif"; // the page's font, for measuring text
const ABBREVIATIONS = [["Just Visiting", "Visiting"], ["Avenue", "Ave."], ["Railroad", "R.R."], ["Electricity", "Electric"]];
const WEAK = new Set(["a", "an", "the", "and", "of", "at", "in", "on", "to", "/", "-"]);

const fs = (size) => Math.max(size, floor);

// Every word of the board's names, in lower case (drawBoard), for cutting words unambiguously.
let boardWords = [];

// Whether `short` ("Sta.") may stand for `word` ("States"): at least three letters of it (two,
// "St.", "Co.", read as other words: Saint, Company), and not a word the board writes so ("St."
// in "St. James Place"). Two squares that would still show the same are told apart after
// (distinctNames).
function plain(short, word) {
  const stem = short.slice(0, -1);
  return (stem.length >= 3 || stem.length >= word.length - 1) && !boardWords.includes(short.toLowerCase());
}

function textWidth(text, size, weight = 400) {
  return measure(text, size, weight, family);
}

// A sentence on one line of `width`: whole if it fits, else its first words and an ellipsis
// (an event's words must not stop mid-sentence without saying so).
function ellipsize(text, width, size, weight = 400) {
  if (textWidth(text, size, weight) <= width) return text;
  const words = text.split(/\s+/);
  while (words.length > 1) {
    words.pop();
    const s = `${words.join(" ").replace(/[,;:]$/, "")} …`;
    if (textWidth(s, size, weight) <= width) return s;
  }
  return "…";
}

// `text` in at most `lines` lines of `width` units at `size`: whole when it fits, else shortened.
function fitLines(text, width, lines, size, weight = 400) {
  const fits = (s) => textWidth(s, size, weight) <= width;
  // The longest start of `word` (at least `least` letters) that fits after `before`, with a full
  // stop, that cannot be read as another word (issue 38: "St." was St. Charles, States and St.
  // James, "Co." Community Chest; now "Sta.", "Com.").
  const cut = (word, before = "", least = 2) => {
    for (let k = word.length - 1; k >= least; k--) {
      const short = `${word.slice(0, k)}.`;
      if (fits(`${before}${short}`) && plain(short, word)) return `${before}${short}`;
    }
    return null;
  };
  const layout = (words) => {
    const out = [];
    for (const w of words) {
      const piece = fits(w) ? w : cut(w) || w.slice(0, 1);
      const last = out.length - 1;
      if (last >= 0 && fits(`${out[last]} ${piece}`)) out[last] += ` ${piece}`;
      else out.push(piece);
    }
    return out;
  };
  let short = text;
  for (const [long, abbr] of ABBREVIATIONS) short = short.replaceAll(long, abbr);
  const words = short.split(/\s+/).filter(Boolean);
  const content = words.filter((w) => !WEAK.has(w.toLowerCase()));
  const strong = content.length ? content : words;
  let best = [];
  for (const candidate of [text.split(/\s+/).filter(Boolean), words, strong]) {
    best = layout(candidate);
    if (best.length <= lines) return best;
  }
  // Too long even so: the first lines, the last one with the start of the next word if it fits
  // ("Fire T."), else marked as cut.
  const kept = best.slice(0, lines);
  const end = kept[lines - 1];
  const next = best[lines].split(" ")[0].replace(/\.$/, "");
  const more = end.endsWith(".") ? null : cut(next, `${end} `, 1);
  if (more) kept[lines - 1] = more;
  else if (!end.endsWith(".") && fits(`${end}…`)) kept[lines - 1] = `${end}…`;
  return kept;
}

// The first of `options` that fits `width` whole, or null.
function fitOne(options, width, size, weight = 400) {
  return fitFirst(options, width, size, weight, family);
}

// A letter (or two) for each colour group, from its name, so that groups are told apart by more
// than colour (issue 16): Brown B, Light Blue L, Dark Blue D; on a clash the initials (TM), then
// the first two letters (Ra), then a number. Streets choose first. Any edition's data gives its own.
function groupCodes(groups) {
  const used = new Set();
  const codes = groups.map(() => "");
  const order = groups.map((g, k) => k).sort((a, b) => (groups[a].kind !== "street") - (groups[b].kind !== "street") || a - b);
  for (const k of order) {
    const words = groups[k].name.split(/\s+/).filter(Boolean);
    const first = words[0] || "";
    const tries = [first.charAt(0).toUpperCase(), words.map((w) => w.charAt(0)).join("").slice(0, 2).toUpperCase(),
      first.charAt(0).toUpperCase() + first.slice(1, 2).toLowerCase(), String(k + 1)];
    codes[k] = tries.find((t) => t && !used.has(t)) || String(k + 1);
    used.add(codes[k]);
  }
  return codes;
}

// CSS px per board unit: as drawn once the board is on screen, else as the page's layout will draw it.
function measuredUnit() {
  const root = layers && layers.root;
  const box = root ? root.getBoundingClientRect() : null;
  if (box && box.width > 0) return Math.min(box.width, box.height) / SIZE;
  const w = window.innerWidth, h = window.innerHeight;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 15;
  if (w <= 980) return (w - rem) / SIZE; // one column
  return Math.min(Math.min(w, 1400) - 380 - 3 * rem, h - 5.5 * rem) / SIZE;
}

// Draw the board again when its size on screen changes enough to change the type.
function watchSize() {
  watchScale(dom.board, measuredUnit, () => unit, (u) => {
    unit = u;
    drawBoard();
    if (rendered) {
      drawDynamic();
      renderInspect();
    }
  });
}

// ---------------------------------------------------------------- the board

function drawBoard() {
  family = getComputedStyle(dom.board).fontFamily || family;
  floor = MIN_PX / unit;
  boardWords = [...new Set(G.board.squares.flatMap((sq) => sq.name.toLowerCase().split(/\s+/)))];
  geo = geometry(G.board.squares.length);
  shownNames = [];
  const root = svg("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`, role: "group", id: "board-svg",
    "aria-label": `${G.board.name} board: arrow keys go from square to square, Enter shows the deed`,
    onkeydown: boardKeys,
  });
  const defs = svg("defs", {},
    svg("pattern", { id: "hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 10, height: 10, fill: "rgba(90,90,90,.18)" }),
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "rgba(60,60,60,.55)", "stroke-width": 3 })));
  root.append(defs);
  root.append(svg("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: "#cfe8d5", rx: 6 }));
  const squaresLayer = svg("g", {});
  const dyn = [];
  const squares = [];
  geo.squares.forEach((r, i) => {
    const sq = G.board.squares[i];
    // A square is a button: it shows its deed (or places what the decision places there).
    const g = svg("g", {
      class: "sq", id: `sq-${i}`, dataset: { index: i }, role: "button", tabindex: -1,
      onclick: () => clickSquare(i),
      onpointerenter: (e) => { if (e.pointerType === "mouse") showPreview(i); },
      onpointerleave: (e) => { if (e.pointerType === "mouse") showPreview(-1); },
      onfocus: () => { rover = i; if (g.matches(":focus-visible")) showPreview(i); },
      onblur: () => showPreview(-1),
    });
    // A card square in its deck's colour, as the deck's pile in the centre (Chance is not
    // Community Chest even where their names are cut short).
    const fill = sq.kind === "card" ? deckFill(sq.deck) : "#fbfaf3";
    g.append(svg("rect", { class: "base", x: r.x, y: r.y, width: r.w, height: r.h, fill, stroke: "#2b3a33", "stroke-width": 1.5 }));
    // No <title>: the square's name is in its label (squareLabel), and a <title> next to a
    // label is read again as its description; pointer users see the name on the hover card.
    if (r.side === "corner") drawCorner(g, r, sq);
    else drawSide(g, r, sq);
    const d = svg("g", { class: "dyn", "pointer-events": "none" });
    g.append(d);
    dyn.push(d);
    squares.push(g);
    squaresLayer.append(g);
  });
  root.append(squaresLayer);
  distinctNames();
  const centre = svg("g", { id: "centre", "aria-hidden": "true" });
  root.append(centre);
  const tokenLayer = svg("g", { id: "tokens", "pointer-events": "none", "aria-hidden": "true" });
  root.append(tokenLayer);
  const { r: rad, font } = geo.token;
  tokens = G.view.players.map((p) => {
    const c = G.colors[p.seat];
    const g = svg("g", { class: "token-g", id: `token-${p.seat}`, dataset: { seat: p.seat } },
      svg("circle", { r: rad + 1.5, fill: "#fff", opacity: 0.9 }),
      svg("circle", { r: rad, fill: c, stroke: "#1c2421", "stroke-width": 1.5 }),
      svg("text", { "text-anchor": "middle", "dominant-baseline": "central", fill: inkOn(c), "font-size": font, "font-weight": 800 }, G.mark(p.seat)));
    tokenLayer.append(g);
    return { g, at: -1, jailed: false, timer: null };
  });
  layers = { root, dyn, centre, squares };
  dom.board.textContent = "";
  dom.board.append(root);
  // The deed of the square hovered, focused or tapped, over the board's centre.
  dom.deed = el("section", {
    class: "deed-pop", id: "deed", hidden: true, "aria-label": "Deed",
    onkeydown: (e) => { if (e.key === "Escape") closeDeed(); },
  });
  dom.board.append(dom.deed);
}

function textLines(g, lines, x, y, size, cls, weight = null) {
  return lines.map((line, k) => {
    const t = svg("text", { x, y: y + k * size * 1.12, class: cls, "text-anchor": "middle", "font-size": size, style: weight ? `font-weight:${weight}` : null }, line);
    g.append(t);
    return t;
  });
}

// Each deck's colour: its pile in the centre and its squares.
const DECK_FILLS = ["#fff3b0", "#fde2c4", "#d9ecf7", "#e6dcf5"];
function deckFill(id) {
  const k = G.board.decks.findIndex((d) => d.id === id);
  return DECK_FILLS[Math.max(0, k) % DECK_FILLS.length];
}

// Issue 38: no two squares of different names show the same short name (a phone's squares
// showed "St." for both St. Charles Place and St. James Place). Each side square's name as
// drawn, with what it was fitted to (drawSide); where names collide, a square shows instead the
// words its name does not share with the others ("Char.", "James"), if that fits and is free.
let shownNames = [];

function distinctNames() {
  const key = (f) => f.lines.join(" ");
  const holders = new Map(); // shown text -> the names showing it
  const hold = (text, name) => { if (!holders.has(text)) holders.set(text, new Set()); holders.get(text).add(name); };
  shownNames.forEach((f) => f && hold(key(f), f.name));
  shownNames.forEach((f) => {
    if (!f || holders.get(key(f)).size < 2) return;
    const others = [...holders.get(key(f))].filter((n) => n !== f.name);
    const theirs = new Set(others.flatMap((n) => n.toLowerCase().split(/\s+/)));
    const own = f.name.split(/\s+/).filter((w) => !theirs.has(w.toLowerCase()) && !WEAK.has(w.toLowerCase()));
    for (const words of [own.join(" "), ...own]) {
      if (!words) continue;
      const lines = fitLines(words, f.width, f.nodes.length, f.size, f.weight);
      const text = lines.join(" ");
      if (lines.length > f.nodes.length || (holders.has(text) && [...holders.get(text)].some((n) => n !== f.name))) continue;
      f.nodes.forEach((node, k) => { node.textContent = lines[k] || ""; });
      hold(text, f.name);
      f.lines = lines;
      break;
    }
  });
}

function drawSide(g, r, sq) {
  const grp = sq.group >= 0 ? G.board.groups[sq.group] : null;
  const big = geo.n < 40;
  if (grp && sq.kind === "street") {
    // The colour band, with the group's letter at its start (the buildings go beside it).
    const [bx, by, bw, bh] = r.band;
    g.append(svg("rect", { x: bx, y: by, width: bw, height: bh, fill: grp.color, stroke: "#2b3a33", "stroke-width": 1.2 }));
    const code = codes[sq.group];
    const size = fs(big ? 15 : 12);
    const vertical = bh > bw;
    const len = Math.max(Math.min(bw, bh), textWidth(code, size, 800) + 8);
    const cx = vertical ? bx + bw / 2 : bx + len / 2, cy = vertical ? by + len / 2 : by + bh / 2;
    g.append(svg("text", { x: cx, y: cy, class: "group-code", "text-anchor": "middle", "dominant-baseline": "central", "font-size": size, "font-weight": 800, fill: inkOn(grp.color) }, code));
    r.rest = vertical ? [bx, by + len, bw, bh - len] : [bx + len, by, bw - len, bh];
  }
  const [ax, ay, aw, ah] = r.area;
  const horizontal = r.side === "left" || r.side === "right";
  const size = fs(big ? 15 : 11.5), small = fs(big ? 14 : 11);
  let foot = null;
  if (sq.price) foot = fitOne([money(sq.price)], aw - 4, small) || String(sq.price); // the narrowest phones: no currency
  else if (sq.kind === "tax") foot = fitOne([`Pay ${money(sq.amount || 0)}`, money(sq.amount || 0)], aw - 4, small) || String(sq.amount || 0);
  else if (sq.kind === "element") foot = fitOne(["Travel on"], aw - 6, small);
  const footH = foot ? small + 10 : 0;
  const icon = sq.kind === "card" ? fs(big ? 40 : 30) : sq.kind === "snowflake" ? (big ? 40 : 32) : 0;
  const lineH = size * 1.12;
  const room = Math.floor((ah - 8 - footH - icon * 0.8) / lineH);
  const weight = size > 15 ? 500 : 600; // small on screen: the narrower type fits more of the name
  const lines = fitLines(sq.name, aw - 5, Math.max(1, Math.min(horizontal ? 3 : 4, room)), size, weight);
  const nodes = textLines(g, lines, ax + aw / 2, ay + 4 + size * 0.92, size, "sq-name", weight);
  shownNames[sq.index] = { name: sq.name, lines, nodes, width: aw - 5, size, weight };
  // The icon in the middle of what is left below the name.
  const top = ay + 6 + lines.length * lineH, bottom = ay + ah - footH;
  const mid = (top + bottom) / 2;
  if (sq.kind === "card") {
    g.append(svg("text", { x: ax + aw / 2, y: mid + icon * 0.36, "text-anchor": "middle", "font-size": icon, "font-weight": 800, fill: "#8b4513" }, "?"));
  }
  if (sq.kind === "snowflake") snowflakeIcon(g, ax + aw / 2, mid, icon * 0.42);
  if (foot) g.append(svg("text", { x: ax + aw / 2, y: ay + ah - 9, class: "sq-price", "text-anchor": "middle", "font-size": small }, foot));
}

function drawCorner(g, r, sq) {
  const kind = sq.kind;
  const cx = r.x + r.w / 2, cy = r.y + r.h / 2;
  if (kind === "go") {
    const salary = money(G.board.rules.go_salary);
    const s = fs(12);
    const collect = fitOne([`Collect ${salary}`, `+${salary}`], r.w - 10, s);
    if (collect) g.append(svg("text", { x: cx, y: r.y + 6 + s * 0.9, "text-anchor": "middle", class: "sq-price", "font-size": s }, collect));
    g.append(svg("text", { x: cx, y: cy + 8, "text-anchor": "middle", "font-size": 44, "font-weight": 900, fill: "#c62828" }, "GO"));
    g.append(svg("text", { x: cx, y: cy + 14 + fs(24) * 0.8, "text-anchor": "middle", "font-size": fs(24), fill: "#c62828" }, "←"));
    return;
  }
  if (kind === "jail") {
    // The cell in the inner corner; Just Visiting around it.
    const cell = jailCell(r);
    g.append(svg("rect", { x: cell.x, y: cell.y, width: cell.w, height: cell.h, fill: "#f6a04d", stroke: "#2b3a33", "stroke-width": 1.5 }));
    for (let k = 1; k < 4; k++) {
      const x = cell.x + (cell.w * k) / 4;
      g.append(svg("line", { x1: x, y1: cell.y, x2: x, y2: cell.y + cell.h, stroke: "#2b3a33", "stroke-width": 1.2, opacity: 0.5 }));
    }
    const size = fs(14);
    const label = fitLines(G.board.names.jail.toUpperCase(), cell.w - 4, 2, size, 800);
    textLines(g, label, cell.x + cell.w / 2, cell.y + cell.h / 2 + size * 0.35 - ((label.length - 1) * size * 1.12) / 2, size, "corner-name");
    const s = fs(11);
    const visiting = fitOne(["Just visiting"], r.w - 12, s) || fitLines("Visiting", r.w - 12, 1, s)[0];
    g.append(svg("text", { x: r.x + 6, y: r.y + r.h - 9, class: "sq-price", "font-size": s }, visiting));
    return;
  }
  const size = fs(15);
  const iconSize = fs(kind === "free_parking" ? 26 : 24);
  const lines = fitLines(sq.name, r.w - 10, kind === "free_parking" || kind === "go_to_jail" ? 2 : 3, size, 800);
  textLines(g, lines, cx, r.y + 6 + size * 0.92, size, "corner-name");
  const y = Math.max(r.y + 12 + lines.length * size * 1.12 + iconSize * 0.8, cy + 30);
  if (kind === "free_parking") g.append(svg("text", { x: cx, y, "text-anchor": "middle", "font-size": iconSize, "font-weight": 800, fill: "#1b6ddb" }, "P"));
  if (kind === "go_to_jail") g.append(svg("text", { x: cx, y, "text-anchor": "middle", "font-size": iconSize, fill: "#c62828" }, "↙"));
}

function jailCell(r) {
  const s = r.w * 0.68;
  return { x: r.x + r.w - s, y: r.y, w: s, h: s };
}

function snowflakeIcon(g, x, y, s) {
  const f = svg("g", { transform: `translate(${x},${y})` });
  f.append(svg("circle", { r: s * 1.15, fill: "#e3f4ff", stroke: "#4aa3df", "stroke-width": 1.5 }));
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3;
    const dx = Math.cos(a) * s * 0.85, dy = Math.sin(a) * s * 0.85;
    f.append(svg("line", { x1: -dx, y1: -dy, x2: dx, y2: dy, stroke: "#1f7fc4", "stroke-width": 2, "stroke-linecap": "round" }));
  }
  g.append(f);
  return f;
}

// Where player `seat` stands on square `i` (in jail: inside the cell).
function tokenSpot(i, seat, jailed) {
  const r = geo.squares[i];
  const n = G.view.players.length;
  const { r: rad, per, step } = geo.token;
  const col = seat % per, row = Math.floor(seat / per);
  if (r.side === "corner" && G.board.squares[i].kind === "jail") {
    const cell = jailCell(r);
    if (jailed) {
      const cols = Math.min(per, n);
      const x = cell.x + cell.w / 2 + (col - (cols - 1) / 2) * Math.min(step * 0.8, (cell.w - 2 * rad) / Math.max(1, cols - 1));
      return [x, cell.y + cell.h - rad - 2 - row * step * 0.8];
    }
    // Just visiting: down the outer strip on the left, then along the bottom.
    const strip = r.w - cell.w;
    const gap = (r.h - rad) / 4;
    const spots = [0, 1, 2, 3].map((k) => [r.x + strip / 2, r.y + rad + 4 + k * gap * 0.8])
      .concat([0, 1, 2, 3].map((k) => [r.x + strip + rad + 2 + k * (cell.w - rad) / 4, r.y + r.h - strip / 2 - 4]));
    return spots[seat % spots.length];
  }
  const [ax, ay, aw, ah] = r.area;
  const cols = Math.min(per, n);
  const x = ax + aw / 2 + (col - (cols - 1) / 2) * Math.min(step, (aw - 10) / cols);
  if (r.side === "corner") return [x, ay + ah - rad - 9 - row * step * 0.9]; // along the bottom, clear of the name
  const rows = Math.ceil(n / per);
  const y = ay + ah * 0.62 + (row - (rows - 1) / 2) * step * 0.9;
  return [x, y];
}

function placeToken(t, i, seat, jailed) {
  const [x, y] = tokenSpot(i, seat, jailed);
  t.g.style.transform = `translate(${x}px, ${y}px)`;
}

function moveTokens() {
  const n = geo.n;
  G.view.players.forEach((p) => {
    const t = tokens[p.seat];
    t.g.style.display = p.alive ? "" : "none";
    t.g.dataset.position = p.position;
    const target = p.position, jailed = p.in_jail;
    if (t.at === target && t.jailed === jailed) return;
    clearInterval(t.timer);
    const dist = (target - t.at + n) % n;
    if (t.at < 0 || jailed || dist === 0 || dist > 12) {
      t.at = target;
      t.jailed = jailed;
      placeToken(t, target, p.seat, jailed);
      return;
    }
    // Walk square by square, briefly.
    let at = t.at;
    t.jailed = jailed;
    t.timer = setInterval(() => {
      at = (at + 1) % n;
      placeToken(t, at, p.seat, false);
      if (at === target) {
        clearInterval(t.timer);
        t.at = target;
      }
    }, 110);
    t.at = target; // the destination is known; the walk is only a picture
  });
}

// The places the decision can put something (a won building, the snowflake): square -> action.
function placeTargets() {
  const targets = new Map();
  for (const a of legalActions()) {
    if (a.kind === "place_building" || a.kind === "place_snowflake") targets.set(a.args[0], a);
  }
  return targets;
}

function drawDynamic() {
  rendered = true;
  const v = G.view;
  const targets = placeTargets();
  geo.squares.forEach((r, i) => {
    const d = layers.dyn[i];
    d.textContent = "";
    const s = v.squares[i];
    const gnode = layers.squares[i];
    gnode.dataset.owner = s.owner;
    gnode.dataset.level = s.level;
    gnode.dataset.mortgaged = s.mortgaged ? "true" : "false";
    gnode.classList.toggle("target", targets.has(i));
    gnode.classList.toggle("selected", selected === i);
    gnode.setAttribute("aria-label", squareLabel(i, targets.get(i)));
    if (r.side === "corner") return;
    const big = geo.n < 40;
    if (s.owner >= 0) {
      const c = G.colors[s.owner];
      d.append(svg("rect", { x: r.outer[0], y: r.outer[1], width: r.outer[2], height: r.outer[3], fill: c }));
      // The owner's name replaces the price.
      const [ax, ay, aw, ah] = r.area;
      const size = fs(big ? 13 : 11);
      const h = size + 7;
      d.append(svg("rect", { x: ax + 4, y: ay + ah - h - 3, width: aw - 8, height: h, rx: h / 2, fill: c }));
      const name = fitLines(G.short(s.owner), aw - 14, 1, size, 700)[0];
      d.append(svg("text", { x: ax + aw / 2, y: ay + ah - 3 - h / 2 + size * 0.35, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill: inkOn(c), class: "owner-label" }, name));
    }
    if (s.level > 0 && r.band) drawBuildings(d, r.rest, s.level);
    if (s.mortgaged) {
      // Hatched, with a red tag on the band beside the group's letter (no buildings then).
      d.append(svg("rect", { x: r.x, y: r.y, width: r.w, height: r.h, fill: "url(#hatch)", class: "mortgage-mark" }));
      const [bx, by, bw, bh] = r.rest;
      const cx = bx + bw / 2, cy = by + bh / 2;
      const vertical = bh > bw;
      const size = fs(9.5);
      const word = fitOne(["MORTGAGED", "MORTG.", "M"], Math.max(bw, bh) - 8, size, 800) || "M";
      const w = textWidth(word, size, 800) + 8, h = size + 6;
      const label = svg("g", { transform: vertical && w > bw ? `rotate(-90 ${cx} ${cy})` : "" },
        svg("rect", { x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: 3, fill: "#b3261e" }),
        svg("text", { x: cx, y: cy + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 800, fill: "#fff", "letter-spacing": 0.5 }, word));
      d.append(label);
    }
    if (v.snowflake === i) {
      // The snowflake token sits on the scene's colour band, big enough to see at a glance.
      const [bx, by, bw, bh] = r.band;
      const f = snowflakeIcon(d, bx + bw / 2, by + bh / 2, Math.min(bw, bh) * 0.42);
      f.setAttribute("class", "snowflake-token");
    }
  });
  // The board is one stop of the Tab key: on a square to place on when there is one, else on
  // the last square focused, else where this seat stands.
  const mine = G.seat !== null && v.players[G.seat] ? v.players[G.seat].position : 0;
  const first = targets.size ? [...targets.keys()][0] : -1;
  const stop = first >= 0 && !targets.has(rover) ? first : rover >= 0 ? rover : mine;
  layers.squares.forEach((g, k) => g.setAttribute("tabindex", k === stop ? "0" : "-1"));
  moveTokens();
  drawCentre();
}

// What a screen reader says for square i: its name, group, price or owner, buildings, who stands there.
function squareLabel(i, target) {
  const v = G.view;
  const sq = G.board.squares[i];
  const s = v.squares[i];
  const grp = group(i);
  const bits = [sq.name];
  if (grp && sq.kind === "street") bits.push(`${grp.name} group (${codes[sq.group]})`);
  if (sq.price) bits.push(`price ${money(sq.price)}`);
  if (sq.kind === "tax") bits.push(`pay ${money(sq.amount || 0)}`);
  if (isProperty(i)) bits.push(s.owner >= 0 ? `owned by ${G.name(s.owner)}` : "not owned");
  if (s.level > 0) bits.push(levelText(s.level));
  if (s.mortgaged) bits.push("mortgaged");
  if (v.snowflake === i) bits.push("the snowflake is here");
  const here = v.players.filter((p) => p.alive && p.position === i).map((p) => `${G.name(p.seat)}${p.in_jail ? ` (in ${G.board.names.jail})` : ""}`);
  if (here.length) bits.push(`here: ${here.join(", ")}`);
  if (target) bits.push(`choose to ${target.label}`);
  return bits.join(", ");
}

function drawBuildings(d, rest, level) {
  const [bx, by, bw, bh] = rest;
  const vertical = bh > bw;
  const long = vertical ? bh : bw, short = vertical ? bw : bh;
  if (level >= 5) {
    const w = vertical ? short * 0.7 : Math.min(long * 0.7, short * 1.6), h = vertical ? Math.min(long * 0.7, short * 1.6) : short * 0.7;
    d.append(svg("rect", { class: "hotel", x: bx + (bw - w) / 2, y: by + (bh - h) / 2, width: w, height: h, rx: 3, fill: "#c62828", stroke: "#fff", "stroke-width": 1.5 }));
    return;
  }
  const s = Math.min(short, long / 4.6) * 0.72;
  if (s * unit >= 6) {
    // One small house per house, side by side.
    for (let k = 0; k < level; k++) {
      const off = (long / 4) * (k + 0.5) - s / 2;
      const x = vertical ? bx + (bw - s) / 2 : bx + off;
      const y = vertical ? by + off : by + (bh - s) / 2;
      d.append(svg("rect", { class: "house", x, y, width: s, height: s, rx: 2, fill: "#2e7d32", stroke: "#fff", "stroke-width": 1.5 }));
    }
    return;
  }
  // Too small to count by eye: one house with the number on it.
  const size = fs(11);
  const side = Math.min(short * 0.92, long), cx = bx + bw / 2, cy = by + bh / 2;
  d.append(svg("rect", { class: "house", x: cx - side / 2, y: cy - side / 2, width: side, height: side, rx: 3, fill: "#2e7d32", stroke: "#fff", "stroke-width": 1.5 }));
  d.append(svg("text", { x: cx, y: cy + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 800, fill: "#fff", class: "house-count" }, String(level)));
}

function die(x, y, s, value, cls) {
  const g = svg("g", { class: cls, transform: `translate(${x},${y})` });
  const inner = svg("g", { class: "dice" });
  inner.append(svg("rect", { x: 0, y: 0, width: s, height: s, rx: s * 0.16, fill: "#fff", stroke: "#2b3a33", "stroke-width": 2 }));
  const pips = {
    1: [[0.5, 0.5]], 2: [[0.27, 0.27], [0.73, 0.73]], 3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
  }[value] || [];
  for (const [px, py] of pips) inner.append(svg("circle", { cx: px * s, cy: py * s, r: s * 0.09, fill: "#1c2421" }));
  if (!value) inner.append(svg("text", { x: s / 2, y: s / 2 + 6, "text-anchor": "middle", "font-size": fs(18), fill: "#5f6b66" }, "–"));
  g.append(inner);
  return g;
}

// "Monopoly (US standard board)" -> ["Monopoly", "US standard board"]; "Monopoly Frozen II" ->
// ["Monopoly", "Frozen II"]: the title's two lines.
function titleParts(name) {
  const paren = name.match(/^(.*?)\s*\((.*)\)\s*$/);
  if (paren) return [paren[1], paren[2]];
  const words = name.split(/\s+/);
  return words.length > 1 ? [words[0], words.slice(1).join(" ")] : [name, ""];
}

function drawCentre() {
  const c = layers.centre;
  c.textContent = "";
  const v = G.view;
  const C = geo.C;
  const mid = SIZE / 2;
  const inner = SIZE - 2 * C;
  // The edition's name in meeple's own look (the top bar's wordmark: heavy type on its dark
  // green, the second part in its light green), not a copy of any trademark's logo.
  const [main, sub] = titleParts(G.board.name);
  const maxW = inner - 120;
  const s1 = Math.max(floor, Math.min(50, (50 * maxW) / textWidth(main, 50, 800)));
  const s2 = fs(24);
  const line1 = fitLines(main, maxW, 1, s1, 800)[0];
  const line2 = sub ? fitLines(sub, maxW, 1, s2, 700)[0] : "";
  const w = Math.max(textWidth(line1, s1, 800), line2 ? textWidth(line2, s2, 700) : 0) + 56;
  const h = s1 * 1.05 + (line2 ? s2 * 1.3 : 0) + 30;
  const top = C + 26;
  c.append(svg("rect", { x: mid - w / 2, y: top, width: w, height: h, rx: 18, fill: "#17392a", class: "centre-title" }));
  c.append(svg("text", { x: mid, y: top + 14 + s1 * 0.82, "text-anchor": "middle", "font-size": s1, "font-weight": 800, fill: "#ffffff", "letter-spacing": s1 * 0.02, id: "edition-title" }, line1));
  if (line2) c.append(svg("text", { x: mid, y: top + 14 + s1 * 1.05 + s2 * 1.0, "text-anchor": "middle", "font-size": s2, "font-weight": 700, fill: "#9fe0b9" }, line2));
  // The latest events, where a phone user looks.
  const rs = fs(17);
  const recent = G.log.slice(-2).map((e) => G.words(e.text));
  recent.forEach((text, k) => {
    c.append(svg("text", { x: mid, y: top + h + 18 + rs + k * rs * 1.3, "text-anchor": "middle", "font-size": rs, fill: k === recent.length - 1 ? "#1c2421" : "#4f5a55", class: "recent" }, ellipsize(text, inner - 40, rs)));
  });
  // Dice
  const nd = G.board.rules.dice;
  const s = 74;
  const rolling = lastDiceSid !== G.stateId && G.log.some((e) => e.sid === G.stateId && / rolls /.test(e.text));
  if (rolling) lastDiceSid = G.stateId;
  const diceY = Math.max(mid - 40, top + h + 30 + rs * 2.4);
  const dice = svg("g", { id: "dice", dataset: { values: v.dice.slice(0, nd).join(",") } });
  for (let k = 0; k < nd; k++) {
    dice.append(die(mid - (nd * s + (nd - 1) * 18) / 2 + k * (s + 18), diceY, s, v.dice[k], rolling ? "rolling" : ""));
  }
  c.append(dice);
  // Whose turn
  const ts = fs(22), ds = fs(17);
  const turnText = v.over ? "Game over" : `Turn ${v.turn_no} · ${G.name(v.turn)}`;
  const turnY = diceY + s + 12 + ts;
  c.append(svg("text", { x: mid, y: turnY, "text-anchor": "middle", "font-size": ts, "font-weight": 700, fill: "#1c2421", id: "turn-text" }, fitLines(turnText, inner - 40, 1, ts, 700)[0]));
  const dec = G.decider;
  if (dec >= 0 && dec !== v.turn) {
    c.append(svg("text", { x: mid, y: turnY + ds * 1.4, "text-anchor": "middle", "font-size": ds, fill: "#3a4540" }, fitLines(`${G.name(dec)} decides now`, inner - 40, 1, ds)[0]));
  }
  // Decks and the bank
  const bs = fs(16), ns = fs(14), cs = fs(12);
  const bankY = SIZE - C - 30;
  const bankWords = [];
  if (G.board.rules.buildings) {
    const names = G.board.names;
    bankWords.push(`Bank: ${plural(v.bank.houses, names.house)} · ${plural(v.bank.hotels, names.hotel)}`);
  }
  // The house rule free_parking_money: the money waiting on Free Parking.
  if (v.bank.pot !== undefined) bankWords.push(`Free Parking pot: ${money(v.bank.pot)}`);
  bankWords.forEach((words, k) => {
    const y = bankY - (bankWords.length - 1 - k) * bs * 1.35;
    c.append(svg("text", { x: mid, y, "text-anchor": "middle", "font-size": bs, fill: "#3a4540", class: "bank-line" },
      fitLines(words, inner - 30, 1, bs)[0]));
  });
  const decks = v.decks;
  const gap = 24;
  const widest = Math.max(...decks.map((d) => Math.max(...d.name.split(/\s+/).map((word) => textWidth(word, ns, 600)))));
  const dw = Math.min((inner - 40 - gap * (decks.length - 1)) / Math.max(1, decks.length), Math.max(150, widest + 20));
  const deckLines = decks.map((d) => fitLines(d.name, dw - 14, 2, ns, 600));
  const dh = 16 + Math.max(...deckLines.map((l) => l.length)) * ns * 1.12 + cs + 14;
  const total = decks.length * dw + (decks.length - 1) * gap;
  const deckY = bankY - Math.max(1, bankWords.length) * bs * 1.35 - 22 - dh;
  decks.forEach((d, k) => {
    const x = mid - total / 2 + k * (dw + gap);
    c.append(svg("rect", { x, y: deckY, width: dw, height: dh, rx: 10, fill: deckFill(d.id), stroke: "#2b3a33", "stroke-width": 1.5, transform: `rotate(${k % 2 ? 4 : -4} ${x + dw / 2} ${deckY + dh / 2})` }));
    textLines(c, deckLines[k], x + dw / 2, deckY + 12 + ns * 0.92, ns, "sq-name");
    c.append(svg("text", { x: x + dw / 2, y: deckY + dh - 12, "text-anchor": "middle", "font-size": cs, fill: "#3a4540" }, `${d.cards_left} cards`));
  });
}

// ---------------------------------------------------------------- square details

function clickSquare(i) {
  const a = placeTargets().get(i);
  if (a) {
    G.act(a.text);
    return;
  }
  selected = selected === i ? -1 : i;
  preview = -1;
  drawDynamic();
  renderInspect();
}

function showPreview(i) {
  if (preview === i) return;
  preview = i;
  renderInspect();
}

function closeDeed() {
  const back = dom.deed.contains(document.activeElement) ? selected : -1; // closed from the card
  selected = -1;
  preview = -1;
  drawDynamic();
  renderInspect();
  if (back >= 0) layers.squares[back].focus();
}

// The board's keys: arrows go round the board, Enter or Space is a tap, Escape closes the deed.
function boardKeys(e) {
  const g = e.target.closest ? e.target.closest(".sq") : null;
  if (!g) return;
  const i = Number(g.dataset.index), n = geo.n;
  const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  let to = -1;
  if (e.key in moves) to = (i + moves[e.key] + n) % n;
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = n - 1;
  else if (e.key === "Enter" || e.key === " ") clickSquare(i);
  else if (e.key === "Escape") closeDeed();
  else return;
  e.preventDefault();
  if (to >= 0) {
    layers.squares.forEach((sq, k) => sq.setAttribute("tabindex", k === to ? "0" : "-1"));
    layers.squares[to].focus();
  }
}

// The deed of the square hovered or focused, else of the one tapped: rents, costs, owner.
function renderInspect() {
  const box = dom.deed;
  if (!box) return;
  const i = preview >= 0 ? preview : selected;
  box.textContent = "";
  box.hidden = i < 0;
  if (i < 0) return;
  const sq = G.board.squares[i];
  const st = G.view.squares[i];
  const grp = group(i);
  const street = grp && sq.kind === "street";
  const head = el("div", { class: "title", style: street ? `background:${grp.color};color:${inkOn(grp.color)}` : "background:#eef1ec" },
    el("div", {}, sq.name),
    grp ? el("div", { class: "group-line" }, `${grp.name} · ${codes[sq.group]}`) : null);
  const rows = [];
  const names = G.board.names;
  const rules = G.board.rules;
  if (sq.kind === "street" && sq.rent) {
    rows.push(["Rent", money(sq.rent[0])]);
    rows.push([`With the whole ${grp ? grp.name : ""} group`, money(sq.rent[0] * rules.set_rent_multiplier)]);
    if (rules.buildings) {
      for (let k = 1; k <= 4; k++) rows.push([`With ${plural(k, names.house)}`, money(sq.rent[k])]);
      rows.push([`With a ${names.hotel}`, money(sq.rent[5])]);
      rows.push([`${cap(names.house)} cost`, money(sq.house_cost)]);
    }
  } else if (sq.kind === "railroad") {
    rules.railroad_rents.forEach((r, k) => rows.push([`Rent, ${k + 1} owned`, money(r)]));
  } else if (sq.kind === "utility") {
    rules.utility_multipliers.forEach((m, k) => rows.push([`Rent, ${k + 1} owned`, `${m} × dice`]));
  } else if (sq.kind === "tax") {
    rows.push(["Tax", money(sq.amount || 0)]);
  }
  if (sq.price) rows.unshift(["Price", money(sq.price)]);
  if (sq.mortgage && rules.mortgages) rows.push(["Mortgage value", money(sq.mortgage)]);
  const owner = st.owner >= 0 ? G.name(st.owner) : (isProperty(i) ? "the bank" : "");
  box.setAttribute("aria-label", `Deed: ${sq.name}`);
  // A square that is not a deed says what it does (GO, the decks, Elements, the Snowflake).
  const about = sq.about ? el("p", { class: "small about-line" }, cap(sq.about) + ".") : null;
  box.append(el("div", { class: "deed" }, head,
    rows.length ? el("table", {}, el("tbody", {}, rows.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v))))) : null,
    about,
    owner ? el("p", { class: "small owner-line" },
      `Owner: ${owner}`, st.level ? ` · ${levelText(st.level)}` : "", st.mortgaged ? " · mortgaged" : "") : null));
  if (i === selected && preview < 0) {
    // Tapped: it stays, with a way (on top, in reach) to step to the squares either side: a
    // phone's fingers are wider than a square.
    const n = geo.n;
    const step = (k, id) => () => {
      selected = (selected + k + n) % n;
      drawDynamic();
      renderInspect();
      document.getElementById(id).focus();
    };
    box.prepend(el("div", { class: "deed-nav" },
      el("button", { type: "button", id: "deed-prev", "aria-label": "Previous square", onclick: step(-1, "deed-prev") }, "‹"),
      el("button", { type: "button", id: "deed-close", onclick: closeDeed }, "Close"),
      el("button", { type: "button", id: "deed-next", "aria-label": "Next square", onclick: step(1, "deed-next") }, "›")));
  }
}

// ---------------------------------------------------------------- prompts

function frameText() {
  const v = G.view;
  const f = v.frame;
  const me = G.seat;
  const dec = G.decider;
  const who = (s) => (s === me ? "you" : G.name(s));
  const Who = (s) => cap(who(s));
  if (v.over || G.status === "finished") return "The game is over.";
  if (f) {
    switch (f.frame) {
      case "buy": {
        const sq = G.board.squares[f.square];
        return `${Who(f.player)} landed on ${sq.name} (${money(sq.price)}): buy it${G.board.rules.auctions ? " or send it to auction" : ""}?`;
      }
      case "auction": {
        const what = f.item === 0 ? sqName(f.square) : f.item === 1 ? G.board.names.house : G.board.names.hotel;
        return `Auction of ${what}: ${who(dec)} to bid.`;
      }
      case "debt":
        return `${Who(f.debtor)} owe${f.debtor === me ? "" : "s"} ${money(f.amount)} to ${f.creditor === -2 ? "the Free Parking pot" : f.creditor < 0 ? "the bank" : who(f.creditor)} and must raise the money.`;
      case "trade":
        if (!f.responding) return `${Who(f.proposer)} ${f.proposer === me ? "are" : "is"} drafting an offer to ${who(f.target)}.`;
        return `${Who(f.proposer)} made an offer to ${who(f.target)}.`;
      case "mortgage_fee":
        return `${Who(f.player)} received mortgaged deeds: lift each mortgage now or pay the interest.`;
      case "shortage":
        return `${cap(f.item === 1 ? G.board.names.house : G.board.names.hotel)}s are short: does ${who(dec)} want one too?`;
      case "place":
        return `${Who(f.player)} won a ${f.item === 1 ? G.board.names.house : G.board.names.hotel}: place it on a street.`;
      case "snowflake":
        return `${Who(f.player)} place${f.player === me ? "" : "s"} the snowflake on a scene.`;
      default:
        return `${Who(dec)} decides.`;
    }
  }
  const p = v.players[v.turn];
  switch (v.phase) {
    case "pre_roll":
      return dec === me ? "Your turn: roll the dice." : `${G.name(v.turn)}'s turn: rolling.`;
    case "jail": {
      const j = G.board.names.jail;
      if (G.board.rules.jail_style === "time_out") return `${Who(v.turn)} ${v.turn === me ? "are" : "is"} in ${j}: leave with a card or the fine.`;
      return `${Who(v.turn)} ${v.turn === me ? "are" : "is"} in ${j} (turn ${p.jail_turns + 1} of ${G.board.rules.max_jail_turns}).`;
    }
    case "end_turn":
      return dec === me ? "Build, mortgage or trade now, or end your turn." : `${G.name(v.turn)} is finishing the turn.`;
    case "window":
      return dec === me ? `${G.name(v.turn)} moved: you may build, mortgage or trade now, or pass.` : `${G.name(dec)} may act before the next turn.`;
    default:
      return `${Who(dec)} decides.`;
  }
}

// ---------------------------------------------------------------- controls

const MAIN_ORDER = ["roll", "pay_fine", "use_card", "buy", "decline", "accept", "reject", "counter", "want_building", "no_building", "claim_rent", "end_turn", "pass", "bankrupt"];
const PRIMARY = new Set(["roll", "buy", "accept", "end_turn", "want_building"]);
const DANGER = new Set(["bankrupt", "reject"]);

function renderControls() {
  const box = dom.controls;
  // The panel is rebuilt on every update: keep what the person is typing (a bid, a limit, an
  // amount) and where the focus is, so an update never eats a half-typed number.
  const typed = new Map([...box.querySelectorAll("input[id][data-typed]")].map((i) => [i.id, i.value]));
  const focused = box.contains(document.activeElement) ? document.activeElement.id : "";
  box.textContent = "";
  buildControls(box);
  for (const [id, value] of typed) {
    const input = box.querySelector(`#${id}`);
    if (input && value !== "") {
      input.value = value;
      input.dataset.typed = "1";
    }
  }
  if (focused) {
    const again = box.querySelector(`#${focused}`);
    if (again) again.focus();
  }
}

function buildControls(box) {
  const acts = legalActions();
  const mine = acts.length > 0;
  const v = G.view;
  const f = v.frame;
  const me = G.seat;
  box.append(el("h2", {}, mine ? "Your decision" : G.status === "finished" ? "Finished" : "Waiting"));
  box.append(el("p", { class: `prompt${mine ? " mine" : ""}`, id: "prompt", style: "margin: .45rem 0 .6rem" }, frameText()));
  if (me !== null && !mine && G.status !== "finished" && G.decider >= 0) {
    const waiting = G.decider === me ? "Loading your choices…" : G.waitingFor(G.decider);
    box.append(el("p", { class: "muted small" }, waiting));
  }
  if (me !== null && v.players[me]) {
    const p = v.players[me];
    const where = p.in_jail ? `in ${G.board.names.jail}` : `on ${sqName(p.position)}`;
    box.append(el("p", { class: "small muted", style: "margin: 0 0 .6rem" }, `You have ${money(p.cash)} and stand ${where}.`));
  }

  if (f && f.frame === "debt" && f.debtor === me) {
    const short = f.amount - v.players[me].cash;
    box.append(el("p", { class: "notice small", id: "debt" }, short > 0
      ? `Raise ${money(short)} more: sell buildings or mortgage below, or trade.`
      : "You have the money now."));
  }
  // The frame's own panel (auction, trade, debt, ...), visible to everyone.
  if (f && f.frame === "auction") box.append(auctionPanel(f, acts));
  if (f && f.frame === "trade") box.append(tradePanel(f, acts));
  if (f && f.frame === "mortgage_fee" && mine) box.append(feePanel(f, acts));

  // The move the table makes for us after the grace time, instead of the main choices.
  const auto = me !== null && G.auto && G.decider === me ? G.auto : null;
  if (auto && auto.moment !== "proxy") box.append(autoPanel(G, auto)); // a proxy shows in the auction
  // "I want to act" wherever the table moves on for us without a countdown (or waits on others).
  if ((!auto || !auto.grace) && me !== null && G.status !== "finished" && v.players[me] && v.players[me].alive) {
    const h = holdPanel(mine && !auto);
    if (h) box.append(h);
  }

  // The main choices.
  const main = auto ? [] : acts.filter((a) => MAIN_ORDER.includes(a.kind));
  main.sort((a, b) => MAIN_ORDER.indexOf(a.kind) - MAIN_ORDER.indexOf(b.kind));
  if (main.length) {
    const row = el("div", { class: "actions", id: "main-actions" });
    for (const a of main) {
      let label = a.label;
      if (a.kind === "buy" && f && f.frame === "buy") label = `Buy for ${money(G.board.squares[f.square].price)}`;
      if (a.kind === "pass" && f && f.frame === "auction") continue; // in the auction panel
      if (a.kind === "pass" && !f) label = v.phase === "window" ? "Pass" : label;
      row.append(button(a, { label, cls: PRIMARY.has(a.kind) || (a.kind === "pass" && !f) ? "primary" : DANGER.has(a.kind) ? "danger" : "" }));
    }
    if (row.childElementCount) box.append(row);
  }
  const places = acts.filter((a) => a.kind === "place_building" || a.kind === "place_snowflake");
  if (places.length) {
    box.append(el("div", { class: "section-title" }, "Choose a square (or tap it on the board)"));
    box.append(el("div", { class: "actions" }, places.map((a) => button(a, { label: sqName(a.args[0]) }))));
  }
  const trades = acts.filter((a) => a.kind === "trade");
  if (trades.length) {
    box.append(el("div", { class: "section-title" }, "Trade"));
    box.append(el("div", { class: "actions", id: "trade-targets" }, trades.map((a) => button(a, { label: `Offer a trade to ${G.name(a.args[0])}` }))));
  }
  const groupSales = acts.filter((a) => a.kind === "sell_group");
  if (groupSales.length) box.append(el("div", { class: "actions", style: "margin-top: .5rem" }, groupSales.map((a) => button(a, { cls: "danger" }))));
  if (me !== null) {
    const props = propertiesPanel(acts);
    if (props) box.append(props);
    if (G.status !== "finished") box.append(askSettings());
  }
}

// Building, mortgaging and trading happen at the windows the rules give; the table only stops
// for them when asked to (a hold), so the turn flows for everyone else.
function holdPanel(mine) {
  const rules = G.board.rules;
  if (!rules.buildings && !rules.mortgages && !rules.trading) return null;
  const what = [rules.buildings && "build", rules.mortgages && "mortgage", rules.trading && "trade"].filter(Boolean).join(", ");
  if (!G.held) {
    if (mine) return null; // asked now: the choices are below
    return el("div", { class: "hold", id: "hold" },
      el("button", { type: "button", id: "hold-on", onclick: () => G.hold(true) }, `I want to ${what}`),
      el("span", { class: "muted small" }, " The table waits for you at your next chance."));
  }
  return el("div", { class: "hold held", id: "hold" },
    el("span", { class: "small" }, mine ? "The table is waiting for you: act below, then move on." : "Holding: the table waits for you at your next chance to act."),
    el("button", { type: "button", class: "small", id: "hold-off", onclick: () => G.hold(false) }, mine ? "Let the table move on" : "Never mind"));
}

// When the table asks us, kept on the server for this seat.
function askSettings() {
  const a = G.ask || { others_turns: "always", own_turn: "always", grace: 2 };
  const sel = (id, label, value, options) => {
    const s = el("select", { id, "aria-label": label }, options.map(([v, t]) => el("option", { value: v }, t)));
    s.value = String(value);
    return el("label", { class: "ask-row" }, el("span", {}, label), s);
  };
  const box = el("details", { class: "ask-settings", id: "ask-settings" },
    el("summary", {}, "When to ask me"),
    sel("ask-others", "In others' turns", a.others_turns, [["never", "Never (I'll say when)"], ["build", "When I can build"], ["always", "Always"]]),
    sel("ask-own", "In my turn", a.own_turn, [["build", "Only when I can build"], ["roll", "Before each roll"], ["always", "Before each roll and turn end"]]),
    sel("ask-grace", "Wait before moving on", a.grace, [["0", "no wait"], ["1", "1 s"], ["2", "2 s"], ["3", "3 s"], ["5", "5 s"], ["10", "10 s"]]),
    G.ask ? null : el("p", { class: "muted small" }, "Now: every decision is asked."));
  box.open = !!dom.askOpen;
  box.addEventListener("toggle", () => { dom.askOpen = box.open; });
  box.addEventListener("change", () => {
    G.setAsk({ others_turns: box.querySelector("#ask-others").value, own_turn: box.querySelector("#ask-own").value, grace: Number(box.querySelector("#ask-grace").value) });
  });
  return box;
}

function auctionPanel(f, acts) {
  const me = G.seat;
  const what = f.item === 0 ? sqName(f.square) : f.item === 1 ? `a ${G.board.names.house}` : `a ${G.board.names.hotel}`;
  const next = f.high_bidder >= 0 ? f.high + 1 : f.min_bid;
  const box = el("div", { class: "stack", id: "auction", style: "margin-bottom: .8rem" });
  box.append(el("div", { class: "auction-head" },
    el("div", {}, el("div", { class: "muted small" }, "Auction"), el("b", {}, what),
      f.item === 0 ? el("div", { class: "muted small" }, `Printed price ${money(G.board.squares[f.square].price)}`) : null),
    el("div", { style: "text-align: right" }, el("div", { class: "muted small" }, "Highest bid"),
      el("div", { class: "big-money", id: "high-bid" }, f.high_bidder >= 0 ? money(f.high) : "none"),
      el("div", { class: "small", id: "high-bidder" }, f.high_bidder >= 0 ? `by ${f.high_bidder === me ? "you" : G.name(f.high_bidder)}` : ""))));
  box.append(el("div", { class: "small" }, "Still bidding: ",
    f.active.map((s, k) => el("span", { class: "badge", style: k === f.turn ? `background:${G.colors[s]};color:${inkOn(G.colors[s])}` : "" }, G.name(s)))));
  const bids = acts.filter((a) => a.kind === "bid");
  const pass = acts.find((a) => a.kind === "pass");
  const inIt = me !== null && f.active.includes(me);
  if (inIt && G.proxy !== null && G.proxy !== undefined) {
    // A standing bid: the server raises by the least for us up to the limit, then drops out.
    box.append(el("div", { class: "notice", id: "proxy-on" }, `Bidding for you up to ${money(G.proxy)}. `,
      el("button", { type: "button", class: "small", id: "proxy-stop", onclick: () => G.setProxy(null) }, "Stop")));
    return box;
  }
  if (bids.length || pass) {
    const cash = G.view.players[me].cash;
    // Quick bids: the highest bid plus 1, 10 or 50 (any amount in range is legal).
    const base = f.high_bidder >= 0 ? f.high : next - 1;
    const quick = [1, 10, 50].map((d) => [d, Math.max(next, base + d)]).filter(([, x]) => x <= cash);
    box.append(el("div", { class: "actions", id: "quick-bids" }, quick.map(([d, x], k) =>
      el("button", { type: "button", class: k === 0 ? "primary" : "", disabled: G.busy, dataset: { action: `bid ${x}` }, "aria-label": `Bid ${money(x)}`, onclick: () => G.act(`bid ${x}`) },
        f.high_bidder >= 0 ? `+${d} · ${money(x)}` : money(x)))));
    if (bids.length) {
      const input = el("input", { type: "number", id: "bid-amount", min: next, max: cash, step: 1, value: next, "aria-label": "Bid amount", inputmode: "numeric" });
      const send = () => {
        const x = Math.floor(Number(input.value));
        if (!Number.isFinite(x) || x < next || x > cash) {
          input.setCustomValidity(`Bid ${money(next)} to ${money(cash)}`);
          input.reportValidity();
          return;
        }
        G.act(`bid ${x}`);
      };
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
      box.append(el("div", { class: "bid-box" }, input, el("button", { type: "button", class: "primary", id: "bid-send", disabled: G.busy, onclick: send }, "Bid")));
      box.append(el("div", { class: "muted small" }, `Any amount from ${money(next)} to ${money(cash)}.`));
    }
    if (pass) box.append(button(pass, { label: "Drop out of the auction", cls: "danger" }));
  }
  if (inIt) {
    const cash = G.view.players[me].cash;
    const limit = el("input", { type: "number", id: "proxy-limit", min: next, max: cash, step: 1, placeholder: "your limit", "aria-label": "Bid for me up to", inputmode: "numeric" });
    const set = () => {
      const x = Math.floor(Number(limit.value));
      if (limit.value.trim() === "" || !Number.isFinite(x) || x < 0) {
        limit.setCustomValidity("A whole amount");
        limit.reportValidity();
        return;
      }
      G.setProxy(x);
    };
    limit.addEventListener("keydown", (e) => { if (e.key === "Enter") set(); });
    box.append(el("div", { class: "small" }, "Or let the table bid for you, the least each time, up to:"));
    box.append(el("div", { class: "bid-box" }, limit, el("button", { type: "button", id: "proxy-set", disabled: G.busy, onclick: set }, "Bid up to")));
  }
  return box;
}

function tradePanel(f, acts) {
  const me = G.seat;
  const box = el("div", { class: "stack", id: "trade", style: "margin-bottom: .8rem" });
  const other = f.proposer === me ? f.target : f.proposer;
  if (f.drafting && f.proposer !== me) {
    box.append(el("p", { class: "muted small" }, `${G.name(f.proposer)} is writing an offer to ${f.target === me ? "you" : G.name(f.target)}.`));
    return box;
  }
  const drafting = !f.responding && f.proposer === me && acts.length > 0;
  const toggles = new Map(acts.filter((a) => a.kind === "trade_deed").map((a) => [a.args[0], a]));
  const cardToggles = new Map(acts.filter((a) => a.kind === "trade_card").map((a) => [a.args[0], a]));
  const side = (seat, title) => {
    const col = el("div", { class: "col" }, el("h3", {}, title));
    const list = el("div", { class: "toggle-list" });
    const deeds = G.view.squares.filter((s) => s.owner === seat && (f.deeds.includes(s.index) || toggles.has(s.index)));
    for (const s of deeds) {
      const grp = group(s.index);
      const on = f.deeds.includes(s.index);
      const a = toggles.get(s.index);
      const label = [el("span", { class: "sw", style: `background:${grp ? grp.color : "#999"}` }), sqName(s.index), s.mortgaged ? " (mortgaged)" : ""];
      if (drafting) list.append(el("button", { type: "button", class: on ? "on" : "", disabled: !a || G.busy, dataset: { action: a ? a.text : "", square: s.index }, "aria-pressed": on ? "true" : "false", onclick: () => a && G.act(a.text) }, on ? "✓ " : "", label));
      else if (on) list.append(el("div", { class: "small row" }, label));
    }
    G.board.jail_cards.forEach((deck, j) => {
      const holder = G.view.players.findIndex((p) => p.jail_cards.includes(j));
      if (holder !== seat) return;
      const on = f.cards.includes(j);
      const a = cardToggles.get(j);
      if (drafting) list.append(el("button", { type: "button", class: on ? "on" : "", disabled: !a || G.busy, onclick: () => a && G.act(a.text) }, on ? "✓ " : "", `${deck} ${G.board.names.jail_card_short}`));
      else if (on) list.append(el("div", { class: "small" }, `${deck} ${G.board.names.jail_card_short}`));
    });
    if (!list.childElementCount) list.append(el("div", { class: "muted small" }, drafting ? "nothing to offer" : "nothing"));
    col.append(list);
    return col;
  };
  const iAmProposer = f.proposer === me;
  const cashText = f.cash === 0 ? "No cash" : f.cash > 0 ? `${iAmProposer ? "You pay" : `${G.name(f.proposer)} pays`} ${money(f.cash)}` : `${iAmProposer ? `${G.name(f.target)} pays` : f.target === me ? "You pay" : `${G.name(f.target)} pays`} ${money(-f.cash)}`;
  if (me === null || (me !== f.proposer && me !== f.target)) {
    box.append(el("div", { class: "trade-cols" }, side(f.proposer, `${G.name(f.proposer)} gives`), side(f.target, `${G.name(f.target)} gives`)));
  } else {
    box.append(el("div", { class: "trade-cols" }, side(me, "You give"), side(other, `${G.name(other)} gives`)));
  }
  box.append(el("div", { class: "small", id: "trade-cash" }, `Cash: ${cashText}`));
  if (drafting) {
    const mine = G.view.players[me].cash, theirs = G.view.players[f.target].cash;
    const input = el("input", { type: "number", min: 0, step: 1, value: Math.abs(f.cash) || "", placeholder: "amount", id: "trade-amount", "aria-label": "Cash amount", inputmode: "numeric" });
    const set = (sign) => {
      const x = Math.floor(Number(input.value || 0));
      const limit = sign > 0 ? mine : theirs;
      if (!Number.isFinite(x) || x < 0 || x > limit) {
        input.setCustomValidity(`At most ${money(limit)}`);
        input.reportValidity();
        return;
      }
      G.act(`trade_cash ${sign * x}`);
    };
    box.append(el("div", { class: "bid-box" }, input,
      el("button", { type: "button", id: "trade-i-pay", disabled: G.busy, onclick: () => set(1) }, "I pay"),
      el("button", { type: "button", id: "trade-they-pay", disabled: G.busy, onclick: () => set(-1) }, "They pay")));
    box.append(el("div", { class: "muted small" }, `Changes left in this offer: ${Math.max(0, 12 - f.edits)}.`));
    const propose = acts.find((a) => a.kind === "propose");
    const cancel = acts.find((a) => a.kind === "cancel");
    box.append(el("div", { class: "actions" }, button(propose, { label: "Propose the offer", cls: "primary" }), button(cancel, { label: "Cancel", cls: "danger" })));
  }
  return box;
}

function feePanel(f, acts) {
  const box = el("div", { class: "stack", style: "margin-bottom: .8rem" });
  for (const sq of f.deeds) {
    const lift = acts.find((a) => a.kind === "lift_mortgage" && a.args[0] === sq);
    const keep = acts.find((a) => a.kind === "keep_mortgage" && a.args[0] === sq);
    if (!lift && !keep) continue;
    box.append(el("div", {}, el("b", {}, sqName(sq)),
      el("div", { class: "actions", style: "margin-top: .3rem" }, lift ? button(lift, { cls: "primary" }) : null, keep ? button(keep) : null)));
  }
  return box;
}

// Every deed of ours, by colour group, with build / sell / mortgage buttons (only legal ones on).
function propertiesPanel(acts) {
  const me = G.seat;
  const v = G.view;
  const owned = v.squares.filter((s) => s.owner === me);
  if (!owned.length) return null;
  const find = (kind, sq) => acts.find((a) => a.kind === kind && a.args[0] === sq);
  const rules = G.board.rules;
  const names = G.board.names;
  const wrapBox = el("div", { id: "properties" });
  wrapBox.append(el("div", { class: "section-title" }, "Your properties"));
  const list = el("div", { class: "props" });
  const groups = [...new Set(owned.map((s) => G.board.squares[s.index].group))];
  for (const g of groups) {
    const grp = g >= 0 ? G.board.groups[g] : null;
    const mem = g >= 0 ? members(g) : owned.map((s) => s.index);
    const full = g >= 0 && mem.every((i) => v.squares[i].owner === me);
    const block = el("div", { class: "group-block", dataset: { group: grp ? grp.id : "" } });
    let rule = "";
    if (grp && grp.kind === "street" && rules.buildings) {
      if (!full) rule = `${mem.filter((i) => v.squares[i].owner === me).length} of ${mem.length}: own them all to build`;
      else if (mem.some((i) => v.squares[i].mortgaged)) rule = "Lift every mortgage to build";
      else {
        const levels = mem.map((i) => v.squares[i].level);
        const low = Math.min(...levels);
        if (low >= 5) rule = `Every street has a ${names.hotel}`;
        else {
          const next = mem.filter((i) => v.squares[i].level === low).map(sqName);
          rule = `Build evenly: next ${low === 4 ? names.hotel : names.house} on ${next.join(" or ")}`;
        }
      }
    }
    const color = grp ? grp.color : "#ddd";
    block.append(el("div", { class: "group-head", style: `background:${color};color:${inkOn(color)}` },
      el("span", {}, grp ? grp.name : "Other"), el("span", { class: "rule even-rule" }, rule)));
    for (const i of mem) {
      const s = v.squares[i];
      if (s.owner !== me) continue;
      const sq = G.board.squares[i];
      const build = find("build", i), sell = find("sell_building", i);
      const mort = find("mortgage", i), unmort = find("unmortgage", i);
      const btns = el("div", { class: "btns" });
      if (sq.kind === "street" && rules.buildings) {
        const title = !full ? "Own the whole group first" : s.level >= 5 ? "Already the most" : "Build evenly across the group";
        btns.append(button(build, { label: "Build", cls: "small", intended: `build ${i}`, title: build ? `${build.label}: a ${s.level === 4 ? names.hotel : names.house} for ${money(sq.house_cost)}` : title }));
        btns.append(button(sell, { label: "Sell", cls: "small", intended: `sell_building ${i}`, title: sell ? sell.label : "Sell evenly; nothing to sell here now" }));
      }
      if (rules.mortgages) {
        if (s.mortgaged) btns.append(button(unmort, { label: "Lift", cls: "small", intended: `unmortgage ${i}`, title: unmort ? unmort.label : `Lift the mortgage (${money(sq.unmortgage_cost)})` }));
        else btns.append(button(mort, { label: "Mortgage", cls: "small", intended: `mortgage ${i}`, title: mort ? mort.label : "Sell the buildings of the group first" }));
      }
      const pips = s.level >= 5 ? el("span", { class: "pips" }, el("span", { class: "hotel" }, "■ ", names.hotel)) : s.level ? el("span", { class: "pips" }, "■".repeat(s.level) + "□".repeat(4 - s.level)) : null;
      block.append(el("div", { class: `prop${s.mortgaged ? " mortgaged" : ""}`, dataset: { square: i, level: s.level } },
        el("div", { class: "name" }, sq.name, el("small", {}, pips || (sq.kind === "street" && rules.buildings ? `no ${names.house}s` : sq.rent ? `rent ${money(sq.rent[0])}` : cap(sq.kind)), s.mortgaged ? " · mortgaged" : "")),
        btns));
    }
    list.append(block);
  }
  wrapBox.append(list);
  return wrapBox;
}

// ---------------------------------------------------------------- players

function renderPlayers() {
  const box = dom.players;
  box.textContent = "";
  const v = G.view;
  for (const p of v.players) {
    const seatInfo = G.seats[p.seat] || { type: "human" };
    const deeds = v.squares.filter((s) => s.owner === p.seat);
    const badges = [];
    if (p.seat === G.seat) badges.push(el("span", { class: "badge you" }, "you"));
    if (seatInfo.type === "bot") badges.push(el("span", { class: "badge" }, "bot"));
    badges.push(G.presence(p.seat)); // a person's: here, or away for how long
    if (p.in_jail) badges.push(el("span", { class: "badge jail" }, `in ${G.board.names.jail}`));
    if (!p.alive) badges.push(el("span", { class: "badge out" }, "bankrupt"));
    // The card by the edition's own name (My First Monopoly: a Get out of Time Out Free card).
    if (p.jail_cards.length) badges.push(el("span", { class: "badge", title: `${G.board.names.jail_card} card` }, plural(p.jail_cards.length, G.board.names.jail_card_short)));
    const c = G.colors[p.seat];
    box.append(el("div", { class: `player${G.decider === p.seat ? " deciding" : ""}${p.alive ? "" : " out"}`, dataset: { seat: p.seat } },
      el("div", { class: "token", style: `background:${c};color:${inkOn(c)}` }, G.mark(p.seat)),
      el("div", { style: "min-width:0" },
        el("div", { class: "who" }, G.short(p.seat), badges),
        el("div", { class: "meta" }, p.in_jail ? `in ${G.board.names.jail}` : sqName(p.position), G.decider === p.seat ? " · deciding" : ""),
        el("div", { class: "chips" }, deeds.map((s) => {
          // The deed's colour and its group's letter (a colour-blind player reads the letter).
          // Its title is its name (an aria-label as well was read again as its description).
          const grp = group(s.index);
          const color = grp ? grp.color : "#999";
          const label = `${sqName(s.index)}${grp ? `, ${grp.name}` : ""}${s.mortgaged ? ", mortgaged" : ""}`;
          return el("span", { class: `chip${s.mortgaged ? " m" : ""}`, title: label, role: "img", style: `background:${color};color:${inkOn(color)}` },
            grp ? codes[G.board.squares[s.index].group] : "");
        }))),
      el("div", { class: "cash", dataset: { cash: p.cash } }, money(p.cash), el("small", {}, `worth ${money(p.net_worth)}`))));
  }
}

// ---------------------------------------------------------------- entry points

// An input the person typed in keeps its value when the panel is rebuilt (renderControls).
function markTyped(e) {
  if (e.target instanceof HTMLInputElement && e.target.id) e.target.dataset.typed = "1";
}

export function setup(game, elements) {
  elements.controls.addEventListener("input", markTyped);
  G = game;
  dom = elements;
  // Each group in the shade of its colour that its letter can be read on (util.readable): the
  // band, the chips, the deed card and the panels alike.
  for (const g of G.board.groups) g.color = readable(g.color);
  codes = groupCodes(G.board.groups);
  unit = measuredUnit();
  drawBoard();
  watchSize();
}

// Rebuilding the controls drops the keyboard's focus: give it back to the same control, else to
// the first button of the new ones, so that a keyboard user goes on from where they were (Enter on
// "Roll the dice", then Enter on "Buy"). While an action is on its way every button is disabled:
// the focus is then kept in mind (`focusLost`) until the next rebuild has a button for it.
let focusLost = false;

function keepFocus(box, draw) {
  const active = document.activeElement;
  const had = box.contains(active) ? active : null;
  const lost = focusLost && (!active || active === document.body);
  draw();
  focusLost = false;
  if ((!had && !lost) || (had && box.contains(had))) return;
  const same = had && ((had.id && box.querySelector(`#${CSS.escape(had.id)}:not(:disabled)`))
    || (had.dataset.action && box.querySelector(`[data-action="${CSS.escape(had.dataset.action)}"]:not(:disabled)`)));
  const next = same || box.querySelector("button:not(:disabled)");
  if (next) next.focus({ preventScroll: true });
  else focusLost = true;
}

export function render() {
  drawDynamic();
  keepFocus(dom.controls, renderControls);
  renderPlayers();
  renderInspect();
}
