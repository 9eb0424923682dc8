"""Monopoly editions as data: the file format, its validation, and the compiled tables.

An edition file (TOML, see ``editions/classic.toml`` and ``docs/EDITIONS.md``) holds the board,
the deeds, the decks, the display names and the rule options. :func:`load_edition` validates it
and compiles it into an :class:`Edition`: flat, precomputed tables the rules read in the play
loop (rent by square and level, group membership, the next railroad from each square). Errors
name the file, the field and the reason, and nothing starts from a malformed file.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple.games.monopoly.catalog import builtin_edition_ids as builtin_edition_ids
from meeple.games.monopoly.tables import (
    KIND_NAMES,
    OP_NAMES,
    Edition,
)
from meeple.kernel.errors import EditionError
from meeple.kernel.files import UnreadableFile, read_text

# The names a file may use; the same, in the same order, as the tables' codes.
SquareKind = Literal[
    "go",
    "street",
    "railroad",
    "utility",
    "tax",
    "card",
    "jail",
    "free_parking",
    "go_to_jail",
    "element",
    "snowflake",
]
CardOp = Literal[
    "move_to",
    "move_to_nearest",
    "move_relative",
    "go_to_jail",
    "bank_pays",
    "pay_bank",
    "pay_each_player",
    "collect_from_each_player",
    "repairs",
    "get_out_of_jail_free",
    "snowflake",
]
assert get_args(SquareKind) == KIND_NAMES and get_args(CardOp) == OP_NAMES


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesModel(_Strict):
    """Rule options. Defaults are the classic rules (``docs/RULES.md`` gives each source)."""

    min_players: int = Field(2, ge=2, le=8, description="Fewest seats (2-8).")
    max_players: int = Field(8, ge=2, le=8, description="Most seats (2-8).")
    start_player: Literal["roll_off", "random", "first_seat"] = Field(
        "roll_off",
        description=(
            'Who takes the first turn: `"roll_off"`, each player rolls the dice and the '
            'highest total starts (the tied highest roll again); `"random"`, a seat drawn '
            "at random (My First Monopoly's youngest player: the engine knows no ages); "
            '`"first_seat"`, seat 1. Shown in the log either way.'
        ),
    )
    starting_cash: int = Field(1500, ge=0, description="Cash each player starts with.")
    go_salary: int = Field(200, ge=0, description="Paid for passing or landing on GO.")
    jail_fine: int = Field(50, ge=0, description="The fine to leave jail / Time Out.")
    max_jail_turns: int = Field(
        3,
        ge=1,
        description=(
            "Tries at doubles in jail; after the last miss pay the fine and move by that "
            'roll. Not used with `jail_style = "time_out"`.'
        ),
    )
    houses: int = Field(
        32,
        ge=0,
        description=(
            "Houses in the bank; buildings beyond the stock are impossible, contested ones "
            "are auctioned."
        ),
    )
    hotels: int = Field(12, ge=0, description="Hotels in the bank.")
    dice: int = Field(
        2, ge=1, le=2, description="Dice rolled (1 or 2). With one die there are no doubles."
    )
    die_sides: int = Field(6, ge=2, description="Faces per die.")
    doubles_roll_again: bool = Field(True, description="Doubles give another roll.")
    doubles_to_jail: int = Field(
        3,
        ge=1,
        description=("Doubles in a row that send you to jail (the last roll is not moved)."),
    )
    jail_doubles_extra_roll: bool = Field(
        False, description="Leaving jail on doubles gives another roll."
    )
    jail_fine_on_last_try: bool = Field(
        False,
        description=(
            "The fine may be paid before rolling on any turn in jail, the last included "
            '(Friends, Frozen II: "Pay M50 at the start of your next turn"). False, the '
            'classic rule: "paying a fine of $50 before you roll the dice on either of your '
            'next two turns"; on the last try you roll, and pay after a miss.'
        ),
    )
    railroad_rents: list[int] = Field(
        default_factory=lambda: [25, 50, 100, 200], description="Railroad rent by number owned."
    )
    utility_multipliers: list[int] = Field(
        default_factory=lambda: [4, 10], description="Utility dice multiplier by number owned."
    )
    set_rent_multiplier: int = Field(
        2, ge=1, description=("Base rent multiplier on an unimproved street of a complete group.")
    )
    set_rent_needs_all_unmortgaged: bool = Field(
        False,
        description=(
            'The set rent needs every street of the group unmortgaged (Friends B: "and none '
            'of them are mortgaged"); false, the classic rule, keeps it on the unmortgaged ones.'
        ),
    )
    auction_min_bid: int = Field(1, ge=1, description="Lowest opening bid.")
    mortgage_interest_percent: int = Field(
        10,
        ge=0,
        description=(
            "Interest to lift a mortgage, and the fee for keeping a received mortgaged deed; "
            "rounded up."
        ),
    )
    building_sell_percent: int = Field(
        50, ge=0, le=100, description="Share of the cost a building sells back for (rounded down)."
    )
    rent_claim_required: bool = Field(
        False,
        description=(
            "Rent is owed only if the owner claims it in time (`rent_claim_turns`), else it "
            "is forgiven."
        ),
    )
    rent_claim_turns: int = Field(
        2,
        ge=1,
        description=(
            "With `rent_claim_required`, a claim is lost at the roll of the Nth player after "
            'the one who owes it: 2, the classic rule ("before the second player following '
            'throws the dice"); 1, Friends and Frozen II ("before the next player rolls").'
        ),
    )
    free_parking_money: bool = Field(
        False,
        description=(
            "House rule: taxes, fines and card payments to the bank go into a pot on Free "
            "Parking, which the next player to land there takes (the Frozen II rulebook's Top "
            'Tips advise against it: "Never put cash in the center of the board").'
        ),
    )
    utility_rent_dice: Literal["move", "fresh", "one_die"] = Field(
        "move",
        description=(
            '`"move"`: a utility\'s rent multiplies the dice of the move; `"fresh"`: the '
            'lander rolls the dice again (Friends rulebook B); `"one_die"`: the lander rolls '
            'one die (Friends rulebook A read to the letter: "you will roll the die").'
        ),
    )
    max_trade_offers_per_window: int = Field(
        1, ge=0, description="Trade offers a player may open per turn."
    )
    max_counter_offers: int = Field(
        2, ge=0, description="Counter-offers allowed in one negotiation."
    )
    auctions: bool = Field(
        True, description=("Declined deeds are auctioned (false: they stay with the bank).")
    )
    buildings: bool = Field(True, description="Houses and hotels exist.")
    mortgages: bool = Field(True, description="Mortgaging exists.")
    trading: bool = Field(True, description="Players may trade.")
    building_auction_min_bid: int | None = Field(
        None,
        ge=1,
        description=("Lowest opening bid in a building-shortage auction; none: `auction_min_bid`."),
    )
    must_buy: bool = Field(
        False, description="An unowned deed you land on must be bought when you can."
    )
    unaffordable_property: Literal["stays_unsold", "insolvent"] = Field(
        "stays_unsold",
        description=(
            'With `must_buy`, too little cash: the deed stays unsold, or (`"insolvent"`) you '
            "are insolvent. Running out of sold signs always leaves it unsold."
        ),
    )
    insolvency: Literal["raise_or_bankrupt", "forgive", "ends_game"] = Field(
        "raise_or_bankrupt",
        description=(
            'A payment you cannot make: raise money or go bankrupt (classic); `"forgive"`: '
            'nothing is paid (MFM-1); `"ends_game"`: you are bankrupt and the game ends '
            "(MFM-2)."
        ),
    )
    jail_style: Literal["jail", "time_out"] = Field(
        "jail",
        description=(
            '`"jail"`: three tries at doubles, pay or use a card. `"time_out"`: at the start '
            "of your next turn pay the fine or use a card, then roll; no tries at doubles."
        ),
    )
    time_out_broke: Literal["free", "insolvent"] = Field(
        "free",
        description=(
            'In Time Out with neither the fine nor a card: leave free, or (`"insolvent"`) be '
            "insolvent."
        ),
    )
    end_condition: Literal["last_player_standing", "all_properties_owned", "first_bankruptcy"] = (
        Field(
            "last_player_standing",
            description=(
                '`"all_properties_owned"`: the game ends when the last deed is bought. '
                '`"first_bankruptcy"`: ends at the first bankruptcy (pair it with `insolvency = '
                '"ends_game"`, which is what ends the game).'
            ),
        )
    )
    ranking: Literal["net_worth", "properties_then_cash", "cash_then_properties"] = Field(
        "net_worth",
        description=(
            'Order at the end: `"net_worth"`, `"properties_then_cash"` (MFM-1), '
            '`"cash_then_properties"` (MFM-2). A bankrupt player ranks last.'
        ),
    )
    max_properties_per_player: int | None = Field(
        None, ge=1, description="Sold signs per player; with none left you cannot buy."
    )
    snowflake_multiplier: int = Field(
        2, ge=1, description="Rent multiplier when the snowflake melts."
    )


class NamesModel(_Strict):
    """What the edition calls the engine's things, for people only (a sofa is a hotel, Time Out
    is jail): the log, replays, the terminal and the web page say these words."""

    house: str = "house"
    hotel: str = "hotel"
    jail: str = "Jail"
    #: The Get Out of Jail Free card's printed name, without "card" (My First Monopoly: "Get
    #: out of Time Out Free").
    jail_card: str = "Get Out of Jail Free"
    #: The same card in a few words ("a Chance jail card"; My First Monopoly: "Time Out card").
    jail_card_short: str = "jail card"


class GroupModel(_Strict):
    id: str
    name: str
    color: str = "#888888"
    assumed: bool = False


class SquareModel(_Strict):
    name: str
    kind: SquareKind
    group: str | None = None
    price: int | None = Field(None, ge=0)
    mortgage: int | None = Field(None, ge=0)
    rent: list[int] | None = None
    house_cost: int | None = Field(None, ge=0)
    amount: int | None = Field(None, ge=0)
    deck: str | None = None
    assumed: bool = False


class CardModel(_Strict):
    id: str
    text: str
    op: CardOp
    target: int | None = None
    kind: Literal["railroad", "utility", "element"] | None = None
    rent_multiplier: int | None = Field(None, ge=1)
    dice_multiplier: int | None = Field(None, ge=1)
    steps: int | None = None
    amount: int | None = Field(None, ge=0)
    per_house: int | None = Field(None, ge=0)
    per_hotel: int | None = Field(None, ge=0)
    assumed: bool = False


class DeckModel(_Strict):
    id: str
    name: str
    cards: list[CardModel]


class AskingModel(_Strict):
    """When a person at the table is asked in this edition, where the printed turn differs from
    the front ends' rule (``meeple.kernel.asking``; each person may change it at the table).
    Left out (None): the front end's. My First Monopoly sets ``own_turn = "roll"``: the child
    rolls the die, the one act its turn gives the player ("On Your Turn: 1. Roll the die")."""

    own_turn: Literal["build", "roll", "always"] | None = None
    others_turns: Literal["never", "build", "always"] | None = None


class EditionModel(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    description: str = ""
    currency: str = "$"
    sources: list[str] = Field(default_factory=list)
    names: NamesModel = Field(default_factory=NamesModel)
    asking: AskingModel = Field(default_factory=AskingModel)
    rules: RulesModel = Field(default_factory=RulesModel)  # type: ignore[arg-type]
    groups: list[GroupModel]
    squares: list[SquareModel]
    decks: list[DeckModel] = Field(default_factory=list)


_Fail = Callable[[str, str], None]
"""How a check reports a broken rule: ``fail(field, reason)`` raises :class:`EditionError`."""


def _check(model: EditionModel, file: str) -> None:
    """Semantic checks the schema cannot express. Raises :class:`EditionError`."""

    def fail(field: str, reason: str) -> None:
        raise EditionError(file, field, reason)

    _check_rules(model.rules, fail)
    group_ids, deck_ids, kinds = _check_board(model, fail)
    group_kind: dict[str, str] = {}
    for i, s in enumerate(model.squares):
        _check_square(model.rules, f"squares[{i}]", s, group_ids, deck_ids, group_kind, fail)
    _check_groups(model, fail)
    _check_decks(model, kinds, fail)


def _check_rules(r: RulesModel, fail: _Fail) -> None:
    """The rule options agree with each other."""
    if r.min_players > r.max_players:
        fail("rules.min_players", "is greater than rules.max_players")
    if (r.end_condition == "first_bankruptcy") != (r.insolvency == "ends_game"):
        fail("rules.end_condition", '"first_bankruptcy" goes with insolvency = "ends_game"')
    for option in ("unaffordable_property", "time_out_broke"):
        if getattr(r, option) == "insolvent" and r.insolvency != "ends_game":
            fail(f"rules.{option}", '"insolvent" needs insolvency = "ends_game"')
    if len(r.railroad_rents) < 1:
        fail("rules.railroad_rents", "needs one rent per number of railroads owned")
    if len(r.utility_multipliers) < 1:
        fail("rules.utility_multipliers", "needs one multiplier per number of utilities owned")


def _check_board(model: EditionModel, fail: _Fail) -> tuple[list[str], list[str], list[str]]:
    """The board's size, GO and one jail, unique group and deck ids; returns the group ids, the
    deck ids and the squares' kinds."""
    n = len(model.squares)
    if n < 4:
        fail("squares", f"a board needs at least 4 squares, got {n}")
    group_ids = [g.id for g in model.groups]
    if len(set(group_ids)) != len(group_ids):
        fail("groups", "group ids must be unique")
    deck_ids = [d.id for d in model.decks]
    if len(set(deck_ids)) != len(deck_ids):
        fail("decks", "deck ids must be unique")
    kinds: list[str] = [s.kind for s in model.squares]
    if kinds[0] != "go":
        fail("squares[0].kind", "square 0 must be GO")
    if kinds.count("jail") != 1:
        fail("squares", f"the board needs exactly one jail square, found {kinds.count('jail')}")
    return group_ids, deck_ids, kinds


