"""The classic edition file, and validation of edition files.

The classic board and decks are data built from ``shared/reference`` (issue: "The classic
edition as a data file built from classic-board.json and classic-cards.json, validated on load
(errors name file, field, reason)").
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from meeple.games.monopoly.edition import (
    builtin_edition,
    builtin_edition_ids,
    load_edition_file,
    parse_edition,
)
from meeple.games.monopoly.tables import STREET
from meeple.kernel.errors import EditionError

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference"
CLASSIC = ROOT / "src/meeple/games/monopoly/editions/classic.toml"


def classic_data() -> dict[str, Any]:
    return tomllib.loads(CLASSIC.read_text())


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference not beside the checkout")
def test_classic_matches_the_reference_board() -> None:
    board = json.loads((REFERENCE / "classic-board.json").read_text())
    ed = builtin_edition("classic")
    assert ed.size == len(board["squares"]) == 40
    for p in board["properties"].values():
        sq = p["index"]
        assert ed.square_names[sq] == board["squares"][sq]["name"]
        assert ed.price[sq] == p["price"]
        assert ed.mortgage[sq] == p["mortgage"]
        assert ed.unmortgage_cost[sq] == p["unmortgage_cost"]
        if p["type"] == "street":
            r = p["rent"]
            assert ed.rent[sq] == (
                r["base"],
                r["house_1"],
                r["house_2"],
                r["house_3"],
                r["house_4"],
                r["hotel"],
            )
            assert r["color_set_no_houses"] == r["base"] * ed.rules.set_rent_multiplier
            assert ed.house_cost[sq] == p["house_cost"] == p["hotel_cost"]
    c = board["constants"]
    assert (ed.rules.starting_cash, ed.rules.go_salary, ed.rules.jail_fine) == (
        c["starting_money"],
        c["go_salary"],
        c["jail_fine"],
    )
    assert (ed.rules.houses, ed.rules.hotels) == (c["houses_in_bank"], c["hotels_in_bank"])
    assert ed.tax[4] == 200 and ed.tax[38] == 100


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference not beside the checkout")
def test_classic_matches_the_reference_cards() -> None:
    cards = json.loads((REFERENCE / "classic-cards.json").read_text())
    ed = builtin_edition("classic")
    for deck, key in zip(ed.decks, ("chance", "community_chest"), strict=True):
        assert [c.id for c in deck.cards] == [c["id"] for c in cards[key]]
        assert len(deck.cards) == 16


def test_classic_tables() -> None:
    ed = builtin_edition("classic")
    assert ed.jail == 10 and ed.go == 0
    assert sum(1 for k in ed.kind if k == STREET) == 22
    assert len(ed.properties) == 28
    assert ed.nearest[2][7] == 15 and ed.nearest[2][22] == 25 and ed.nearest[2][36] == 5
    assert ed.nearest[3][7] == 12 and ed.nearest[3][22] == 28 and ed.nearest[3][36] == 12
    assert ed.interest[12] == 8 and ed.unmortgage_cost[37] == 193  # 7.5 and 192.5 round up


def broken(edit: Any) -> dict[str, Any]:
    data = classic_data()
    edit(data)
    return data


@pytest.mark.parametrize(
    ("edit", "field", "reason"),
    [
        (lambda d: d["squares"][1].update(price=-5), "squares[1].price", "greater than"),
        (lambda d: d["squares"][1].pop("rent"), "squares[1].rent", "6 rents"),
        (lambda d: d["squares"][1].update(rent=[1, 2, 3]), "squares[1].rent", "6 rents"),
        (lambda d: d["squares"][1].update(group="purple"), "squares[1].group", "unknown group"),
        (lambda d: d["squares"][2].update(deck="nope"), "squares[2].deck", "unknown deck"),
        (lambda d: d["squares"][10].update(kind="free_parking"), "squares", "one jail"),
        (lambda d: d["squares"][0].update(kind="tax", amount=1), "squares[0].kind", "GO"),
        (lambda d: d["squares"][3].update(kind="castle"), "squares[3].kind", "Input should"),
        (lambda d: d["rules"].update(jail_fine="fifty"), "rules.jail_fine", "integer"),
        (lambda d: d["rules"].update(min_players=6, max_players=3), "rules.min_players", "greater"),
        (lambda d: d.update(colour="red"), "colour", "Extra inputs"),
        (
            lambda d: d["decks"][0]["cards"][0].pop("target"),
            "decks.chance.cards[0].target",
            "needs target",
        ),
        (
            lambda d: d["decks"][0]["cards"][0].update(target=77),
            "decks.chance.cards[0].target",
            "not on the",
        ),
        (lambda d: d.pop("squares"), "squares", "Field required"),
    ],
)
def test_malformed_edition_names_file_field_reason(edit: Any, field: str, reason: str) -> None:
    with pytest.raises(EditionError) as info:
        parse_edition(broken(edit), "my-edition.toml")
    assert info.value.file == "my-edition.toml"
    assert info.value.field == field
    assert reason in info.value.reason


def test_edition_file_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("id = [unclosed")
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
    assert info.value.file == str(path) and info.value.field == "(syntax)"


def test_edition_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "classic-copy.toml"
    path.write_text(CLASSIC.read_text())
    ed = load_edition_file(path)
    assert ed.rent == builtin_edition("classic").rent


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_the_play_loop_reads_the_same_rules_the_file_gave(edition: str) -> None:
    """``Edition.rules`` (the play loop's native copy) has every field of the validated
    ``RulesModel``, in the same order, with the same values."""
    from dataclasses import fields

    from meeple.games.monopoly.edition import RulesModel

    ed = builtin_edition(edition)
    assert [f.name for f in fields(ed.rules)] == list(RulesModel.model_fields)
    for name in RulesModel.model_fields:
        value = getattr(ed.rules, name)
        expected = getattr(ed.model.rules, name)
        assert (list(value) if isinstance(value, tuple) else value) == expected, name


def test_the_catalogue_says_what_loading_each_edition_says() -> None:
    """The game list (``meeple editions``, the lobby) reads each shipped file's header alone
    (issue 18, quick start-up); its names and player ranges are those of the whole edition."""
    from meeple.games.monopoly.catalog import builtin_catalog
    from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids

    listed = builtin_catalog()
    assert [e.id for e in listed] == builtin_edition_ids()
    for e in listed:
        ed = builtin_edition(e.id)
        assert (e.name, e.min_players, e.max_players) == (
            ed.name,
            ed.rules.min_players,
            ed.rules.max_players,
        )
