"""The lobby and the Monopoly game page in Chromium, against a real ``meeple serve``.

How each scenario is reached (see ``scenarios.py``): the lobby test creates its game through
the form with a seed found at run time whose first roll lands the human on an unowned deed;
the auction and trade tests start from the same kind of seed (the game is made through the
API); the building test finds a seed of a two-seat game (the human and one ``random`` bot) in
which the scripted human comes to own a whole colour group and may build, plays the human up
to that decision through the API, and then builds on the page. Every check is of what the page
shows (owner marks, houses drawn, log lines, panels), never of how long anything took.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from meeple.kernel.family import new_game
from tests.browser.conftest import create_game, human_and_bots
from tests.browser.scenarios import (
    Driver,
    best_seed,
    can_build,
    first_roll_lands_on_a_deed,
    first_roll_square,
)

GAME = "classic"


def names(game: str = GAME) -> list[str]:
    return [sq["name"] for sq in new_game(game, 2, 0).view(None)["squares"]]


def log(page: Any) -> Any:
    return page.locator("#log")


def test_lobby_creates_a_game_and_the_human_buys_a_deed(page: Any, server: str) -> None:
    # The lobby's game starts as the rulebook says (a roll-off): a seed where Ann wins it.
    seed = first_roll_lands_on_a_deed(GAME, 4, options={})
    square = first_roll_square(GAME, 4, seed, options={})
    page.goto("/")
    page.select_option("#game", GAME)
    page.get_by_label("Seat 1 name").fill("Ann")
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat} player").select_option("bot:random")
        expect(page.get_by_label(f"Seat {seat} name")).to_have_attribute(
            "placeholder",
            "Random bot (named by the server)",  # "Ada (bot)": meeple.server.names
        )
    page.fill("#seed", str(seed))
    page.get_by_role("button", name="Create the game").click()

    created = page.locator("#created")
    expect(created).to_be_visible()
    link = created.locator("[data-testid=seat-link-0] input")
    expect(link).to_have_value(re.compile(r"/play/[0-9a-f]+#token="))
    expect(created.locator("[data-testid=spectator-link] input")).to_have_value(
        re.compile(r"/play/[0-9a-f]+$")
    )
    expect(created.locator("[data-testid^=seat-link-]")).to_have_count(1)  # bots get no link
    url = link.input_value()
    gid = re.search(r"/play/([0-9a-f]+)", url).group(1)  # type: ignore[union-attr]
    expect(page.locator(f"#mine tr[data-game='{gid}'] .resume")).to_be_visible()  # yours
    expect(page.locator(f"#games tr[data-game='{gid}']")).to_have_count(0)  # private: unlisted

    page.goto(url)
    expect(page.locator("#who")).to_have_text("You are Ann")
    expect(page.locator("#players .player")).to_have_count(4)
    # A lobby game asks only real decisions: the table rolls for Ann, with no countdown
    # (issue 38), and asks her whether to buy where she lands.
    page.get_by_role("button", name=re.compile(r"^Buy for \$\d+")).click()
    expect(log(page)).to_contain_text("Ann rolls")
    expect(page.locator("#auto-move")).to_have_count(0)

    name = names()[square]
    deed = page.locator(f"#sq-{square}")
    expect(deed).to_have_attribute("data-owner", "0")
    expect(deed.locator(".owner-label")).to_have_text("Ann")
    expect(page.locator("#properties")).to_contain_text(name)
    expect(page.locator("#players [data-seat='0'] .chip")).to_have_count(1)
    expect(log(page)).to_contain_text(f"Ann buys {name}")


def test_bidding_in_an_auction(page: Any, server: str) -> None:
    seed = first_roll_lands_on_a_deed(GAME, 4)
    square = first_roll_square(GAME, 4, seed)
    game = create_game(server, GAME, human_and_bots(3), seed)
    page.goto(game["seats"][0]["url"])
    page.get_by_role("button", name="Roll the dice").click()
    page.get_by_role("button", name="Auction it").click()

    auction = page.locator("#auction")
    expect(auction).to_contain_text(names()[square])
    amount_box = page.locator("#bid-amount")
    expect(amount_box).to_be_enabled()
    amount = int(amount_box.get_attribute("min") or "0") + 3  # a free amount, off the ladder
    amount_box.fill(str(amount))
    page.locator("#bid-send").click()
    expect(log(page)).to_contain_text(f"Ann bids ${amount}.")

    # Drop out whenever asked again, until the auction is over.
    drop = page.get_by_role("button", name="Drop out of the auction")
    while True:
        page.wait_for_function(
            "() => !document.querySelector('#auction') || [...document.querySelectorAll("
            "'#auction button')].some(b => b.textContent.startsWith('Drop out') && !b.disabled)"
        )
        if page.locator("#auction").count() == 0:
            break
        drop.click()
        expect(log(page)).to_contain_text("Ann drops out of the auction.")
    text = log(page).inner_text()
    won = re.search(
        r"(Ann|Bolt|Cog|Dex)(?: \(bot\))? wins " + re.escape(names()[square]) + r" for \$(\d+)",
        text,
    )
    assert won is not None, text
    owner = ["Ann", "Bolt", "Cog", "Dex"].index(won.group(1))
    expect(page.locator(f"#sq-{square}")).to_have_attribute("data-owner", str(owner))
    if owner == 0:
        assert int(won.group(2)) == amount


def test_building_houses_evenly_then_reloading_shows_the_same_game(page: Any, server: str) -> None:
    seed = best_seed(GAME, 2, can_build, range(300), 400)
    game = create_game(server, GAME, human_and_bots(1), seed)
    Driver(server, game["id"], game["seats"][0]["token"]).play_until(
        lambda legal: any(a.startswith("build ") for a in legal)
    )
    page.goto(game["seats"][0]["url"])
    props = page.locator("#properties")
    build = props.locator("button[data-action^='build ']:enabled").first
    expect(build).to_be_visible()
    square = int((build.get_attribute("data-action") or "").split()[1])
    group = props.locator(".group-block", has=page.locator(f".prop[data-square='{square}']"))
    expect(group.locator(".even-rule")).to_contain_text("Build evenly")
    streets = [
        int(x or -1)
        for x in group.locator(".prop").evaluate_all("els => els.map(e => e.dataset.square)")
    ]
    driver = Driver(server, game["id"], game["seats"][0]["token"])
    build.click()

    board_square = page.locator(f"#sq-{square}")
    expect(board_square).to_have_attribute("data-level", "1")
    expect(board_square.locator(".house")).to_have_count(1)
    expect(log(page)).to_contain_text(f"Ann builds on {names()[square]}: now 1 house.")
    # Even building: the street just built on waits until the others of the group catch up.
    expect(props.locator(f"button[data-action='build {square}']")).to_have_count(0)
    legal = [a["action"] for a in driver.wait_for_decision()["legal_actions"]]
    # A control that is off says why when pressed: the engine's reason.
    again = group.locator(f".prop[data-square='{square}'] button", has_text="Build")
    expect(again).to_have_attribute("aria-disabled", "true")
    again.dispatch_event("click")
    expect(page.locator(".toast")).to_contain_text("Not now: build evenly")
    for other in streets:
        if other != square:
            expect(group.locator(".even-rule")).to_contain_text(names()[other])
            button = group.locator(f".prop[data-square='{other}'] button", has_text="Build")
            if f"build {other}" in legal:  # the page offers exactly what the engine allows
                expect(button).to_be_enabled()
            else:
                expect(button).to_be_disabled()
    cash = page.locator("#players [data-seat='0'] .cash").get_attribute("data-cash")

    page.reload()
    expect(page.locator(f"#sq-{square}")).to_have_attribute("data-level", "1")
    expect(page.locator(f"#sq-{square} .house")).to_have_count(1)
    for street in streets:
        expect(page.locator(f"#sq-{street}")).to_have_attribute("data-owner", "0")
    expect(page.locator("#players [data-seat='0'] .cash")).to_have_attribute(
        "data-cash", cash or ""
    )
    expect(log(page)).to_contain_text(f"Ann builds on {names()[square]}")  # the log survives
    expect(page.locator("#prompt")).to_have_text(re.compile("end your turn"))


def test_proposing_a_trade(page: Any, server: str) -> None:
    seed = first_roll_lands_on_a_deed(GAME, 4)
    square = first_roll_square(GAME, 4, seed)
    name = names()[square]
    game = create_game(server, GAME, human_and_bots(3), seed)
    page.goto(game["seats"][0]["url"])
    page.get_by_role("button", name="Roll the dice").click()
    page.get_by_role("button", name=re.compile(r"^Buy for")).click()
    expect(page.locator(f"#sq-{square}")).to_have_attribute("data-owner", "0")

    # The bot named "Bolt" by the API client is "Bolt (bot)" at the table (docs/SERVER.md, Names).
    page.get_by_role("button", name="Offer a trade to Bolt (bot)").click()
    trade = page.locator("#trade")
    deed = trade.locator(f"button[data-square='{square}']")
    expect(deed).to_have_attribute("aria-pressed", "false")
    deed.click()
    expect(trade.locator(f"button[data-square='{square}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.fill("#trade-amount", "75")
    page.locator("#trade-they-pay").click()
    expect(page.locator("#trade-cash")).to_have_text("Cash: Bolt (bot) pays $75")
    page.get_by_role("button", name="Propose the offer").click()
    expect(log(page)).to_contain_text(
        f"Ann offers Bolt (bot) a trade: Ann gives {name}; Bolt (bot) gives $75."  # who gives what
    )

    # Bolt answers; a counter-offer comes back to Ann, who rejects it.
    answer = re.compile(
        r"Ann and Bolt \(bot\) trade: |Bolt \(bot\) rejects the offer|counter-offer"
    )
    expect(log(page)).to_contain_text(answer)
    if "counter-offer" in log(page).inner_text():
        page.get_by_role("button", name="Reject").click()
        expect(log(page)).to_contain_text("Ann rejects the offer.")
        owner = "0"
    else:
        owner = "1" if "Ann and Bolt (bot) trade: " in log(page).inner_text() else "0"
    expect(page.locator(f"#sq-{square}")).to_have_attribute("data-owner", owner)
    expect(page.locator("#trade")).to_have_count(0)


@pytest.mark.parametrize(
    "game", ["classic", "friends", "frozen-ii", "my-first-monopoly-1", "my-first-monopoly-2"]
)
def test_every_edition_draws_its_board(page: Any, server: str, game: str) -> None:
    made = create_game(server, game, human_and_bots(2), 3)
    page.goto(made["seats"][0]["url"])
    size = len(names(game))
    expect(page.locator("#board-svg .sq")).to_have_count(size)
    expect(page.locator("#board-svg .token-g")).to_have_count(3)
    for i, sq_name in enumerate(names(game)):
        label = re.compile(rf"^{re.escape(sq_name)}(,|$)")  # its full name, first
        expect(page.locator(f"#sq-{i}")).to_have_attribute("aria-label", label)
    expect(page.get_by_role("button", name="Roll the dice")).to_be_enabled()


def test_a_spectator_sees_the_game_move_live(page: Any, server: str) -> None:
    bots = [{"type": "bot", "bot": "random", "name": n} for n in ("Bolt", "Cog")]
    made = create_game(server, GAME, bots, 5)
    page.goto(f"/play/{made['id']}")
    expect(page.locator("#who")).to_have_text("Spectating")
    expect(page.locator("#log li .sid").first).to_be_visible()  # updates arrive by WebSocket
    expect(page.locator("#controls button:enabled")).to_have_count(0)


def test_a_wrong_token_is_refused_with_a_message(page: Any, server: str) -> None:
    made = create_game(server, GAME, human_and_bots(1), 1)
    page.goto(f"/play/{made['id']}?token=not-a-token")
    expect(page.locator("#fatal")).to_contain_text("not a seat of this game")


def test_special_squares_are_explained_on_the_page(page: Any, server: str) -> None:
    """Frozen II's Element and Snowflake squares say what they do, in the deed box and in
    "How this game is played" (issue 38: they were never explained)."""
    made = create_game(server, "frozen-ii", human_and_bots(1), 1)
    page.goto(made["seats"][0]["url"])
    page.locator("#rules summary").click()
    rules = page.locator("#rules-list")
    expect(rules).to_contain_text("Element spaces (Earth, Wind, Fire and Water): landing on one")
    expect(rules).to_contain_text("The snowflake token (Snowflake spaces and some cards)")
    expect(rules).to_contain_text("Royal Decree and Family Chest squares")
    page.locator("#sq-5").dispatch_event("click")  # Earth (a hover preview covers it)
    expect(page.locator("#deed")).to_contain_text(
        "An Element space: landing here, you travel ahead to the next Element space (Wind)"
    )
    page.locator("#sq-12").dispatch_event("click")  # a Snowflake space
    expect(page.locator("#deed")).to_contain_text("put the snowflake token on a scene you own")


@pytest.mark.parametrize("game", ["classic", "friends", "frozen-ii"])
def test_no_two_squares_show_the_same_short_name_on_a_phone(
    phone: Any, server: str, game: str
) -> None:
    """On a 390 px phone a name is cut to fit its square, and no cut is shared by squares of
    different names (issue 38: "St." was St. Charles Place and St. James Place), nor cut to two
    letters, which read as other words ("St." for States, "Co." for Community Chest), nor to a
    word the board writes so."""
    made = create_game(server, game, human_and_bots(1), 1)
    phone.goto(made["seats"][0]["url"])
    expect(phone.locator("#board-svg")).to_be_visible()
    shown = phone.locator("#board-svg .sq").evaluate_all(
        "gs => gs.map((g) => [g.dataset.index, [...g.querySelectorAll('.sq-name')]"
        ".map((t) => t.textContent).join(' ')])"
    )
    squares = new_game(game, 2, 0).view(None)["squares"]
    holders: dict[str, set[str]] = {}
    for index, text in shown:
        if text:
            holders.setdefault(text, set()).add(squares[int(index)]["name"])
    assert {t: n for t, n in holders.items() if len(n) > 1} == {}
    for text, (name,) in holders.items():
        written = {w.lower() for w in name.split()}
        for cut in re.findall(r"(\w+)\.", text):
            if cut.lower() + "." in written:
                continue  # written so in the name ("St. James", "B. & O.")
            word = next(w for w in written if w.startswith(cut.lower()))
            assert len(cut) >= 3 or len(cut) >= len(word) - 1, (text, name)
