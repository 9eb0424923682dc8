"""An edition for people: ``meeple editions show`` tables and ``export`` TOML."""

from __future__ import annotations

import tomli_w
from rich.console import Group
from rich.table import Table

from meeple.games.monopoly.edition import RulesModel
from meeple.games.monopoly.tables import KIND_NAMES, RAILROAD, STREET, UTILITY, Edition


def export_toml(ed: Edition) -> str:
    """The edition as an editable TOML file (validated again when loaded)."""
    data = ed.model.model_dump(mode="json", exclude_none=True)
    header = (
        f"# meeple edition {ed.id!r}, exported from {ed.source}.\n"
        "# Edit it and play it with --edition-file FILE; docs/EDITIONS.md explains every field.\n"
        "# Values marked assumed = true are designed, not printed on the physical game.\n\n"
    )
    return header + tomli_w.dumps(data)


def render_edition(ed: Edition) -> Group:
    """Tables of the edition's rule options, board, deeds, decks and assumed values."""
    cur = ed.currency
    head = Table.grid(padding=(0, 2))
    head.add_row("[bold]edition[/]", f"{ed.name} ({ed.id})")
    head.add_row("[bold]source[/]", ed.source)
    head.add_row("[bold]buildings[/]", f"{ed.names.house} / {ed.names.hotel}")
    head.add_row("[bold]jail[/]", ed.names.jail)

    rules = Table(title="Rule options")
    rules.add_column("option")
    rules.add_column("value")
    rules.add_column("default")
    defaults = RulesModel.model_validate({})
    for name in RulesModel.model_fields:
        value = getattr(ed.model.rules, name)
        default = getattr(defaults, name)
        rules.add_row(name, str(value), "" if value == default else f"(classic: {default})")

    board = Table(title="Board")
    for col in ("#", "square", "kind", "group", "price", "rent", "mortgage", "house", "assumed"):
        board.add_column(col, justify="right" if col in ("#", "price", "mortgage") else "left")
    for sq, model in enumerate(ed.model.squares):
        g = ed.group_of[sq]
        kind = ed.kind[sq]
        rent = ""
        if kind == STREET:
            rent = " / ".join(str(x) for x in (model.rent or []))
        elif kind == RAILROAD:
            rent = " / ".join(str(x) for x in ed.rules.railroad_rents)
        elif kind == UTILITY:
            rent = "dice x " + " / ".join(str(x) for x in ed.rules.utility_multipliers)
        elif model.amount is not None:
            rent = f"tax {cur}{model.amount}"
        board.add_row(
            str(sq),
            model.name,
            KIND_NAMES[kind],
            ed.groups[g].name if g >= 0 else "",
            f"{cur}{model.price}" if model.price else "",
            rent,
            f"{cur}{model.mortgage}" if model.mortgage else "",
            f"{cur}{model.house_cost}" if model.house_cost else "",
            "assumed" if model.assumed else "",
        )

    parts: list[Table] = [head, rules, board]
    for deck in ed.model.decks:
        t = Table(title=f"Deck: {deck.name}")
        t.add_column("id")
        t.add_column("card")
        t.add_column("effect")
        t.add_column("assumed")
        for c in deck.cards:
            effect = c.op + "".join(
                f" {k}={v}"
                for k, v in c.model_dump(exclude_none=True).items()
                if k not in ("id", "text", "op", "assumed")
            )
            t.add_row(c.id, c.text, effect, "assumed" if c.assumed else "")
        parts.append(t)
    assumed = Table(title=f"Assumed values ({len(ed.assumed)})")
    assumed.add_column("designed, not printed: correct them in your own edition file")
    for a in ed.assumed:
        assumed.add_row(a)
    parts.append(assumed)
    return Group(*parts)
