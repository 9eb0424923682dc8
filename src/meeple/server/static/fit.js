// Type on a drawn board (the Monopoly board, the Monopolis city): no text is drawn under MIN_PX
// CSS px on screen (issue 16 for the board, issue 38 for the city on a 390 px phone). A drawing
// is in the units of its viewBox; a page measures how many CSS px one unit is on screen and
// draws no font under MIN_PX / unit units, choosing shorter words where longer ones do not fit.

export const MIN_PX = 11.5;

const measurer = document.createElement("canvas").getContext("2d");

// How wide `text` is at `size` (in the drawing's units) in the page's font `family`.
export function textWidth(text, size, weight = 400, family = "sans-serif") {
  measurer.font = `${weight} ${size}px ${family}`;
  return measurer.measureText(text).width;
}

// The first of `options` that fits `width` whole, or null.
export function fitOne(options, width, size, weight = 400, family = "sans-serif") {
  return options.find((s) => textWidth(s, size, weight, family) <= width) ?? null;
}

// Call `redraw(u)` when the drawing's scale on screen, `measure()` in CSS px per unit, differs
// from the one it was drawn at, `drawnAt()`, by more than 2% (the element was resized).
export function watchScale(element, measure, drawnAt, redraw) {
  if (typeof ResizeObserver === "undefined") return;
  new ResizeObserver(() => {
    const u = measure(), was = drawnAt();
    if (u > 0 && Math.abs(u - was) / was > 0.02) redraw(u);
  }).observe(element);
}
