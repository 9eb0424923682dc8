"""The observation vector: what one seat may see, as a fixed-length ``float32`` vector.

Every feature is read from :meth:`GameState.view` (DESIGN.md, "One view function ...  for web
clients, bots and RL alike"), so an observation never holds deck order, the random state or an
offer another seat is still drafting. Player rows are rotated so the observing seat comes
first and the next seat to its left second, and so on (seat-independent policies). Amounts are
scaled (Monopoly money by the edition's starting cash) and every value is clipped to
``[-OBS_BOUND, OBS_BOUND]``. :meth:`Observer.layout` lists the blocks; docs/RL.md prints them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from meeple.games.monopoly import actions as A
from meeple.kernel.protocol import GameState

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState
    from meeple.games.monopoly.state import MonopolyState

OBS_BOUND = 10.0
Vector = npt.NDArray[np.float32]


class Observer:
    """Builds the observation vector of one game; :attr:`blocks` is its documented layout."""

    def __init__(self) -> None:
        #: ``(name, offset, length, meaning)`` of each block, in order.
        self.blocks: list[tuple[str, int, int, str]] = []
        self.off: dict[str, int] = {}
        self.size = 0

    def block(self, name: str, length: int, meaning: str) -> None:
        """Declare the next block of the vector."""
        self.off[name] = self.size
        self.blocks.append((name, self.size, length, meaning))
        self.size += length

    def layout(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the vector: name, offset, length, meaning."""
        return list(self.blocks)

    def observe(self, state: GameState, seat: int) -> Vector:
        """The vector for ``seat`` (a fresh array)."""
        raise NotImplementedError


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

    @classmethod
    def for_state(cls, state: MonopolyState) -> MonopolyObserver:
        r = state.ed.rules
        return cls(state.ed.size, r.max_players, r.starting_cash, r.houses, r.hotels)

    def observe(self, state: GameState, seat: int) -> Vector:
        s: MonopolyState = state  # type: ignore[assignment]
        v = s.view(seat)
        ed = s.ed
        o = self.off
        n, m = self.n_sq, self.money
        x = np.zeros(self.size, dtype=np.float32)
        nseats = len(v["players"])

        def rel(q: int) -> int:
            return (q - seat) % nseats

        for sq in v["squares"]:
            i = sq["index"]
            owner = sq["owner"]
            if ed.is_property[i]:
                if owner == seat:
                    x[o["sq_owner_self"] + i] = 1
                elif owner >= 0:
                    x[o["sq_owner_opponent"] + i] = 1
                else:
                    x[o["sq_owner_none"] + i] = 1
            x[o["sq_level"] + i] = sq["level"] / 5
            x[o["sq_mortgaged"] + i] = sq["mortgaged"]
        if v["snowflake"] >= 0:
            x[o["sq_snowflake"] + v["snowflake"]] = 1
        players = v["players"]
        x[o["pos_self"] + players[seat]["position"]] = 1
        nf = len(PLAYER_FEATURES)
        deeds = [0] * nseats
        for sq in v["squares"]:
            if sq["owner"] >= 0:
                deeds[sq["owner"]] += 1
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
            x[o["focus_price"]] = ed.price[focus] / m
        mine = [c for c in v["claims"] if c["owner"] == seat]
        x[o["claims"]] = len(mine) / 8
        x[o["claims"] + 1] = sum(c["amount"] for c in mine) / m
        d = v["dice"]
        x[o["dice"] : o["dice"] + 3] = (d[0] / 6, d[1] / 6, v["doubles"] / 3)
        bank = v["bank"]
        x[o["bank"]] = bank["houses"] / self.houses
        x[o["bank"] + 1] = bank["hotels"] / self.hotels
        x[o["turn"]] = v["turn_no"] / 1000
        np.clip(x, -OBS_BOUND, OBS_BOUND, out=x)
        return x

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


# -- Monopolis ---------------------------------------------------------------------------------

MONOPOLIS_PHASES = ("action", "pay", "tile", "joker", "over")
TILE_VALUES = (1, 2, 3, 4, 6)


