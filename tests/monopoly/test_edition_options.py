"""Edition files with the new rule options: the shipped files load, bad data is refused.

docs/EDITIONS.md, "What the loader checks": every field is checked when the file loads and an
error names the file, the field and the reason; nothing starts from a malformed file. These
tests take the shipped themed and kids' edition files, break one thing, and expect a clear
:class:`EditionError` (or, for a rule override given as a game option, an error naming
``options.rules``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids, parse_edition
from meeple.kernel.errors import EditionError
from tests.monopoly.helpers import act, dice, edition_game, game, legal, own

EDITIONS = Path(__file__).resolve().parents[2] / "src/meeple/games/monopoly/editions"


def data(edition: str) -> dict[str, Any]:
    return tomllib.loads((EDITIONS / f"{edition}.toml").read_text())


def broken(edition: str, edit: Any) -> dict[str, Any]:
    d = data(edition)
    edit(d)
    return d


def test_every_shipped_edition_loads() -> None:
    """docs/EDITIONS.md: five editions ship, each a valid data file."""
    assert builtin_edition_ids() == [
        "classic",
        "friends",
        "frozen-ii",
        "my-first-monopoly-1",
        "my-first-monopoly-2",
    ]
    for eid in builtin_edition_ids():
        assert parse_edition(data(eid), f"{eid}.toml").id == eid


def test_the_kids_levels_pair_their_end_condition_with_their_insolvency_rule() -> None:
    """my-first-monopoly-rules.txt: Level 1 "You can't go bankrupt" and ends when the properties
    are sold out (``insolvency = "forgive"``, ``end_condition = "all_properties_owned"``);
    Level 2 "you're bankrupt! Then the games ends!" (``"ends_game"``, ``"first_bankruptcy"``)."""
    r1 = builtin_edition("my-first-monopoly-1").rules
    r2 = builtin_edition("my-first-monopoly-2").rules
    assert (r1.insolvency, r1.end_condition) == ("forgive", "all_properties_owned")
    assert (r2.insolvency, r2.end_condition) == ("ends_game", "first_bankruptcy")


def _rules(**kw: Any) -> Any:
    return lambda d: d["rules"].update(kw)


def _square(i: int, **kw: Any) -> Any:
    return lambda d: d["squares"][i].update(kw)


def _card(j: int, **kw: Any) -> Any:
    return lambda d: d["decks"][0]["cards"][j].update(kw)


@pytest.mark.parametrize(
    ("edition", "edit", "field", "reason"),
    [
        # first_bankruptcy is what "ends_game" does: one without the other is refused.
        (
            "my-first-monopoly-2",
            _rules(insolvency="forgive"),
            "rules.end_condition",
            '"first_bankruptcy" goes with insolvency = "ends_game"',
        ),
        (
            "my-first-monopoly-1",
            _rules(end_condition="first_bankruptcy"),
            "rules.end_condition",
            '"first_bankruptcy" goes with insolvency = "ends_game"',
        ),
        (
            "my-first-monopoly-1",
            _rules(insolvency="ends_game"),
            "rules.end_condition",
            '"first_bankruptcy" goes with insolvency = "ends_game"',
        ),
        # A street without its rent (no buildings: 1 rent, or 6).
        (
            "my-first-monopoly-1",
            lambda d: d["squares"][1].pop("rent"),
            "squares[1].rent",
            "a street needs its base rent",
        ),
        ("my-first-monopoly-2", _square(4, rent=[]), "squares[4].rent", "needs its base rent"),
        ("my-first-monopoly-2", _square(4, rent=[1, 2]), "squares[4].rent", "needs its base rent"),
        ("my-first-monopoly-2", _square(4, rent=[-1]), "squares[4].rent", "cannot be negative"),
        ("frozen-ii", _square(1, rent=[2]), "squares[1].rent", "6 rents"),
        ("frozen-ii", _square(5, rent=[2]), "squares[5].rent", "a element square takes no rent"),
        # A card that moves you off the board.
        (
            "my-first-monopoly-1",
            _card(0, target=24),
            "decks.chance.cards[0].target",
            "square 24 is not on the 24-square board",
        ),
        (
            "my-first-monopoly-1",
            _card(0, target=-1),
            "decks.chance.cards[0].target",
            "not on the 24-square board",
        ),
        (
            "my-first-monopoly-2",
            lambda d: d["decks"][0]["cards"][0].pop("target"),
            "decks.chance.cards[0].target",
            "a move_to card needs target",
        ),
        # Cards the board or the rules cannot carry out.
        (
            "my-first-monopoly-1",
            _card(0, op="move_to_nearest", kind="railroad"),
            "decks.chance.cards[0].kind",
            "the board has no railroad square",
        ),
        (
            "my-first-monopoly-2",
            _card(0, op="move_to_nearest", kind="element"),
            "decks.chance.cards[0].kind",
            "the board has no element square",
        ),
        (
            "my-first-monopoly-2",
            _card(0, op="repairs", per_house=1, per_hotel=2),
            "decks.chance.cards[0].op",
            "needs rules.buildings",
        ),
        # The new options' values.
        ("my-first-monopoly-1", _rules(jail_style="prison"), "rules.jail_style", "Input should"),
        ("my-first-monopoly-1", _rules(time_out_broke="dance"), "rules.time_out_broke", "Input"),
        ("my-first-monopoly-2", _rules(insolvency="maybe"), "rules.insolvency", "Input should"),
        (
            "my-first-monopoly-2",
            _rules(unaffordable_property="bankrupt"),
            "rules.unaffordable_property",
            "Input should",
        ),
        ("my-first-monopoly-1", _rules(end_condition="sunset"), "rules.end_condition", "Input"),
        ("my-first-monopoly-1", _rules(ranking="luck"), "rules.ranking", "Input should"),
        (
            "my-first-monopoly-1",
            _rules(max_properties_per_player=0),
            "rules.max_properties_per_player",
            "greater than or equal to 1",
        ),
        ("my-first-monopoly-1", _rules(dice=3), "rules.dice", "less than or equal to 2"),
        ("friends", _rules(utility_rent_dice="later"), "rules.utility_rent_dice", "Input"),
        ("frozen-ii", _rules(snowflake_multiplier=0), "rules.snowflake_multiplier", "greater"),
        ("frozen-ii", _rules(building_auction_min_bid=0), "rules.building_auction_min_bid", "gre"),
        ("frozen-ii", _rules(auction_min_bid=0), "rules.auction_min_bid", "greater"),
        ("frozen-ii", _rules(must_buy="perhaps"), "rules.must_buy", "Input should"),
    ],
)
def test_bad_edition_data_names_file_field_and_reason(
    edition: str, edit: Any, field: str, reason: str
) -> None:
    """docs/EDITIONS.md, "What the loader checks": malformed data gets an EditionError naming
    the file, the field and the reason."""
    with pytest.raises(EditionError) as info:
        parse_edition(broken(edition, edit), "my-edition.toml")
    assert info.value.file == "my-edition.toml"
    assert info.value.field == field
    assert reason in info.value.reason


def test_a_bad_rule_override_in_the_game_options_is_refused() -> None:
    """A game started with rule overrides (``options["rules"]``) is checked the same way: an
    unknown value names ``options.rules``; a mismatched pair is the edition's EditionError."""
    with pytest.raises(ValueError, match=r"options\.rules\.jail_style"):
        edition_game("my-first-monopoly-1", jail_style="prison")
    with pytest.raises(EditionError) as info:
        edition_game("my-first-monopoly-2", insolvency="forgive")
    assert info.value.field == "rules.end_condition"