def _check_square(
    r: RulesModel,
    where: str,
    s: SquareModel,
    group_ids: list[str],
    deck_ids: list[str],
    group_kind: dict[str, str],
    fail: _Fail,
) -> None:
    """One square has what its kind needs (``group_kind``: the kind of each group seen so far)."""
    if s.kind in ("street", "railroad", "utility"):
        if s.group is None:
            fail(f"{where}.group", f"a {s.kind} needs a group")
        elif s.group not in group_ids:
            fail(f"{where}.group", f"unknown group {s.group!r}")
        elif group_kind.setdefault(s.group, s.kind) != s.kind:
            fail(f"{where}.group", f"group {s.group!r} mixes {group_kind[s.group]} and {s.kind}")
        if s.price is None or s.price <= 0:
            fail(f"{where}.price", f"a {s.kind} needs a price above 0")
        if s.mortgage is None and r.mortgages:
            fail(f"{where}.mortgage", f"a {s.kind} needs a mortgage value")
    elif s.group is not None:
        fail(f"{where}.group", f"a {s.kind} square has no group")
    if s.kind == "street":
        if r.buildings and (s.rent is None or len(s.rent) != 6):
            fail(f"{where}.rent", "a street needs 6 rents: base, 1-4 houses, hotel")
        elif s.rent is None or len(s.rent) not in (1, 6):
            fail(f"{where}.rent", "a street needs its base rent (or 6 rents with buildings)")
        elif any(x < 0 for x in s.rent):
            fail(f"{where}.rent", "rents cannot be negative")
        if s.house_cost is None and r.buildings:
            fail(f"{where}.house_cost", "a street needs a house cost")
    elif s.rent is not None:
        fail(f"{where}.rent", f"a {s.kind} square takes no rent list")
    if s.kind == "tax" and s.amount is None:
        fail(f"{where}.amount", "a tax square needs an amount")
    if s.kind == "card":
        if s.deck is None:
            fail(f"{where}.deck", "a card square needs a deck")
        elif s.deck not in deck_ids:
            fail(f"{where}.deck", f"unknown deck {s.deck!r}")


