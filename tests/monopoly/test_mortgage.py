"""Mortgages: only on undeveloped groups; lifted at the mortgage value plus 10%.

Friends rules A, "Mortgaging"; Friends rules B, "Mortgage Properties"; Frozen II, "Mortgaging
Scenes" ("mortgage value +10%"). Values from shared/reference/classic-board.json, whose
unmortgage costs round the 10% up (utilities 83, Park Place 193).
"""

import pytest

from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.rules import mortgage
from tests.monopoly.helpers import act, build_to, cash, game, illegal, kinds, legal, own


def test_mortgage_pays_the_mortgage_value() -> None:
    """Friends rules A, "Mortgaging": "You will collect the amount shown on the back of the card
    from the Bank" (Boardwalk 200)."""
    s = game()
    own(s, 0, 39)
    act(s, "mortgage 39")
    assert s.mortgaged[39] and s.cash[0] == 1700 and s.bank_out == 200


def test_no_mortgage_while_the_group_has_buildings() -> None:
    """Friends rules A, "Mortgaging": "Before you can mortgage any moment, you must sell all of
    the coffee mugs and sofas off all of the spaces in the color group" - even the unbuilt
    street of a built group."""
    s = game()
    own(s, 0, 1, 3)
    build_to(s, {1: 1, 3: 0})
    assert "mortgage 1" not in legal(s) and "mortgage 3" not in legal(s)
    illegal(s, "mortgage 3")
    act(s, "sell_building 1")
    assert {"mortgage 1", "mortgage 3"} <= legal(s)


def test_buildings_elsewhere_do_not_block_a_railroad_mortgage() -> None:
    """Friends rules B, "Mortgage Properties": "you can mortgage any of your unimproved
    properties"."""
    s = game()
    own(s, 0, 1, 3, 5)
    build_to(s, {1: 1, 3: 1})
    assert "mortgage 5" in legal(s)


def test_cannot_mortgage_twice() -> None:
    """Friends rules A, "Mortgaging": a mortgaged card is face down; it cannot be mortgaged
    again."""
    s = game()
    own(s, 0, 39, mortgaged=True)
    illegal(s, "mortgage 39")


@pytest.mark.parametrize(
    ("square", "cost"), [(39, 220), (1, 33), (12, 83), (28, 83), (37, 193), (5, 110)]
)
def test_unmortgage_costs_value_plus_ten_percent_rounded_up(square: int, cost: int) -> None:
    """Friends rules A, "Mortgaging": "To pay off a mortgage on a moment you owe the list value
    plus 10%"; Frozen II: "mortgage value +10%"; classic-board.json rounds up (82.5 -> 83,
    192.5 -> 193)."""
    s = game()
    own(s, 0, square, mortgaged=True)
    act(s, f"unmortgage {square}")
    assert not s.mortgaged[square] and s.cash[0] == 1500 - cost


def test_unmortgage_needs_the_cash() -> None:
    """Friends rules B, "Mortgage Properties": "To repay a mortgage, pay the listed value plus
    10%" - not possible without it."""
    s = game()
    own(s, 0, 39, mortgaged=True)
    cash(s, 0, 219)
    assert "unmortgage" not in kinds(s)
    illegal(s, "unmortgage 39")


def test_cannot_mortgage_another_players_deed() -> None:
    """Friends rules A, "Mortgaging": you mortgage your own moments."""
    s = game()
    own(s, 1, 39)
    illegal(s, "mortgage 39")


def test_mortgage_and_unmortgage_out_of_turn() -> None:
    """Friends rules B, "Don't Wait for the Dice", "Mortgage Properties": in another player's
    window."""
    from tests.monopoly.helpers import at, dice

    s = game(players=2)
    own(s, 1, 39)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    act(s, "end_turn")
    assert s.current_player() == 1 and s.phase == s.WINDOW
    act(s, "mortgage 39")
    act(s, "unmortgage 39")
    assert s.cash[1] == 1500 + 200 - 220


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_liftable_is_each_deed_within_the_cash(edition: str) -> None:
    """``mortgage.liftable`` (a random player's count of the mortgages it may lift) reads one
    mask of the edition's table: the deeds whose price to lift is within the cash, at every
    price of the board, a unit either side of it, none and much."""
    s = new_monopoly(edition, builtin_edition(edition).rules.min_players, 0)
    prices = {s.ed.unmortgage_cost[sq] for sq in s.ed.properties}
    for money in sorted({-1, 0, 10**6} | {c + d for c in prices for d in (-1, 0, 1)}):
        expected = sum(1 << sq for sq in s.ed.properties if s.ed.unmortgage_cost[sq] <= money)
        assert mortgage.liftable(s, money) == expected, (edition, money)


def test_an_edition_priced_in_billions_loads_and_lifts_without_a_table() -> None:
    """An edition file may price a deed at billions: ``Edition.lift_masks`` would then be a
    table billions of entries long, so above ``tables.LIFT_TABLE_MOST`` it is not made and
    ``mortgage.liftable`` tests each deed's price (the same answer)."""
    import tomllib
    from pathlib import Path

    from meeple.games.monopoly.edition import parse_edition
    from meeple.games.monopoly.tables import LIFT_TABLE_MOST

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "src/meeple/games/monopoly/editions/classic.toml").read_text())
    dear = next(sq for sq in data["squares"] if sq.get("price"))
    dear["price"], dear["mortgage"] = 4 * 10**9, 2 * 10**9
    ed = parse_edition(data, "dear.toml")
    assert ed.lift_masks == () and max(ed.unmortgage_cost) > LIFT_TABLE_MOST
    s = new_monopoly(ed, 2, 0)
    for money in (-1, 0, 33, 10**6, 3 * 10**9, 10**12):
        expected = sum(1 << sq for sq in ed.properties if ed.unmortgage_cost[sq] <= money)
        assert mortgage.liftable(s, money) == expected, money
