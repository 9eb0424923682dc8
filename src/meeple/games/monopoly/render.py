"""A Monopoly table as compact text: the board in two columns, the players, the decision.

Used by ``meeple play`` (the terminal game) and the RL environments' ``render()``. Built from
:meth:`MonopolyState.view` only, so it shows what that seat may see and nothing more. Each
board line reads ``NN name  owner buildings mortgage tokens``: ``P2`` owner, ``h3`` three
houses (``H`` a hotel, in the edition's own names in the legend), ``m`` mortgaged, ``*`` the
snowflake, ``<13`` the tokens of players 1 and 3 standing there.

Issue 16 (the terminal): the board's square numbers sit on their colour group's colour
(:func:`board_text`; :func:`render_board` is the same board as plain text), long names are
shortened at word boundaries (:func:`short_name`), the decision is said in words
(:func:`decision_line`), the choices name costs and players (:func:`choice_text`), and the
``deed`` and ``info`` commands read :func:`deed_lines` and :func:`rules_lines`. Every function
that names players takes the seats' names (``names``); without them a seat is ``Player N``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from rich.text import Text

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import HOTEL
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.tables import (
    CARD,
    ELEMENT,
    FREE_PARKING,
    GO,
    GO_TO_JAIL,
    JAIL,
    KIND_NAMES,
    RAILROAD,
    SNOWFLAKE,
    STREET,
    TAX,
    UTILITY,
    Edition,
)
from meeple.kernel.protocol import Action

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

NAME_WIDTH: Final = 20
TOKEN_WIDTH: Final = 5  # "<1234": four players on one square
COLUMN_WIDTH: Final = 3 + NAME_WIDTH + 1 + 3 + 3 + 2 + TOKEN_WIDTH
LINE_WIDTH: Final = 2 * COLUMN_WIDTH + 1  # the board's width: 75, for an 80-column terminal

# Words the boards print in full that have a usual short form (tried before dropping words).
_ABBREVIATIONS: Final = (
    ("Just Visiting", "Visiting"),
    ("Avenue", "Ave."),
    ("Railroad", "R.R."),
    ("Electricity", "Electric"),
)
# Small words a shortened name may lose ("All the Thanksgivings" -> "All Thanksgivings") and
# never ends on ("Monica Gets a…").
_WEAK_WORDS: Final = frozenset({"a", "an", "the", "and", "of", "at", "in", "on", "to", "/", "-"})
ELLIPSIS: Final = "…"


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` in at most ``width`` characters, never cut inside a word (issue 16).

    First the usual abbreviations (``Avenue`` -> ``Ave.``); then the small words inside the
    name (``the``, ``a``, ``and``: "All Thanksgivings"); then whole words are dropped from the
    end, ``…`` marking the cut, from the full name or from the one without small words,
    whichever keeps more of the words that matter ("Monica Chandler's…", not "Monica…"). The
    ``deed`` command and the players' panel show names in full."""
    if len(name) <= width:
        return name
    for long, short in _ABBREVIATIONS:
        name = name.replace(long, short)
        if len(name) <= width:
            return name
    words = name.split()
    content = [w for i, w in enumerate(words) if i == 0 or w.lower() not in _WEAK_WORDS]
    if len(" ".join(content)) <= width:
        return " ".join(content)
    return max(_cut(words, width), _cut(content, width), key=_strong_words)


def _strong_words(text: str) -> int:
    return sum(1 for w in text.rstrip(ELLIPSIS).split() if w.lower() not in _WEAK_WORDS)


def _cut(words: list[str], width: int) -> str:
    """The longest run of whole words from the start that fits with ``…``, not ending on a
    small word or a comma."""
    words = list(words)
    while len(words) > 1:
        words.pop()
        while len(words) > 1 and words[-1].lower() in _WEAK_WORDS:
            words.pop()
        text = " ".join(words).rstrip(",;:")
        if len(text) + len(ELLIPSIS) <= width:
            return text + ELLIPSIS
    return words[0][: width - len(ELLIPSIS)] + ELLIPSIS  # one word longer than the column


