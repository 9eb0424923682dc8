"""The snowflake token (Frozen II).

Frozen II, "Snowflake": on a Snowflake space "place the snowflake token on any scene that you
own, occupied or unoccupied. The next person to land on that scene has to pay you double the
rent! The snowflake then melts and goes back in the box. Some cards also let you use the
snowflake! If the snowflake token is already on someone's property when you land on this space
or draw a relevant card, simply move it." A player who owns no scene cannot place it (and so
does not move it). It melts when the next player other than the owner lands on its scene, rent
or no rent. A scene that changes hands with the token on it (a trade, a bankruptcy) sends the
token back to the box unmelted: the double rent was promised to "you", the player who placed it
on a scene "that you own" (docs/RULES.md, "The snowflake").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import Frame
from meeple.games.monopoly.rules.holdings import scene_changes_hands as scene_changes_hands
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


class SnowflakeFrame(Frame):
    """A player places (or moves) the snowflake token on a scene they own."""

    __slots__ = ("player",)
    name = "snowflake"

    def __init__(self, player: int) -> None:
        self.player = player

    def decider(self) -> int:
        return self.player

    def copy(self) -> SnowflakeFrame:
        return SnowflakeFrame(self.player)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return SnowflakeFrame(d["player"])

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return [A.act(A.PLACE_SNOWFLAKE, sq) for sq in scenes(s, p)]

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        return kind == A.PLACE_SNOWFLAKE and arg in scenes(s, p)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        place(s, p, arg)


def scenes(s: MonopolyState, p: int) -> list[int]:
    """The scenes (streets) ``p`` owns: where they may place the snowflake."""
    kind, owner = s.ed.kind, s.owner
    return [sq for sq in s.ed.properties if kind[sq] == STREET and owner[sq] == p]


def offer(s: MonopolyState, p: int) -> None:
    """``p`` may place (or move) the snowflake on a scene they own."""
    if scenes(s, p):
        s.stack.append(SnowflakeFrame(p))
    elif s._events is not None:
        s.event("snowflake_no_scene", player=p)


def place(s: MonopolyState, p: int, sq: int) -> None:
    s.stack.pop()
    s.snowflake = sq
    if s._events is not None:
        s.event("snowflake_placed", player=p, square=sq)


def melt_on(s: MonopolyState, sq: int) -> bool:
    """A non-owner lands on ``sq``: if the snowflake is there it melts; returns whether it was."""
    if s.snowflake != sq:
        return False
    s.snowflake = -1
    if s._events is not None:
        s.event("snowflake_melts", square=sq)
    return True
