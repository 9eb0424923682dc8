// The Monopoly family's game page: the board as SVG (any edition: 40 or 24 squares, colour
// groups, owners, mortgages, buildings, tokens, the snowflake, Jail or Time Out), the players,
// and every decision as controls built from the seat's legal actions.
import { el, svg, parseAction, inkOn, wrap, autoPanel } from "./util.js";

const SIZE = 1000;
let G = null; // the game (play.js)
let dom = null;
let geo = null; // square rectangles
let tokens = []; // per seat: {g, at, jailed, timer}
let layers = null;
let selected = -1;
let lastDiceSid = -1;

// ---------------------------------------------------------------- geometry

function geometry(n) {
  const k = n / 4 - 1;
  const C = n >= 40 ? 130 : 150;
  const W = (SIZE - 2 * C) / k;
  const B = Math.round(C * 0.2); // the colour band
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
    out.push(r);
  }
  return { n, C, W, B, squares: out };
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
  const b = el("button", {
    type: "button", class: opts.cls || "", title: opts.title,
    dataset: { action: a ? a.text : "" },
    disabled: !a || G.busy || opts.disabled,
    onclick: () => a && G.act(a.text),
  }, opts.label || (a ? a.label : ""));
  return b;
}

// ---------------------------------------------------------------- the board

