"""Write the rule options table of docs/EDITIONS.md from ``RulesModel`` and the shipped
editions (``meeple.games.monopoly.edition_text.rule_options_markdown``).

    .venv/bin/python tools/rule_options_doc.py          # rewrite the table
    .venv/bin/python tools/rule_options_doc.py --check  # exit 1 if it is out of date

tests/monopoly/test_edition.py fails when the table and the model disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.edition_text import (
    RULE_OPTIONS_END,
    RULE_OPTIONS_START,
    rule_options_markdown,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "EDITIONS.md"


def updated(text: str) -> str:
    """``text`` (the document) with the table between the markers generated afresh."""
    head, _, rest = text.partition(RULE_OPTIONS_START + "\n")
    _, _, tail = rest.partition(RULE_OPTIONS_END)
    table = rule_options_markdown([builtin_edition(e) for e in builtin_edition_ids()])
    return head + RULE_OPTIONS_START + "\n" + table + RULE_OPTIONS_END + tail


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    if RULE_OPTIONS_START not in text or RULE_OPTIONS_END not in text:
        print(f"{DOC}: the rule options markers are missing", file=sys.stderr)
        return 1
    new = updated(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(f"{DOC}: the rule options table is out of date", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
