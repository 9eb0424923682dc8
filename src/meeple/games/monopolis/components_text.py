"""Monopolis's printed components for people: ``meeple editions show monopolis`` tables and
``meeple editions export monopolis`` TOML.

monopolis-rules.txt, "Components", "Setup", "Purchasing" and "Building" print the counts; what
is on each tile and card is designed and named in the components file's ``assumed`` list
(shared/reference/EDITIONS.md: "the ``meeple editions show ID`` output ... should let a user
see which values are assumed"). A column whose values are designed says ``(assumed)`` in its
heading, and the last table lists every assumed field with what it means.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Group
from rich.table import Table

from meeple.games.monopolis.components import (
    BUILDING_NAMES,
    DEFAULT_FILE,
    Components,
    RequirementCard,
)

#: What each field an ``assumed`` entry may name is, in words (the file's comments say it too).
ASSUMED_WORDS: dict[str, str] = {
    "resources": "which resource types exist (the rulebook's example names these four)",
    "board.rows": "how the house spaces are split over the three reward columns",
    "tiles.icons": "which collection icon sits on which tile",
    "requirement_cards.needs": "the resources each requirement card shows",
    "requirement_cards.icon": "which requirement cards show a turquoise collection icon",
    "requirement_cards.coins": "which requirement cards show a coin, and its amount",
    "requirement_cards.liza": "which requirement cards show Liza (a resource of your choice)",
    "resource_cards.resources": "the resource icons on each resource card",
    "resource_cards.liza": "which resource cards show Liza (a joker)",
    "resource_cards.coins": "which resource cards show a coin",
}

CARD_TYPE_NAMES = {1: "I", 2: "II", 3: "III"}


def source_name(comps: Components) -> str:
    """Where the components come from: the bundled file by its place in the package, any
    other by its path."""
    if Path(comps.source) == DEFAULT_FILE:
        return "games/monopolis/components.toml (bundled)"
    return comps.source


def export_toml(comps: Components) -> str:
    """The components file as it is (its comments explain every field), under a header that
    says how to play it. Loading it again validates every rule (``components.load_components``)."""
    text = Path(comps.source).read_text(encoding="utf-8")
    header = (
        f"# meeple monopolis components, exported from {source_name(comps)}.\n"
        "# Edit it and play it with --edition-file FILE (meeple simulate, meeple editions show)\n"
        '# or the game option {"components": "FILE"}; docs/MONOPOLIS.md explains every field.\n'
        "# The fields listed in `assumed` are designed, not printed on the physical game.\n\n"
    )
    return header + text


def render_components(comps: Components, source: str = "") -> Group:
    """Tables of the components: what is printed, with each designed column marked."""
    assumed = set(comps.assumed)

    def heading(field: str, words: str) -> str:
        return f"{words} (assumed)" if field in assumed else words

    def listed(names: tuple[str, ...] | list[str]) -> str:
        return ", ".join(names) if names else "-"

    head = Table.grid(padding=(0, 2))
    head.add_row("[bold]game[/]", "Monopolis (monopolis), 2-4 players")
    head.add_row("[bold]source[/]", source or source_name(comps))
    head.add_row(f"[bold]{heading('resources', 'resources')}[/]", listed(comps.resources))
    head.add_row("[bold]collection icons[/]", listed(comps.icons))

    market = Table(title="Procurement board: the face-up resource cards")
    for name in ("row", "deck", "prices"):
        market.add_column(name)
    for row, (deck, prices) in enumerate(zip(comps.decks, comps.prices, strict=True)):
        where = "left" if row == 0 else "right"
        market.add_row(where, deck, ", ".join(str(p) for p in prices))

    board = Table(title="Player board: rewards under the houses")
    board.add_column("column", justify="right")
    board.add_column("reward")
    for i, col in enumerate(comps.columns):
        parts = [f"{col.money} money"] if col.money else []
        if col.jokers:
            parts.append(f"{col.jokers} resource(s) of your choice")
        if col.points:
            parts.append(f"{col.points} points at the end")
        board.add_row(str(i + 1), " + ".join(parts) or "-")
    spaces = Table(title="Player board: house spaces")
    spaces.add_column("players", justify="right")
    spaces.add_column("spaces", justify="right")
    spaces.add_column(heading("board.rows", "rows per column"), justify="right")
    for players in sorted(comps.spaces):
        spaces.add_row(str(players), str(comps.spaces[players]), str(comps.rows[players]))

    tiles = Table(title=f"Building tiles ({len(comps.tiles)})")
    tiles.add_column("id", justify="right")
    tiles.add_column("building")
    tiles.add_column("points", justify="right")
    tiles.add_column(heading("tiles.icons", "icons"))
    for t in comps.tiles:
        icons = listed([comps.icons[i] for i in t.icons])
        tiles.add_row(str(t.id), BUILDING_NAMES[t.value], str(t.value), icons)

    req_cards = [c for c in comps.requirement_cards if c is not None]
    reward_fields = ("requirement_cards.icon", "requirement_cards.coins", "requirement_cards.liza")
    reward_word = "reward (assumed)" if assumed & set(reward_fields) else "reward"
    reqs = Table(title=f"Requirement cards ({len(req_cards)})")
    reqs.add_column("id", justify="right")
    reqs.add_column("type")
    reqs.add_column(heading("requirement_cards.needs", "needs"))
    reqs.add_column(reward_word)
    for rc in req_cards:
        needs = listed([name for r, name in enumerate(comps.resources) for _ in range(rc.needs[r])])
        reqs.add_row(str(rc.id), CARD_TYPE_NAMES[rc.type], needs, _reward(comps, rc))

    res_cards = [c for c in comps.resource_cards if c is not None]
    res = Table(title=f"Resource cards ({len(res_cards)})")
    res.add_column("id", justify="right")
    res.add_column("deck")
    res.add_column(heading("resource_cards.resources", "resources"))
    res.add_column(heading("resource_cards.liza", "Liza"), justify="right")
    res.add_column(heading("resource_cards.coins", "coins"), justify="right")
    for card in res_cards:
        gains = [name for r, name in enumerate(comps.resources) for _ in range(card.gains[r])]
        liza, coins = str(card.liza or ""), str(card.coins or "")
        res.add_row(str(card.id), comps.decks[card.deck], listed(gains), liza, coins)

    designed = Table(title=f"Assumed values ({len(comps.assumed)})")
    designed.add_column("field")
    designed.add_column("designed, not printed: correct them in your own components file")
    for a in comps.assumed:
        designed.add_row(a, ASSUMED_WORDS.get(a, ""))
    return Group(head, market, board, spaces, tiles, reqs, res, designed)


def _reward(comps: Components, card: RequirementCard) -> str:
    """A requirement card's one reward: a collection icon, money, or Liza."""
    if card.icon >= 0:
        return f"icon: {comps.icons[card.icon]}"
    if card.coins:
        return f"{card.coins} money"
    if card.liza:
        return "Liza: a resource of your choice"
    return "-"
