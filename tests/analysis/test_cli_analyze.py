"""``meeple analyze landing``: the JSON, the tables, the picture, and bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli.main import app

runner = CliRunner()


def test_landing_json_to_stdout_has_the_fields() -> None:
    result = runner.invoke(app, ["analyze", "landing", "classic", "--jail", "long", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["edition"] == "classic" and data["jail"] == "long"
    squares = data["squares"]
    assert [s["index"] for s in squares] == list(range(40))
    assert squares[24]["name"] == "Illinois Avenue"
    total = sum(Fraction(s["probability"]) for s in squares) + Fraction(
        data["in_jail"]["probability"]
    )
    assert total == 1
    assert squares[30]["probability"] == "0/1"
    assert abs(squares[24]["share"] - float(Fraction(squares[24]["probability"]))) < 1e-15
    assert data["top"][0] == 24
    kinds = {r["kind"] for r in data["rent_per_roll"]}
    assert kinds == {"street", "railroad", "utility"}
    orange = next(r for r in data["rent_per_roll"] if r["group"] == "orange")
    assert [lv["level"] for lv in orange["levels"]] == ["set", "1", "2", "3", "4", "hotel"]
    assert all("/" in lv["exact"] and lv["value"] > 0 for lv in orange["levels"])


def test_landing_prints_tables_writes_json_and_png(tmp_path: Path) -> None:
    out, png = tmp_path / "landing.json", tmp_path / "board.png"
    result = runner.invoke(
        app,
        [
            "analyze",
            "landing",
            "my-first-monopoly-1",
            "--jail",
            "short",
            "--json",
            str(out),
            "--plot",
            str(png),
        ],
    )
    assert result.exit_code == 0, result.output
    words = " ".join(result.stdout.split())  # the tables wrap their titles in narrow terminals
    assert "Share of dice rolls" in words and "rent per opponent roll" in words
    assert json.loads(out.read_text())["edition"] == "my-first-monopoly-1"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_edition_is_refused() -> None:
    result = runner.invoke(app, ["analyze", "landing", "nope", "--jail", "long"])
    assert result.exit_code == 2
    assert "not a Monopoly edition" in result.output


def test_bad_jail_setting_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    result = runner.invoke(
        app, ["analyze", "landing", "classic", "--jail", "other", "--json", str(out)]
    )
    assert result.exit_code == 2
    assert "short or long" in result.output
    assert not out.exists()


def test_missing_jail_setting_is_refused() -> None:
    result = runner.invoke(app, ["analyze", "landing", "classic"])
    assert result.exit_code == 2


def test_plot_must_be_png(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["analyze", "landing", "classic", "--jail", "long", "--plot", str(tmp_path / "b.jpg")]
    )
    assert result.exit_code == 2
    assert "PNG" in result.output
