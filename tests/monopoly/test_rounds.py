"""Rounds (``meeple simulate``'s ``rounds``): a turn of every player still in the game, in turn
order; a new round begins when the turn comes to a player who has had a turn in the current one
(``rules/turns.count_round``; docs/KERNEL.md, "Rounds"). Friends rules A, "How to Play": "When
you finish your turn, play passes to the player on your left"; an eliminated player's turns are
skipped, so later rounds are shorter."""

from __future__ import annotations

import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.family import FAMILY
from meeple.games.monopoly.rules import holdings, turns
from tests.monopoly.helpers import game


def _pass_turn(s) -> None:  # type: ignore[no-untyped-def]
    """The player on turn is done; the next one begins (the windows between are skipped)."""
    turns.next_turn(s)


def test_a_round_is_a_turn_of_every_player() -> None:
    s = game(players=3)
    assert FAMILY.rounds_played(s) == 1  # the first turn begins the first round
    seen = []
    for _ in range(7):
        _pass_turn(s)
        seen.append((s.turn, s.round_no))
    assert seen == [(1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3)]


def test_a_player_out_in_their_own_turn_shortens_the_next_rounds() -> None:
    """Seat 1 goes out in its turn of round 2: seats 2 and 0 finish the round, and round 3 is
    seats 0 and 2 alone."""
    s = game(players=3)
    for _ in range(4):
        _pass_turn(s)
    assert (s.turn, s.round_no) == (1, 2)
    holdings.leave_game(s, 1)
    seen = []
    for _ in range(5):
        _pass_turn(s)
        seen.append((s.turn, s.round_no))
    assert seen == [(2, 2), (0, 3), (2, 3), (0, 4), (2, 4)]


def test_the_rounds_first_player_out_ends_the_round_at_the_next_player_who_played() -> None:
    """Seat 0 begins round 2 and goes out in seat 1's turn (a debt to seat 1, say): the round
    ends when the turn comes back to seat 1, who played in it, not to the missing seat 0."""
    s = game(players=3)
    for _ in range(4):
        _pass_turn(s)
    assert (s.turn, s.round_no) == (1, 2)
    holdings.leave_game(s, 0)
    seen = []
    for _ in range(4):
        _pass_turn(s)
        seen.append((s.turn, s.round_no))
    assert seen == [(2, 2), (1, 3), (2, 3), (1, 4)]


@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("classic", 5), ("friends", 6)])
def test_rounds_are_the_most_turns_any_player_took(edition: str, players: int) -> None:
    """In played games, eliminations included: the round count is the most turns one seat
    took, counted from the ``turn`` events (the first turn is seat 0's, before any event)."""
    for seed in range(4):
        s = new_monopoly(edition, players, seed, {"max_turns": 400})
        bots = [RandomBot(seed * 10 + p) for p in range(players)]
        taken = [0] * players
        taken[s.turn] = 1
        while not s.is_terminal():
            for e in s.apply(bots[s.current_player()].choose(s)):
                if e.kind == "turn":
                    taken[e.data["player"]] += 1
        assert FAMILY.rounds_played(s) == max(taken)


def test_a_copy_keeps_the_count_and_a_restored_snapshot_counts_from_its_position() -> None:
    s = game(players=2)
    for _ in range(5):
        _pass_turn(s)
    assert s.clone().round_no == s.round_no == 3
    t = game(players=2)
    t.restore(s.snapshot())
    assert t.round_no == 1 and t.turn == s.turn
