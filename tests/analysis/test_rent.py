"""Expected rent per opponent roll, from the exact landing shares."""

from __future__ import annotations

from fractions import Fraction

from meeple.analysis.landing import landing_analysis
from meeple.analysis.rent import rent_per_roll
from meeple.games.monopoly.edition import builtin_edition


def test_classic_rent_per_roll_by_set_and_level() -> None:
    ed = builtin_edition("classic")
    res = landing_analysis(ed, "long")
    rows = {r.group: r for r in rent_per_roll(res)}
    orange = rows["orange"]
    assert [lv.level for lv in orange.levels] == ["set", "1", "2", "3", "4", "hotel"]
    hotel = sum((res.squares[s] * ed.rent[s][5] for s in orange.squares), Fraction(0))
    assert orange.levels[-1].per_roll == hotel
    assert orange.levels[0].per_roll == 2 * sum(
        (res.squares[s] * ed.rent[s][0] for s in orange.squares), Fraction(0)
    )
    # Each level pays more than the one before.
    for r in rows.values():
        values = [lv.per_roll for lv in r.levels]
        assert values == sorted(values)
    # Green pays the most per roll with a hotel (classic's well-known ranking by rent alone).
    streets = [r for r in rows.values() if r.kind == "street"]
    assert max(streets, key=lambda r: r.levels[-1].per_roll).group == "green"


def test_railroads_pay_double_on_the_nearest_railroad_card() -> None:
    ed = builtin_edition("classic")
    res = landing_analysis(ed, "long")
    rail = next(r for r in rent_per_roll(res) if r.kind == "railroad")
    all4 = rail.levels[-1].per_roll
    plain = 200 * sum((res.squares[s] for s in rail.squares), Fraction(0))
    card = 200 * sum((p for s in rail.squares for p in res.nearest[s].values()), Fraction(0))
    assert all4 == plain + card  # a card arrival pays 2x: once more than a plain landing
    assert card > 0


def test_utilities_use_the_dice_of_the_roll() -> None:
    ed = builtin_edition("classic")
    res = landing_analysis(ed, "long")
    util = next(r for r in rent_per_roll(res) if r.kind == "utility")
    for s in util.squares:
        by_dice = res.squares[s] - sum(res.nearest[s].values(), Fraction(0))
        mean_roll = res.dice_weighted[s] / by_dice
        assert 2 < mean_roll < 12
    assert util.levels[1].per_roll > util.levels[0].per_roll > 0


def test_editions_without_buildings_have_the_set_level_only() -> None:
    res = landing_analysis(builtin_edition("my-first-monopoly-2"), "short")
    rows = rent_per_roll(res)
    assert rows and all([lv.level for lv in r.levels] == ["set"] for r in rows)
