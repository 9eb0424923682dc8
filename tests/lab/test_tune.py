"""``meeple tune``: a short CMA-ES search writes a ``param:FILE`` the bot reads, the standard
settings are the first candidate, the same seed gives the same search, and the final check
says whether the interval supports an improvement."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.bots.base import make_bot
from meeple.cli.main import app
from meeple.games.monopoly.bots import Params
from meeple.lab.tune import SPACE, TuneConfig, from_params, to_params, tune

runner = CliRunner()


def test_the_standard_settings_lie_inside_the_box_and_come_back_unchanged() -> None:
    x = from_params(Params())
    assert len(x) == len(SPACE) and all(0.0 <= v <= 1.0 for v in x)
    assert to_params(x) == asdict(Params())
    corner = to_params([0.0] * len(SPACE))
    assert corner["build_first_to"] == 1 and isinstance(corner["build_first_to"], int)
    assert corner["stall_rounds"] == Params().stall_rounds  # not searched


def test_a_short_search_is_reproducible_and_checked_on_fresh_tables() -> None:
    cfg = TuneConfig("classic", 2, 4, 2, 3, check_tables=3)
    seen: list[int] = []
    result = tune(cfg, lambda t: seen.append(t.number))
    assert seen == [0, 1, 2, 3]
    assert result.trials[0].params == asdict(Params())  # the mark to beat, on the same tables
    assert result.best in [t.params for t in result.trials]
    best_rate = max(t.win_rate for t in result.trials)
    assert result.best == next(t.params for t in result.trials if t.win_rate == best_rate)
    check = result.check
    assert check["games"] == 6 and check["seed"] != cfg.seed
    assert check["difference"] == pytest.approx(
        check["tuned_win_rate"] - check["standard_win_rate"], abs=1e-5
    )
    assert check["supported"] == (check["low"] is not None and check["low"] > 0)
    again = tune(cfg)
    assert [t.params for t in again.trials] == [t.params for t in result.trials]
    assert again.check == check


def test_the_command_writes_a_file_the_param_bot_reads(tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    r = runner.invoke(
        app,
        [
            *("tune", "classic", "--trials", "3", "--tables", "2", "--check-tables", "2"),
            *("--out", str(out), "--json", "-"),
        ],
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)
    assert json.loads(out.read_text()) == summary["best"]
    assert len(summary["history"]) == 3 and set(summary["check"]) >= {"low", "high", "supported"}
    make_bot(f"param:{out}", "monopoly", 0)  # a valid param:FILE


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["monopolis"], "monopolis has no param bot to tune"),
        (["classic", "--trials", "0"], "--trials must be at least 1, not 0"),
        (["classic", "--against", "wizard"], "unknown bot 'wizard'"),
        (["classic", "--against", ",".join(["standard"] * 8)], "not 9"),
    ],
)
def test_bad_input_exits_2(args: list[str], words: str) -> None:
    r = runner.invoke(app, ["tune", *args])
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_without_the_lab_extra_tune_says_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cmaes", None)
    r = runner.invoke(app, ["tune", "classic", "--trials", "1"])
    assert r.exit_code == 1
    assert "meeple tune needs meeple[lab] (cmaes not installed)" in r.output
