"""One row per game (``meeple simulate --out DIR``): CSV always, Parquet through pyarrow
(``meeple[lab]``; the core install writes the CSV alone).

Columns: game, seed, bots (one per seat, comma-separated), winners, turns, rounds (a turn of
every player still in: ``GameFamily.rounds_played``), end_reason, actions, then
``cash_<seat>`` and ``score_<seat>`` per seat (Monopoly: final cash and net worth; Monopolis:
money and points).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from meeple.extras import installed, need
from meeple.sim.runner import GameRecord


def rows(records: list[GameRecord], players: int) -> list[dict[str, Any]]:
    out = []
    for rec in records:
        row: dict[str, Any] = {
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
            row[f"cash_{p}"] = rec.cash[p] if p < len(rec.cash) else 0
            row[f"score_{p}"] = rec.scores[p] if p < len(rec.scores) else 0.0
        out.append(row)
    return out


PARQUET_MODULES = ("pyarrow",)
"""What ``games.parquet`` needs, of the ``lab`` extra (:mod:`meeple.extras`)."""


def write_records(
    folder: Path, records: list[GameRecord], players: int, parquet: bool | None = None
) -> list[Path]:
    """Write ``games.csv`` and, if ``parquet``, ``games.parquet`` into ``folder``; returns the
    paths written. ``parquet`` None: when pyarrow is installed (``meeple[lab]``); True without
    it raises :class:`meeple.extras.MissingExtra`."""
    if parquet is None:
        parquet = installed("lab", PARQUET_MODULES)
    elif parquet:
        need("lab", "games.parquet", PARQUET_MODULES)
    folder.mkdir(parents=True, exist_ok=True)
    data = rows(records, players)
    columns = list(data[0]) if data else ["game"]
    csv_path = folder / "games.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(data)
    if not parquet:
        return [csv_path]
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Seeds are unsigned 64-bit integers: give that column its type, infer the rest.
    table = pa.table(
        {c: pa.array([r[c] for r in data], pa.uint64() if c == "seed" else None) for c in columns}
    )
    parquet_path = folder / "games.parquet"
    pq.write_table(table, parquet_path)
    return [csv_path, parquet_path]
