"""Golden transcripts: seeded bot games checked in as readable playthroughs.

Any silent change to a rule, to the random stream or to the order of legal actions changes one
of these. After a deliberate change, regenerate with ``python tools/make_golden.py`` and review
the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

from meeple.sim.transcript import transcript

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("make_golden", ROOT / "tools" / "make_golden.py")
assert spec and spec.loader
make_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_golden)


@pytest.mark.parametrize(("game", "players", "seed", "cap"), make_golden.CASES)
def test_transcript_unchanged(game: str, players: int, seed: int, cap: int) -> None:
    path = make_golden.GOLDEN / make_golden.name(game, players, seed)
    expected = path.read_text()
    actual = transcript(game, players, seed, "random", cap)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    actual.splitlines(keepends=True),
                    "golden",
                    "now",
                )
            )[:60]
        )
        pytest.fail(f"{path.name} changed:\n{diff}")
