"""A Monopoly table as compact text: the board in two columns, the players, the decision.

Used by ``meeple play`` (the terminal game) and the RL environments' ``render()``. Built from
:meth:`MonopolyState.view` only, so it shows what that seat may see and nothing more. Each
board line reads ``NN name  owner buildings mortgage tokens``: ``P2`` owner, ``h3`` three
houses (``H`` a hotel, in the edition's own names in the legend), ``m`` mortgaged, ``*`` the
snowflake, ``<1 3`` the tokens of players 1 and 3 standing there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

NAME_WIDTH = 18


def _short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "."


def square_line(state: MonopolyState, view: dict[str, Any], sq: int) -> str:
    """One board square as a fixed-width line."""
    info = view["squares"][sq]
    owner = info["owner"]
    own = f"P{owner + 1}" if owner >= 0 else ("--" if state.ed.is_property[sq] else "")
    lvl = info["level"]
    bld = "H" if lvl == 5 else (f"h{lvl}" if lvl else "")
    flags = ("m" if info["mortgaged"] else "") + ("*" if view["snowflake"] == sq else "")
    here = [str(p["seat"] + 1) for p in view["players"] if p["alive"] and p["position"] == sq]
    tokens = ("<" + " ".join(here)) if here else ""
    return f"{sq:>2} {_short(info['name']):<{NAME_WIDTH}} {own:<3}{bld:<3}{flags:<2}{tokens}"


def render_board(state: MonopolyState, seat: int | None = None) -> str:
    """The board in two columns of squares (first half left, second half right)."""
    view = state.view(seat)
    n = state.ed.size
    half = (n + 1) // 2
    width = 3 + NAME_WIDTH + 1 + 3 + 3 + 2 + 8
    lines = []
    for i in range(half):
        left = square_line(state, view, i)
        right = square_line(state, view, i + half) if i + half < n else ""
        lines.append(f"{left:<{width}} {right}".rstrip())
    names = state.ed.names
    lines.append(
        f"owner P1..; h1-h4 {names.house}s, H {names.hotel}; m mortgaged; "
        + ("* snowflake; " if state.ed.has_snowflake else "")
        + "<N player N here"
    )
    return "\n".join(lines)


def player_lines(state: MonopolyState, seat: int | None = None) -> list[str]:
    """One line per player: cash, net worth, where they are, jail, cards and deeds."""
    view = state.view(seat)
    ed = state.ed
    cur = ed.currency
    out = []
    for p in view["players"]:
        q = p["seat"]
        mark = ">" if q == view["decider"] else " "
        you = " (you)" if q == seat else ""
        if not p["alive"]:
            out.append(f"{mark}P{q + 1}{you}: out of the game")
            continue
        where = ed.names.jail if p["in_jail"] else _short(ed.square_names[p["position"]])
        deeds = [s["index"] for s in view["squares"] if s["owner"] == q]
        by_group: dict[int, list[int]] = {}
        for sq in deeds:
            by_group.setdefault(ed.group_of[sq], []).append(sq)
        groups = "; ".join(
            f"{ed.groups[g].name} " + ",".join(str(sq) for sq in sqs)
            for g, sqs in sorted(by_group.items())
        )
        cards = f", {len(p['jail_cards'])} jail card(s)" if p["jail_cards"] else ""
        out.append(
            f"{mark}P{q + 1}{you}: {cur}{p['cash']} (worth {cur}{p['net_worth']}) at {where}"
            f"{cards}" + (f" | {groups}" if groups else "")
        )
    bank = view["bank"]
    if ed.rules.buildings:
        out.append(f" Bank: {bank['houses']} {ed.names.house}s, {bank['hotels']} {ed.names.hotel}s")
    return out


def decision_line(state: MonopolyState, seat: int | None = None) -> str:
    """Who decides what now, with the frame's key numbers."""
    view = state.view(seat)
    if view["over"]:
        return f"The game is over ({view['end_reason'].replace('_', ' ')})."
    ed = state.ed
    cur = ed.currency
    who = f"Player {view['decider'] + 1}"
    f = view["frame"]
    text = f"Turn {view['turn_no']}, Player {view['turn'] + 1}'s turn. {who} decides"
    if f is None:
        return f"{text}: {view['decision'].replace('_', ' ')}."
    kind = f["frame"]
    if kind == "buy":
        sq = f["square"]
        return f"{text}: buy {ed.square_names[sq]} for {cur}{ed.price[sq]}?"
    if kind == "auction":
        item = (
            ed.square_names[f["square"]]
            if f["item"] == 0
            else (ed.names.house if f["item"] == 1 else ed.names.hotel)
        )
        high = (
            f"high bid {cur}{f['high']} by Player {f['high_bidder'] + 1}"
            if f["high_bidder"] >= 0
            else f"no bid yet (minimum {cur}{f['min_bid']})"
        )
        return f"{text}: auction of {item}, {high}."
    if kind == "debt":
        to = "the bank" if f["creditor"] < 0 else f"Player {f['creditor'] + 1}"
        return f"{text}: owes {cur}{f['amount']} to {to} and must raise it."
    if kind == "trade":
        return f"{text}: {_offer_text(state, f)}"
    if kind == "mortgage_fee":
        return f"{text}: received mortgaged {ed.square_names[f['deeds'][0]]}."
    if kind == "shortage":
        return f"{text}: buildings are short; bid for one too?"
    if kind == "place":
        return f"{text}: place the building won at auction."
    return f"{text}: {kind.replace('_', ' ')}."


def _offer_text(state: MonopolyState, f: dict[str, Any]) -> str:
    ed = state.ed
    a, b = f["proposer"] + 1, f["target"] + 1
    if "deeds" not in f:
        return f"Player {a} is drafting an offer to Player {b}."
    gives = [ed.square_names[sq] for sq in f["deeds"] if state.owner[sq] == f["proposer"]]
    gets = [ed.square_names[sq] for sq in f["deeds"] if state.owner[sq] == f["target"]]
    cash = f["cash"]
    if cash > 0:
        gives.append(f"{ed.currency}{cash}")
    elif cash < 0:
        gets.append(f"{ed.currency}{-cash}")
    for d in f["cards"]:
        (gives if state.card_holder[d] == f["proposer"] else gets).append("a jail card")
    state_word = "offers" if f.get("responding") else "drafts"
    return (
        f"Player {a} {state_word} Player {b}: gives {', '.join(gives) or 'nothing'}; "
        f"gets {', '.join(gets) or 'nothing'}."
    )


def render_table(state: MonopolyState, seat: int | None = None) -> str:
    """The board, the players and the decision, as one block of text."""
    return "\n".join(
        [render_board(state, seat), *player_lines(state, seat), decision_line(state, seat)]
    )
