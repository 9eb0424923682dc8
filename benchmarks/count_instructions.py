"""Instructions executed per game, player-turn and action (valgrind's callgrind), for 4-player
games (classic by default, or ``--game monopolis``) with four ``standard`` bots: a measure of
the engine's cost that, unlike seconds, does not change with the machine's load or with which
machine of the same class a session got.

Run: ``.venv/bin/python benchmarks/count_instructions.py [--games 40] [--bots standard]
[--game classic|monopolis]``.
It runs the simulation twice under ``valgrind --tool=callgrind`` (``--games`` games, then none)
and reports the difference, so start-up and imports cancel out and what is left is playing the
games (setting each one up included). The same binary, games and environment give the same
count every time (valgrind counts instructions, not time; the string hash is fixed). Needs
``valgrind`` (Debian's package); the games are those ``meeple simulate`` plays with ``--seed
0``. ``--keep FILE`` keeps the callgrind output of the ``--games`` run, for
``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from meeple.buildinfo import build_name

_PLAY = """
import sys
from meeple.sim.runner import SimConfig, run
games, bots, game = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cfg = SimConfig(game, 4, max(games, 1), 0, (bots,) * 4)
list(run(SimConfig(game, 4, 1, 99, (bots,) * 4), 1))  # load the edition, warm the caches
turns = actions = 0
for rec in run(cfg, 1) if games else ():
    turns += rec.turns
    actions += rec.actions
print(turns, actions)
"""


def count(games: int, bots: str, game: str = "classic", keep: str = "") -> tuple[int, int, int]:
    """(instructions, player-turns, actions) of one run under callgrind; ``keep``: a path to
    copy callgrind's output to."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "play.py")
        script.write_text(_PLAY, encoding="utf-8")
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/callgrind.out",
                sys.executable,
                str(script),
                str(games),
                bots,
                game,
            ],
            capture_output=True,
            text=True,
            check=True,
            # A fixed string hash: with a random one, dictionaries probe differently from run
            # to run and the count wanders by about 1%.
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        if keep:
            shutil.copyfile(f"{tmp}/callgrind.out", keep)
    refs = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if refs is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    turns, actions = (int(x) for x in out.stdout.split())
    return int(refs.group(1)), turns, actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--bots", default="standard")
    ap.add_argument("--game", default="classic", choices=("classic", "monopolis"))
    ap.add_argument("--keep", default="", help="keep the games' callgrind output here")
    ap.add_argument("--json", dest="json_path")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (apt-get install valgrind)")
    total, turns, actions = count(a.games, a.bots, a.game, a.keep)
    base, _, _ = count(0, a.bots, a.game)
    played = total - base
    out = {
        "benchmark": f"{a.game}-instructions",
        "players": 4,
        "bots": a.bots,
        "games": a.games,
        "build": build_name(),
        "instructions": played,
        "per_game": round(played / a.games),
        "per_player_turn": round(played / turns),
        "per_action": round(played / actions),
        "mean_turns": round(turns / a.games, 1),
    }
    print(json.dumps(out, indent=1))
    if a.json_path:
        Path(a.json_path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