def _check_groups(model: EditionModel, fail: _Fail) -> None:
    """Each group has squares, which share a house cost."""
    for g in model.groups:
        members = [i for i, s in enumerate(model.squares) if s.group == g.id]
        if not members:
            fail(f"groups.{g.id}", "no square belongs to this group")
        costs = {model.squares[i].house_cost for i in members}
        if len(costs) > 1:
            fail(f"groups.{g.id}", f"streets of one group must share a house cost, got {costs}")


def _check_decks(model: EditionModel, kinds: list[str], fail: _Fail) -> None:
    """Each deck has cards with unique ids, each card with what its op needs."""
    r = model.rules
    n = len(model.squares)
    for d in model.decks:
        if not d.cards:
            fail(f"decks.{d.id}.cards", "a deck needs at least one card")
        ids = [c.id for c in d.cards]
        if len(set(ids)) != len(ids):
            fail(f"decks.{d.id}.cards", "card ids must be unique within a deck")
        for j, c in enumerate(d.cards):
            where = f"decks.{d.id}.cards[{j}]"
            need = {
                "move_to": ["target"],
                "move_to_nearest": ["kind"],
                "move_relative": ["steps"],
                "bank_pays": ["amount"],
                "pay_bank": ["amount"],
                "pay_each_player": ["amount"],
                "collect_from_each_player": ["amount"],
                "repairs": ["per_house", "per_hotel"],
            }.get(c.op, [])
            for f in need:
                if getattr(c, f) is None:
                    fail(f"{where}.{f}", f"a {c.op} card needs {f}")
            if c.op == "move_to" and not 0 <= (c.target or 0) < n:
                fail(f"{where}.target", f"square {c.target} is not on the {n}-square board")
            if c.op == "move_to_nearest" and c.kind not in kinds:
                fail(f"{where}.kind", f"the board has no {c.kind} square")
            if c.op == "repairs" and not r.buildings:
                fail(f"{where}.op", "a repairs card needs rules.buildings")


