"""The ``meeple`` command: listing games, simulating, replaying, and rejecting bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.kernel.family import new_game

runner = CliRunner()


def sim_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", "classic", "--json", "-", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_editions_lists_classic() -> None:
    result = runner.invoke(app, ["editions"])
    assert result.exit_code == 0
    assert "classic" in result.stdout


def test_simulate_json_has_the_summary_fields() -> None:
    data = sim_json("--games", "6", "--seed", "4", "--players", "3", "--max-turns", "300")
    assert data["edition"] == "classic" and data["players"] == 3 and data["games"] == 6
    assert data["seed"] == 4 and data["bots"] == ["random"] * 3
    res = data["results"]
    assert sum(res["wins_by_seat"]) == pytest.approx(6)
    assert res["capped"] == res["end_reasons"].get("turn_cap", 0)
    assert res["mean_turns"] > 0 and res["median_turns"] > 0
    # Rounds (docs/KERNEL.md, "Rounds"): at most one turn per player still in, per round.
    assert res["mean_turns"] / 3 <= res["mean_rounds"] <= res["mean_turns"]
    assert res["median_rounds"] > 0 and res["p95_rounds"] >= res["median_rounds"]
    assert set(data["timing"]) == {"seconds", "games_per_s", "turns_per_s", "build"}
    from meeple.buildinfo import build_name

    assert data["timing"]["build"] == build_name() in ("mypyc", "python")


def test_simulate_caps_turns_by_default_and_zero_means_no_cap() -> None:
    """docs/RULES.md, "Turn cap": without --max-turns a simulation caps each game at
    DEFAULT_MAX_TURNS player-turns (some games between bots never end); 0 lifts the cap."""
    from meeple.sim.runner import DEFAULT_MAX_TURNS

    assert sim_json("--games", "1")["max_turns"] == DEFAULT_MAX_TURNS
    assert sim_json("--games", "1", "--max-turns", "0")["max_turns"] == 0
    data = sim_json("--games", "2", "--max-turns", "5")
    assert data["results"]["end_reasons"] == {"turn_cap": 2}


def test_simulate_monopolis_honours_the_turn_cap() -> None:
    """Monopolis takes the same cap (its own ends come first: docs/MONOPOLIS.md, D12)."""
    result = runner.invoke(
        app,
        [
            "simulate",
            "monopolis",
            "--players",
            "3",
            "--games",
            "2",
            "--max-turns",
            "4",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    res = json.loads(result.stdout)["results"]
    assert res["end_reasons"] == {"turn_cap": 2} and res["mean_turns"] == 4
    assert res["mean_rounds"] == 2  # the first round's 3 turns, and 1 of the second


def test_simulate_counts_monopolis_rounds_as_turns_over_players() -> None:
    """Monopolis's last round "is still played to its end, so that every player ... has taken
    the same number of turns" (monopolis-rules.txt, "End of the Game"): rounds x players =
    player-turns in every game that ends by the rules."""
    args = "simulate monopolis --players 3 --games 2 --bots standard --json -"
    result = runner.invoke(app, args.split())
    assert result.exit_code == 0, result.output
    res = json.loads(result.stdout)["results"]
    assert res["end_reasons"] == {"last_house": 2}
    assert res["mean_rounds"] * 3 == res["mean_turns"] > 0


def test_simulate_is_identical_outside_timing_whatever_the_workers() -> None:
    one = sim_json("--games", "8", "--seed", "9", "--max-turns", "200")
    again = sim_json("--games", "8", "--seed", "9", "--max-turns", "200")
    two = sim_json("--games", "8", "--seed", "9", "--max-turns", "200", "--workers", "2")
    for d in (one, again, two):
        d.pop("timing")
    assert one == again == two


def test_simulate_writes_json_file_and_prints_tables(tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    result = runner.invoke(
        app, ["simulate", "classic", "--games", "3", "--max-turns", "100", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Wins by seat" in result.stdout and "End reasons" in result.stdout
    assert json.loads(out.read_text())["games"] == 3


def test_replay_prints_a_saved_game_in_words(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "classic",
            "--games",
            "1",
            "--players",
            "2",
            "--max-turns",
            "40",
            "--save-dir",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    saved = tmp_path / "game-000000.json"
    result = runner.invoke(app, ["replay", str(saved)])
    assert result.exit_code == 0, result.output
    assert "Player 1 rolls" in result.stdout
    assert "Winner:" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "narnia"], "unknown game or edition 'narnia'"),
        (["simulate", "classic", "--bots", "genius"], "unknown bot 'genius'"),
        (
            ["simulate", "classic", "--bots", "random,random"],
            "lists 2 bots for 4 players: one kind for every seat, or one per seat, comma-separated",
        ),
        (["simulate", "classic", "--players", "9"], "2 to 8 players"),
        (["simulate", "classic", "--workers", "zero"], "--workers"),
        (["simulate", "classic", "--games", "0"], "--games"),
        (["simulate", "classic", "--games", "many"], "--games"),
        (["simulate", "classic", "--frobnicate"], "No such option"),
        (["replay", "/nonexistent/save.json"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_replay_rejects_a_malformed_save(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "format": "meeple-save",
                "version": 1,
                "game": "classic",
                "players": 2,
                "seed": 1,
                "options": {},
                "actions": ["fly"],
            }
        )
    )
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "actions[0]" in result.output


def test_editions_show_prints_board_rules_decks_and_assumed() -> None:
    result = runner.invoke(app, ["editions", "show", "classic"])
    assert result.exit_code == 0, result.output
    for text in ("Rule options", "Boardwalk", "Deck: Chance", "Assumed values", "auction_min_bid"):
        assert text in result.stdout


def test_export_edit_and_play_an_edition_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["editions", "export", "classic"])
    assert result.exit_code == 0
    text = result.stdout.replace("starting_cash = 1500", "starting_cash = 2500")
    assert "starting_cash = 2500" in text
    path = tmp_path / "rich-classic.toml"
    path.write_text(text)
    saves = tmp_path / "saves"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--edition-file",
            str(path),
            "--games",
            "1",
            "--max-turns",
            "5",
            "--save-dir",
            str(saves),
        ],
    )
    assert result.exit_code == 0, result.output
    from meeple.kernel.family import new_game
    from meeple.kernel.saves import load_game

    game = load_game(saves / "game-000000.json")  # the save carries the edition itself
    assert game.options["edition"]["rules"]["starting_cash"] == 2500
    fresh = new_game(game.game_id, 4, 1, game.options)
    assert [p["cash"] for p in fresh.view(None)["players"]] == [2500] * 4


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("price = 60", "price = -60", 1), "squares[1].price"),
        (lambda t: t.replace('kind = "jail"', 'kind = "prison"'), "squares[10].kind"),
        (lambda t: t + "\nnonsense = [", "(syntax)"),
    ],
)
def test_malformed_edition_file_is_refused(tmp_path: Path, edit: Any, message: str) -> None:
    text = runner.invoke(app, ["editions", "export", "classic"]).stdout
    path = tmp_path / "bad.toml"
    path.write_text(edit(text))
    before = path.read_text()
    result = runner.invoke(app, ["simulate", "--edition-file", str(path), "--games", "1"])
    assert result.exit_code == 2
    assert message in result.output and str(path) in result.output
    assert path.read_text() == before


def test_simulate_out_writes_one_row_per_game(tmp_path: Path) -> None:
    import csv

    import pyarrow.parquet as pq

    out = tmp_path / "rows"
    data = sim_json("--games", "4", "--seed", "2", "--max-turns", "150", "--out", str(out))
    with (out / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and [int(r["game"]) for r in rows] == [0, 1, 2, 3]
    assert {"seed", "bots", "winners", "turns", "rounds", "end_reason", "cash_0", "score_3"} <= set(
        rows[0]
    )
    assert sum(int(r["turns"]) for r in rows) == pytest.approx(data["results"]["mean_turns"] * 4)
    assert sum(int(r["rounds"]) for r in rows) == pytest.approx(data["results"]["mean_rounds"] * 4)
    assert all(int(r["turns"]) / 4 <= int(r["rounds"]) <= int(r["turns"]) for r in rows)
    # The seat that took the first turn (the roll-off's winner), as the game itself says.
    for r in rows:
        s = new_game("classic", 4, int(r["seed"]), {"max_turns": 150})
        assert int(r["first"]) == s.current_player()
    table = pq.read_table(out / "games.parquet")
    assert table.num_rows == 4 and table.column("seed").to_pylist() == [
        int(r["seed"]) for r in rows
    ]


def test_simulate_reports_landing_shares() -> None:
    data = sim_json("--games", "3", "--seed", "1", "--max-turns", "100")
    landing = data["landing"]
    assert len(landing["squares"]) == 40 and landing["squares"][39]["name"] == "Boardwalk"
    total = sum(sq["share"] for sq in landing["squares"]) + landing["in_jail"]
    assert total == pytest.approx(1.0, abs=1e-4)
    assert landing["squares"][30]["share"] == 0.0  # Go To Jail: the roll ends in jail


def test_simulate_audit_changes_nothing_and_stops_at_a_broken_invariant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--audit`` (a debug switch) checks the family's invariants after every action: the
    games are the same with it, and a broken invariant stops the run naming the game, the
    action and what broke (issue 19)."""
    args = ("--games", "6", "--bots", "standard", "--seed", "4")
    plain = sim_json(*args)
    audited = sim_json(*args, "--audit")
    assert plain["results"] == audited["results"]

    from meeple.games.monopoly.family import MonopolyFamily
    from meeple.kernel.protocol import GameState

    def broken(self: MonopolyFamily, state: GameState) -> list[str]:
        return ["the bank lost a house [hotel]"] if len(state.history) == 7 else []

    monkeypatch.setattr(MonopolyFamily, "audit", broken)
    result = runner.invoke(app, ["simulate", "classic", "--json", "-", *args, "--audit"])
    assert result.exit_code == 1
    # The error goes to stderr, as every error does: stdout, the JSON's, stays empty.
    assert result.stderr.startswith("audit: ")
    assert "game 0 (seed" in result.stderr and "after action 7" in result.stderr
    assert "the bank lost a house [hotel]" in result.stderr  # brackets are no markup
    assert result.stdout == ""


