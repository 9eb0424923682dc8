"""A fixed integer encoding of every action of a game, and the legal mask over it.

DESIGN.md, "Actions are small values ... a fixed integer encoding with a legal mask for RL"
(catanatron ``gym/envs/action_space.py``; PettingZoo ``classic/chess``). The table of indices
is fixed per game id (for Monopoly, per edition: it depends on the board size, the number of
groups, Get Out of Jail Free cards and seats); docs/RL.md prints it.

Two arguments are relative, so that one index means the same choice in every position:

* ``bid k`` bids the smallest legal bid plus ``BID_LADDER[k]`` (the ladder ``legal_actions``
  lists: :func:`meeple.games.monopoly.rules.auction.bid_ladder`);
* ``trade k`` opens an offer to the seat ``k`` places to the left of the decider
  (``k = 1 .. max_players - 1``), matching the observation, whose player rows are rotated so
  the decider comes first.

``trade_cash k`` indexes the signed ladder :data:`SIGNED_CASH_LADDER` (the amounts
:func:`meeple.games.monopoly.rules.trade.cash_ladder` lists); ``claim_rent i`` indexes the
pending claims up to :data:`MAX_CLAIMS` (a claim beyond the cap is left out of the mask).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.kernel.encoding import ActionEncoding
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

#: ``trade_cash`` amounts, negative (the recipient pays) to positive (the proposer pays).
SIGNED_CASH_LADDER: tuple[int, ...] = tuple(
    [-a for a in reversed(A.CASH_LADDER) if a] + list(A.CASH_LADDER)
)
#: How many pending rent claims (``claim_rent i``) the encoding can address.
MAX_CLAIMS = 8


class MonopolyEncoding(ActionEncoding):
    """The action table of a Monopoly edition.

    Order: ``roll``, ``pay_fine``, ``use_card j`` (each Get Out of Jail Free card),
    ``end_turn``, ``pass``, ``buy``, ``decline``, ``bid k`` (``BID_LADDER``), ``build sq``,
    ``sell_building sq``, ``sell_group g``, ``mortgage sq``, ``unmortgage sq``, ``trade k``
    (relative seat 1 .. max_players - 1), ``claim_rent i`` (``MAX_CLAIMS``), ``trade_deed sq``,
    ``trade_card j``, ``trade_cash k`` (``SIGNED_CASH_LADDER``), ``propose``, ``cancel``,
    ``accept``, ``reject``, ``counter``, ``bankrupt``, ``lift_mortgage sq``,
    ``keep_mortgage sq``, ``want_building``, ``no_building``, ``place_building sq``,
    ``place_snowflake sq`` (sq: every square of the board; g: every group).
    """

    def __init__(self, squares: int, groups: int, jail_cards: int, max_players: int) -> None:
        self.squares = squares
        self.groups = groups
        self.jail_cards = jail_cards
        self.max_players = max_players
        labels: list[str] = []
        self._index: dict[Action, int] = {}
        #: First index of each kind.
        self.base: dict[str, int] = {}

        def fixed(kind: str, args: range | None = None) -> None:
            self.base[kind] = len(labels)
            if args is None:
                self._index[Action(kind)] = len(labels)
                labels.append(kind)
                return
            for x in args:
                self._index[Action(kind, (x,))] = len(labels)
                labels.append(f"{kind} {x}")

        def relative(kind: str, names: list[str]) -> None:
            self.base[kind] = len(labels)
            labels.extend(f"{kind} {n}" for n in names)

        sq, grp, cards = range(squares), range(groups), range(jail_cards)
        fixed(A.ROLL)
        fixed(A.PAY_FINE)
        fixed(A.USE_CARD, cards)
        fixed(A.END_TURN)
        fixed(A.PASS)
        fixed(A.BUY)
        fixed(A.DECLINE)
        relative(A.BID, [f"min+{d}" for d in A.BID_LADDER])
        fixed(A.BUILD, sq)
        fixed(A.SELL_BUILDING, sq)
        fixed(A.SELL_GROUP, grp)
        fixed(A.MORTGAGE, sq)
        fixed(A.UNMORTGAGE, sq)
        relative(A.TRADE, [f"left+{k}" for k in range(1, max_players)])
        fixed(A.CLAIM_RENT, range(MAX_CLAIMS))
        fixed(A.TRADE_DEED, sq)
        fixed(A.TRADE_CARD, cards)
        self.base[A.TRADE_CASH] = len(labels)
        for x in SIGNED_CASH_LADDER:
            self._index[Action(A.TRADE_CASH, (x,))] = len(labels)
            labels.append(f"{A.TRADE_CASH} {x}")
        for kind in (A.PROPOSE, A.CANCEL, A.ACCEPT, A.REJECT, A.COUNTER, A.BANKRUPT):
            fixed(kind)
        fixed(A.LIFT_MORTGAGE, sq)
        fixed(A.KEEP_MORTGAGE, sq)
        fixed(A.WANT_BUILDING)
        fixed(A.NO_BUILDING)
        fixed(A.PLACE_BUILDING, sq)
        fixed(A.PLACE_SNOWFLAKE, sq)
        self.labels = tuple(labels)
        self._actions: list[Action | None] = [None] * len(labels)
        for a, i in self._index.items():
            self._actions[i] = a

    @classmethod
    def for_state(cls, state: MonopolyState) -> MonopolyEncoding:
        """The table of ``state``'s edition: one object per table, made once and shared (it
        is never changed after it is made). Making the classic table takes about 200 µs, and
        a bot that plays a policy asks for it every game (benchmarks/README.md, "What one
        decision of each bot costs")."""
        ed = state.ed
        key = (ed.size, len(ed.groups), len(ed.jail_cards), ed.rules.max_players)
        made = _TABLES.get(key)
        if made is None:
            made = _TABLES[key] = cls(*key)
        return made

    def encode(self, state: GameState, action: Action) -> int:
        kind = action.kind
        if kind == A.BID:
            f = _auction(state)
            if f is None or len(action.args) != 1:
                raise ValueError(f"{action} is not a bid in an auction")
            step = action.args[0] - f.next_min()
            if step not in A.BID_LADDER:
                raise ValueError(f"{action} is not on the bid ladder")
            return self.base[A.BID] + A.BID_LADDER.index(step)
        if kind == A.TRADE:
            if len(action.args) != 1:
                raise ValueError(f"{action} names no seat")
            n = state.num_players
            k = (action.args[0] - state.current_player()) % n
            if not 1 <= k < self.max_players:
                raise ValueError(f"{action} does not name another seat")
            return self.base[A.TRADE] + k - 1
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action} has no index in this encoding") from None

    def try_encode(self, state: GameState, action: Action) -> int:
        """:meth:`encode`, or -1: a fixed action looked up directly (every action but a bid or
        a trade is one), without testing its kind first or catching a miss, since the mask asks
        this of every legal action at every step."""
        i = self._index.get(action, -1)
        return i if i >= 0 else super().try_encode(state, action)

    def decode(self, state: GameState, index: int) -> Action:
        self.check_index(index)
        fixed = self._actions[index]
        if fixed is not None:
            return fixed
        b = self.base[A.BID]
        if b <= index < b + len(A.BID_LADDER):
            f = _auction(state)
            low = f.next_min() if f is not None else 0
            return Action(A.BID, (low + A.BID_LADDER[index - b],))
        k = index - self.base[A.TRADE] + 1
        n = state.num_players
        if k >= n:
            raise ValueError(f"{self.labels[index]} names no seat in a {n}-player game")
        return Action(A.TRADE, ((state.current_player() + k) % n,))


_TABLES: dict[tuple[int, int, int, int], MonopolyEncoding] = {}
"""The action tables made so far, by (squares, groups, jail cards, max players)."""


def _auction(state: GameState) -> AuctionFrame | None:
    stack = getattr(state, "stack", None)
    if stack and isinstance(stack[-1], AuctionFrame):
        f: AuctionFrame = stack[-1]
        return f
    return None
