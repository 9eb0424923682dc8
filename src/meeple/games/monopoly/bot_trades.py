"""The standard Monopoly bot's trades: the offers it drafts to complete one of its street sets,
what it remembers of the offers it made (docs/BOTS.md, "Trades: what it remembers"), and its
answer to an offer made to it.

A layer of :class:`~meeple.games.monopoly.bots.StandardBot` (``bots.py`` says why the bot is a
few layers of one class), above its reading of the board (:mod:`.bot_reading`): the offers come
from the groups that reading finds split between the bot and one other player.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bot_params import Params
from meeple.games.monopoly.bot_reading import BoardReading
from meeple.games.monopoly.rules import anytime, trade
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.arrays import int_array
from meeple.kernel.protocol import Action

# The kinds of action the trades make with an argument (actions.Made: bots.py says why).
_TRADE: Final = A.made(A.TRADE)
_TRADE_DEED: Final = A.made(A.TRADE_DEED)
_TRADE_CASH: Final = A.made(A.TRADE_CASH)

Offer = tuple[int, tuple[int, ...], int]
"""A trade offer the standard bot may make: (partner, deeds changing hands, cash it pays)."""


class OfferMaking(BoardReading):
    """The standard bot's trades (the module docstring): offers, their memory, answers."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed, params)
        self.plan: list[Action] = []  # the rest of a trade offer being drafted
        # Who owns what (owners), as a tuple looked at once per board stamp and replaced only
        # when ownership changed: the trade caches below compare it by identity. The seats'
        # masks of deeds it was made from (Kept.held).
        self._owners_stamp = 0
        self._owners: tuple[int, ...] = ()
        self._owners_held: list[int] = []
        self._offers_me = -1  # the seat and board stamp the offer shapes were worked out for
        self._offers_stamp = 0
        self._offers: list[Offer] = []
        self._no_offer_turn = -1  # the turn in which no trade offer was found
        # Offers made in this game, each with the partner's cash when it was last made: one is
        # made again only once the partner holds less than half that (find_offer).
        self._made: dict[Offer, int] = {}
        # The owners and seat for which no offer could be made (each was made before, or out
        # of my reach: find_offer), the least cash one of those out of reach asked of me (-1:
        # none was), and per seat the most cash it had when one of them was made to it (a
        # partner poorer than half that may be asked again), with the mask of those seats.
        self._stuck_owners: tuple[int, ...] = ()
        self._stuck_me = -1
        self._stuck_least = -1
        self._stuck_cash = int_array([])
        self._stuck_partners = 0

    # -- trades ---------------------------------------------------------------------------

    def trade_plan(self, s: MonopolyState, me: int, reserve: int) -> list[Action] | None:
        """An offer I may make now that completes one of my street sets: first a swap that
        completes one of theirs too (cash evens out the prices), else cash at a premium over
        the price; None if there is none I can afford. (Not asked again in a turn in which it
        found none, ``_no_offer_turn``: :meth:`manage` tests that before calling.)"""
        offers = self.offer_shapes(s, me)
        if offers:
            owners = self.owners(s)
            # None will do while the offers found none last time on this ownership (they are
            # the same while ownership and seat are): until I have more cash to spare than the
            # cheapest one out of my reach asked, or a partner is poorer by half than when it
            # refused one.
            hopeless = (
                owners is self._stuck_owners
                and me == self._stuck_me
                and (self._stuck_least < 0 or s.cash[me] - self._stuck_least < reserve)
                and not self.partner_poorer(s)
            )
            targets = 0 if hopeless else anytime.trade_mask(s, me)
            if targets:
                plan = self.find_offer(s, me, offers, targets, reserve)
                if plan:
                    return plan
        self._no_offer_turn = s.turn_no  # nothing changes enough within a turn to look again
        return None

    def find_offer(
        self, s: MonopolyState, me: int, offers: list[Offer], targets: int, reserve: int
    ) -> list[Action]:
        """The actions making the first of ``offers`` (:meth:`offer_shapes`) to one of
        ``targets`` (a bit mask of seats: :meth:`MonopolyState.trade_mask`) that both sides can
        pay for and that was not made before in this game, or was made to a partner who now
        holds less than half the cash it had then (docs/BOTS.md, "Trades: what it remembers":
        an offer exists only while its deeds' groups are split as it says, so nothing else a
        standard player's answer depends on can have changed)."""
        made = self._made
        cash = s.cash[me]
        stuck = True  # so far every offer was out of my reach, or made before
        least = -1  # the least cash any of those out of my reach asked of me
        # Per seat, the most cash it had when one of those made before was made to it, and
        # the mask of those seats (a list only once there is one: most searches end sooner).
        most: list[int] | None = None
        partners: i64 = 0
        for offer in offers:
            q, deeds, balance = offer
            if balance > 0 and cash - balance < reserve:
                if least < 0 or balance < least:
                    least = balance
                continue
            was = made.get(offer, -1)
            if was >= 0 and 2 * s.cash[q] >= was:
                if most is None:
                    most = [0] * s.n
                if was > most[q]:
                    most[q] = was
                    partners |= 1 << q
                continue
            if not (targets >> q) & 1 or (balance < 0 and s.cash[q] < -balance):
                stuck = False
                continue
            made[offer] = s.cash[q]
            plan = [_TRADE.of(q)]
            plan += [_TRADE_DEED.of(m) for m in deeds]
            if balance:
                plan.append(_TRADE_CASH.of(balance))
            return [*plan, A.A_PROPOSE]
        if stuck:
            self._stuck_owners, self._stuck_me = self.owners(s), me
            self._stuck_least = least
            self._stuck_partners = partners
            if most is not None:
                self._stuck_cash = int_array(most)
        else:
            self._stuck_owners = ()
        return []

    def partner_poorer(self, s: MonopolyState) -> bool:
        """Whether a seat to which :meth:`find_offer`, finding nothing to offer, found an
        offer made before now holds less than half the cash it had then, so that the offer
        may be made again."""
        cash, most = s.cash, self._stuck_cash
        partners: i64 = self._stuck_partners
        q = 0
        while partners:
            if partners & 1 and 2 * cash[q] < most[q]:
                return True
            partners >>= 1
            q += 1
        return False

    def offer_shapes(self, s: MonopolyState, me: int) -> list[Offer]:
        """Every offer completing one of my street sets, best first, as (partner, the deeds
        changing hands, the cash I pay). They depend on who owns which streets alone (a group
        with a building has one owner, so it is in no offer): they are made again only when
        :meth:`read_board` found that the player a street group is split with, or the deeds I
        lack of it, changed."""
        if me == self._offers_me and s.board_stamp == self._offers_stamp:
            return self._offers
        self.read_board(s, me)
        if self._splits_changed or me != self._offers_me:
            self._offers = self.make_offers(s, me)
            self._splits_changed = False
        self._offers_me, self._offers_stamp = me, s.board_stamp
        return self._offers

    def make_offers(self, s: MonopolyState, me: int) -> list[Offer]:
        """:meth:`offer_shapes` worked out from the split groups it found."""
        ed, owner = s.ed, s.owner
        groups, partner, wants = ed.street_groups, self._partner, self._wants
        out: list[Offer] = []
        # Swaps completing a set each, the difference in price paid in cash.
        for i, q in enumerate(partner):
            if q < 0:
                continue
            want = wants[i]
            for j, qj in enumerate(partner):
                if j == i or qj != q:
                    continue
                give = [m for m in ed.groups[groups[j]].members if owner[m] == me]
                balance = 0
                for m in want:
                    balance += ed.price[m]
                for m in give:
                    balance -= ed.price[m]
                out.append((q, tuple(sorted(want + give)), balance))
        # Cash at a premium for the one or two deeds I lack, all held by one player.
        for i, q in enumerate(partner):
            missing = wants[i]
            if q < 0 or len(missing) > 2:
                continue
            price = 0
            for m in missing:
                price += ed.price[m]
            for premium in (self.p.trade_premium, self.p.trade_premium_last):
                out.append((q, tuple(missing), int(price * (1 + premium))))
        return out

    def owners(self, s: MonopolyState) -> tuple[int, ...]:
        """Who owns what now, as a tuple: the board's size, then each seat's mask of deeds
        (``Kept.held``, kept by the board's writers: they say who owns each square in a few
        numbers). The same object until ownership changes: after a change of the board, the
        masks are compared with those it was made from (most changes are buildings and
        mortgages, not owners)."""
        if self._owners_stamp == s.board_stamp:
            return self._owners
        held = s.kept.held
        if held != self._owners_held or not self._owners or self._owners[0] != len(s.owner):
            self._owners_held = held[:]
            self._owners = (len(s.owner), *held)
        self._owners_stamp = s.board_stamp
        return self._owners

    def trade_step(self, s: MonopolyState, me: int, f: TradeFrame) -> Action:
        if f.responding:
            if trade.offer_valid(s, f) and self.fair(s, me, f):
                return A.A_ACCEPT
            return A.A_REJECT
        while self.plan:
            step = self.plan.pop(0)
            if s.is_legal(step):
                return step
        self.plan = []
        return A.A_CANCEL

    def fair(self, s: MonopolyState, me: int, f: TradeFrame) -> bool:
        """Accept when what I get is worth at least what I give, and I hand nobody a set for
        nothing (a deed completing their set costs ``set_gift_penalty`` times its price)."""
        other = f.proposer
        gets = [sq for sq in f.deeds if s.owner[sq] == other]
        gives = [sq for sq in f.deeds if s.owner[sq] == me]
        value = float(f.cash)  # > 0: the proposer (the other player) pays me
        value += sum(self.deed_value(s, me, sq) for sq in gets)
        my_set = any(self.completes_set_for(s, me, sq, gets) for sq in gets)
        value += 50.0 * sum(1 for j in f.cards if s.card_holder[j] == other)
        value -= 50.0 * sum(1 for j in f.cards if s.card_holder[j] == me)
        for sq in gives:
            cost = self.deed_value(s, me, sq)
            if not my_set and self.completes_set_for(s, other, sq, gives):
                cost = max(cost, s.ed.price[sq] * self.p.set_gift_penalty)
            value -= cost
        return value >= self.p.accept_margin
