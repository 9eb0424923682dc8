"""Setup (ELŐKÉSZÜLETEK): market, money, starting stock, castle cards, boards, start player."""

from __future__ import annotations

import pytest
from monopolis_helpers import CASTLE, fresh

from meeple.games.monopolis import market
from meeple.games.monopolis.city import EMPTY, NEIGHBOURS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_components(players: int) -> None:
    s = fresh(players, seed=11)
    # "Draw 3 cards from each of the two resource card decks and place them face up."
    assert [len(row) for row in s.market] == [3, 3]
    comps = s.comps
    assert all(comps.resource_card(c).deck == 0 for c in s.market[0])
    assert all(comps.resource_card(c).deck == 1 for c in s.market[1])
    # Starting capital 5 money, and the starting stock of 2 resources, nothing on the joker track.
    assert s.money == [5] * players
    assert [sum(r) for r in s.res] == [2] * players
    assert s.jokers == [0] * players
    # 12 house spaces with 2 players, 9 with 3 or 4.
    assert s.capacity == (12 if players == 2 else 9)
    assert s.houses == [0] * players
    # The castle in the centre, one requirement card on each of its four sides.
    assert s.value_at[CASTLE] == 0 and s.tile_at[CASTLE] == 0
    assert [p for p in range(49) if s.card_at[p] != EMPTY] == sorted(NEIGHBOURS[CASTLE])
    assert len(s.bag) == 88 - 4
    # The tile decks, one per value, 12 / 10 / 8 / 6 / 4.
    assert [len(d) for d in s.tile_decks] == [12, 10, 8, 6, 4]
    # The start player (seat 0) begins.
    assert s.current_player() == 0 and s.turn_player == 0
    # Every drawn starting card went back: 20 yellow = 3 face up + 17 in the deck.
    assert len(s.res_decks[0]) == 17 and len(s.res_decks[1]) == 23
    assert s.discards == [[], []]


def test_starting_stock_redraws_past_jokers() -> None:
    s = fresh(2, seed=5)
    comps = s.comps
    deck = s.res_decks[0]
    jokers = [c for c in deck if comps.resource_card(c).liza]
    plain = [c for c in deck if not comps.resource_card(c).liza]
    # Stack the left deck: seat 0 draws two jokers, then a plain card; seat 1 a plain card.
    stacked = [c for c in deck if c not in jokers[:2] + plain[:2]]
    stacked += [plain[1], plain[0], jokers[1], jokers[0]]
    s.res_decks[0] = stacked
    s.res = [[0] * 4, [0] * 4]
    market.starting_stock(s)
    assert s.res[0] == list(comps.resource_card(plain[0]).gains)
    assert s.res[1] == list(comps.resource_card(plain[1]).gains)
    # "Afterwards, shuffle the cards back into their deck."
    assert sorted(s.res_decks[0]) == sorted(stacked)


def test_different_seeds_differ_same_seed_same() -> None:
    assert fresh(3, seed=1).snapshot() == fresh(3, seed=1).snapshot()
    assert fresh(3, seed=1).snapshot() != fresh(3, seed=2).snapshot()


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        fresh(5)
    from meeple.games.monopolis import new_monopolis

    with pytest.raises(ValueError, match="unknown monopolis option"):
        new_monopolis(2, 1, {"speed": 2})


def test_a_start_player_is_chosen_and_ends_the_rounds() -> None:
    """Setup: "Choose a starting player, who receives the start player marker." The table's
    choice is drawn from the game's stream after the rest of the setup (docs/RULES.md, "Who
    starts"), so every seat starts in some games; the last round ends before the marker."""
    from collections import Counter

    from meeple.games.monopolis import new_monopolis
    from meeple.games.monopolis.bots import MonopolisStandardBot
    from meeple.games.monopolis.turns import RULESET
    from meeple.kernel.family import family

    assert family("monopolis").ruleset == RULESET == 2
    starts = Counter(new_monopolis(3, seed, {}).start_player for seed in range(90))
    assert set(starts) == {0, 1, 2}
    s = new_monopolis(3, 4, {})
    first = s.start_player
    assert s.current_player() == first and [s.describe(e) for e in s.setup_events()] == [
        f"Player {first + 1} starts and takes the start player marker."
    ]
    # The draw comes last: the setup is the same as with Player 1 starting.
    same = new_monopolis(3, 4, {"rules": {"start_player": "first_seat"}})
    assert same.start_player == 0 and same.market == s.market and same.bag == s.bag
    assert new_monopolis(3, 4, {"ruleset": 1}).start_player == 0
    bots = [MonopolisStandardBot(i) for i in range(3)]
    while not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    r = s.result()
    assert r is not None and r.end_reason != "turn_cap" and r.turns % 3 == 0
    assert s.turn_player == (first - 1) % 3  # the last turn: the seat before the marker
    with pytest.raises(ValueError, match="start_player"):
        new_monopolis(3, 4, {"rules": {"start_player": "youngest"}})


def test_a_snapshot_from_before_the_start_player_has_player_1_start() -> None:
    from meeple.games.monopolis import new_monopolis
    from meeple.games.monopolis.state import MonopolisState

    snap = new_monopolis(2, 4, {"ruleset": 1}).snapshot()
    del snap["start_player"]
    assert MonopolisState.from_snapshot(snap).start_player == 0
