"""Record what seeded bot games of every game id play (tests/golden/fingerprints.json): the
"same games" check of a redesign (issue 19: every game of every edition plays exactly as
before, same seeds, same games).

Run: ``python tools/make_fingerprints.py`` only after a deliberate change to a rule, to the
random streams or to the order of legal actions, and review the diff before committing it.

Each case is a game id, a number of players, a seed and a bot kind (every seat that kind, each
with its own stream, ``derive_seed(seed, 1 + seat)`` as the server seeds them), played to its
end or to a number of actions. Its fingerprint is the SHA-256 of the actions in their text form,
one per line, with the number of actions and the result (winners, ranking, end reason, turns,
scores): what a player sees of a game, and nothing of how the state holds it, so a new state
layout must reproduce it exactly.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from meeple.bots.base import make_bot
from meeple.kernel.family import game_family, game_ids, game_info, new_game
from meeple.kernel.rng import derive_seed

PATH = Path(__file__).resolve().parents[1] / "tests" / "golden" / "fingerprints.json"
SEEDS = range(4)
CAPS = {"standard": 4000, "random": 600}
"""The most actions played per bot kind: a standard game ends well within it; random bots
wander for tens of thousands of actions, and 600 reach auctions, trades, jail and debt."""


def cases() -> list[tuple[str, int, int, str]]:
    """Every game id at its fewest and most players (and 4 where allowed), each bot kind."""
    out = []
    for game in game_ids():
        info = game_info(game)
        counts = sorted({info.min_players, min(4, info.max_players), info.max_players})
        for players in counts:
            for bot in CAPS:
                out += [(game, players, seed, bot) for seed in SEEDS]
    return out


RESULT_FIELDS = ("winners", "ranking", "end_reason", "turns", "scores")


def fingerprint(game: str, players: int, seed: int, bot: str) -> dict[str, Any]:
    """Play the case and describe what was played."""
    state = new_game(game, players, seed)
    state.record_events = False
    family = game_family(game)
    bots = [make_bot(bot, family, derive_seed(seed, 1 + s)) for s in range(players)]
    while not state.is_terminal() and len(state.history) < CAPS[bot]:
        state.apply(bots[state.current_player()].choose(state))
    text = "\n".join(str(a) for a in state.history)
    result = state.result()
    return {
        "actions": len(state.history),
        "sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
        # The result's fields as they were recorded (a result may carry more since: the
        # score sheets, which the sheets' own tests check).
        "result": None if result is None else {k: result.to_dict()[k] for k in RESULT_FIELDS},
    }


def key(game: str, players: int, seed: int, bot: str) -> str:
    return f"{game} p{players} s{seed} {bot}"


def main() -> None:
    table = {key(*case): fingerprint(*case) for case in cases()}
    PATH.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(table)} fingerprints to {PATH}")


if __name__ == "__main__":
    main()
