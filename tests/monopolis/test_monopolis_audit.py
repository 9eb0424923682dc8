"""Random-play audit: every invariant checked after every action, and the rulebook's tile bound.

"MONOPOLIS can therefore consist of at most a 7 x 7 (= 49) building-tile grid, but this size is
never reached: a game can see at most 24 tiles with 2 players, 27 with 3 players, and 36 with 4
players." (monopolis-rules.txt, "The Borders of the City").

Why the bound always holds: every building tile carries at least one house of the player who
built it (a workplace two), houses never leave a tile, a player can only build while a house is
left on their board (``building.value_fits``), and a board holds 12 houses with 2 players and 9
with 3 or 4. So tiles <= houses placed <= 12 x 2 = 24, 9 x 3 = 27, 9 x 4 = 36. The component
design cannot break it: it depends only on the printed house spaces (checked on load).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.bots.base import Bot, RandomBot
from meeple.games.monopolis import MonopolisStandardBot, new_monopolis
from meeple.games.monopolis.actions import action_space
from meeple.games.monopolis.audit import audit
from meeple.games.monopolis.city import CASTLE, EMPTY, NEIGHBOURS, PLOTS
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.protocol import Action, Event, GameState

TILE_BOUND = {2: 24, 3: 27, 4: 36}
SPACE = action_space(4)
ORDER = {a: i for i, a in enumerate(SPACE)}


class Ledger:
    """Money and resources recomputed from events alone: the bank is the only source and sink."""

    def __init__(self, s: MonopolisState) -> None:
        self.money = [5] * s.n
        self.res = [list(r) for r in s.res]
        self.jokers = [0] * s.n

    def update(self, events: list[Event]) -> None:
        for e in events:
            d: dict[str, Any] = e.data
            if e.kind == "buy":
                self.money[d["seat"]] += d["money"]
                for r, g in enumerate(d["gains"]):
                    self.res[d["seat"]][r] += g
            elif e.kind == "build":
                self.money[d["seat"]] += d["money"]
                for r, p in enumerate(d["paid"]):
                    self.res[d["seat"]][r] -= p
                self.jokers[d["seat"]] -= d["jokers_used"]
            elif e.kind == "pass":
                self.money[d["seat"]] += 1
            elif e.kind == "joker":
                if d["resource"] >= 0:
                    self.res[d["seat"]][d["resource"]] += 1
                else:
                    self.jokers[d["seat"]] += 1


def check(s: MonopolisState, ledger: Ledger) -> None:
    # Every invariant of a position (games/monopolis/audit.py: components conserved, the city's
    # borders, houses, parks, cubes, nothing negative) ...
    assert audit(s) == []
    n = s.n
    built = [p for p in range(PLOTS) if s.tile_at[p] != EMPTY and p != CASTLE]
    # ... the rulebook's bound ...
    assert len(built) <= TILE_BOUND[n]
    assert sum(len(h) for h in s.hand) == len(built)
    for p in range(PLOTS):
        touching = [q for q in NEIGHBOURS[p] if s.tile_at[q] != EMPTY]
        if s.card_at[p] == EMPTY and s.tile_at[p] == EMPTY and touching:
            # a free plot by the city has a card, unless it is dealt at the end of this turn
            assert all(q in s.to_deal for q in touching), f"plot {p} touches the city, no card"
    # ... and money and resources match the bank's ledger.
    assert s.money == ledger.money and s.res == ledger.res and s.jokers == ledger.jokers


def check_actions(s: MonopolisState) -> None:
    legal = s.legal_actions()
    if s.is_terminal():
        assert legal == [] and s.current_player() == -1
        return
    assert legal, "a live decision always has a choice"
    assert len(set(legal)) == len(legal)
    assert [ORDER[a] for a in legal] == sorted(ORDER[a] for a in legal)


def play_audited(players: int, seed: int, bots: list[Bot]) -> MonopolisState:
    s = new_monopolis(players, seed, {})
    ledger = Ledger(s)
    check(s, ledger)
    steps = 0
    while not s.is_terminal():
        action = bots[s.current_player()].choose(s)
        ledger.update(s.apply(action))
        check(s, ledger)
        check_actions(s)
        steps += 1
        assert steps < 5000, "a game must end"
    result = s.result()
    assert result is not None
    assert result.end_reason in ("last_house", "stalled")
    assert sorted(result.ranking) == list(range(players))
    assert s.turns % players == 0  # everyone had the same number of turns
    return s


def test_random_play_audit_300_games() -> None:
    reasons: dict[str, int] = {}
    for i in range(300):
        players = 2 + i % 3
        bots: list[Bot] = [RandomBot(i * 7 + k) for k in range(players)]
        if i % 5 == 4:
            bots[i % players] = MonopolisStandardBot(i)
        s = play_audited(players, 1000 + i, bots)
        r = s.result()
        assert r is not None
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    assert reasons.get("last_house", 0) >= 290


class TileHungryBot(Bot):
    """Builds whenever it can, always the tile that costs the fewest houses: most tiles."""

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        builds = [a for a in legal if a.kind in ("build_at", "tile", "pay_pair", "pay_full")]
        if builds:
            small = [a for a in builds if a.kind != "tile" or a.args[0] != 4]
            pool = small or builds
            return pool[self.rng.below(len(pool))]
        return legal[self.rng.below(len(legal))]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40))
def test_tile_bound_is_never_broken(players: int, seed: int) -> None:
    bots: list[Bot] = [TileHungryBot(seed + k) for k in range(players)]
    s = play_audited(players, seed, bots)
    built = sum(1 for p in range(PLOTS) if s.tile_at[p] != EMPTY and p != CASTLE)
    assert built <= TILE_BOUND[players]
