"""The landing analysis as plain data (the JSON the command line writes)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from meeple.analysis.landing import LandingResult
from meeple.analysis.rent import RentRow
from meeple.games.monopoly.tables import KIND_NAMES


def exact(x: Fraction) -> dict[str, Any]:
    """A probability or an expectation: the reduced fraction as ``"p/q"`` and its float."""
    return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}


def landing_report(res: LandingResult, rents: list[RentRow]) -> dict[str, Any]:
    """``squares`` (index, name, kind, probability as ``"p/q"``, share as a float), ``in_jail``
    (the same), ``top`` (square indices by share) and ``rent_per_roll`` (by group and level)."""
    ed = res.edition
    return {
        "edition": ed.id,
        "name": ed.name,
        "jail": res.jail,
        "jail_rule": res.jail_rule,
        "kept_jail_cards": res.kept_jail_cards,
        "states": res.states,
        "squares": [
            {
                "index": s,
                "name": ed.square_names[s],
                "kind": KIND_NAMES[ed.kind[s]],
                "probability": f"{p.numerator}/{p.denominator}",
                "share": float(p),
            }
            for s, p in enumerate(res.squares)
        ],
        "in_jail": {
            "probability": f"{res.in_jail.numerator}/{res.in_jail.denominator}",
            "share": float(res.in_jail),
        },
        "top": res.ranked(),
        "rent_per_roll": [
            {
                "group": row.group,
                "name": row.name,
                "kind": row.kind,
                "squares": list(row.squares),
                "house_cost": row.house_cost,
                "levels": [
                    {"level": lv.level, "label": lv.label, **exact(lv.per_roll)}
                    for lv in row.levels
                ],
            }
            for row in rents
        ],
    }