def parse_edition(data: dict[str, Any], file: str) -> Edition:
    """Validate edition data (already parsed from TOML or JSON) and compile it."""
    try:
        model = EditionModel.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in err["loc"])
        raise EditionError(file, loc.replace(".[", "[") or "(top level)", err["msg"]) from None
    _check(model, file)
    return Edition(model, file)


def load_edition_file(path: str | Path) -> Edition:
    """Load and validate an edition file (TOML, or JSON if it ends in ``.json``)."""
    p = Path(path)
    try:
        text = read_text(p)
    except UnreadableFile as exc:
        raise EditionError(str(p), "(file)", exc.reason) from None
    try:
        if p.suffix == ".json":
            import json

            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except ValueError as exc:
        raise EditionError(str(p), "(syntax)", str(exc)) from None
    if not isinstance(data, dict):
        raise EditionError(str(p), "(top level)", "must be a table of fields")
    return parse_edition(data, str(p))


@cache
def builtin_edition(edition_id: str) -> Edition:
    """A shipped edition by id (cached: editions are immutable)."""
    folder = resources.files("meeple.games.monopoly") / "editions"
    f = folder / f"{edition_id}.toml"
    data = tomllib.loads(f.read_text(encoding="utf-8"))
    return parse_edition(data, f"editions/{edition_id}.toml")


