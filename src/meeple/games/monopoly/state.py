"""The state of a Monopoly-family game and its kernel-protocol methods.

The state is flat (lists of ints and bools indexed by seat or square) so that cloning and
saving are cheap; rule logic lives in :mod:`meeple.games.monopoly.rules`, one module per rule.
This module dispatches: who decides now, which actions are legal, and which rule an action runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.describe import describe_action, describe_event
from meeple.games.monopoly.edition import RulesModel, builtin_edition, parse_edition
from meeple.games.monopoly.frames import (
    AuctionFrame,
    BuyFrame,
    DebtFrame,
    Frame,
    MortgageFeeFrame,
    PlaceFrame,
    ShortageFrame,
    SnowflakeFrame,
    TradeFrame,
    frame_from_dict,
)
from meeple.games.monopoly.rules import (
    auction,
    bankruptcy,
    buildings,
    buying,
    jail,
    money,
    mortgage,
    movement,
    rent,
    snowflake,
    trade,
    turns,
)
from meeple.games.monopoly.tables import NO_GROUP, STREET, Edition
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import (
    END_TURN as MOVE_END_TURN,
)
from meeple.kernel.protocol import (
    OTHERS_TURN,
    Action,
    Event,
    GameResult,
    GameState,
    MoveOn,
)
from meeple.kernel.protocol import ROLL as MOVE_ROLL
from meeple.kernel.rng import Rng

SAVE_VERSION: Final = 1


# Board stamps: a fresh number whenever who owns what, what is built or mortgaged, who holds a
# jail card or who is still playing changes. One counter for every state in the process, so two
# clones that change differently never share a stamp, and a cache keyed by a stamp is never
# stale. (The audit checks that every such change takes a new stamp.)
class _Stamps:
    """The counter of board stamps: a compiled class, since ``next()`` of an
    ``itertools.count`` costs the compiled build a look-up of ``next`` and a call through
    Python on every board change."""

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        self.last += 1
        return self.last


_STAMPS: Final = _Stamps()
_MASK_BITS: Final = 62  # groups a groups_changed_since mask can name
_MGMT: Final = frozenset(
    {A.BUILD, A.SELL_BUILDING, A.SELL_GROUP, A.MORTGAGE, A.UNMORTGAGE, A.TRADE, A.CLAIM_RENT}
)


class MonopolyState(GameState):
    """A game of any Monopoly edition. Create with :func:`new_monopoly`."""

    family = "monopoly"

    # Phases of the turn (used when no frame is on the stack).
    PRE_ROLL: Final = 0
    JAIL: Final = 1
    END_TURN: Final = 2
    WINDOW: Final = 3
    OVER: Final = 4
    PHASE_NAMES: Final = ("pre_roll", "jail", "end_turn", "window", "over")

    def __init__(
        self,
        edition: Edition,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        shuffle: bool = True,
    ) -> None:
        # shuffle=False leaves the decks in order, for a clone that sets them and the random
        # stream itself (shuffling draws from the stream: most of a clone's time otherwise).
        options = dict(options or {})
        self._options = options
        self.ed = edition = _with_rule_overrides(edition, options.get("rules"))
        self.rules = r = edition.rules
        self.max_turns = int(options.get("max_turns") or 0)
        if not r.min_players <= players <= r.max_players:
            raise ValueError(
                f"{edition.id} is for {r.min_players} to {r.max_players} players, not {players}"
            )
        self.n = players
        self._seed = seed
        self.rng = Rng(seed)
        self.cash = [r.starting_cash] * players
        self.pos = [edition.go] * players
        self.in_jail = [False] * players
        self.jail_turns = [0] * players
        self.alive = [True] * players
        self.offers = [0] * players
        size = edition.size
        self.owner = [-1] * size
        self.level = [0] * size
        self.mortgaged = [False] * size
        # Where each roll ended, after its card moves: one count per square, and a last count
        # for rolls that ended in jail (apart from Just Visiting). Simulation's "landing" share.
        self.landings = [0] * (size + 1)
        self.houses = r.houses
        self.hotels = r.hotels
        self.decks: list[list[int]] = []
        for d in edition.decks:
            order = list(range(len(d.cards)))
            if shuffle:
                self.rng.shuffle(order)
            self.decks.append(order)
        self.card_holder = [-1] * len(edition.jail_cards)  # seat holding each jail card, or -1
        self.turn = 0
        self.turn_no = 1
        self.phase = self.PRE_ROLL
        self.doubles = 0
        self.dice = (0, 0)
        # Dice to come, set by a position (meeple.kernel.position): faces in pairs (a second
        # face of 0 with one die), rolled before the random stream is used again.
        self.dice_script: list[int] = []
        # The players of this turn's any-time windows, in the order they come, and the index in
        # it of the next one to open: closing a window moves the index on (no list shrinks and
        # no list is made on every window); snapshots list the windows still to come.
        self.window: list[int] = []
        self.window_next = 0
        self.stack: list[Frame] = []
        self.claims: list[list[int]] = []  # [owner, payer, amount, turn_no, square]
        self.eliminated: list[int] = []
        self.over = False
        self.end_reason = ""
        self.bank_in = 0
        self.bank_out = 0
        self.snowflake = -1  # the square the snowflake token is on (Frozen II), or -1
        self.bankrupt_seat = -1  # who went bankrupt when a bankruptcy ends the game
        self._history: list[Action] = []
        self._events: list[Event] | None = None
        self.record_events = True
        self._legal: list[Action] | None = None
        self.board_stamp = _STAMPS.next()
        self._holders_stamp = 0  # the stamp trade.holders_of_tradeables last answered for
        self._holders: i64 = 0  # (a bit mask of seats)
        self._group_holders: list[int] = []  # ... of each group (worked out as changes name it)
        self._holders_read = 0  # how far into the log of changes those were worked out
        self._starters_stamp = 0  # the stamp trade.find_starters' answer below is for
        self._starters: i64 = 0  # (a bit mask of seats)
        # Per group: who could build there and how many more houses and hotels
        # (buildings.capacities), worked out as far as this point of the log of changes.
        self._cap_holder: list[int] = []
        self._cap_houses: list[int] = []
        self._cap_hotels: list[int] = []
        self._cap_read = 0
        self._cap_total_houses = 0  # ... and their sums over the groups
        self._cap_total_hotels = 0
        # build_options' memory: where a seat could build cash aside (buildings.build_spots),
        # for (board stamp, seat, houses, hotels), and the dearest house among those; its last
        # answer, and the cash that answer is for (-1: none since the spots changed).
        self._build_spots: list[int] = []
        self._spots_key = (0, -1, 0, 0)
        self._spots_dearest = 0
        self._builds: list[int] = []
        self._builds_cash = -1
        # Whether each group has a building: kept up to date by the rules that build and sell.
        self._built = [False] * len(edition.groups)
        # rent.rents_now's table, and a bit mask of the groups to work out again (-1: all).
        self._rents: list[int] = []
        self._rents_dirty = -1
        # The board changes of this state object, in order: the group named, or -1 for any or
        # all (board_changed). A reader that remembers how far it read knows which groups to
        # read again (the standard bot does); a clone starts a log of its own.
        self.changes: list[int] = []

    # -- identity -------------------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.ed.id

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def history(self) -> list[Action]:
        return self._history

    # -- helpers used by the rules -------------------------------------------------------

    def board_changed(self, group: int = -1) -> None:
        """Take a new board stamp: call after changing ``owner``, ``level``, ``mortgaged``,
        ``card_holder`` or ``alive`` (what the caches of the rules and bots depend on). Name
        the ``group`` when only its squares changed (its rents alone are worked out again, and
        ``changes`` names it alone); :data:`NO_GROUP` when no square changed (a Get Out of
        Jail Free card changed hands); the default, when anything else may have."""
        self.board_stamp = _STAMPS.next()
        if group >= 0:
            self._rents_dirty |= 1 << group
            self.changes.append(group)
        elif group != NO_GROUP:
            self._rents_dirty = -1
            self.changes.append(-1)

    def groups_changed_since(self, start: int) -> i64:
        """The groups the log of changes names from entry ``start`` on, as a bit mask (bit
        ``g``: group ``g``); -1, every bit, when an entry says anything may have changed, or
        when the edition has more groups than the mask has bits. (A machine word in the
        compiled build: the readers test it once per group.)"""
        log = self.changes
        if len(self.ed.groups) > _MASK_BITS:
            return -1
        mask: i64 = 0
        for i in range(start, len(log)):
            g: i64 = log[i]
            if g < 0:
                return -1
            mask |= 1 << g
        return mask

    def event(self, kind: str, **data: Any) -> None:
        """Record an event (callers check ``self._events is not None`` first: no cost unread)."""
        if self._events is not None:
            self._events.append(Event(kind, data))

    def next_seat(self, p: int) -> int:
        """The next seat to the left of ``p`` still in the game."""
        n = self.n
        q = (p + 1) % n
        while not self.alive[q] and q != p:
            q = (q + 1) % n
        return q

    def seats_from(self, p: int) -> list[int]:
        """Seats still in the game in turn order, starting at ``p`` (if ``p`` is in)."""
        n = self.n
        return [(p + i) % n for i in range(n) if self.alive[(p + i) % n]]

    def end_turn(self) -> None:
        turns.end_turn(self)

    def finish(self, reason: str) -> None:
        turns.finish(self, reason)

    def drop_frames_of(self, p: int) -> None:
        """Remove decisions that belonged to eliminated seat ``p``."""
        kept: list[Frame] = []
        for f in self.stack:
            if isinstance(f, BuyFrame | MortgageFeeFrame | PlaceFrame) and f.decider() == p:
                continue
            if isinstance(f, DebtFrame) and p in (f.debtor, f.creditor):
                continue
            if isinstance(f, TradeFrame) and p in (f.proposer, f.target):
                continue
            if isinstance(f, ShortageFrame):
                if f.requester == p:
                    continue
                f.asking = [q for q in f.asking if q != p]
                f.wanting = [q for q in f.wanting if q != p]
            if isinstance(f, AuctionFrame) and p in f.active:
                i = f.active.index(p)
                f.active.pop(i)
                if i < f.turn:
                    f.turn -= 1
                if f.active:
                    f.turn %= len(f.active)
                if f.high_bidder == p:
                    f.high, f.high_bidder = 0, -1
            kept.append(f)
        self.stack = kept
        self.window = [q for q in self.window[self.window_next :] if q != p]
        self.window_next = 0

    # -- the protocol -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return -1
        if self.stack:
            return self.stack[-1].decider()
        if self.phase == self.WINDOW:
            return self.window[self.window_next]
        return self.turn

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> GameResult | None:
        if not self.over:
            return None
        winners, order, worth = turns.ranking(self)
        return GameResult(winners, order, self.end_reason, self.turn_no, worth)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def invalidate(self) -> None:
        """Forget cached answers: the legal actions and everything keyed by the board stamp, and
        work out again what the rules keep up to date (call after editing the state by hand in
        tests)."""
        self._legal = None
        self._built = buildings.find_built_groups(self)
        self.board_changed()

    def _compute_legal(self) -> list[Action]:
        if self.over:
            return []
        p = self.current_player()
        if not self.stack:
            ph = self.phase
            if ph == self.PRE_ROLL:
                return [A.A_ROLL, *self.management(p)]
            if ph == self.JAIL:
                out = []
                if self.cash[p] >= self.rules.jail_fine:
                    out.append(A.A_PAY_FINE)
                out += [A.act(A.USE_CARD, d) for d, h in enumerate(self.card_holder) if h == p]
                if self.rules.jail_style == "jail":  # Time Out has no tries at doubles
                    out.append(A.A_ROLL)
                return out + self.management(p)
            if ph == self.END_TURN:
                return [A.A_END_TURN, *self.management(p)]
            return [A.A_PASS, *self.management(p)]  # WINDOW
        f = self.stack[-1]
        if isinstance(f, BuyFrame):
            out = [A.A_BUY] if buying.can_buy(self, f) else []
            return [*out, A.A_DECLINE, *self.raise_money(p)]
        if isinstance(f, AuctionFrame):
            return [*(A.act(A.BID, x) for x in auction.bid_ladder(self, f)), A.A_PASS]
        if isinstance(f, DebtFrame):
            out = self.raise_money(p)
            out += [A.act(A.TRADE, q) for q in trade.can_start(self, p)]
            if bankruptcy.can_declare(self, f):
                out.append(A.A_BANKRUPT)
            return out
        if isinstance(f, TradeFrame):
            return self._trade_actions(f)
        if isinstance(f, MortgageFeeFrame):
            sq = f.deeds[0]
            out = []
            if self.cash[p] >= self.ed.unmortgage_cost[sq]:
                out.append(A.act(A.LIFT_MORTGAGE, sq))
            out.append(A.act(A.KEEP_MORTGAGE, sq))
            return out
        if isinstance(f, ShortageFrame):
            return [A.A_WANT, A.A_NO]
        if isinstance(f, PlaceFrame):
            return [A.act(A.PLACE_BUILDING, sq) for sq in buildings.place_squares(self, p, f.item)]
        if isinstance(f, SnowflakeFrame):
            return [A.act(A.PLACE_SNOWFLAKE, sq) for sq in snowflake.scenes(self, p)]
        raise AssertionError(f"unknown frame {f!r}")

    def _trade_actions(self, f: TradeFrame) -> list[Action]:
        if f.responding:
            out = [A.A_ACCEPT] if trade.offer_valid(self, f) else []
            out.append(A.A_REJECT)
            if f.counters < self.rules.max_counter_offers:
                out.append(A.A_COUNTER)
            return out
        out = []
        if f.edits < A.MAX_DRAFT_EDITS:
            out += [
                A.act(A.TRADE_DEED, sq)
                for sq in sorted(
                    trade.tradeable_deeds(self, f.proposer) + trade.tradeable_deeds(self, f.target)
                )
            ]
            out += [
                A.act(A.TRADE_CARD, d)
                for d, h in enumerate(self.card_holder)
                if h in (f.proposer, f.target)
            ]
            out += [A.act(A.TRADE_CASH, x) for x in trade.cash_ladder(self, f)]
        if trade.offer_valid(self, f):
            out.append(A.A_PROPOSE)
        out.append(A.A_CANCEL)
        return out

    def management(self, p: int) -> list[Action]:
        """The any-time actions open to ``p`` now: build, sell, mortgage, lift, trade, claim.

        An edition without buildings, mortgages or trading (the kids' levels) offers none of
        those."""
        out = [A.act(A.BUILD, sq) for sq in self.build_options(p)]
        out += self.raise_money(p)
        out += [A.act(A.UNMORTGAGE, sq) for sq in self.lift_options(p)]
        out += [A.act(A.TRADE, q) for q in self.trade_options(p)]
        out += [A.act(A.CLAIM_RENT, i) for i in self.claim_options(p)]
        return out

    def has_management(self, p: int) -> bool:
        """Whether :meth:`management` offers ``p`` anything, without building the list.

        Deciding whether a window opens happens after every turn for every other player, so
        this checks the usually non-empty kinds first and stops at the first one found."""
        r = self.rules
        return bool(
            self.has_claim(p)
            or (r.trading and trade.may_start(self, p))
            or (r.mortgages and mortgage.may_mortgage_any(self, p))
            or self.lift_options(p)
            or (r.buildings and buildings.sell_squares(self, p))
            or self.build_options(p)
            or (r.buildings and buildings.sell_group_groups(self, p))
        )

    def build_options(self, p: int) -> list[int]:
        """Streets ``p`` may build on now (none in an edition without buildings): where the
        rules and the bank's stock let ``p`` build (``buildings.build_spots``, kept while the
        board stamp, the seat and the stock stay), those ``p`` can pay for. Cash changes on
        most turns and the rest seldom, so the spots are kept apart from the cash; when ``p``
        can pay for the dearest of them, the answer is the spots themselves. The audit checks
        the answer against ``buildings.build_squares``. Callers must not change the list."""
        if not self.rules.buildings:
            return []
        key = self._spots_key
        if (
            key[0] != self.board_stamp
            or key[1] != p
            or key[2] != self.houses
            or key[3] != self.hotels
        ):
            spots = self._build_spots = buildings.build_spots(self, p)
            dearest = 0
            for sq in spots:
                if self.ed.house_cost[sq] > dearest:
                    dearest = self.ed.house_cost[sq]
            self._spots_dearest = dearest
            self._spots_key = (self.board_stamp, p, self.houses, self.hotels)
            self._builds_cash = -1
        cash = self.cash[p]
        if cash >= self._spots_dearest:
            return self._build_spots
        if cash != self._builds_cash:
            cost = self.ed.house_cost
            self._builds = [sq for sq in self._build_spots if cost[sq] <= cash]
            self._builds_cash = cash
        return self._builds

    def lift_options(self, p: int) -> list[int]:
        """Mortgaged deeds ``p`` can afford to lift now."""
        return mortgage.unmortgage_squares(self, p) if self.rules.mortgages else []

    def trade_options(self, p: int) -> list[int]:
        """Seats ``p`` may open a trade offer to now."""
        return trade.can_start(self, p) if self.rules.trading else []

    def trade_mask(self, p: int) -> int:
        """:meth:`trade_options` as a bit mask of seats (bit ``q``: seat ``q``)."""
        return trade.start_mask(self, p) if self.rules.trading else 0

    def claim_options(self, p: int) -> list[int]:
        """Indexes of the rent claims ``p`` may make now (the rent-claims option)."""
        return [i for i, c in enumerate(self.claims) if c[0] == p] if self.claims else []

    def has_claim(self, p: int) -> bool:
        """Whether :meth:`claim_options` offers ``p`` anything (without building the list)."""
        for c in self.claims:
            if c[0] == p:
                return True
        return False

    def move_on(self) -> MoveOn | None:
        """The answer that lets the table go on (meeple.kernel.asking), if there is one.

        With no frame on the stack the any-time actions (build, sell, mortgage, lift, trade)
        are optional, so the phase's own answer moves on past them: ``roll`` before the roll,
        ``end_turn`` at the end of the turn, ``pass`` in another player's window. A rent claim
        open to the decider (the rent-claims option: unclaimed rent is lost) and a jail with
        more than one way out are real choices. In a frame (a purchase, an auction, a debt, a
        trade, ...) every legal action answers it, so only a single one moves on. It is worth
        asking when the decider can afford to build."""
        if self.over:
            return None
        p = self.current_player()
        if not self.stack and self.phase != self.JAIL:
            if self.has_claim(p):
                return None
            worth = bool(self.build_options(p))
            if self.phase == self.PRE_ROLL:
                return MoveOn(A.A_ROLL, MOVE_ROLL, worth)
            if self.phase == self.END_TURN:
                return MoveOn(A.A_END_TURN, MOVE_END_TURN, worth)
            return MoveOn(A.A_PASS, OTHERS_TURN, worth)
        return super().move_on()

    def auction_bid(self, seat: int, limit: int) -> tuple[bool, Action | None]:
        """A proxy bid (kernel protocol): in an open auction ``seat`` is still in, the smallest
        legal bid (``AuctionFrame.next_min``) while it is within ``limit`` and ``seat``'s
        cash, else dropping out (a pass: rules/auction.py)."""
        f = self.stack[-1] if self.stack else None
        if self.over or not isinstance(f, AuctionFrame) or seat not in f.active:
            return False, None
        if self.current_player() != seat:
            return True, None
        low = f.next_min()
        if low <= limit and low <= self.cash[seat]:
            return True, A.act(A.BID, low)
        return True, A.A_PASS

    def raise_money(self, p: int) -> list[Action]:
        """Selling buildings and mortgaging: what a player short of cash may do."""
        out = []
        if self.rules.buildings:
            out += [A.act(A.SELL_BUILDING, sq) for sq in buildings.sell_squares(self, p)]
            out += [A.act(A.SELL_GROUP, g) for g in buildings.sell_group_groups(self, p)]
        if self.rules.mortgages:
            out += [A.act(A.MORTGAGE, sq) for sq in mortgage.mortgage_squares(self, p)]
        return out

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now: the same answer as membership in
        :meth:`legal_actions` (plus any amount in range for a bid or trade cash), decided from
        the option lists and rule checks that list is made of, without building it. Every
        action applied is checked here, so most of a game never builds a list of actions;
        ``tests/monopoly/test_is_legal.py`` checks both answers agree."""
        if self.over:
            return False
        kind, args = action.kind, action.args
        if not args and not self.stack:
            # Moving on (most actions of a game) is always legal in its phase: checked before
            # the general case (none of these three kinds takes an argument or is management).
            ph = self.phase
            if kind == A.PASS:
                if ph == self.WINDOW:
                    return True
            elif kind == A.ROLL:
                if ph == self.PRE_ROLL:
                    return True
            elif kind == A.END_TURN and ph == self.END_TURN:
                return True
        if len(args) != (1 if kind in A.WITH_ARG else 0):
            return False
        arg = args[0] if args else 0
        if not self.stack:
            ph = self.phase
            p = self.current_player()
            if kind in _MGMT:
                return self._may_manage(p, kind, arg)
            if ph == self.JAIL:
                if kind == A.ROLL:
                    return self.rules.jail_style == "jail"  # Time Out has no tries at doubles
                if kind == A.PAY_FINE:
                    return self.cash[p] >= self.rules.jail_fine
                if kind == A.USE_CARD:
                    return 0 <= arg < len(self.card_holder) and self.card_holder[arg] == p
                return False
            if ph == self.PRE_ROLL:
                return kind == A.ROLL
            if ph == self.END_TURN:
                return kind == A.END_TURN
            return kind == A.PASS  # WINDOW
        p = self.current_player()
        f = self.stack[-1]
        if isinstance(f, BuyFrame):
            if kind == A.BUY:
                return buying.can_buy(self, f)
            return kind == A.DECLINE or self._may_raise(p, kind, arg)
        if isinstance(f, AuctionFrame):
            if kind == A.BID:
                return f.next_min() <= arg <= self.cash[p]
            return kind == A.PASS
        if isinstance(f, DebtFrame):
            if kind == A.TRADE:
                return arg in trade.can_start(self, p)
            if kind == A.BANKRUPT:
                return bankruptcy.can_declare(self, f)
            return self._may_raise(p, kind, arg)
        if isinstance(f, TradeFrame):
            return self._may_trade(f, kind, arg)
        if isinstance(f, MortgageFeeFrame):
            sq = f.deeds[0]
            if kind == A.LIFT_MORTGAGE:
                return arg == sq and self.cash[p] >= self.ed.unmortgage_cost[sq]
            return kind == A.KEEP_MORTGAGE and arg == sq
        if isinstance(f, ShortageFrame):
            return kind == A.WANT_BUILDING or kind == A.NO_BUILDING
        if isinstance(f, PlaceFrame):
            return kind == A.PLACE_BUILDING and arg in buildings.place_squares(self, p, f.item)
        if isinstance(f, SnowflakeFrame):
            return kind == A.PLACE_SNOWFLAKE and arg in snowflake.scenes(self, p)
        raise AssertionError(f"unknown frame {f!r}")

    def _may_manage(self, p: int, kind: str, arg: int) -> bool:
        """Whether management action ``kind arg`` is among :meth:`management`'s."""
        if kind == A.BUILD:
            return arg in self.build_options(p)
        if kind == A.UNMORTGAGE:
            return arg in self.lift_options(p)
        if kind == A.TRADE:
            return 0 <= arg < self.n and (self.trade_mask(p) >> arg) & 1 == 1
        if kind == A.CLAIM_RENT:
            return arg in self.claim_options(p)
        return self._may_raise(p, kind, arg)

    def _may_raise(self, p: int, kind: str, arg: int) -> bool:
        """Whether ``kind arg`` is among :meth:`raise_money`'s (a square's own rule, not the
        lists: a built square has one owner, so ``sell_squares`` is ``can_sell`` of each, and
        ``mortgage_squares`` is ``can_mortgage`` of each deed)."""
        if kind == A.SELL_BUILDING:
            return (
                self.rules.buildings
                and 0 <= arg < self.ed.size
                and buildings.can_sell(self, p, arg)
            )
        if kind == A.SELL_GROUP:
            return self.rules.buildings and arg in buildings.sell_group_groups(self, p)
        if kind == A.MORTGAGE:
            return (
                self.rules.mortgages
                and 0 <= arg < self.ed.size
                and self.ed.is_property[arg]
                and mortgage.can_mortgage(self, p, arg)
            )
        return False

    def _may_trade(self, f: TradeFrame, kind: str, arg: int) -> bool:
        """Whether ``kind arg`` is among :meth:`_trade_actions`' (any cash amount in range)."""
        if f.responding:
            if kind == A.ACCEPT:
                return trade.offer_valid(self, f)
            if kind == A.COUNTER:
                return f.counters < self.rules.max_counter_offers
            return kind == A.REJECT
        if kind == A.PROPOSE:
            return trade.offer_valid(self, f)
        if kind == A.CANCEL:
            return True
        if f.edits >= A.MAX_DRAFT_EDITS:
            return False
        if kind == A.TRADE_DEED:  # (trade.tradeable_deeds of either side, without the lists)
            ed = self.ed
            if not (0 <= arg < ed.size and ed.is_property[arg]):
                return False
            o = self.owner[arg]
            return (o == f.proposer or o == f.target) and not buildings.built_groups(self)[
                ed.group_of[arg]
            ]
        if kind == A.TRADE_CARD:
            both = (f.proposer, f.target)
            return 0 <= arg < len(self.card_holder) and self.card_holder[arg] in both
        if kind == A.TRADE_CASH:
            return -self.cash[f.target] <= arg <= self.cash[f.proposer]
        return False

    def apply(self, action: Action) -> Sequence[Event]:
        if not self.is_legal(action):
            raise IllegalActionError(str(action), self.why_illegal(action))
        events: list[Event] | None = [] if self.record_events else None
        self._events = events
        self._legal = None
        self._history.append(action)
        self._dispatch(action)
        self._settle()
        self._events = None
        return events if events is not None else ()

    def _dispatch(self, action: Action) -> None:
        kind = action.kind
        if not self.stack:  # (the commonest actions first: none of them is management)
            if kind == A.PASS:  # a window closes
                self.window_next += 1
                return
            if kind == A.ROLL:  # (before a roll or in jail: the player on turn decides)
                p = self.turn
                turns.expire_claims(self)
                if self.phase == self.JAIL:
                    jail.roll_in_jail(self, p)
                else:
                    movement.roll_and_move(self, p)
                at = self.ed.size if self.in_jail[p] else self.pos[p]
                self.landings[at] = self.landings[at] + 1  # (as money.bank_pays says why)
                return
            if kind == A.END_TURN:
                turns.end_turn(self)
                return
        p = self.current_player()
        arg = action.args[0] if action.args else 0
        if kind in _MGMT:
            self._management(p, kind, arg)
            return
        if not self.stack:
            if kind == A.PAY_FINE:
                jail.pay_fine(self, p)
            elif kind == A.USE_CARD:
                jail.use_card(self, p, arg)
            return
        f = self.stack[-1]
        if isinstance(f, BuyFrame):
            if kind == A.BUY:
                buying.buy(self, f)
            else:
                buying.decline(self, f)
        elif isinstance(f, AuctionFrame):
            if kind == A.BID:
                auction.bid(self, f, arg)
            else:
                auction.drop_out(self, f)
        elif isinstance(f, DebtFrame):
            bankruptcy.declare(self, f)
        elif isinstance(f, TradeFrame):
            self._trade(f, kind, arg)
        elif isinstance(f, MortgageFeeFrame):
            if kind == A.LIFT_MORTGAGE:
                mortgage.lift_now(self, f, arg)
            else:
                mortgage.keep_mortgaged(self, f, arg)
        elif isinstance(f, ShortageFrame):
            buildings.answer_shortage(self, f, kind == A.WANT_BUILDING)
        elif isinstance(f, PlaceFrame):
            buildings.place_won(self, f, arg)
        elif isinstance(f, SnowflakeFrame):
            snowflake.place(self, p, arg)

    def _management(self, p: int, kind: str, arg: int) -> None:
        if kind == A.BUILD:
            buildings.request_build(self, p, arg)
        elif kind == A.SELL_BUILDING:
            buildings.sell(self, p, arg)
        elif kind == A.SELL_GROUP:
            buildings.sell_group(self, p, arg)
        elif kind == A.MORTGAGE:
            mortgage.mortgage(self, p, arg)
        elif kind == A.UNMORTGAGE:
            mortgage.unmortgage(self, p, arg)
        elif kind == A.TRADE:
            trade.start(self, p, arg)
        elif kind == A.CLAIM_RENT:
            owner, payer, amount, _, sq = self.claims.pop(arg)
            if self._events is not None:
                self.event("rent", owner=owner, payer=payer, square=sq, amount=amount)
            money.charge(self, payer, owner, amount)

    def _trade(self, f: TradeFrame, kind: str, arg: int) -> None:
        if kind in (A.TRADE_DEED, A.TRADE_CARD, A.TRADE_CASH):
            f.edits += 1
        if kind == A.TRADE_DEED:
            trade.toggle_deed(f, arg)
        elif kind == A.TRADE_CARD:
            trade.toggle_card(f, arg)
        elif kind == A.TRADE_CASH:
            f.cash = arg
        elif kind == A.PROPOSE:
            trade.propose(self, f)
        elif kind == A.CANCEL:
            trade.cancel(self, f)
        elif kind == A.ACCEPT:
            trade.accept(self, f)
        elif kind == A.REJECT:
            trade.reject(self, f)
        elif kind == A.COUNTER:
            trade.counter(self, f)

    def _settle(self) -> None:
        """Run everything that needs no decision, until someone must decide or the game ends:
        pay debts once the cash is there, close decided auctions, skip empty windows."""
        while not self.over:
            if self.stack:
                f = self.stack[-1]
                if isinstance(f, DebtFrame):
                    if bankruptcy.settle(self, f):
                        return
                elif isinstance(f, AuctionFrame):
                    if auction.settle(self, f):
                        return
                elif isinstance(f, ShortageFrame):
                    if buildings.settle_shortage(self, f):
                        return
                elif isinstance(f, PlaceFrame):
                    if buildings.place_squares(self, f.player, f.item):
                        return
                    self.stack.pop()  # nowhere legal to put it any more: the bid is refunded
                    money.bank_pays(self, f.player, f.paid)
                elif isinstance(f, MortgageFeeFrame) and not f.deeds:
                    self.stack.pop()
                else:
                    return
                continue
            ph = self.phase
            if ph == self.END_TURN:
                if self.has_management(self.turn):
                    return
                turns.end_turn(self)
            elif ph == self.WINDOW:
                if self.window_next == len(self.window):
                    turns.next_turn(self)
                    continue
                if self.has_management(self.window[self.window_next]):
                    return
                self.window_next += 1
            elif (
                ph == self.JAIL
                and self.rules.jail_style == "time_out"
                and jail.time_out_stuck(self, self.turn)
            ):
                jail.leave_time_out_broke(self, self.turn)
            else:
                return

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal now."""
        if self.over:
            return "the game is over"
        p = self.current_player()
        legal = self.legal_actions()
        kinds = sorted({a.kind for a in legal})
        top = self.stack[-1] if self.stack else None
        if action.kind not in A.ALL_KINDS:
            return f"there is no action {action.kind!r}"
        if action.kind == A.BUY and isinstance(top, BuyFrame):
            price = self.ed.price[top.square]
            name = self.ed.square_names[top.square]
            why = (
                f"cash {self.cash[p]} is less than the price {price}"
                if self.cash[p] < price
                else "no sold sign left"
            )
            return f"cannot buy {name}: {why}; legal action kinds: {', '.join(kinds)}"
        if action.kind == A.BID and isinstance(top, AuctionFrame):
            return f"a bid must be between {top.next_min()} and your cash {self.cash[p]}"
        if (
            action.kind == A.BUILD
            and len(action.args) == 1
            and top is None
            and self.rules.buildings
        ):
            return _build_reason(self, p, action.args[0])
        deed = action.args[0] if len(action.args) == 1 else -1
        if action.kind in _DEED_REASONS and 0 <= deed < self.ed.size:
            why = _DEED_REASONS[action.kind](self, p, deed)
            if why:
                return why
        if action.kind not in kinds:
            return (
                f"seat {p} must decide '{self.decision_name()}' now; legal action kinds: "
                f"{', '.join(kinds)}"
            )
        args = sorted(str(a) for a in legal if a.kind == action.kind)
        return f"{action} is not one of the legal choices: {', '.join(args)}"

    def decision_name(self) -> str:
        """The name of the current decision (a frame name or a phase name)."""
        if self.stack:
            return self.stack[-1].name
        return self.PHASE_NAMES[self.phase]

    # -- copies, saves, views -----------------------------------------------------------

    def clone(self) -> MonopolyState:
        # Attribute by attribute: the compiled build keeps them in slots, not a __dict__, and
        # makes every new object through __init__ (self.ed already has the rule overrides).
        c = MonopolyState(self.ed, self.n, self._seed, shuffle=False)
        c._options, c.max_turns = self._options, self.max_turns
        c.rng.state = self.rng.state
        c.cash, c.pos = list(self.cash), list(self.pos)
        c.in_jail, c.jail_turns = list(self.in_jail), list(self.jail_turns)
        c.alive, c.offers = list(self.alive), list(self.offers)
        c.owner, c.level, c.mortgaged = list(self.owner), list(self.level), list(self.mortgaged)
        c.landings = list(self.landings)
        c.houses, c.hotels = self.houses, self.hotels
        c.decks = [list(d) for d in self.decks]
        c.card_holder = list(self.card_holder)
        c.turn, c.turn_no, c.phase = self.turn, self.turn_no, self.phase
        c.doubles, c.dice = self.doubles, self.dice
        c.dice_script = list(self.dice_script)
        c.window, c.window_next = list(self.window), self.window_next
        c.stack = [f.copy() for f in self.stack]
        c.claims = [list(x) for x in self.claims]
        c.eliminated = list(self.eliminated)
        c.over, c.end_reason = self.over, self.end_reason
        c.bank_in, c.bank_out = self.bank_in, self.bank_out
        c.snowflake, c.bankrupt_seat = self.snowflake, self.bankrupt_seat
        c._history = list(self._history)
        c._events = None
        c.record_events = self.record_events
        c._legal = None
        # Same board, same stamp: the caches stay valid until either copy changes it.
        c.board_stamp = self.board_stamp
        c._holders_stamp, c._holders = self._holders_stamp, self._holders
        c._built = list(self._built)
        c._rents, c._rents_dirty = list(self._rents), self._rents_dirty
        return c

    def snapshot(self) -> dict[str, Any]:
        snap = self._snapshot()
        if self.dice_script:  # only then, so the save files of other games stay as they were
            snap["dice_script"] = list(self.dice_script)
        return snap

    def _snapshot(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "cash": list(self.cash),
            "pos": list(self.pos),
            "in_jail": list(self.in_jail),
            "jail_turns": list(self.jail_turns),
            "alive": list(self.alive),
            "offers": list(self.offers),
            "owner": list(self.owner),
            "level": list(self.level),
            "mortgaged": list(self.mortgaged),
            "landings": list(self.landings),
            "houses": self.houses,
            "hotels": self.hotels,
            "decks": [list(d) for d in self.decks],
            "card_holder": list(self.card_holder),
            "turn": self.turn,
            "turn_no": self.turn_no,
            "phase": self.PHASE_NAMES[self.phase],
            "doubles": self.doubles,
            "dice": list(self.dice),
            "window": self.window[self.window_next :],
            "stack": [f.to_dict() for f in self.stack],
            "claims": [list(c) for c in self.claims],
            "eliminated": list(self.eliminated),
            "over": self.over,
            "end_reason": self.end_reason,
            "bank_in": self.bank_in,
            "bank_out": self.bank_out,
            "snowflake": self.snowflake,
            "bankrupt_seat": self.bankrupt_seat,
        }

    def restore(self, snap: dict[str, Any]) -> None:
        """Load a :meth:`snapshot` into this state (same edition and seats). ``KeyError`` or
        ``ValueError`` on malformed data; the caller turns them into a save-file error."""
        n, size = self.n, self.ed.size

        def ints(key: str, length: int) -> list[int]:
            v = snap[key]
            if (
                not isinstance(v, list)
                or len(v) != length
                or not all(isinstance(x, int) for x in v)
            ):
                raise ValueError(f"{key} must be a list of {length} integers")
            return [int(x) for x in v]

        self.rng.state = int(snap["rng"])
        self.cash, self.pos = ints("cash", n), ints("pos", n)
        self.in_jail = [bool(x) for x in ints("in_jail", n)]
        self.jail_turns, self.offers = ints("jail_turns", n), ints("offers", n)
        self.alive = [bool(x) for x in ints("alive", n)]
        self.owner, self.level = ints("owner", size), ints("level", size)
        self.mortgaged = [bool(x) for x in ints("mortgaged", size)]
        self.landings = ints("landings", size + 1)
        self.houses, self.hotels = int(snap["houses"]), int(snap["hotels"])
        self.decks = [[int(x) for x in d] for d in snap["decks"]]
        if len(self.decks) != len(self.ed.decks):
            raise ValueError("decks: wrong number of decks for this edition")
        self.card_holder = ints("card_holder", len(self.ed.jail_cards))
        self.turn, self.turn_no = int(snap["turn"]), int(snap["turn_no"])
        self.phase = self.PHASE_NAMES.index(snap["phase"])
        self.doubles = int(snap["doubles"])
        d = snap["dice"]
        self.dice = (int(d[0]), int(d[1]))
        self.window = [int(x) for x in snap["window"]]
        self.window_next = 0
        self.stack = [frame_from_dict(f) for f in snap["stack"]]
        self.claims = [[int(x) for x in c] for c in snap["claims"]]
        self.eliminated = [int(x) for x in snap["eliminated"]]
        self.over, self.end_reason = bool(snap["over"]), str(snap["end_reason"])
        self.bank_in, self.bank_out = int(snap["bank_in"]), int(snap["bank_out"])
        self.snowflake = int(snap["snowflake"])
        self.bankrupt_seat = int(snap["bankrupt_seat"])
        self.dice_script = [int(x) for x in snap.get("dice_script", [])]
        self.invalidate()

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it: everything on the table, nothing hidden.

        Deck order and the random state are never included (only deck sizes); an offer still
        being drafted is shown to its proposer only.
        """
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        # The table is made once and shared: only the seat, an offer being drafted and the
        # decider's legal actions differ from one seat's view to another's.
        ed = self.ed
        decider = self.current_player()
        top = self.stack[-1] if self.stack else None
        shown = None if top is None else top.to_dict()
        drafted: dict[str, Any] | None = None  # what the others see of an offer being drafted
        proposer = -1
        if isinstance(top, TradeFrame) and not top.responding:
            proposer = top.proposer
            drafted = {
                "frame": "trade",
                "proposer": proposer,
                "target": top.target,
                "drafting": True,
            }
        phase, decision = self.PHASE_NAMES[self.phase], self.decision_name()
        dice = list(self.dice)
        players = [
            {
                "seat": p,
                "cash": self.cash[p],
                "position": self.pos[p],
                "in_jail": self.in_jail[p],
                "jail_turns": self.jail_turns[p],
                "alive": self.alive[p],
                "jail_cards": [d for d, h in enumerate(self.card_holder) if h == p],
                "net_worth": money.net_worth(self, p),
            }
            for p in range(self.n)
        ]
        names, owner, level, mortgaged = ed.square_names, self.owner, self.level, self.mortgaged
        squares = [
            {
                "index": sq,
                "name": names[sq],
                "owner": owner[sq],
                "level": level[sq],
                "mortgaged": mortgaged[sq],
            }
            for sq in range(ed.size)
        ]
        bank = {"houses": self.houses, "hotels": self.hotels}
        decks = [
            {"id": d.id, "name": d.name, "cards_left": len(self.decks[i])}
            for i, d in enumerate(ed.decks)
        ]
        claims = [
            {"owner": c[0], "payer": c[1], "amount": c[2], "square": c[4]} for c in self.claims
        ]
        assumed = list(ed.assumed)
        out: list[dict[str, Any]] = []
        for seat in seats:
            frame = drafted if drafted is not None and seat != proposer else shown
            legal: list[str] = []
            if seat is not None and seat == decider:
                legal = [str(a) for a in self.legal_actions()]
            out.append(
                {
                    "game": ed.id,
                    "edition": ed.name,
                    "seat": seat,
                    "turn": self.turn,
                    "turn_no": self.turn_no,
                    "phase": phase,
                    "decision": decision,
                    "decider": decider,
                    "frame": frame,
                    "dice": dice,
                    "doubles": self.doubles,
                    "players": players,
                    "squares": squares,
                    "bank": bank,
                    "decks": decks,
                    "claims": claims,
                    "over": self.over,
                    "end_reason": self.end_reason,
                    "snowflake": self.snowflake,
                    "assumed": assumed,
                    "legal_actions": legal,
                }
            )
        return out

    def money_of(self, seat: int) -> int:
        return self.cash[seat]

    def describe(self, event: Event) -> str:
        return describe_event(self, event)

    def describe_action(self, action: Action) -> str:
        return describe_action(self, action)

    def choice_text(self, action: Action, names: Sequence[str] | None = None) -> str:
        """A legal action as a person's list shows it (kernel protocol): builds and sales
        with their price, trade partners by name and number, no engine terms."""
        from meeple.games.monopoly.render import choice_text

        return choice_text(self, action, names)

    def rules_summary(self) -> list[str]:
        """The edition's main rules in words, from its rule options (kernel protocol), so a
        custom edition gets its own."""
        from meeple.games.monopoly.render import rules_lines

        return rules_lines(self.ed)


