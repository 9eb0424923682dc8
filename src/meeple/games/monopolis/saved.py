"""The state as data: the snapshot a save file holds, and reading one back.

A snapshot is everything that determines the game from here: the seats, seed and options it
was set up with ("Setup (ELŐKÉSZÜLETEK)"), the actions so far, the random state and the order
of the tile stacks, the resource decks and the requirement-card bag. So it is never shown to a
player (views are ``view.py``'s). Reading one back checks the game and the version and names
the field that is wrong (:class:`~meeple.kernel.errors.SaveFileError`); ``position.py`` reads
a position through it. Like ``games/monopoly/saved.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopolis import turns
from meeple.games.monopolis.actions import OVER
from meeple.games.monopolis.terms import GAME_ID, check_options
from meeple.kernel.errors import SaveFileError
from meeple.kernel.protocol import Action
from meeple.kernel.rng import Rng

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

SNAPSHOT_VERSION = 1

#: Fields of the snapshot that are plain lists copied as they are.
_LIST_FIELDS = (
    "money",
    "jokers",
    "houses",
    "tile_at",
    "value_at",
    "owner_at",
    "houses_at",
    "cubes",
    "card_at",
    "bag",
    "to_deal",
)
_NESTED_FIELDS = ("res", "hand", "tile_decks", "res_decks", "discards", "market")
_INT_FIELDS = (
    "turn_player",
    "actions_done",
    "phase",
    "pend_plot",
    "pend_mode",
    "pend_jokers",
    "turns",
)
#: Every field of the state (what :func:`restore` copies): the snapshot's, and those the
#: setup derives or the game keeps (the components and their tables, the seats' capacity, the
#: legal actions worked out, the result).
STATE_FIELDS = (
    "comps",
    "tables",
    "n",
    "capacity",
    "_seed",
    "_options",
    "rng",
    "final_round",
    "start_player",
    "end_reason",
    "_history",
    "_legal",
    "_result",
    *_LIST_FIELDS,
    *_NESTED_FIELDS,
    *_INT_FIELDS,
)


def snapshot(s: MonopolisState) -> dict[str, Any]:
    """The whole state as JSON-able data, secrets included (the save file's core)."""
    data: dict[str, Any] = {
        "game": s.game_id,
        "version": SNAPSHOT_VERSION,
        "players": s.n,
        "seed": s.seed,
        "options": s.options,
        "rng": s.rng.state,
        "final_round": s.final_round,
        "start_player": s.start_player,
        "end_reason": s.end_reason,
        "history": [str(a) for a in s.history],
    }
    for name in _LIST_FIELDS:
        data[name] = list(getattr(s, name))
    for name in _NESTED_FIELDS:
        data[name] = [list(x) for x in getattr(s, name)]
    for name in _INT_FIELDS:
        data[name] = getattr(s, name)
    return data


def from_snapshot(data: dict[str, Any], state: MonopolisState) -> MonopolisState:
    """``state``, a blank state (``MonopolisState(..., blank=True)``: the state module makes
    it, this one only fills it), made the game of :func:`snapshot` data and returned;
    :class:`SaveFileError` names bad fields."""
    where = "snapshot"
    if data.get("game") != GAME_ID:
        raise SaveFileError(where, "game", f"is {data.get('game')!r}, not {GAME_ID!r}")
    if data.get("version") != SNAPSHOT_VERSION:
        raise SaveFileError(where, "version", f"must be {SNAPSHOT_VERSION}")
    try:
        players = int(data["players"])
        options = dict(data["options"])
        check_options(options)
        state._init_fields(players, int(data["seed"]), options)
        state.rng.state = int(data["rng"])
        state.final_round = bool(data["final_round"])
        # (a snapshot saved before the start player was chosen: seat 1 started)
        state.start_player = int(data.get("start_player", 0))
        state.end_reason = str(data["end_reason"])
        state._history = [Action.parse(t) for t in data["history"]]
        for name in _LIST_FIELDS:
            setattr(state, name, [int(x) for x in data[name]])
        for name in _NESTED_FIELDS:
            setattr(state, name, [[int(x) for x in inner] for inner in data[name]])
        for name in _INT_FIELDS:
            setattr(state, name, int(data[name]))
    except KeyError as exc:
        raise SaveFileError(where, str(exc.args[0]), "missing") from None
    except (TypeError, ValueError) as exc:
        raise SaveFileError(where, "(data)", str(exc)) from None
    if state.phase == OVER:
        turns.end_game(state, state.end_reason, None)
    return state


def restore(s: MonopolisState, snap: dict[str, Any], blank: MonopolisState) -> None:
    """Load a :func:`snapshot` into ``s``: it becomes the snapshot's game (seats, seed and
    options included). :class:`SaveFileError` names a bad field, and then ``s`` is unchanged:
    the snapshot is read into ``blank`` (a blank state) first and only then copied, field by
    field."""
    loaded = from_snapshot(snap, blank)
    for name in STATE_FIELDS:
        setattr(s, name, getattr(loaded, name))


def clone(s: MonopolisState, c: MonopolisState) -> MonopolisState:
    """``c``, a blank state, made an independent copy of ``s`` and returned: list copies only,
    no deepcopy (``MonopolisState.clone`` makes ``c``; ``tests/test_every_game.py`` checks a
    clone plays on apart from its original)."""
    c.comps = s.comps
    c.tables = s.tables
    c.n = s.n
    c.capacity = s.capacity
    c._seed = s._seed
    c._options = s._options
    c.rng = Rng(s.rng.state)
    c.money = s.money[:]
    c.res = [r[:] for r in s.res]
    c.jokers = s.jokers[:]
    c.houses = s.houses[:]
    c.hand = [h[:] for h in s.hand]
    c.tile_at = s.tile_at[:]
    c.value_at = s.value_at[:]
    c.owner_at = s.owner_at[:]
    c.houses_at = s.houses_at[:]
    c.cubes = s.cubes[:]
    c.card_at = s.card_at[:]
    c.bag = s.bag[:]
    c.tile_decks = [d[:] for d in s.tile_decks]
    c.res_decks = [d[:] for d in s.res_decks]
    c.discards = [d[:] for d in s.discards]
    c.market = [m[:] for m in s.market]
    c.start_player = s.start_player
    c.turn_player = s.turn_player
    c.actions_done = s.actions_done
    c.phase = s.phase
    c.pend_plot = s.pend_plot
    c.pend_mode = s.pend_mode
    c.pend_jokers = s.pend_jokers
    c.to_deal = s.to_deal[:]
    c.final_round = s.final_round
    c.turns = s.turns
    c.end_reason = s.end_reason
    c._history = s._history[:]
    c._legal = s._legal
    c._result = s._result
    c.record_events = s.record_events
    return c