def with_rule_overrides(edition: Edition, overrides: Any) -> Edition:
    """``edition`` with the rule options a game's ``options["rules"]`` sets (checked by the
    same model as an edition file, and named in the error: ``options.rules.KEY: ...``).

    The answer is kept for the same edition object and overrides (:data:`_OVERRIDDEN`): it is
    asked for every game, and working it out parses the whole edition again (about half a
    millisecond, more than a simulated game of four standard bots takes). An edition is never
    changed once made, so games share it as they share a built-in one."""
    if not overrides:
        return edition
    if not isinstance(overrides, dict):
        raise ValueError("options.rules must be a table of rule options")
    try:
        key = (id(edition), json.dumps(overrides, sort_keys=True))
    except (TypeError, ValueError):  # (not JSON: the model refuses it below)
        key = None
    kept = _OVERRIDDEN.get(key) if key is not None else None
    if kept is not None and kept[0] is edition:  # (an id is reused only after its object died)
        return kept[1]
    out = _overridden(edition, overrides)
    if key is not None:
        if len(_OVERRIDDEN) >= _OVERRIDDEN_MAX:
            _OVERRIDDEN.clear()
        _OVERRIDDEN[key] = (edition, out)
    return out


_OVERRIDDEN: dict[tuple[int, str], tuple[Edition, Edition]] = {}
""":func:`with_rule_overrides`' answers, by the edition's identity and the overrides as JSON;
each holds its edition, so the identity stays that edition's while it is kept."""
_OVERRIDDEN_MAX = 64  # (a server's games with house rules: a few sets of options each)


def _overridden(edition: Edition, overrides: dict[str, Any]) -> Edition:
    """:func:`with_rule_overrides` worked out."""
    merged = {**edition.model.rules.model_dump(), **overrides}
    try:
        RulesModel.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise ValueError(f"options.rules.{loc}: {err['msg']}") from None
    data = edition.model.model_dump()
    data["rules"] = merged
    return parse_edition(data, edition.source)
