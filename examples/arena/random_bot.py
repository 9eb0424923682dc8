#!/usr/bin/env python3
"""An external bot for `meeple tournament` (docs/ARENA.md): uniform over the legal actions,
seeded by the arena, so the same tournament plays the same games.

    meeple tournament classic --bots "standard,cmd:python3 examples/arena/random_bot.py"

One JSON object a line arrives on standard input; each "decision" is answered with the index
of an action on one line of standard output (flushed: the arena waits for it).
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng.seed(message["seed"])
        elif message["type"] == "decision":
            legal = message["legal"]
            # Prefer buying a deed when offered; otherwise any legal action.
            buys = [a["index"] for a in legal if a["action"].startswith("buy")]
            choice = buys[0] if buys else rng.randrange(len(legal))
            print(choice, flush=True)
        elif message["type"] == "end":
            break


if __name__ == "__main__":
    main()
