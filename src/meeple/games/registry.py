"""Every game id a user can type, and how to start one.

A game id is either a Monopoly edition id (``classic``, ...) or ``monopolis``. Games register
here; drivers call :func:`new_game` and :func:`game_ids` and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.kernel.errors import UnknownGameError
from meeple.kernel.protocol import GameState

GameFactory = Callable[[int, int, dict[str, Any]], GameState]
"""``factory(players, seed, options) -> GameState``."""


class GameInfo:
    """A registered game id: its family, title, player range and factory."""

    __slots__ = ("factory", "family", "game_id", "max_players", "min_players", "title")

    def __init__(
        self,
        game_id: str,
        family: str,
        title: str,
        min_players: int,
        max_players: int,
        factory: GameFactory,
    ) -> None:
        self.game_id = game_id
        self.family = family
        self.title = title
        self.min_players = min_players
        self.max_players = max_players
        self.factory = factory


_GAMES: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> None:
    """Add a game id."""
    _GAMES[info.game_id] = info


def game_ids() -> list[str]:
    """All game ids, in registration order."""
    _load()
    return list(_GAMES)


def game_info(game_id: str) -> GameInfo:
    """The registered game ``game_id``; :class:`UnknownGameError` otherwise."""
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(game_id, list(_GAMES)) from None


def new_game(
    game_id: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> GameState:
    """Start game ``game_id`` with ``players`` seats from ``seed``.

    Raises :class:`UnknownGameError` for an unknown id and ``ValueError`` for a player count
    outside the game's range or a bad option.
    """
    options = dict(options or {})
    if isinstance(options.get("edition"), dict):
        # An edition given as data (an edition file, or a save file that carries one).
        _load()
        if _edition_factory is None:
            raise UnknownGameError(game_id, list(_GAMES))
        return _edition_factory(players, seed, options)
    info = game_info(game_id)
    if not info.min_players <= players <= info.max_players:
        raise ValueError(
            f"{game_id} is for {info.min_players} to {info.max_players} players, not {players}"
        )
    return info.factory(players, seed, options)


def game_family(game_id: str, options: dict[str, Any] | None = None) -> str:
    """The family of ``game_id`` (a game described by edition data is a Monopoly game)."""
    if options and isinstance(options.get("edition"), dict):
        return "monopoly"
    return game_info(game_id).family


_edition_factory: GameFactory | None = None


def register_edition_factory(factory: GameFactory) -> None:
    """The factory for games whose options carry a whole edition as data."""
    global _edition_factory
    _edition_factory = factory


_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in ("meeple.games.monopoly", "meeple.games.monopolis"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a game package not written yet
            if exc.name != module:
                raise
