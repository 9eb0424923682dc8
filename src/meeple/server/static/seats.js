// The seats this browser holds, kept in localStorage so they survive a closed tab or browser:
// the lobby lists them ("Your games") and the game page finds its token here, never in the
// address bar. One entry per game: {gid, token, seat, name, title, host, saved}.
const KEY = "meeple-seats";

function load() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch {
    return {};
  }
}

function save(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* storage full or disabled: the seat is only in this page */
  }
}

// Remember (or update) what we hold in game `gid`.
export function rememberSeat(gid, info) {
  const all = load();
  all[gid] = { ...(all[gid] || {}), ...info, gid, saved: Date.now() };
  save(all);
  return all[gid];
}

// What we hold in game `gid`, or null.
export function seatOf(gid) {
  return load()[gid] || null;
}

export function forgetSeat(gid) {
  const all = load();
  delete all[gid];
  save(all);
}

// Every game we hold a seat (or the host's key) in, newest first.
export function mySeats() {
  return Object.values(load()).sort((a, b) => (b.saved || 0) - (a.saved || 0));
}
