"""The action text form (``meeple.kernel.protocol.Action``): ``"kind arg1 arg2"``, parsed
strictly (docs/SERVER.md: clients, save files and people type it), and every action a game
makes round-trips through it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.bots.base import make_bot
from meeple.kernel.family import game_info, new_game
from meeple.kernel.protocol import Action

KINDS = st.from_regex(r"[a-z]{1,8}(_[a-z]{1,8}){0,2}", fullmatch=True)
ARGS = st.lists(st.integers(-(10**18) + 1, 10**18 - 1), max_size=4).map(tuple)
NON_ASCII_DIGITS = st.characters(categories=["Nd"]).filter(lambda c: not c.isascii())


@given(KINDS, ARGS)
def test_the_text_form_round_trips(kind: str, args: tuple[int, ...]) -> None:
    action = Action(kind, args)
    assert Action.parse(str(action)) == action


@given(KINDS, st.text(NON_ASCII_DIGITS, min_size=1, max_size=6), st.booleans())
def test_digits_of_other_scripts_are_refused(kind: str, digits: str, negative: bool) -> None:
    part = "-" + digits if negative else digits
    with pytest.raises(ValueError, match="ASCII digits") as info:
        Action.parse(f"{kind} 1 {part}")
    assert f"not {part!r}" in str(info.value)  # the reason names the part


@pytest.mark.parametrize(
    "part", ["+5", "1_000", "١٢", "٣", "１２", "1.5", "0x10", "1e3", "--1", "-", "5-", "9" * 19]
)
def test_only_plain_integers_are_arguments(part: str) -> None:
    with pytest.raises(ValueError) as info:
        Action.parse(f"bid {part}")
    assert f"not {part!r}" in str(info.value)


@pytest.mark.parametrize(
    "kind", ["Roll", "ROLL", "rôll", "roll\u00a0", "_roll", "roll_", "end__turn", "build-1", "r2"]
)
def test_a_kind_is_lower_case_ascii_words(kind: str) -> None:
    with pytest.raises(ValueError) as info:
        Action.parse(f"{kind} 5")
    assert f"action kind {kind!r}" in str(info.value)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("roll", Action("roll")),
        ("bid 120", Action("bid", (120,))),
        ("trade_cash -50", Action("trade_cash", (-50,))),
        ("  bid   120 \n", Action("bid", (120,))),  # ASCII whitespace anywhere
        ("bid\t007", Action("bid", (7,))),
        ("bid " + "9" * 18, Action("bid", (10**18 - 1,))),
    ],
)
def test_plain_text_parses(text: str, action: Action) -> None:
    assert Action.parse(text) == action


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_an_empty_action_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="empty action"):
        Action.parse(text)


@pytest.mark.parametrize("game", ["classic", "friends", "my-first-monopoly-1", "monopolis"])
def test_every_legal_action_of_a_game_round_trips(game: str) -> None:
    """Save files, golden transcripts, the server and the RL env store actions as text."""
    players = game_info(game).max_players
    s = new_game(game, players, 5)
    bots = [make_bot("random", game_info(game).family, 100 + i) for i in range(players)]
    for _ in range(600):
        if s.is_terminal():
            break
        for a in s.legal_actions():
            assert Action.parse(str(a)) == a
        s.apply(bots[s.current_player()].choose(s))
