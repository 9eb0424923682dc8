"""Determinism: ``(edition, options, seed, actions)`` fixes the game, bit for bit.

DESIGN.md, "Chance lives in the state": the same seed and the same actions give the same log;
a game saved mid-way, loaded and continued is identical to one never saved; bots have their own
streams, so a bot's choices never change the dice.
"""

from __future__ import annotations

import json
from pathlib import Path

from meeple.bots.base import RandomBot
from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.kernel.protocol import Action
from meeple.kernel.saves import load_data, load_game, save_data, save_game
from tests.monopoly.helpers import first_seat


def play(seed: int, bot_seed: int, stop: int | None = None) -> tuple[MonopolyState, list[str]]:
    s = new_monopoly("classic", 4, seed, {"max_turns": 400})
    bots = [RandomBot(bot_seed + i) for i in range(4)]
    log: list[str] = []
    while not s.is_terminal() and (stop is None or len(s.history) < stop):
        for e in s.apply(bots[s.current_player()].choose(s)):
            log.append(s.describe(e))
    return s, log


def test_same_seed_same_log() -> None:
    a, log_a = play(11, 100)
    b, log_b = play(11, 100)
    assert log_a == log_b
    assert a.snapshot() == b.snapshot()
    assert len(log_a) > 100


def test_other_seed_other_game() -> None:
    _, log_a = play(11, 100)
    _, log_b = play(12, 100)
    assert log_a != log_b


def test_replaying_the_actions_gives_the_same_state() -> None:
    a, _ = play(5, 50)
    b = new_monopoly("classic", 4, 5, {"max_turns": 400})
    for action in a.history:
        b.apply(action)
    assert a.snapshot() == b.snapshot()


def test_save_mid_game_load_and_continue_identically(tmp_path: Path) -> None:
    full, _ = play(21, 7)
    cut = len(full.history) // 2
    half = new_monopoly("classic", 4, 21, {"max_turns": 400})
    for action in full.history[:cut]:
        half.apply(action)
    path = tmp_path / "game.json"
    save_game(half, path)
    loaded = load_game(path)
    assert loaded.snapshot() == half.snapshot()
    for action in full.history[cut:]:
        loaded.apply(action)
    assert loaded.snapshot() == full.snapshot()


def test_save_data_round_trips_through_json() -> None:
    s, _ = play(3, 3, stop=300)
    data = json.loads(json.dumps(save_data(s)))
    assert load_data(data).snapshot() == s.snapshot()


def test_decisions_do_not_consume_the_dice_stream() -> None:
    """Buying or auctioning draws nothing from the game's stream: the next roll is the same."""
    a = new_monopoly("classic", 2, 9, first_seat())
    b = new_monopoly("classic", 2, 9, first_seat())
    a.apply(Action("roll"))
    b.apply(Action("roll"))
    assert a.stack and a.legal_actions()[0] == Action("buy")  # seed 9 lands on a deed
    a.apply(Action("buy"))
    b.apply(Action("decline"))
    while b.stack:  # both players drop out of the auction
        b.apply(Action("pass"))
    assert a.rng.state == b.rng.state
    assert a.owner != b.owner


def test_bots_have_their_own_streams() -> None:
    """A bot's draws come from its own Rng: the game's stream is untouched by choosing."""
    s = new_monopoly("classic", 2, 9)
    before = s.rng.state
    RandomBot(1).choose(s)
    RandomBot(2).choose(s)
    assert s.rng.state == before


def test_clone_is_independent() -> None:
    s, _ = play(4, 4, stop=200)
    c = s.clone()
    snap = s.snapshot()
    bots = [RandomBot(99 + i) for i in range(4)]
    for _ in range(100):
        if c.is_terminal():
            break
        c.apply(bots[c.current_player()].choose(c))
    assert s.snapshot() == snap
