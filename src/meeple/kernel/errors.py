"""Typed errors. Every error says what is wrong and where; none leaves a game half-changed."""

from __future__ import annotations


class MeepleError(Exception):
    """Base class of every error meeple raises on purpose."""


class IllegalActionError(MeepleError):
    """An action that is not legal now. The state is left exactly as it was.

    ``reason`` is a sentence a person can read; ``action`` is the offending action's text.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class EditionError(MeepleError):
    """A malformed edition file: names the file, the field and the reason."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {field}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason


class SaveFileError(MeepleError):
    """A save file that cannot be read: names the file, the field and the reason."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {field}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason


class UnknownGameError(MeepleError):
    """A game or edition id that does not exist."""

    def __init__(self, game: str, known: list[str]) -> None:
        super().__init__(f"unknown game or edition {game!r}; known: {', '.join(known)}")
        self.game = game
        self.known = known


class PositionError(MeepleError, ValueError):
    """A position that cannot be set up: names where it came from and every problem found
    (``"cash[1]: must be a whole number, not 'x'"``, ``"player 2 has a hotel on Boardwalk
    but does not own all of Dark Blue"``). Nothing is changed."""

    def __init__(self, where: str, problems: list[str]) -> None:
        shown = "; ".join(problems[:8]) + (
            f" (and {len(problems) - 8} more)" if len(problems) > 8 else ""
        )
        super().__init__(f"{where}: {shown}")
        self.where = where
        self.problems = list(problems)


class HistoryOff(RuntimeError):
    """The history of a state that keeps none was asked for (its
    :attr:`~meeple.kernel.protocol.GameState.record_history` was off)."""

    def __init__(self) -> None:
        super().__init__("this game keeps no history (its record_history is off)")
