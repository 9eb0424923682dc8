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


def test_a_fresh_roll_of_one_die_halves_the_friends_utility_rent_off_the_card() -> None:
    """``utility_rent_dice = "one_die"`` (Friends rulebook A to the letter): a landing pays the
    multiplier times one die's expected 3.5, not two dice's 7; an arrival by the "nearest
    utility" card keeps the card's own roll of the dice."""
    from meeple.games.monopoly.edition import with_rule_overrides

    two = builtin_edition("friends")
    one = with_rule_overrides(two, {"utility_rent_dice": "one_die"})
    res_two, res_one = landing_analysis(two, "long"), landing_analysis(one, "long")
    assert res_two.squares == res_one.squares  # the option changes no move
    util_two = next(r for r in rent_per_roll(res_two) if r.kind == "utility")
    util_one = next(r for r in rent_per_roll(res_one) if r.kind == "utility")
    for lv_two, lv_one, mult in zip(util_two.levels, util_one.levels, (4, 10), strict=True):
        by_card = sum(
            (p for s in util_two.squares for p in res_two.nearest[s].values()), Fraction(0)
        )
        card = 10 * 7 * by_card
        k = int(lv_two.level)
        share = Fraction(k, len(util_two.squares))
        landed = sum((res_two.squares[s] for s in util_two.squares), Fraction(0)) - by_card
        assert lv_two.per_roll == share * (mult * 7 * landed + card)
        assert lv_one.per_roll == share * (mult * Fraction(7, 2) * landed + card)
