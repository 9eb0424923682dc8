"""Trades between players.

Friends rules A, "Trading": "At any time during the game you can buy/sell/or trade with the
other players", only deeds with no buildings in their colour group; "cash, deed cards, Get Out
of Jail Free cards, or any combination of the three"; no promises. A mortgaged deed received
costs the 10% (:mod:`.mortgage`). An offer is built one small choice at a time (add or remove
a deed or card, set the cash), then proposed; the recipient accepts, rejects or counters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import Frame
from meeple.games.monopoly.rules import buildings, holdings, mortgage, table

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


# The actions of a draft's steps (the ones a random player draws: :meth:`TradeFrame.sample`).
_DEED_STEPS: Final = A.made(A.TRADE_DEED)
_CARD_STEPS: Final = A.made(A.TRADE_CARD)
_CASH_STEPS: Final = A.made(A.TRADE_CASH)


class TradeFrame(Frame):
    """A trade offer built one small choice at a time, then answered by its recipient.

    ``deeds`` and ``cards`` are the items changing hands (each goes to whoever does not own
    it); ``cash`` > 0 is paid by the proposer, < 0 by the recipient. ``responding`` is true
    once proposed. ``counters`` counts counter-offers made in this negotiation; ``edits`` the
    changes made to the draft (capped, so a draft always ends: docs/RULES.md, "Trades").
    An offer being drafted is its proposer's secret until proposed (:meth:`seen_by`).
    """

    __slots__ = (
        "_asks",
        "_at",
        "_at_cash",
        "_cards",
        "_menu",
        "_offered",
        "_offers",
        "_steps_cash_p",
        "_steps_cash_q",
        "_steps_stamp",
        "_strange",
        "_tradeable",
        "_tradeables",
        "cards",
        "cash",
        "counters",
        "deeds",
        "edits",
        "proposer",
        "responding",
        "target",
    )
    name = "trade"

    def __init__(
        self,
        proposer: int,
        target: int,
        deeds: list[int] | None = None,
        cards: list[int] | None = None,
        cash: int = 0,
        responding: bool = False,
        counters: int = 0,
        edits: int = 0,
    ) -> None:
        self.edits = edits
        self.proposer = proposer
        self.target = target
        self.deeds = deeds if deeds is not None else []
        self.cards = cards if cards is not None else []
        self.cash = cash
        self.responding = responding
        self.counters = counters
        # ``deeds`` as a bit mask of squares (kept by :func:`toggle_deed`), so that whether
        # each is tradeable is one test (:func:`offer_valid`, asked at every step of a draft);
        # and whether ``deeds`` names a square below 0 (only a save file could: no step adds
        # one), which no mask holds and no offer may give.
        self._offered = 0
        self._strange = False
        for sq in self.deeds:
            if sq < 0:
                self._strange = True
            else:
                self._offered |= 1 << sq
        # The draft's steps (:meth:`steps`: deeds, cards and cash amounts, which make the
        # :meth:`menu`) and what they were worked out for: a copy, a snapshot and a
        # counter-offer work them out again. The menu of actions is made from them when a list
        # is asked for (None until then): a random player's draw needs only the numbers. The
        # deeds are a mask of squares and its count (a draw reads the one drawn from the mask).
        self._tradeable = 0
        self._tradeables = 0
        self._cards: list[int] = _NONE  # (a list made by steps, never changed)
        # The menu's cash steps, which end it, as counts of the cash ladder (:func:`cash_ladder`):
        # the amounts the target's cash covers and those the proposer's does.
        self._asks = 0
        self._offers = 0
        # Where in the ladder the amount the offer holds is (its length if nowhere), and that
        # amount: looked for again only when the amount or the ladder changes.
        self._at = 0
        self._at_cash = 0
        self._menu: list[Action] | None = None
        # What the steps were worked out for: the board stamp (0, which no board has: not yet,
        # or the sides changed places in a counter-offer) and each side's cash.
        self._steps_stamp = 0
        self._steps_cash_p = 0
        self._steps_cash_q = 0

    def decider(self) -> int:
        return self.target if self.responding else self.proposer

    def copy(self) -> TradeFrame:
        return TradeFrame(
            self.proposer,
            self.target,
            list(self.deeds),
            list(self.cards),
            self.cash,
            self.responding,
            self.counters,
            self.edits,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "proposer": self.proposer,
            "target": self.target,
            "deeds": list(self.deeds),
            "cards": list(self.cards),
            "cash": self.cash,
            "responding": self.responding,
            "counters": self.counters,
            "edits": self.edits,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return TradeFrame(
            d["proposer"],
            d["target"],
            list(d["deeds"]),
            list(d["cards"]),
            d["cash"],
            d["responding"],
            d["counters"],
            d["edits"],
        )

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        if self.responding or seat == self.proposer:
            return self.to_dict()
        return {
            "frame": self.name,
            "proposer": self.proposer,
            "target": self.target,
            "drafting": True,
        }

    def without(self, p: int) -> bool:
        return p != self.proposer and p != self.target

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        if self.responding:
            out = [A.A_ACCEPT] if offer_valid(s, self) else []
            out.append(A.A_REJECT)
            if self.counters < s.rules.max_counter_offers:
                out.append(A.A_COUNTER)
            return out
        out = []
        if self.edits < A.MAX_DRAFT_EDITS:
            menu = self.menu(s)
            # The amount the offer holds already is no step: the cash steps end the menu.
            at = len(menu) - self._asks - self._offers + self._ladder_index(self.cash)
            out = menu[:at] + menu[at + 1 :] if at < len(menu) else menu[:]
        if offer_valid(s, self):
            out.append(A.A_PROPOSE)
        out.append(A.A_CANCEL)
        return out

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        """:meth:`legal`'s action drawn by one ``rng.below`` (``Decision.sample``), counted
        off the draft's steps (:meth:`steps`) and made alone: a random player spends half
        its game drafting offers, a step at a time."""
        if self.responding:  # (accept if the offer is valid, reject, counter if allowed)
            valid = offer_valid(s, self)
            may_counter = self.counters < s.rules.max_counter_offers
            i = rng.below(1 + int(valid) + int(may_counter))
            if valid:
                if i == 0:
                    return A.A_ACCEPT
                i -= 1
            return A.A_REJECT if i == 0 else A.A_COUNTER
        n_deeds = n_cards = n_cash = 0
        skip = -1  # the index in the ladder of the amount the offer holds (no step), or -1
        if self.edits < A.MAX_DRAFT_EDITS:
            self.steps(s)
            n_deeds, n_cards, n_cash = self._tradeables, len(self._cards), self._asks + self._offers
            if self.cash != self._at_cash:
                self._at = self._ladder_index(self.cash)
                self._at_cash = self.cash
            at = self._at
            if at < n_cash:
                skip = at
                n_cash -= 1
            # (offer_valid, with the tradeable deeds the steps hold for this board)
            has_items = len(self.deeds) > 0 or len(self.cards) > 0
            valid = has_items and _deliverable(s, self, self._tradeable)
        else:
            valid = offer_valid(s, self)
        i = rng.below(n_deeds + n_cards + n_cash + (2 if valid else 1))
        if i < n_deeds:
            return _DEED_STEPS.of(holdings.nth_square(self._tradeable, i))
        i -= n_deeds
        if i < n_cards:
            return _CARD_STEPS.of(self._cards[i])
        i -= n_cards
        if i < n_cash:
            j = i if skip < 0 or i < skip else i + 1
            return _CASH_STEPS.of(ladder_amount(self._asks, j))
        if valid and i == n_cash:
            return A.A_PROPOSE
        return A.A_CANCEL

    def steps(self, s: MonopolyState) -> None:
        """Work out the steps of the draft, unless done for this board and these two players'
        cash: each tradeable deed of either side (in square order: :func:`tradeable_deeds`
        of both, sorted), each Get Out of Jail Free card either holds, each amount of the cash
        ladder (with 0). Nothing changes the board or either side's cash while an offer is
        drafted (no other action is legal then), so they are worked out once a draft, not
        once a step; the board stamp and the cash they were worked out for make sure (fields
        of their own: a tuple's every field is counted in and out at each read)."""
        p, q = self.proposer, self.target
        cash = s.cash
        if (
            self._steps_stamp == s.board_stamp
            and self._steps_cash_p == cash[p]
            and self._steps_cash_q == cash[q]
        ):
            return
        kept = s.kept
        self._tradeable = tradeable = (kept.held[p] | kept.held[q]) & ~kept.built_bits
        self._tradeables = holdings.count_bits(tradeable)
        holder = s.card_holder
        self._cards = [d for d in range(len(holder)) if holder[d] == p or holder[d] == q]
        self._asks, self._offers = ladder_counts(s, p, q)
        self._at = self._ladder_index(self.cash)
        self._at_cash = self.cash
        self._menu = None
        self._steps_stamp = s.board_stamp
        self._steps_cash_p = cash[p]
        self._steps_cash_q = cash[q]

    def menu(self, s: MonopolyState) -> list[Action]:
        """The steps of the draft (:meth:`steps`) as actions (callers must not change the
        list)."""
        self.steps(s)
        menu = self._menu
        if menu is None:
            menu = [A.act(A.TRADE_DEED, sq) for sq in holdings.squares_of(self._tradeable)]
            menu += [A.act(A.TRADE_CARD, d) for d in self._cards]
            ladder = range(self._asks + self._offers)
            menu += [A.act(A.TRADE_CASH, ladder_amount(self._asks, i)) for i in ladder]
            self._menu = menu
        return menu

    def _ladder_index(self, amount: int) -> int:
        """Where ``amount`` is among the menu's cash steps (:func:`ladder_amount` of the
        draft's counts), else their number: an amount is looked for among the target's
        (``amount`` < 0) or the proposer's, by its place in the ladder (:data:`_LADDER_AT`)."""
        asks, offers = self._asks, self._offers
        size = -amount if amount < 0 else amount
        j = _LADDER_AT[size] if size < len(_LADDER_AT) else -1  # (its place in the ladder)
        if amount < 0:
            if 1 <= j <= asks:
                return asks - j
        elif 0 <= j < offers:
            return asks + j
        return asks + offers

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        """Whether ``kind arg`` is among :meth:`legal`'s (any cash amount in range)."""
        if self.responding:
            if kind == A.ACCEPT:
                return offer_valid(s, self)
            if kind == A.COUNTER:
                return self.counters < s.rules.max_counter_offers
            return kind == A.REJECT
        # (a draft's steps first, the kinds a player plays most: each test compares strings)
        if kind == A.TRADE_DEED:  # (tradeable_deeds of either side, read from their masks)
            if self._steps_stamp == s.board_stamp:  # (the steps hold them for this board)
                tradeable = self._tradeable
            else:
                kept = s.kept
                tradeable = (kept.held[self.proposer] | kept.held[self.target]) & ~kept.built_bits
            return self.edits < A.MAX_DRAFT_EDITS and arg >= 0 and (tradeable >> arg) & 1 == 1
        if kind == A.TRADE_CASH:
            return (
                self.edits < A.MAX_DRAFT_EDITS
                and -s.cash[self.target] <= arg <= s.cash[self.proposer]
            )
        if kind == A.PROPOSE:
            return offer_valid(s, self)
        if kind == A.CANCEL:
            return True
        if kind == A.TRADE_CARD:
            both = (self.proposer, self.target)
            return (
                self.edits < A.MAX_DRAFT_EDITS
                and 0 <= arg < len(s.card_holder)
                and s.card_holder[arg] in both
            )
        return False

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        if kind == A.TRADE_DEED:  # (the kinds played most first)
            self.edits += 1
            toggle_deed(self, arg)
        elif kind == A.TRADE_CASH:
            self.edits += 1
            self.cash = arg
        elif kind == A.CANCEL:
            cancel(s, self)
        elif kind == A.PROPOSE:
            propose(s, self)
        elif kind == A.TRADE_CARD:
            self.edits += 1
            toggle_card(self, arg)
        elif kind == A.ACCEPT:
            accept(s, self)
        elif kind == A.REJECT:
            reject(s, self)
        elif kind == A.COUNTER:
            counter(s, self)


def tradeable_deeds(s: MonopolyState, p: int) -> list[int]:
    """Deeds of ``p`` with no building anywhere in their group."""
    return holdings.squares_of(s.kept.held[p] & ~s.kept.built_bits)


def holders_of_tradeables(s: MonopolyState) -> i64:
    """The seats holding something they could trade (a deed with no building in its group, or a
    Get Out of Jail Free card), as a bit mask: bit ``q`` is set when seat ``q`` holds one. Asked
    for every player after every turn (whether a window opens), so the answer is kept until a
    writer of the board changes who holds what (``Kept.holders_known``: rules/holdings.py); it
    reads each seat's mask of deeds (``Kept.held``). (A machine word in the compiled build:
    seats are few.)"""
    kept = s.kept
    if not kept.holders_known:
        mask: i64 = 0
        held, unbuilt = kept.held, ~kept.built_bits
        for q in range(s.n):
            if held[q] & unbuilt:
                mask |= 1 << q
        for o in s.card_holder:
            if o >= 0:
                mask |= 1 << o
        kept.holders = mask
        kept.alive = alive_mask(s)  # (a seat leaving forgets the holders too)
        kept.holders_known = True
    return kept.holders


def alive_mask(s: MonopolyState) -> i64:
    """The seats still playing, as a bit mask (bit ``q``: seat ``q``)."""
    mask: i64 = 0
    alive = s.alive
    for q in range(s.n):
        if alive[q]:
            mask |= 1 << q
    return mask


def find_holders(s: MonopolyState) -> int:
    """:func:`holders_of_tradeables` worked out afresh (one pass over the board)."""
    owner, group_of = s.owner, s.ed.group_of
    built = buildings.built_groups(s)
    mask = 0
    for sq in s.ed.properties:
        o = owner[sq]
        if o >= 0 and not built[group_of[sq]]:
            mask |= 1 << o
    for o in s.card_holder:
        if o >= 0:
            mask |= 1 << o
    return mask


def can_start(s: MonopolyState, p: int) -> list[int]:
    """The seats ``p`` may open an offer to now: someone on either side has something to trade."""
    wanted = start_mask(s, p)
    return [q for q in table.seats_from(s, (p + 1) % s.n) if (wanted >> q) & 1] if wanted else []


def start_mask(s: MonopolyState, p: int) -> i64:
    """:func:`can_start` as a bit mask (bit ``q``: seat ``q``), without building the list: every
    other player still in when ``p`` holds something tradeable, else those who hold something
    (each of them still in: a player who leaves gives up every deed and card)."""
    if s.offers[p] >= s.rules.max_trade_offers_per_window:
        return 0
    # (the kept answer read here while it stands: a call costs the interpreted build)
    kept = s.kept
    holders = kept.holders if kept.holders_known else holders_of_tradeables(s)
    if (holders >> p) & 1 == 0:
        return holders
    return kept.alive & ~(1 << p)


def may_start(s: MonopolyState, p: int) -> bool:
    """Whether :func:`can_start` offers ``p`` anyone, without building the list (asked for
    every player after every turn: whether a window opens)."""
    return start_mask(s, p) != 0


def start(s: MonopolyState, p: int, q: int) -> None:
    s.offers[p] = s.offers[p] + 1  # (as money.bank_pays says why)
    s.stack.append(TradeFrame(p, q))
    if s._events is not None:
        s.event("trade_started", proposer=p, target=q)


def toggle_deed(f: TradeFrame, sq: int) -> None:
    """Deed ``sq`` (a square, checked legal) joins the offer, or leaves it if it was in."""
    bit = 1 << sq
    f._offered ^= bit
    if not f._offered & bit:
        # (a loop of int compares: ``remove`` compares boxed ints through Python; and ``pop``,
        # since ``del deeds[i]`` is a generic deletion with a boxed index)
        deeds = f.deeds
        for i in range(len(deeds)):
            if deeds[i] == sq:
                deeds.pop(i)
                return
    f.deeds.append(sq)


def toggle_card(f: TradeFrame, d: int) -> None:
    if d in f.cards:
        f.cards.remove(d)
    else:
        f.cards.append(d)


def offer_valid(s: MonopolyState, f: TradeFrame) -> bool:
    """Something changes hands besides cash, and everyone can deliver what the offer says."""
    if not f.deeds and not f.cards:
        return False
    # Either side's deeds in no group with a building, from the masks the board's writers
    # keep (rules/holdings.py): a random player asks at every step of a draft.
    kept = s.kept
    return _deliverable(s, f, (kept.held[f.proposer] | kept.held[f.target]) & ~kept.built_bits)


def _deliverable(s: MonopolyState, f: TradeFrame, tradeable: int) -> bool:
    """Whether everyone can deliver what offer ``f`` says, ``tradeable`` being the deeds of
    either side in no group with a building, as a mask (:func:`offer_valid`; a draft's
    steps hold it: ``TradeFrame.steps``)."""
    p, q = f.proposer, f.target
    if f._strange or f._offered & ~tradeable:  # (the deeds as a mask: TradeFrame._offered)
        return False
    for d in f.cards:
        h = s.card_holder[d]
        if h != p and h != q:
            return False
    if f.cash > 0:
        return s.cash[p] >= f.cash
    return s.cash[q] >= -f.cash


def propose(s: MonopolyState, f: TradeFrame) -> None:
    f.responding = True
    if s._events is not None:
        p = f.proposer
        s.event(
            "trade_offer",
            proposer=p,
            target=f.target,
            deeds=list(f.deeds),
            cards=list(f.cards),
            cash=f.cash,
            # Who gives what (the log says it plainly): each side's deeds and cards.
            proposer_gives=[sq for sq in f.deeds if s.owner[sq] == p],
            target_gives=[sq for sq in f.deeds if s.owner[sq] != p],
            proposer_cards=[d for d in f.cards if s.card_holder[d] == p],
            target_cards=[d for d in f.cards if s.card_holder[d] != p],
        )


def cancel(s: MonopolyState, f: TradeFrame) -> None:
    s.stack.pop()
    if s._events is not None:
        s.event("trade_cancelled", proposer=f.proposer, target=f.target)


def reject(s: MonopolyState, f: TradeFrame) -> None:
    s.stack.pop()
    if s._events is not None:
        s.event("trade_rejected", proposer=f.proposer, target=f.target)


def counter(s: MonopolyState, f: TradeFrame) -> None:
    """The recipient turns the offer round and edits it as their own."""
    f.proposer, f.target = f.target, f.proposer
    f.cash = -f.cash
    f.responding = False
    f.edits = 0
    f.counters += 1
    f._steps_stamp = 0  # (the steps are the other side's now)
    if s._events is not None:
        s.event("trade_countered", proposer=f.proposer, target=f.target)


def accept(s: MonopolyState, f: TradeFrame) -> None:
    """Swap everything, then each side deals with the mortgaged deeds it received."""
    s.stack.pop()
    p, q = f.proposer, f.target
    to_q = [sq for sq in f.deeds if s.owner[sq] == p]
    to_p = [sq for sq in f.deeds if s.owner[sq] != p]
    from_p = [d for d in f.cards if s.card_holder[d] == p]
    if s._events is not None:  # the trade first, then what follows from it (a snowflake)
        s.event(
            "trade_done",
            proposer=p,
            target=q,
            deeds=list(f.deeds),
            cards=list(f.cards),
            cash=f.cash,
            proposer_gives=to_q,
            target_gives=to_p,
            proposer_cards=from_p,
            target_cards=[d for d in f.cards if d not in from_p],
        )
    holdings.give_deeds(s, to_q, q)
    holdings.give_deeds(s, to_p, p)
    for d in f.cards:
        holdings.give_card(s, d, q if d in from_p else p)
    s.cash[p] = s.cash[p] - f.cash  # (not ``-=``: money.bank_pays says why)
    s.cash[q] = s.cash[q] + f.cash
    mortgage.receive_mortgaged(s, q, to_q)
    mortgage.receive_mortgaged(s, p, to_p)


_NONE: Final[list[int]] = []  # (no steps yet; never changed)
_CASH_LADDER: Final[list[int]] = list(A.CASH_LADDER)
"""The ladder as a list held by the module: the compiled build makes a Final tuple of another
module afresh at every use (a loop over its indexes made it once an index)."""
_COVERED: Final[list[int]] = [
    sum(1 for step in A.CASH_LADDER if step <= amount) for amount in range(A.CASH_LADDER[-1])
]
"""How many amounts of the ladder each amount below its last covers (one read, not a loop)."""
_LADDER_AT: Final[list[int]] = [
    A.CASH_LADDER.index(amount) if amount in A.CASH_LADDER else -1
    for amount in range(A.CASH_LADDER[-1] + 1)
]
"""The place in the ladder of each amount up to its last, -1 for an amount not in it."""


def cash_ladder(s: MonopolyState, proposer: int, target: int) -> list[int]:
    """The cash amounts legal_actions lists for an offer from ``proposer`` to ``target``
    (any amount in range is legal; the amount the offer holds already is left out there): what
    the target pays, most first, then what the proposer pays, from 0 (:func:`ladder_counts`,
    :func:`ladder_amount`)."""
    asks, offers = ladder_counts(s, proposer, target)
    return [ladder_amount(asks, i) for i in range(asks + offers)]


def ladder_counts(s: MonopolyState, proposer: int, target: int) -> tuple[int, int]:
    """How many amounts of the ladder (``A.CASH_LADDER``, rising from 0) :func:`cash_ladder`
    lists on each side: the target's cash covers its first ``asks`` past 0, the proposer's its
    first ``offers``."""
    covered = _covered(s.cash[target])
    return (covered - 1 if covered else 0), _covered(s.cash[proposer])


def _covered(cash: int) -> int:
    """How many amounts of the ladder (rising from 0) ``cash`` covers (:data:`_COVERED`)."""
    if cash < 0:
        return 0
    return _COVERED[cash] if cash < len(_COVERED) else len(_CASH_LADDER)


def ladder_amount(asks: int, i: int) -> int:
    """:func:`cash_ladder`'s ``i``-th amount, without the list, for ``asks`` from
    :func:`ladder_counts`."""
    return -_CASH_LADDER[asks - i] if i < asks else _CASH_LADDER[i - asks]
