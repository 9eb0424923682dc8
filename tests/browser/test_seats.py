"""Seats that come back, in Chromium (docs/SERVER.md, "Seats, invites and the host"): the
browser keeps its seats, an invite link is filled from another browser, the host starts the
game and hands a seat to a bot and back."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import screenshot


def lobby_game(page: Any, seats: dict[int, str], name: str = "Ann") -> str:
    """Make a classic game in the lobby: seat 1 is you (``name``); ``seats`` sets the kind of
    others by number ("open", "human", "bot:random"). Returns the game id."""
    page.goto("/")
    page.get_by_label("Seat 1 name").fill(name)
    for seat, kind in seats.items():
        page.get_by_label(f"Seat {seat} player").select_option(kind)
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#created")).to_be_visible()
    link = page.locator("[data-testid=spectator-link] input").input_value()
    return re.search(r"/play/([0-9a-f]+)", link).group(1)  # type: ignore[union-attr]


def test_your_seat_comes_back_after_closing_the_browser(browser: Any, server: str) -> None:
    ctx = browser.new_context(base_url=server)
    page = ctx.new_page()
    gid = lobby_game(page, {2: "bot:random", 3: "bot:random", 4: "bot:random"})
    page.locator("#play-mine").click()
    expect(page.locator("#who")).to_have_text("You are Ann")
    assert "token" not in page.url  # the key is kept by the browser, not in the address
    kept = ctx.storage_state()
    ctx.close()  # the browser is closed ...

    ctx = browser.new_context(base_url=server, storage_state=kept)  # ... and opened again
    page = ctx.new_page()
    page.goto("/")
    row = page.locator(f"#mine tr[data-game='{gid}']")
    expect(row).to_contain_text("Ann")
    row.get_by_role("button", name="Resume").click()
    expect(page.locator("#who")).to_have_text("You are Ann")
    expect(page.locator("#players [data-seat='0'] .badge.you")).to_be_visible()
    ctx.close()


def test_an_invite_link_is_filled_from_another_browser(browser: Any, server: str) -> None:
    host_ctx = browser.new_context(base_url=server)
    host = host_ctx.new_page()
    gid = lobby_game(host, {2: "open", 3: "open", 4: "bot:random"})
    invite = host.locator("[data-testid=invite-link] input").input_value()
    assert re.search(rf"/join/{gid}#code=", invite)
    host.locator("#play-mine").click()
    waiting = host.locator("#waiting-seats")
    expect(waiting).to_contain_text("Seat 2: free")

    guest_ctx = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    guest = guest_ctx.new_page()
    guest.goto(invite)
    expect(guest.locator("#join-form")).to_be_visible()
    assert "code" not in guest.url  # taken out of the address bar at once
    # The game by its title, as the lobby names it, not by its id ("classic").
    expect(guest.locator("#join-info")).to_contain_text("Monopoly (US standard board): 4 seats")
    guest.get_by_label("Your name").fill("Player 3")
    guest.get_by_role("button", name="Take the seat").click()
    expect(guest.locator("#join-error")).to_contain_text("reserved")
    guest.get_by_label("Your name").fill("Bob")
    guest.get_by_role("button", name="Take the seat").click()
    expect(guest.locator("#who")).to_have_text("You are Bob")
    expect(waiting).to_contain_text("Bob")  # the host's page heard of it
    screenshot(host, "waiting-for-players")
    # The guest's browser keeps the seat under the game's title too ("Your games").
    lobby = guest_ctx.new_page()
    lobby.goto("/")
    expect(lobby.locator(f"#mine tr[data-game='{gid}']")).to_contain_text(
        "Monopoly (US standard board)"
    )
    lobby.close()

    host.get_by_role("button", name=re.compile(r"^Start now")).click()
    expect(host.locator("#waiting-seats")).to_have_count(0)
    expect(guest.locator("#controls")).to_be_visible()
    # Seat 3 went to a bot with a short name of its own: "Ada" and a "bot" badge (the log
    # says "Ada (bot)"), on the board's deeds "Ada" (docs/SERVER.md, "Names").
    bot = guest.request.get(f"/api/games/{gid}").json()["seats"][2]
    assert bot["type"] == "bot" and bot["name"].endswith(" (bot)")
    row = guest.locator("#players [data-seat='2']")
    expect(row.locator(".who")).to_contain_text(bot["name"].removesuffix(" (bot)"))
    expect(row.locator(".who")).not_to_contain_text("(bot)")
    expect(row.locator(".badge")).to_have_text("bot")
    host_ctx.close()
    guest_ctx.close()


def test_the_host_hands_a_seat_to_a_bot_and_its_player_takes_it_back(
    browser: Any, server: str
) -> None:
    host_ctx = browser.new_context(base_url=server)
    host = host_ctx.new_page()
    lobby_game(host, {2: "human", 3: "bot:random", 4: "bot:random"})
    bob_link = host.locator("[data-testid=seat-link-1] input").input_value()
    host.locator("#play-mine").click()
    bob_ctx = browser.new_context(base_url=server)
    bob = bob_ctx.new_page()
    bob.goto(bob_link)
    expect(bob.locator("#who")).to_have_text("You are Bob")

    host.locator("#host-panel summary").click()
    host.locator("#host-panel button[data-seat='1']").click()
    expect(bob.locator("#stand-in")).to_contain_text("A bot is playing your seat")
    expect(host.locator("#host-panel")).to_contain_text("Bob (a bot plays)")
    # The page was drawn anew for the seats' change: the panel the host opened stays open.
    expect(host.locator("#host-panel")).to_have_attribute("open", "")
    bob.get_by_role("button", name="Take my seat back").click()
    expect(bob.locator("#stand-in")).to_have_count(0)
    expect(host.locator("#host-panel")).not_to_contain_text("a bot plays")
    host_ctx.close()
    bob_ctx.close()


def test_the_learned_bot_is_seated_from_the_lobby(browser: Any, server: str) -> None:
    """The policy the package ships is seated in the web app (issue 22): the lobby offers it
    for classic as "Bot: learned" and the game opens with it in its seats (its turns through
    the server: tests/server/test_api.py)."""
    ctx = browser.new_context(base_url=server)
    page = ctx.new_page()
    page.goto("/")
    # (expect waits for the lobby's script to fill the seats' menus: reading them at once
    # raced it on a loaded machine and found none)
    seat = page.get_by_label("Seat 2 player")
    expect(seat.locator("option", has_text="Bot: learned")).to_have_count(1)
    gid = lobby_game(page, {2: "bot:learned", 3: "bot:learned", 4: "bot:standard"})
    page.locator("#play-mine").click()
    expect(page.locator("#who")).to_have_text("You are Ann")
    seats = page.request.get(f"/api/games/{gid}").json()["seats"]
    assert [s["bot"] for s in seats] == [None, "learned", "learned", "standard"]
    expect(page.locator("#players")).to_contain_text(seats[1]["name"].removesuffix(" (bot)"))
    screenshot(page, "learned-bot-seated")
    ctx.close()
