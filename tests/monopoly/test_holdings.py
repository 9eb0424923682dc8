"""The board has a few writers (``rules/holdings.py``), and they keep what is derived from it.

docs/KERNEL.md, "The hot path": every kept answer (rents, where one may build, who may trade)
is keyed by the board stamp, so a write that forgot the stamp or the table of built groups
would leave a stale answer. Nothing else in the engine writes the board."""

from __future__ import annotations

import ast
from pathlib import Path

import meeple.games.monopoly as monopoly
from meeple.games.monopoly.audit import audit
from meeple.games.monopoly.rules import buildings, holdings
from tests.monopoly.helpers import game

BOARD = {"owner", "level", "mortgaged", "card_holder", "alive", "built"}
# The writers, and the state's own setting up (a new game, a restore, invalidate, a copy).
ALLOWED = {"rules/holdings.py", "state.py", "saved.py", "kept.py"}


def _board_writes(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            for e in ast.walk(t):
                if (
                    isinstance(e, ast.Subscript)
                    and isinstance(e.value, ast.Attribute)
                    and e.value.attr in BOARD
                ):
                    lines.append(e.lineno)
    return lines


def test_only_the_holdings_rules_write_the_board() -> None:
    root = Path(monopoly.__file__).parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in ALLOWED:
            continue
        lines = _board_writes(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[rel] = lines
    assert found == {}, f"the board written outside rules/holdings.py: {found}"


def test_the_check_finds_a_write_by_hand() -> None:
    assert _board_writes(ast.parse("s.level[3] = 2\ns.owner[1] += 0\nx[2] = 1")) == [1, 2]


def test_each_writer_takes_a_stamp_and_keeps_the_built_groups() -> None:
    s = game()
    brown = s.ed.group_of[1]
    stamp = s.board_stamp
    holdings.give_deeds(s, [1, 3], 0)
    assert s.owner[1] == s.owner[3] == 0 and s.board_stamp != stamp
    holdings.set_level(s, 1, 1)
    assert s.kept.built == buildings.find_built_groups(s) and s.kept.built[brown]
    holdings.set_level(s, 1, 0)
    assert s.kept.built == buildings.find_built_groups(s) and not s.kept.built[brown]
    holdings.set_level(s, 3, 2)
    holdings.clear_group(s, brown)
    assert s.level[3] == 0 and s.kept.built == buildings.find_built_groups(s)
    stamp = s.board_stamp
    holdings.set_mortgaged(s, 1, True)
    assert s.mortgaged[1] and s.board_stamp != stamp
    holdings.give_deeds(s, [1], -1, lift=True)
    assert s.owner[1] == -1 and not s.mortgaged[1]
    assert audit(s) == []  # every kept answer agrees with the board worked out afresh
    stamp = s.board_stamp
    holdings.give_card(s, 0, 2)
    assert s.card_holder[0] == 2 and s.board_stamp != stamp
    stamp = s.board_stamp
    holdings.leave_game(s, 3)
    assert not s.alive[3] and s.board_stamp != stamp


def test_the_kept_builders_follow_the_writers_and_the_audit_checks_them_on_the_board() -> None:
    """``Kept.builder`` (who may build on each group, read by the spots, a build's legality and
    a shortage) follows deeds and mortgages, and the audit finds a wrong one from the board,
    not from the tables that read it."""
    s = game()
    brown = s.ed.group_of[1]
    holdings.give_deeds(s, [1, 3], 2)
    assert s.kept.builder[brown] == 2 and s.kept.builders == 1 << 2
    holdings.set_mortgaged(s, 3, True)
    assert s.kept.builder[brown] == -1 and s.kept.builders == 0
    holdings.set_mortgaged(s, 3, False)
    assert s.kept.builder[brown] == 2 and audit(s) == []
    s.kept.builder[brown] = 1  # a wrong table, as a writer that forgot it would leave
    assert any(line.startswith("kept builders") for line in audit(s))
