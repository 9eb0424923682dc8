"""The seeded random stream that lives inside a game state.

SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit integer of state, so a save file holds
the whole stream exactly, a clone copies it for free, and the sequence is the same on every
Python version and platform (``random.Random`` promises neither). Integers in a range are drawn
by rejection, so dice are exactly uniform.

The arithmetic is done on ``i64``, the signed 64-bit integer of ``mypy_extensions``: compiled
(``tools/compile.py``) it is a machine word whose sums and products wrap modulo 2**64, so a
draw costs a few dozen instructions instead of the dozen bignum operations an unbounded
``int`` needs. Interpreted, ``i64`` is plain ``int``, and ``Rng._step`` does the wrapping the
machine word does by itself; both builds give the same stream, bit for bit (tests/test_rng.py).
"""

from __future__ import annotations

from typing import Final, TypeVar

from mypy_extensions import i64, mypyc_attr

from meeple.kernel.arrays import NATIVE  # (whether the engine's modules run compiled)

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_TWO63: Final = 1 << 63
_TWO64: Final = 1 << 64
_SHORT_MAX: Final = (1 << 62) - 1  # the largest int the compiled build keeps unboxed
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB


def _word(hi: i64, lo: i64) -> i64:
    """The 64-bit word with 32-bit halves ``hi`` and ``lo``. The wide constants below are made
    with it at import: mypyc keeps a literal wider than 62 bits as a Python int and converts it
    on every use, but a ``Final[i64]`` computed at import is a machine word."""
    return hi * (1 << 32) + lo


# The constants as signed 64-bit values (the unsigned value minus 2**64).
_GOLDEN_S: Final[i64] = -_word(0x61C88646, 0x80B583EB)  # 0x9E3779B97F4A7C15
_MUL1_S: Final[i64] = -_word(0x40A7B892, 0xE31B1A47)  # 0xBF58476D1CE4E5B9
_MUL2_S: Final[i64] = -_word(0x6B2FB644, 0xECCEEE15)  # 0x94D049BB133111EB
_LOW63: Final[i64] = _word(0x7FFFFFFF, 0xFFFFFFFF)  # 2**63 - 1
_MIN64: Final[i64] = -_LOW63 - 1  # -2**63
# Masks that turn an arithmetic right shift by 30, 27 and 31 into a logical one.
_SHR30: Final[i64] = (1 << 34) - 1
_SHR27: Final[i64] = (1 << 37) - 1
_SHR31: Final[i64] = (1 << 33) - 1


