"""One row per game (``meeple simulate --out DIR``): CSV always, Parquet through pyarrow
(``meeple[lab]``; the core install writes the CSV alone).

Columns: game, seed, bots (one per seat, comma-separated), winners, turns, rounds (a turn of
every player still in: ``GameFamily.rounds_played``), first (the seat that took the first
turn), end_reason, actions, then ``cash_<seat>`` and ``score_<seat>`` per seat (Monopoly: final
cash and net worth; Monopolis: money and points). Seats (``winners``, ``first``, the column
suffixes) are indices counted from 0: seat 0 is Player 1 (docs/SERVER.md, "API").
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from meeple.extras import installed, need
from meeple.sim.runner import GameRecord


def row(rec: GameRecord, players: int) -> dict[str, Any]:
    """Game ``rec`` as a row of the table."""
    out: dict[str, Any] = {
        "game": rec.index,
        "seed": rec.seed,
        "bots": ",".join(rec.bots),
        "winners": ",".join(str(w) for w in rec.winners),
        "turns": rec.turns,
        "rounds": rec.rounds,
        "first": rec.first,
        "end_reason": rec.end_reason,
        "actions": rec.actions,
    }
    for p in range(players):
        out[f"cash_{p}"] = rec.cash[p] if p < len(rec.cash) else 0
        out[f"score_{p}"] = rec.scores[p] if p < len(rec.scores) else 0.0
    return out


PARQUET_MODULES = ("pyarrow",)
"""What ``games.parquet`` needs, of the ``lab`` extra (:mod:`meeple.extras`)."""

BATCH = 20_000
"""Rows held (as columns: 5.5 MB of four-player rows, by ``tracemalloc``) before they are
written to ``games.parquet`` as a row group."""


class RecordWriter:
    """``games.csv`` and, if ``parquet``, ``games.parquet`` in ``folder``, written a game at a
    time (:meth:`add`), so a run of millions of games never holds its rows: the CSV row by row,
    the Parquet file a row group of :data:`BATCH` rows at a time. Both are written to
    ``.partial`` files beside them and renamed into place by :meth:`close`; :meth:`discard`
    (a failed or interrupted run) removes them and leaves the folder as it was.

    ``parquet`` None: when pyarrow is installed (``meeple[lab]``); True without it raises
    :class:`meeple.extras.MissingExtra`."""

    def __init__(self, folder: Path, players: int, parquet: bool | None = None) -> None:
        if parquet is None:
            parquet = installed("lab", PARQUET_MODULES)
        elif parquet:
            need("lab", "games.parquet", PARQUET_MODULES)
        # The folders this run makes (the deepest first), which discard() removes again.
        self.made = [p for p in (folder, *folder.parents) if not p.exists()]
        folder.mkdir(parents=True, exist_ok=True)
        self.players = players
        self.paths = [folder / "games.csv", *([folder / "games.parquet"] if parquet else [])]
        self.partial = [p.with_name(p.name + ".partial") for p in self.paths]
        self._csv = self.partial[0].open("w", newline="", encoding="utf-8")
        self._rows: csv.DictWriter[str] | None = None  # made with the first row's columns
        self._batch: dict[str, list[Any]] = {}  # column -> the values held for Parquet
        self._held = 0
        self._parquet: Any = None  # pyarrow.parquet.ParquetWriter, made with the first batch
        self._schema: Any = None

    def add(self, rec: GameRecord) -> None:
        """Write game ``rec``'s row."""
        data = row(rec, self.players)
        if self._rows is None:
            self._rows = csv.DictWriter(self._csv, fieldnames=list(data))
            self._rows.writeheader()
        self._rows.writerow(data)
        if len(self.paths) > 1:
            for column, value in data.items():
                self._batch.setdefault(column, []).append(value)
            self._held += 1
            if self._held >= BATCH:
                self._flush()

    def _flush(self) -> None:
        """Write the rows held as a row group of ``games.parquet``."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        values = self._batch or {"game": []}
        if self._parquet is None:
            # Seeds are unsigned 64-bit integers: give that column its type, infer the rest
            # from the first rows, and hold every later row group to the same types.
            table = pa.table(
                {c: pa.array(v, pa.uint64() if c == "seed" else None) for c, v in values.items()}
            )
            self._schema = table.schema
            self._parquet = pq.ParquetWriter(self.partial[1], self._schema)
        else:
            table = pa.Table.from_pydict(values, schema=self._schema)
        self._parquet.write_table(table)
        self._batch = {}
        self._held = 0

    def close(self) -> list[Path]:
        """Finish both files and put them in place; returns their paths."""
        if self._rows is None:  # no game: the header of a table without rows
            csv.writer(self._csv).writerow(["game"])
        self._csv.close()
        if len(self.paths) > 1:
            if self._held or self._parquet is None:
                self._flush()
            self._parquet.close()
        for partial, path in zip(self.partial, self.paths, strict=True):
            partial.replace(path)
        return self.paths

    def discard(self) -> None:
        """Stop without writing: remove the partial files and any folder the run made (the
        place as it was)."""
        self._csv.close()
        if self._parquet is not None:
            self._parquet.close()
        for partial in self.partial:
            partial.unlink(missing_ok=True)
        for folder in self.made:
            try:
                folder.rmdir()
            except OSError:  # something else was put there meanwhile: it stays
                break


def write_records(
    folder: Path, records: Iterable[GameRecord], players: int, parquet: bool | None = None
) -> list[Path]:
    """Write ``games.csv`` and, if ``parquet``, ``games.parquet`` into ``folder``
    (:class:`RecordWriter`); returns the paths written."""
    writer = RecordWriter(folder, players, parquet)
    try:
        for rec in records:
            writer.add(rec)
    except BaseException:
        writer.discard()
        raise
    return writer.close()
