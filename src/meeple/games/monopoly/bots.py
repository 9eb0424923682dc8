"""Monopoly bots: ``standard`` (plays like a good human) and ``param`` (the same, from a file).

The standard bot values a deed by what it earns and which sets it completes or blocks, bids up
to that value, keeps a cash reserve that grows with the danger on the board (the highest rent an
opponent can charge now), builds evenly to the third house first, leaves jail early in the game
and stays in late, raises money in the least damaging order (mortgage loose deeds, then sell
buildings, then mortgage sets), proposes only trades that complete one of its sets for a fair
price, accepts only trades worth at least what it gives, and never hands an opponent a set for
nothing. It reads only what is on the table (never the deck order or the random state) and owns
its random stream.

``param`` bots take every threshold from :class:`Params`, loaded from a JSON file
(``--bots param:FILE``), for experiments.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from meeple.bots.base import Bot
from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import (
    DEED,
    AuctionFrame,
    BuyFrame,
    DebtFrame,
    MortgageFeeFrame,
    PlaceFrame,
    ShortageFrame,
    SnowflakeFrame,
    TradeFrame,
)
from meeple.games.monopoly.rules import bankruptcy, buildings, buying, mortgage, rent, trade
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY
from meeple.kernel.protocol import Action, GameState


@dataclass(frozen=True)
class Params:
    """Every threshold of the standard bot (the ``param`` bot reads them from JSON)."""

    reserve_min: int = 50  # keep at least this much cash
    reserve_danger_share: float = 0.4  # ... plus this share of the worst rent on the board
    reserve_max: int = 600
    set_bonus: float = 1.5  # a deed completing my set is worth price x (1 + this)
    partial_bonus: float = 0.3  # ... price x (1 + this x deeds of its group I own)
    block_bonus: float = 0.5  # ... plus price x this when it stops an opponent's set
    bid_share: float = 1.0  # bid up to this share of the value
    build_first_to: int = 3  # build every set evenly to this many houses first
    build_beyond_extra: int = 150  # build further only with this much cash above the reserve
    jail_stay_owned_share: float = 0.7  # stay in jail once this share of deeds is owned
    trade_premium: float = 0.6  # offer price x (1 + this) for the deeds completing a set
    # ... and once that is refused, price x (1 + this): above what a player who fears handing
    # over a set asks (set_gift_penalty), so a board where no swap exists does not stall.
    trade_premium_last: float = 3.2
    accept_margin: float = 0.0  # accept an offer worth at least this much more than it costs
    set_gift_penalty: float = 4.0  # a deed completing an opponent's set costs price x this
    unmortgage_extra: int = 100  # lift a mortgage only with this much above the reserve

    @classmethod
    def from_file(cls, path: str | Path) -> Params:
        """Load parameters from JSON; unknown keys or wrong types raise ``ValueError``."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: cannot read bot parameters: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: bot parameters must be a JSON object")
        known = {f.name: f.type for f in fields(cls)}
        out = asdict(cls())
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"{path}: {key}: unknown parameter; known: {', '.join(known)}")
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"{path}: {key}: must be a number")
            out[key] = value
        return cls(**out)


Offer = tuple[int, tuple[int, ...], int]
"""A trade offer the standard bot may make: (partner, deeds changing hands, cash it pays)."""