def _mortgage_reason(s: MonopolyState, p: int, sq: int) -> str:
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


def _lift_reason(s: MonopolyState, p: int, sq: int) -> str:
    """Why ``p`` may not lift the mortgage on ``sq``, or "" when the deed allows it."""
    ed = s.ed
    if s.owner[sq] != p:
        return f"you do not own {ed.square_names[sq]}"
    if not s.mortgaged[sq]:
        return f"{ed.square_names[sq]} is not mortgaged"
    if s.cash[p] < ed.unmortgage_cost[sq]:
        return f"lifting it costs {ed.unmortgage_cost[sq]}; you have {s.cash[p]}"
    return ""


def _sell_reason(s: MonopolyState, p: int, sq: int) -> str:
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


_DEED_REASONS = {
    A.MORTGAGE: _mortgage_reason,
    A.UNMORTGAGE: _lift_reason,
    A.SELL_BUILDING: _sell_reason,
}


def _build_reason(s: MonopolyState, p: int, sq: int) -> str:
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


def _with_rule_overrides(edition: Edition, overrides: Any) -> Edition:
    if not overrides:
        return edition
    if not isinstance(overrides, dict):
        raise ValueError("options.rules must be a table of rule options")
    merged = {**edition.model.rules.model_dump(), **overrides}
    from pydantic import ValidationError

    try:
        RulesModel.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise ValueError(f"options.rules.{loc}: {err['msg']}") from None
    data = edition.model.model_dump()
    data["rules"] = merged
    return parse_edition(data, edition.source)


def new_monopoly(
    edition: str | Edition, players: int, seed: int, options: dict[str, Any] | None = None
) -> MonopolyState:
    """Start a game of ``edition`` (an id or a loaded :class:`Edition`)."""
    ed = builtin_edition(edition) if isinstance(edition, str) else edition
    s = MonopolyState(ed, players, seed, options)
    s._settle()
    return s
