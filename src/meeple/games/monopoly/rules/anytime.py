"""The any-time actions: building, selling, mortgaging, lifting mortgages, trading, claiming.

Friends rules B, "On Your Turn" and "Don't Wait for the Dice": building, selling, mortgaging,
trading and collecting rent are open to every player "even when it isn't your turn - even if
you're in Jail". The phases of the turn offer all of them (``rules/turns.py``: the windows);
a buyer raising money to buy, and a debtor, may sell and mortgage (the "raise money" subset:
docs/RULES.md, "Raising money to buy"), and a debtor may trade. An edition without buildings,
mortgages or trading (the kids' levels) offers none of those.

Whichever decision offers an any-time action, it is played here (:func:`play`), by the rule
module that owns it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.rules import (
    bankruptcy,
    buildings,
    holdings,
    mortgage,
    rent,
    shortage,
    trade,
)
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng

KINDS: Final = frozenset(
    {A.BUILD, A.SELL_BUILDING, A.SELL_GROUP, A.MORTGAGE, A.UNMORTGAGE, A.TRADE, A.CLAIM_RENT}
)


def options(s: MonopolyState, p: int) -> list[Action]:
    """Every any-time action open to ``p`` now (what a phase of the turn offers)."""
    out = [A.act(A.BUILD, sq) for sq in build_options(s, p)]
    out += raise_money(s, p)
    out += [A.act(A.UNMORTGAGE, sq) for sq in lift_options(s, p)]
    out += [A.act(A.TRADE, q) for q in trade_options(s, p)]
    out += [A.act(A.CLAIM_RENT, i) for i in claim_options(s, p)]
    return out


def sample(s: MonopolyState, p: int, rng: Rng, lead: list[Action]) -> Action:
    """``legal[rng.below(len(legal))]`` for ``legal = lead + options(s, p)`` (a phase's
    list: ``Decision.sample``), without making ``legal``: the squares, groups, seats and
    claims of each kind are counted (the deeds to mortgage and to lift in one pass, the rest
    from lists of ints the rules make or keep anyway), and only the action drawn is made. The
    kinds in :func:`options`' order."""
    r = s.rules
    builds = build_options(s, p)
    sells = groups = _NONE
    if r.buildings and s.kept.built_bits:  # (buildings.any_built: most boards have none)
        sells = buildings.sell_squares(s, p)
        groups = buildings.sell_group_groups(s, p)
    to_mortgage = to_lift = n_mortgages = n_lifts = 0
    if r.mortgages:  # (the deeds as masks, counted here and read again for the one drawn)
        to_mortgage, to_lift = mortgage.deed_masks(s, p)
        n_mortgages = holdings.count_bits(to_mortgage)
        n_lifts = holdings.count_bits(to_lift)
    trades = trade_mask(s, p)
    n_trades = _count_seats(s, trades)
    n_claims = 0
    for c in s.claims:
        if c[0] == p:
            n_claims += 1
    # (the draw a machine word: the steps below subtract without an int's checks)
    i: i64 = rng.below(
        len(lead)
        + len(builds)
        + len(sells)
        + len(groups)
        + n_mortgages
        + n_lifts
        + n_trades
        + n_claims
    )
    if i < len(lead):
        return lead[i]
    i -= len(lead)
    if i < len(builds):
        return _BUILDS.of(builds[i])
    i -= len(builds)
    n_raise = len(sells) + len(groups) + n_mortgages
    if i < n_raise:
        return _raise_drawn(sells, groups, to_mortgage, i)
    i -= n_raise
    if i < n_lifts:
        return _LIFTS.of(holdings.nth_square(to_lift, i))
    i -= n_lifts
    if i < n_trades:
        return _TRADES.of(_nth_seat(s, p, trades, i))
    i -= n_trades
    for k in range(len(s.claims)):
        if s.claims[k][0] == p:
            if i == 0:
                return A.act(A.CLAIM_RENT, k)
            i -= 1
    raise AssertionError("sample: the draw is past the options counted")


