"""The observation vector of Monopolis for RL: what one seat may see, read from
:meth:`GameState.view` (docs/RL.md prints the layout)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.extras import need

need("rl", "the RL observations", ("numpy",))  # NumPy comes with meeple[rl]

import numpy as np  # noqa: E402

from meeple.kernel.encoding import Observer, Vector, bounded  # noqa: E402
from meeple.kernel.protocol import GameState  # noqa: E402

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

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
        # The structured observation (docs/RL.md): a row per plot, per seat, per market place.
        self.table(
            "plots",
            PLOTS,
            (
                "plot_value",
                "plot_self",
                "plot_opponent",
                "plot_cubes",
                "plot_card",
                "plot_card_type",
                "plot_card_needs",
                "plot_pending",
            ),
        )
        self.table("seats", self.SEAT_ROWS, ("seats",), by_row=True)
        self.table("market", self.SLOTS, ("market",), by_row=True)

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
        return bounded(x)
