"""Simulation of real engine games agrees with the exact chain, within sampling error.

Each test plays 16 games of 5,400 rolls (4 players; the first 400 rolls of each game are a
burn-in away from the start on GO) and compares every square's share, and the in-jail share,
with the chain (:func:`helpers.agrees`). The same check rejects a wrong chain.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from meeple.analysis.landing import JailPolicy, landing_analysis
from meeple.games.monopoly.edition import builtin_edition

from .helpers import agrees, jail_cards_as_no_moves, rolls_by_game, without_card_moves

GAMES, ROLLS, BURN_IN = 16, 5000, 400


@pytest.fixture(scope="module")
def classic_long_counts() -> list[list[int]]:
    # The policy keeps its Get Out of Jail Free cards: in the long run both are held, out of
    # their decks, which is the chain with kept_jail_cards.
    return rolls_by_game("classic", "long", GAMES, ROLLS, BURN_IN, seed=1000)


def probs(ed_id: str, jail: JailPolicy, kept: bool = False) -> list[Fraction]:
    res = landing_analysis(builtin_edition(ed_id), jail, kept)
    return [*res.squares, res.in_jail]


def test_classic_long_simulation_agrees_with_the_chain(
    classic_long_counts: list[list[int]],
) -> None:
    ok, how = agrees(classic_long_counts, probs("classic", "long", kept=True))
    assert ok, how


def test_a_chain_without_card_moves_is_rejected(classic_long_counts: list[list[int]]) -> None:
    wrong = landing_analysis(without_card_moves(builtin_edition("classic")), "long", True)
    ok, how = agrees(classic_long_counts, [*wrong.squares, wrong.in_jail])
    assert not ok, how


def test_classic_short_simulation_agrees_with_the_default_chain() -> None:
    # Jail cards that stay in their decks (as the default chain assumes): made no-move cards.
    ed = jail_cards_as_no_moves(builtin_edition("classic"))
    counts = rolls_by_game("classic", "short", GAMES, ROLLS, BURN_IN, seed=2000, edition=ed)
    ok, how = agrees(counts, probs("classic", "short"))
    assert ok, how


def test_one_die_time_out_edition_simulation_agrees() -> None:
    counts = rolls_by_game("my-first-monopoly-1", "short", GAMES, 2500, 200, seed=3000)
    ok, how = agrees(counts, probs("my-first-monopoly-1", "short", kept=True))
    assert ok, how
