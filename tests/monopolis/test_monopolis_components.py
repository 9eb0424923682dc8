"""The component data file: counts, balance, and errors that name file, field and reason."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from meeple.games.monopolis.components import DEFAULT_FILE, load_components
from meeple.kernel.errors import EditionError


def test_counts_follow_the_rulebook() -> None:
    c = load_components()
    assert Counter(t.value for t in c.tiles) == {0: 1, 1: 12, 2: 10, 3: 8, 4: 6, 6: 4}
    cards = [x for x in c.requirement_cards if x is not None]
    assert len(cards) == 88
    decks = Counter(c.decks[x.deck] for x in c.resource_cards if x is not None)
    assert decks == {"yellow": 20, "orange": 26}
    assert c.spaces == {2: 12, 3: 9, 4: 9}
    assert c.prices == ((1, 1, 2), (3, 3, 4))
    assert set(c.icons) == {"buoy", "crane", "brick_wall", "hot_air_balloon"}
    assert "requirement_cards.needs" in c.assumed


def test_card_types_are_what_the_rulebook_says() -> None:
    c = load_components()
    for card in c.requirement_cards:
        if card is None:
            continue
        if card.type == 1:
            assert sum(card.needs) == 4 and card.pairs
        elif card.type == 2:
            assert sum(card.needs) == 4 and max(card.needs) == 1
        else:
            assert sum(card.needs) == 3 and card.pairs


def test_every_rule_is_reachable() -> None:
    c = load_components()
    cards = [x for x in c.requirement_cards if x is not None]
    res = [x for x in c.resource_cards if x is not None]
    assert any(x.type == 3 and x.pairs for x in cards)  # Type III pairs
    assert any(x.type == 1 and len(x.pairs) == 2 for x in cards)  # Type I with two pairs
    for t in (1, 2, 3):
        assert any(x.type == t and x.coins for x in cards)
        assert any(x.type == t and x.liza for x in cards)
        assert any(x.type == t and x.icon >= 0 for x in cards)
    assert any(x.liza and x.deck == 0 for x in res)  # joker cards in the left deck (setup)
    assert any(x.liza and x.deck == 1 for x in res)
    assert any(x.coins for x in res)
    assert all(len(t.icons) == 2 for t in c.tiles if t.value == 1)
    assert sorted(t.icons[0] for t in c.tiles if t.value == 6) == [0, 1, 2, 3]


def test_design_is_balanced() -> None:
    c = load_components()
    cards = [x for x in c.requirement_cards if x is not None]
    # Every resource is demanded equally, within each card type.
    for t in (1, 2, 3):
        demand = [sum(x.needs[r] for x in cards if x.type == t) for r in range(4)]
        assert len(set(demand)) == 1
    # Every resource is supplied equally by each deck.
    for deck in (0, 1):
        supply = [
            sum(x.gains[r] for x in c.resource_cards if x is not None and x.deck == deck)
            for r in range(4)
        ]
        assert len(set(supply)) == 1
    # Every collection icon appears equally often over tiles and cards together.
    icons = Counter(i for t in c.tiles for i in t.icons)
    icons.update(x.icon for x in cards if x.icon >= 0)
    assert len(set(icons.values())) == 1 and len(icons) == 4


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "components.toml"
    path.write_bytes(tomli_w.dumps(data).encode())
    return path


def base() -> dict[str, Any]:
    with open(DEFAULT_FILE, "rb") as fh:
        return tomllib.load(fh)


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (lambda d: d["requirement_cards"].pop(), "requirement_cards", "88 cards"),
        (
            lambda d: d["requirement_cards"][0].update(needs=["wood", "iron", "tools"]),
            "requirement_cards[1].needs",
            "Type I",
        ),
        (
            lambda d: d["requirement_cards"][40].update(needs=["wood", "wood", "tools", "workers"]),
            "requirement_cards[41].needs",
            "Type II",
        ),
        (
            lambda d: d["requirement_cards"][60].update(needs=["gold", "gold", "iron"]),
            "requirement_cards[61].needs",
            "unknown name 'gold'",
        ),
        (
            lambda d: d["requirement_cards"][0].update(coins=1, liza=1),
            "requirement_cards[1]",
            "at most one reward",
        ),
        (lambda d: d["tiles"][1].update(icons=["buoy"]), "tiles[1].icons", "2 different"),
        (lambda d: d["tiles"].pop(), "tiles", "4 tiles worth 6"),
        (lambda d: d["board"]["spaces"].update({"2": 10}), "board.spaces.2", "12 spaces"),
        (lambda d: d["board"]["rows"].update({"3": 4}), "board.rows.3", "not 9 spaces"),
        (lambda d: d["assumed"].append("bananas"), "assumed", "names no field"),
        (lambda d: d["resources"].pop(), "resources", "at least 4"),
        (
            lambda d: d["resource_cards"][0].update(resources=["wood"]),
            "resource_cards[1]",
            "left-deck card shows 2 resources",
        ),
        (lambda d: d["resource_cards"].pop(), "resource_cards", "26 orange"),
    ],
)
def test_broken_files_are_refused_with_field_and_reason(
    tmp_path: Path, change: Any, field: str, reason: str
) -> None:
    data = base()
    change(data)
    path = write(tmp_path, data)
    with pytest.raises(EditionError) as err:
        load_components(path)
    assert err.value.file == str(path)
    assert err.value.field == field
    assert reason in err.value.reason


def test_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(EditionError, match="not valid TOML"):
        load_components(bad)
    with pytest.raises(EditionError, match="cannot read"):
        load_components(tmp_path / "missing.toml")


def test_an_owner_can_load_a_corrected_file(tmp_path: Path) -> None:
    from meeple.games.monopolis import new_monopolis

    data = base()
    data["resources"] = ["timber", "steel", "tools", "labour"]
    for card in data["requirement_cards"] + data["resource_cards"]:
        key = "needs" if "needs" in card else "resources"
        rename = {"wood": "timber", "iron": "steel", "workers": "labour"}
        card[key] = [rename.get(x, x) for x in card[key]]
    path = write(tmp_path, data)
    s = new_monopolis(2, 1, {"components": str(path)})
    assert s.comps.resources[0] == "timber"
    assert s.view(0)["seats"][0]["resources"].keys() == {"timber", "steel", "tools", "labour"}
