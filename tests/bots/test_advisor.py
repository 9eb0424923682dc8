"""The advisor (issue 21, :mod:`meeple.bots.advisor`): each option with its chance of winning,
the best first on positions where one option is clearly best, never reading the real future,
and the same through ``meeple advise`` and the terminal's ``hint``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.bots.advisor import AdviceError, advise
from meeple.cli.main import app
from meeple.kernel.family import new_game
from meeple.kernel.position import from_position, redraw, save_position
from meeple.kernel.protocol import Action, GameState

PARK_PLACE, BOARDWALK = 37, 39
runner = CliRunner()


def _classic(position: dict[str, Any]) -> GameState:
    return from_position({"game": "classic", "players": 2, "seed": 1, "position": position})


def boardwalk_to_buy() -> GameState:
    """Player 1 owns Park Place, has $1,200 and rolls onto Boardwalk: buying it completes the
    dark blues with cash to spare; declining sends it to an auction Player 2 can win."""
    owner = [-1] * 40
    owner[PARK_PLACE] = 0
    for sq in (1, 3, 6, 8, 9):
        owner[sq] = 1
    s = _classic(
        {"cash": [1200, 1200], "pos": [34, 10], "turn": 0, "owner": owner, "dice_script": [[2, 3]]}
    )
    s.apply(Action("roll"))
    assert {str(a) for a in s.legal_actions()} >= {"buy", "decline"}
    return s


def boardwalk_for_nothing() -> GameState:
    """Player 2 owns Park Place and asks Player 1 for Boardwalk for nothing."""
    owner = [-1] * 40
    owner[PARK_PLACE], owner[BOARDWALK] = 1, 0
    s = _classic({"cash": [1500, 1500], "pos": [0, 0], "turn": 1, "owner": owner})
    for text in ("trade 0", f"trade_deed {BOARDWALK}", "propose"):
        s.apply(Action.parse(text))
    assert s.current_player() == 0 and Action("accept") in s.legal_actions()
    return s


def test_buying_the_last_street_of_a_set_comes_first() -> None:
    advice = advise(boardwalk_to_buy(), seconds=None, rollouts=200, seed=3)
    by_action = {str(o.action): o for o in advice.options}
    buy, decline = by_action["buy"], by_action["decline"]
    assert advice.best is buy
    assert buy.low > decline.high  # clearly better, not a tie broken by order
    assert not decline.close and decline.behind > 0.1 and buy.behind == 0.0
    assert buy.rollouts == decline.rollouts == 200
    assert advice.rollouts == 200 * len(advice.options)


def test_refusing_a_trade_that_completes_a_set_for_nothing_comes_first() -> None:
    advice = advise(boardwalk_for_nothing(), seconds=None, rollouts=200, seed=3)
    by_action = {str(o.action): o for o in advice.options}
    assert advice.best is by_action["reject"]
    assert by_action["reject"].low > by_action["accept"].high


def test_the_advice_never_reads_the_real_future() -> None:
    """Re-drawing the real game's deck order and dice changes nothing: the advisor re-samples
    what the seat cannot see from its own stream."""
    s = boardwalk_to_buy()
    other = s.clone()
    redraw(other, 12345)
    assert other.snapshot() != s.snapshot()  # the hidden future did change
    first = advise(s, seconds=None, rollouts=60, seed=7).as_dict()
    second = advise(other, seconds=None, rollouts=60, seed=7).as_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    # ... while the advisor's own seed does matter (the test above is not vacuous).
    third = advise(s, seconds=None, rollouts=60, seed=8).as_dict()
    third.pop("seconds")
    assert third != first


def test_plans_are_described_and_a_lone_move_is_still_estimated() -> None:
    s = boardwalk_to_buy()
    s.apply(Action("decline"))  # the auction: drop out, or bid up to a few limits
    advice = advise(s, seconds=None, rollouts=5, seed=1)
    texts = [o.text for o in advice.options]
    assert texts[0] == "Pass" or any(t.startswith("Bid up to $") for t in texts)
    assert sum(t.startswith("Bid up to $") for t in texts) >= 2
    forced = _classic({"cash": [100, 1500], "pos": [0, 0], "turn": 0, "owner": [-1] * 40})
    assert forced.legal_actions() == [Action("roll")]
    lone = advise(forced, seconds=None, rollouts=20, seed=1)
    assert len(lone.options) == 1 and lone.options[0].rollouts == 20
    assert lone.note == "There is only one move here."


def test_options_that_hardly_differ_are_called_so() -> None:
    """A $100 deed bought, or won at auction for about as much: the same futures end the same
    way, and the advice says it hardly matters."""
    s = new_game("classic", 2, 3, {"rules": {"start_player": "first_seat"}})
    s.apply(Action("roll"))  # (seed 3: Player 1 lands on Vermont Avenue)
    assert {str(a) for a in s.legal_actions()} >= {"buy", "decline"}
    advice = advise(s, seconds=None, rollouts=40, seed=1)
    assert all(o.close for o in advice.options)
    assert advice.note.startswith("The choices are within the noise")
    assert any("as good, within the noise" in line for line in advice.lines())


def test_only_the_seat_to_move_gets_advice() -> None:
    s = boardwalk_to_buy()
    with pytest.raises(AdviceError, match="not Player 2's decision"):
        advise(s, 1, rollouts=1)
    with pytest.raises(AdviceError, match="a time or a number of rollouts"):
        advise(s, seconds=None, rollouts=None)


def test_meeple_advise_prints_and_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "boardwalk.json"
    save_position(boardwalk_to_buy(), path)
    before = path.read_bytes()
    result = runner.invoke(app, ["advise", str(path), "--rollouts", "20", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seat"] == 0 and {o["action"] for o in data["options"]} >= {"buy", "decline"}
    assert sum(o["best"] for o in data["options"]) == 1
    text = runner.invoke(app, ["advise", str(path), "--rollouts", "20"])
    assert text.exit_code == 0 and "Player 1 to decide" in text.output
    assert "* Buy" in text.output or "* Auction it" in text.output
    assert path.read_bytes() == before  # the file is only read
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    result = runner.invoke(app, ["advise", str(bad)])
    assert result.exit_code == 2 and "error" in result.output
    result = runner.invoke(app, ["advise", str(path), "--rollouts", "0"])
    assert result.exit_code == 2


def test_monopolis_purchases_and_builds_are_advised() -> None:
    """Monopolis (issue 21: "Monopolis purchases and placements"): a decision with builds and
    purchases lists them as plans in words, each with its chance of winning (the real win
    share, not the search's score), and the advice does not read the hidden decks."""
    from meeple.bots.base import make_bot

    s = new_game("monopolis", 3, 4, {"rules": {"start_player": "first_seat"}})
    bots = [make_bot("standard", "monopolis", i) for i in range(3)]
    while not any(a.kind == "build_at" for a in s.legal_actions()):
        s.apply(bots[s.current_player()].choose(s))
    advice = advise(s, seconds=None, rollouts=20, seed=2)
    texts = [o.text for o in advice.options]
    assert any(t.startswith("build ") and "of the castle: pay " in t for t in texts)
    assert any(t.startswith("buy ") for t in texts)
    # Win shares of 20 playouts (a shared win 1/2 or 1/3), not the search's mixed score.
    assert all(abs(o.win * 120 - round(o.win * 120)) < 1e-6 for o in advice.options)
    other = s.clone()
    redraw(other, 99)
    first, second = advice.as_dict(), advise(other, seconds=None, rollouts=20, seed=2).as_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second
