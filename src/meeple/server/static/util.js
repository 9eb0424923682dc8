// Small helpers shared by the lobby and the game page: the JSON API and DOM building.

export const PLAYER_COLORS = [
  "#d7263d", "#1b6ddb", "#2e9b4f", "#f08a00", "#7b3fbf", "#0a9aa8", "#7a5230", "#d63d91",
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

// Black or white text, whichever has the higher contrast ratio (WCAG) on `hex`.
export function inkOn(hex) {
  const h = hex.replace("#", "");
  const full = h.length === 3 ? h.split("").map((c) => c + c).join("") : h;
  const lin = (k) => {
    const c = parseInt(full.slice(k, k + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#1c2421" : "#ffffff";
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
  return el("div", { class: "auto-move", id: "auto-move", role: "status" },
    el("div", { class: "small" }, `${label}${auto.moment === "forced" ? `: ${G.words(auto.text)}` : ""} in `, el("b", { id: "auto-left" }, String(Math.ceil(G.autoLeft()))), " s"),
    el("div", { class: "auto-track", "aria-hidden": "true" }, el("div", { class: "auto-bar", id: "auto-bar", style: `width:${(100 * G.autoLeft()) / Math.max(0.001, auto.grace)}%` })),
    el("div", { class: "actions" },
      auto.moment === "forced" ? null : el("button", { type: "button", id: "auto-hold", class: "primary", disabled: G.busy, onclick: () => G.hold(true) }, "Wait, I want to act"),
      el("button", { type: "button", id: "auto-now", disabled: G.busy, dataset: { action: auto.action }, onclick: () => G.act(auto.action) }, now)));
}

