"""What the accessibility tests (and ``benchmarks/bench_access.py``) measure in a page
(docs/SERVER.md, "On a phone, and for everyone at the table"): axe-core's violations at WCAG 2
A and AA, each text's contrast and size on screen (SVG text too, which axe-core leaves out),
every change of a live region, the regions that scroll, and the names and texts of Chromium's
accessibility tree.

axe-core comes bundled with ``axe-playwright-python`` (nothing is fetched at run time).
"""

from __future__ import annotations

import json
import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
"""axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA: all of them, whatever their
impact (not only serious and critical)."""

LIVE = (
    '[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"], '
    '[role="timer"], [role="marquee"]'
)
"""Every element a screen reader watches for changes: an ``aria-live`` region or a role that
makes one (WAI-ARIA 1.2, "Live Region Roles")."""

WATCH_LIVE = """() => {
  const LIVE = __LIVE__;
  const seen = [];
  window.__live = seen;
  const text = (n) => (n.textContent || "").replace(/\\s+/g, " ").trim();
  new MutationObserver((records) => {
    for (const r of records) {
      const at = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
      const region = at && at.closest(LIVE);
      if (!region) continue;
      const added = r.type === "characterData" ? [text(r.target)] : [...r.addedNodes].map(text);
      seen.push({
        region: region.id || region.className || region.tagName,
        type: r.type,
        added: added.filter(Boolean),
        removed: r.removedNodes ? r.removedNodes.length : 0,
        at: performance.now(),
      });
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}""".replace("__LIVE__", json.dumps(LIVE))
"""Start recording, in ``window.__live``, each mutation record inside a live region: the region
(its id), the kind of change, the texts it added and how many nodes it removed."""

SCROLLABLE = """() => [...document.querySelectorAll("body *")].filter((e) => {
  const s = getComputedStyle(e);
  const y = /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  const x = /(auto|scroll)/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
  return (x || y) && e.getClientRects().length > 0;
}).map((e) => ({
  id: e.id, cls: e.className, tabindex: e.tabIndex,
  name: e.getAttribute("aria-label") || (e.getAttribute("aria-labelledby") || "").split(" ")
    .map((id) => (document.getElementById(id) || {}).textContent || "").join(" ").trim(),
}))"""
"""The elements of the page that scroll now (more content than room, overflow auto or scroll),
each with its id, class, tab index and accessible name (``aria-label`` or
``aria-labelledby``)."""


# A word, or up to four, said twice in a row ("not now: not now", "Game over Game over"); not
# a list's items ("wood, wood, iron").
TWICE = re.compile(r"\b([a-z]{2,}(?:\s+[a-z]{2,}){0,3})(?:\s*:\s*|\s+)\1\b", re.IGNORECASE)


def violations(page: Any) -> list[str]:
    """axe-core's violations of WCAG 2 A and AA on the page as it is, one line each (rule,
    impact, help and the first few elements)."""
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    found = Axe().run(page, options=options).response["violations"]
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements): {v['help']} at "
        f"{[n['target'] for n in v['nodes'][:4]]}"
        for v in found
    ]


def live_records(page: Any) -> list[dict[str, Any]]:
    """The live-region changes recorded since ``WATCH_LIVE`` ran on the page."""
    records: list[dict[str, Any]] = page.evaluate("() => window.__live || []")
    return records


