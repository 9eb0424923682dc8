"""Every event the engine emits has plain words (``meeple replay`` prints no raw data)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.edition import builtin_edition_ids
from tests.monopoly.helpers import act, describe_all, game, own

SRC = Path(__file__).resolve().parents[2] / "src" / "meeple" / "games" / "monopoly"


def test_every_event_kind_has_a_description() -> None:
    emitted = set()
    for path in SRC.rglob("*.py"):
        emitted |= set(re.findall(r'\.event\(\s*"([a-z_]+)"', path.read_text()))
    described = set(re.findall(r'k == "([a-z_]+)"', (SRC / "describe.py").read_text()))
    assert emitted, "no events found"
    assert emitted <= described, f"events without words: {sorted(emitted - described)}"


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_descriptions_of_played_games_are_words(edition: str) -> None:
    s = new_monopoly(edition, 3, 5, {"max_turns": 60})
    bots = [RandomBot(i) for i in range(3)]
    while not s.is_terminal():
        for a in s.legal_actions():
            assert s.describe_action(a)
        for e in s.apply(bots[s.current_player()].choose(s)):
            text = s.describe(e)
            assert text and "{" not in text, text


# -- the edition's own name for the Get Out of Jail Free card (issue 20) ----------------------


def _card_words(edition: str) -> tuple[list[str], str, list[str], str]:
    """Player 1 holds the first deck's jail card and is in jail: the words of using it (the
    action and the event), the player's panel, and the edition's rules summary."""
    from meeple.games.monopoly.render import player_lines, rules_lines
    from tests.monopoly.helpers import act, edition_game, give_card, jail

    s = edition_game(edition)
    give_card(s, 0, 0)
    jail(s, 0)
    panel = player_lines(s)
    use = next(a for a in s.legal_actions() if a.kind == "use_card")
    said = s.describe_action(use)
    events = act(s, str(use))
    return panel, said, [s.describe(e) for e in events], "\n".join(rules_lines(s.ed))


@pytest.mark.parametrize(
    ("edition", "deck"),
    [
        ("my-first-monopoly-1", "Chance (Level 1, purple)"),
        ("my-first-monopoly-2", "Chance (Level 2, green)"),
    ],
)
def test_my_first_monopoly_says_its_time_out_card(edition: str, deck: str) -> None:
    """my-first-monopoly-rules.txt, "Level 1 Time Out" / "Level 2 Time Out": "use a Get out of
    Time Out Free card if you have one". The log, the replay, the terminal and the web page use
    the edition's name (``names.jail_card``); the engine's ``use_card`` stays."""
    panel, said, events, summary = _card_words(edition)
    assert said == f"Use the {deck} Get out of Time Out Free card"
    assert f"Player 1 uses a {deck} Get out of Time Out Free card." in events
    assert "1 Time Out card(s)" in panel[0]
    assert "with a Get out of Time Out Free card or $1" in summary
    for text in (*panel, said, *events, summary):
        assert "Jail" not in text and "jail" not in text, text
    # The web page reads the same names from the board data.
    from meeple.games.monopoly.board import board_data
    from tests.monopoly.helpers import edition_game

    names = board_data(edition_game(edition))["names"]
    assert (names["jail_card"], names["jail_card_short"]) == (
        "Get out of Time Out Free",
        "Time Out card",
    )


@pytest.mark.parametrize(
    ("edition", "deck"),
    [("classic", "Chance"), ("friends", "Apartment 19"), ("frozen-ii", "Royal Decree")],
)
def test_the_other_editions_still_say_get_out_of_jail_free(edition: str, deck: str) -> None:
    """Classic wording is unchanged in the editions that keep the classic card."""
    panel, said, events, summary = _card_words(edition)
    assert said == f"Use the {deck} Get Out of Jail Free card"
    assert f"Player 1 uses a {deck} Get Out of Jail Free card." in events
    assert "1 jail card(s)" in panel[0]
    assert "use a Get Out of Jail Free card" in summary
    assert "Trade deeds, cash and Get Out of Jail Free cards" in summary


def test_a_traded_card_is_named_by_the_edition() -> None:
    """A trade offer names the card in a few words: "a Chance jail card" in classic, the
    edition's ``jail_card_short`` in an edition that renames it."""
    from meeple.games.monopoly.describe import _offer
    from tests.monopoly.helpers import edition_game, give_card

    data = {"proposer": 0, "target": 1, "cash": 0, "proposer_cards": [0]}
    s = edition_game("classic")
    give_card(s, 0, 0)
    assert _offer(s, data) == "Player 1 gives a Chance jail card; Player 2 gives nothing"
    timeout = edition_game("my-first-monopoly-2", trading=True)
    give_card(timeout, 0, 0)
    assert _offer(timeout, data) == (
        "Player 1 gives a Chance (Level 2, green) Time Out card; Player 2 gives nothing"
    )


def offered(mine: tuple[int, ...], theirs: tuple[int, ...], *steps: str) -> list[str]:
    """Player 1 owns ``mine``, Player 2 ``theirs``; Player 1 drafts an offer to Player 2 by
    ``steps`` and proposes it: the words of the proposal."""
    s = game()
    own(s, 0, *mine)
    own(s, 1, *theirs)
    for step in ("trade 1", *steps):
        act(s, step)
    return describe_all(s, list(act(s, "propose")))


def test_an_offer_that_completes_a_set_says_so() -> None:
    """Issue 38: an offer that completes the offerer's colour set says so, in the words the web
    app's log and the terminal show; so does the trade once done."""
    assert offered((37,), (39,), "trade_deed 39", "trade_cash 640") == [
        "Player 1 offers Player 2 a trade: Player 1 gives $640; Player 2 gives Boardwalk. "
        "It would complete Player 1's Dark Blue set."
    ]
    s = game()
    own(s, 0, 37)
    own(s, 1, 39)
    for step in ("trade 1", "trade_deed 39", "trade_cash 640", "propose"):
        act(s, step)
    assert describe_all(s, list(act(s, "accept"))) == [
        "Player 1 and Player 2 trade: Player 1 gives $640; Player 2 gives Boardwalk. "
        "It completes Player 1's Dark Blue set."
    ]


def test_a_swap_names_every_set_it_completes_and_no_other_offer_names_one() -> None:
    """A swap completing a set for each side names both; an offer completing none (Player 1
    lacks Park Place) says nothing more."""
    swap = offered((37, 9), (39, 6, 8), "trade_deed 39", "trade_deed 9")
    assert swap[0].endswith(
        "It would complete Player 1's Dark Blue set and Player 2's Light Blue set."
    )
    assert offered((), (39,), "trade_deed 39", "trade_cash 500") == [
        "Player 1 offers Player 2 a trade: Player 1 gives $500; Player 2 gives Boardwalk."
    ]
