// Small helpers shared by the lobby and the game page: the JSON API and DOM building.

// Each seat's colour. Its letter on it (black or white, inkOn) reaches WCAG AA's 4.5 to 1 and
// its line on white (the end screen's charts) 3 to 1 (issue 38: the green, the orange and the
// pink were a shade short).
export const PLAYER_COLORS = [
  "#d7263d", "#1b6ddb", "#30a152", "#d97c00", "#7b3fbf", "#0a9aa8", "#7a5230", "#cc3388",
];

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// Fetch a JSON endpoint; throws ApiError (with .status and the body) on any non-2xx answer.
export async function api(path, { method = "GET", body } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg).join("; ");
    throw new ApiError(r.status, { ...(data || {}), detail });
  }
  return data;
}

// el("div", {class: "x", onclick: f}, "text", child, [more children]) -> an HTML element.
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// The same for SVG elements.
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(c instanceof Node ? c : String(c));
  }
}

// Split "kind a b" into {kind, args: [numbers]}.
export function parseAction(text) {
  const [kind, ...rest] = text.split(" ");
  return { kind, args: rest.map(Number), text };
}

let toastTimer = null;

// A short message at the bottom of the screen.
export function toast(message, isError = false) {
  let t = document.querySelector(".toast");
  if (!t) {
    t = el("div", { class: "toast", role: "status" });
    document.body.append(t);
  }
  t.textContent = message;
  t.classList.toggle("err", isError);
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

const INK = "#1c2421";

// "#abc" or "#aabbcc" as [r, g, b].
function rgb(hex) {
  const h = hex.replace("#", "");
  const full = h.length === 3 ? h.split("").map((c) => c + c).join("") : h;
  return [0, 2, 4].map((k) => parseInt(full.slice(k, k + 2), 16));
}

// WCAG 2's relative luminance and contrast ratio.
function luminance([r, g, b]) {
  const lin = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// Black or white text, whichever has the higher contrast ratio (WCAG) on `hex`.
export function inkOn(hex) {
  const c = rgb(hex);
  return contrast(c, rgb(INK)) >= contrast(c, [255, 255, 255]) ? INK : "#ffffff";
}

// `hex` as a background for text: itself where black or white text on it reaches WCAG AA's
// 4.5 to 1, else the nearest shade of it that does (darkened under white text, lightened under
// black). An edition's colour group can sit between the two (the classic Red and Pink: 3.6
// and 3.8 to 1), and its letter is how a colour-blind player tells the groups apart.
export function readable(hex) {
  const c = rgb(hex);
  const ink = rgb(inkOn(hex));
  const toward = ink[0] === 255 ? 0 : 255;
  let mixed = c;
  for (let k = 1; k <= 20 && contrast(mixed, ink) < 4.5; k++) {
    mixed = c.map((v) => Math.round(v + (toward - v) * k * 0.03));
  }
  return `#${mixed.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

// Lines of at most `width` characters, words kept whole where possible.
export function wrap(text, width, maxLines = 4) {
  const words = text.split(/\s+/);
  const lines = [];
  let line = "";
  for (const w of words) {
    if (!line) line = w;
    else if ((line + " " + w).length <= width) line += " " + w;
    else { lines.push(line); line = w; }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = kept[maxLines - 1].replace(/.?$/, "…");
    return kept;
  }
  return lines;
}

// What the server plays for a person without asking (docs/SERVER.md, "Only real decisions ask"),
// by the moment it comes.
const AUTO_TEXT = {
  roll: "Rolling the dice for you",
  end_turn: "Ending your turn",
  others_turn: "Passing: nothing you need to decide now",
  forced: "Your only choice",
};

// "Rolling the dice for you in 2 s", with a bar running down, a way to act first, and one to go now;
// with no countdown (grace 0: the table moves at its own pace), a quiet line saying what comes.
export function autoPanel(G, auto) {
  const label = AUTO_TEXT[auto.moment] || "Moving on";
  if (!auto.grace) return el("p", { class: "muted small", id: "auto-quiet" }, `${label}${auto.moment === "forced" ? `: ${G.words(auto.text)}` : ""}…`);
  const now = auto.moment === "forced" ? auto.text : { roll: "Roll now", end_turn: "End turn now", others_turn: "Pass now" }[auto.moment] || auto.text;
  // Not a live region (it is drawn again on every update): the page's one live region says the
  // countdown once, when it starts (announce.js).
  return el("div", { class: "auto-move", id: "auto-move" },
    el("div", { class: "small" }, `${label}${auto.moment === "forced" ? `: ${G.words(auto.text)}` : ""} in `, el("b", { id: "auto-left" }, String(Math.ceil(G.autoLeft()))), " s"),
    el("div", { class: "auto-track", "aria-hidden": "true" }, el("div", { class: "auto-bar", id: "auto-bar", style: `width:${(100 * G.autoLeft()) / Math.max(0.001, auto.grace)}%` })),
    el("div", { class: "actions" },
      auto.moment === "forced" ? null : el("button", { type: "button", id: "auto-hold", class: "primary", disabled: G.busy, onclick: () => G.hold(true) }, "Wait, I want to act"),
      el("button", { type: "button", id: "auto-now", disabled: G.busy, dataset: { action: auto.action }, onclick: () => G.act(auto.action) }, now)));
}

