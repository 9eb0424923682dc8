"""Rule option names and their documentation come from the one model (issue 19): every option
of ``RulesModel`` has a description, and docs/EDITIONS.md's table is what the model and the
shipped editions generate (``tools/rule_options_doc.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from meeple.games.monopoly.edition import RulesModel, builtin_edition, builtin_edition_ids
from meeple.games.monopoly.edition_text import rule_options_markdown
from meeple.games.monopoly.tables import Rules

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rule_options_doc", ROOT / "tools/rule_options_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_rule_option_is_described() -> None:
    for name, field in RulesModel.model_fields.items():
        assert field.description and field.description.endswith((".", ")")), name


def test_the_documented_table_is_the_generated_one() -> None:
    doc = (ROOT / "docs/EDITIONS.md").read_text(encoding="utf-8")
    assert _tool().updated(doc) == doc, "run: .venv/bin/python tools/rule_options_doc.py"


def test_the_play_loops_rules_are_the_generated_fields() -> None:
    """``Rules`` (tables.py) lists every option of the model, as the tool writes it, and a
    model of any edition converts to it field for field."""
    tool = _tool()
    tables = (ROOT / "src/meeple/games/monopoly/tables.py").read_text(encoding="utf-8")
    assert tool.updated_tables(tables) == tables, "run: .venv/bin/python tools/rule_options_doc.py"
    assert tool.native_type(list[int]) == "tuple[int, ...]"
    assert tool.native_type(int | None) == "int | None"
    model = RulesModel(jail_fine=70, railroad_rents=[1, 2, 3, 4], jail_style="time_out")
    rules = Rules.from_model(model)
    for name in RulesModel.model_fields:
        want = getattr(model, name)
        assert getattr(rules, name) == (tuple(want) if isinstance(want, list) else want), name


def test_the_table_lists_what_each_edition_sets() -> None:
    table = rule_options_markdown([builtin_edition(e) for e in builtin_edition_ids()])
    rows = {line.split(" | ")[0].strip("| `"): line for line in table.splitlines()[2:]}
    assert set(rows) == set(RulesModel.model_fields)
    assert "friends: true" in rows["set_rent_needs_all_unmortgaged"]
    assert 'friends: `"fresh"`' in rows["utility_rent_dice"]
    assert rows["die_sides"].endswith("| - |")
