"""The mypyc build (``tools/compile.py``) plays exactly the games the pure-Python source plays.

The compiled modules are built in a temporary copy of the source tree, so the suite itself keeps
running the ``.py`` files.
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
from meeple.buildinfo import build_name
from meeple.sim.runner import SimConfig, play_one
cfg = SimConfig("classic", 4, 4, 21, ("standard", "standard", "random", "standard"), max_turns=400)
print(json.dumps({"build": build_name(),
                  "games": [vars(play_one(cfg, i)) for i in range(cfg.games)]}))
"""


def _play(src: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout))


@pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="mypyc is not installed")
def test_compiled_engine_plays_the_same_games(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compile as compile_tool
    finally:
        sys.path.pop(0)
    compile_tool.compile_in(src)
    assert list(src.rglob("*.so")), "mypyc produced no extension modules"
    compiled = _play(src)
    pure = _play(ROOT / "src")
    assert compiled["build"] == "mypyc"
    assert pure["build"] == "python"
    assert compiled["games"] == pure["games"]
    assert compile_tool.clean(src)
    assert not list(src.rglob("*.so"))
