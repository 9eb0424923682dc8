"""Monopoly bots: ``standard`` (plays like a good human) and ``param`` (the same, from a file).

The standard bot values a deed by what it earns and which sets it completes or blocks, bids up
to that value, keeps a cash reserve that grows with the danger on the board (the highest rent an
opponent can charge now), builds evenly to the third house first, leaves jail early in the game
and stays in late, raises money in the least damaging order (mortgage loose deeds, then sell
buildings, then mortgage sets), proposes only trades that complete one of its sets for a fair
price and does not make a refused one again while nothing relevant changed (docs/BOTS.md,
"Trades: what it remembers"), accepts only trades worth at least what it gives, and never hands
an opponent a set for nothing. When the game has not progressed for ``stall_rounds`` rounds
(the housing shortage nobody ends), it forces progress: it moves its houses onto one set and
builds that set's hotels (:meth:`StandardBot.force_progress`). It reads only what is on the
table (never the deck order or the random state) and owns its random stream.

``param`` bots take every threshold from :class:`Params`, loaded from a JSON file
(``--bots param:FILE``), for experiments.

The bot is one class in four layers, each a module with one job: :mod:`.bot_reading` reads
the board and values deeds (the reserve, a deed's worth, each group's reading kept between
decisions), :mod:`.bot_trades` drafts, remembers and answers trade offers, :mod:`.bot_stalls`
watches for a stalled game and forces progress, and this module makes the decisions (buy, bid,
raise money, build and lift mortgages, leave jail) from them. Layers of one class, not
separate objects: the caches are truly shared (a group's reading finds the splits the offers are
made of and the reserve the decisions keep; the stalemate breaker builds on the sets it found),
and the compiled build reads a field of its own object straight from the object, where
composition would add a hop on every read; each layer takes a single base, as a native class
must. :mod:`.bot_params` holds the thresholds.
"""

from __future__ import annotations

from typing import Final

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bot_params import STANDARD_PARAMS, TUNED, Params
from meeple.games.monopoly.bot_stalls import (
    FORCED_SALES_PER_TURN,
    STALL_CHECK_ROUNDS,
    StallBreaking,
    houses_short,
)
from meeple.games.monopoly.bot_trades import Offer
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules import (
    anytime,
    bankruptcy,
    buildings,
    buying,
    jail,
    mortgage,
    rent,
    shortage,
)
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.bankruptcy import DebtFrame
from meeple.games.monopoly.rules.buying import BuyFrame
from meeple.games.monopoly.rules.mortgage import MortgageFeeFrame
from meeple.games.monopoly.rules.shortage import PlaceFrame, ShortageFrame
from meeple.games.monopoly.rules.snowflake import SnowflakeFrame
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import STREET, UTILITY
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState

# The kinds of action this bot makes with an argument, each with its own store of made
# actions (actions.Made): A.act would look the kind up in a dict for every action. (The
# trades' and the stalemate breaker's are in their modules: made() shares one store a kind.)
_LIFT_MORTGAGE: Final = A.made(A.LIFT_MORTGAGE)
_KEEP_MORTGAGE: Final = A.made(A.KEEP_MORTGAGE)
_BID: Final = A.made(A.BID)
_MORTGAGE: Final = A.made(A.MORTGAGE)
_SELL_BUILDING: Final = A.made(A.SELL_BUILDING)
_SELL_GROUP: Final = A.made(A.SELL_GROUP)
_CLAIM_RENT: Final = A.made(A.CLAIM_RENT)
_UNMORTGAGE: Final = A.made(A.UNMORTGAGE)
_BUILD: Final = A.made(A.BUILD)
_USE_CARD: Final = A.made(A.USE_CARD)


