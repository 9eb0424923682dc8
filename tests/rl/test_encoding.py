"""The fixed action encoding and the mask match the engine exactly (meeple.rl.encoding).

In many random positions of every game: every legal action has its own index, decoding the
index gives the action back, and the mask holds exactly the legal actions' indices.
"""

from __future__ import annotations

import contextlib
from collections import Counter

import numpy as np
import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly.encoding import MAX_CLAIMS
from meeple.kernel.family import game_ids, new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import Rng
from meeple.rl.encoding import encoding_for

GAMES = game_ids()


def check_position(state: GameState, kinds: Counter[str]) -> None:
    enc = encoding_for(state)
    legal = state.legal_actions()
    seen: set[int] = set()
    for a in legal:
        i = enc.encode(state, a)
        assert 0 <= i < enc.size
        assert i not in seen, f"{a} shares index {i}"
        seen.add(i)
        assert enc.decode(state, i) == a
        assert enc.labels[i].split()[0] == a.kind
        kinds[a.kind] += 1
    mask = enc.mask(state)
    assert mask.dtype == np.int8
    assert set(np.flatnonzero(mask).tolist()) == seen
    for i in np.flatnonzero(mask == 0)[:: max(1, enc.size // 20)]:
        # (ValueError: an index that names nothing here, a seat not at the table.)
        with contextlib.suppress(ValueError):
            assert enc.decode(state, int(i)) not in legal


def play(game: str, seed: int, options: dict[str, object] | None = None) -> Counter[str]:
    kinds: Counter[str] = Counter()
    players = 2 + seed % 3
    s = new_game(game, players, seed, dict(options or {}))
    s.record_events = False
    bot = RandomBot(seed)
    rng = Rng(seed)
    steps = 0
    while not s.is_terminal() and steps < 3000:
        if rng.below(3) == 0:  # check a third of the positions: cheaper, still many
            check_position(s, kinds)
        legal = s.legal_actions()
        # Lean towards buying, bidding and building so auctions and shortages happen often.
        eager = [a for a in legal if a.kind in ("buy", "bid", "build", "want_building", "roll")]
        s.apply(eager[0] if eager and rng.below(2) else bot.choose(s))
        steps += 1
    return kinds


@pytest.mark.parametrize("game", GAMES)
def test_round_trip_in_random_positions(game: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(6):
        kinds += play(game, seed)
    if game == "classic":
        for k in (
            "roll",
            "buy",
            "decline",
            "bid",
            "pass",
            "build",
            "mortgage",
            "trade",
            "trade_deed",
            "trade_cash",
            "propose",
            "accept",
            "reject",
            "end_turn",
        ):
            assert kinds[k], f"no {k} position was checked"
    if game == "monopolis":
        for k in ("buy", "build_at", "pay_full", "tile"):
            assert kinds[k], f"no {k} position was checked"


def test_claim_rent_is_encoded() -> None:
    kinds = Counter[str]()
    for seed in range(4):
        kinds += play("classic", seed, {"rules": {"rent_claim_required": True}})
    assert kinds["claim_rent"]


def test_table_is_fixed_per_game() -> None:
    for game in GAMES:
        a = encoding_for(new_game(game, 2, 1))
        b = encoding_for(new_game(game, 4, 99))
        assert a.labels == b.labels
        assert len(set(a.labels)) == a.size
    classic = encoding_for(new_game("classic", 4, 0))
    assert classic.labels[0] == "roll"
    assert sum(1 for x in classic.labels if x.startswith("claim_rent")) == MAX_CLAIMS
    assert encoding_for(new_game("monopolis", 4, 0)).size == 71


def test_bid_and_trade_are_relative() -> None:
    s = new_game("classic", 4, 3)
    enc = encoding_for(s)
    while not any(a.kind == "bid" for a in s.legal_actions()):
        legal = s.legal_actions()
        decline = [a for a in legal if a.kind == "decline"]
        s.apply(decline[0] if decline else legal[0])
    bids = [a for a in s.legal_actions() if a.kind == "bid"]
    lowest = enc.encode(s, bids[0])
    assert enc.labels[lowest] == "bid min+0"
    with pytest.raises(ValueError):
        enc.encode(s, bids[0]._replace(args=(bids[0].args[0] + 1,)))
