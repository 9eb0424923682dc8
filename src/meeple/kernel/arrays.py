"""Arrays of machine integers for a state's hottest tables (issue 18).

The compiled build (mypyc) reads an item of a ``list[int]`` through a call, a type check and
the unboxing of a Python int: about 30 instructions. An item of mypyc's ``vec[i64]``
(``librt.vecs``, mypyc's own runtime library) is a bounds check and a load. The pure-Python
build is the other way round: CPython's interpreter reads a list item on a fast path of its own
and a ``vec`` item through a generic call. So a table made here is a ``vec[i64]`` when this
module runs compiled, and a plain ``list`` when it runs as Python (every engine module runs
one way or the other together: :mod:`meeple.stale`); the code that reads it is the same.

Only tables whose items are bounded by the board belong here (seats, squares, building levels,
counts): an amount of money can grow past 64 bits in a long game, and stays a Python int.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

NATIVE: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (its ``__file__`` is then the extension's)."""


def int_array(values: list[int]) -> vec[i64]:
    """A new array holding ``values``: a ``vec[i64]`` compiled, the list itself in Python."""
    if NATIVE:
        # (appended an item at a time: mypyc appends natively, while the constructor iterates
        # the list through Python's generic protocol: about 1,500 instructions for a
        # 10-item array, counted with callgrind)
        out = vec[i64](capacity=len(values))
        for x in values:
            out = append(out, x)
        return out
    return values  # type: ignore[return-value]  # (the pure build's array: see above)


def copy_array(a: vec[i64]) -> vec[i64]:
    """A new array holding what ``a`` holds."""
    return a[:]  # (a slice: a new array, without iterating it item by item)