class StandardBot(StallBreaking):
    """A heuristic player for every Monopoly edition (see the module docstring)."""

    name = "standard"

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        # (An __init__ of its own: kernel/bot.py's RandomBot says why a compiled class needs one.)
        super().__init__(seed, params)

    # -- the decision ----------------------------------------------------------------------

    def choose(self, state: GameState) -> Action:
        assert isinstance(state, MonopolyState)
        s = state
        me = s.current_player()
        # Most decisions are read off the state and the rule functions, not off the full list
        # of legal actions: building that list for every window is most of a game's cost.
        top = s.stack[-1] if s.stack else None
        if top is not None and isinstance(top, TradeFrame):
            return self.trade_step(s, me, top)
        if self.plan:  # a draft ended: its remaining steps are void
            self.plan = []
        if top is None:
            if s.phase == s.JAIL:
                return self.jail_choice(s, me, self.reserve(s, me))
            return self.manage(s, me)
        if isinstance(top, BuyFrame):
            return self.buy(s, me, top)
        if isinstance(top, AuctionFrame):
            return self.bid(s, me, top)
        if isinstance(top, MortgageFeeFrame):
            sq = top.deeds[0]
            cost = s.ed.unmortgage_cost[sq]
            if s.cash[me] >= cost and s.cash[me] - cost >= self.reserve(s, me):
                return _LIFT_MORTGAGE.of(sq)
            return _KEEP_MORTGAGE.of(sq)
        if isinstance(top, ShortageFrame):
            # (In a stalled game, the player asking is moving houses to end a housing
            # shortage: force_progress. Let it have the house at list price.)
            cost = s.ed.house_cost[top.square]
            wants = not self.stalled and s.cash[me] - cost >= self.reserve(s, me)
            return A.A_WANT if wants else A.A_NO
        if isinstance(top, DebtFrame):
            return self.raise_money(s, me, top)
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if isinstance(top, PlaceFrame) and self.stalled:  # a house won: on the focus set
            focus = self.focus_group(s, me)
            for a in legal:
                if s.ed.group_of[a.args[0]] == focus:
                    return a
        if isinstance(top, PlaceFrame | SnowflakeFrame):
            return self.best_rent(s, legal)
        return legal[0]

    def explain(self, state: GameState, action: Action) -> str:
        """Why it chose ``action`` (``games/monopoly/explain.py``: words, not the hot path)."""
        from meeple.games.monopoly.explain import why

        assert isinstance(state, MonopolyState)
        return why(self, state, action)

    def best_rent(self, s: MonopolyState, legal: list[Action]) -> Action:
        """The first of ``legal`` (actions naming a square) whose square charges the most
        rent now. (A method of its own: a ``lambda`` in :meth:`choose` would make the compiled
        build allocate its closure on every decision.)"""
        return max(legal, key=lambda a: self.square_rent(s, a.args[0]))

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
        else:  # a building in a shortage: worth up to one and a half times its price
            limit = 1.5 * self.building_price(s, me, f.item)
        limit = min(limit, s.cash[me] - self.reserve(s, me) // 2)
        if low > limit:
            return A.A_PASS
        # Jump a quarter of the way to the limit, as people do, instead of creeping up by the
        # minimum: never past the limit, and an auction takes a few bids, not hundreds.
        return _BID.of(low + int(limit - low) // 4)

    def building_price(self, s: MonopolyState, me: int, item: int) -> int:
        """The list price of a building of kind ``item`` where I could place one won at a
        shortage auction (the dearest such street; 0 for none): a $50 house is not worth
        one and a half times a $200 one to a player who can only put it on Baltic Avenue."""
        cost = s.ed.house_cost
        price = 0
        for sq in shortage.place_squares(s, me, item):
            if cost[sq] > price:
                price = cost[sq]
        return price

    def raise_money(self, s: MonopolyState, me: int, f: DebtFrame) -> Action:
        """Least damaging first: mortgage deeds outside sets (cheapest rent first), sell
        buildings (cheapest houses first), sell a whole group, mortgage set deeds, bankrupt.
        Read off the option lists the legal actions are made of (the same order)."""
        ed, r = s.ed, s.rules
        mortgages = mortgage.mortgage_squares(s, me) if r.mortgages else []
        if mortgages:  # the first outside my sets, of the lowest rent + price (loops, no key)
            self.read_board(s, me)  # (_all_mine: the groups I own whole, as rent.owns_group)
            all_mine, kind, group_of, price = self._all_mine, ed.kind, ed.group_of, ed.price
            rents = rent.rents_now(s)
            sq, best = -1, 0
            for m in mortgages:
                if kind[m] == STREET and (all_mine >> group_of[m]) & 1:
                    continue
                cost = (rents[m] * ed.utility_roll if kind[m] == UTILITY else rents[m]) + price[m]
                if sq < 0 or cost < best:
                    sq, best = m, cost
            if sq >= 0:
                return _MORTGAGE.of(sq)
        sells = buildings.sell_squares(s, me) if r.buildings else []
        if sells:  # the first of the cheapest houses, the highest level among those
            sq = sells[0]
            for m in sells:
                c, b = ed.house_cost[m], ed.house_cost[sq]
                if c < b or (c == b and s.level[m] > s.level[sq]):
                    sq = m
            return _SELL_BUILDING.of(sq)
        groups = buildings.sell_group_groups(s, me) if r.buildings else []
        if groups:
            return _SELL_GROUP.of(groups[0])
        if mortgages:
            return _MORTGAGE.of(mortgages[0])
        if bankruptcy.can_declare(s, f):
            return A.A_BANKRUPT
        return s.legal_actions()[0]  # only trades left: the first

    def manage(self, s: MonopolyState, me: int) -> Action:
        """Before a roll, at the end of a turn or in a window: claim rent, lift mortgages,
        build, trade, then move on. The options come from the state's own option lists (the
        ones its legal actions are made of)."""
        if s.claims:  # (rarely any: no list made for none)
            claims = anytime.claim_options(s, me)
            if claims:
                return _CLAIM_RENT.of(claims[0])
        # (reserve's own cache test first: it holds on most looks, and a call costs the
        # interpreted build more than the test)
        if me == self._reserve_me and s.board_stamp == self._reserve_stamp:
            reserve = self._reserve
        else:
            reserve = self.reserve(s, me)
        cash = s.cash[me]
        ed = s.ed
        if s.round_no >= self._round_next or s.round_no < self._round_seen:
            self.note_round(s)
        if self.stalled:
            forced = self.force_progress(s, me, cash, reserve)
            if forced is not None:
                return forced
        # Lift mortgages on set deeds first, when rich (self.reserve set _my_mortgages and
        # _cheapest_lift: when even the cheapest lift would leave too little, none will do).
        if self._my_mortgages and cash - self._cheapest_lift >= reserve + self.p.unmortgage_extra:
            lifts = anytime.lift_options(s, me)
            if lifts:  # the first of the most valuable
                sq, best = -1, 0.0
                for m in lifts:
                    value = self.deed_value(s, me, m)
                    if sq < 0 or value > best:
                        sq, best = m, value
                if cash - ed.unmortgage_cost[sq] >= reserve + self.p.unmortgage_extra:
                    return _UNMORTGAGE.of(sq)
        # (_has_set and _min_house were set by self.reserve above)
        can_pay = self._has_set and cash - self._min_house >= reserve
        builds = anytime.build_options(s, me) if can_pay else None
        if builds:
            sq = builds[0]  # the first of the lowest level, the dearest houses among those
            for m in builds:
                lm, ls = s.level[m], s.level[sq]
                if lm < ls or (lm == ls and ed.house_cost[m] > ed.house_cost[sq]):
                    sq = m
            extra = 0 if s.level[sq] < self.p.build_first_to else self.p.build_beyond_extra
            if cash - ed.house_cost[sq] >= reserve + extra:
                return _BUILD.of(sq)
        # (the no-offer turn tested here, not in trade_plan: a call costs the interpreted build)
        offer = None if self._no_offer_turn == s.turn_no else self.trade_plan(s, me, reserve)
        if offer:
            self.plan = offer[1:]
            return offer[0]
        if s.phase == s.PRE_ROLL:
            return A.A_ROLL
        return A.A_END_TURN if s.phase == s.END_TURN else A.A_PASS

    def jail_choice(self, s: MonopolyState, me: int, reserve: int) -> Action:
        """Early on, leave jail to buy; once most deeds are owned, stay and let others pay.
        (The jail options as the legal actions list them: a card, the fine, a roll.)"""
        owned = 0  # (a loop: the interpreted build makes a generator for a sum of one)
        owner = s.owner
        for sq in s.ed.properties:
            if owner[sq] >= 0:
                owned += 1
        if owned < self.p.jail_stay_owned_share * len(s.ed.properties):
            for d, holder in enumerate(s.card_holder):
                if holder == me:
                    return _USE_CARD.of(d)
            # (The classic rules offer the fine before the last try only: jail.may_pay_fine.)
            if jail.may_pay_fine(s, me) and s.cash[me] - s.rules.jail_fine >= reserve:
                return A.A_PAY_FINE
        if s.rules.jail_style == "jail":
            return A.A_ROLL
        return s.legal_actions()[0]  # Time Out: no roll; the first choice


class TunedBot(StandardBot):
    """``tuned``: the standard bot with the thresholds tuned for the game's edition where a
    tuning beat the standard ones (:meth:`Params.tuned`), else the standard thresholds. The
    edition is known at the first decision (a bot is made before it sees a game), so the
    thresholds are taken then."""

    name = "tuned"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.edition = ""

    def choose(self, state: GameState) -> Action:
        assert isinstance(state, MonopolyState)
        if state.ed.id != self.edition:
            self.edition = state.ed.id
            self.p = Params.tuned(self.edition) or STANDARD_PARAMS
        return super().choose(state)


def param_bot(seed: int, path: str) -> Bot:
    """``--bots param:FILE``: the standard bot with the parameters in FILE (JSON)."""
    if not path:
        raise ValueError("the param bot needs a parameter file: param:FILE")
    return StandardBot(seed, Params.from_file(path))


__all__ = [
    "FORCED_SALES_PER_TURN",
    "STALL_CHECK_ROUNDS",
    "STANDARD_PARAMS",
    "TUNED",
    "Offer",
    "Params",
    "StandardBot",
    "TunedBot",
    "houses_short",
    "param_bot",
]