def sample_raise(
    s: MonopolyState, p: int, rng: Rng, lead: list[Action], trades: bool, tail: list[Action]
) -> Action:
    """``legal[rng.below(len(legal))]`` for ``legal = lead + raise_money(s, p) + trade seats +
    tail`` (a purchase's or a debt's list: ``Decision.sample``), without making ``legal``: the
    squares, groups and deeds of each kind counted as :func:`sample` counts them, and, with
    ``trades``, the seats of ``trade.can_start`` in its order (a debt's list offers them)."""
    sells = groups = _NONE
    if s.rules.buildings and s.kept.built_bits:  # (nothing to sell on a board with none)
        sells = buildings.sell_squares(s, p)
        groups = buildings.sell_group_groups(s, p)
    to_mortgage = 0
    if s.rules.mortgages:
        to_mortgage = mortgage.mortgage_mask(s, p)
    n_mortgages = holdings.count_bits(to_mortgage)
    seats = trade.start_mask(s, p) if trades else 0
    n_trades = _count_seats(s, seats)
    n_raise = len(sells) + len(groups) + n_mortgages
    i: i64 = rng.below(len(lead) + n_raise + n_trades + len(tail))
    if i < len(lead):
        return lead[i]
    i -= len(lead)
    if i < n_raise:
        return _raise_drawn(sells, groups, to_mortgage, i)
    i -= n_raise
    if i < n_trades:
        return _TRADES.of(_nth_seat(s, p, seats, i))
    return tail[i - n_trades]


def _raise_drawn(sells: list[int], groups: list[int], to_mortgage: int, i: i64) -> Action:
    """The ``i``-th of :func:`raise_money`'s actions, from what it lists: the sales of
    buildings, of groups' buildings, then the mortgages (a mask of squares)."""
    if i < len(sells):
        return A.act(A.SELL_BUILDING, sells[i])
    i -= len(sells)
    if i < len(groups):
        return A.act(A.SELL_GROUP, groups[i])
    return _MORTGAGES.of(holdings.nth_square(to_mortgage, i - len(groups)))


def _count_seats(s: MonopolyState, seats: int) -> int:
    """How many seats still in the mask ``seats`` (a trade's partners) names."""
    n = 0
    if seats:
        for q in range(s.n):
            if (seats >> q) & 1 and s.alive[q]:
                n += 1
    return n


def _nth_seat(s: MonopolyState, p: int, seats: int, i: i64) -> int:
    """The ``i``-th seat still in of the mask ``seats`` from ``p``'s left, as
    ``trade.can_start`` lists them."""
    for k in range(1, s.n + 1):
        q = (p + k) % s.n
        if (seats >> q) & 1 and s.alive[q]:
            if i == 0:
                return q
            i -= 1
    raise AssertionError("the draw is past the seats counted")


_NONE: Final[list[int]] = []  # (no options of a kind the edition lacks; never changed)
# The actions of the kinds a random player draws most (:func:`sample`).
_BUILDS: Final = A.made(A.BUILD)
_MORTGAGES: Final = A.made(A.MORTGAGE)
_LIFTS: Final = A.made(A.UNMORTGAGE)
_TRADES: Final = A.made(A.TRADE)


def has_any(s: MonopolyState, p: int) -> bool:
    """Whether :func:`options` offers ``p`` anything, without building the list.

    Deciding whether a window opens happens after every turn for every other player, so this
    checks the usually non-empty kinds first and stops at the first one found."""
    r = s.rules
    # (a test at a time, each a bool: an ``or`` of lists and bools is an object to test; the
    # claims' length first, as a call costs the interpreted build more than the test)
    if len(s.claims) > 0 and has_claim(s, p):
        return True
    if r.trading and trade.start_mask(s, p) != 0:  # (trade.may_start)
        return True
    if r.mortgages and (mortgage.may_mortgage_any(s, p) or mortgage.may_lift_any(s, p)):
        return True
    if r.buildings and len(buildings.sell_squares(s, p)) > 0:
        return True
    if len(build_options(s, p)) > 0:
        return True
    return r.buildings and len(buildings.sell_group_groups(s, p)) > 0


def raise_money(s: MonopolyState, p: int) -> list[Action]:
    """Selling buildings and mortgaging: what a player short of cash may do."""
    out = []
    if s.rules.buildings:
        out += [A.act(A.SELL_BUILDING, sq) for sq in buildings.sell_squares(s, p)]
        out += [A.act(A.SELL_GROUP, g) for g in buildings.sell_group_groups(s, p)]
    if s.rules.mortgages:
        out += [_MORTGAGES.of(sq) for sq in mortgage.mortgage_squares(s, p)]
    return out


