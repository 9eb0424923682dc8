"""The Monopoly rule options a table may set for one game (``GameFamily.rule_options``).

Every rule option of an edition is a field of :class:`~meeple.games.monopoly.edition.RulesModel`
and an edition file may set any of them. A table changing the rules for one game sets fewer:
the house rules people play and the rulebook readings meeple made an option of, listed in
:data:`PER_GAME`. Each option's kind and the values it allows come from the model's field (a
yes/no, a whole number with the field's bounds, one of the field's words), so they cannot drift
from what the engine accepts; its default is the edition's value. An option is offered only
for an edition where it means something (no utility die on a board without utilities).

Left to the edition file (``meeple editions export ID``, then ``--edition-file``) because
changing them makes another game rather than playing this one differently (docs/EDITIONS.md,
"Rule options per game"):

- the player range (``min_players``, ``max_players``);
- the printed components: the houses and hotels in the box, the dice and their faces, the
  printed amounts (GO's salary, the jail fine, railroad rents and utility multipliers, the set
  rent and snowflake multipliers, the mortgage interest and the buildings' sale price);
- what the edition is built around: buildings, mortgages, trading, ``must_buy`` and what an
  unaffordable deed does, insolvency, the jail or Time Out, the end condition, the ranking,
  the sold signs;
- engine limits that are no rule of the rulebook (trade offers and counter-offers per turn,
  tries in jail, doubles to jail, the opening bids).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from annotated_types import Ge, Le

from meeple.games.monopoly.edition import RulesModel
from meeple.games.monopoly.tables import FREE_PARKING, UTILITY, Edition
from meeple.kernel.options import RuleKind, RuleOption

HOUSE_RULES: Final = "House rules"
READINGS: Final = "Rulebook readings"


def _always(ed: Edition) -> bool:
    return True


@dataclass(frozen=True)
class PerGame:
    """A rule option offered per game: the model field ``name`` with words for people."""

    name: str
    label: str
    group: str
    description: str
    #: The words for each of a choice's values, in the model's order.
    choice_labels: tuple[str, ...] = ()
    #: An upper bound the model leaves open, to keep a game's numbers sane.
    maximum: int | None = None
    #: Whether the option means something in an edition.
    applies: Callable[[Edition], bool] = _always


PER_GAME: Final[tuple[PerGame, ...]] = (
    PerGame(
        "start_player",
        "Who starts",
        READINGS,
        "Who takes the first turn: the highest roll of the dice, a seat drawn at random (the "
        "youngest player, in My First Monopoly), or Player 1.",
        choice_labels=("the highest roll", "a seat drawn at random", "Player 1"),
    ),
    PerGame(
        "free_parking_money",
        "Free Parking money",
        HOUSE_RULES,
        "Taxes, fines and card payments to the bank go into a pot on Free Parking; whoever "
        "lands there takes it.",
        applies=lambda ed: FREE_PARKING in ed.kind,
    ),
    PerGame(
        "rent_claim_required",
        "Owners must ask for rent",
        HOUSE_RULES,
        "Rent is paid only if the owner asks for it in time (the rulebooks' letter: before "
        "the next player rolls; in classic, before the second player following rolls).",
    ),
    PerGame(
        "auctions",
        "Auctions",
        HOUSE_RULES,
        "A deed the player who lands on it does not buy is auctioned; off: it stays with the bank.",
        applies=lambda ed: not ed.rules.must_buy,
    ),
    PerGame(
        "starting_cash",
        "Starting money",
        HOUSE_RULES,
        "The money each player starts with.",
        maximum=1_000_000,
    ),
    PerGame(
        "doubles_roll_again",
        "Doubles roll again",
        HOUSE_RULES,
        "A double gives another roll; too many in a row go to jail.",
        applies=lambda ed: ed.rules.dice == 2,
    ),
    PerGame(
        "utility_rent_dice",
        "Utility rent dice",
        READINGS,
        "What a utility's rent multiplies: the dice of the move, or dice rolled on landing "
        "(the Friends rulebooks have the lander roll).",
        choice_labels=(
            "the dice of the move",
            "a fresh roll of the dice",
            "a fresh roll of one die",
        ),
        applies=lambda ed: UTILITY in ed.kind,
    ),
    PerGame(
        "set_rent_needs_all_unmortgaged",
        "Set rent needs no mortgage",
        READINGS,
        "A whole colour group doubles its rent only while none of its streets is mortgaged "
        "(Friends rulebook B); off: the classic rule.",
        applies=lambda ed: ed.rules.mortgages,
    ),
    PerGame(
        "jail_doubles_extra_roll",
        "Roll again after doubles out of jail",
        READINGS,
        "Leaving jail by rolling a double gives another roll.",
        applies=lambda ed: ed.rules.dice == 2 and ed.rules.jail_style == "jail",
    ),
)


def _kind(name: str) -> tuple[RuleKind, tuple[str, ...], int | None, int | None]:
    """A model field's kind, its choices and its bounds."""
    field = RulesModel.model_fields[name]
    annotation = field.annotation
    if annotation is bool:
        return "bool", (), None, None
    if typing.get_origin(annotation) is typing.Literal:
        return "choice", tuple(str(a) for a in typing.get_args(annotation)), None, None
    if annotation is int:
        # (The bounds are ints here: the model's Field(ge=..., le=...) of an int field.)
        low = next((cast(int, m.ge) for m in field.metadata if isinstance(m, Ge)), None)
        high = next((cast(int, m.le) for m in field.metadata if isinstance(m, Le)), None)
        return "int", (), low, high
    raise TypeError(f"rule option {name} is not a yes/no, a number or a choice")


def rule_options(ed: Edition) -> list[RuleOption]:
    """The options a table may set for a game of ``ed``, with ``ed``'s values as defaults."""
    out = []
    for item in PER_GAME:
        if not item.applies(ed):
            continue
        kind, choices, low, high = _kind(item.name)
        if item.maximum is not None:
            high = item.maximum if high is None else min(high, item.maximum)
        default = getattr(ed.rules, item.name)
        out.append(
            RuleOption(
                item.name,
                item.label,
                kind,
                default,
                item.description,
                item.group,
                choices,
                item.choice_labels,
                low,
                high,
            )
        )
    return out
