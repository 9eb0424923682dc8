"""The fixed terms of a game of Monopolis: its id, the starting money, the size of the joker
track, and the options a game takes (:func:`check_options`, for a new game and a snapshot).

The bottom of the family's layers with the components: the state, its rules, its snapshots and
its words read these, and this module reads none of them (the rules' start choices aside).
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopolis import turns

GAME_ID = "monopolis"
STARTING_MONEY = 5
#: "You may hold at most 3 joker resources at a time."
JOKER_TRACK = 3
# position and redraw: a game started from a position (meeple.kernel.position)
# ruleset: which of the family's rulesets the game plays (meeple.kernel.family.new_game)
# rules: the rules a table may set (turns.RULES: who starts)
OPTIONS = ("components", "max_turns", "position", "redraw", "ruleset", "rules")


def check_options(options: dict[str, Any]) -> None:
    """``ValueError`` naming the first unknown or malformed option (a new game, a snapshot)."""
    for key, value in options.items():
        if key not in OPTIONS:
            raise ValueError(f"unknown monopolis option {key!r}; known: {', '.join(OPTIONS)}")
        if key == "components" and not isinstance(value, str):
            raise ValueError("option 'components' must be a path to a components file")
        if key == "rules":
            if not isinstance(value, dict):
                raise ValueError("option 'rules' must be a table of rule names and values")
            for name, v in value.items():
                if name != "start_player":
                    raise ValueError(f"unknown monopolis rule {name!r}; known: start_player")
                if v not in turns.START_CHOICES:
                    raise ValueError(
                        f"rule start_player must be one of {', '.join(turns.START_CHOICES)}"
                    )
        if key == "ruleset" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError("option 'ruleset' must be a whole number")
        if key == "max_turns" and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise ValueError("option 'max_turns' must be a whole number of player-turns, 0 or more")
