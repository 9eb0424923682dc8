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
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Final

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules import (
    anytime,
    bankruptcy,
    buildings,
    buying,
    holdings,
    jail,
    mortgage,
    rent,
    shortage,
    trade,
)
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.bankruptcy import DebtFrame
from meeple.games.monopoly.rules.buying import BuyFrame
from meeple.games.monopoly.rules.mortgage import MortgageFeeFrame
from meeple.games.monopoly.rules.shortage import PlaceFrame, ShortageFrame
from meeple.games.monopoly.rules.snowflake import SnowflakeFrame
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY
from meeple.kernel.arrays import int_array
from meeple.kernel.bot import Bot
from meeple.kernel.files import UnreadableFile, read_text
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
    # Rounds without progress (no building beyond the most the board has held, no deed changing
    # hands, nobody out) after which the bot forces progress (StandardBot.force_progress).
    stall_rounds: int = 50

    @classmethod
    def tuned(cls, edition: str) -> Params | None:
        """The thresholds ``meeple tune`` found for ``edition`` and shipped because they beat
        the standard ones (``tuned/EDITION.json``; docs/BOTS.md, "Tuning"), or ``None``."""
        path = TUNED / f"{edition}.json"
        return cls.from_file(path) if path.is_file() else None

    @classmethod
    def from_file(cls, path: str | Path) -> Params:
        """Load parameters from JSON; unknown keys or wrong types raise ``ValueError``."""
        try:
            data = json.loads(read_text(path))
        except UnreadableFile as exc:
            raise ValueError(f"{path}: cannot read bot parameters: {exc.reason}") from None
        except ValueError as exc:
            raise ValueError(f"{path}: bot parameters are not JSON: {exc}") from None
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


TUNED: Final = Path(__file__).parent / "tuned"
"""Where the tuned thresholds of each edition are shipped (:meth:`Params.tuned`)."""

STALL_CHECK_ROUNDS: Final = 5
"""How often (in rounds) :meth:`StandardBot.note_round` looks for progress: a look compares the
owner of every deed, and a stall is ``stall_rounds`` long, so a look every round would cost
time for nothing."""

FORCED_SALES_PER_TURN: Final = 16
"""The most houses :meth:`StandardBot.force_progress` sells in one turn: a set needs at most
16 to stand at four houses, and the cap ends the bot's window even when another player wins
the houses it sells at auction."""

STANDARD_PARAMS: Final = Params()
"""The standard thresholds, made once: a Params is frozen, so every standard bot shares them
(making them costs more than the rest of a new bot, and a simulation makes four a game)."""

# The kinds of action this bot makes with an argument, each with its own store of made
# actions (actions.Made): A.act would look the kind up in a dict for every action.
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
_TRADE: Final = A.made(A.TRADE)
_TRADE_DEED: Final = A.made(A.TRADE_DEED)
_TRADE_CASH: Final = A.made(A.TRADE_CASH)

Offer = tuple[int, tuple[int, ...], int]
"""A trade offer the standard bot may make: (partner, deeds changing hands, cash it pays)."""