def who(q: int, names: Sequence[str] | None = None) -> str:
    """A seat by name (``Player N`` without names)."""
    return names[q] if names else f"Player {q + 1}"


def tag(q: int, names: Sequence[str] | None = None) -> str:
    """A seat by number and, when it has its own name, by name: ``P2 Bob``."""
    name = who(q, names)
    return f"P{q + 1}" if name == f"Player {q + 1}" else f"P{q + 1} {name}"


def _money(ed: Edition, amount: int) -> str:
    return f"-{ed.currency}{-amount}" if amount < 0 else f"{ed.currency}{amount}"


# -- the board ---------------------------------------------------------------------------


def square_line(state: MonopolyState, view: dict[str, Any], sq: int) -> str:
    """One board square as a fixed-width line."""
    info = view["squares"][sq]
    owner = info["owner"]
    own = f"P{owner + 1}" if owner >= 0 else ("--" if state.ed.is_property[sq] else "")
    lvl = info["level"]
    bld = "H" if lvl == 5 else (f"h{lvl}" if lvl else "")
    flags = ("m" if info["mortgaged"] else "") + ("*" if view["snowflake"] == sq else "")
    here = [str(p["seat"] + 1) for p in view["players"] if p["alive"] and p["position"] == sq]
    tokens = ("<" + "".join(here)) if here else ""
    name = short_name(info["name"])
    return f"{sq:>2} {name:<{NAME_WIDTH}} {own:<3}{bld:<3}{flags:<2}{tokens}"