INCONSISTENT = [
    pytest.param(
        "classic",
        {"must_buy": True, "unaffordable_property": "insolvent"},
        id="unaffordable-insolvent-with-raise_or_bankrupt",
    ),
    pytest.param(
        "classic",
        {"jail_style": "time_out", "time_out_broke": "insolvent"},
        id="time_out_broke-insolvent-with-raise_or_bankrupt",
    ),
    pytest.param(
        "my-first-monopoly-1",
        {"time_out_broke": "insolvent"},
        id="time_out_broke-insolvent-with-forgive",
    ),
]


@pytest.mark.parametrize(("edition", "rules"), INCONSISTENT)
def test_insolvent_options_need_insolvency_ends_game(edition: str, rules: dict[str, Any]) -> None:
    """docs/EDITIONS.md, rule options: ``unaffordable_property = "insolvent"`` and
    ``time_out_broke = "insolvent"`` make the player insolvent, which only ends the game with
    ``insolvency = "ends_game"`` (and ``end_condition = "first_bankruptcy"``). Any other pairing
    is bad data and should be refused when the file loads."""
    d = data(edition)
    d["rules"].update(rules)
    with pytest.raises(EditionError):
        parse_edition(d, "my-edition.toml")


def test_time_out_broke_insolvent_with_forgive_is_refused() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Time Out": a player with no money and no card must
    get out somehow; Level 1 with ``time_out_broke = "insolvent"`` (which would leave them stuck
    in a game that cannot end by bankruptcy) is refused when the game is set up."""
    with pytest.raises(EditionError, match="time_out_broke"):
        edition_game("my-first-monopoly-1", 2, time_out_broke="insolvent")


def test_sold_sign_limit_also_holds_in_an_auction() -> None:
    """docs/EDITIONS.md, rules: ``max_properties_per_player``: "Sold signs per player; with none
    left you cannot buy" (my-first-monopoly-rules.txt: "12 matching sold signs"). The shipped
    kids' levels have no auctions; an edition with both must not let a player at the limit win
    a deed at auction: with a limit of 1, seat 1 (holding Boardwalk) cannot bid for Baltic
    Avenue."""
    s = game(max_properties_per_player=1)
    own(s, 1, 39)
    dice(s, 1, 2)
    act(s, "roll")
    act(s, "decline")
    assert s.current_player() != 1 or not any(a.startswith("bid") for a in legal(s))