class StandardBot(Bot):
    """A heuristic player for every Monopoly edition (see the module docstring)."""

    name = "standard"

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed)
        self.p = params or STANDARD_PARAMS
        self.plan: list[Action] = []  # the rest of a trade offer being drafted
        # Caches keyed by (seat, board stamp): the valuations depend on the board alone, and the
        # stamp changes whenever it does, so the play loop does not rescan the board.
        self._reserve_me = -1  # the seat and stamp the reserve was worked out for
        self._reserve_stamp = 0
        self._reserve = 0
        self._has_set = False  # I own a whole street group (kept with the reserve)
        self._min_house = 0  # ... and the cheapest house on such a group
        self._my_mortgages = False  # I have a mortgaged deed (kept with the reserve)
        self._cheapest_lift = 0  # my cheapest mortgaged deed to lift (kept with the reserve)
        # The board as this bot last read it (read_board), a group at a time: which log of
        # changes (a state's own: a new state starts a new one) and seat, how far into that
        # log, and at which board stamp.
        self._read_log = 0  # (MonopolyState.changes_id)
        self._read_me = -1
        self._read_pos = 0
        self._read_stamp = 0
        # (arrays: kernel/arrays.py; read and written for every group read)
        self._g_danger = int_array([])  # per group: the worst rent an opponent's deed charges
        self._g_lift = int_array([])  # ... the cheapest of my mortgaged deeds to lift
        self._mortgaged_in = 0  # bit g: I have a mortgaged deed in group g
        self._all_mine = 0  # bit g: I own all of group g
        self._street_index = int_array([])  # group -> its index in ed.street_groups, or -1
        # Per street group (in ed.street_groups order): the player it is split with (read_group)
        # when it is split between me and one other alone, else -1; the deeds of it I lack.
        self._partner = int_array([])
        self._wants: list[list[int]] = []
        self._splits_changed = True  # since the offers were last made
        self._reading_moved = True  # the reserve's part of the reading, since the reserve
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
        # Progress, as this bot has watched it (note_round, a look every STALL_CHECK_ROUNDS
        # rounds): the round of its last look and of its next, the last round in which the game
        # progressed, the bank's stock at its lowest so far (in houses: a hotel counts 5), who
        # owned each square and how many players had left at the last look; whether the game
        # has stalled (no progress for stall_rounds rounds).
        self._round_seen = -1
        self._round_next = 0
        self._progress_round = 0
        self._bank_low = -1
        self._owners_seen = int_array([])
        self._gone_seen = 0
        self.stalled = False
        self._sales_turn = -1  # the turn of the houses force_progress sold, and how many
        self._sales = 0

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

    # -- valuation -------------------------------------------------------------------------

    def reserve(self, s: MonopolyState, me: int) -> int:
        """Cash to keep: grows with the worst rent an opponent can charge now."""
        if me == self._reserve_me and s.board_stamp == self._reserve_stamp:
            return self._reserve
        self.read_board(s, me)
        self._reserve_me, self._reserve_stamp = me, s.board_stamp
        if not self._reading_moved:  # (the groups read again read as before)
            return self._reserve
        self._reading_moved = False
        ed = s.ed
        g_danger, g_lift = self._g_danger, self._g_lift
        danger = 0
        for d in g_danger:
            if d > danger:
                danger = d
        # My cheapest mortgaged deed to lift, and the cheapest house on a street group I own
        # whole (0: none): below them, no lifting and no building.
        mortgaged_in, all_mine = self._mortgaged_in, self._all_mine
        self._my_mortgages = mortgaged_in != 0
        self._cheapest_lift = 0
        if mortgaged_in:
            first = True
            for g in range(len(g_lift)):
                if (mortgaged_in >> g) & 1 and (first or g_lift[g] < self._cheapest_lift):
                    self._cheapest_lift = g_lift[g]
                    first = False
        self._has_set = False
        self._min_house = 0
        if all_mine:
            house_cost = ed.house_cost
            for g in ed.street_groups:
                if (all_mine >> g) & 1:  # (rent.owns_group)
                    for m in ed.groups[g].members:
                        if not self._has_set or house_cost[m] < self._min_house:
                            self._min_house = house_cost[m]
                        self._has_set = True
        p = self.p
        # (between the bounds by comparisons: min and max are calls to the interpreted build)
        keep = danger * p.reserve_danger_share
        if keep < p.reserve_min:
            keep = float(p.reserve_min)
        if keep > p.reserve_max:
            keep = float(p.reserve_max)
        self._reserve = int(keep)
        return self._reserve

    def read_board(self, s: MonopolyState, me: int) -> None:
        """Bring this bot's reading of the board up to date: only the groups the state's log of
        changes names since the last reading are read again (a rent depends on its own group
        alone: rent.rents_now), so a change to one group costs one group's reading, not the
        whole board's. A new state, a new seat or a change of everything reads it all."""
        same_log = s.changes_id == self._read_log
        if s.board_stamp == self._read_stamp and same_log and me == self._read_me:
            return
        ed = s.ed
        n_groups = len(ed.groups)
        everything = not same_log or me != self._read_me
        # Bit g: read group g again (-1: all of them).
        again: i64 = -1 if everything else holdings.groups_changed_since(s, self._read_pos)
        if everything:  # (a new board, perhaps of another edition: its tables made afresh)
            self._g_danger = int_array([0] * n_groups)
            self._g_lift = int_array([0] * n_groups)
            self._mortgaged_in = self._all_mine = 0
            index = [-1] * n_groups
            for i, g in enumerate(ed.street_groups):
                index[g] = i
            self._street_index = int_array(index)
            self._partner = int_array([-1] * len(ed.street_groups))
            self._wants = [[] for _ in ed.street_groups]
        if again == -1:  # (every group is read again below, and may read otherwise)
            self._splits_changed = self._reading_moved = True
        self._read_log, self._read_me, self._read_stamp = s.changes_id, me, s.board_stamp
        self._read_pos = len(s.changes)
        rents = rent.rents_now(s)  # (as square_rent reads them, without a call per square)
        if again == -1:
            for g in range(n_groups):
                self.read_group(s, me, g, rents)
            return
        g = 0
        while again:  # (the groups named, lowest first: most readings name one or two)
            if again & 1:
                self.read_group(s, me, g, rents)
            again >>= 1
            g += 1

    def read_group(self, s: MonopolyState, me: int, g: int, rents: list[int]) -> None:
        """Read group ``g`` for :meth:`read_board`: the worst rent an opponent's unmortgaged
        deed of it charges now (a utility at an average roll), whether I own all of it,
        my cheapest mortgaged deed of it to lift, and, for a street group, whom it is split
        with and what I lack of it (:meth:`offer_shapes`)."""
        ed = s.ed
        owner, mortgaged, kind, cost = s.owner, s.mortgaged, ed.kind, ed.unmortgage_cost
        level = s.level
        danger: i64 = 0  # (machine words, as the arrays they are compared with)
        all_mine = True
        mortgaged_here = False
        lift: i64 = 0
        # The two players the group is split between, when every deed of it is owned, by those
        # two alone, and nothing in it is built: only such a group can be part of an offer (one
        # of the two lacks exactly what the other holds). (-1: not split so.)
        a: i64 = -1
        b: i64 = -1
        split = True
        members = ed.groups[g].members
        for m in members:
            o = owner[m]
            if o < 0 or level[m]:
                split = False
            elif o != a and o != b:
                if a < 0:
                    a = o
                elif b < 0:
                    b = o
                else:
                    split = False
            if o == me:
                if mortgaged[m]:
                    if not mortgaged_here or cost[m] < lift:
                        lift = cost[m]
                    mortgaged_here = True
                continue
            all_mine = False
            if o >= 0 and not mortgaged[m]:
                r = rents[m] * ed.utility_roll if kind[m] == UTILITY else rents[m]
                if r > danger:
                    danger = r
        bit = 1 << g
        # (set the bit, then clear it again unless it holds)
        mortgaged_in = (self._mortgaged_in | bit) ^ (0 if mortgaged_here else bit)
        mine = (self._all_mine | bit) ^ (0 if all_mine else bit)
        if (
            danger != self._g_danger[g]
            or lift != self._g_lift[g]
            or mortgaged_in != self._mortgaged_in
            or mine != self._all_mine
        ):
            self._g_danger[g] = danger
            self._g_lift[g] = lift
            self._mortgaged_in, self._all_mine = mortgaged_in, mine
            self._reading_moved = True
        i = self._street_index[g]
        if i >= 0:
            q = -1 if not split or b < 0 else b if a == me else a if b == me else -1
            if q >= 0:
                want = [m for m in members if owner[m] == q]
                if q != self._partner[i] or want != self._wants[i]:
                    self._partner[i], self._wants[i] = q, want
                    self._splits_changed = True
            elif self._partner[i] >= 0:
                self._partner[i], self._wants[i] = -1, []
                self._splits_changed = True

    def square_rent(self, s: MonopolyState, sq: int) -> int:
        """The rent ``sq`` charges now (a utility at an average roll: ``Edition.utility_roll``)."""
        r = rent.rents_now(s)[sq]
        return r * s.ed.utility_roll if s.ed.kind[sq] == UTILITY else r

    def deed_value(self, s: MonopolyState, me: int, sq: int) -> float:
        """What ``sq`` is worth to ``me``: its price, more if it completes, grows or blocks a
        set."""
        ed = s.ed
        price = float(ed.price[sq])
        members = ed.groups[ed.group_of[sq]].members
        owner = s.owner
        # How many of the other deeds of the group are mine, and who holds them all when one
        # player does (-2: nobody yet, -3: more than one holder); loops, not a set per call.
        mine = 0
        holder = -2
        for m in members:
            if m != sq:
                o = owner[m]
                if o == me:
                    mine += 1
                if holder == -2:
                    holder = o
                elif o != holder:
                    holder = -3
        kind = ed.kind[sq]
        p = self.p
        if kind == STREET:
            if mine == len(members) - 1:
                value = price * (1 + p.set_bonus)
            else:
                value = price * (1 + p.partial_bonus * mine)
            if holder >= 0 and holder != me:  # another player alone holds the rest: a block
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

    # -- stalemates -------------------------------------------------------------------------

    def note_round(self, s: MonopolyState) -> None:
        """Every ``STALL_CHECK_ROUNDS`` rounds (:meth:`manage` calls it): whether the game
        progressed since the last look (more buildings on the board than ever before in it, a
        deed changed hands or a player left), and so whether it has stalled: no progress for
        ``stall_rounds`` rounds. A game this bot has not watched from the start counts from
        the first round it sees."""
        r = s.round_no
        bank = s.houses + 5 * s.hotels  # the bank's buildings, in houses: lowest, most built
        gone = len(s.eliminated)
        owner, seen = s.owner, self._owners_seen
        if r < self._round_seen or len(seen) != len(owner):  # another game
            self._owners_seen = owner[:]
            self._bank_low = bank
            self._gone_seen = gone
            self._progress_round = r
        else:
            moved = owner != seen  # (one comparison of the lists, in C)
            if moved:
                self._owners_seen = owner[:]
            if moved or bank < self._bank_low or gone != self._gone_seen:
                if bank < self._bank_low:
                    self._bank_low = bank
                self._gone_seen = gone
                self._progress_round = r
        self._round_seen = r
        self._round_next = r + STALL_CHECK_ROUNDS
        self.stalled = r - self._progress_round >= self.p.stall_rounds

    def force_progress(self, s: MonopolyState, me: int, cash: int, reserve: int) -> Action | None:
        """What the bot does in a stalled game before its normal play (None: nothing).

        The stalemate standard players fall into is a housing shortage: every house of the bank
        is on the board, spread over sets at three houses or fewer, so nobody can build a hotel
        (which would give four houses back) and nobody sells; cash piles up on every side and
        no rule ends the game. The bot breaks it by moving its houses: it sells houses from its
        other sets (the cheapest first) and buys them back on the one set that needs the fewest
        to stand at four houses on every street, then builds that set's hotels, each of which
        gives four houses back to the bank for everyone to build with. While stalled it builds
        any hotel it can first, and does not ask for a house another player wants to buy in a
        shortage (:meth:`choose`), so the player moving houses gets them at list price."""
        if not s.rules.buildings:
            return None
        ed, level = s.ed, s.level
        builds = anytime.build_options(s, me)
        for sq in builds:  # a hotel: four houses back to the bank
            if level[sq] == 4 and cash - ed.house_cost[sq] >= reserve:
                return _BUILD.of(sq)
        focus = self.focus_group(s, me)
        if focus < 0:
            return None
        cost = ed.groups[focus].house_cost
        for sq in builds:
            if ed.group_of[sq] == focus and cash - cost >= reserve:
                return _BUILD.of(sq)
        if s.turn_no != self._sales_turn:
            self._sales_turn, self._sales = s.turn_no, 0
        if s.houses or self._sales >= FORCED_SALES_PER_TURN:
            return None  # (the bank has a house the focus set cannot take now: no sale)
        # Sell a house of another set still short of four houses (never one standing at four
        # or with hotels: it would be the next focus and take the house back), the cheapest
        # houses first, from their highest level.
        sell = -1
        for m in buildings.sell_squares(s, me):
            g = ed.group_of[m]
            if g == focus or not houses_short(s, g):
                continue
            c, b = ed.house_cost[m], ed.house_cost[sell] if sell >= 0 else 0
            if sell < 0 or c < b or (c == b and level[m] > level[sell]):
                sell = m
        if sell < 0 or cash + ed.house_cost[sell] // 2 - cost < reserve:
            return None
        self._sales += 1
        return _SELL_BUILDING.of(sell)

    def focus_group(self, s: MonopolyState, me: int) -> int:
        """The street set :meth:`force_progress` brings to four houses: of the sets I own whole
        and unmortgaged with a street below four houses, the one needing the fewest houses for
        it (the dearest houses among those), provided the bank's houses and those on my other
        sets short of four make up the number, and the bank has a hotel to build next; -1 for
        none."""
        if not s.hotels:  # (four houses everywhere would free nothing)
            return -1
        ed, level = s.ed, s.level
        self.read_board(s, me)  # (_all_mine)
        all_mine = self._all_mine
        spare = s.houses  # houses the bank has, or I could sell from my sets
        focus, need = -1, 0
        for g in ed.street_groups:
            if not (all_mine >> g) & 1 or not buildings.buildable_group(s, me, g):
                continue
            short = houses_short(s, g)
            if not short:
                continue
            for m in ed.groups[g].members:
                spare += level[m]
            if (
                focus < 0
                or short < need
                or (short == need and ed.groups[g].house_cost > ed.groups[focus].house_cost)
            ):
                focus, need = g, short
        if focus < 0:
            return -1
        for m in ed.groups[focus].members:  # (its own houses are no help)
            spare -= level[m]
        return focus if need <= spare else -1

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


def houses_short(s: MonopolyState, g: int) -> int:
    """How many houses street group ``g`` lacks to stand at four on every street (0 when it
    does, or has hotels: the even-building rule keeps its streets within one level)."""
    level = s.level
    short = 0
    for m in s.ed.groups[g].members:
        if level[m] < 4:
            short += 4 - level[m]
    return short


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
