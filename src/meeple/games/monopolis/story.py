"""A Monopolis game's story for its replay: points turn by turn (as if the game ended there),
the score sheets, and the key moments (the dearest card, the largest building, the final
round, the end). Served by ``meeple.server.history`` through ``GameFamily.story``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.games.monopolis.scoring import STEPS, score_sheets
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.protocol import Action, Event
from meeple.kernel.story import moment


def monopolis_story(s: MonopolisState, actions: Sequence[Action]) -> dict[str, Any]:
    def totals() -> list[int]:
        return [sheet["total"] for sheet in score_sheets(s)]

    points = [{"state_id": 0, "turn": s.turns + 1, "values": totals()}]
    moments: list[dict[str, Any]] = []
    best: dict[str, tuple[tuple[int, int], int, int, Event, str]] = {}
    for i, a in enumerate(actions):
        turn = s.turns + 1
        events = s.apply(a)
        sid = i + 1
        for e in events:
            k, d = e.kind, e.data
            if k == "buy" or k == "build":
                key = (d["price"], 0) if k == "buy" else (d["value"], len(d["houses"]))
                if k not in best or key > best[k][0]:
                    best[k] = (key, sid, turn, e, s.describe(e))
                if k == "build" and d["last_house"]:
                    title = "The final round begins"
                    moments.append(
                        moment(sid, turn, "last_house", title, s.describe(e), [d["seat"]])
                    )
            elif k == "game_end":
                moments.append(moment(sid, turn, k, "Game over", s.describe(e), d["winners"]))
        if s.turns + 1 != turn or s.is_terminal():
            points.append({"state_id": sid, "turn": s.turns + 1, "values": totals()})
    titles = {"buy": "Dearest card bought", "build": "Largest building"}
    for k, (key, sid, turn, e, text) in best.items():
        moments.append(moment(sid, turn, k, titles[k], text, [e.data["seat"]], key[0]))
    moments.sort(key=lambda m: m["state_id"])
    return {
        "series": {"measure": "points", "unit": "points", "points": points},
        "steps": list(STEPS),
        "sheets": [{"seat": seat, **sheet} for seat, sheet in enumerate(score_sheets(s))],
        "moments": moments,
    }