def build_options(s: MonopolyState, p: int) -> list[int]:
    """Streets ``p`` may build on now (none in an edition without buildings): where the rules
    and the bank's stock let ``p`` build (``buildings.build_spots``, kept while the board
    stamp, the seat and the stock stay), those ``p`` can pay for. Cash changes on most turns
    and the rest seldom, so the spots are kept apart from the cash; when ``p`` can pay for the
    dearest of them, the answer is the spots themselves. The audit checks the answer against
    ``buildings.build_squares``. Callers must not change the list.

    A player who holds no whole street group with none of it mortgaged builds nowhere
    (Friends rules B, "Build": "only on a whole colour group"), and is told so without the
    spots: most players of most boards (98% of a random player's asks), whose board changes
    too often for the spots kept to last."""
    if not s.rules.buildings or not may_build_somewhere(s, p):
        return _NONE
    key = s.kept.spots_key
    if key[0] != s.board_stamp or key[1] != p or key[2] != s.houses or key[3] != s.hotels:
        spots = s.kept.build_spots = buildings.build_spots(s, p)
        dearest = 0
        for sq in spots:
            if s.ed.house_cost[sq] > dearest:
                dearest = s.ed.house_cost[sq]
        s.kept.spots_dearest = dearest
        s.kept.spots_key = (s.board_stamp, p, s.houses, s.hotels)
        s.kept.builds_cash = -1
    cash = s.cash[p]
    if cash >= s.kept.spots_dearest:
        return s.kept.build_spots
    if cash != s.kept.builds_cash:
        cost = s.ed.house_cost
        s.kept.builds = [sq for sq in s.kept.build_spots if cost[sq] <= cash]
        s.kept.builds_cash = cash
    return s.kept.builds


def may_build_somewhere(s: MonopolyState, p: int) -> bool:
    """Whether ``p`` owns every street of some street group, none of them mortgaged (where
    ``buildings.build_spots`` may find a spot): ``Kept.builders``, which the board's writers
    keep (rules/holdings.py)."""
    return (s.kept.builders >> p) & 1 == 1


def lift_options(s: MonopolyState, p: int) -> list[int]:
    """Mortgaged deeds ``p`` can afford to lift now."""
    return mortgage.unmortgage_squares(s, p) if s.rules.mortgages else []


def trade_options(s: MonopolyState, p: int) -> list[int]:
    """Seats ``p`` may open a trade offer to now."""
    return trade.can_start(s, p) if s.rules.trading else []


def trade_mask(s: MonopolyState, p: int) -> int:
    """:func:`trade_options` as a bit mask of seats (bit ``q``: seat ``q``)."""
    return trade.start_mask(s, p) if s.rules.trading else 0


def claim_options(s: MonopolyState, p: int) -> list[int]:
    """Indexes of the rent claims ``p`` may make now (the rent-claims option)."""
    return [i for i, c in enumerate(s.claims) if c[0] == p] if s.claims else []


def has_claim(s: MonopolyState, p: int) -> bool:
    """Whether :func:`claim_options` offers ``p`` anything (without building the list)."""
    for c in s.claims:
        if c[0] == p:
            return True
    return False


def allows(s: MonopolyState, p: int, kind: str, arg: int) -> bool:
    """Whether any-time action ``kind arg`` is among :func:`options`' (without the list). (The
    kinds a player plays most first: each test of a kind compares strings.)"""
    if kind == A.MORTGAGE:
        return may_raise(s, p, kind, arg)
    if kind == A.UNMORTGAGE:  # (lift_options, from the mask they are read from)
        return s.rules.mortgages and arg >= 0 and (mortgage.lift_mask(s, p) >> arg) & 1 == 1
    if kind == A.TRADE:
        return 0 <= arg < s.n and (trade_mask(s, p) >> arg) & 1 == 1
    if kind == A.BUILD:
        return arg in build_options(s, p)
    if kind == A.CLAIM_RENT:
        return arg in claim_options(s, p)
    return may_raise(s, p, kind, arg)


def may_raise(s: MonopolyState, p: int, kind: str, arg: int) -> bool:
    """Whether ``kind arg`` is among :func:`raise_money`'s (a square's own rule, not the
    lists: a built square has one owner, so ``sell_squares`` is ``can_sell`` of each; and
    ``mortgage_squares`` are read from a mask, ``mortgage.mortgage_mask``)."""
    if kind == A.MORTGAGE:
        return s.rules.mortgages and arg >= 0 and (mortgage.mortgage_mask(s, p) >> arg) & 1 == 1
    if kind == A.SELL_BUILDING:
        return s.rules.buildings and 0 <= arg < s.ed.size and buildings.can_sell(s, p, arg)
    if kind == A.SELL_GROUP:
        return s.rules.buildings and arg in buildings.sell_group_groups(s, p)
    return False


