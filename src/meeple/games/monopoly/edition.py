"""Monopoly editions as data: the file format, its validation, and the compiled tables.

An edition file (TOML, see ``editions/classic.toml`` and ``docs/EDITIONS.md``) holds the board,
the deeds, the decks, the display names and the rule options. :func:`load_edition` validates it
and compiles it into an :class:`Edition`: flat, precomputed tables the rules read in the play
loop (rent by square and level, group membership, the next railroad from each square). Errors
name the file, the field and the reason, and nothing starts from a malformed file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple.kernel.errors import EditionError

# Square kinds, as small ints for the play loop.
GO, STREET, RAILROAD, UTILITY, TAX, CARD, JAIL, FREE_PARKING, GO_TO_JAIL, ELEMENT, SNOWFLAKE = (
    range(11)
)
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
KIND_NAMES: tuple[str, ...] = get_args(SquareKind)  # in the order of the ints above
PROPERTY_KINDS = (STREET, RAILROAD, UTILITY)

# Card operations, as small ints.
(
    OP_MOVE_TO,
    OP_MOVE_TO_NEAREST,
    OP_MOVE_RELATIVE,
    OP_GO_TO_JAIL,
    OP_BANK_PAYS,
    OP_PAY_BANK,
    OP_PAY_EACH_PLAYER,
    OP_COLLECT_FROM_EACH_PLAYER,
    OP_REPAIRS,
    OP_GET_OUT_OF_JAIL_FREE,
    OP_SNOWFLAKE,
) = range(11)
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
OP_NAMES: tuple[str, ...] = get_args(CardOp)  # in the order of the ints above


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesModel(_Strict):
    """Rule options. Defaults are the classic rules (``docs/RULES.md`` gives each source)."""

    min_players: int = Field(2, ge=2, le=8)
    max_players: int = Field(8, ge=2, le=8)
    starting_cash: int = Field(1500, ge=0)
    go_salary: int = Field(200, ge=0)
    jail_fine: int = Field(50, ge=0)
    max_jail_turns: int = Field(3, ge=1)
    houses: int = Field(32, ge=0)
    hotels: int = Field(12, ge=0)
    dice: int = Field(2, ge=1, le=2)
    die_sides: int = Field(6, ge=2)
    doubles_roll_again: bool = True
    doubles_to_jail: int = Field(3, ge=1)
    jail_doubles_extra_roll: bool = False
    railroad_rents: list[int] = Field(default_factory=lambda: [25, 50, 100, 200])
    utility_multipliers: list[int] = Field(default_factory=lambda: [4, 10])
    set_rent_multiplier: int = Field(2, ge=1)
    set_rent_needs_all_unmortgaged: bool = True
    auction_min_bid: int = Field(1, ge=1)
    mortgage_interest_percent: int = Field(10, ge=0)
    building_sell_percent: int = Field(50, ge=0, le=100)
    rent_claim_required: bool = False
    utility_rent_dice: Literal["move", "fresh"] = "move"
    max_trade_offers_per_window: int = Field(1, ge=0)
    max_counter_offers: int = Field(2, ge=0)
    # Which parts of the classic game exist (the kids' levels have none of them).
    auctions: bool = True
    buildings: bool = True
    mortgages: bool = True
    trading: bool = True
    building_auction_min_bid: int | None = Field(None, ge=1)
    # Landing on an unowned deed: buy it or not (False), or must buy it (True) when you can.
    must_buy: bool = False
    # Must buy but cannot afford it: the deed stays unsold, or the player is insolvent.
    unaffordable_property: Literal["stays_unsold", "insolvent"] = "stays_unsold"
    # A payment the player cannot make: raise money or go bankrupt (classic), pay nothing
    # (My First Monopoly level 1), or go bankrupt and end the game (level 2).
    insolvency: Literal["raise_or_bankrupt", "forgive", "ends_game"] = "raise_or_bankrupt"
    # Jail (three tries at doubles) or Time Out (leave at the start of your next turn with a card
    # or the fine, or, with neither, for free or as an insolvency).
    jail_style: Literal["jail", "time_out"] = "jail"
    time_out_broke: Literal["free", "insolvent"] = "free"
    end_condition: Literal["last_player_standing", "all_properties_owned", "first_bankruptcy"] = (
        "last_player_standing"
    )
    ranking: Literal["net_worth", "properties_then_cash", "cash_then_properties"] = "net_worth"
    # Sold signs per player (a player with none left cannot buy); None: no limit.
    max_properties_per_player: int | None = Field(None, ge=1)
    snowflake_multiplier: int = Field(2, ge=1)


class NamesModel(_Strict):
    house: str = "house"
    hotel: str = "hotel"
    jail: str = "Jail"


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


class EditionModel(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    description: str = ""
    currency: str = "$"
    sources: list[str] = Field(default_factory=list)
    names: NamesModel = Field(default_factory=NamesModel)
    rules: RulesModel = Field(default_factory=RulesModel)  # type: ignore[arg-type]
    groups: list[GroupModel]
    squares: list[SquareModel]
    decks: list[DeckModel] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Card:
    """One card, compiled: ``op`` is an ``OP_*`` code; ``a``/``b`` its numbers."""

    id: str
    text: str
    op: int
    a: int = 0
    b: int = 0
    assumed: bool = False


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    name: str
    cards: tuple[Card, ...]
    jail_card: int  # index of its Get Out of Jail Free card in ``cards``, or -1


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    name: str
    color: str
    kind: int  # STREET, RAILROAD or UTILITY
    members: tuple[int, ...]
    house_cost: int


class Edition:
    """A compiled edition: the model it came from plus flat tables for the play loop."""

    def __init__(self, model: EditionModel, source: str) -> None:
        self.model = model
        self.source = source
        self.id = model.id
        self.name = model.name
        self.rules = model.rules
        self.names = model.names
        self.currency = model.currency
        sq = model.squares
        n = len(sq)
        self.size = n
        self.square_names = tuple(s.name for s in sq)
        self.kind = tuple(KIND_NAMES.index(s.kind) for s in sq)
        self.is_property = tuple(k in PROPERTY_KINDS for k in self.kind)
        self.price = tuple(s.price or 0 for s in sq)
        self.mortgage = tuple(s.mortgage or 0 for s in sq)
        pct = model.rules.mortgage_interest_percent
        # Interest rounds up to a whole unit (docs/RULES.md, "Rounding"): 82.5 -> 83.
        self.interest = tuple(-(-m * pct // 100) for m in self.mortgage)
        self.unmortgage_cost = tuple(
            m + i for m, i in zip(self.mortgage, self.interest, strict=True)
        )
        # A street's rents: base, 1-4 houses, hotel (editions without buildings give the base).
        self.rent = tuple(tuple((s.rent or []) + [0] * (6 - len(s.rent or []))) for s in sq)
        self.tax = tuple(s.amount or 0 for s in sq)
        gid = {g.id: i for i, g in enumerate(model.groups)}
        self.group_of = tuple(gid[s.group] if s.group is not None else -1 for s in sq)
        self.house_cost = tuple(s.house_cost or 0 for s in sq)
        groups = []
        for i, g in enumerate(model.groups):
            members = tuple(j for j in range(n) if self.group_of[j] == i)
            kind = self.kind[members[0]] if members else STREET
            groups.append(
                Group(
                    g.id,
                    g.name,
                    g.color,
                    kind,
                    members,
                    self.house_cost[members[0]] if members else 0,
                )
            )
        self.groups = tuple(groups)
        self.street_groups = tuple(i for i, g in enumerate(groups) if g.kind == STREET)
        deck_ids = {d.id: i for i, d in enumerate(model.decks)}
        self.deck_of = tuple(deck_ids[s.deck] if s.deck is not None else -1 for s in sq)
        self.decks = tuple(_compile_deck(d) for d in model.decks)
        self.jail = self.kind.index(JAIL)
        self.go = self.kind.index(GO)
        self.properties = tuple(i for i in range(n) if self.is_property[i])
        # nearest[kind][sq]: the first square of that kind strictly ahead of sq, going forward.
        self.nearest: dict[int, tuple[int, ...]] = {}
        for k in (RAILROAD, UTILITY, ELEMENT):
            if k in self.kind:
                self.nearest[k] = tuple(
                    next((s + d) % n for d in range(1, n + 1) if self.kind[(s + d) % n] == k)
                    for s in range(n)
                )
        self.assumed = _assumed_fields(model)
        self.has_snowflake = SNOWFLAKE in self.kind or any(
            c.op == OP_SNOWFLAKE for d in self.decks for c in d.cards
        )
        self.building_min_bid = model.rules.building_auction_min_bid or model.rules.auction_min_bid
        # Every Get Out of Jail Free card as (deck, card index); players hold them by this order.
        self.jail_cards = tuple(
            (d, i)
            for d, deck in enumerate(self.decks)
            for i, c in enumerate(deck.cards)
            if c.op == OP_GET_OUT_OF_JAIL_FREE
        )
        self.jail_card_index = {dc: j for j, dc in enumerate(self.jail_cards)}

    def group_name(self, g: int) -> str:
        return self.groups[g].name


def _compile_deck(d: DeckModel) -> Deck:
    cards = []
    jail_card = -1  # the deck's first Get Out of Jail Free card
    for i, c in enumerate(d.cards):
        op = OP_NAMES.index(c.op)
        a = b = 0
        if op == OP_MOVE_TO:
            a = c.target or 0
        elif op == OP_MOVE_TO_NEAREST:
            a = {"railroad": RAILROAD, "utility": UTILITY, "element": ELEMENT}[c.kind or "utility"]
            b = (c.rent_multiplier or 1) if c.kind == "railroad" else (c.dice_multiplier or 0)
        elif op == OP_MOVE_RELATIVE:
            a = c.steps or 0
        elif op in (OP_BANK_PAYS, OP_PAY_BANK, OP_PAY_EACH_PLAYER, OP_COLLECT_FROM_EACH_PLAYER):
            a = c.amount or 0
        elif op == OP_REPAIRS:
            a, b = c.per_house or 0, c.per_hotel or 0
        elif op == OP_GET_OUT_OF_JAIL_FREE and jail_card < 0:
            jail_card = i
        cards.append(Card(c.id, c.text, op, a, b, c.assumed))
    return Deck(d.id, d.name, tuple(cards), jail_card)


def _assumed_fields(model: EditionModel) -> list[str]:
    out = [f"groups[{i}] {g.name}" for i, g in enumerate(model.groups) if g.assumed]
    out += [f"squares[{i}] {s.name}" for i, s in enumerate(model.squares) if s.assumed]
    for d in model.decks:
        out += [f"decks.{d.id} {c.id} {c.text}" for c in d.cards if c.assumed]
    return out


def _check(model: EditionModel, file: str) -> None:
    """Semantic checks the schema cannot express. Raises :class:`EditionError`."""

    def fail(field: str, reason: str) -> None:
        raise EditionError(file, field, reason)

    r = model.rules
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
    n = len(model.squares)
    if n < 4:
        fail("squares", f"a board needs at least 4 squares, got {n}")
    group_ids = [g.id for g in model.groups]
    if len(set(group_ids)) != len(group_ids):
        fail("groups", "group ids must be unique")
    deck_ids = [d.id for d in model.decks]
    if len(set(deck_ids)) != len(deck_ids):
        fail("decks", "deck ids must be unique")
    kinds = [s.kind for s in model.squares]
    if kinds[0] != "go":
        fail("squares[0].kind", "square 0 must be GO")
    if kinds.count("jail") != 1:
        fail("squares", f"the board needs exactly one jail square, found {kinds.count('jail')}")
    group_kind: dict[str, str] = {}
    for i, s in enumerate(model.squares):
        where = f"squares[{i}]"
        if s.kind in ("street", "railroad", "utility"):
            if s.group is None:
                fail(f"{where}.group", f"a {s.kind} needs a group")
            elif s.group not in group_ids:
                fail(f"{where}.group", f"unknown group {s.group!r}")
            elif group_kind.setdefault(s.group, s.kind) != s.kind:
                fail(
                    f"{where}.group", f"group {s.group!r} mixes {group_kind[s.group]} and {s.kind}"
                )
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
    for g in model.groups:
        members = [i for i, s in enumerate(model.squares) if s.group == g.id]
        if not members:
            fail(f"groups.{g.id}", "no square belongs to this group")
        costs = {model.squares[i].house_cost for i in members}
        if len(costs) > 1:
            fail(f"groups.{g.id}", f"streets of one group must share a house cost, got {costs}")
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
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise EditionError(str(p), "(file)", f"cannot read: {exc.strerror or exc}") from None
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


def builtin_edition_ids() -> list[str]:
    """The ids of the editions shipped with meeple."""
    folder = resources.files("meeple.games.monopoly") / "editions"
    return sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml"))


@cache
def builtin_edition(edition_id: str) -> Edition:
    """A shipped edition by id (cached: editions are immutable)."""
    folder = resources.files("meeple.games.monopoly") / "editions"
    f = folder / f"{edition_id}.toml"
    data = tomllib.loads(f.read_text(encoding="utf-8"))
    return parse_edition(data, f"editions/{edition_id}.toml")
