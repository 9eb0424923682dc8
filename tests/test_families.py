"""Game families are plugins (issue 19): the import rules hold, every family is complete, and a
toy family added at run time (``examples/toy_family.py``, the one docs/KERNEL.md shows) plays
through the drivers without any of them changing."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from meeple.bots import bot_kinds, make_bot
from meeple.cli.play import parse_choice, table_text
from meeple.kernel.errors import SaveFileError
from meeple.kernel.family import (
    GameFamily,
    families,
    family,
    family_of,
    game_ids,
    game_info,
    new_game,
    register_family,
    unregister_family,
)
from meeple.kernel.protocol import Action
from meeple.kernel.saves import load_data, save_data
from meeple.sim.runner import SimConfig, simulate

ROOT = Path(__file__).resolve().parents[1]


def test_import_rules_hold() -> None:
    """kernel <- games <- bots <- drivers <- cli; drivers never import a game family; families
    do not import each other (the contracts in pyproject.toml, checked by import-linter)."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_the_families_and_their_game_ids() -> None:
    names = [f.name for f in families()]
    assert names == ["monopoly", "monopolis"]
    for fam in families():
        ids = [g.game_id for g in fam.games()]
        assert ids and all(game_info(g).family == fam.name for g in ids)
        assert "random" in bot_kinds(fam.name) and "standard" in bot_kinds(fam.name)
    assert sorted(game_ids()) == sorted(g.game_id for f in families() for g in f.games())
    # Both families have search support, so both have the search bot; a family without it
    # (``GameFamily.search`` is None by default) has none.
    assert "mcts" in bot_kinds("monopoly") and "mcts" in bot_kinds("monopolis")
    from meeple.bots.base import _kinds
    from meeple.games.monopolis.family import MonopolisFamily

    class Unsearched(MonopolisFamily):
        search = None  # type: ignore[assignment]

    assert "mcts" not in _kinds(Unsearched()) and "standard" in _kinds(Unsearched())


def test_an_edition_given_as_data_is_claimed_by_its_family() -> None:
    from meeple.games.monopoly.edition import builtin_edition

    data = builtin_edition("classic").model.model_dump(mode="json", exclude_none=True)
    assert family_of("anything", {"edition": data}).name == "monopoly"
    assert new_game("anything", 2, 1, {"edition": data}).family == "monopoly"


def test_an_unknown_family_is_named() -> None:
    with pytest.raises(KeyError, match="unknown game family 'chess'; known: monopoly, monopolis"):
        family("chess")
    with pytest.raises(ValueError, match="unknown bot 'grandmaster' for monopoly"):
        make_bot("grandmaster", "monopoly", 0)


# -- a toy family --------------------------------------------------------------------------------


def _load_toy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("toy_family", ROOT / "examples/toy_family.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["toy_family"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def toy() -> Iterator[ModuleType]:
    module = _load_toy()
    fam = module.NimFamily()
    assert isinstance(fam, GameFamily)
    register_family(fam)
    try:
        yield module
    finally:
        unregister_family("nim")
        sys.modules.pop("toy_family", None)
    assert "nim" not in game_ids()


def test_a_toy_family_plays_through_every_driver(toy: ModuleType, tmp_path: Path) -> None:
    assert "nim" in game_ids() and game_info("nim").title == "Nim"
    # Bots: the drivers' own kinds, no search and no policy (the family gives no search and no
    # action encoding).
    assert bot_kinds("nim") == ["random"]
    # The simulator, with saves.
    cfg = SimConfig("nim", 3, 20, 5, ("random",) * 3, save_dir=str(tmp_path))
    summary, records = simulate(cfg)
    assert summary["games"] == 20 and len(records) == 20
    assert all(r.end_reason == "last_counter" and len(r.winners) == 1 for r in records)
    assert sum(summary["results"]["wins_by_seat"]) == pytest.approx(20)
    assert summary["results"]["mean_scores_by_seat"] == [0.0, 0.0, 0.0]  # Nim has no scores
    # Rounds by the kernel's default: three players, none out, so 3 turns a round, the last
    # one counted even if the game ends in it.
    assert all(3 * (r.rounds - 1) < r.turns <= 3 * r.rounds for r in records)
    assert summary["results"]["mean_rounds"] == pytest.approx(sum(r.rounds for r in records) / 20)
    # A save file round trip, and a tampered one refused with the field named.
    saved = json.loads((tmp_path / "game-000003.json").read_text())
    back = load_data(saved)
    assert (
        back.game_id == "nim"
        and back.is_terminal()
        and back.history == [Action.parse(a) for a in saved["actions"]]
    )
    saved["state"]["pile"] = 99
    with pytest.raises(SaveFileError, match="state"):
        load_data(saved)
    # The terminal: the table and the panel from the family, typed choices parsed.
    s = new_game("nim", 2, 7)
    text = table_text(s, 0)
    assert text.startswith("Pile: ") and "Player 1 to take 1, 2 or 3." in text
    assert parse_choice(s, "take 2")[0] == Action("take", (2,))
    action, reason = parse_choice(s, "take 4")
    assert action is None and "take 1, 2 or 3" in reason
    assert save_data(s)["game"] == "nim"


def test_a_family_without_a_printed_description_says_so(toy: ModuleType) -> None:
    """``meeple editions show`` / ``export`` ask the family (``GameFamily.describe``,
    ``export``); Nim has neither."""
    from typer.testing import CliRunner

    from meeple.cli.main import app

    shown = CliRunner().invoke(app, ["editions", "show", "nim"])
    assert shown.exit_code == 2 and "nim (nim) has no printed description" in shown.output
    exported = CliRunner().invoke(app, ["editions", "export", "nim"])
    assert exported.exit_code == 2 and "nim (nim) cannot be exported as a file" in exported.output


def test_a_family_without_an_rl_encoding_says_so(toy: ModuleType) -> None:
    from meeple.rl.encoding import encoding_for

    with pytest.raises(ValueError, match="no action encoding for game family 'nim'"):
        encoding_for(new_game("nim", 2, 1))
