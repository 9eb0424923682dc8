"""Positions the browser tests start from, found by playing the engine itself.

A server game is fully determined by its seed, its bots (each seeded with
``derive_seed(seed, 1 + seat)``, as the server does) and the human seat's actions. So a test
finds, with the engine in-process, a seed whose game reaches the situation it needs (the
human's first roll lands on an unowned deed; the human comes to own a whole colour group and
may build) under a fixed human policy, then plays the same policy through the API up to that
point and uses the page for the step it checks. Searching at run time keeps the tests right
whatever the engine or the bots do, as long as the server plays the same game as the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from meeple.bots.base import make_bot
from meeple.kernel.family import game_info, new_game
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed

BOTS = "random"
HUMAN = 0
FIRST = {"rules": {"start_player": "first_seat"}}
"""The browser tests' games start with the human, Player 1 (``conftest.create_game`` makes them
so); who starts by the rulebook is tested in tests/monopoly/test_start.py."""

# The human policy: the first legal action of the first kind in this list.
PREFERENCE = (
    "buy",
    "roll",
    "end_turn",
    "pass",
    "reject",
    "no_building",
    "keep_mortgage",
    "cancel",
    "mortgage",
    "sell_building",
    "sell_group",
    "pay_fine",
    "bankrupt",
)


def human_choice(legal: list[str]) -> str:
    """What the scripted human plays among the legal action texts."""
    for kind in PREFERENCE:
        for a in legal:
            if a.split(" ")[0] == kind:
                return a
    return legal[0]


def _bots(game: str, players: int, seed: int) -> list[Any]:
    family = game_info(game).family
    return [
        None if seat == HUMAN else make_bot(BOTS, family, derive_seed(seed, 1 + seat))
        for seat in range(players)
    ]


def first_roll_lands_on_a_deed(
    game: str, players: int, seeds: range = range(1000), options: dict[str, Any] | None = None
) -> int:
    """A seed whose first action (the human rolls) leaves the human a deed to buy (the game
    made with ``options``, as the server makes it)."""
    for seed in seeds:
        s = new_game(game, players, seed, FIRST if options is None else options)
        if s.current_player() != HUMAN:
            continue  # (the roll-off chose someone else to start)
        s.apply(Action.parse("roll"))
        legal = [str(a) for a in s.legal_actions()]
        if s.current_player() == HUMAN and "buy" in legal and "decline" in legal:
            return seed
    raise AssertionError("no seed lands the first roll on an unowned deed")


def reaches(
    game: str, players: int, seed: int, goal: Callable[[GameState, list[str]], bool], limit: int
) -> int | None:
    """How many actions the game of ``seed`` takes until ``goal`` holds on a human decision."""
    s = new_game(game, players, seed, FIRST)
    bots = _bots(game, players, seed)
    for n in range(limit):
        if s.is_terminal():
            return None
        cp = s.current_player()
        if cp == HUMAN:
            legal = [str(a) for a in s.legal_actions()]
            if goal(s, legal):
                return n
            s.apply(Action.parse(human_choice(legal)))
        else:
            s.apply(bots[cp].choose(s))
    return None


def can_build(state: GameState, legal: list[str]) -> bool:
    return any(a.startswith("build ") for a in legal)


def best_seed(
    game: str,
    players: int,
    goal: Callable[[GameState, list[str]], bool],
    seeds: range,
    limit: int,
) -> int:
    """The seed in ``seeds`` that reaches ``goal`` in the fewest actions."""
    found = [
        (n, seed) for seed in seeds if (n := reaches(game, players, seed, goal, limit)) is not None
    ]
    assert found, f"no seed in {seeds} reaches the goal within {limit} actions"
    return min(found)[1]


class Driver:
    """Plays the human seat through the JSON API, exactly as :func:`human_choice` would."""

    def __init__(self, base: str, gid: str, token: str) -> None:
        self.base = base
        self.gid = gid
        self.token = token

    def view(self) -> dict[str, Any]:
        r = httpx.get(f"{self.base}/api/games/{self.gid}/view", params={"token": self.token})
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def wait_for_decision(self, timeout: float = 60.0) -> dict[str, Any]:
        """The view at the human's next decision (bots move on the server meanwhile)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.view()
            if v["legal_actions"] or v["status"] == "finished":
                return v
            time.sleep(0.02)
        raise AssertionError("the human seat was never asked to decide")

    def play_until(self, goal: Callable[[list[str]], bool], limit: int = 5000) -> dict[str, Any]:
        """Play the policy until ``goal(legal action texts)`` holds; returns that view."""
        for _ in range(limit):
            v = self.wait_for_decision()
            assert v["status"] == "active", "the game ended before the goal"
            legal = [a["action"] for a in v["legal_actions"]]
            if goal(legal):
                return v
            r = httpx.post(
                f"{self.base}/api/games/{self.gid}/actions",
                json={
                    "token": self.token,
                    "state_id": v["state_id"],
                    "action": human_choice(legal),
                },
            )
            assert r.status_code == 200, r.text
        raise AssertionError("goal not reached")


def first_roll_square(
    game: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> int:
    """The square the human's first roll of the game of ``seed`` ends on (made with
    ``options``, by default :data:`FIRST`)."""
    s = new_game(game, players, seed, FIRST if options is None else options)
    s.apply(Action.parse("roll"))
    square: int = s.view(HUMAN)["players"][HUMAN]["position"]
    return square
