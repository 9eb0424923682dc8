"""Regenerate the golden transcripts in tests/golden (only after a deliberate rule change).

Run: ``python tools/make_golden.py``; review the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

from meeple.sim.transcript import transcript

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
CASES = [("classic", 2, 1, 150), ("classic", 3, 2, 120), ("classic", 4, 3, 100)]


def name(game: str, players: int, seed: int) -> str:
    return f"{game}-p{players}-s{seed}.txt"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for game, players, seed, cap in CASES:
        path = GOLDEN / name(game, players, seed)
        path.write_text(transcript(game, players, seed, "random", cap))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