# Compiled with the engine (tools/compile.py); tests script dice with an interpreted subclass.
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """A SplitMix64 stream. ``Rng(seed)`` for any integer seed; ``state`` is the whole state."""

    __slots__ = ("_s",)

    def __init__(self, seed: int = 0) -> None:
        self._s: i64 = 0
        self.state = seed

    @property
    def state(self) -> int:
        """The whole state, as the unsigned 64-bit integer save files hold."""
        s = int(self._s)
        return s if s >= 0 else s + (1 << 64)

    @state.setter
    def state(self, value: int) -> None:
        v = value & _MASK
        self._s = i64(v - (1 << 64) if v >> 63 else v)

    def _step(self) -> i64:
        """Advance the stream; the next output as a signed 64-bit value."""
        # After each sum and product, ``(x & _LOW63) + ((x >> 63) & 1) * _MIN64``: ``x``
        # modulo 2**64 as a signed value (its low 63 bits, less 2**63 if bit 63 is set).
        # Compiled, ``x`` is that already and this changes nothing; interpreted, it wraps.
        # (Written out, not a function: compiled, a call for each cost a third of a draw.)
        s = self._s + _GOLDEN_S
        self._s = s = (s & _LOW63) + ((s >> 63) & 1) * _MIN64
        z = (s ^ ((s >> 30) & _SHR30)) * _MUL1_S
        z = (z & _LOW63) + ((z >> 63) & 1) * _MIN64
        z = (z ^ ((z >> 27) & _SHR27)) * _MUL2_S
        z = (z & _LOW63) + ((z >> 63) & 1) * _MIN64
        return z ^ ((z >> 31) & _SHR31)

    def next64(self) -> int:
        """The next 64-bit unsigned integer of the stream."""
        z = int(self._step())
        return z if z >= 0 else z + (1 << 64)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``0 < n < 2**63``, exactly uniform: an output
        ``u`` among the top ``2**64 % n`` values is drawn again, and ``u % n`` is the answer."""
        # Compared as ints (i64(n) would overflow first); against 2**63 only past 2**62, since
        # comparing with a number that wide costs the compiled build a call (every die roll).
        if n <= 0 or (n > _SHORT_MAX and n >= _TWO63):
            raise ValueError("below(n) needs 0 < n < 2**63")
        if not NATIVE:
            return self._below_unsigned(n)
        m: i64 = n  # (an int converted by the compiled build, as i64(n); a call interpreted)
        while True:
            z = self._step()
            if z >= 0:  # u = z < 2**63, never among the top few
                return int(z % m)
            # (Worked out only for the half of the outputs at or above 2**63.)
            low = _LOW63 % m  # (2**63 - 1) % n: 2**63 % n and 2**64 % n without leaving 64 bits
            top = (2 * low + 2) % m  # 2**64 % n: how many of the largest outputs are drawn again
            if z < -top:  # u = z + 2**64 = (z & _LOW63) + 2**63, below the top
                return int(((z & _LOW63) % m + low + 1) % m)

    def _below_unsigned(self, n: int) -> int:
        """:meth:`below` for the interpreted build: the same draws, worked out on unsigned ints
        as the published algorithm reads (tests/test_rng.py checks both against it). Python
        wraps nothing by itself, and a ``& _MASK`` after each product costs half the
        operations that wrapping to a signed word does in :meth:`_step`; the step is written
        out here, not called, as the compiled build's is inlined. (A draw costs half as
        long.)"""
        limit = _TWO64 - _TWO64 % n  # outputs at or above it are drawn again
        while True:
            s: int = self._s  # (a signed word: & _MASK makes it unsigned)
            s = (s + _GOLDEN) & _MASK
            self._s = s - _TWO64 if s >> 63 else s
            z = ((s ^ (s >> 30)) * _MUL1) & _MASK
            z = ((z ^ (z >> 27)) * _MUL2) & _MASK
            z ^= z >> 31
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
    """A 64-bit seed derived from ``seed`` and ``salts``: game ``i`` of a run, seat ``j``'s bot.

    By definition the first output of ``Rng(seed)``, then, for each salt ``s``, the first output
    of ``Rng(out ^ ((s * _GOLDEN) & _MASK))``. Worked out on one stream's word instead (a
    simulation derives five seeds a game): the next state is the last output, as a signed word,
    XOR the salt's word, so one stream is made, not one per salt, and no output is widened past
    64 bits but the last. ``tests/test_rng.py`` checks it against the definition."""
    r = Rng(seed)
    z = r._step()
    for s in salts:
        r._s = z ^ _salt_word(s)
        z = r._step()
    return int(z) if z >= 0 else int(z) + (1 << 64)


def _salt_word(salt: int) -> i64:
    """``(salt * _GOLDEN) & _MASK`` as a signed 64-bit word: a salt within 62 bits (every salt of
    a run: a game's index, a seat) multiplied as a machine word, a wider one as an int."""
    if -_SHORT_MAX <= salt <= _SHORT_MAX:
        m: i64 = salt
        p = m * _GOLDEN_S
        # ``p`` modulo 2**64 as a signed value: compiled, it is already (see Rng._step).
        return (p & _LOW63) + ((p >> 63) & 1) * _MIN64
    v = (salt * _GOLDEN) & _MASK
    return i64(v - (1 << 64) if v >> 63 else v)
