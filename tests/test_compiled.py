"""The mypyc build (``tools/compile.py``) plays exactly the games the pure-Python source plays.

The compiled modules are built in a temporary copy of the source tree (``tools/compile.py``, the
checkout's way; ``tests/test_install.py`` builds wheels), beside a pure copy.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import json, sys
from meeple.bots.base import make_bot
from meeple.buildinfo import build_name
from meeple.kernel.family import new_game
from meeple.sim.runner import SimConfig, play_one
cfg = SimConfig("classic", 4, 4, 21, ("standard", "standard", "random", "standard"), max_turns=400)
games = [vars(play_one(cfg, i)) for i in range(cfg.games)]
# Beside the compiled classes: the mcts bot (clones the state), Monopolis (an interpreted
# subclass of the compiled GameState), a clone and a save restored mid-game.
mcts = SimConfig("classic", 4, 1, 5, ("mcts:4", "standard", "standard", "standard"), max_turns=25)
games.append(vars(play_one(mcts, 0)))
city = SimConfig("monopolis", 3, 2, 5, ("standard", "random", "random"))
games += [vars(play_one(city, i)) for i in range(city.games)]
s = new_game("classic", 4, 9, {})
bots = [make_bot("standard", "monopoly", p) for p in range(4)]
for _ in range(400):
    s.apply(bots[s.current_player()].choose(s))
c = s.clone()
r = new_game("classic", 4, 9, {})
r.restore(s.snapshot())
for _ in range(200):
    if s.is_terminal():  # (as the game goes: issue 38's bots end this one after 572 actions)
        break
    a = bots[s.current_player()].choose(s)
    for x in (s, c, r):
        x.apply(a)
same = c.snapshot() == s.snapshot() == r.snapshot()
# The same for Monopolis (compiled too): a clone and a restored save play on alike.
m = new_game("monopolis", 3, 4, {})
city_bots = [make_bot("standard", "monopolis", p) for p in range(3)]
for _ in range(40):
    m.apply(city_bots[m.current_player()].choose(m))
mc = m.clone()
mr = new_game("monopolis", 3, 8, {})
mr.restore(m.snapshot())
for _ in range(40):
    if m.is_terminal():
        break
    a = city_bots[m.current_player()].choose(m)
    for x in (m, mc, mr):
        x.apply(a)
city_same = mc.snapshot() == m.snapshot() == mr.snapshot()
print(json.dumps({"build": build_name(), "games": games, "mid_game": [same, s.snapshot()],
                  "city": [city_same, m.snapshot()]}))
"""


def _play(src: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout))


@pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="mypyc is not installed")
def test_compiled_engine_plays_the_same_games(tmp_path: Path) -> None:
    # Two copies without any compiled module: one to compile, one to stay pure Python (the
    # checkout itself is compiled in place by its editable install).
    src, pure_src = tmp_path / "src", tmp_path / "pure"
    for copy in (src, pure_src):
        shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compile as compile_tool
    finally:
        sys.path.pop(0)
    compile_tool.compile_in(src)
    assert list(src.rglob("*.so")), "mypyc produced no extension modules"
    compiled = _play(src)
    pure = _play(pure_src)
    assert compiled["build"] == "mypyc"
    assert pure["build"] == "python"
    assert compiled["games"] == pure["games"]
    assert compiled["mid_game"] == pure["mid_game"]
    assert compiled["mid_game"][0] is True  # clone and restore play on as the original
    assert compiled["city"] == pure["city"] and compiled["city"][0] is True
    # Both families' engines are compiled (Monopolis's state among them).
    assert list((src / "meeple/games/monopolis").glob("state.*.so"))
    # MEEPLE_PURE=1 runs the pure modules beside the compiled ones, without a warning.
    asked = subprocess.run(
        [sys.executable, "-c", PLAY],
        env={**os.environ, "PYTHONPATH": str(src), "MEEPLE_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    as_pure = json.loads(asked.stdout)
    assert as_pure["build"] == "python" and as_pure["games"] == pure["games"]
    assert "older than its source" not in asked.stderr
    # A stale build never runs (issue 18): edit one compiled module's source without compiling
    # again, and meeple warns and runs every compiled module from its source.
    rng = src / "meeple/kernel/rng.py"
    rng.write_text(rng.read_text() + "\n# edited after the build\n")
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    )
    assert "compiled engine is older than its source (meeple/kernel/rng.py changed)" in out.stderr
    stale = json.loads(out.stdout)
    assert stale["build"] == "python" and stale["games"] == pure["games"]
    assert (src / "meeple/compiled.json") in compile_tool.clean(src)
    assert not list(src.rglob("*.so"))
