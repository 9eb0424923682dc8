"""The observation vector: what one seat may see, as a fixed-length ``float32`` vector.

Every feature is read from the seat's view (``view.views``, the function behind
:meth:`GameState.view`; DESIGN.md, "One view function ...  for web clients, bots and RL alike"),
so an observation never holds deck order, the random state or an offer another seat is still
drafting. Player rows are rotated so the observing seat comes
first and the next seat to its left second, and so on (seat-independent policies). Amounts are
scaled (Monopoly money by the edition's starting cash) and every value is clipped to
``[-OBS_BOUND, OBS_BOUND]``. :meth:`Observer.layout` lists the blocks; docs/RL.md prints them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.extras import need

need("rl", "the RL observations", ("numpy",))  # NumPy comes with meeple[rl]

import numpy as np  # noqa: E402

from meeple.games.monopoly import actions as A  # noqa: E402
from meeple.games.monopoly.view import views  # noqa: E402
from meeple.kernel.encoding import Observer, Vector, bounded  # noqa: E402
from meeple.kernel.protocol import GameState  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from meeple.games.monopoly.state import MonopolyState


# -- Monopoly ----------------------------------------------------------------------------------

DECISIONS = (
    "pre_roll",
    "jail",
    "end_turn",
    "window",
    "over",
    "buy",
    "auction",
    "debt",
    "trade",
    "mortgage_fee",
    "shortage",
    "place",
    "snowflake",
)
PLAYER_FEATURES = (
    "present",
    "alive",
    "cash",
    "net_worth",
    "position",
    "in_jail",
    "jail_turns",
    "jail_cards",
    "deeds",
    "is_decider",
    "on_turn",
)


class MonopolyObserver(Observer):
    """The observation of a Monopoly edition (N squares, P = the edition's max players).

    Money is divided by the edition's starting cash. Squares: owner one-hot relative to the
    observer (self / an opponent / nobody, on deeds only), building level / 5, mortgaged, the
    snowflake, "in the trade offer", "the square this decision is about". Players: P rows of
    PLAYER_FEATURES, rotated so the observer is row 0 (rows past the seat count are zero).
    The decision: which decision it is (one-hot over DECISIONS) and its key numbers (the
    auction's high bid and next legal bid, the debt, the offer's cash from the observer's side,
    its counterparty), the dice, the bank's buildings, the turn number.
    """

    def __init__(
        self, squares: int, max_players: int, starting_cash: int, houses: int, hotels: int
    ):
        super().__init__()
        self.n_sq = n = squares
        self.p_max = p = max_players
        self.money = float(max(1, starting_cash))
        self.houses = max(1, houses)
        self.hotels = max(1, hotels)
        self.block("sq_owner_self", n, "deed owned by the observer")
        self.block("sq_owner_opponent", n, "deed owned by another seat")
        self.block("sq_owner_none", n, "deed not owned yet (0 on squares that are not deeds)")
        self.block("sq_level", n, "buildings / 5 (a hotel is 1)")
        self.block("sq_mortgaged", n, "deed mortgaged")
        self.block("sq_snowflake", n, "the snowflake token is here (Frozen II)")
        self.block("sq_in_offer", n, "deed in the trade offer being drafted or answered")
        self.block("sq_focus", n, "the square this decision is about (buy, auction, fee, shortage)")
        self.block("pos_self", n, "the observer's position, one-hot")
        self.block(
            "players",
            p * len(PLAYER_FEATURES),
            f"{p} rows (observer first, then to the left) of: " + ", ".join(PLAYER_FEATURES),
        )
        self.block("decision", len(DECISIONS), "one-hot: " + ", ".join(DECISIONS))
        self.block("decider_self", 1, "the observer must decide now")
        self.block("focus_price", 1, "printed price of the focus square / starting cash")
        self.block("auction", 6, "item deed/house/hotel one-hot, high bid, next bid, high is self")
        self.block("debt", 2, "amount owed, creditor is the bank")
        self.block(
            "trade",
            7,
            "responding, observer proposes, observer answers, cash to the observer, cards, "
            "edits / MAX_DRAFT_EDITS, counters",
        )
        self.block("trade_partner", p, "the other side of the offer, relative seat one-hot")
        self.block("claims", 2, "rent claims open to the observer: count / 8, total amount")
        self.block("dice", 3, "die 1 / 6, die 2 / 6, doubles this turn / 3")
        self.block("bank", 2, "houses left / supply, hotels left / supply")
        self.block("turn", 1, "turn number / 1000")
        # The structured observation (docs/RL.md): a row per square, a row per seat.
        self.table(
            "squares",
            n,
            (
                "sq_owner_self",
                "sq_owner_opponent",
                "sq_owner_none",
                "sq_level",
                "sq_mortgaged",
                "sq_snowflake",
                "sq_in_offer",
                "sq_focus",
                "pos_self",
            ),
        )
        self.table("players", p, ("players",), by_row=True)

    @classmethod
    def for_state(cls, state: MonopolyState) -> MonopolyObserver:
        """The observer of ``state``'s edition and rules: one object per layout and scale,
        made once and shared (it is never changed after it is made; a bot that plays a
        policy asks for it every game)."""
        r = state.ed.rules
        key = (state.ed.size, r.max_players, r.starting_cash, r.houses, r.hotels)
        made = _OBSERVERS.get(key)
        if made is None:
            made = _OBSERVERS[key] = cls(*key)
        return made

    def observe(self, state: GameState, seat: int) -> Vector:
        s: MonopolyState = state  # type: ignore[assignment]
        v = views(s, [seat], legal_actions=False)[0]  # (the seat's view, without the text of
        # its legal actions: the observation does not read it, and the mask has them)
        x = np.zeros(self.size, dtype=np.float32)
        nseats = len(v["players"])

        def rel(q: int) -> int:
            return (q - seat) % nseats

        deeds = self._squares(x, s, v, seat)
        self._players(x, s, v, seat, deeds, rel)
        self._frame(x, s, v, seat, rel)
        self._table(x, v, seat)
        return bounded(x)

    def _squares(self, x: Vector, s: MonopolyState, v: dict[str, Any], seat: int) -> list[int]:
        """Owners, buildings, mortgages and the snowflake of the board's squares; returns how
        many deeds each seat owns."""
        o = self.off
        nseats = len(v["players"])
        # One pass over the squares, writing only what is not zero (most squares have no
        # building and no mortgage, and a NumPy item write costs more than the test), with
        # each block's offset looked up once (with the view's legal actions left out and
        # bounded: the decider's observation 44 -> 32.5 µs, benchmarks/README.md).
        own_self, own_other, own_none = (
            o["sq_owner_self"],
            o["sq_owner_opponent"],
            o["sq_owner_none"],
        )
        at_level, at_mortgaged = o["sq_level"], o["sq_mortgaged"]
        is_property = s.ed.is_property
        deeds = [0] * nseats
        for sq in v["squares"]:
            i = sq["index"]
            owner = sq["owner"]
            if owner >= 0:
                deeds[owner] += 1
            if is_property[i]:
                x[(own_self if owner == seat else own_other if owner >= 0 else own_none) + i] = 1
            level = sq["level"]
            if level:
                x[at_level + i] = level / 5
            if sq["mortgaged"]:
                x[at_mortgaged + i] = sq["mortgaged"]
        if v["snowflake"] >= 0:
            x[o["sq_snowflake"] + v["snowflake"]] = 1
        return deeds

    def _players(
        self,
        x: Vector,
        s: MonopolyState,
        v: dict[str, Any],
        seat: int,
        deeds: list[int],
        rel: Callable[[int], int],
    ) -> None:
        """Each seat's features, from ``seat``'s side of the table, and whose decision it is."""
        ed = s.ed
        o = self.off
        n, m = self.n_sq, self.money
        players = v["players"]
        x[o["pos_self"] + players[seat]["position"]] = 1
        nf = len(PLAYER_FEATURES)
        ndeeds = max(1, len(ed.properties))
        njc = max(1, len(ed.jail_cards))
        decider = v["decider"]
        for pl in players:
            q = pl["seat"]
            b = o["players"] + rel(q) * nf
            x[b : b + nf] = (
                1.0,
                pl["alive"],
                pl["cash"] / m,
                pl["net_worth"] / m,
                pl["position"] / n,
                pl["in_jail"],
                pl["jail_turns"] / 3,
                len(pl["jail_cards"]) / njc,
                deeds[q] / ndeeds,
                q == decider,
                q == v["turn"],
            )
        x[o["decision"] + DECISIONS.index(v["decision"])] = 1
        x[o["decider_self"]] = decider == seat

    def _frame(
        self, x: Vector, s: MonopolyState, v: dict[str, Any], seat: int, rel: Callable[[int], int]
    ) -> None:
        """The decision frame on top: its square in focus, an auction, a debt or a trade."""
        o = self.off
        m = self.money
        f: dict[str, Any] | None = v["frame"]
        focus = -1
        if f is not None:
            kind = f["frame"]
            if kind == "buy":
                focus = f["square"]
            elif kind == "auction":
                if f["item"] == 0:
                    focus = f["square"]
                b = o["auction"]
                x[b + f["item"]] = 1
                x[b + 3] = f["high"] / m
                nxt = f["high"] + 1 if f["high_bidder"] >= 0 else f["min_bid"]
                x[b + 4] = nxt / m
                x[b + 5] = f["high_bidder"] == seat
            elif kind == "debt":
                x[o["debt"]] = f["amount"] / m
                x[o["debt"] + 1] = f["creditor"] < 0
            elif kind == "trade":
                self._trade(x, f, seat, rel)
            elif kind == "mortgage_fee":
                focus = f["deeds"][0]
            elif kind == "shortage":
                focus = f["square"]
        if focus >= 0:
            x[o["sq_focus"] + focus] = 1
            x[o["focus_price"]] = s.ed.price[focus] / m

    def _table(self, x: Vector, v: dict[str, Any], seat: int) -> None:
        """Claims of rent, the dice, the bank's buildings and the turn."""
        o = self.off
        m = self.money
        mine = [c for c in v["claims"] if c["owner"] == seat]
        x[o["claims"]] = len(mine) / 8
        x[o["claims"] + 1] = sum(c["amount"] for c in mine) / m
        d = v["dice"]
        x[o["dice"] : o["dice"] + 3] = (d[0] / 6, d[1] / 6, v["doubles"] / 3)
        bank = v["bank"]
        x[o["bank"]] = bank["houses"] / self.houses
        x[o["bank"] + 1] = bank["hotels"] / self.hotels
        x[o["turn"]] = v["turn_no"] / 1000

    def _trade(self, x: Vector, f: dict[str, Any], seat: int, rel: Any) -> None:
        o = self.off
        b = o["trade"]
        proposer, target = f["proposer"], f["target"]
        x[b] = bool(f.get("responding"))
        x[b + 1] = proposer == seat
        x[b + 2] = target == seat
        if "deeds" in f:  # not hidden: the observer drafts it, or it has been proposed
            cash = f["cash"]
            x[b + 3] = (cash if target == seat else -cash) / self.money
            x[b + 4] = len(f["cards"])
            x[b + 5] = f["edits"] / A.MAX_DRAFT_EDITS
            x[b + 6] = f["counters"]
            for sq in f["deeds"]:
                x[o["sq_in_offer"] + sq] = 1
        other = target if proposer == seat else proposer
        x[o["trade_partner"] + rel(other)] = 1


_OBSERVERS: dict[tuple[int, int, int, int, int], MonopolyObserver] = {}
"""The observers made so far, by (squares, max players, starting cash, houses, hotels)."""