@pytest.mark.parametrize("args", [["version"], ["--version"]])
def test_version_says_which_build_runs(args: list[str]) -> None:
    from importlib.metadata import version

    from meeple.buildinfo import build_name

    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"meeple {version('meeple')}"
    assert lines[1].startswith(f"engine: {build_name()} (")
    # The families in `meeple version`; `--version` stays quick, loading no game.
    families = "game families: monopoly (5 games), monopolis (1 game)" in result.output
    assert families == (args == ["version"])
    if build_name() == "mypyc":  # every family's engine named as compiled (issue 40)
        assert "(compiled: kernel, monopoly, monopolis;" in lines[1]


def test_the_command_line_loads_no_engine_until_a_command_needs_it() -> None:
    """Issue 18, quick start-up: ``meeple --help`` imports the command line only; a game
    family, pydantic (editions) and the analyses load when a command uses them."""
    import ast
    import subprocess
    import sys

    def loaded_after(code: str) -> list[str]:
        """The output of ``code`` in a fresh interpreter, then the heavy modules it loaded."""
        probe = code + (
            "\nprint(sorted(m for m in sys.modules if m.startswith(('meeple.games', "
            "'pydantic', 'meeple.analysis', 'meeple.server', 'numpy'))))\n"
        )
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip().splitlines()

    assert loaded_after("import sys, meeple.cli.main") == ["[]"]
    # meeple --version says the build without importing the engine to find out.
    out = loaded_after(
        "import sys\nfrom meeple.cli.main import app\nsys.argv = ['meeple', '--version']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass"
    )
    assert out[0].startswith("meeple ") and out[1].startswith("engine: ") and out[-1] == "[]"
    # meeple editions lists the games from the families' catalogues: no engine, no edition
    # validated, no pydantic (typer 0.29 imports it for every command: pinned below it).
    out = loaded_after(
        "import sys\nfrom meeple.cli.main import app\nsys.argv = ['meeple', 'editions']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass"
    )
    assert any("my-first-monopoly-2" in line for line in out) and "monopolis" in out[-1]
    loaded = ast.literal_eval(out[-1])  # the probe's list of the modules it loaded
    assert not [m for m in loaded if m.startswith("pydantic") or m.endswith((".state", ".edition"))]