TEXTS = """(root) => {
  const rgba = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || "");
    if (!m) return null;
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((k) => top[k] * top[3] + under[k] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const SHAPES = new Set(["rect", "circle", "ellipse", "path", "polygon"]);
  // What is painted under the point, from the top: SVG shapes' fills and boxes' backgrounds.
  // (An HTML element's own background is under its text; an SVG text's fill is the text.)
  // Null for text covered by something opaque, or over a gradient or a picture.
  function under(e, x, y) {
    const layers = [];
    let below = false;
    for (const n of document.elementsFromPoint(x, y)) {
      below = below || n === e;
      if (n === e ? e instanceof SVGElement : e.contains(n)) continue;
      const s = getComputedStyle(n);
      let c = null;
      if (n instanceof SVGElement && n.tagName !== "svg") {
        if (SHAPES.has(n.tagName)) {
          c = rgba(s.fill);
          if (c) c[3] *= Number(s.fillOpacity) * Number(s.opacity);
        }
      } else {
        c = rgba(s.backgroundColor);
        if (s.backgroundImage !== "none") return null; // a gradient or picture: not measured
      }
      if (c && c[3] > 0) {
        if (!below && !n.contains(e)) return null; // painted over the text: not seen
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out = [255, 255, 255, 1];
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  }
  // elementsFromPoint skips what takes no pointer events (a board's token layer): count it.
  const every = document.head.appendChild(document.createElement("style"));
  every.textContent = "* { pointer-events: auto !important; }";
  // Each text is scrolled to (below); the page and its scrolling parts are put back after.
  const scrolled = [document.scrollingElement, ...document.querySelectorAll("body *")]
    .filter((n) => n.scrollHeight > n.clientHeight || n.scrollWidth > n.clientWidth)
    .map((n) => [n, n.scrollTop, n.scrollLeft]);
  const out = [];
  for (const e of root.querySelectorAll("*")) {
    const own = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own.length || !e.getClientRects().length || e.closest("button:disabled")) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden") continue;
    const svgText = e instanceof SVGElement;
    const ink = rgba(svgText ? s.fill : s.color);
    e.scrollIntoView({ block: "center", inline: "center" }); // (what is under it: on screen only)
    const box = e.getBoundingClientRect();
    const back = under(e, box.left + box.width / 2, box.top + box.height / 2);
    if (!ink || !back) continue;
    let alpha = ink[3];
    for (let n = e; n && n !== document.body; n = n.parentElement) {
      alpha *= Number(getComputedStyle(n).opacity);
    }
    const fg = over([ink[0], ink[1], ink[2], alpha], back);
    const [hi, lo] = [lum(fg), lum(back)].sort((a, b) => b - a);
    const m = svgText ? e.getScreenCTM() : null;
    const px = parseFloat(s.fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    const bold = Number(s.fontWeight) >= 700;
    out.push({
      text: own.map((n) => n.textContent.trim()).join(" ").slice(0, 40),
      where: `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.getAttribute("class") || ""}`,
      px: Math.round(px * 100) / 100,
      ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
      large: px >= 24 || (bold && px >= 18.66),
    });
  }
  every.remove();
  for (const [n, top, left] of scrolled) n.scrollTo(left, top);
  return out;
}"""
"""Every text drawn inside ``root`` (HTML and SVG, visible): its words, where it is, its size on
screen in CSS px, its contrast ratio with what is painted under its middle (WCAG 2's relative
luminance; the opacity of its ancestors counted) and whether it is large text (24 px, or 18.66
px bold). Text over a gradient or a picture, or under something painted over it, is left
out (not measured)."""


def below_aa(texts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The texts under WCAG AA's contrast: 4.5 to 1, or 3 to 1 for large text (1.4.3)."""
    return [t for t in texts if t["ratio"] < (3 if t["large"] else 4.5)]


def faults(page: Any) -> list[str]:
    """axe-core's violations of WCAG 2 A and AA, and the texts under WCAG AA's contrast that
    axe-core leaves out (an SVG text's: the board's, the charts'), measured by ``TEXTS``."""
    texts = page.evaluate(TEXTS, page.locator("body").element_handle())
    return violations(page) + [f"contrast: {t}" for t in below_aa(texts)]


def accessible_texts(page: Any) -> list[tuple[str, str, str]]:
    """Every node of Chromium's accessibility tree with a name: (role, name, description)."""
    client = page.context.new_cdp_session(page)
    nodes = client.send("Accessibility.getFullAXTree")["nodes"]
    client.detach()
    out = []
    for n in nodes:
        name = (n.get("name") or {}).get("value") or ""
        if not name or n.get("ignored"):
            continue
        role = (n.get("role") or {}).get("value") or ""
        out.append((str(role), str(name), str((n.get("description") or {}).get("value") or "")))
    return out


def said_twice(texts: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The names with a word said twice in a row, or a description that repeats the name."""
    return [t for t in texts if TWICE.search(t[1]) or t[2].strip().lower() == t[1].strip().lower()]
