// The invite page (/join/ID#code=CODE): pick a free seat and a name, get the seat's token, keep
// it in this browser (seats.js) and go to the game. The code rides in the #fragment, so it never
// reaches the server's logs; the page takes it out of the address bar at once.
import { api, el, inkOn, PLAYER_COLORS } from "./util.js";
import { rememberSeat, seatOf } from "./seats.js";

const $ = (id) => document.getElementById(id);
const gid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const KEY = `meeple-invite:${gid}`;

function takeCode() {
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (code) {
    sessionStorage.setItem(KEY, code); // a reload of this tab still works
    history.replaceState(null, "", location.pathname);
    return code;
  }
  return sessionStorage.getItem(KEY);
}

function info(text, isError = false) {
  const p = $("join-info");
  p.textContent = text;
  p.classList.toggle("error", isError);
}

async function main() {
  const code = takeCode();
  const held = seatOf(gid);
  if (held && held.token) {
    info("");
    $("join-info").append("You already have a seat in this game. ", el("a", { href: `/play/${gid}`, id: "open-game" }, "Open the game"));
    return;
  }
  if (!code) {
    info("This link has no invite code: ask the host for the whole link.", true);
    return;
  }
  let g;
  try {
    g = await api(`/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    info(e.status === 404 ? "There is no such game on this server." : `Could not load the game: ${e.message}`, true);
    return;
  }
  const free = g.seats.filter((s) => s.type === "open");
  if (g.status !== "waiting" || !free.length) {
    info(g.status === "cancelled" ? "The host cancelled this game." : "Every seat is taken: you can still watch.", true);
    $("join-info").append(" ", el("a", { href: `/play/${gid}` }, "Watch the game"));
    return;
  }
  // The game's title, as the lobby shows it ("Monopoly (US standard board)", not "classic").
  const listed = await api("/api/catalog").catch(() => []);
  const title = (listed.find((x) => x.game === g.game) || { title: g.game }).title;
  info(`${title}: ${g.seats.length} seats. ${g.seats.filter((s) => s.type !== "open").map((s) => s.name).join(", ")} ${g.seats.length - free.length === 1 ? "is" : "are"} in.`);
  const pick = $("seat-pick");
  free.forEach((s, k) => {
    pick.append(el("label", { class: "check seat-choice" },
      el("input", { type: "radio", name: "seat", value: s.seat, checked: k === 0 }),
      el("span", { class: "seat-no", style: `background:${PLAYER_COLORS[s.seat]};color:${inkOn(PLAYER_COLORS[s.seat])}` }, String(s.seat + 1)),
      `Seat ${s.seat + 1}`));
  });
  $("join-form").hidden = false;
  $("join-name").focus();
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("join-error");
    err.hidden = true;
    const seat = Number((document.querySelector("input[name=seat]:checked") || {}).value);
    const name = $("join-name").value.trim();
    $("join").disabled = true;
    try {
      const r = await api(`/api/games/${encodeURIComponent(gid)}/join`, { method: "POST", body: { code, seat, name } });
      rememberSeat(gid, { token: r.token, seat: r.seat, name, title });
      sessionStorage.removeItem(KEY);
      location.assign(`/play/${gid}`);
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
      $("join").disabled = false;
    }
  });
}

main();
