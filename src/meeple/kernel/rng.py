"""The seeded random stream that lives inside a game state.

SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit integer of state, so a save file holds
the whole stream exactly, a clone copies it for free, and the sequence is the same on every
Python version and platform (``random.Random`` promises neither). Integers in a range are drawn
by rejection, so dice are exactly uniform.
"""

from __future__ import annotations

from typing import Final, TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


# Compiled with the engine (tools/compile.py); tests script dice with an interpreted subclass.
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """A SplitMix64 stream. ``Rng(seed)`` for any integer seed; ``state`` is the whole state."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit unsigned integer of the stream."""
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, exactly uniform (rejection of the 2**64 remainder)."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            z = self.next64()
            if z < limit:
                return z % n

    def die(self, sides: int = 6) -> int:
        """One roll of a fair die with ``sides`` faces: 1..sides."""
        return self.below(sides) + 1

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice_index(self, n: int) -> int:
        """Index of a uniform choice among ``n`` items."""
        return self.below(n)

    def spawn(self, salt: int) -> Rng:
        """An independent stream derived from this one's seed state and ``salt`` (bot streams)."""
        child = Rng(self.state ^ ((salt * _GOLDEN) & _MASK))
        child.next64()
        return child


def derive_seed(seed: int, *salts: int) -> int:
    """A 64-bit seed derived from ``seed`` and ``salts``: game ``i`` of a run, seat ``j``'s bot."""
    r = Rng(seed)
    out = r.next64()
    for s in salts:
        r = Rng(out ^ ((s * _GOLDEN) & _MASK))
        out = r.next64()
    return out
