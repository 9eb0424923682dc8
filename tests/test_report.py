"""``meeple report``: what a game is like, from games between standard bots (issue 20)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.lab.report import Settings, Table, build, markdown

runner = CliRunner()


def tables_of(section_text: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip("|").split("|")]
        for line in section_text.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


def test_the_report_is_written_as_markdown_and_html_with_its_plots(tmp_path: Path) -> None:
    r = runner.invoke(
        app, ["report", "classic", "--games", "4", "--players", "2,3", "--out", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    md = (tmp_path / "classic.md").read_text(encoding="utf-8")
    page = (tmp_path / "classic.html").read_text(encoding="utf-8")
    for title in ("Game length", "Going first", "The board", "Decisions", "Rule options"):
        assert f"## {title}" in md and f"<h2>{title}</h2>" in page
    # The plots: files beside the Markdown, inside the HTML (nothing loaded from elsewhere).
    for name in re.findall(r"!\[[^]]*\]\(([^)]+)\)", md):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
    assert page.count("data:image/png;base64,") == md.count("![")
    assert "http://" not in page and "https://" not in page
    assert "meeple report classic --games 4 --seed 0 --players 2,3" in md


def test_the_figures_add_up() -> None:
    rep = build("classic", Settings(games=6, players=(2, 4)), "test")
    tables = {s.title: [b for b in s.blocks if isinstance(b, Table)] for s in rep.sections}
    length = tables["Game length"][0]
    assert [row[:2] for row in length.rows] == [["2", "6"], ["4", "6"]]
    for row in tables["Going first"][0].rows:
        n = int(row[0])
        shares = [float(c.split("%")[0]) for c in row[2 : 2 + n]]
        assert abs(sum(shares) - 100) < 0.5  # every game's win, shared by place in turn order
    rules = tables["Rule options"][0]
    assert rules.rows[0][0] == "the edition's rules"
    names = {row[0].split(" = ")[0] for row in rules.rows[1:]}
    assert {"free_parking_money", "start_player", "auctions"} <= names
    decided = {row[0] for row in tables["Decisions"][0].rows}
    assert {"roll", "buy"} <= decided
    assert "Orange" in markdown(rep)  # the board section names the colour sets


def test_monopolis_has_its_own_report_without_a_board(tmp_path: Path) -> None:
    r = runner.invoke(
        app, ["report", "monopolis", "--games", "3", "--players", "2", "--out", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    md = (tmp_path / "monopolis.md").read_text(encoding="utf-8")
    assert "## The board" not in md and "start_player = 'first_seat'" in md
    assert "last_house" in md


def test_bad_input_is_refused_before_anything_runs(tmp_path: Path) -> None:
    for args, words in (
        (["nope"], "unknown game"),
        (["classic", "--players", "9"], "2 to 8 players, not 9"),
        (["classic", "--players", "two"], "--players takes numbers"),
    ):
        r = runner.invoke(app, ["report", *args, "--out", str(tmp_path)])
        assert r.exit_code == 2 and words in r.output, r.output
    assert not list(tmp_path.iterdir())
