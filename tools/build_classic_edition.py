"""Build ``src/meeple/games/monopoly/editions/classic.toml`` from the shared reference data.

Run: ``python tools/build_classic_edition.py [../shared/reference]``. The TOML file is checked
in; ``tests/monopoly/test_edition.py`` checks it still matches the reference JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import tomli_w

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/meeple/games/monopoly/editions/classic.toml"

KIND = {
    "go": "go",
    "street": "street",
    "railroad": "railroad",
    "utility": "utility",
    "tax": "tax",
    "chance": "card",
    "community_chest": "card",
    "jail": "jail",
    "free_parking": "free_parking",
    "go_to_jail": "go_to_jail",
}

GROUP_NAMES = {
    "brown": ("Brown", "#955436"),
    "light_blue": ("Light Blue", "#aae0fa"),
    "pink": ("Pink", "#d93a96"),
    "orange": ("Orange", "#f7941d"),
    "red": ("Red", "#ed1b24"),
    "yellow": ("Yellow", "#fef200"),
    "green": ("Green", "#1fb25a"),
    "dark_blue": ("Dark Blue", "#0072bb"),
    "railroad": ("Railroads", "#000000"),
    "utility": ("Utilities", "#888888"),
}


def card(entry: dict[str, Any]) -> dict[str, Any]:
    eff = entry["effect"]
    op = eff["op"]
    out: dict[str, Any] = {"id": entry["id"], "text": entry["summary"]}
    if op == "move_to":
        out["op"] = "move_to"
        out["target"] = eff["target"]
    elif op == "move_to_nearest":
        out["op"] = "move_to_nearest"
        out["kind"] = eff["kind"]
        if eff["kind"] == "railroad":
            out["rent_multiplier"] = 2
        else:
            out["dice_multiplier"] = 10
    elif op == "keep_get_out_of_jail_free":
        out["op"] = "get_out_of_jail_free"
    elif op == "move_relative":
        out["op"] = "move_relative"
        out["steps"] = eff["steps"]
    elif op == "go_to_jail":
        out["op"] = "go_to_jail"
    elif op == "repairs":
        out["op"] = "repairs"
        out["per_house"] = eff["per_house"]
        out["per_hotel"] = eff["per_hotel"]
    elif op in ("bank_pays", "pay_bank", "pay_each_player", "collect_from_each_player"):
        out["op"] = op
        out["amount"] = eff["amount"]
    else:
        raise SystemExit(f"unknown card op {op}")
    return out


def build(ref: Path) -> dict[str, Any]:
    board = json.loads((ref / "classic-board.json").read_text())
    cards = json.loads((ref / "classic-cards.json").read_text())
    c = board["constants"]
    props = {p["index"]: p for p in board["properties"].values()}
    squares: list[dict[str, Any]] = []
    for sq in board["squares"]:
        kind = KIND[sq["type"]]
        out: dict[str, Any] = {"name": sq["name"], "kind": kind}
        if sq["type"] in ("chance", "community_chest"):
            out["deck"] = sq["type"]
        if kind == "tax":
            out["amount"] = sq["amount"]
        p = props.get(sq["index"])
        if p is not None:
            out["group"] = p["group"]
            out["price"] = p["price"]
            out["mortgage"] = p["mortgage"]
            if kind == "street":
                r = p["rent"]
                out["rent"] = [
                    r["base"],
                    r["house_1"],
                    r["house_2"],
                    r["house_3"],
                    r["house_4"],
                    r["hotel"],
                ]
                out["house_cost"] = p["house_cost"]
        squares.append(out)
    rr = next(p for p in props.values() if p["type"] == "railroad")
    ut = next(p for p in props.values() if p["type"] == "utility")
    groups = []
    for gid in board["groups"]:
        name, color = GROUP_NAMES[gid]
        groups.append({"id": gid, "name": name, "color": color})
    return {
        "id": "classic",
        "name": "Monopoly (US standard board)",
        "description": "The classic US board and the 2008 US Chance and Community Chest decks.",
        "currency": "$",
        "sources": ["shared/reference/classic-board.json", "shared/reference/classic-cards.json"],
        "names": {"house": "house", "hotel": "hotel", "jail": "Jail"},
        "rules": {
            "min_players": 2,
            "max_players": 8,
            "starting_cash": c["starting_money"],
            "go_salary": c["go_salary"],
            "jail_fine": c["jail_fine"],
            "max_jail_turns": c["max_jail_turns"],
            "houses": c["houses_in_bank"],
            "hotels": c["hotels_in_bank"],
            "railroad_rents": [rr["rent_by_railroads_owned"][k] for k in "1234"],
            "utility_multipliers": [ut["rent_dice_multiplier_by_utilities_owned"][k] for k in "12"],
        },
        "groups": groups,
        "squares": squares,
        "decks": [
            {"id": "chance", "name": "Chance", "cards": [card(e) for e in cards["chance"]]},
            {
                "id": "community_chest",
                "name": "Community Chest",
                "cards": [card(e) for e in cards["community_chest"]],
            },
        ],
    }


def main() -> None:
    ref = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "reference"
    data = build(ref)
    header = (
        "# The classic US Monopoly board, built by tools/build_classic_edition.py from\n"
        "# shared/reference/classic-board.json and classic-cards.json. Rule options not listed\n"
        "# under [rules] take the defaults documented in docs/EDITIONS.md.\n\n"
    )
    OUT.write_text(header + tomli_w.dumps(data))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