class StandardBot(Bot):
    """A heuristic player for every Monopoly edition (see the module docstring)."""

    name = "standard"

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed)
        self.p = params or Params()
        self.plan: list[Action] = []  # the rest of a trade offer being drafted
        # Caches keyed by (seat, board stamp): the valuations depend on the board alone, and the
        # stamp changes whenever it does, so the play loop does not rescan the board.
        self._reserve_me = -1  # the seat and stamp the reserve was worked out for
        self._reserve_stamp = 0
        self._reserve = 0
        self._has_set = False  # I own a whole street group (kept with the reserve)
        self._min_house = 0  # ... and the cheapest house on such a group
        self._my_mortgages = False  # I have a mortgaged deed (kept with the reserve)
        # Who owns each square, as a tuple made once per board stamp and replaced only when
        # ownership changed: the trade caches below compare it by identity.
        self._owners_stamp = 0
        self._owners: tuple[int, ...] = ()
        self._offers_me = -1  # the seat and owners the offer shapes were worked out for
        self._offers_owners: tuple[int, ...] = ()
        self._offers: list[Offer] = []
        self._no_offer_turn = -1  # the turn in which no trade offer was found
        # Offers already made, by who owned what when they were made: the same offer on the same
        # board would get the same answer, so it is not made again until ownership changes.
        self._offered: dict[tuple[int, ...], set[Offer]] = {}
        self._made_owners: tuple[int, ...] = ()  # the owners _made belongs to
        self._made: set[Offer] = set()

    # -- the decision ----------------------------------------------------------------------

    def choose(self, state: GameState) -> Action:
        assert isinstance(state, MonopolyState)
        s = state
        me = s.current_player()
        # Most decisions are read off the state and the rule functions, not off the full list
        # of legal actions: building that list for every window is most of a game's cost.
        top = s.stack[-1] if s.stack else None
        if top is None:
            self.plan = []
            if s.phase == s.JAIL:
                return self.jail_choice(s, me, self.reserve(s, me))
            return self.manage(s, me)
        if isinstance(top, TradeFrame):
            return self.trade_step(s, me, top)
        self.plan = []
        if isinstance(top, BuyFrame):
            return self.buy(s, me, top)
        if isinstance(top, AuctionFrame):
            return self.bid(s, me, top)
        if isinstance(top, MortgageFeeFrame):
            sq = top.deeds[0]
            cost = s.ed.unmortgage_cost[sq]
            if s.cash[me] >= cost and s.cash[me] - cost >= self.reserve(s, me):
                return Action(A.LIFT_MORTGAGE, (sq,))
            return Action(A.KEEP_MORTGAGE, (sq,))
        if isinstance(top, ShortageFrame):
            cost = s.ed.house_cost[top.square]
            wants = s.cash[me] - cost >= self.reserve(s, me)
            return A.A_WANT if wants else A.A_NO
        if isinstance(top, DebtFrame):
            return self.raise_money(s, me, top)
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if isinstance(top, PlaceFrame | SnowflakeFrame):
            return max(legal, key=lambda a: self.square_rent(s, a.args[0]))
        return legal[0]

    # -- valuation -------------------------------------------------------------------------

    def reserve(self, s: MonopolyState, me: int) -> int:
        """Cash to keep: grows with the worst rent an opponent can charge now."""
        if me == self._reserve_me and s.board_stamp == self._reserve_stamp:
            return self._reserve
        danger = 0
        ed = s.ed
        owner, mortgaged, kind, house_cost = s.owner, s.mortgaged, ed.kind, ed.house_cost
        rents = rent.rents_now(s)  # (as square_rent reads them, without a call per square)
        self._my_mortgages = False
        for sq in ed.properties:
            o = owner[sq]
            if o == me:
                if mortgaged[sq]:
                    self._my_mortgages = True
            elif o >= 0 and not mortgaged[sq]:
                r = rents[sq] * 7 if kind[sq] == UTILITY else rents[sq]
                if r > danger:
                    danger = r
        p = self.p
        self._reserve_me, self._reserve_stamp = me, s.board_stamp
        # The cheapest house on a street group I own whole (0: none): below it, no building.
        self._has_set = False
        self._min_house = 0
        for g in ed.street_groups:
            if rent.owns_group(s, me, g):
                for m in ed.groups[g].members:
                    if not self._has_set or house_cost[m] < self._min_house:
                        self._min_house = house_cost[m]
                    self._has_set = True
        self._reserve = int(min(p.reserve_max, max(p.reserve_min, danger * p.reserve_danger_share)))
        return self._reserve

    def square_rent(self, s: MonopolyState, sq: int) -> int:
        """The rent ``sq`` charges now (a utility at an average roll of 7)."""
        r = rent.rents_now(s)[sq]
        return r * 7 if s.ed.kind[sq] == UTILITY else r

    def deed_value(self, s: MonopolyState, me: int, sq: int) -> float:
        """What ``sq`` is worth to ``me``: its price, more if it completes, grows or blocks a
        set."""
        ed = s.ed
        price = float(ed.price[sq])
        members = ed.groups[ed.group_of[sq]].members
        mine = sum(1 for m in members if m != sq and s.owner[m] == me)
        kind = ed.kind[sq]
        p = self.p
        if kind == STREET:
            if mine == len(members) - 1:
                value = price * (1 + p.set_bonus)
            else:
                value = price * (1 + p.partial_bonus * mine)
            others = {s.owner[m] for m in members if m != sq}
            if len(others) == 1 and -1 not in others and me not in others:
                value += price * p.block_bonus
            return value
        if kind == RAILROAD:
            return price * (1 + 0.25 * mine)
        if kind == UTILITY:
            return price * (0.7 + 0.3 * mine)
        return price

    def completes_set_for(self, s: MonopolyState, p: int, sq: int, extra: list[int]) -> bool:
        """Whether ``p`` would own all of ``sq``'s street group after receiving ``extra``."""
        ed = s.ed
        if ed.kind[sq] != STREET:
            return False
        return all(s.owner[m] == p or m in extra for m in ed.groups[ed.group_of[sq]].members)

    # -- decisions ------------------------------------------------------------------------

    def buy(self, s: MonopolyState, me: int, f: BuyFrame) -> Action:
        if buying.can_buy(s, f):
            price = s.ed.price[f.square]
            value = self.deed_value(s, me, f.square)
            if s.cash[me] - price >= self.reserve(s, me) or value >= 2 * price:
                return A.A_BUY
        return A.A_DECLINE

    def bid(self, s: MonopolyState, me: int, f: AuctionFrame) -> Action:
        low = f.next_min()
        if f.item == DEED:
            limit = self.deed_value(s, me, f.square) * self.p.bid_share
        else:  # a building in a shortage: worth up to one and a half times its list price
            limit = 1.5 * max(s.ed.house_cost[sq] for sq in s.ed.properties)
        limit = min(limit, s.cash[me] - self.reserve(s, me) // 2)
        if low > limit:
            return A.A_PASS
        # Jump a quarter of the way to the limit, as people do, instead of creeping up by the
        # minimum: never past the limit, and an auction takes a few bids, not hundreds.
        return Action(A.BID, (low + int(limit - low) // 4,))

    def raise_money(self, s: MonopolyState, me: int, f: DebtFrame) -> Action:
        """Least damaging first: mortgage deeds outside sets (cheapest rent first), sell
        buildings (cheapest houses first), sell a whole group, mortgage set deeds, bankrupt.
        Read off the option lists the legal actions are made of (the same order)."""
        ed, r = s.ed, s.rules
        mortgages = mortgage.mortgage_squares(s, me) if r.mortgages else []
        loose = [
            sq
            for sq in mortgages
            if ed.kind[sq] != STREET or not rent.owns_group(s, me, ed.group_of[sq])
        ]
        if loose:  # the first of the lowest rent + price (loops: no key function to call)
            sq, best = -1, 0
            for m in loose:
                cost = self.square_rent(s, m) + ed.price[m]
                if sq < 0 or cost < best:
                    sq, best = m, cost
            return Action(A.MORTGAGE, (sq,))
        sells = buildings.sell_squares(s, me) if r.buildings else []
        if sells:  # the first of the cheapest houses, the highest level among those
            sq = sells[0]
            for m in sells:
                c, b = ed.house_cost[m], ed.house_cost[sq]
                if c < b or (c == b and s.level[m] > s.level[sq]):
                    sq = m
            return Action(A.SELL_BUILDING, (sq,))
        groups = buildings.sell_group_groups(s, me) if r.buildings else []
        if groups:
            return Action(A.SELL_GROUP, (groups[0],))
        if mortgages:
            return Action(A.MORTGAGE, (mortgages[0],))
        if bankruptcy.can_declare(s, f):
            return A.A_BANKRUPT
        return s.legal_actions()[0]  # only trades left: the first

    def manage(self, s: MonopolyState, me: int) -> Action:
        """Before a roll, at the end of a turn or in a window: claim rent, lift mortgages,
        build, trade, then move on. The options come from the state's own option lists (the
        ones its legal actions are made of)."""
        claims = s.claim_options(me)
        if claims:
            return Action(A.CLAIM_RENT, (claims[0],))
        reserve = self.reserve(s, me)
        cash = s.cash[me]
        ed = s.ed
        # Lift mortgages on set deeds first, when rich.
        lifts = s.lift_options(me) if self._my_mortgages else []  # (set by self.reserve)
        if lifts:  # the first of the most valuable
            sq, best = -1, 0.0
            for m in lifts:
                value = self.deed_value(s, me, m)
                if sq < 0 or value > best:
                    sq, best = m, value
            if cash - ed.unmortgage_cost[sq] >= reserve + self.p.unmortgage_extra:
                return Action(A.UNMORTGAGE, (sq,))
        # (_has_set and _min_house were set by self.reserve above)
        can_pay = self._has_set and cash - self._min_house >= reserve
        builds = s.build_options(me) if can_pay else []
        if builds:
            sq = builds[0]  # the first of the lowest level, the dearest houses among those
            for m in builds:
                lm, ls = s.level[m], s.level[sq]
                if lm < ls or (lm == ls and ed.house_cost[m] > ed.house_cost[sq]):
                    sq = m
            extra = 0 if s.level[sq] < self.p.build_first_to else self.p.build_beyond_extra
            if cash - ed.house_cost[sq] >= reserve + extra:
                return Action(A.BUILD, (sq,))
        offer = self.trade_plan(s, me, reserve)
        if offer:
            self.plan = offer[1:]
            return offer[0]
        if s.phase == s.PRE_ROLL:
            return A.A_ROLL
        return A.A_END_TURN if s.phase == s.END_TURN else A.A_PASS

    def jail_choice(self, s: MonopolyState, me: int, reserve: int) -> Action:
        """Early on, leave jail to buy; once most deeds are owned, stay and let others pay.
        (The jail options as the legal actions list them: a card, the fine, a roll.)"""
        owned = sum(1 for sq in s.ed.properties if s.owner[sq] >= 0)
        if owned < self.p.jail_stay_owned_share * len(s.ed.properties):
            for d, holder in enumerate(s.card_holder):
                if holder == me:
                    return Action(A.USE_CARD, (d,))
            fine = s.rules.jail_fine
            if s.cash[me] >= fine and s.cash[me] - fine >= reserve:
                return A.A_PAY_FINE
        if s.rules.jail_style == "jail":
            return A.A_ROLL
        return s.legal_actions()[0]  # Time Out: no roll; the first choice

    # -- trades ---------------------------------------------------------------------------

    def split_of(self, s: MonopolyState, g: int) -> tuple[int, int]:
        """The two players street group ``g`` is split between, when every deed of it is owned,
        by those two alone, and nothing in it is built; (-1, -1) otherwise. Only such a group
        can be part of an offer: one of the two lacks exactly what the other holds."""
        owner, level = s.owner, s.level
        a = b = -1
        for m in s.ed.groups[g].members:
            o = owner[m]
            if o < 0 or level[m]:
                return -1, -1
            if o in (a, b):
                continue
            if a < 0:
                a = o
            elif b < 0:
                b = o
            else:
                return -1, -1
        return (a, b) if b >= 0 else (-1, -1)

    def trade_plan(self, s: MonopolyState, me: int, reserve: int) -> list[Action]:
        """An offer I may make now that completes one of my street sets: first a swap that
        completes one of theirs too (cash evens out the prices), else cash at a premium over
        the price; [] if there is none I can afford."""
        if self._no_offer_turn == s.turn_no:
            return []
        plan: list[Action] = []
        offers = self.offer_shapes(s, me)
        if offers:
            targets = s.trade_options(me)  # (a few seats: a list is quicker than a set)
            plan = self.find_offer(s, me, offers, targets, reserve) if targets else []
        if not plan:
            self._no_offer_turn = s.turn_no  # nothing changes enough within a turn to look again
        return plan

    def find_offer(
        self, s: MonopolyState, me: int, offers: list[Offer], targets: list[int], reserve: int
    ) -> list[Action]:
        """The actions making the first of ``offers`` (:meth:`offer_shapes`) to one of
        ``targets`` that both sides can pay for and that was not made before on this board."""
        owners = self.owners(s)
        if owners is not self._made_owners:  # any change of hands may change the answer
            self._made = self._offered.setdefault(owners, set())
            self._made_owners = owners
        made = self._made
        for offer in offers:
            q, deeds, balance = offer
            if q not in targets:
                continue
            if balance > 0 and s.cash[me] - balance < reserve:
                continue
            if balance < 0 and s.cash[q] < -balance:
                continue
            if offer in made:  # (last: hashing the offer costs more than the checks above)
                continue
            made.add(offer)
            plan = [Action(A.TRADE, (q,))]
            plan += [Action(A.TRADE_DEED, (m,)) for m in deeds]
            if balance:
                plan.append(Action(A.TRADE_CASH, (balance,)))
            return [*plan, A.A_PROPOSE]
        return []

    def offer_shapes(self, s: MonopolyState, me: int) -> list[Offer]:
        """Every offer completing one of my street sets, best first, as (partner, the deeds
        changing hands, the cash I pay). They depend on who owns what alone (a group with a
        building has one owner, so it is in no offer), so they are worked out again only when
        ownership changes."""
        owners = self.owners(s)
        if me == self._offers_me and owners is self._offers_owners:
            return self._offers
        ed, owner = s.ed, s.owner
        out: list[Offer] = []
        groups = ed.street_groups
        pairs = [self.split_of(s, g) for g in groups]
        # For each street group: the player holding all of it I lack, and those deeds.
        lacking: list[tuple[int, list[int]]] = []
        for i, g in enumerate(groups):
            a, b = pairs[i]
            q = b if a == me else a if b == me else -1
            lacking.append(
                (q, [m for m in ed.groups[g].members if owner[m] == q] if q >= 0 else [])
            )
        # Swaps completing a set each, the difference in price paid in cash.
        for i, (q, want) in enumerate(lacking):
            if q < 0:
                continue
            for j, (a, b) in enumerate(pairs):
                if j == i or not ((a == q and b == me) or (a == me and b == q)):
                    continue
                give = [m for m in ed.groups[groups[j]].members if owner[m] == me]
                balance = sum(ed.price[m] for m in want) - sum(ed.price[m] for m in give)
                out.append((q, tuple(sorted(want + give)), balance))
        # Cash at a premium for the one or two deeds I lack, all held by one player.
        for q, missing in lacking:
            if q < 0 or len(missing) > 2:
                continue
            price = sum(ed.price[m] for m in missing)
            for premium in (self.p.trade_premium, self.p.trade_premium_last):
                out.append((q, tuple(missing), int(price * (1 + premium))))
        self._offers_me, self._offers_owners, self._offers = me, owners, out
        return out

    def owners(self, s: MonopolyState) -> tuple[int, ...]:
        """Who owns each square now, as a tuple: the same object until ownership changes."""
        if self._owners_stamp != s.board_stamp:
            owners = tuple(s.owner)
            if owners != self._owners:
                self._owners = owners
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


def param_bot(seed: int, path: str) -> Bot:
    """``--bots param:FILE``: the standard bot with the parameters in FILE (JSON)."""
    if not path:
        raise ValueError("the param bot needs a parameter file: param:FILE")
    return StandardBot(seed, Params.from_file(path))