def play(s: MonopolyState, p: int, kind: str, arg: int) -> None:
    """``p`` takes any-time action ``kind arg`` (checked legal)."""
    if kind == A.BUILD:
        shortage.request_build(s, p, arg)
    elif kind == A.SELL_BUILDING:
        buildings.sell(s, p, arg)
    elif kind == A.SELL_GROUP:
        buildings.sell_group(s, p, arg)
    elif kind == A.MORTGAGE:
        mortgage.mortgage(s, p, arg)
    elif kind == A.UNMORTGAGE:
        mortgage.unmortgage(s, p, arg)
    elif kind == A.TRADE:
        trade.start(s, p, arg)
    elif kind == A.CLAIM_RENT:
        owner, payer, amount, _, sq = s.claims.pop(arg)
        if s._events is not None:
            s.event("rent", owner=owner, payer=payer, square=sq, amount=amount)
        bankruptcy.charge(s, payer, owner, amount)


# -- reasons for a refusal -----------------------------------------------------------------


def refusal(s: MonopolyState, p: int, action: Action) -> str:
    """Why a mortgage, a lift or a sale of a building on a square is refused, in the rules'
    words, or "" when the square's own rule allows it (or the action is another kind)."""
    why = _DEED_REASONS.get(action.kind)
    if why is None or len(action.args) != 1 or not 0 <= action.args[0] < s.ed.size:
        return ""
    return why(s, p, action.args[0])


def build_refusal(s: MonopolyState, p: int, sq: int) -> str:
    """Why ``p`` may not build on ``sq`` now (rules/buildings.py)."""
    ed = s.ed
    if not 0 <= sq < ed.size or ed.kind[sq] != STREET:
        return f"square {sq} is not a street"
    g = ed.group_of[sq]
    name = ed.square_names[sq]
    if not rent.owns_group(s, p, g):
        return f"you do not own every street of {ed.groups[g].name}"
    if any(s.mortgaged[m] for m in ed.groups[g].members):
        return f"a street of {ed.groups[g].name} is mortgaged"
    if s.level[sq] >= buildings.HOTEL_LEVEL:
        return f"{name} already has a {ed.names.hotel}"
    if not buildings.even_build_ok(s, sq):
        return f"build evenly: another street of {ed.groups[g].name} has fewer buildings"
    if s.cash[p] < ed.house_cost[sq]:
        return f"cash {s.cash[p]} is less than the cost {ed.house_cost[sq]}"
    return f"the bank has no {ed.names.hotel if s.level[sq] == 4 else ed.names.house} left"


def _mortgage_refusal(s: MonopolyState, p: int, sq: int) -> str:
    """Why ``p`` may not mortgage ``sq`` (rules/mortgage.py), or "" when the deed allows it."""
    ed = s.ed
    if not s.rules.mortgages:
        return "this edition has no mortgages"
    if s.owner[sq] != p:
        return f"you do not own {ed.square_names[sq]}"
    if s.mortgaged[sq]:
        return f"{ed.square_names[sq]} is mortgaged already"
    g = ed.group_of[sq]
    if ed.kind[sq] == STREET and buildings.group_has_buildings(s, g):
        return f"sell the buildings on {ed.groups[g].name} first"
    return ""


def _lift_refusal(s: MonopolyState, p: int, sq: int) -> str:
    """Why ``p`` may not lift the mortgage on ``sq``, or "" when the deed allows it."""
    ed = s.ed
    if s.owner[sq] != p:
        return f"you do not own {ed.square_names[sq]}"
    if not s.mortgaged[sq]:
        return f"{ed.square_names[sq]} is not mortgaged"
    if s.cash[p] < ed.unmortgage_cost[sq]:
        return f"lifting it costs {ed.unmortgage_cost[sq]}; you have {s.cash[p]}"
    return ""


def _sell_refusal(s: MonopolyState, p: int, sq: int) -> str:
    """Why ``p`` may not sell a building on ``sq`` (rules/buildings.py), or ""."""
    ed = s.ed
    if s.owner[sq] != p:
        return f"you do not own {ed.square_names[sq]}"
    if s.level[sq] == 0:
        return f"{ed.square_names[sq]} has no buildings"
    if not buildings.even_sell_ok(s, sq):
        return f"sell evenly: another street of {ed.groups[ed.group_of[sq]].name} has more"
    if not buildings.can_sell(s, p, sq):
        return f"the bank has too few {ed.names.house}s to break the {ed.names.hotel} up evenly"
    return ""


_DEED_REASONS: Final = {
    A.MORTGAGE: _mortgage_refusal,
    A.UNMORTGAGE: _lift_refusal,
    A.SELL_BUILDING: _sell_refusal,
}