def group_style(color: str) -> str:
    """A Rich style that puts text on a group's colour, in black or white, whichever reads."""
    hexa = color.lstrip("#")
    if len(hexa) != 6:
        return ""
    try:
        r, g, b = (int(hexa[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return ""
    ink = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"
    return f"{ink} on #{hexa.lower()}"


def _square_style(state: MonopolyState, sq: int) -> str:
    """The style of a square's number: its colour group's, for streets only (railroads and
    utilities have a group but no colour on the board)."""
    g = state.ed.group_of[sq]
    if g < 0 or state.ed.kind[sq] != STREET:
        return ""
    return group_style(state.ed.groups[g].color)


def board_text(state: MonopolyState, seat: int | None = None) -> Text:
    """The board in two columns of squares (first half left, second half right), each street's
    number on its group's colour (issue 16: "group colours on the board"). With colours off
    (``NO_COLOR``, a dumb terminal) it reads exactly as :func:`render_board`."""
    view = state.view(seat)
    n = state.ed.size
    half = (n + 1) // 2
    out = Text()
    for i in range(half):
        left = square_line(state, view, i)
        line = Text(left.ljust(COLUMN_WIDTH) + " ")
        line.stylize(_square_style(state, i), 0, 2)
        if i + half < n:
            start = len(line.plain)
            line.append(square_line(state, view, i + half))
            line.stylize(_square_style(state, i + half), start, start + 2)
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.append("\n".join(_legend(state)))
    return out


def _legend(state: MonopolyState) -> list[str]:
    """What the marks mean, on as many lines as the board's width needs."""
    names = state.ed.names
    parts = ["owner P1..", f"h1-h4 {names.house}s, H {names.hotel}", "m mortgaged"]
    if state.ed.has_snowflake:
        parts.append("* snowflake")
    parts.append("<13 players 1 and 3 here")
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 2 + len(part) > LINE_WIDTH:
            lines[-1] += ";"
            lines.append(part)
        else:
            lines[-1] += "; " + part
    return lines


def render_board(state: MonopolyState, seat: int | None = None) -> str:
    """The board as plain text (the RL environments' ``render()``)."""
    return board_text(state, seat).plain


# -- the players and the decision --------------------------------------------------------


def player_lines(
    state: MonopolyState, seat: int | None = None, names: Sequence[str] | None = None
) -> list[str]:
    """One line per player: cash, net worth, where they are, jail, cards and deeds."""
    view = state.view(seat)
    ed = state.ed
    cur = ed.currency
    out = []
    for p in view["players"]:
        q = p["seat"]
        mark = ">" if q == view["decider"] else " "
        you = " (you)" if q == seat else ""
        label = f"{mark}{tag(q, names)}{you}"
        if not p["alive"]:
            out.append(f"{label}: out of the game")
            continue
        where = ed.names.jail if p["in_jail"] else ed.square_names[p["position"]]
        deeds = [s["index"] for s in view["squares"] if s["owner"] == q]
        by_group: dict[int, list[int]] = {}
        for sq in deeds:
            by_group.setdefault(ed.group_of[sq], []).append(sq)
        groups = [
            f"{ed.groups[g].name} " + ",".join(str(sq) for sq in sqs)
            for g, sqs in sorted(by_group.items())
        ]
        held = len(p["jail_cards"])
        cards = f", {held} {ed.names.jail_card_short}(s)" if held else ""
        head = f"{label}: {cur}{p['cash']} (worth {cur}{p['net_worth']}) at {where}{cards}"
        out += _wrap(head, groups)
    bank = view["bank"]
    if ed.rules.buildings:
        out.append(f" Bank: {bank['houses']} {ed.names.house}s, {bank['hotels']} {ed.names.hotel}s")
    return out


def _wrap(head: str, groups: list[str]) -> list[str]:
    """A player's line with its deeds after ``|``, or, when that is wider than the board, the
    deeds on indented lines below, broken between groups (never inside a name)."""
    line = head + (" | " + "; ".join(groups) if groups else "")
    if len(line) <= LINE_WIDTH:
        return [line]
    out, cur = [head], "     deeds:"
    for i, g in enumerate(groups):
        part = f" {g}" + (";" if i < len(groups) - 1 else "")
        if len(cur) + len(part) > LINE_WIDTH and cur.strip():
            out.append(cur)
            cur = " " * 11
        cur += part
    out.append(cur)
    return out


def decision_line(
    state: MonopolyState, seat: int | None = None, names: Sequence[str] | None = None
) -> str:
    """Who decides what now, in words (issue 16: "Ann's turn: before the roll", "Bob may act
    before the next turn"; never the engine's phase names), with the frame's key numbers."""
    view = state.view(seat)
    if view["over"]:
        return f"The game is over ({view['end_reason'].replace('_', ' ')})."
    turn = who(view["turn"], names)
    decider = who(view["decider"], names)
    head = f"Turn {view['turn_no']}, {turn}'s turn"
    f = view["frame"]
    if f is None:
        phase = view["phase"]
        if phase == "window":
            return f"{head} is over: {decider} may act before the next turn."
        return f"{head}: {_phase_words(state, phase)}."
    return f"{head}: {_frame_words(state, f, decider, names)}"


def _phase_words(state: MonopolyState, phase: str) -> str:
    if phase == "pre_roll":
        return "before the roll"
    if phase == "jail":
        return f"in {state.ed.names.jail}, how to get out"
    if phase == "end_turn":
        return "the moves are done, before ending the turn"
    return phase.replace("_", " ")


def _frame_words(
    state: MonopolyState, f: dict[str, Any], decider: str, names: Sequence[str] | None
) -> str:
    """A decision frame in words, naming who decides."""
    ed = state.ed
    kind = f["frame"]
    if kind == "buy":
        sq = f["square"]
        return f"{decider} may buy {ed.square_names[sq]} for {_money(ed, ed.price[sq])}."
    if kind == "auction":
        item = (
            ed.square_names[f["square"]]
            if f["item"] == 0
            else (ed.names.house if f["item"] == 1 else ed.names.hotel)
        )
        high = (
            f"high bid {_money(ed, f['high'])} by {who(f['high_bidder'], names)}"
            if f["high_bidder"] >= 0
            else f"no bid yet (minimum {_money(ed, f['min_bid'])})"
        )
        return f"auction of {item}, {high}; {decider} to bid."
    if kind == "debt":
        to = "the bank" if f["creditor"] < 0 else who(f["creditor"], names)
        return f"{decider} owes {_money(ed, f['amount'])} to {to} and must raise it."
    if kind == "trade":
        return _offer_text(state, f, names)
    if kind == "mortgage_fee":
        return (
            f"{decider} received mortgaged {ed.square_names[f['deeds'][0]]}: lift the "
            "mortgage now, or keep it and pay the interest."
        )
    if kind == "shortage":
        return f"buildings are short; does {decider} want one too?"
    if kind == "place":
        item = ed.names.hotel if f["item"] == HOTEL else ed.names.house
        return f"{decider} places the {item} won at auction."
    if kind == "snowflake":
        return f"{decider} puts the snowflake on one of their scenes."
    return f"{decider} decides: {kind.replace('_', ' ')}."


def _offer_text(state: MonopolyState, f: dict[str, Any], names: Sequence[str] | None) -> str:
    ed = state.ed
    a, b = who(f["proposer"], names), who(f["target"], names)
    if "deeds" not in f:
        return f"{a} is drafting an offer to {b}."
    gives = [ed.square_names[sq] for sq in f["deeds"] if state.owner[sq] == f["proposer"]]
    gets = [ed.square_names[sq] for sq in f["deeds"] if state.owner[sq] == f["target"]]
    cash = f["cash"]
    if cash > 0:
        gives.append(_money(ed, cash))
    elif cash < 0:
        gets.append(_money(ed, -cash))
    for d in f["cards"]:
        card = f"a {ed.names.jail_card_short}"
        (gives if state.card_holder[d] == f["proposer"] else gets).append(card)
    state_word = "offers" if f.get("responding") else "drafts an offer to"
    return (
        f"{a} {state_word} {b}: gives {', '.join(gives) or 'nothing'}; "
        f"gets {', '.join(gets) or 'nothing'}."
    )


def render_table(state: MonopolyState, seat: int | None = None) -> str:
    """The board, the players and the decision, as one block of text."""
    return "\n".join(
        [render_board(state, seat), *player_lines(state, seat), decision_line(state, seat)]
    )


# -- the choices -------------------------------------------------------------------------


def choice_text(state: MonopolyState, action: Action, names: Sequence[str] | None = None) -> str:
    """A legal action in words for the terminal's list (issue 16): builds and sales with their
    price, trade partners by name and number, the snowflake in words. The rest is the engine's
    :meth:`~MonopolyState.describe_action`, kept as it is (the golden transcripts read it)."""
    ed = state.ed
    k = action.kind
    x = action.args[0] if action.args else 0
    if k == A.BUILD:
        what = ed.names.hotel if state.level[x] == 4 else ed.names.house
        return f"Build a {what} on {ed.square_names[x]} ({_money(ed, ed.house_cost[x])})"
    if k == A.SELL_BUILDING:
        what = ed.names.hotel if state.level[x] == 5 else ed.names.house
        back = ed.house_cost[x] * ed.rules.building_sell_percent // 100
        return f"Sell a {what} on {ed.square_names[x]} (+{_money(ed, back)})"
    if k == A.TRADE:
        return f"Offer a trade to {who(x, names)} (P{x + 1})"
    if k == A.PLACE_SNOWFLAKE:
        return f"Put the snowflake on {ed.square_names[x]}"
    if k == A.PASS and not state.stack:
        return "Nothing now: go on"  # the window's pass (an auction's pass is "drop out")
    draft = state.stack[-1] if state.stack else None
    if isinstance(draft, TradeFrame) and k in (A.TRADE_DEED, A.TRADE_CASH):
        return _draft_text(state, draft, action, names)
    return state.describe_action(action)


def _draft_text(
    state: MonopolyState, f: TradeFrame, action: Action, names: Sequence[str] | None
) -> str:
    """A change to a trade offer being drafted, from the proposer's side: what it gives, what
    it asks for, who pays the cash (by name)."""
    ed = state.ed
    x = action.args[0]
    other = who(f.target, names)
    if action.kind == A.TRADE_CASH:  # named, not "you": a bot's draft is shown to everyone
        if x > 0:
            return f"Cash: {who(f.proposer, names)} pays {_money(ed, x)}"
        return f"Cash: {other} pays {_money(ed, -x)}" if x < 0 else "Cash: none"
    name = ed.square_names[x]
    mine = state.owner[x] == f.proposer
    if x in f.deeds:
        return f"Take {name} out of the offer"
    return f"Give {name}" if mine else f"Ask for {name} ({other}'s)"


# -- deeds and rules ---------------------------------------------------------------------


def find_squares(state: MonopolyState, text: str) -> list[int]:
    """The squares ``text`` names: a square number, else the names starting with it, else the
    names with a word starting with it (``deed carolina``); case does not matter."""
    text = text.strip().lower()
    names = state.ed.square_names
    if text.isdigit():
        return [int(text)] if int(text) < len(names) else []
    if not text:
        return []
    found = [sq for sq, name in enumerate(names) if name.lower().startswith(text)]
    if found:
        return found
    return [
        sq for sq, name in enumerate(names) if any(w.startswith(text) for w in name.lower().split())
    ]


def deed_lines(
    state: MonopolyState, sq: int, seat: int | None = None, names: Sequence[str] | None = None
) -> list[str]:
    """A square's title deed in words: price, rent per level, building cost, mortgage value,
    owner, buildings, mortgage (issue 16: the ``deed N`` command)."""
    ed = state.ed
    info = state.view(seat)["squares"][sq]
    title = f"{sq} {ed.square_names[sq]}"
    if not ed.is_property[sq]:
        return [f"{title}: not a deed; {square_about(ed, sq)}."]
    g = ed.group_of[sq]
    group = ed.groups[g]
    lines = [f"{title} ({group.name}): price {_money(ed, ed.price[sq])}"]
    lines += _rent_lines(state, sq)
    if ed.rules.mortgages:
        lines.append(
            f"  mortgage value {_money(ed, ed.mortgage[sq])}; lifting it costs "
            f"{_money(ed, ed.unmortgage_cost[sq])}"
        )
    others = [ed.square_names[m] for m in group.members if m != sq]
    if others:
        lines.append(f"  the group: {', '.join(others)}")
    owner = info["owner"]
    if owner < 0:
        lines.append("  owned by the bank (for sale)")
    else:
        lvl = info["level"]
        held = f"  owned by {who(owner, names)} (P{owner + 1})"
        if lvl == 5:
            held += f", with a {ed.names.hotel}"
        elif lvl:
            held += f", with {lvl} {ed.names.house}{'s' if lvl > 1 else ''}"
        if info["mortgaged"]:
            held += ", mortgaged"
        if state.snowflake == sq:
            held += ", under the snowflake"
        lines.append(held)
    return lines


def _rent_lines(state: MonopolyState, sq: int) -> list[str]:
    ed = state.ed
    rules = ed.rules
    kind = ed.kind[sq]
    if kind == RAILROAD:
        rents = ", ".join(
            f"{n} owned {_money(ed, r)}" for n, r in enumerate(rules.railroad_rents, 1)
        )
        return [f"  rent by how many of the group the owner has: {rents}"]
    if kind == UTILITY:
        mults = ", ".join(
            f"{n} owned {m} x the dice" for n, m in enumerate(rules.utility_multipliers, 1)
        )
        return [f"  rent: {mults}"]
    rent = ed.rent[sq]
    base = (
        f"  rent {_money(ed, rent[0])}, "
        f"{_money(ed, rent[0] * rules.set_rent_multiplier)} with the whole group"
    )
    if not rules.buildings:
        return [base]
    house, hotel = ed.names.house, ed.names.hotel
    levels = ", ".join(
        f"{n} {house}{'s' if n > 1 else ''} {_money(ed, rent[n])}" for n in (1, 2, 3, 4)
    )
    return [
        base,
        f"  with {levels}, a {hotel} {_money(ed, rent[5])}",
        f"  each {house} costs {_money(ed, ed.house_cost[sq])} "
        f"(a {hotel}: 4 {house}s and {_money(ed, ed.house_cost[sq])} more)",
    ]


def square_about(ed: Edition, sq: int) -> str:
    """What a square that is not a deed does, in the rulebooks' words (issue 38: each
    edition's special squares explained in ``deed N``, ``info`` and the web page's deed box):
    GO, the card decks, taxes, jail or Time Out, Free Parking, Frozen II's Element and
    Snowflake spaces."""
    r = ed.rules
    names = ed.names
    kind = ed.kind[sq]
    salary = _money(ed, r.go_salary)
    if kind == GO:
        return f"collect {salary} each time you pass or land on GO"
    if kind == CARD:
        return f"draw the top {ed.decks[ed.deck_of[sq]].name} card and do what it says"
    if kind == TAX:
        into = " (into the Free Parking pot)" if r.free_parking_money else ""
        return f"landing here costs {_money(ed, ed.tax[sq])}{into}"
    if kind == JAIL:
        return f"landing here you are just visiting; players sent to {names.jail} wait here"
    if kind == FREE_PARKING:
        if r.free_parking_money:
            return (
                "whoever lands here takes the Free Parking pot (taxes, fines and card payments "
                "to the bank)"
            )
        return "nothing happens here: a free rest"
    if kind == GO_TO_JAIL:
        return (
            f"go straight to {names.jail}, without passing GO or collecting {salary}; your "
            "turn ends"
        )
    if kind == ELEMENT:
        after = ed.square_names[ed.nearest[ELEMENT][sq]]
        return (
            f"an Element space: landing here, you travel ahead to the next Element space "
            f"({after}), collecting {salary} if you pass GO"
        )
    if kind == SNOWFLAKE:
        return f"a Snowflake space: {_snowflake_words(ed)}"
    return f"a {KIND_NAMES[kind].replace('_', ' ')} square"


def _snowflake_words(ed: Edition) -> str:
    """Frozen II's snowflake token ("Snowflake"): where it goes and what it does."""
    times = {2: "double", 3: "triple"}.get(
        ed.rules.snowflake_multiplier, f"{ed.rules.snowflake_multiplier} times"
    )
    return (
        "share a favourite family memory, then put the snowflake token on a scene you own "
        f"(moving it if it is on another); the next player to land on that scene pays {times} "
        "the rent, and the snowflake melts"
    )


def special_lines(ed: Edition) -> list[str]:
    """The edition's squares that are not deeds, and its special pieces, one line each (the
    ``info`` command and the web page's rules): the card decks, Frozen II's Element and
    Snowflake spaces and snowflake token, Free Parking."""
    kinds = set(ed.kind)
    lines = []
    decks = [d.name for d in ed.decks]
    if decks:
        lines.append(
            f"{_and(decks)} squares: draw that deck's top card and do what it says; a card that "
            "moves money says how much."
        )
    if ELEMENT in kinds:
        elements = [ed.square_names[q] for q in range(ed.size) if ed.kind[q] == ELEMENT]
        lines.append(
            f"Element spaces ({_and(elements)}): landing on one, you travel ahead to the next."
        )
    if ed.has_snowflake:
        lines.append(
            f"The snowflake token (Snowflake spaces and some cards): {_snowflake_words(ed)}."
        )
    if FREE_PARKING in kinds and not ed.rules.free_parking_money:
        lines.append("Free Parking: nothing happens there.")
    return lines


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_ORDINALS: Final = {2: "second", 3: "third"}


def rules_lines(ed: Edition) -> list[str]:
    """The edition's main rules in words, from its rule options (the ``info`` command)."""
    r = ed.rules
    cur = ed.currency
    dice = f"{r.dice} dice" if r.dice > 1 else "1 die"
    lines = [
        f"{ed.name}: {r.min_players} to {r.max_players} players, {cur}{r.starting_cash} each "
        f"to start, {cur}{r.go_salary} for passing GO; {dice} of {r.die_sides} sides.",
    ]
    lines += special_lines(ed)
    lines += _turn_lines(ed)
    lines += _holding_lines(ed)
    lines += _end_lines(ed)
    return lines


def _turn_lines(ed: Edition) -> list[str]:
    """Doubles, jail and buying, in words."""
    r = ed.rules
    cur = ed.currency
    jail = ed.names.jail
    lines: list[str] = []
    if r.dice > 1 and r.doubles_roll_again:
        lines.append(
            f"Doubles roll again; doubles {r.doubles_to_jail} times in a row go to {jail}."
        )
    if r.jail_style == "jail":
        # (The classic rules: the fine "before you roll the dice on either of your next two
        # turns"; Friends and Frozen II on any: rule option jail_fine_on_last_try.)
        when = "" if r.jail_fine_on_last_try else " before your last try"
        lines.append(
            f"{jail}: pay {cur}{r.jail_fine}{when}, use a {ed.names.jail_card} card, or try "
            f"for doubles (at most {r.max_jail_turns} tries, then pay)."
        )
    else:
        broke = "for free" if r.time_out_broke == "free" else "only by paying (or go broke)"
        lines.append(
            f"{jail}: leave at the start of your next turn with a {ed.names.jail_card} card "
            f"or {cur}{r.jail_fine}; with neither, {broke}."
        )
    if r.must_buy:
        lines.append("You must buy an unowned deed you land on when you can pay for it.")
    elif r.auctions:
        lines.append(
            "An unowned deed you land on: buy it at its price, or it goes to auction "
            f"(bids from {cur}{r.auction_min_bid})."
        )
    else:
        lines.append("An unowned deed you land on: buy it at its price, or leave it.")
    return lines


def _holding_lines(ed: Edition) -> list[str]:
    """Rents of whole groups, buildings, mortgages, trades, claims, the pot and deed limits."""
    r = ed.rules
    lines: list[str] = []
    whole = "none mortgaged" if r.set_rent_needs_all_unmortgaged else "mortgages aside"
    lines.append(f"Owning a whole colour group ({whole}) makes its rent x{r.set_rent_multiplier}.")
    if r.buildings:
        lines.append(
            f"Build {ed.names.house}s evenly on whole groups; 4 {ed.names.house}s then a "
            f"{ed.names.hotel}. The bank has {r.houses} {ed.names.house}s and {r.hotels} "
            f"{ed.names.hotel}s; they sell back at {r.building_sell_percent}%."
        )
    if r.mortgages:
        lines.append(
            f"Mortgage a deed for its mortgage value; lifting it costs "
            f"{r.mortgage_interest_percent}% more."
        )
    if r.trading:
        lines.append(
            f"Trade deeds, cash and {ed.names.jail_card} cards with the other players "
            "whenever building and mortgaging are offered."
        )
    if r.rent_claim_required:
        n = r.rent_claim_turns
        who = "next player" if n == 1 else f"{_ORDINALS.get(n, f'{n}th')} player after the payer"
        lines.append(f"Rent must be claimed before the {who} rolls, or it is lost.")
    if r.free_parking_money:
        lines.append(
            "Free Parking money: taxes, fines and card payments to the bank go into a pot on "
            "Free Parking; whoever lands there takes it."
        )
    if r.max_properties_per_player is not None:
        n = r.max_properties_per_player
        lines.append(f"Each player may own at most {n} deeds ({n} sold signs each).")
    return lines


def _end_lines(ed: Edition) -> list[str]:
    """What a payment nobody can make does, and how the game ends."""
    r = ed.rules
    lines: list[str] = []
    insolvency = {
        "raise_or_bankrupt": "raise money by selling and mortgaging, or go bankrupt",
        "forgive": "the debt is forgiven",
        "ends_game": "the game ends",
    }[r.insolvency]
    lines.append(f"A payment you cannot make: {insolvency}.")
    end = {
        "last_player_standing": "the last player not bankrupt wins",
        "all_properties_owned": "the game ends when every deed is owned",
        "first_bankruptcy": "the game ends at the first bankruptcy",
    }[r.end_condition]
    rank = r.ranking.replace("_", " ")
    lines.append(f"The end: {end}; players are ranked by {rank}.")
    return lines
