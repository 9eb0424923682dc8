"""Positions as a public API (issue 19, ``meeple.kernel.position``): set up from data with
reasons for what is wrong, scripted dice, saved and resumed, many futures of one position, and
the command line (``meeple position``, ``meeple play --from``, ``meeple simulate --from``).
Round trips over every game id are in tests/test_every_game.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.kernel.errors import PositionError
from meeple.kernel.family import new_game
from meeple.kernel.position import (
    from_position,
    load_position,
    position_data,
    problems,
    redraw,
    save_position,
)
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.saves import load_data, load_game, save_data

runner = CliRunner()

PARK_PLACE, BOARDWALK = 37, 39
TUTORIAL = """\
# Player 1 owns the dark blues with hotels; Player 2, to move, stands on Chance.
game = "classic"
players = 2
seed = 1

[position]
cash = [300, 2000]
pos = [0, 36]
turn = 1
owner = [{owner}]
level = [{level}]
dice_script = [[1, 2], [3, 4]]
"""


def board(values: dict[int, int], default: int = 0) -> list[int]:
    return [values.get(sq, default) for sq in range(40)]


def tutorial(tmp_path: Path) -> Path:
    owner = board({PARK_PLACE: 0, BOARDWALK: 0}, -1)
    level = board({PARK_PLACE: 5, BOARDWALK: 5})
    path = tmp_path / "boardwalk.toml"
    path.write_text(
        TUTORIAL.format(owner=", ".join(map(str, owner)), level=", ".join(map(str, level)))
    )
    return path


def classic(position: dict[str, Any], players: int = 2) -> dict[str, Any]:
    return {"game": "classic", "players": players, "position": position}


def refused(position: dict[str, Any], players: int = 2) -> list[str]:
    with pytest.raises(PositionError) as info:
        from_position(classic(position, players))
    return info.value.problems


# -- setting up ------------------------------------------------------------------------------


def test_a_hand_written_position_plays_its_scripted_dice(tmp_path: Path) -> None:
    s = load_position(tutorial(tmp_path))
    assert problems(s) == []
    assert s.current_player() == 1 and s.legal_actions()[0] == Action("roll")
    # Left out: the bank is what the board leaves in it (two hotels out of twelve).
    assert (s.snapshot()["houses"], s.snapshot()["hotels"]) == (32, 10)
    s.record_events = True
    texts = [s.describe(e) for e in s.apply(Action("roll"))]
    # 1 + 2 from Chance (36) is Boardwalk (39): the hotel's rent, $2,000, all Player 2 has.
    assert s.snapshot()["dice"] == [1, 2] and s.snapshot()["pos"][1] == BOARDWALK
    assert s.snapshot()["cash"] == [2300, 0], texts
    assert position_data(s)["position"]["dice_script"] == [[3, 4]]  # one roll still to come


@pytest.mark.parametrize(
    ("position", "problem"),
    [
        (
            {"owner": board({PARK_PLACE: 1, BOARDWALK: 0}, -1), "level": board({BOARDWALK: 5})},
            "player 1 has a hotel on Boardwalk but does not own all of Dark Blue",
        ),
        (
            {"owner": board({PARK_PLACE: 0, BOARDWALK: 0}, -1), "level": board({BOARDWALK: 2})},
            "Dark Blue is not built evenly (levels [0, 2])",
        ),
        (
            {
                "owner": board({PARK_PLACE: 0, BOARDWALK: 0}, -1),
                "level": board({BOARDWALK: 1, PARK_PLACE: 1}),
                "mortgaged": [sq == PARK_PLACE for sq in range(40)],
            },
            "Boardwalk has 1 house but part of Dark Blue is mortgaged",
        ),
        (
            {
                "owner": board({PARK_PLACE: 0, BOARDWALK: 0}, -1),
                "level": board({BOARDWALK: 1, PARK_PLACE: 1}),
                "houses": 32,
            },
            "the bank has 32 houses and 2 are on the board: 32 in all, not 34",
        ),
        ({"cash": [-5, 100]}, "player 1 has negative cash (-5) and no debt to settle"),
        ({"pos": [0, 77]}, "player 2 stands on square 77, off the board (0-39)"),
        ({"in_jail": [True, False]}, "player 1 is in jail but stands on GO"),
        (
            {"alive": [True, False], "owner": board({5: 1}, -1)},
            "Reading Railroad is owned by player 2, who is out of the game",
        ),
        ({"owner": board({4: 0}, -1)}, "Income Tax (4) is not a deed"),
        ({"turn": 5}, "it is seat 5's turn, not a player still in the game"),
    ],
)
def test_an_inconsistent_position_is_refused_with_the_reason(
    position: dict[str, Any], problem: str
) -> None:
    found = refused(position)
    assert any(problem in p for p in found), found


def test_cards_are_named_by_id() -> None:
    s = new_game("classic", 2, 3)
    data = position_data(s)["position"]
    assert sorted(data["decks"]) == ["chance", "community_chest"]
    assert data["decks"]["chance"][0].startswith("CH")
    chest = data["decks"]["community_chest"]
    jail_cards = list(data["card_holder"])
    assert data["card_holder"] == dict.fromkeys(jail_cards, -1)
    # A held card leaves its deck by itself when the decks are left out ...
    held = from_position(classic({"card_holder": {jail_cards[0]: 1}}))
    after = position_data(held)["position"]
    assert after["card_holder"][jail_cards[0]] == 1
    assert all(jail_cards[0] not in d for d in after["decks"].values())
    # ... and a deck given in full with a held card in it is refused.
    assert any(
        "must hold each of its cards once" in p
        for p in refused({"card_holder": {jail_cards[0]: 1}, "decks": data["decks"]})
    )
    assert "decks.community_chest: no card 'XX' in this deck" in refused(
        {"decks": {"community_chest": ["XX", *chest]}}
    )
    assert any("no deck 'tarot'" in p for p in refused({"decks": {"tarot": []}}))
    assert any(
        "dice_script[0]: 2 die faces from 1 to 6" in p for p in refused({"dice_script": [[7, 1]]})
    )


def test_malformed_files_say_where(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("game = [")
    with pytest.raises(PositionError, match=r"bad\.toml: not TOML"):
        load_position(bad)
    with pytest.raises(PositionError, match="cash must be a list of 2 integers"):
        from_position(classic({"cash": "lots"}))
    with pytest.raises(PositionError, match="players: missing or not a int"):
        from_position({"game": "classic", "position": {}})
    with pytest.raises(PositionError, match="unknown game or edition 'chess'"):
        from_position({"game": "chess", "players": 2, "position": {}})
    with pytest.raises(PositionError, match="player 1 has negative money"):
        from_position({"game": "monopolis", "players": 2, "position": {"money": [-1, 5]}})


def test_a_monopolis_position_keeps_its_components() -> None:
    """Monopolis positions are checked by the invariants every game keeps (audit.py)."""

    def monopolis(position: dict[str, Any]) -> list[str]:
        with pytest.raises(PositionError) as info:
            from_position({"game": "monopolis", "players": 3, "position": position})
        return info.value.problems

    start = position_data(new_game("monopolis", 3, 9))["position"]
    assert any("requirement card must be once" in p for p in monopolis({"bag": start["bag"][1:]}))
    assert any("the market must show 3 + 3" in p for p in monopolis({"market": [[], []]}))
    houses = [0, 0, 0]
    houses[1] = 2
    assert any("player 2 has 0 houses on tiles but 2" in p for p in monopolis({"houses": houses}))


# -- saving, resuming, many futures ---------------------------------------------------------------


def test_a_game_from_a_position_saves_and_loads(tmp_path: Path) -> None:
    s = load_position(tutorial(tmp_path))
    s.apply(Action("roll"))
    data = json.loads(json.dumps(save_data(s)))
    assert "position" in data["options"]  # the start travels with the game
    again = load_data(data)
    assert again.snapshot() == s.snapshot() and again.history == [Action("roll")]
    out = tmp_path / "after.json"
    save_position(again, out)
    back = load_position(out)
    assert position_data(back) == position_data(again) and back.history == []


def test_redraw_keeps_the_table_and_changes_the_hidden_future(tmp_path: Path) -> None:
    s = load_position(tutorial(tmp_path))
    futures = []
    for seed in (1, 2):
        c = s.clone()
        redraw(c, seed)
        p = position_data(c)["position"]
        assert p["cash"] == [300, 2000] and p["owner"] == position_data(s)["position"]["owner"]
        assert p["dice_script"] == []  # scripted dice are the hidden future too
        futures.append((p["rng"], p["decks"]))
    assert futures[0] != futures[1]
    again = s.clone()
    redraw(again, 1)
    assert (
        position_data(again)["position"]["rng"],
        position_data(again)["position"]["decks"],
    ) == futures[0]


# -- the command line --------------------------------------------------------------------------


def test_meeple_position_checks_draws_and_writes(tmp_path: Path) -> None:
    path = tutorial(tmp_path)
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["position", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "classic, 2 players: a valid position." in result.output
    assert "Park Place" in result.output and "P1 H" in result.output
    assert load_position(out).snapshot() == load_position(path).snapshot()
    bad = tmp_path / "uneven.json"
    data = json.loads(out.read_text())
    data["position"]["level"][BOARDWALK] = 3
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["position", str(bad)])
    assert result.exit_code == 2 and "Dark Blue is not built evenly" in result.output


def test_simulate_from_a_position_is_the_same_on_any_number_of_workers(tmp_path: Path) -> None:
    path = tutorial(tmp_path)

    def wins(*extra: str) -> list[float]:
        args = ["simulate", "--from", str(path), "--games", "24", "--bots", "standard"]
        result = runner.invoke(app, [*args, "--json", "-", *extra])
        assert result.exit_code == 0, result.output
        summary: dict[str, Any] = json.loads(result.output)
        assert summary["players"] == 2 and summary["games"] == 24
        out: list[float] = summary["results"]["wins_by_seat"]
        return out

    one = wins()
    assert one == wins("--workers", "2")
    assert one[0] > one[1]  # the hotels on the dark blues tell
    result = runner.invoke(app, ["simulate", "monopolis", "--from", str(path)])
    assert (
        result.exit_code == 2 and "holds a position of 'classic', not 'monopolis'" in result.output
    )


def test_play_from_a_position_with_a_seed_redraws_its_future(tmp_path: Path) -> None:
    """``meeple play --from FILE --seed N`` plays the position with its dice and decks re-drawn
    from N (as each game of ``simulate --from`` is); without --seed, the file's own future."""
    path = tutorial(tmp_path)

    def played(*extra: str) -> GameState:
        out = tmp_path / f"game{'-'.join(extra)}.json"
        args = ["play", "--from", str(path), "--seats", "standard,standard", "--save", str(out)]
        result = runner.invoke(app, [*args, *extra])
        assert result.exit_code == 0, result.output
        return load_game(out)

    own, seven = played(), played("--seed", "7")
    again, eight = played("--seed", "7"), played("--seed", "8")
    assert "redraw" not in own.options and own.history[0] == Action("roll")
    assert seven.seed == 7 and seven.options["redraw"] == 7
    assert seven.history == again.history  # the seed decides the game
    assert [str(a) for a in seven.history] != [str(a) for a in eight.history]
    # A saved game keeps its own seed: --seed with --resume is refused, with the reason.
    result = runner.invoke(app, ["play", "--resume", str(tmp_path / "game.json"), "--seed", "1"])
    assert result.exit_code == 2 and "--seed does not go with --resume" in result.output
