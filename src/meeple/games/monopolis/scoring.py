"""Final scoring, in the rulebook's order, and the winner.

monopolis-rules.txt, "End of the Game (A JÁTÉK VÉGE)": 1. leftover money, every 5 is 1 point;
2. personal board points, +2 per uncovered space of the last column (the rulebook's "covered by
your houses" read as naming the spaces: docs/RULES.md, "Monopolis: the last column of the player
board"), +6 (3-4 players) or +8 (2 players) for using every house; 3. collection majorities,
4 / 2 per icon; 4. parks, 10 / 5; 5. tile values plus 1 per cube. "The player who collects the
most points is the winner."
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.games.monopolis.city import EMPTY
from meeple.games.monopolis.components import PARK

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

#: Step names, in scoring order.
STEPS = ("money", "board", "collections", "parks", "tiles")
MONEY_PER_POINT = 5


@dataclass(frozen=True, slots=True)
class Award:
    """Points for a majority: first, second, each tied first, each tied second."""

    first: int
    second: int
    tied_first: int
    tied_second: int


#: "the player with the majority receives 4 points ... second place 2 points. If there is a tie
#: for first place, every tied player receives 2 points ... a tie for second place, 1 point each."
COLLECTION_AWARD = Award(4, 2, 2, 1)
#: "most parks receives 10 points; second place 5 points ... tie for first place, every tied
#: player receives 5 points ... tie for second place, those players receive 2 points each."
PARK_AWARD = Award(10, 5, 5, 2)


def board_bonus(players: int) -> int:
    """The bonus for using every house: +8 with 2 players, +6 with 3 or 4."""
    return 8 if players == 2 else 6


def majority(counts: list[int], award: Award) -> list[int]:
    """Points per seat for a majority contest over ``counts``.

    A tie for first place scores every tied player ``tied_first`` and nobody else; otherwise the
    leader scores ``first`` and the runner(s)-up ``second`` alone or ``tied_second`` each. A
    player with a count of 0 takes no place (decision: nothing collected, nothing won).
    """
    points = [0] * len(counts)
    top = max(counts, default=0)
    if top <= 0:
        return points
    leaders = [i for i, c in enumerate(counts) if c == top]
    if len(leaders) > 1:
        for i in leaders:
            points[i] = award.tied_first
        return points
    points[leaders[0]] = award.first
    runner = max((c for c in counts if 0 < c < top), default=0)
    if runner:
        seconds = [i for i, c in enumerate(counts) if c == runner]
        each = award.second if len(seconds) == 1 else award.tied_second
        for i in seconds:
            points[i] = each
    return points


def collection_counts(state: MonopolisState) -> list[list[int]]:
    """Icons collected per seat and icon: icons on tiles built plus on cards in hand.

    "On park tiles every icon counts separately; on the 4-value tiles, however, regardless of
    the number of houses, the icon shown can be counted only once": each tile's icons once.
    """
    comps = state.comps
    counts = [[0] * len(comps.icons) for _ in range(state.n)]
    for plot, owner in enumerate(state.owner_at):
        if owner >= 0:
            for icon in comps.tiles[state.tile_at[plot]].icons:
                counts[owner][icon] += 1
    for seat, hand in enumerate(state.hand):
        for card_id in hand:
            icon = comps.card(card_id).icon
            if icon >= 0:
                counts[seat][icon] += 1
    return counts


def park_counts(state: MonopolisState) -> list[int]:
    """Parks built per seat."""
    counts = [0] * state.n
    for plot, owner in enumerate(state.owner_at):
        if owner >= 0 and state.value_at[plot] == PARK:
            counts[owner] += 1
    return counts


def score_sheets(state: MonopolisState) -> list[dict[str, int]]:
    """Each seat's points per scoring step (``STEPS``) and ``total``."""
    n = state.n
    comps = state.comps
    sheets: list[dict[str, int]] = [dict.fromkeys(STEPS, 0) for _ in range(n)]
    for seat in range(n):
        sheet = sheets[seat]
        sheet["money"] = state.money[seat] // MONEY_PER_POINT
        board = sum(comps.house_column(n, h).points for h in range(state.houses[seat]))
        if state.houses[seat] == state.capacity:
            board += board_bonus(n)
        sheet["board"] = board
    by_icon = collection_counts(state)
    for icon in range(len(comps.icons)):
        pts = majority([by_icon[s][icon] for s in range(n)], COLLECTION_AWARD)
        for seat in range(n):
            sheets[seat]["collections"] += pts[seat]
    for seat, park_points in enumerate(majority(park_counts(state), PARK_AWARD)):
        sheets[seat]["parks"] = park_points
    for plot, owner in enumerate(state.owner_at):
        if owner >= 0 and state.tile_at[plot] != EMPTY:
            sheets[owner]["tiles"] += state.value_at[plot] + state.cubes[plot]
    for sheet in sheets:
        sheet["total"] = sum(sheet[k] for k in STEPS)
    return sheets


def ranking(state: MonopolisState, totals: list[int]) -> tuple[list[int], list[int]]:
    """(ranking, winners): most points first; ties broken by most money left (decision), then
    shared. Seats equal on both share the win and are listed in seat order.
    """
    key = [(-totals[s], -state.money[s], s) for s in range(state.n)]
    order = [k[2] for k in sorted(key)]
    best = key[order[0]][:2]
    winners = [s for s in order if key[s][:2] == best]
    return order, winners
