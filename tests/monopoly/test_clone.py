"""A copy of a Monopoly state made in a used state's storage (``MonopolyState.copy_into``, the
server's spare position) is, attribute for attribute, the clone ``clone`` makes: every field
``__init__`` declares is copied or reset, so a field added later and forgotten fails here."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import meeple.games.monopoly as monopoly
from meeple.bots.base import make_bot
from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.games.monopoly.kept import Kept
from meeple.kernel.rng import Rng, derive_seed


def fields(module: str = "state", name: str = "MonopolyState") -> list[str]:
    """The attributes class ``name`` of ``games/monopoly/<module>.py`` sets in ``__init__``
    (read from the source file: the compiled build has no ``__dict__`` to list them)."""
    source = Path(monopoly.__file__).parent / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    names: list[str] = []
    for node in ast.walk(init):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for t in node.targets:
                targets += t.elts if isinstance(t, ast.Tuple) else [t]
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)):
                continue
            if t.value.id == "self" and t.attr not in names:
                names.append(t.attr)
    return names


def comparable(value: Any) -> Any:
    if isinstance(value, Kept):
        return {name: comparable(getattr(value, name)) for name in fields("kept", "Kept")}
    if isinstance(value, Rng):
        return value.state
    if isinstance(value, list):
        return [comparable(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


def played(seed: int, actions: int) -> MonopolyState:
    s = new_monopoly("classic", 4, seed)
    bots = [make_bot("standard", "monopoly", derive_seed(seed, 1 + p)) for p in range(4)]
    while len(s.history) < actions and not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    return s


def test_copy_into_sets_every_field_a_clone_has() -> None:
    names = fields()
    assert {"cash", "stack", "changes", "kept"} <= set(names)
    assert {"cap_holder", "builds", "rents"} <= set(fields("kept", "Kept"))
    state = played(3, 300)
    spare = played(4, 900)  # its caches and change log are of another game's board
    spare.legal_actions()
    clone = state.clone()
    old_log = spare.changes_id
    copy = state.copy_into(spare)
    assert copy is spare  # the spare's storage was used
    for name in names:
        if name != "changes_id":
            assert comparable(getattr(copy, name)) == comparable(getattr(clone, name)), name
    # A new log of changes, as a clone's: a reader of the spare's old log reads all again.
    assert len({copy.changes_id, old_log, clone.changes_id, state.changes_id}) == 4


def test_copy_into_shares_no_list_with_its_source() -> None:
    state = played(5, 400)
    copy = state.copy_into(played(6, 100))
    shared = [
        name
        for name in fields()
        if isinstance(getattr(state, name), list) and getattr(copy, name) is getattr(state, name)
    ]
    assert shared == ["_history"]  # shared until one appends (MonopolyState._record)
    assert copy.kept is not state.kept
    for name in fields("kept", "Kept"):
        mine = getattr(copy.kept, name)
        assert not isinstance(mine, list) or mine is not getattr(state.kept, name), name


def test_copy_into_a_state_of_another_edition_makes_a_clone() -> None:
    state = played(7, 50)
    other = new_monopoly("frozen-ii", 4, 1)
    copy = state.copy_into(other)
    assert copy is not other and copy.snapshot() == state.snapshot()


def test_bots_play_the_same_on_copies_into_two_states_as_on_clones() -> None:
    """The server's way (each action applied to a copy made in the position it replaced two
    actions ago) and the simulator's (one state, moving on) give the same game: a bot that
    remembers how far it read a state's log of changes is not fooled by a state reused."""
    seed = 12
    alone = new_monopoly("classic", 4, seed)
    live = new_monopoly("classic", 4, seed)
    spare: MonopolyState | None = None
    bots_alone = [make_bot("standard", "monopoly", derive_seed(seed, 1 + p)) for p in range(4)]
    bots_live = [make_bot("standard", "monopoly", derive_seed(seed, 1 + p)) for p in range(4)]
    while len(alone.history) < 1500 and not alone.is_terminal():
        action = bots_alone[alone.current_player()].choose(alone)
        assert bots_live[live.current_player()].choose(live) == action, len(alone.history)
        alone.apply(action)
        work = live.clone() if spare is None else live.copy_into(spare)
        assert isinstance(work, MonopolyState)
        work.apply(action)
        spare, live = live, work
    assert live.snapshot() == alone.snapshot()
