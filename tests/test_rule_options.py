"""Rule options per game (issue 20): each family lists the rules a table may set for one game
(``GameFamily.rule_options``) as plain data, with the edition's value as the default, and
``meeple.kernel.options`` parses and checks values by kind so every driver refuses a bad one in
the same words."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.bots.base import make_bot
from meeple.kernel.family import family_of, game_ids, new_game
from meeple.kernel.options import (
    RuleOption,
    check_rules,
    parse_rule_args,
    rules_in_force,
)


def options_of(game: str, options: dict[str, Any] | None = None) -> dict[str, RuleOption]:
    return {o.name: o for o in family_of(game).rule_options(game, options or {})}


def test_classic_offers_the_house_rules_and_readings_with_its_values() -> None:
    """The per-game list (games/monopoly/house_rules.PER_GAME), each with its kind, bounds and
    classic's value as the default; structural options (players, components) are not in it."""
    got = options_of("classic")
    assert list(got) == [
        "start_player",
        "free_parking_money",
        "rent_claim_required",
        "auctions",
        "starting_cash",
        "doubles_roll_again",
        "utility_rent_dice",
        "set_rent_needs_all_unmortgaged",
        "jail_doubles_extra_roll",
    ]
    assert got["free_parking_money"].kind == "bool" and got["free_parking_money"].default is False
    assert got["auctions"].default is True
    cash = got["starting_cash"]
    assert (cash.kind, cash.default, cash.minimum, cash.maximum) == ("int", 1500, 0, 1_000_000)
    dice = got["utility_rent_dice"]
    assert dice.kind == "choice" and dice.choices == ("move", "fresh", "one_die")
    assert dice.default == "move" and len(dice.choice_labels) == 3
    assert {o.group for o in got.values()} == {"House rules", "Rulebook readings"}
    start = got["start_player"]
    assert start.choices == ("roll_off", "random", "first_seat") and start.default == "roll_off"
    assert options_of("my-first-monopoly-1")["start_player"].default == "random"
    assert not {"min_players", "houses", "dice", "buildings", "trading"} & set(got)


def test_the_defaults_are_each_editions_own() -> None:
    """Friends rolls fresh dice for a utility's rent (its rulebook B), classic the move's."""
    assert options_of("friends")["utility_rent_dice"].default == "fresh"
    assert options_of("my-first-monopoly-1")["starting_cash"].default == 10


def test_an_option_is_offered_only_where_it_means_something() -> None:
    """My First Monopoly: one die (no doubles), no utilities, no mortgages, every deed must be
    bought (no auctions), Time Out instead of jail; Frozen II has no utilities."""
    kids = options_of("my-first-monopoly-2")
    assert set(kids) == {
        "start_player",
        "free_parking_money",
        "rent_claim_required",
        "starting_cash",
    }
    assert "utility_rent_dice" not in options_of("frozen-ii")


def test_an_edition_given_as_data_gives_its_own_defaults() -> None:
    from meeple.games.monopoly.edition import builtin_edition

    data = builtin_edition("classic").model.model_dump(mode="json", exclude_none=True)
    data["rules"]["starting_cash"] = 2500
    assert options_of("classic", {"edition": data})["starting_cash"].default == 2500


def test_monopolis_offers_who_starts_alone() -> None:
    """Decided (the Monopolis family's rule_options): "Choose a starting player" is the
    table's; no other reading is left open, and the components have their own file."""
    got = options_of("monopolis")
    assert list(got) == ["start_player"] and got["start_player"].default == "random"
    assert got["start_player"].choices == ("random", "first_seat")
    with pytest.raises(ValueError, match="monopolis has no rule options to set"):
        parse_rule_args([], ["max_turns=3"], "monopolis")
    with pytest.raises(ValueError, match="no rule option 'max_turns'"):
        parse_rule_args(list(got.values()), ["max_turns=3"], "monopolis")


