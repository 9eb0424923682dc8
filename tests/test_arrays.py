"""The state's native arrays (``meeple/kernel/arrays.py``, issue 18): a ``vec[i64]`` when the
engine runs compiled, a list in the pure build, the same values and the same games either way
(``tests/test_compiled.py`` plays both builds)."""

from __future__ import annotations

import json

from librt.vecs import vec
from mypy_extensions import i64

from meeple.buildinfo import compiled_modules
from meeple.kernel import arrays
from meeple.kernel.family import new_game


def test_an_array_is_native_exactly_when_the_engine_runs_compiled() -> None:
    a = arrays.int_array([3, -1, 5])
    assert bool(compiled_modules()) == arrays.NATIVE
    assert isinstance(a, vec[i64] if arrays.NATIVE else list)
    assert list(a) == [3, -1, 5] and len(a) == 3 and a[1] == -1
    a[1] = 7
    assert list(a) == [3, 7, 5]


def test_a_copy_is_an_array_of_its_own() -> None:
    a = arrays.int_array([1, 2])
    b = arrays.copy_array(a)
    b[0] = 9
    assert list(a) == [1, 2] and list(b) == [9, 2]
    assert type(b) is type(a)


def test_a_clone_owns_its_board_arrays_and_a_save_holds_lists() -> None:
    s = new_game("classic", 4, 1, {})
    c = s.clone()
    c.owner[1], c.level[1], c.pos[0], c.offers[0], c.landings[3] = 2, 1, 5, 1, 4
    assert (s.owner[1], s.level[1], s.pos[0], s.offers[0], s.landings[3]) == (-1, 0, 0, 0, 0)
    snap = json.loads(json.dumps(c.snapshot()))  # (a save file is JSON: lists, not arrays)
    assert snap["owner"][1] == 2 and snap["level"][1] == 1 and snap["pos"][0] == 5
    assert snap["landings"][3] == 4
    r = new_game("classic", 4, 1, {})
    r.restore(snap)
    assert type(r.owner) is type(s.owner) and list(r.owner) == list(c.owner)
    assert type(r.landings) is type(s.owner) and list(r.landings) == list(c.landings)
