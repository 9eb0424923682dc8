"""A stored game replayed: the live game rebuilt from its actions, and its events in words."""

from __future__ import annotations

import contextlib
from typing import Any

from meeple.kernel.family import game_family, new_game
from meeple.kernel.protocol import Action
from meeple.server.live import LiveGame
from meeple.server.seats import live_seat
from meeple.server.storage import CANCELLED, EXPIRED, WAITING, StoredGame


def event_log(
    game: str, players: int, seed: int, options: dict[str, Any], actions: list[Action]
) -> list[list[str]]:
    """The events of each action of a game in words, by replaying it from its seed."""
    s = new_game(game, players, seed, options)
    s.record_events = True
    out = []
    for a in actions:
        events = s.apply(a)
        out.append([s.describe(e) for e in events])
    return out


def move_at(
    game: str, players: int, seed: int, options: dict[str, Any], actions: list[Action]
) -> tuple[int, list[str]]:
    """Who made the last of ``actions`` (the seat deciding before it) and its events in words,
    by replaying the game from its seed."""
    s = new_game(game, players, seed, options)
    s.record_events = False
    for a in actions[:-1]:
        s.apply(a)
    mover = s.current_player()
    s.record_events = True
    events = s.apply(actions[-1])
    return mover, [s.describe(e) for e in events]


def rebuild(stored: StoredGame) -> LiveGame:
    """The live game of a stored one: its actions replayed, its bots where they were.

    A bot's choices depend only on its seed and the positions it was asked about, in order
    (its random stream, and whatever it keeps: a plan, offers refused), so asking each bot again
    for the decisions it made, and only those, leaves it exactly as it stood when the server
    stopped: a resumed game plays on as if never interrupted (docs/SERVER.md, "Durability").
    A seat's own bot made every decision of its seat; a stand-in made those from the position
    it began at (``stand_in_at``) on, never the person's before it.
    """
    family = game_family(stored.game_id, stored.options)
    seats = [live_seat(st, family, stored.seed) for st in stored.seats]
    since = [(p.stand_in_at or 0) if p.stand_in else 0 for p in seats]
    s = new_game(stored.game_id, stored.players, stored.seed, stored.options)
    s.record_events = False
    for text in stored.actions:
        action = Action.parse(text)
        cp = s.current_player()
        bot = seats[cp].bot if 0 <= cp < len(seats) else None
        if bot is not None and len(s.history) >= since[cp]:
            with contextlib.suppress(Exception):  # it failed live too, and the table moved on
                bot.choose(s)
        s.apply(action)
    s.record_events = True
    stage = stored.status if stored.status in (WAITING, CANCELLED, EXPIRED) else ""
    return LiveGame(
        stored.id, s, seats, stage=stage, host_hash=stored.host_hash,
        invite_hash=stored.invite_hash, family=family, rematch=stored.rematch,
        turn_timer=stored.turn_timer, hints=stored.hints,
    )  # fmt: skip