def test_command_line_values_are_parsed_by_kind() -> None:
    known = list(options_of("classic").values())
    args = ["free_parking_money=true", "auctions=off", "starting_cash=2000"]
    got = parse_rule_args(known, [*args, "utility_rent_dice=fresh"], "classic")
    assert got == {
        "free_parking_money": True,
        "auctions": False,
        "starting_cash": 2000,
        "utility_rent_dice": "fresh",
    }


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("free_parking_money=maybe", "rule free_parking_money takes true or false, not 'maybe'"),
        ("starting_cash=lots", "rule starting_cash takes a whole number from 0 to 1000000"),
        ("starting_cash=-5", "rule starting_cash takes a whole number from 0 to 1000000"),
        ("utility_rent_dice=two", "rule utility_rent_dice takes one of move, fresh, one_die"),
        ("houses=12", "classic has no rule option 'houses'; its options: start_player"),
        ("auctions", "--rule takes NAME=VALUE"),
    ],
)
def test_a_bad_command_line_value_names_the_option_and_what_it_takes(
    arg: str, message: str
) -> None:
    known = list(options_of("classic").values())
    with pytest.raises(ValueError) as info:
        parse_rule_args(known, [arg], "classic")
    assert message in str(info.value)


def test_json_values_keep_yes_no_and_numbers_apart() -> None:
    """JSON's true is not 1 (Python's bool is an int): a request is refused, not read."""
    known = list(options_of("classic").values())
    assert check_rules(known, {"auctions": False}, "classic") == {"auctions": False}
    with pytest.raises(ValueError, match="rule auctions takes true or false, not 0"):
        check_rules(known, {"auctions": 0}, "classic")
    with pytest.raises(ValueError, match="rule starting_cash takes a whole number"):
        check_rules(known, {"starting_cash": True}, "classic")
    with pytest.raises(ValueError, match="rules must be an object"):
        check_rules(known, ["auctions"], "classic")


@pytest.mark.parametrize("game", game_ids())
def test_every_listed_option_changed_plays(game: str) -> None:
    """Each option a family offers, set to every other value it takes (a number: its
    default + 1), makes a game the bots play 300 actions of: the list offers nothing the
    engine refuses."""
    for option in family_of(game).rule_options(game, {}):
        if option.kind == "bool":
            values: list[Any] = [not option.default]
        elif option.kind == "choice":
            values = [c for c in option.choices if c != option.default]
        else:
            values = [int(option.default) + 1]
        for value in values:
            s = new_game(game, 2, 7, {"rules": {option.name: value}})
            bot = make_bot("random", s.family, 7)
            for _ in range(300):
                if s.is_terminal():
                    break
                s.apply(bot.choose(s))


def test_the_rules_in_force_are_those_that_differ_from_the_edition() -> None:
    s = new_game(
        "classic",
        2,
        1,
        {"rules": {"free_parking_money": True, "auctions": True, "utility_rent_dice": "one_die"}},
    )
    assert rules_in_force(s) == [
        "Free Parking money: on (normally off)",
        "Utility rent dice: a fresh roll of one die (normally the dice of the move)",
    ]
    assert rules_in_force(new_game("classic", 2, 1)) == []
    assert rules_in_force(new_game("monopolis", 2, 1)) == []


def test_games_with_the_same_rules_share_one_overridden_edition() -> None:
    """The edition a game's rule options make is kept for the same edition and options (it is
    parsed again otherwise: half a millisecond a game); it holds the options, the edition it
    came from stays as it was, and other options make an edition of their own."""
    from meeple.games.monopoly import MonopolyState

    a = new_game("classic", 4, 1, {"rules": {"starting_cash": 2000}})
    b = new_game("classic", 4, 2, {"rules": {"starting_cash": 2000}})
    c = new_game("classic", 4, 3, {"rules": {"starting_cash": 1000}})
    plain = new_game("classic", 4, 4, {})
    assert isinstance(a, MonopolyState) and isinstance(b, MonopolyState)
    assert isinstance(c, MonopolyState) and isinstance(plain, MonopolyState)
    assert a.ed is b.ed and a.ed is not c.ed and a.ed is not plain.ed
    assert (a.rules.starting_cash, c.rules.starting_cash) == (2000, 1000)
    assert plain.rules.starting_cash == 1500 and plain.cash == [1500] * 4
    assert a.cash == [2000] * 4 and c.cash == [1000] * 4
    with pytest.raises(ValueError, match=r"options\.rules\.starting_cash"):
        new_game("classic", 4, 5, {"rules": {"starting_cash": -1}})
