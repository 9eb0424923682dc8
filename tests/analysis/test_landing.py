"""The exact landing chain: its invariants on every edition, and the pieces it is built from."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meeple.analysis.landing import (
    JAILED,
    PLAIN,
    LandingChain,
    arrivals,
    dice_outcomes,
    landing_analysis,
)
from meeple.analysis.stationary import closed_class, stationary
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.tables import GO_TO_JAIL

F = Fraction


@pytest.mark.parametrize("edition", builtin_edition_ids())
@pytest.mark.parametrize("jail", ["short", "long"])
def test_every_edition_solves_to_shares_summing_to_exactly_one(edition: str, jail: str) -> None:
    ed = builtin_edition(edition)
    res = landing_analysis(ed, jail)  # type: ignore[arg-type]
    assert sum(res.squares) + res.in_jail == 1
    assert all(p >= 0 for p in res.squares)
    assert res.in_jail > 0
    for sq in range(ed.size):
        if ed.kind[sq] == GO_TO_JAIL:
            assert res.squares[sq] == 0
        else:
            assert res.squares[sq] > 0, ed.square_names[sq]


def test_classic_numbers() -> None:
    ed = builtin_edition("classic")
    long = landing_analysis(ed, "long")
    short = landing_analysis(ed, "short")
    # Illinois Avenue (24) is the most landed-on square in both; Go to Jail (30) never ends a roll.
    assert long.ranked()[0] == 24 and short.ranked()[0] == 24
    assert long.squares[30] == 0 == short.squares[30]
    assert 0.029 < float(long.squares[24]) < 0.031
    assert 0.09 < float(long.in_jail) < 0.10 and 0.035 < float(short.in_jail) < 0.045
    # Staying in jail: more rolls end in jail, fewer on the board, Just Visiting (10) among them.
    assert long.in_jail > short.in_jail
    assert sum(long.squares) < sum(short.squares)
    assert long.squares[10] < short.squares[10]


def test_kept_jail_cards_leave_the_decks() -> None:
    ed = builtin_edition("classic")
    kept = arrivals(ed, kept_jail_cards=True)
    default = arrivals(ed)
    # Community Chest 2: Go to Jail is 1 card in 16, or 1 in 15 once the jail card is kept.
    assert default[2][JAILED, PLAIN] == F(1, 16)
    assert kept[2][JAILED, PLAIN] == F(1, 15)


def test_a_card_move_onto_a_card_square_draws_again() -> None:
    ed = builtin_edition("classic")
    chance36 = arrivals(ed)[36]
    # "Go back 3 spaces" to Community Chest 33, whose "Advance to GO" is 1 in 16 of that.
    # Plus Chance's own "Advance to GO".
    assert chance36[0, PLAIN] == F(1, 16) + F(1, 16) * F(1, 16)
    # Jail: Chance's "Go to Jail", and Community Chest's after going back 3.
    assert chance36[JAILED, PLAIN] == F(1, 16) + F(1, 16) * F(1, 16)
    assert sum(chance36.values()) == 1


def test_nearest_railroad_cards_are_marked_with_their_multiplier() -> None:
    ed = builtin_edition("classic")
    chance7 = arrivals(ed)[7]
    # Two "advance to the nearest railroad" cards: Pennsylvania Railroad (15) from Chance 7.
    assert chance7[15, 2] == F(2, 16)


def test_element_squares_move_on_to_the_next() -> None:
    ed = builtin_edition("frozen-ii")
    arrive = arrivals(ed)
    elements = [sq for sq in range(ed.size) if ed.kind[sq] == 9]
    for sq in elements:
        assert arrive[sq] == {(ed.nearest[9][sq], PLAIN): 1}
    res = landing_analysis(ed, "long")
    # An Element square is reached only by travelling on from the one before.
    assert all(res.squares[sq] > 0 for sq in elements)


def test_one_die_editions_have_no_doubles_and_time_out_ignores_the_jail_setting() -> None:
    ed = builtin_edition("my-first-monopoly-1")
    assert dice_outcomes(ed) == [(d, False, F(1, 6)) for d in range(1, 7)]
    short = landing_analysis(ed, "short")
    long = landing_analysis(ed, "long")
    assert short.squares == long.squares and short.in_jail == long.in_jail
    # One state per square (no doubles) and one Time Out state, less Go to Time Out.
    assert short.states == ed.size
    assert "Time Out" in short.jail_rule


def test_two_dice_outcomes() -> None:
    outcomes = dice_outcomes(builtin_edition("classic"))
    assert sum(p for _, _, p in outcomes) == 1
    assert sum(p for _, d, p in outcomes if d) == F(1, 6)
    assert (7, False, F(6, 36)) in outcomes


def test_long_jail_states_follow_the_rules() -> None:
    chain = LandingChain(builtin_edition("classic"), "long")
    first = list(chain.steps(chain.jail_state(0)))
    # A miss (5/6) stays in jail with one try used; doubles (1/6) leave.
    assert sum(st.p for st in first if st.to == chain.jail_state(1)) == F(5, 6)
    last = list(chain.steps(chain.jail_state(2)))
    assert all(st.to != chain.jail_state(3) for st in last)
    assert sum(st.p for st in last) == 1
    # The third double in a turn goes to jail without moving.
    third = list(chain.steps(chain.state(5, 2)))
    assert sum(st.p for st in third if st.to == chain.jail_state(0) and st.final == JAILED) >= F(
        1, 6
    )


def test_stationary_of_a_small_chain() -> None:
    rows = [{1: F(1)}, {0: F(1, 2), 2: F(1, 2)}, {0: F(1)}, {0: F(1)}]  # state 3: not reached
    states = closed_class(rows, 0)
    assert states == [0, 1, 2]
    pi = stationary(rows, states)
    assert pi == {0: F(2, 5), 1: F(2, 5), 2: F(1, 5)}


def test_two_closed_classes_are_refused() -> None:
    rows = [{1: F(1, 2), 2: F(1, 2)}, {1: F(1)}, {2: F(1)}]
    with pytest.raises(ValueError, match="2 closed classes"):
        closed_class(rows, 0)
