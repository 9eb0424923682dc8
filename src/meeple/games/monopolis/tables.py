"""The components as the play loop reads them: the same cards, tiles and board, as native classes.

:mod:`.components` loads and validates the components file into frozen dataclasses, which the
views, the words and the tests read. The rules and the standard bot read a card's needs, its
pairs and the tile values it allows thousands of times a game; in the compiled build reading a
field of a class that is not compiled is a generic attribute look-up, and a computed property
(``RequirementCard.pairs``) runs interpreted Python. So each components file is also turned,
once per process, into the :class:`Tables` here (a compiled module: ``meeple.buildinfo``): the
same cards with the same field names, and what the rules ask of them worked out in advance.
Like ``games/monopoly/tables.py``.
"""

from __future__ import annotations

from typing import Final

from meeple.games.monopolis import components
from meeple.games.monopolis.components import VALUES, Components, components_at


class RequirementCard:
    """A requirement card (:class:`.components.RequirementCard`), its pairs and the tile
    values a full payment allows worked out once."""

    def __init__(self, c: components.RequirementCard) -> None:
        self.id = c.id
        self.type = c.type
        self.needs = c.needs
        self.icon = c.icon
        self.coins = c.coins
        self.liza = c.liza
        #: Resources shown at least twice: the "two identical requirements" one may pay.
        self.pairs = c.pairs
        #: Tile values a full payment allows: any for Types I and II, 1-3 for Type III.
        self.full_values = c.full_values
        #: Resources the whole card takes.
        self.total = sum(c.needs)


class ResourceCard:
    """A resource card (:class:`.components.ResourceCard`)."""

    def __init__(self, c: components.ResourceCard) -> None:
        self.id = c.id
        self.deck = c.deck
        self.gains = c.gains
        self.liza = c.liza
        self.coins = c.coins


class BoardColumn:
    """A reward column of the player board (:class:`.components.BoardColumn`)."""

    def __init__(self, c: components.BoardColumn) -> None:
        self.money = c.money
        self.jokers = c.jokers
        self.points = c.points


class Tables:
    """One components file for the play loop: the cards by id, the tile stacks and resource
    decks, the number of collection icons on each tile, the market's prices by place, the
    board's reward columns."""

    def __init__(self, comps: Components) -> None:
        self.comps = comps
        #: How many resources there are (the length of every ``needs`` and ``res`` row).
        self.size = len(comps.resources)
        # Card ids start at 1; entry 0 is a card nobody draws, so that a list holds only cards.
        none = components.RequirementCard(0, 1, (0,) * self.size, -1, 0, 0)
        self.requirement_cards = [RequirementCard(c or none) for c in comps.requirement_cards]
        no_gain = components.ResourceCard(0, 0, (0,) * self.size, 0, 0)
        self.resource_cards = [ResourceCard(c or no_gain) for c in comps.resource_cards]
        #: Each value's stack of building tiles (in ``VALUES`` order) and each resource deck
        #: (0 left, 1 right) as ids in id order: a new game's, before it shuffles them.
        self.tile_stacks = [comps.tile_ids_of_value(v) for v in VALUES]
        self.resource_decks = [
            [c.id for c in comps.resource_cards if c is not None and c.deck == deck]
            for deck in (0, 1)
        ]
        #: How many collection icons each tile shows, by tile id.
        self.tile_icons = [len(t.icons) for t in comps.tiles]
        #: The collection icons each tile shows, by tile id.
        self.tile_icon_ids = [t.icons for t in comps.tiles]
        #: How many collection icons there are.
        self.icon_count = len(comps.icons)
        #: The price of each market place, by place (``market.slot_price``).
        self.prices = [price for row in comps.prices for price in row]
        self.columns = [BoardColumn(c) for c in comps.columns]
        #: Rows of the player board, by number of players (0 for a count nobody plays).
        self.rows = [comps.rows.get(p, 0) for p in range(max(comps.rows) + 1)]

    def card(self, card_id: int) -> RequirementCard:
        """The requirement card ``card_id``."""
        return self.requirement_cards[card_id]

    def resource_card(self, card_id: int) -> ResourceCard:
        """The resource card ``card_id``."""
        return self.resource_cards[card_id]

    def house_column(self, players: int, house: int) -> BoardColumn:
        """The reward column under house number ``house`` (0-based) on a ``players`` board
        (``Components.house_column``)."""
        return self.columns[house // self.rows[players]]


_MADE: Final[dict[str, Tables]] = {}


def tables_at(path: str) -> Tables:
    """The tables of the components file at ``path`` (``""``: the bundled one), made once per
    process, as :func:`.components.components_at` loads the file once."""
    made = _MADE.get(path)
    if made is None:
        made = _MADE[path] = Tables(components_at(path))
    return made
