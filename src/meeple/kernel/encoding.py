"""What a game family gives the RL environments: a fixed action encoding and an observer.

DESIGN.md, "Actions are small values ... a fixed integer encoding with a legal mask for RL"
(catanatron ``gym/envs/action_space.py``; PettingZoo ``classic/chess``), and "One view function
... for web clients, bots and RL alike". A family returns one :class:`ActionEncoding` and one
:class:`Observer` per game (``GameFamily.encoding`` and ``GameFamily.observer``); the
environments in :mod:`meeple.rl` use nothing else. docs/RL.md prints every family's tables.
Both are read-only once made: a family may hand the same two to every game of an edition
(Monopoly does: making the classic action table costs 200 µs, and a policy bot asks every game).
"""

from __future__ import annotations

from meeple.extras import need

need("rl", "the RL encodings and observations", ("numpy",))  # NumPy comes with meeple[rl]

# After the check: without numpy, the error names the extra to install.
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from meeple.kernel.protocol import Action, GameState  # noqa: E402

OBS_BOUND = 10.0
"""Every observed value is clipped to ``[-OBS_BOUND, OBS_BOUND]``."""

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def bounded(x: Vector) -> Vector:
    """``x`` with every value clipped to ``[-OBS_BOUND, OBS_BOUND]``, in place. (Two ufuncs,
    not ``np.clip``, whose Python wrapper costs an observation more than the clipping.)"""
    np.minimum(x, OBS_BOUND, out=x)
    np.maximum(x, -OBS_BOUND, out=x)
    return x


class ActionEncoding:
    """The fixed action table of one game: ``encode``/``decode`` and the legal ``mask``."""

    #: One label per index, in order (``"build 39"``, ``"bid +k"``), for docs and debugging.
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        """The number of indices: the ``Discrete`` action space's ``n``."""
        return len(self.labels)

    def encode(self, state: GameState, action: Action) -> int:
        """The index of ``action`` for the current decision; ``ValueError`` if it has none."""
        raise NotImplementedError

    def decode(self, state: GameState, index: int) -> Action:
        """The action that ``index`` stands for in the current decision (legal or not).

        ``ValueError`` if it stands for none (an index out of range, a seat not at the table).
        """
        raise NotImplementedError

    def mask(self, state: GameState) -> Mask:
        """1 at the index of every legal action of the current decision, else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        for a in state.legal_actions():
            i = self.try_encode(state, a)
            if i >= 0:
                out[i] = 1
        return out

    def check_index(self, index: int) -> None:
        """``ValueError`` unless ``index`` is one of the table's."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")

    def try_encode(self, state: GameState, action: Action) -> int:
        """:meth:`encode`, or -1 when the action has no index (a claim beyond the cap)."""
        try:
            return self.encode(state, action)
        except ValueError:
            return -1


class Observer:
    """Builds the observation vector of one game; :attr:`blocks` is its documented layout.

    A family may also group blocks into tables (:meth:`table`: one row per square, per player)
    for models that use the board's structure; :meth:`structured` cuts a vector into them, so
    the flat and the structured observation always hold the same numbers.
    """

    def __init__(self) -> None:
        #: ``(name, offset, length, meaning)`` of each block, in order.
        self.blocks: list[tuple[str, int, int, str]] = []
        self.off: dict[str, int] = {}
        self.size = 0
        #: ``name -> (rows, blocks, by_row)`` of each table, in order (:meth:`table`).
        self.tables: dict[str, tuple[int, tuple[str, ...], bool]] = {}

    def block(self, name: str, length: int, meaning: str) -> None:
        """Declare the next block of the vector."""
        self.off[name] = self.size
        self.blocks.append((name, self.size, length, meaning))
        self.size += length

    def layout(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the vector: name, offset, length, meaning."""
        return list(self.blocks)

    def table(self, name: str, rows: int, blocks: tuple[str, ...], by_row: bool = False) -> None:
        """Declare a table of the structured observation: ``rows`` rows built from ``blocks``.

        A block of length ``k * rows`` gives the table ``k`` columns. It is read column by
        column (``by_row=False``: ``rows`` values for the first column, then the next, as the
        per-square blocks are laid out) or row by row (``by_row=True``: ``k`` values for the
        first row, then the next, as the player rows are). Blocks in no table go to
        ``"globals"``.
        """
        for b in blocks:
            length = self._length(b)
            if length % rows:
                raise ValueError(f"block {b!r} ({length} values) is not {rows} rows")
        self.tables[name] = (rows, tuple(blocks), by_row)

    def _length(self, block: str) -> int:
        return next(length for name, _, length, _ in self.blocks if name == block)

    def table_columns(self, name: str) -> list[str]:
        """The column names of table ``name``: the block, or ``block[j]`` for a block of
        several columns."""
        rows, blocks, _ = self.tables[name]
        out: list[str] = []
        for b in blocks:
            k = self._length(b) // rows
            out += [b] if k == 1 else [f"{b}[{j}]" for j in range(k)]
        return out

    def global_blocks(self) -> list[str]:
        """The blocks in no table, in vector order: the ``"globals"`` vector of
        :meth:`structured`."""
        used = {b for _, blocks, _ in self.tables.values() for b in blocks}
        return [name for name, _, _, _ in self.blocks if name not in used]

    def structured_shapes(self) -> dict[str, tuple[int, ...]]:
        """The shape of each array :meth:`structured` returns."""
        out: dict[str, tuple[int, ...]] = {
            name: (rows, len(self.table_columns(name)))
            for name, (rows, _, _) in self.tables.items()
        }
        out["globals"] = (sum(self._length(b) for b in self.global_blocks()),)
        return out

    def structured(self, vec: Vector) -> dict[str, Vector]:
        """``vec`` cut into the declared tables (``rows x columns``) and ``"globals"``."""
        out: dict[str, Vector] = {}
        for name, (rows, blocks, by_row) in self.tables.items():
            parts = []
            for b in blocks:
                o, length = self.off[b], self._length(b)
                chunk = vec[o : o + length]
                k = length // rows
                parts.append(chunk.reshape(rows, k) if by_row else chunk.reshape(k, rows).T)
            out[name] = np.ascontiguousarray(np.concatenate(parts, axis=1), dtype=np.float32)
        glob = [vec[self.off[b] : self.off[b] + self._length(b)] for b in self.global_blocks()]
        out["globals"] = (
            np.concatenate(glob).astype(np.float32) if glob else np.zeros(0, np.float32)
        )
        return out

    def observe(self, state: GameState, seat: int) -> Vector:
        """The vector for ``seat`` (a fresh array)."""
        raise NotImplementedError
