"""Write what follows from ``RulesModel``, the one declaration of the Monopoly rule options:
the rule options table of docs/EDITIONS.md (with the shipped editions' values:
``meeple.games.monopoly.edition_text.rule_options_markdown``) and the fields of ``Rules`` in
``games/monopoly/tables.py``, the native class the play loop reads them from.

    .venv/bin/python tools/rule_options_doc.py          # rewrite both
    .venv/bin/python tools/rule_options_doc.py --check  # exit 1 if either is out of date

So a new rule option is declared in the model (with its description), read by its rule and
tested; this command writes the rest. tests/monopoly/test_rule_options_doc.py fails when the
table or the fields disagree with the model.
"""

from __future__ import annotations

import sys
import types
import typing
from pathlib import Path

from meeple.games.monopoly.edition import RulesModel, builtin_edition, builtin_edition_ids
from meeple.games.monopoly.edition_text import (
    RULE_OPTIONS_END,
    RULE_OPTIONS_START,
    rule_options_markdown,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "EDITIONS.md"
TABLES = ROOT / "src" / "meeple" / "games" / "monopoly" / "tables.py"
FIELDS_START = (
    "    # -- the rule options: written by tools/rule_options_doc.py from RulesModel --\n"
)
FIELDS_END = "    # -- end of the rule options --\n"


def native_type(annotation: object) -> str:
    """The type ``Rules`` gives a model field: a choice of words is a ``str``, a list a tuple
    (the class is frozen), and ``X | None`` stays so."""
    if annotation in (int, bool, str):
        return annotation.__name__  # type: ignore[union-attr]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal and all(isinstance(a, str) for a in args):
        return "str"
    if origin is list and len(args) == 1:
        return f"tuple[{native_type(args[0])}, ...]"
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return f"{native_type(inner)} | None"
    raise ValueError(f"no native type for the rule option type {annotation!r}")


def rules_fields() -> str:
    """The field lines of ``Rules``, one per option of the model, in the model's order."""
    lines = [
        f"    {name}: {native_type(field.annotation)}\n"
        for name, field in RulesModel.model_fields.items()
    ]
    return "".join(lines)


def updated_tables(text: str) -> str:
    """``text`` (tables.py) with the ``Rules`` fields written afresh from the model."""
    head, _, rest = text.partition(FIELDS_START)
    _, _, tail = rest.partition(FIELDS_END)
    return head + FIELDS_START + rules_fields() + FIELDS_END + tail


def updated(text: str) -> str:
    """``text`` (the document) with the table between the markers generated afresh."""
    head, _, rest = text.partition(RULE_OPTIONS_START + "\n")
    _, _, tail = rest.partition(RULE_OPTIONS_END)
    table = rule_options_markdown([builtin_edition(e) for e in builtin_edition_ids()])
    return head + RULE_OPTIONS_START + "\n" + table + RULE_OPTIONS_END + tail


def main() -> int:
    text, tables = DOC.read_text(encoding="utf-8"), TABLES.read_text(encoding="utf-8")
    if RULE_OPTIONS_START not in text or RULE_OPTIONS_END not in text:
        print(f"{DOC}: the rule options markers are missing", file=sys.stderr)
        return 1
    if FIELDS_START not in tables or FIELDS_END not in tables:
        print(f"{TABLES}: the rule options markers are missing", file=sys.stderr)
        return 1
    new, new_tables = updated(text), updated_tables(tables)
    if "--check" in sys.argv[1:]:
        stale = [str(p) for p, a, b in ((DOC, new, text), (TABLES, new_tables, tables)) if a != b]
        for path in stale:
            print(f"{path}: the rule options are out of date", file=sys.stderr)
        return 1 if stale else 0
    DOC.write_text(new, encoding="utf-8")
    TABLES.write_text(new_tables, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
