"""When a person at the table is asked to decide, and when the front end moves on for them.

Both front ends (the web app, ``meeple serve``, and the terminal, ``meeple play``) ask this
module, so the rule is written once. A game tells what "moving on" means at its current
decision (:meth:`~meeple.kernel.protocol.GameState.move_on`: the one answer that lets the table
go on, such as Monopoly's ``pass`` in another player's window, ``end_turn`` or ``roll``, or the
only legal action); a seat's :class:`AskSettings` say when that seat still wants to be asked;
:func:`auto_move` combines the two, and :func:`countdown` says how long a front end shows what
it is about to play before it plays it (docs/SERVER.md, "Only real decisions ask").

Each game starts a person with its own settings (:func:`for_game`): the game family's, which
an edition may change as data (My First Monopoly: the child rolls the die, as the printed
turn is rolling it).

Moving on never changes what a game means: the front end plays the same action the person
would have clicked, it is stored like any other, and the game replayed from its actions is the
same game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

from meeple.kernel.family import family_of
from meeple.kernel.protocol import (
    END_TURN,
    FORCED,
    OTHERS_TURN,
    PROXY,
    ROLL,
    Action,
    GameState,
    MoveOn,
)

__all__ = [
    "END_TURN",
    "FORCED",
    "OTHERS_TURN",
    "PROXY",
    "ROLL",
    "AskSettings",
    "MoveOn",
    "auto_move",
    "countdown",
    "for_game",
    "is_real_choice",
    "wants_asking",
]

OthersTurns = Literal["never", "build", "always"]
OwnTurn = Literal["build", "roll", "always"]

MAX_GRACE: Final = 30.0


@dataclass(frozen=True)
class AskSettings:
    """When one seat wants to be asked; everything else moves on by itself.

    - ``others_turns``: in other players' turns, ``"never"`` (the seat says when it wants to
      act: "I want to act", a hold), ``"build"`` (only when it can afford to build) or
      ``"always"``;
    - ``own_turn``: before the roll and at the end of its own turn, ``"build"`` (only when it
      can afford to build), ``"roll"`` (always before rolling; the end of the turn only when it
      can build) or ``"always"``;
    - ``grace``: seconds a front end counts down before it rolls or ends the turn for the
      person (:func:`countdown`), so they can still step in; 0 (the default): at once. A
      forced decision (a frame with one legal action, moment ``forced``) always moves on; a
      turn's roll follows ``own_turn`` even when rolling is the only thing to do (in the kids'
      editions), since it is the act the printed turn gives the player.
    """

    others_turns: OthersTurns = "never"
    own_turn: OwnTurn = "build"
    grace: float = 0.0

    def __post_init__(self) -> None:
        if self.others_turns not in ("never", "build", "always"):
            raise ValueError(
                f"others_turns must be 'never', 'build' or 'always', not {self.others_turns!r}"
            )
        if self.own_turn not in ("build", "roll", "always"):
            raise ValueError(f"own_turn must be 'build', 'roll' or 'always', not {self.own_turn!r}")
        if not 0.0 <= self.grace <= MAX_GRACE:
            raise ValueError(f"grace must be 0 to {MAX_GRACE:g} seconds, not {self.grace!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AskSettings:
        """Settings from JSON data; ``ValueError`` naming the field if one is wrong."""
        unknown = set(data) - {"others_turns", "own_turn", "grace"}
        if unknown:
            raise ValueError(f"unknown ask setting(s): {', '.join(sorted(unknown))}")
        return cls(**data)


WEB_DEFAULT: Final = AskSettings()
"""A seat made in the lobby, before its game's own settings (:func:`for_game`): asked only for
real decisions; the turn rolls and ends by itself with no countdown, and "I want to act" holds
the table at the person's next chance."""

TERMINAL_DEFAULT: Final = AskSettings()
"""``meeple play``, before its game's own settings (:func:`for_game`): the same rule as the
web's. Asked before a roll only when something is worth doing first (building); ``wait`` at any
prompt is the terminal's "I want to act" (asked at the next chance, whatever the settings).
Asking before every roll made a third of a game's inputs a plain "Roll the dice" (issue 38:
31 of 97); ``ask own roll`` brings it back."""

ASKED: Final = frozenset({"others_turns", "own_turn"})
"""The settings a game may choose for its people (:func:`for_game`); ``grace`` is the front
end's."""


def for_game(
    game: str, options: Mapping[str, Any] | None = None, base: AskSettings = WEB_DEFAULT
) -> AskSettings:
    """``base`` (a front end's defaults) with ``game``'s own asking settings: the family's
    (:meth:`~meeple.kernel.family.GameFamily.asking`), which an edition may set as data (a
    Monopoly edition's ``[asking]`` table: My First Monopoly's ``own_turn = "roll"``)."""
    chosen = dict(family_of(game, options).asking(game, options or {}))
    unknown = set(chosen) - ASKED
    if unknown:
        raise ValueError(f"{game}: a game may not set ask setting(s) {', '.join(sorted(unknown))}")
    return AskSettings.from_dict({**base.to_dict(), **chosen}) if chosen else base


def wants_asking(move: MoveOn, settings: AskSettings) -> bool:
    """Whether ``settings`` ask the seat at a decision whose move-on is ``move``."""
    if move.moment == FORCED:
        return False
    if move.moment == OTHERS_TURN:
        return settings.others_turns == "always" or (
            settings.others_turns == "build" and move.worth_asking
        )
    if move.moment == ROLL:
        return settings.own_turn in ("roll", "always") or move.worth_asking
    if move.moment == END_TURN:
        return settings.own_turn == "always" or move.worth_asking
    return True  # a moment this module does not know: ask


def countdown(move: MoveOn, settings: AskSettings | None) -> float:
    """Seconds a front end shows ``move`` (a countdown with "Wait, I want to act") before it
    plays it for the seat: the seat's ``grace`` at its own roll and end of turn, where a person
    could reasonably want to act first; none elsewhere (issue 38, "No waiting for nothing").

    Another player's turn moves on at once (the seat asked not to be asked there, and says
    when it wants to act with a hold, which takes effect at its next chance), and so does a
    forced move (there is nothing else to do)."""
    if settings is None or move.moment not in (ROLL, END_TURN):
        return 0.0
    return settings.grace


def auto_move(
    state: GameState, seat: int, settings: AskSettings | None, held: bool = False
) -> MoveOn | None:
    """The move a front end plays for ``seat`` without asking, or ``None`` to ask it.

    ``None`` also when ``seat`` does not decide now, when it has no settings (a seat that asked
    to be asked every time: the API's default) or when it ``held`` the table (it opened its
    panel to act).
    """
    if settings is None or held or state.is_terminal() or state.current_player() != seat:
        return None
    move = state.move_on()
    if move is None or wants_asking(move, settings):
        return None
    return move


def is_real_choice(state: GameState, action: Action) -> bool:
    """Whether answering the current decision with ``action`` was a choice between two or more
    meaningful answers (the measure of docs/SERVER.md, "Only real decisions ask").

    Yes when the decision has no move-on (a purchase, a bid, a trade, a debt, jail, ...) and
    more than one legal action; when ``action`` is not the move-on (an any-time action chosen
    over moving on); and when it is the move-on while an optional action worth weighing was
    open (passing up the chance to build). No for a forced answer and for moving on with
    nothing worth doing instead.
    """
    move = state.move_on()
    if move is None:
        return len(state.legal_actions()) > 1
    if action != move.action:
        return True
    return move.worth_asking
