"""Save files: ``(game, players, seed, options, actions)`` plus a snapshot of the state.

A game is fully determined by its id, options, seed and actions, so loading replays the actions
from the seed; the snapshot is checked against the replay, which catches a file edited by hand
or written by an engine with different rules. Every error names the file, the field and the
reason, and loading a bad file changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeple.kernel.errors import IllegalActionError, MeepleError, SaveFileError
from meeple.kernel.family import new_game, stored_options
from meeple.kernel.files import UnreadableFile, read_text
from meeple.kernel.protocol import Action, GameState

FORMAT = "meeple-save"
VERSION = 1


def save_data(state: GameState) -> dict[str, Any]:
    """The save file's content for ``state``."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game_id,
        "players": state.num_players,
        "seed": state.seed,
        "options": state.options,
        "actions": [str(a) for a in state.history],
        "state": state.snapshot(),
    }


def save_game(state: GameState, path: str | Path) -> None:
    """Write ``state`` to ``path`` atomically (a crash never leaves half a file)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(save_data(state), indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)


def replay(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    actions: list[Action],
    record_events: bool = False,
) -> GameState:
    """The game reached by applying ``actions`` from the start."""
    s = new_game(game, players, seed, options)
    s.record_events = record_events
    for a in actions:
        s.apply(a)
    return s


def load_data(data: Any, file: str = "<data>") -> GameState:
    """Rebuild a game from save-file data; :class:`SaveFileError` says what is wrong."""

    def fail(field: str, reason: str) -> SaveFileError:
        return SaveFileError(file, field, reason)

    if not isinstance(data, dict):
        raise fail("(top level)", "a save file is a JSON object")
    if data.get("format") != FORMAT:
        raise fail("format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise fail("version", f"this meeple reads version {VERSION}, got {data.get('version')!r}")
    for key, typ in (
        ("game", str),
        ("players", int),
        ("seed", int),
        ("options", dict),
        ("actions", list),
    ):
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            raise fail(key, f"missing or not a {typ.__name__}")
    actions = []
    for i, text in enumerate(data["actions"]):
        if not isinstance(text, str):
            raise fail(f"actions[{i}]", "an action is a string such as 'roll' or 'bid 120'")
        try:
            actions.append(Action.parse(text))
        except ValueError as exc:
            raise fail(f"actions[{i}]", str(exc)) from None
    # A file saved before rulesets existed plays the first ruleset (GameFamily.ruleset), as
    # it did then; its snapshot's options (Monopolis keeps them) say so too.
    options = stored_options(data["options"])
    snap = data.get("state")
    old = options is not data["options"]
    if old and isinstance(snap, dict) and isinstance(snap.get("options"), dict):
        snap = {**snap, "options": stored_options(snap["options"])}
    try:
        s = new_game(data["game"], data["players"], data["seed"], options)
    except (MeepleError, ValueError) as exc:
        raise fail("game", str(exc)) from None
    for i, a in enumerate(actions):
        try:
            s.apply(a)
        except IllegalActionError as exc:
            raise fail(f"actions[{i}]", exc.reason) from None
    if snap is not None and json.loads(json.dumps(s.snapshot())) != snap:
        raise fail(
            "state",
            "does not match the state the actions lead to (edited by hand, or "
            "saved by a different engine version)",
        )
    return s


def load_game(path: str | Path) -> GameState:
    """Load a save file from ``path``."""
    p = Path(path)
    try:
        text = read_text(p)
    except UnreadableFile as exc:
        raise SaveFileError(str(p), "(file)", exc.reason) from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SaveFileError(str(p), "(syntax)", f"not JSON: {exc}") from None
    return load_data(data, str(p))
