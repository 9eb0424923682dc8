"""The arena (``meeple tournament``): balanced tables, every seating on the same dice, the
same results on any number of workers, ratings in the known order, clear errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.bots.base import make_bot
from meeple.cli.main import app
from meeple.kernel.family import new_game
from meeple.lab.arena import (
    ArenaConfig,
    ArenaGame,
    entrant_ranks,
    places_of,
    plan,
    rate,
    seatings_of,
    table_entrants,
    tournament,
)

runner = CliRunner()


def _dice(seed: int, kind: str) -> tuple[list[int], list[list[int]]]:
    """A classic game's rolled dice, in order, and its decks' order at the start."""
    s = new_game("classic", 2, seed, {"max_turns": 300})
    decks = [list(d) for d in s.decks]  # type: ignore[attr-defined]
    s.record_events = True
    rolls: list[int] = []
    bots = [make_bot(kind, "monopoly", 11), make_bot(kind, "monopoly", 12)]
    while not s.is_terminal():
        for e in s.apply(bots[s.current_player()].choose(s)):
            if e.kind == "roll":
                rolls.extend(e.data["dice"])
    return rolls, decks


def test_the_same_game_seed_deals_the_same_dice_and_decks_whatever_the_bots() -> None:
    # Common random numbers: the dice and the decks come from the game's own stream, which no
    # bot reads, so games that differ only in their bots see one sequence of dice (the
    # shorter game a prefix of the longer) and the same deck orders.
    for seed in (1, 2, 3):
        a, decks_a = _dice(seed, "random")
        b, decks_b = _dice(seed, "standard")
        n = min(len(a), len(b))
        assert n > 20 and a[:n] == b[:n]
        assert decks_a == decks_b
    assert _dice(1, "random")[0][:20] != _dice(2, "random")[0][:20]


def test_tables_draw_the_entrants_evenly_and_every_seating_shares_the_table_seed() -> None:
    cfg = ArenaConfig("classic", 3, 10, 7, ("random", "standard", "mcts:2", "random", "standard"))
    tables = table_entrants(cfg)
    sat = Counter(i for t in tables for i in t)
    assert sorted(sat.values()) == [6, 6, 6, 6, 6]  # 10 tables x 3 seats over 5 entrants
    games = plan(cfg)
    assert len(games) == 10 * 6  # 3! seatings a table
    for t in range(10):
        mine = [g for g in games if g.table == t]
        assert len({g.seats for g in mine}) == 6
        assert {tuple(sorted(g.seats)) for g in mine} == {tables[t]}
        assert len({g.game_seed for g in mine}) == 1  # the same dice for every seating
        assert len({g.bot_seeds for g in mine}) == 1
    assert len({g.game_seed for g in games}) == 10
    independent = plan(ArenaConfig("classic", 3, 10, 7, cfg.entrants, crn=False))
    assert len({g.game_seed for g in independent}) == 60
    assert [g.seats for g in independent] == [g.seats for g in games]
    assert plan(cfg) == games  # drawn from the seed alone


def test_fewer_entrants_than_seats_repeat_them_evenly() -> None:
    cfg = ArenaConfig("classic", 4, 3, 0, ("random", "standard"))
    assert table_entrants(cfg) == [(0, 0, 1, 1)] * 3
    assert len(plan(cfg)) == 3 * 6  # the distinct orders of two pairs
    three = ArenaConfig("classic", 4, 6, 0, ("a", "b", "c"))
    sat = Counter(i for t in table_entrants(three) for i in t)
    assert sorted(sat.values()) == [8, 8, 8]
    assert seatings_of((0, 1, 2, 3, 4), "rotations") == [
        (0, 1, 2, 3, 4),
        (1, 2, 3, 4, 0),
        (2, 3, 4, 0, 1),
        (3, 4, 0, 1, 2),
        (4, 0, 1, 2, 3),
    ]
    assert ArenaConfig("classic", 5, 1, 0, ("a", "b")).seating_mode() == "rotations"
    assert ArenaConfig("classic", 4, 1, 0, ("a", "b")).seating_mode() == "all"


def test_entrants_may_be_named() -> None:
    cfg = ArenaConfig(
        "classic",
        2,
        1,
        0,
        ("bold=param:x.json", "standard", "standard", "cmd:python3 bot.py --x=1", "a b=random"),
    )
    assert cfg.names == [
        "bold",
        "standard",
        "standard#2",
        "cmd:python3 bot.py --x=1",
        "a b=random",
    ]
    assert cfg.kinds[:2] == ["param:x.json", "standard"]
    assert cfg.kinds[3:] == ["cmd:python3 bot.py --x=1", "a b=random"]


def test_places_share_first_only_between_the_winners() -> None:
    assert places_of([2], [2, 0, 3, 1], 4) == [2, 4, 1, 3]
    assert places_of([0, 3], [0, 3, 1, 2], 4) == [1, 3, 4, 1]
    # an entrant holding two seats is placed by its better one
    g = ArenaGame(0, 0, 0, [1, 0, 1, 0], [4, 2, 1, 3], [2], [], "x", 1, 1)
    assert entrant_ranks(g, 2) == ([0, 1], [2, 1])


def test_identical_entrants_on_common_dice_split_every_table_evenly() -> None:
    # The same bot twice: swapping the seats swaps the whole game, so each wins exactly half
    # of every table (independent dice would scatter the shares).
    cfg = ArenaConfig("classic", 2, 6, 3, ("standard", "standard"))
    board = tournament(cfg)[2]
    for s in board:
        assert s.win_rate == 0.5
        assert (s.table_low, s.table_high) == (0.5, 0.5)
    _, _, loose = tournament(ArenaConfig("classic", 2, 6, 3, cfg.entrants, crn=False))
    assert loose[0].table_high - loose[0].table_low > 0.1


def test_a_field_of_known_order_comes_out_in_that_order_with_separate_intervals() -> None:
    cfg = ArenaConfig("classic", 3, 8, 5, ("standard", "random", "random"))
    summary, games, board = tournament(cfg)
    assert board[0].name == "standard"
    top, rest = board[0], board[1:]
    for s in rest:
        assert top.low > s.high  # mu - 2 sigma above the other's mu + 2 sigma
        assert top.win_low > s.win_high
        assert top.mean_place < s.mean_place
    assert summary["games"] == len(games) == 8 * 6
    assert summary["leaderboard"][0]["name"] == "standard"


def test_three_levels_come_out_in_order() -> None:
    # random < timid (a standard bot that bids 0.6 times a deed's value, builds one house at a
    # time and keeps $400) < standard: the ratings in that order, the win rates' intervals
    # apart. (The rating intervals of timid and standard still touch at this size: docs/ARENA.md.)
    timid = Path(__file__).resolve().parents[2] / "examples" / "arena" / "timid.json"
    cfg = ArenaConfig("classic", 3, 50, 5, ("random", f"timid=param:{timid}", "standard"))
    board = tournament(cfg)[2]
    assert [s.name for s in board] == ["standard", "timid", "random"]
    assert board[0].mu > board[1].mu > board[2].mu
    assert board[0].win_low > board[1].win_high > board[1].win_low > board[2].win_high
    assert board[1].low > board[2].high
    assert board[0].mean_place < board[1].mean_place < board[2].mean_place


def test_the_rating_follows_the_results_whatever_the_order_of_the_games() -> None:
    # In plan order alone (table by table) this field rated timid, which won 40%, above
    # standard, which won 60%: the ratings are the mean over many orders.
    timid = Path(__file__).resolve().parents[2] / "examples" / "arena" / "timid.json"
    cfg = ArenaConfig("classic", 3, 20, 3, ("random", "standard", f"timid=param:{timid}"))
    summary, _, board = tournament(cfg)
    assert [s.name for s in board] == ["standard", "timid", "random"]
    assert board[0].win_rate > board[1].win_rate and board[0].mu > board[1].mu
    assert summary["rating"]["orders"] == 20
    # head to head: the leader's win rate less each other's, over the tables both sat at
    heads = {(p["a"], p["b"]): p for p in summary["pairs"]}
    assert set(heads) == {("standard", "timid"), ("standard", "random"), ("timid", "random")}
    p = heads[("standard", "timid")]
    assert p["tables"] == 20
    # (the summary rounds to six places: arena._round)
    assert p["difference"] == pytest.approx(board[0].win_rate - board[1].win_rate, abs=1e-6)
    assert p["low"] < p["difference"] < p["high"]


def _without_timing(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k != "timing"}


def test_the_same_seed_gives_the_same_tournament_on_one_and_two_workers() -> None:
    cfg = ArenaConfig("classic", 3, 3, 11, ("random", "standard", "bold=param:" + _params()))
    one = tournament(cfg, workers=1)
    two = tournament(cfg, workers=2)
    assert one[1] == two[1]
    assert {s.name: s.kind for s in one[2]}["bold"] == "param:" + _params()
    assert _without_timing(one[0]) == _without_timing(two[0])


def _params() -> str:
    path = Path(__file__).parent / "bold.json"
    return str(path)


def test_rate_handles_a_game_with_one_entrant_only() -> None:
    cfg = ArenaConfig("classic", 2, 1, 0, ("standard", "random"))
    g = ArenaGame(0, 0, 0, [0, 0], [1, 2], [0], [1.0, 0.0], "x", 1, 1)
    board = rate(cfg, [g])
    assert {s.name: s.seats for s in board} == {"standard": 2, "random": 0}


# -- the command -------------------------------------------------------------------------------


def test_the_command_writes_the_leaderboard_json_csv_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    r = runner.invoke(
        app,
        [
            *("tournament", "classic", "--bots", "random,standard", "--tables", "3"),
            *("--seed", "2", "--json", "-", "--out", str(out)),
        ],
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)
    assert summary["games"] == 6 and summary["players"] == 2 and summary["crn"] is True
    assert [s["name"] for s in summary["leaderboard"]] == ["standard", "random"]
    lines = (out / "leaderboard.csv").read_text().splitlines()
    assert lines[0].startswith("rank,name,kind,mu,sigma,low,high")
    assert lines[1].startswith("1,standard,standard,")
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 6
    assert (out / "leaderboard.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shown = runner.invoke(app, ["tournament", "classic", "--tables", "1"])
    assert shown.exit_code == 0 and "Leaderboard" in shown.output and "standard" in shown.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "random,wizard"], "unknown bot 'wizard' for classic"),
        (["--bots", "random,mcts:lots"], "mcts"),
        (["--bots", "random"], "at least two entrants"),
        (["--tables", "0"], "--tables must be at least 1, not 0"),
        (["--tables", "many"], "'many' is not a valid int"),
        (["--players", "9"], "classic is for 2 to 8 players, not 9"),
        (["--seatings", "some"], "--seatings must be one of auto, all, rotations"),
        (["--bots", "random,cmd:no-such-program-here"], "cannot find the program"),
        (["--bots", "random,cmd:"], "names no program"),
        (["--time-limit", "0"], "--time-limit must be a positive number"),
        (["--workers", "0"], "--workers must be a number of at least 1"),
        (["--backend", "mpi"], "--backend must be 'processes' or 'ray'"),
    ],
)
def test_bad_input_says_what_is_wrong_and_exits_2(args: list[str], words: str) -> None:
    r = runner.invoke(app, ["tournament", "classic", *args])
    assert r.exit_code == 2, r.output
    assert words in r.output
    assert "Traceback" not in r.output


def test_an_unknown_game_exits_2() -> None:
    r = runner.invoke(app, ["tournament", "chess"])
    assert r.exit_code == 2 and "chess" in r.output


def test_without_the_lab_extra_the_command_says_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "openskill", None)  # as if not installed
    r = runner.invoke(app, ["tournament", "classic", "--tables", "1"])
    assert r.exit_code == 1
    assert (
        "meeple tournament needs meeple[lab] (openskill not installed): pip install 'meeple[lab]'"
        in r.output
    )
