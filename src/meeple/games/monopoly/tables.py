"""An edition compiled to flat tables: what the rules read in the play loop.

:mod:`.edition` validates an edition file; :class:`Edition` is what it compiles to (rent by square
and level, group membership, the next railroad from each square, the decks as small codes).
Kept apart from the file format so that the compiled build (``tools/compile.py``) turns these
classes into native ones and the constants below into C constants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from meeple.games.monopoly.edition import DeckModel, EditionModel, RulesModel

# Square kinds, as small ints for the play loop (KIND_NAMES gives their names in the files).
GO: Final = 0
STREET: Final = 1
RAILROAD: Final = 2
UTILITY: Final = 3
TAX: Final = 4
CARD: Final = 5
JAIL: Final = 6
FREE_PARKING: Final = 7
GO_TO_JAIL: Final = 8
ELEMENT: Final = 9
SNOWFLAKE: Final = 10
KIND_NAMES: Final = (
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
)
PROPERTY_KINDS: Final = (STREET, RAILROAD, UTILITY)
# holdings.board_changed(s, NO_GROUP): a change to no square's group (a jail card moved).
NO_GROUP: Final = -2

# Card operations, as small ints (OP_NAMES gives their names in the files).
OP_MOVE_TO: Final = 0
OP_MOVE_TO_NEAREST: Final = 1
OP_MOVE_RELATIVE: Final = 2
OP_GO_TO_JAIL: Final = 3
OP_BANK_PAYS: Final = 4
OP_PAY_BANK: Final = 5
OP_PAY_EACH_PLAYER: Final = 6
OP_COLLECT_FROM_EACH_PLAYER: Final = 7
OP_REPAIRS: Final = 8
OP_GET_OUT_OF_JAIL_FREE: Final = 9
OP_SNOWFLAKE: Final = 10
OP_NAMES: Final = (
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
)


@dataclass(frozen=True)
class Rules:
    """The rule options as the play loop reads them: the same names and values as
    :class:`~meeple.games.monopoly.edition.RulesModel`, which validates them (a native class in
    the compiled build, where reading a pydantic model's field costs a dictionary lookup).
    The fields are written from the model by ``tools/rule_options_doc.py`` (a new option is
    declared once, in the model); ``tests/monopoly/test_rule_options_doc.py`` fails when they
    are out of date."""

    # -- the rule options: written by tools/rule_options_doc.py from RulesModel --
    min_players: int
    max_players: int
    start_player: str
    starting_cash: int
    go_salary: int
    jail_fine: int
    max_jail_turns: int
    houses: int
    hotels: int
    dice: int
    die_sides: int
    doubles_roll_again: bool
    doubles_to_jail: int
    jail_doubles_extra_roll: bool
    jail_fine_on_last_try: bool
    railroad_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    set_rent_multiplier: int
    set_rent_needs_all_unmortgaged: bool
    auction_min_bid: int
    mortgage_interest_percent: int
    building_sell_percent: int
    rent_claim_required: bool
    rent_claim_turns: int
    free_parking_money: bool
    utility_rent_dice: str
    max_trade_offers_per_window: int
    max_counter_offers: int
    auctions: bool
    buildings: bool
    mortgages: bool
    trading: bool
    building_auction_min_bid: int | None
    must_buy: bool
    unaffordable_property: str
    insolvency: str
    jail_style: str
    time_out_broke: str
    end_condition: str
    ranking: str
    max_properties_per_player: int | None
    snowflake_multiplier: int
    # -- end of the rule options --

    @classmethod
    def from_model(cls, model: RulesModel) -> Rules:
        data = model.model_dump()
        for name in ("railroad_rents", "utility_multipliers"):
            data[name] = tuple(data[name])
        return cls(**data)


@dataclass(frozen=True)
class Card:
    """One card, compiled: ``op`` is an ``OP_*`` code; ``a``/``b`` its numbers."""

    id: str
    text: str
    op: int
    a: int = 0
    b: int = 0
    assumed: bool = False


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    cards: tuple[Card, ...]
    jail_card: int  # index of its Get Out of Jail Free card in ``cards``, or -1


@dataclass(frozen=True)
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
        self.rules = Rules.from_model(model.rules)
        # The roll a utility's rent is multiplied by, on average, for the bots' reading of the
        # board: 7 with two dice (the move's or fresh ones), 4 with one die (3.5, rounded up
        # so a bot errs towards caution; a whole number keeps the rents integers).
        self.utility_roll = 4 if self.rules.utility_rent_dice == "one_die" else 7
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
        self.groups = groups = _groups(model, self.kind, self.group_of, self.house_cost)
        # Each group's squares as a bit mask (bit sq: square sq), for the masks of deeds the
        # board's writers keep (``kept.py``).
        self.group_bits = tuple(sum(1 << m for m in g.members) for g in groups)
        self.street_groups = tuple(i for i, g in enumerate(groups) if g.kind == STREET)
        # The street groups, the cheapest houses first (board order among equals): what a
        # player could buy in a building shortage is counted in this order (shortage.wished).
        self.street_groups_by_cost = tuple(
            sorted(self.street_groups, key=lambda g: groups[g].house_cost)
        )
        deck_ids = {d.id: i for i, d in enumerate(model.decks)}
        self.deck_of = tuple(deck_ids[s.deck] if s.deck is not None else -1 for s in sq)
        self.decks = tuple(_compile_deck(d) for d in model.decks)
        self.jail = self.kind.index(JAIL)
        self.go = self.kind.index(GO)
        self.properties = tuple(i for i in range(n) if self.is_property[i])
        # lift_masks[c]: the deeds whose mortgage costs at most c to lift, as a mask of squares,
        # for every c up to the dearest such price (one entry a unit of money: a few hundred):
        # the mortgages a player's cash lifts are one look-up (``mortgage.liftable``), not a
        # test of each deed's price.
        self.lift_masks = _lift_masks([(self.unmortgage_cost[i], i) for i in self.properties])
        # nearest[kind][sq]: the first square of that kind strictly ahead of sq, going forward.
        self.nearest = _nearest(self.kind)
        self.assumed = _assumed_fields(model)
        self.has_snowflake = SNOWFLAKE in self.kind or any(
            c.op == OP_SNOWFLAKE for d in self.decks for c in d.cards
        )
        self.building_min_bid = model.rules.building_auction_min_bid or model.rules.auction_min_bid
        # Every Get Out of Jail Free card as (deck, card index); players hold them by this order.
        self.jail_cards = _jail_cards(self.decks)
        self.jail_card_index = {dc: j for j, dc in enumerate(self.jail_cards)}

    def group_name(self, g: int) -> str:
        return self.groups[g].name


def _groups(
    model: EditionModel,
    kind: tuple[int, ...],
    group_of: tuple[int, ...],
    house_cost: tuple[int, ...],
) -> tuple[Group, ...]:
    """The model's groups with their squares, in board order (a group's kind and house cost are
    its first square's)."""
    groups = []
    for i, g in enumerate(model.groups):
        members = tuple(j for j in range(len(kind)) if group_of[j] == i)
        groups.append(
            Group(
                g.id,
                g.name,
                g.color,
                kind[members[0]] if members else STREET,
                members,
                house_cost[members[0]] if members else 0,
            )
        )
    return tuple(groups)


def _nearest(kinds: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """nearest[kind][sq]: the first square of that kind strictly ahead of sq, going forward (for
    the kinds a card moves to the nearest of, that the board has)."""
    n = len(kinds)
    nearest: dict[int, tuple[int, ...]] = {}
    for k in (RAILROAD, UTILITY, ELEMENT):
        if k in kinds:
            nearest[k] = tuple(
                next((s + d) % n for d in range(1, n + 1) if kinds[(s + d) % n] == k)
                for s in range(n)
            )
    return nearest


def _jail_cards(decks: tuple[Deck, ...]) -> tuple[tuple[int, int], ...]:
    """Every Get Out of Jail Free card as (deck, card index); players hold them by this order."""
    return tuple(
        (d, i)
        for d, deck in enumerate(decks)
        for i, c in enumerate(deck.cards)
        if c.op == OP_GET_OUT_OF_JAIL_FREE
    )


LIFT_TABLE_MOST: Final = 1 << 16
"""The dearest lift :func:`_lift_masks` makes a table for: an edition file may price its deeds
in millions, and a table a unit of money long would then take gigabytes (``mortgage.liftable``
tests each deed's price instead, from the empty table)."""


def _lift_masks(deeds: list[tuple[int, int]]) -> tuple[int, ...]:
    """``Edition.lift_masks`` from (price to lift, square) pairs; empty when the dearest is
    dearer than :data:`LIFT_TABLE_MOST`."""
    dearest = max((cost for cost, _ in deeds), default=0)
    if dearest > LIFT_TABLE_MOST:
        return ()
    at_cost = [0] * (dearest + 1)  # the squares whose price is c, by c
    for cost, sq in deeds:
        at_cost[cost] |= 1 << sq
    masks = []
    within = 0
    for bits in at_cost:
        within |= bits
        masks.append(within)
    return tuple(masks)


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
