"""Final scoring (A JÁTÉK VÉGE), step by step, with every tie rule, and the winner."""

from __future__ import annotations

import pytest
from monopolis_helpers import EAST, NORTH, SOUTH, WEST, at, clear_cards, fresh, place_tile

from meeple.games.monopolis.scoring import (
    COLLECTION_AWARD,
    PARK_AWARD,
    collection_counts,
    majority,
    ranking,
    score_sheets,
)
from meeple.games.monopolis.state import MonopolisState


def blank(players: int) -> MonopolisState:
    s = fresh(players, seed=51)
    clear_cards(s)
    s.money = [0] * players
    return s


@pytest.mark.parametrize(("money", "points"), [(18, 3), (36, 7), (4, 0), (5, 1), (0, 0)])
def test_leftover_money_every_five_is_a_point(money: int, points: int) -> None:
    s = blank(2)
    s.money[0] = money
    assert score_sheets(s)[0]["money"] == points


@pytest.mark.parametrize(
    ("players", "used", "board"),
    [
        (2, 7, 0),
        (2, 8, 0),
        (2, 9, 2),
        (2, 11, 6),
        (2, 12, 8 + 8),
        (3, 6, 0),
        (3, 8, 4),
        (4, 9, 6 + 6),
    ],
)
def test_personal_board_points_and_the_bonus(players: int, used: int, board: int) -> None:
    """monopolis-rules.txt, "End of the Game" 2: "The last column of houses ... gives +2 victory
    points for each house space. The player who has used all their houses receives a bonus of +6
    points in a 3- or 4-player game, or +8 points in a 2-player game"; "Building": "the third
    column gives 1 money and 2 victory points". The spaces that score are those whose house was
    built (uncovered), not those still covered (docs/RULES.md, "Monopolis: the last column of
    the player board"): with the covered reading, 9 houses used of 12 would score 6, not 2."""
    # 2 players: 12 spaces, the last column is houses 9-12; 3-4 players: houses 7-9.
    # Using every house adds 8 (2 players) or 6 (3-4 players).
    s = blank(players)
    s.houses[0] = used
    assert score_sheets(s)[0]["board"] == board


def test_majority_award_rules() -> None:
    # Majority 4, second 2.
    assert majority([3, 1, 0], COLLECTION_AWARD) == [4, 2, 0]
    # Tie for first: every tied player 2, lower places not scored.
    assert majority([3, 3, 1], COLLECTION_AWARD) == [2, 2, 0]
    # Tie for second: 1 each.
    assert majority([5, 2, 2, 1], COLLECTION_AWARD) == [4, 1, 1, 0]
    # Nothing collected, nothing scored (decision).
    assert majority([0, 0, 0], COLLECTION_AWARD) == [0, 0, 0]
    assert majority([2, 0], COLLECTION_AWARD) == [4, 0]
    # Parks: 10 / 5, tie for first 5 each, tie for second 2 each.
    assert majority([4, 2, 1], PARK_AWARD) == [10, 5, 0]
    assert majority([2, 2, 1], PARK_AWARD) == [5, 5, 0]
    assert majority([3, 1, 1, 0], PARK_AWARD) == [10, 2, 2, 0]


def test_collection_counts_tiles_and_cards_parks_twice_workplace_once() -> None:
    s = blank(2)
    park = place_tile(s, NORTH, 1, owner=0)
    work = place_tile(s, EAST, 4, owner=1)  # two houses, one icon counted once
    card_with_icon = next(c.id for c in s.comps.requirement_cards if c is not None and c.icon >= 0)
    s.bag.remove(card_with_icon)
    s.hand[1].append(card_with_icon)
    counts = collection_counts(s)
    tiles = s.comps.tiles
    expected0 = [0, 0, 0, 0]
    for icon in tiles[park].icons:
        expected0[icon] += 1
    expected1 = [0, 0, 0, 0]
    expected1[tiles[work].icons[0]] += 1
    expected1[s.comps.card(card_with_icon).icon] += 1
    assert sum(expected0) == 2 and counts[0] == expected0
    assert counts[1] == expected1


def test_collection_step_scores_each_icon() -> None:
    s = blank(2)
    # Seat 0: two parks (4 icons). Seat 1: nothing.
    place_tile(s, NORTH, 1, owner=0)
    place_tile(s, SOUTH, 1, owner=0)
    counts = collection_counts(s)[0]
    sheet = score_sheets(s)
    assert sheet[0]["collections"] == 4 * sum(1 for c in counts if c > 0)
    assert sheet[1]["collections"] == 0


def test_park_step() -> None:
    s = blank(3)
    for plot in (NORTH, SOUTH):
        place_tile(s, plot, 1, owner=0)
    place_tile(s, EAST, 1, owner=1)
    place_tile(s, WEST, 1, owner=2)
    parks = [sheet["parks"] for sheet in score_sheets(s)]
    assert parks == [10, 2, 2]


def test_tile_values_and_cubes() -> None:
    s = blank(2)
    place_tile(s, NORTH, 2, owner=0)
    place_tile(s, EAST, 2, owner=1)
    place_tile(s, at(1, 1), 3, owner=0)  # business touching both residentials
    place_tile(s, SOUTH, 6, owner=1)
    sheets = score_sheets(s)
    assert sheets[0]["tiles"] == (2 + 1) + (3 + 2)
    assert sheets[1]["tiles"] == (2 + 1) + 6


def test_total_is_the_sum_of_the_steps() -> None:
    s = blank(2)
    s.money = [12, 3]
    place_tile(s, NORTH, 1, owner=0)
    s.houses[0] = 12
    sheet = score_sheets(s)[0]
    assert (
        sheet["total"]
        == sheet["money"] + sheet["board"] + sheet["collections"] + sheet["parks"] + sheet["tiles"]
    )
    assert sheet["money"] == 2 and sheet["board"] == 8 + 8 and sheet["parks"] == 10


def test_most_points_win_ties_broken_by_money_then_shared() -> None:
    s = blank(3)
    s.money = [4, 9, 9]
    order, winners = ranking(s, [20, 20, 10])
    assert order == [1, 0, 2] and winners == [1]
    s.money = [9, 9, 9]
    order, winners = ranking(s, [20, 20, 10])
    assert order == [0, 1, 2] and winners == [0, 1]