class MonopolisObserver(Observer):
    """The observation of Monopolis (R resources, 49 plots, 4 seat rows, 6 market places).

    Plots: the building's value / 6, built by the observer / by another seat, cubes / 4, a
    requirement card waiting (its type / 3 and each resource it needs / 4), the plot being
    built. Seats (rotated, observer first): money / 20, resources / 10, jokers / 3, houses
    used and left / spaces, cards in hand / 10, the points the seat would score now / 50.
    Market places: a card there, price / 5, its resources / 3, joker, coins / 3. The tile
    supply left per value, the phase one-hot, actions done this turn, the payment chosen
    (full or a pair of resource r), jokers to place, the final round, turns / 100.
    """

    SEAT_ROWS = 4
    SLOTS = 6

    def __init__(self, resources: tuple[str, ...], tiles_per_value: list[int]) -> None:
        super().__init__()
        from meeple.games.monopolis.city import PLOTS

        self.resources = resources
        self.tiles_per_value = [max(1, t) for t in tiles_per_value]
        r = len(resources)
        self.plots = PLOTS
        self.block("plot_value", PLOTS, "building value / 6 (the castle is 0)")
        self.block("plot_self", PLOTS, "built by the observer")
        self.block("plot_opponent", PLOTS, "built by another seat")
        self.block("plot_cubes", PLOTS, "cubes / 4")
        self.block("plot_card", PLOTS, "a requirement card points at this plot")
        self.block("plot_card_type", PLOTS, "its type / 3")
        self.block(
            "plot_card_needs",
            PLOTS * r,
            f"its needs / 4: {PLOTS} plots per resource, resources in order {', '.join(resources)}",
        )
        self.block("plot_pending", PLOTS, "the plot being built now")
        self.block(
            "seats",
            self.SEAT_ROWS * (6 + r),
            "4 rows (observer first): present, money / 20, resources / 10 (each), jokers / 3, "
            "houses used / spaces, cards in hand / 10, points now / 50",
        )
        self.block(
            "market",
            self.SLOTS * (4 + r),
            "6 places: card, price / 5, resources / 3 (each), joker, coins / 3",
        )
        self.block("tile_supply", len(TILE_VALUES), "tiles left per value 1, 2, 3, 4, 6 / at setup")
        self.block("phase", len(MONOPOLIS_PHASES), "one-hot: " + ", ".join(MONOPOLIS_PHASES))
        self.block("payment", 1 + r, "full card, or a pair of resource r, one-hot (tile phase)")
        self.block(
            "misc",
            5,
            "decider is self, actions done / 2, jokers to place / 3, final round, turns / 100",
        )

    @classmethod
    def for_state(cls, state: MonopolisState) -> MonopolisObserver:
        comps = state.comps
        return cls(comps.resources, [len(comps.tile_ids_of_value(t)) for t in TILE_VALUES])

    def observe(self, state: GameState, seat: int) -> Vector:
        from meeple.games.monopolis.scoring import score_sheets

        ms: MonopolisState = state  # type: ignore[assignment]
        v = state.view(seat)
        o = self.off
        res = self.resources
        r = len(res)
        npl = self.plots
        x = np.zeros(self.size, dtype=np.float32)
        nseats = v["players"]
        for t in v["city"]:
            p = t["plot"]
            x[o["plot_value"] + p] = t["value"] / 6
            if t["owner"] == seat:
                x[o["plot_self"] + p] = 1
            elif t["owner"] >= 0:
                x[o["plot_opponent"] + p] = 1
            x[o["plot_cubes"] + p] = t["cubes"] / 4
        for c in v["requirement_cards"]:
            p = c["plot"]
            card = c["card"]
            x[o["plot_card"] + p] = 1
            x[o["plot_card_type"] + p] = len(card["type"]) / 3
            for name in card["needs"]:
                x[o["plot_card_needs"] + res.index(name) * npl + p] += 0.25
        pend = v["pending"]
        if pend["plot"] >= 0:
            x[o["plot_pending"] + pend["plot"]] = 1
        totals = [sh["total"] for sh in score_sheets(ms)]
        width = 6 + r
        for pl in v["seats"]:
            q = pl["seat"]
            b = o["seats"] + ((q - seat) % nseats) * width
            row = [1.0, pl["money"] / 20]
            row += [pl["resources"][name] / 10 for name in res]
            row += [
                pl["jokers"] / 3,
                pl["houses_used"] / max(1, pl["houses_used"] + pl["houses_left"]),
                len(pl["cards"]) / 10,
                totals[q] / 50,
            ]
            x[b : b + width] = row
        width = 4 + r
        for place in v["market"]:
            card = place["card"]
            if card is None:
                continue
            b = o["market"] + place["slot"] * width
            x[b] = 1
            x[b + 1] = place["price"] / 5
            for name in card["resources"]:
                x[b + 2 + res.index(name)] += 1 / 3
            x[b + 2 + r] = card["liza"]
            x[b + 3 + r] = card["coins"] / 3
        for i, t in enumerate(TILE_VALUES):
            x[o["tile_supply"] + i] = v["tile_supply"][str(t)]["count"] / self.tiles_per_value[i]
        x[o["phase"] + MONOPOLIS_PHASES.index(v["phase"])] = 1
        pay = pend["payment"]
        if pay is not None:
            x[o["payment"] + (0 if pay == "full" else 1 + res.index(pay))] = 1
        b = o["misc"]
        x[b : b + 5] = (
            v["current_player"] == seat,
            v["actions_done"] / 2,
            pend["jokers"] / 3,
            v["final_round"],
            v["turns"] / 100,
        )
        np.clip(x, -OBS_BOUND, OBS_BOUND, out=x)
        return x


def observer_for(state: GameState) -> Observer:
    """The observer of ``state``'s game (Monopoly edition or Monopolis)."""
    from meeple.games.monopolis.state import MonopolisState
    from meeple.games.monopoly.state import MonopolyState

    if isinstance(state, MonopolyState):
        return MonopolyObserver.for_state(state)
    if isinstance(state, MonopolisState):
        return MonopolisObserver.for_state(state)
    raise ValueError(f"no observation for game family {state.family!r}")
