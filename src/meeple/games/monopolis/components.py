"""The printed components of Monopolis, loaded from ``components.toml`` and validated.

monopolis-rules.txt, "Components" and "Setup (ELŐKÉSZÜLETEK)": 41 building tiles (the castle;
12 worth 1, 10 worth 2, 8 worth 3, 6 worth 4, 4 worth 6), 88 requirement cards of Types I, II
and III, 46 resource cards (20 yellow, 26 orange), player boards with 12 house spaces for 2
players and 9 for 3 or 4. What the rulebook does not print is designed in the data file and
named in its ``assumed`` list (see ``docs/MONOPOLIS.md``, "Component design").

Every rule the engine relies on is checked here, and a broken file raises
:class:`~meeple.kernel.errors.EditionError` naming the file, the field and the reason.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from meeple.kernel.errors import EditionError
from meeple.kernel.files import UnreadableFile, read_text

DEFAULT_FILE = Path(__file__).with_name("components.toml")

#: Tile values that can be built, in ``tile V`` order (monopolis-rules.txt, "Components").
VALUES: Final[tuple[int, ...]] = (1, 2, 3, 4, 6)
#: How many tiles of each value the box holds.
VALUE_COUNTS: dict[int, int] = {1: 12, 2: 10, 3: 8, 4: 6, 6: 4}
#: The kind of building each value is ("The Benefits of Individual Buildings").
KIND_OF_VALUE: dict[int, str] = {
    0: "castle",
    1: "park",
    2: "residential",
    3: "business",
    4: "workplace",
    6: "special",
}
#: The buildings' names in the rulebook's words, for people.
BUILDING_NAMES: dict[int, str] = {
    0: "castle",
    1: "park",
    2: "residential quarter",
    3: "business quarter",
    4: "workplace",
    6: "special building",
}
PARK: Final = 1
RESIDENTIAL: Final = 2
BUSINESS: Final = 3
WORKPLACE: Final = 4
SPECIAL: Final = 6
#: Requirement card types, by name in the file.
CARD_TYPES: dict[str, int] = {"I": 1, "II": 2, "III": 3}
#: House spaces per player board side (printed: "Setup").
PRINTED_SPACES: dict[int, int] = {2: 12, 3: 9, 4: 9}
REQUIREMENT_CARD_COUNT = 88
RESOURCE_CARD_COUNTS: dict[str, int] = {"yellow": 20, "orange": 26}


@dataclass(frozen=True, slots=True)
class Tile:
    """A building tile. ``icons`` are indices into :attr:`Components.icons`."""

    id: int
    kind: str
    value: int
    icons: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RequirementCard:
    """A requirement card: ``needs`` counts per resource, and at most one reward.

    ``type`` is 1, 2 or 3 (Types I, II, III); ``icon`` is a collection icon index or -1.
    """

    id: int
    type: int
    needs: tuple[int, ...]
    icon: int
    coins: int
    liza: int

    @property
    def pairs(self) -> tuple[int, ...]:
        """Resources shown at least twice: the "two identical requirements" one may pay."""
        return tuple(r for r, n in enumerate(self.needs) if n >= 2)

    @property
    def full_values(self) -> tuple[int, ...]:
        """Tile values a full payment allows: any for Types I and II, 1-3 for Type III."""
        return (1, 2, 3) if self.type == 3 else VALUES


@dataclass(frozen=True, slots=True)
class ResourceCard:
    """A resource card of deck 0 (yellow, left) or 1 (orange, right)."""

    id: int
    deck: int
    gains: tuple[int, ...]
    liza: int
    coins: int


@dataclass(frozen=True, slots=True)
class BoardColumn:
    """One reward column of the player board ("Building": the house rewards)."""

    money: int
    jokers: int
    points: int


@dataclass(frozen=True)
class Components:
    """Everything printed, as validated data. Tuples are indexed by the item's ``id``.

    ``requirement_cards[0]`` and ``resource_cards[0]`` are unused: card ids start at 1.
    """

    source: str
    assumed: tuple[str, ...]
    resources: tuple[str, ...]
    icons: tuple[str, ...]
    tiles: tuple[Tile, ...]
    requirement_cards: tuple[RequirementCard | None, ...]
    resource_cards: tuple[ResourceCard | None, ...]
    prices: tuple[tuple[int, ...], ...]
    decks: tuple[str, ...]
    columns: tuple[BoardColumn, ...]
    spaces: dict[int, int]
    rows: dict[int, int]

    def card(self, card_id: int) -> RequirementCard:
        """The requirement card ``card_id``."""
        c = self.requirement_cards[card_id]
        assert c is not None
        return c

    def resource_card(self, card_id: int) -> ResourceCard:
        """The resource card ``card_id``."""
        c = self.resource_cards[card_id]
        assert c is not None
        return c

    def house_column(self, players: int, house: int) -> BoardColumn:
        """The reward column under house number ``house`` (0-based) on a ``players`` board."""
        return self.columns[house // self.rows[players]]

    def tile_ids_of_value(self, value: int) -> list[int]:
        """The ids of the building tiles worth ``value``, in id order."""
        return [t.id for t in self.tiles if t.value == value]


def _fail(file: str, field: str, reason: str) -> EditionError:
    return EditionError(file, field, reason)


def _str_list(file: str, data: dict[str, Any], key: str) -> list[str]:
    v = data.get(key)
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise _fail(file, key, "must be a list of non-empty strings")
    if len(set(v)) != len(v):
        raise _fail(file, key, "names must be unique")
    return list(v)


def _int(file: str, field: str, v: Any, lo: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise _fail(file, field, f"must be an integer >= {lo}, not {v!r}")
    return v


def _table(file: str, data: dict[str, Any], key: str) -> dict[str, Any]:
    v = data.get(key)
    if not isinstance(v, dict):
        raise _fail(file, key, "missing table")
    return v


def _items(file: str, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    v = data.get(key)
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise _fail(file, key, "must be a list of tables")
    for i, item in enumerate(v):
        if item.get("id") != i + (0 if key == "tiles" else 1):
            first = 0 if key == "tiles" else 1
            raise _fail(file, f"{key}[{i}].id", f"ids must run {first}, {first + 1}, ... in order")
    return v


def _names(file: str, field: str, v: Any, known: list[str]) -> list[int]:
    if not isinstance(v, list):
        raise _fail(file, field, "must be a list of names")
    out = []
    for x in v:
        if x not in known:
            raise _fail(file, field, f"unknown name {x!r}; known: {', '.join(known)}")
        out.append(known.index(x))
    return out


def _counts(indices: list[int], n: int) -> tuple[int, ...]:
    c = [0] * n
    for i in indices:
        c[i] += 1
    return tuple(c)


def _load_tiles(file: str, data: dict[str, Any], icons: list[str]) -> tuple[Tile, ...]:
    tiles = []
    for item in _items(file, data, "tiles"):
        f = f"tiles[{item['id']}]"
        value = _int(file, f + ".value", item.get("value"))
        if value not in KIND_OF_VALUE:
            raise _fail(file, f + ".value", f"must be one of 0, {', '.join(map(str, VALUES))}")
        kind = item.get("kind")
        if kind != KIND_OF_VALUE[value]:
            raise _fail(file, f + ".kind", f"a tile worth {value} is a {KIND_OF_VALUE[value]}")
        ic = _names(file, f + ".icons", item.get("icons", []), icons)
        if value == PARK and (len(ic) != 2 or ic[0] == ic[1]):
            raise _fail(file, f + ".icons", "a park shows 2 different icons (rule: Park)")
        if value in (WORKPLACE, SPECIAL) and len(ic) != 1:
            raise _fail(file, f + ".icons", "a workplace or special building shows one icon")
        if value in (0, RESIDENTIAL, BUSINESS) and ic:
            raise _fail(file, f + ".icons", "this design puts no icon on this kind of tile")
        tiles.append(Tile(item["id"], kind, value, tuple(ic)))
    castles = [t for t in tiles if t.value == 0]
    if len(castles) != 1 or castles[0].id != 0:
        raise _fail(file, "tiles", "exactly one castle, with id 0, is needed")
    for value, n in VALUE_COUNTS.items():
        got = sum(1 for t in tiles if t.value == value)
        if got != n:
            raise _fail(file, "tiles", f"{n} tiles worth {value} are printed, the file has {got}")
    specials = sorted(t.icons[0] for t in tiles if t.value == SPECIAL)
    if specials != list(range(len(icons))):
        raise _fail(file, "tiles", "each special building is associated with a different icon")
    return tuple(tiles)


def _load_requirement_cards(
    file: str, data: dict[str, Any], resources: list[str], icons: list[str]
) -> tuple[RequirementCard | None, ...]:
    items = _items(file, data, "requirement_cards")
    if len(items) != REQUIREMENT_CARD_COUNT:
        raise _fail(file, "requirement_cards", f"88 cards are printed, the file has {len(items)}")
    cards: list[RequirementCard | None] = [None]
    for item in items:
        f = f"requirement_cards[{item['id']}]"
        type_name = item.get("type")
        if type_name not in CARD_TYPES:
            raise _fail(file, f + ".type", "must be 'I', 'II' or 'III'")
        needs = _counts(_names(file, f + ".needs", item.get("needs"), resources), len(resources))
        size, top = sum(needs), max(needs)
        if type_name == "I" and (size != 4 or top < 2):
            raise _fail(file, f + ".needs", "Type I: 4 requirements, at least 2 the same")
        if type_name == "II" and (size != 4 or top != 1):
            raise _fail(file, f + ".needs", "Type II: 4 requirements, all different")
        if type_name == "III" and (size != 3 or top < 2):
            raise _fail(file, f + ".needs", "Type III: 3 requirements, at least 2 the same")
        icon = -1
        if "icon" in item:
            icon = _names(file, f + ".icon", [item["icon"]], icons)[0]
        coins = _int(file, f + ".coins", item.get("coins", 0))
        liza = _int(file, f + ".liza", item.get("liza", 0))
        if liza > 1:
            raise _fail(file, f + ".liza", "Liza gives one resource of your choice")
        if (icon >= 0) + (coins > 0) + (liza > 0) > 1:
            raise _fail(file, f, "a card shows at most one reward (icon, coin or Liza)")
        cards.append(RequirementCard(item["id"], CARD_TYPES[type_name], needs, icon, coins, liza))
    real = [c for c in cards if c is not None]
    for what, ok in (
        ("a Type I card", any(c.type == 1 for c in real)),
        ("a Type II card", any(c.type == 2 for c in real)),
        ("a Type III card", any(c.type == 3 for c in real)),
        ("a card with a coin", any(c.coins for c in real)),
        ("a card with Liza", any(c.liza for c in real)),
        ("a card with a collection icon", any(c.icon >= 0 for c in real)),
    ):
        if not ok:
            raise _fail(file, "requirement_cards", f"needs {what}: every rule must be reachable")
    return tuple(cards)


def _load_resource_cards(
    file: str, data: dict[str, Any], resources: list[str], decks: list[str]
) -> tuple[ResourceCard | None, ...]:
    items = _items(file, data, "resource_cards")
    cards: list[ResourceCard | None] = [None]
    for item in items:
        f = f"resource_cards[{item['id']}]"
        deck = item.get("deck")
        if deck not in decks:
            raise _fail(file, f + ".deck", f"must be one of {', '.join(decks)}")
        gains = _counts(
            _names(file, f + ".resources", item.get("resources", []), resources), len(resources)
        )
        liza = _int(file, f + ".liza", item.get("liza", 0))
        coins = _int(file, f + ".coins", item.get("coins", 0))
        if sum(gains) + liza == 0:
            raise _fail(file, f, "a resource card shows resources or Liza")
        if deck == decks[0] and not ((sum(gains) == 2 and liza == 0) or sum(gains) == 0):
            # Setup: a left-deck card shows 2 resource icons, or is a joker card.
            raise _fail(file, f, "a left-deck card shows 2 resources or is a joker (Liza) card")
        cards.append(ResourceCard(item["id"], decks.index(deck), gains, liza, coins))
    for name, n in RESOURCE_CARD_COUNTS.items():
        got = sum(1 for c in cards if c is not None and decks[c.deck] == name)
        if got != n:
            raise _fail(file, "resource_cards", f"{n} {name} cards are printed, the file has {got}")
    if not any(c is not None and c.deck == 0 and c.liza == 0 for c in cards):
        raise _fail(file, "resource_cards", "the left deck needs a card with 2 resources (setup)")
    return tuple(cards)


def load_components(path: str | Path = DEFAULT_FILE) -> Components:
    """Read and validate a components file; :class:`EditionError` names what is wrong."""
    file = str(path)
    try:
        data = tomllib.loads(read_text(path))
    except UnreadableFile as exc:
        raise _fail(file, "(file)", exc.reason) from None
    except tomllib.TOMLDecodeError as exc:
        raise _fail(file, "(file)", f"is not valid TOML: {exc}") from None

    assumed = _str_list(file, data, "assumed")
    for a in assumed:
        if a.split(".")[0] not in data:
            raise _fail(file, "assumed", f"{a!r} names no field of the file")
    resources = _str_list(file, data, "resources")
    if len(resources) < 4:
        raise _fail(file, "resources", "Type II cards need 4 different resources: at least 4")
    icons = _str_list(file, data, "icons")
    if len(icons) != 4:
        raise _fail(file, "icons", "the rulebook prints 4 collection icons")

    proc = _table(file, data, "procurement")
    decks = _str_list(file, proc, "decks")
    if decks != list(RESOURCE_CARD_COUNTS):
        raise _fail(file, "procurement.decks", "must be ['yellow', 'orange'] (left, right)")
    raw_prices = proc.get("prices")
    if not (
        isinstance(raw_prices, list)
        and len(raw_prices) == 2
        and all(isinstance(row, list) and len(row) == 3 for row in raw_prices)
    ):
        raise _fail(file, "procurement.prices", "must be two rows of 3 prices")
    prices = tuple(tuple(_int(file, "procurement.prices", p, 1) for p in row) for row in raw_prices)

    board = _table(file, data, "board")
    raw_cols = board.get("columns")
    if not isinstance(raw_cols, list) or len(raw_cols) != 3:
        raise _fail(file, "board.columns", "the player board has 3 reward columns")
    columns = tuple(
        BoardColumn(
            _int(file, f"board.columns[{i}].money", c.get("money", 0)),
            _int(file, f"board.columns[{i}].jokers", c.get("jokers", 0)),
            _int(file, f"board.columns[{i}].points", c.get("points", 0)),
        )
        for i, c in enumerate(raw_cols)
    )
    spaces_t = _table(file, board, "spaces")
    rows_t = _table(file, board, "rows")
    spaces: dict[int, int] = {}
    rows: dict[int, int] = {}
    for players, printed in PRINTED_SPACES.items():
        s = _int(file, f"board.spaces.{players}", spaces_t.get(str(players)), 1)
        if s != printed:
            raise _fail(file, f"board.spaces.{players}", f"the board prints {printed} spaces")
        r = _int(file, f"board.rows.{players}", rows_t.get(str(players)), 1)
        if r * len(columns) != s:
            raise _fail(file, f"board.rows.{players}", f"{r} rows x 3 columns is not {s} spaces")
        spaces[players], rows[players] = s, r

    return Components(
        source=file,
        assumed=tuple(assumed),
        resources=tuple(resources),
        icons=tuple(icons),
        tiles=_load_tiles(file, data, icons),
        requirement_cards=_load_requirement_cards(file, data, resources, icons),
        resource_cards=_load_resource_cards(file, data, resources, decks),
        prices=prices,
        decks=tuple(decks),
        columns=columns,
        spaces=spaces,
        rows=rows,
    )


@cache
def components_at(path: str) -> Components:
    """The components file at ``path`` (``""``: the bundled one), loaded once per process."""
    return load_components(path or DEFAULT_FILE)
