"""Positions as a public API: set up a game at any position, check it, save it, read it back.

A position file (JSON or TOML) holds a game id, the seats, a seed, options and ``position``:
the family's description of the table (``GameFamily.position``; for Monopoly every player's
cash, square and deeds, the bank, the decks by card id, whose turn it is, and optionally the
dice to come). Fields left out keep their value at the start of the game from ``seed``, so a
tutorial writes only what matters. Setting up a position checks it and refuses it with every
problem found (python-chess's ``Board.is_valid`` and ``status()`` are the model):
:class:`~meeple.kernel.errors.PositionError`.

A game that starts from a position carries it in its options (``options["position"]``), so it
is still determined by ``(game id, options, seed, actions)``: save files, replays and the
server replay it like any other game. ``meeple play --from FILE`` plays on from a position;
``meeple simulate --from FILE`` plays many games from it (``redraw``: each game re-draws the
hidden future, the dice and the order of the decks, from its own seed).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from meeple.kernel.errors import MeepleError, PositionError
from meeple.kernel.family import family_of_state, new_game
from meeple.kernel.files import UnreadableFile, read_text
from meeple.kernel.protocol import GameState

FORMAT = "meeple-position"
VERSION = 1
OPTION = "position"
"""The option that carries a game's starting position."""


def position_data(state: GameState) -> dict[str, Any]:
    """``state``'s position as data (secrets included: the decks' order and the random state,
    so the file plays on exactly as the game would)."""
    options = {k: v for k, v in state.options.items() if k not in (OPTION, "redraw")}
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game_id,
        "players": state.num_players,
        "seed": state.seed,
        "options": options,
        "position": family_of_state(state).position(state),
    }


def from_position(data: Any, where: str = "<data>") -> GameState:
    """The game at the position ``data`` describes; :class:`PositionError` names every problem."""
    if not isinstance(data, dict):
        raise PositionError(where, ["a position is a table (a JSON object)"])
    problems = []
    if data.get("format", FORMAT) != FORMAT:
        problems.append(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version", VERSION) != VERSION:
        problems.append(f"version: this meeple reads version {VERSION}, got {data['version']!r}")
    for key, typ, default in (
        ("game", str, None),
        ("players", int, None),
        ("seed", int, 0),
        ("options", dict, {}),
        ("position", dict, None),
    ):
        value = data.get(key, default)
        if not isinstance(value, typ) or isinstance(value, bool):
            problems.append(f"{key}: missing or not a {typ.__name__}")
    unknown = sorted(
        set(data) - {"format", "version", "game", "players", "seed", "options", OPTION}
    )
    if unknown:
        problems.append(f"unknown field {unknown[0]!r}")
    if problems:
        raise PositionError(where, problems)
    options = {**data.get("options", {}), OPTION: data["position"]}
    try:
        return new_game(data["game"], data["players"], data.get("seed", 0), options)
    except PositionError as exc:
        raise PositionError(where, exc.problems) from None
    except (MeepleError, ValueError) as exc:
        raise PositionError(where, [str(exc)]) from None


def load_position(path: str | Path) -> GameState:
    """The game at the position in ``path`` (``.toml``: TOML; otherwise JSON)."""
    p = Path(path)
    try:
        text = read_text(p)
    except UnreadableFile as exc:
        raise PositionError(str(p), [exc.reason]) from None
    try:
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except ValueError as exc:
        kind = "TOML" if p.suffix == ".toml" else "JSON"
        raise PositionError(str(p), [f"not {kind}: {exc}"]) from None
    return from_position(data, str(p))


def save_position(state: GameState, path: str | Path) -> None:
    """Write ``state``'s position to ``path`` as JSON, atomically."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(position_data(state), indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)


def problems(state: GameState) -> list[str]:
    """What is wrong with ``state``'s position (empty: nothing), in words a person can act on."""
    return family_of_state(state).problems(state)


def redraw(state: GameState, seed: int) -> None:
    """Re-draw, from ``seed``, everything in ``state`` nobody can see yet (the random state,
    the order of the decks, scripted dice): one of many futures of the same position."""
    family_of_state(state).redraw(state, seed)