function drawBoard() {
  const root = svg("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`, role: "img", "aria-label": `${G.board.name} board`, id: "board-svg",
  });
  const defs = svg("defs", {},
    svg("pattern", { id: "hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 10, height: 10, fill: "rgba(90,90,90,.18)" }),
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "rgba(60,60,60,.55)", "stroke-width": 3 })));
  root.append(defs);
  root.append(svg("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: "#cfe8d5", rx: 6 }));
  const squaresLayer = svg("g", {});
  const dyn = [];
  geo.squares.forEach((r, i) => {
    const sq = G.board.squares[i];
    const g = svg("g", { class: "sq", id: `sq-${i}`, dataset: { index: i }, onclick: () => clickSquare(i) });
    g.append(svg("rect", { class: "base", x: r.x, y: r.y, width: r.w, height: r.h, fill: "#fbfaf3", stroke: "#2b3a33", "stroke-width": 1.5 }));
    g.append(svg("title", {}, sq.name));
    if (r.side === "corner") drawCorner(g, r, sq, i);
    else drawSide(g, r, sq);
    const d = svg("g", { class: "dyn", "pointer-events": "none" });
    g.append(d);
    dyn.push(d);
    squaresLayer.append(g);
  });
  root.append(squaresLayer);
  const centre = svg("g", { id: "centre" });
  root.append(centre);
  const tokenLayer = svg("g", { id: "tokens", "pointer-events": "none" });
  root.append(tokenLayer);
  tokens = G.view.players.map((p) => {
    const c = G.colors[p.seat];
    const r = geo.n >= 40 ? 13 : 19;
    const g = svg("g", { class: "token-g", id: `token-${p.seat}`, dataset: { seat: p.seat } },
      svg("circle", { r: r + 1.5, fill: "#fff", opacity: 0.9 }),
      svg("circle", { r, fill: c, stroke: "#1c2421", "stroke-width": 1.5 }),
      svg("text", { "text-anchor": "middle", "dominant-baseline": "central", fill: inkOn(c), "font-size": r * 1.05, "font-weight": 800 }, G.mark(p.seat)));
    tokenLayer.append(g);
    return { g, at: -1, jailed: false, timer: null };
  });
  layers = { root, dyn, centre };
  dom.board.textContent = "";
  dom.board.append(root);
}

function textLines(g, lines, x, y, size, cls, anchor = "middle") {
  lines.forEach((line, k) => {
    g.append(svg("text", { x, y: y + k * size * 1.12, class: cls, "text-anchor": anchor, "font-size": size }, line));
  });
}

function drawSide(g, r, sq) {
  const grp = sq.group >= 0 ? G.board.groups[sq.group] : null;
  if (grp && sq.kind === "street") {
    g.append(svg("rect", { x: r.band[0], y: r.band[1], width: r.band[2], height: r.band[3], fill: grp.color, stroke: "#2b3a33", "stroke-width": 1.2 }));
  }
  const [ax, ay, aw, ah] = r.area;
  const horizontal = r.side === "left" || r.side === "right";
  const big = geo.n < 40;
  // The longest word must fit the square: shrink the type for it if needed.
  const longest = Math.max(...sq.name.split(/\s+/).map((w) => w.length));
  const size = Math.min(big ? 15 : 11.5, (aw - 6) / (longest * 0.68));
  const width = Math.max(longest, Math.floor((aw - 8) / (size * 0.56)));
  const lines = wrap(sq.name, width, horizontal ? 3 : 4);
  textLines(g, lines, ax + aw / 2, ay + size + 6, size, "sq-name");
  let foot = "";
  if (sq.price) foot = money(sq.price);
  else if (sq.kind === "tax") foot = `Pay ${money(sq.amount || 0)}`;
  else if (sq.kind === "element") foot = "Travel on";
  if (sq.kind === "card") {
    g.append(svg("text", { x: ax + aw / 2, y: ay + ah - (horizontal ? 14 : 22), "text-anchor": "middle", "font-size": big ? 40 : 30, "font-weight": 800, fill: "#a0522d", opacity: 0.75 }, "?"));
  }
  if (sq.kind === "snowflake") snowflakeIcon(g, ax + aw / 2, ay + ah - (horizontal ? 22 : 32), big ? 18 : 14);
  if (foot) g.append(svg("text", { x: ax + aw / 2, y: ay + ah - 12, class: "sq-price", "text-anchor": "middle", "font-size": big ? 14 : 11 }, foot));
}

function drawCorner(g, r, sq, i) {
  const kind = sq.kind;
  const cx = r.x + r.w / 2, cy = r.y + r.h / 2;
  if (kind === "go") {
    g.append(svg("text", { x: cx, y: cy - 2, "text-anchor": "middle", "font-size": 44, "font-weight": 900, fill: "#c62828" }, "GO"));
    g.append(svg("text", { x: cx, y: r.y + 26, "text-anchor": "middle", class: "sq-price", "font-size": 12 }, `Collect ${money(G.board.rules.go_salary)}`));
    g.append(svg("text", { x: cx, y: cy + 26, "text-anchor": "middle", "font-size": 24, fill: "#c62828" }, "←"));
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
    const label = G.board.names.jail;
    textLines(g, wrap(label.toUpperCase(), 8, 2), cell.x + cell.w / 2, cell.y + cell.h / 2 - 2, 14, "corner-name");
    g.append(svg("text", { x: r.x + 8, y: r.y + r.h - 10, class: "sq-price", "font-size": 11 }, "Just visiting"));
    return;
  }
  const label = sq.name;
  textLines(g, wrap(label, 11, 3), cx, r.y + 34, 15, "corner-name");
  if (kind === "free_parking") g.append(svg("text", { x: cx, y: cy + 42, "text-anchor": "middle", "font-size": 26, "font-weight": 800, fill: "#1b6ddb" }, "P"));
  if (kind === "go_to_jail") g.append(svg("text", { x: cx, y: cy + 42, "text-anchor": "middle", "font-size": 24, fill: "#c62828" }, "↙"));
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
  const per = 4;
  const col = seat % per, row = Math.floor(seat / per);
  const step = geo.n >= 40 ? 26 : 36;
  if (r.side === "corner" && G.board.squares[i].kind === "jail") {
    if (jailed) {
      const cell = jailCell(r);
      return [cell.x + cell.w / 2 + (col - 1.5) * step * 0.8, cell.y + cell.h - 14 - row * step * 0.8];
    }
    // Just visiting: down the outer strip on the left, then along the bottom.
    const cell = jailCell(r);
    const strip = r.w - cell.w;
    const rad = geo.n >= 40 ? 13 : 19;
    const gap = (r.h - rad) / 4;
    const spots = [0, 1, 2, 3].map((k) => [r.x + strip / 2, r.y + rad + 4 + k * gap * 0.8])
      .concat([0, 1, 2, 3].map((k) => [r.x + strip + rad + 2 + k * (cell.w - rad) / 4, r.y + r.h - strip / 2 - 4]));
    return spots[seat % spots.length];
  }
  const [ax, ay, aw, ah] = r.area;
  const cols = Math.min(per, n);
  if (r.side === "corner") {
    // Along the bottom of a corner, clear of its name.
    const x = ax + aw / 2 + (col - (cols - 1) / 2) * Math.min(step, (aw - 10) / cols);
    return [x, ay + ah - 22 - row * step * 0.9];
  }
  const x = ax + aw / 2 + (col - (cols - 1) / 2) * Math.min(step, (aw - 10) / cols);
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

function drawDynamic() {
  const v = G.view;
  const targets = new Map();
  for (const a of legalActions()) {
    if (a.kind === "place_building" || a.kind === "place_snowflake") targets.set(a.args[0], a);
  }
  geo.squares.forEach((r, i) => {
    const d = layers.dyn[i];
    d.textContent = "";
    const s = v.squares[i];
    const gnode = d.parentNode;
    gnode.dataset.owner = s.owner;
    gnode.dataset.level = s.level;
    gnode.dataset.mortgaged = s.mortgaged ? "true" : "false";
    gnode.classList.toggle("target", targets.has(i));
    gnode.classList.toggle("selected", selected === i);
    if (r.side === "corner") return;
    if (s.owner >= 0) {
      const c = G.colors[s.owner];
      d.append(svg("rect", { x: r.outer[0], y: r.outer[1], width: r.outer[2], height: r.outer[3], fill: c }));
      // The owner's name replaces the price.
      const [ax, ay, aw, ah] = r.area;
      d.append(svg("rect", { x: ax + 4, y: ay + ah - 26, width: aw - 8, height: 18, rx: 9, fill: c }));
      const big = geo.n < 40;
      d.append(svg("text", { x: ax + aw / 2, y: ay + ah - 13, "text-anchor": "middle", "font-size": big ? 13 : 11, "font-weight": 700, fill: inkOn(c), class: "owner-label" }, G.name(s.owner).slice(0, 10)));
    }
    if (s.level > 0 && r.band) drawBuildings(d, r, s.level);
    if (s.mortgaged) {
      // Hatched, with a red label across the band (a mortgaged street has no buildings).
      d.append(svg("rect", { x: r.x, y: r.y, width: r.w, height: r.h, fill: "url(#hatch)", class: "mortgage-mark" }));
      const [bx, by, bw, bh] = r.band;
      const cx = bx + bw / 2, cy = by + bh / 2;
      const vertical = bh > bw;
      const label = svg("g", { transform: vertical ? `rotate(-90 ${cx} ${cy})` : "" },
        svg("rect", { x: cx - 34, y: cy - 8, width: 68, height: 16, rx: 3, fill: "#b3261e" }),
        svg("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", "font-size": 9.5, "font-weight": 800, fill: "#fff", "letter-spacing": 0.5 }, "MORTGAGED"));
      d.append(label);
    }
    if (v.snowflake === i) {
      // The snowflake token sits on the scene's colour band, big enough to see at a glance.
      const [bx, by, bw, bh] = r.band;
      const f = snowflakeIcon(d, bx + bw / 2, by + bh / 2, Math.min(bw, bh) * 0.42);
      f.setAttribute("class", "snowflake-token");
    }
  });
  moveTokens();
  drawCentre();
}

function drawBuildings(d, r, level) {
  const [bx, by, bw, bh] = r.band;
  const vertical = bh > bw;
  const hotel = level >= 5;
  if (hotel) {
    const w = vertical ? bw * 0.7 : bw * 0.5, h = vertical ? bh * 0.5 : bh * 0.7;
    d.append(svg("rect", { class: "hotel", x: bx + (bw - w) / 2, y: by + (bh - h) / 2, width: w, height: h, rx: 3, fill: "#c62828", stroke: "#fff", "stroke-width": 1.5 }));
    return;
  }
  const s = Math.min(vertical ? bw : bh, (vertical ? bh : bw) / 4.6) * 0.72;
  for (let k = 0; k < level; k++) {
    const off = ((vertical ? bh : bw) / 4) * (k + 0.5) - s / 2;
    const x = vertical ? bx + (bw - s) / 2 : bx + off;
    const y = vertical ? by + off : by + (bh - s) / 2;
    d.append(svg("rect", { class: "house", x, y, width: s, height: s, rx: 2, fill: "#2e7d32", stroke: "#fff", "stroke-width": 1.5 }));
  }
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
  if (!value) inner.append(svg("text", { x: s / 2, y: s / 2 + 6, "text-anchor": "middle", "font-size": 18, fill: "#9aa" }, "–"));
  g.append(inner);
  return g;
}

function drawCentre() {
  const c = layers.centre;
  c.textContent = "";
  const v = G.view;
  const C = geo.C;
  const mid = SIZE / 2;
  const title = wrap(G.board.name.replace(/^Monopoly\s*/i, "") || G.board.name, 22, 2);
  c.append(svg("text", { x: mid, y: C + 90, "text-anchor": "middle", "font-size": 54, "font-weight": 900, fill: "#c62828", "letter-spacing": 4 }, "MONOPOLY"));
  textLines(c, title, mid, C + 135, 26, "corner-name");
  // Dice
  const nd = G.board.rules.dice;
  const s = 74;
  const rolling = lastDiceSid !== G.stateId && G.log.some((e) => e.sid === G.stateId && / rolls /.test(e.text));
  if (rolling) lastDiceSid = G.stateId;
  const dice = svg("g", { id: "dice", dataset: { values: v.dice.slice(0, nd).join(",") } });
  for (let k = 0; k < nd; k++) {
    dice.append(die(mid - (nd * s + (nd - 1) * 18) / 2 + k * (s + 18), mid - 40, s, v.dice[k], rolling ? "rolling" : ""));
  }
  c.append(dice);
  // Whose turn
  const turnText = v.over ? "Game over" : `Turn ${v.turn_no} · ${G.name(v.turn)}`;
  c.append(svg("text", { x: mid, y: mid + 70, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#1c2421", id: "turn-text" }, turnText));
  const dec = G.decider;
  if (dec >= 0 && dec !== v.turn) {
    c.append(svg("text", { x: mid, y: mid + 98, "text-anchor": "middle", "font-size": 17, fill: "#3a4540" }, `${G.name(dec)} decides now`));
  }
  // The latest events, where a phone user looks.
  const recent = G.log.slice(-2).map((e) => G.words(e.text));
  recent.forEach((text, k) => {
    c.append(svg("text", { x: mid, y: C + 190 + k * 26, "text-anchor": "middle", "font-size": 17, fill: k === recent.length - 1 ? "#1c2421" : "#5f6b66", class: "recent" }, text.length > 60 ? `${text.slice(0, 59)}…` : text));
  });
  // Decks and the bank
  const decks = v.decks;
  const dw = 150, dh = 84, gap = 24;
  const total = decks.length * dw + (decks.length - 1) * gap;
  decks.forEach((d, k) => {
    const x = mid - total / 2 + k * (dw + gap), y = SIZE - C - dh - 120;
    c.append(svg("rect", { x, y, width: dw, height: dh, rx: 10, fill: k % 2 ? "#fde2c4" : "#fff3b0", stroke: "#2b3a33", "stroke-width": 1.5, transform: `rotate(${k % 2 ? 4 : -4} ${x + dw / 2} ${y + dh / 2})` }));
    textLines(c, wrap(d.name, 18, 2), x + dw / 2, y + 32, 14, "sq-name");
    c.append(svg("text", { x: x + dw / 2, y: y + dh - 12, "text-anchor": "middle", "font-size": 12, fill: "#3a4540" }, `${d.cards_left} cards`));
  });
  if (G.board.rules.buildings) {
    const names = G.board.names;
    c.append(svg("text", { x: mid, y: SIZE - C - 36, "text-anchor": "middle", "font-size": 16, fill: "#3a4540" },
      `Bank: ${plural(v.bank.houses, names.house)} · ${plural(v.bank.hotels, names.hotel)}`));
  }
}

// ---------------------------------------------------------------- square details

function clickSquare(i) {
  const a = legalActions().find((x) => (x.kind === "place_building" || x.kind === "place_snowflake") && x.args[0] === i);
  if (a) {
    G.act(a.text);
    return;
  }
  selected = selected === i ? -1 : i;
  drawDynamic();
  renderInspect();
}

function renderInspect() {
  const box = dom.inspect;
  if (selected < 0) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.textContent = "";
  const sq = G.board.squares[selected];
  const st = G.view.squares[selected];
  const grp = group(selected);
  const head = el("div", { class: "title", style: grp && sq.kind === "street" ? `background:${grp.color};color:${inkOn(grp.color)}` : "background:#eef1ec" }, sq.name);
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
  const owner = st.owner >= 0 ? G.name(st.owner) : (isProperty(selected) ? "the bank" : "");
  box.append(
    el("div", { class: "row", style: "justify-content: space-between; margin-bottom: .5rem" },
      el("h2", {}, "Square"), el("button", { type: "button", class: "small", onclick: () => { selected = -1; drawDynamic(); renderInspect(); } }, "Close")),
    el("div", { class: "deed" }, head,
      el("table", {}, el("tbody", {}, rows.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v)))))),
    owner ? el("p", { class: "small", style: "margin: .5rem 0 0" },
      `Owner: ${owner}`, st.level ? ` · ${levelText(st.level)}` : "", st.mortgaged ? " · mortgaged" : "") : null,
  );
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
        return `${Who(f.debtor)} owe${f.debtor === me ? "" : "s"} ${money(f.amount)} to ${f.creditor < 0 ? "the bank" : who(f.creditor)} and must raise the money.`;
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
  box.textContent = "";
  const acts = legalActions();
  const mine = acts.length > 0;
  const v = G.view;
  const f = v.frame;
  const me = G.seat;
  box.append(el("h2", {}, mine ? "Your decision" : G.status === "finished" ? "Finished" : "Waiting"));
  box.append(el("p", { class: `prompt${mine ? " mine" : ""}`, id: "prompt", style: "margin: .45rem 0 .6rem" }, frameText()));
  if (me !== null && !mine && G.status !== "finished" && G.decider >= 0) {
    const waiting = G.decider === me ? "Loading your choices…" : `Waiting for ${G.name(G.decider)}…`;
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
  if (auto) box.append(autoPanel(G, auto));
  else if (me !== null && G.status !== "finished" && v.players[me] && v.players[me].alive) {
    const h = holdPanel(mine);
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
  if (bids.length || pass) {
    const cash = G.view.players[me].cash;
    box.append(el("div", { class: "actions", id: "bid-ladder" }, bids.map((a, k) => button(a, { label: money(a.args[0]), cls: k === 0 ? "primary" : "" }))));
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
      if (drafting) list.append(el("button", { type: "button", class: on ? "on" : "", disabled: !a || G.busy, onclick: () => a && G.act(a.text) }, on ? "✓ " : "", `${deck} jail card`));
      else if (on) list.append(el("div", { class: "small" }, `${deck} jail card`));
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
        btns.append(button(build, { label: "Build", cls: "small", title: build ? `${build.label}: a ${s.level === 4 ? names.hotel : names.house} for ${money(sq.house_cost)}` : title }));
        btns.append(button(sell, { label: "Sell", cls: "small", title: sell ? sell.label : "Sell evenly; nothing to sell here now" }));
      }
      if (rules.mortgages) {
        if (s.mortgaged) btns.append(button(unmort, { label: "Lift", cls: "small", title: unmort ? unmort.label : `Lift the mortgage (${money(sq.unmortgage_cost)})` }));
        else btns.append(button(mort, { label: "Mortgage", cls: "small", title: mort ? mort.label : "Sell the buildings of the group first" }));
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
    if (p.in_jail) badges.push(el("span", { class: "badge jail" }, `in ${G.board.names.jail}`));
    if (!p.alive) badges.push(el("span", { class: "badge out" }, "bankrupt"));
    if (p.jail_cards.length) badges.push(el("span", { class: "badge", title: "Get Out of Jail Free" }, `${p.jail_cards.length} jail card${p.jail_cards.length > 1 ? "s" : ""}`));
    const c = G.colors[p.seat];
    box.append(el("div", { class: `player${G.decider === p.seat ? " deciding" : ""}${p.alive ? "" : " out"}`, dataset: { seat: p.seat } },
      el("div", { class: "token", style: `background:${c};color:${inkOn(c)}` }, G.mark(p.seat)),
      el("div", { style: "min-width:0" },
        el("div", { class: "who" }, G.name(p.seat), badges),
        el("div", { class: "meta" }, p.in_jail ? `in ${G.board.names.jail}` : sqName(p.position), G.decider === p.seat ? " · deciding" : ""),
        el("div", { class: "chips" }, deeds.map((s) => {
          const grp = group(s.index);
          return el("span", { class: `chip${s.mortgaged ? " m" : ""}`, title: sqName(s.index), style: `background:${grp ? grp.color : "#999"}` });
        }))),
      el("div", { class: "cash", dataset: { cash: p.cash } }, money(p.cash), el("small", {}, `worth ${money(p.net_worth)}`))));
  }
}

// ---------------------------------------------------------------- entry points

export function setup(game, elements) {
  G = game;
  dom = elements;
  geo = geometry(G.board.squares.length);
  drawBoard();
}

export function render() {
  drawDynamic();
  renderControls();
  renderPlayers();
  renderInspect();
}
