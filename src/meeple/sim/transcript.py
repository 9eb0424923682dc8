"""Readable playthroughs of seeded bot games (golden transcripts, OpenSpiel-style).

A transcript lists every action with the seat that took it and the events it caused, in plain
words, plus a digest of the state every 50 actions: any silent change to a rule changes it.
"""

from __future__ import annotations

import hashlib
import json

from meeple.bots.base import make_bot
from meeple.kernel.family import game_info, new_game
from meeple.kernel.rng import derive_seed


def transcript(game: str, players: int, seed: int, bot: str = "random", max_turns: int = 0) -> str:
    """The transcript of ``game`` seeded ``seed`` with ``bot`` in every seat."""
    options = {"max_turns": max_turns} if max_turns else {}
    s = new_game(game, players, seed, options)
    family = game_info(game).family
    bots = [make_bot(bot, family, derive_seed(seed, 1 + p)) for p in range(players)]
    lines = [
        f"# {game}, {players} players, seed {seed}, {bot} bots (bot seed "
        f"derive_seed({seed}, 1 + seat)), max_turns {max_turns}"
    ]
    lines.extend(f"  {s.describe(e)}" for e in s.setup_events())
    while not s.is_terminal():
        p = s.current_player()
        action = bots[p].choose(s)
        lines.append(f"> P{p + 1}: {action}")
        lines.extend(f"  {s.describe(e)}" for e in s.apply(action))
        if len(s.history) % 50 == 0:
            digest = hashlib.sha256(json.dumps(s.snapshot(), sort_keys=True).encode())
            lines.append(f"= state {digest.hexdigest()[:16]}")
    r = s.result()
    assert r is not None
    lines.append(f"# result: {r.to_dict()}")
    return "\n".join(lines) + "\n"
