"""Expected rent per opponent roll, for each set at each building level, from the landing chain.

For one opponent roll, the expected rent an owner collects is the sum over the owned squares of
P(the roll ends there) x the rent due there (Friends rules A, "Paying Rent", "Transport Spaces",
"Utility Spaces"; the rule options ``set_rent_multiplier``, ``railroad_rents``,
``utility_multipliers``, ``utility_rent_dice``):

- a street set, owned whole: the printed rent times ``set_rent_multiplier`` with no buildings,
  then the rent with 1-4 houses and with a hotel (editions without buildings: the set only);
- railroads by the number owned, k: the rent for k railroads, averaged over which k of the
  group are owned (every choice equally likely); a roll that arrives by an "advance to the
  nearest railroad" card pays that card's multiple (classic: twice);
- utilities by the number owned, k: the multiplier for k times the dice total of the very roll
  that ended there (exact: the chain keeps the total of each roll), or a fresh roll's expected
  total (``utility_rent_dice = "fresh"``; ``"one_die"``: one die's); a roll that arrives by an
  "advance to the nearest utility" card pays that card's multiple of a fresh roll of the
  edition's dice, whatever the owner holds.

Not modelled: mortgages, a snowflake on the square (Frozen II), rent claims forgotten.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from meeple.analysis.landing import LandingResult
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY


@dataclass(frozen=True)
class RentLevel:
    """One column of the table: ``level`` is a stable key ("set", "1".."4", "hotel", or the
    number owned), ``label`` its words, ``per_roll`` the exact expected rent per roll."""

    level: str
    label: str
    per_roll: Fraction


@dataclass(frozen=True)
class RentRow:
    """One group: a street set, the railroads or the utilities."""

    group: str
    name: str
    kind: str  # "street", "railroad" or "utility"
    squares: tuple[int, ...]
    house_cost: int
    levels: tuple[RentLevel, ...]


def rent_per_roll(res: LandingResult) -> list[RentRow]:
    """The expected rent per opponent roll of every group of the edition, in board order."""
    ed = res.edition
    r = ed.rules
    fresh = Fraction(r.dice * (r.die_sides + 1), 2)  # the expected total of a fresh roll
    # The expected roll a utility's rent multiplies on landing when it is not the move's own.
    landing_roll = Fraction(r.die_sides + 1, 2) if r.utility_rent_dice == "one_die" else fresh
    rows: list[RentRow] = []
    for g in ed.groups:
        members = g.members
        if g.kind == STREET:
            levels = [
                RentLevel(
                    "set",
                    "set",
                    sum(
                        (res.squares[s] * ed.rent[s][0] * r.set_rent_multiplier for s in members),
                        Fraction(0),
                    ),
                )
            ]
            if r.buildings:
                for h in range(1, 6):
                    name = (
                        ed.names.hotel if h == 5 else f"{h} {ed.names.house}{'s' if h > 1 else ''}"
                    )
                    levels.append(
                        RentLevel(
                            "hotel" if h == 5 else str(h),
                            name,
                            sum((res.squares[s] * ed.rent[s][h] for s in members), Fraction(0)),
                        )
                    )
            kind = "street"
        elif g.kind == RAILROAD:
            # A card arrival pays its multiple of the rent: weight each square accordingly.
            weight = sum(
                (
                    res.squares[s]
                    + sum((p * (m - 1) for m, p in res.nearest[s].items()), Fraction(0))
                    for s in members
                ),
                Fraction(0),
            )
            levels = [
                RentLevel(
                    str(k),
                    f"{k} owned",
                    weight
                    * r.railroad_rents[min(k, len(r.railroad_rents)) - 1]
                    * Fraction(k, len(members)),
                )
                for k in range(1, len(members) + 1)
            ]
            kind = "railroad"
        elif g.kind == UTILITY:
            levels = []
            for k in range(1, len(members) + 1):
                mult = r.utility_multipliers[min(k, len(r.utility_multipliers)) - 1]
                total = Fraction(0)
                for s in members:
                    by_card = sum(res.nearest[s].values(), Fraction(0))
                    if r.utility_rent_dice == "move":
                        total += mult * res.dice_weighted[s]
                    else:
                        total += mult * landing_roll * (res.squares[s] - by_card)
                    total += sum((p * m * fresh for m, p in res.nearest[s].items()), Fraction(0))
                levels.append(RentLevel(str(k), f"{k} owned", total * Fraction(k, len(members))))
            kind = "utility"
        else:  # pragma: no cover - groups are streets, railroads or utilities
            continue
        rows.append(RentRow(g.id, g.name, kind, members, g.house_cost, tuple(levels)))
    return rows
