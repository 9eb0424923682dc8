"""``meeple simulate --out``'s rows, written a game at a time (``sim/records.py``): the same
files as the whole list written at once, in row groups of ``BATCH`` rows, and nothing left
in the folder when a run stops part way."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from meeple.sim import records
from meeple.sim.records import RecordWriter, row, write_records
from meeple.sim.runner import GameRecord, SimConfig, run

pq = pytest.importorskip("pyarrow.parquet")


def games(n: int = 23) -> list[GameRecord]:
    return list(run(SimConfig("classic", 3, n, 4, ("random", "standard", "random")), 1))


def test_rows_written_a_batch_at_a_time_are_the_rows_of_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = games()
    monkeypatch.setattr(records, "BATCH", 5)  # five row groups and a part
    paths = write_records(tmp_path, played, 3, parquet=True)
    assert [p.name for p in paths] == ["games.csv", "games.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "games.parquet"]
    expected = [row(rec, 3) for rec in played]
    with (tmp_path / "games.csv").open(newline="", encoding="utf-8") as f:
        got = list(csv.DictReader(f))
    assert [r["seed"] for r in got] == [str(r["seed"]) for r in expected]
    assert list(got[0]) == list(expected[0])
    table = pq.read_table(tmp_path / "games.parquet")
    assert pq.ParquetFile(tmp_path / "games.parquet").num_row_groups == 5
    assert table.to_pylist() == expected
    assert str(table.schema.field("seed").type) == "uint64"


def test_a_run_stopped_part_way_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "games.csv").write_text("an earlier run's table\n", encoding="utf-8")
    writer = RecordWriter(tmp_path, 3, parquet=True)
    for rec in games(4):
        writer.add(rec)
    assert (tmp_path / "games.csv.partial").exists()
    writer.discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]
    assert (tmp_path / "games.csv").read_text(encoding="utf-8") == "an earlier run's table\n"


def test_no_games_write_a_header_alone(tmp_path: Path) -> None:
    write_records(tmp_path, [], 3, parquet=True)
    assert (tmp_path / "games.csv").read_text(encoding="utf-8").strip() == "game"
    assert pq.read_table(tmp_path / "games.parquet").num_rows == 0