def test_an_error_quotes_the_input_whole_even_with_brackets() -> None:
    # rich would take "[x]" for markup and drop it from the message.
    r = CliRunner().invoke(app, ["simulate", "classic", "--bots", "std[x]", "--games", "1"])
    assert r.exit_code == 2
    assert "std[x]" in r.output


def test_help_reads_the_docstrings_as_paragraphs() -> None:
    """``--help`` wraps a command's description to the terminal (a docstring's line breaks are
    not the help's) and prints square brackets in a help text as written, not as markup."""
    wide = {"COLUMNS": "250"}  # (rich's width: room for a whole paragraph on a line)
    top = CliRunner().invoke(app, ["--help"], env=wide)
    assert top.exit_code == 0
    # The tournament's docstring breaks its first sentence after "every".
    assert "against each other: every seating of each table replays the same dice" in top.output
    serve = CliRunner().invoke(app, ["serve", "--help"], env=wide)
    assert "are logged as [redacted]." in serve.output


def test_editions_show_and_export_ask_the_games_family(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The family describes its games (``GameFamily.describe``, ``export``,
    ``read_game_file``); a family without a description says so."""
    monkeypatch.chdir(tmp_path)  # a short path: the table cuts a long one to its width
    Path("mine.toml").write_text(runner.invoke(app, ["editions", "export", "classic"]).stdout)
    shown = runner.invoke(app, ["editions", "show", "--edition-file", "mine.toml"])
    assert shown.exit_code == 0, shown.output
    assert "Rule options" in shown.stdout and "Deck: Chance" in shown.stdout
    assert "source     mine.toml" in shown.stdout  # the file, not a stand-in name
    unknown = runner.invoke(app, ["editions", "export", "nope"])
    assert unknown.exit_code == 2 and "unknown game or edition 'nope'" in unknown.output


# -- Monopolis's components (issue 20: shared/reference/EDITIONS.md, "the `meeple editions show
# ID` output ... should let a user see which values are assumed") ----------------------------


def test_editions_show_monopolis_prints_its_components_and_marks_the_designed_ones() -> None:
    """monopolis-rules.txt, "Components": 41 building tiles, 88 requirement cards, 46 resource
    cards; the procurement prices "1, 1 and 2 ... 3, 3 and 4" and the three reward columns are
    printed; the rest is designed and marked (components.toml's ``assumed`` list)."""
    shown = runner.invoke(app, ["editions", "show", "monopolis"])
    assert shown.exit_code == 0, shown.output
    out = shown.stdout
    for text in (
        "Monopolis (monopolis), 2-4 players",
        "games/monopolis/components.toml (bundled)",
        "Building tiles (41)",
        "Requirement cards (88)",
        "Resource cards (46)",
        "1, 1, 2",
        "3, 3, 4",
        "1 money + 2 points at the end",
        "special building",
    ):
        assert text in out, text
    # Designed columns say so; printed ones do not.
    for text in ("resources (assumed)", "icons (assumed)", "needs (assumed)", "reward (assumed)"):
        assert text in out, text
    assert "rows per column (assumed)" in out and "prices (assumed)" not in out
    assert "Assumed values (10)" in out and "requirement_cards.needs" in out


def test_export_monopolis_edit_and_play_its_components(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exported file is the components file an owner corrects: shown and played with
    --edition-file (the ``components`` option names it, so a save file carries it), and what
    its ``assumed`` list says is what ``show`` marks."""
    monkeypatch.chdir(tmp_path)
    text = runner.invoke(app, ["editions", "export", "monopolis"]).stdout
    assert text.startswith("# meeple monopolis components, exported from games/monopolis/")
    # An owner knows which icon is on each tile: the tiles' icons are no longer assumed.
    assert '  "tiles.icons",' in text
    Path("mine.toml").write_text(text.replace('  "tiles.icons",', "", 1))
    shown = runner.invoke(app, ["editions", "show", "--edition-file", "mine.toml"])
    assert shown.exit_code == 0, shown.output
    assert "source               mine.toml" in shown.stdout
    assert "icons (assumed)" not in shown.stdout and "needs (assumed)" in shown.stdout
    assert "Assumed values (9)" in shown.stdout
    args = "simulate --edition-file mine.toml --players 2 --games 1 --max-turns 6 --save-dir saves"
    played = runner.invoke(app, args.split())
    assert played.exit_code == 0, played.output
    from meeple.kernel.saves import load_game

    game = load_game(Path("saves/game-000000.json"))
    assert game.game_id == "monopolis"
    assert game.options["components"] == str(tmp_path / "mine.toml")


def test_a_broken_monopolis_components_file_is_refused_with_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = runner.invoke(app, ["editions", "export", "monopolis"]).stdout
    broken = text.replace(
        '{ id = 37, type = "II", needs = ["wood", "iron", "tools", "workers"]',
        '{ id = 37, type = "II", needs = ["wood", "wood", "tools", "workers"]',
        1,
    )
    assert broken != text
    Path("bad.toml").write_text(broken)
    for args in (["editions", "show"], ["simulate", "--games", "1"]):
        result = runner.invoke(app, [*args, "--edition-file", "bad.toml"])
        assert result.exit_code == 2
        assert "bad.toml: requirement_cards[37].needs: Type II" in result.output


# -- rule options per game (issue 20) ------------------------------------------------------


def test_simulate_rule_sets_house_rules_for_every_game_and_says_so(tmp_path: Path) -> None:
    """``--rule NAME=VALUE`` (repeatable), parsed by the option's kind: the JSON summary
    names the rules set, each saved game carries them in its options, and the games play by
    them (the Free Parking pot is taken in the log of a replay, which lists the rules first)."""
    data = sim_json(
        "--games",
        "2",
        "--players",
        "2",
        "--seed",
        "3",
        "--max-turns",
        "300",
        "--rule",
        "free_parking_money=true",
        "--rule",
        "auctions=off",
        "--save-dir",
        str(tmp_path),
    )
    assert data["rules"] == {"free_parking_money": True, "auctions": False}
    assert sim_json("--games", "1", "--max-turns", "10")["rules"] == {}
    saved = json.loads((tmp_path / "game-000000.json").read_text())
    assert saved["options"]["rules"] == {"free_parking_money": True, "auctions": False}
    result = runner.invoke(app, ["replay", str(tmp_path / "game-000000.json")])
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[:4]
    assert head == [
        "classic, 2 players, seed " + str(saved["seed"]) + ".",
        "Rules changed for this game:",
        "  Free Parking money: on (normally off)",
        "  Auctions: off (normally on)",
    ]
    assert "takes the Free Parking pot" in result.stdout
    assert "Auction of" not in result.stdout


def test_replay_of_a_game_by_the_book_lists_no_changed_rules(tmp_path: Path) -> None:
    args = ["simulate", "classic", "--games", "1", "--players", "2", "--max-turns", "20"]
    result = runner.invoke(app, [*args, "--save-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "game-000000.json")])
    assert result.exit_code == 0, result.output
    assert "Rules changed" not in result.stdout


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("free_parking_money=maybe", "rule free_parking_money takes true or false, not 'maybe'"),
        ("starting_cash=-1", "rule starting_cash takes a whole number from 0 to 1000000"),
        ("utility_rent_dice=dice", "rule utility_rent_dice takes one of move, fresh, one_die"),
        ("houses=40", "classic has no rule option 'houses'; its options: start_player"),
        ("auctions", "--rule takes NAME=VALUE"),
    ],
)
def test_simulate_refuses_a_bad_rule_before_anything_runs(
    tmp_path: Path, rule: str, message: str
) -> None:
    saves = tmp_path / "saves"
    result = runner.invoke(
        app, ["simulate", "classic", "--games", "1", "--rule", rule, "--save-dir", str(saves)]
    )
    assert result.exit_code == 2
    assert message in result.output
    assert not saves.exists()  # nothing ran, nothing was written


def test_a_rule_the_edition_does_not_offer_is_refused() -> None:
    """My First Monopoly has no utilities, and Monopolis no rule options at all."""
    result = runner.invoke(
        app, ["simulate", "my-first-monopoly-1", "--rule", "utility_rent_dice=fresh"]
    )
    assert result.exit_code == 2
    assert "my-first-monopoly-1 has no rule option 'utility_rent_dice'" in result.output
    result = runner.invoke(app, ["simulate", "monopolis", "--rule", "max_turns=3"])
    assert result.exit_code == 2
    assert "monopolis has no rule option 'max_turns'; its options: start_player" in result.output


def test_editions_rules_lists_each_games_options() -> None:
    """``meeple editions rules ID``: what ``--rule`` takes for that game, by group."""
    result = runner.invoke(app, ["editions", "rules", "classic"])
    assert result.exit_code == 0, result.output
    for word in ("free_parking_money", "utility_rent_dice", "House rules", "Rulebook readings"):
        assert word in result.stdout
    result = runner.invoke(app, ["editions", "rules", "my-first-monopoly-1"])
    assert "utility_rent_dice" not in result.stdout  # no utilities on that board
    result = runner.invoke(app, ["editions", "rules", "monopolis"])
    assert result.exit_code == 0
    assert "start_player" in result.stdout and "free_parking_money" not in result.stdout


def test_play_rule_sets_the_games_rules_and_says_so(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "my-first-monopoly-2", "--seats", "random,random", "--seed", "4"]
    result = runner.invoke(app, [*args, "--rule", "starting_cash=20", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "House rule: Starting money: 20 (normally 15)" in result.stdout
    assert "Game over" in result.stdout
    assert json.loads(save.read_text())["options"] == {
        "rules": {"starting_cash": 20},
        "ruleset": 3,
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rule", "starting_cash=lots"], "rule starting_cash takes a whole number"),
        (["--rule", "doubles_roll_again=true"], "has no rule option 'doubles_roll_again'"),
    ],
)
def test_play_refuses_a_bad_rule(extra: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "my-first-monopoly-2", "--seats", "random,random", *extra])
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--names", "Ann"], "--names lists 1 name for 2 seats: one per seat, comma-separated"),
        (["--names", "A,B,C"], "--names lists 3 names for 2 seats"),
        (["--seats", "random", "--players", "2"], "--seats lists 1 seat for a 2-player game"),
    ],
)
def test_play_says_how_many_names_and_seats_it_was_given(extra: list[str], message: str) -> None:
    args = ["play", "my-first-monopoly-2", *extra]
    if "--seats" not in extra:
        args += ["--seats", "random,random"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_play_resume_keeps_the_rules_the_game_started_with(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "my-first-monopoly-2", "--seats", "random,random", "--save", str(save)]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "--resume", str(save), "--rule", "starting_cash=20"])
    assert result.exit_code == 2
    assert "--rule does not go with --resume" in result.output


def test_play_from_a_position_under_a_house_rule(tmp_path: Path) -> None:
    """``--from FILE --rule ...``: the same position, played by the rule (the game's options
    hold both), from the position's own seed when no --seed is given."""
    from meeple.kernel.family import new_game
    from meeple.kernel.position import position_data

    pos, save = tmp_path / "here.json", tmp_path / "game.json"
    pos.write_text(json.dumps(position_data(new_game("my-first-monopoly-2", 2, 5))))
    args = ["play", "--from", str(pos), "--seats", "random,random", "--save", str(save)]
    result = runner.invoke(app, [*args, "--rule", "free_parking_money=true"])
    assert result.exit_code == 0, result.output
    assert "House rule: Free Parking money: on (normally off)" in result.stdout
    saved = json.loads(save.read_text())
    assert saved["seed"] == 5 and "position" in saved["options"]
    assert saved["options"]["rules"] == {"free_parking_money": True}
