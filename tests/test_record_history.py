"""``GameState.record_history`` (issue 18): a simulation that neither saves nor audits its games
keeps no list of their actions. Turning it off changes nothing but the history: the same game
is played, a state without one says so instead of giving a wrong one, its clones inherit the
setting, and a simulation that saves or audits its games keeps it on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple.sim.runner as runner
from meeple.bots.base import make_bot
from meeple.kernel.bot import Bot, play_out
from meeple.kernel.errors import HistoryOff
from meeple.kernel.family import GameFamily, new_game
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import load_data
from meeple.sim.runner import SimConfig


def _play(game: str, seed: int, history: bool, stop: int = 0) -> GameState:
    s = new_game(game, 4, seed, {})
    s.record_events = False
    s.record_history = history
    bots = [make_bot("standard", s.family, 100 + seat) for seat in range(4)]
    n = 0
    while not s.is_terminal() and (not stop or n < stop):
        s.apply(bots[s.current_player()].choose(s))
        n += 1
    return s


@pytest.mark.parametrize("game", ["classic", "friends", "monopolis"])
def test_a_game_without_history_is_the_same_game(game: str) -> None:
    on, off = _play(game, 7, True), _play(game, 7, False)
    assert on.result() == off.result()
    assert on.snapshot() == off.snapshot()
    assert len(on.history) > 100
    if game == "monopolis":  # (a family may keep its history anyway: Monopolis's saves hold it)
        assert off.history == on.history


@pytest.mark.parametrize("game", ["classic", "my-first-monopoly-2"])
def test_a_state_without_history_says_so_and_its_clones_too(game: str) -> None:
    s = _play(game, 3, False, stop=40)
    with pytest.raises(HistoryOff, match="keeps no history"):
        _ = s.history
    c = s.clone()
    assert not c.record_history
    with pytest.raises(HistoryOff):
        _ = c.history
    kept = _play(game, 3, True, stop=40)
    assert kept.clone().record_history and len(kept.clone().history) == 40


def test_a_simulation_keeps_the_history_only_of_games_it_saves_or_audits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real_out, real_audited = play_out, runner.play_audited

    def out(state: GameState, bots: list[Bot]) -> int:
        seen.append(state.record_history)
        return real_out(state, bots)

    def audited(state: GameState, bots: list[Bot], fam: GameFamily, index: int) -> int:
        seen.append(state.record_history)
        return real_audited(state, bots, fam, index)

    monkeypatch.setattr(runner, "play_out", out)
    monkeypatch.setattr(runner, "play_audited", audited)
    bots = ("random",) * 4
    runner.play_one(SimConfig("classic", 4, 1, 0, bots), 0)
    runner.play_one(SimConfig("classic", 4, 1, 0, bots, audit=True), 0)
    record = runner.play_one(SimConfig("classic", 4, 1, 0, bots, save_dir=str(tmp_path)), 0)
    assert seen == [False, True, True]
    saved = json.loads((tmp_path / "game-000000.json").read_text())
    assert len(saved["actions"]) == record.actions > 100
    # The saved actions are the whole game: replayed, they reach the end the record reports.
    replayed = _replayed(saved["actions"])
    result = replayed.result()
    assert result is not None
    assert (list(result.winners), result.turns) == (record.winners, record.turns)
    assert load_data(saved).snapshot() == replayed.snapshot()


def _replayed(actions: list[str]) -> GameState:
    """Game 0 of a run with seed 0, replayed from ``actions``."""
    s = new_game("classic", 4, derive_seed(0, 0), {})
    for a in actions:
        s.apply(Action.parse(a))
    return s
