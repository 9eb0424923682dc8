"""A rematch: the same table again with a new seed, and the tokens of its seats.

Each person's seat of a rematch has a new token, given once (docs/SERVER.md, "Tokens"); a seat's
token may also be given anew (:meth:`Rematches.reissue`), which closes the old one's sockets.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from typing import TYPE_CHECKING

from meeple.kernel.errors import MeepleError
from meeple.kernel.family import RULESET, new_game
from meeple.kernel.position import OPTION as POSITION
from meeple.kernel.protocol import GameState
from meeple.server.errors import HubError
from meeple.server.limits import Client
from meeple.server.live import LiveGame, end_queue
from meeple.server.seats import Seat, live_seat
from meeple.server.storage import FINISHED, StoredSeat, hash_token, new_token
from meeple.server.wire import Message

if TYPE_CHECKING:
    from meeple.server.hub import Hub


def _new_seats(live: LiveGame, seat: int) -> tuple[list[StoredSeat], dict[int, str]]:
    """The rematch's seats as stored, and the tokens given at once: the asker's (``seat``) and
    those of the people whose page is open on ``live`` (others are claimed later)."""
    seats = [s.stored() for s in live.seats]
    tokens: dict[int, str] = {}
    for st in seats:
        if st.kind == "human":
            here = st.seat == seat or live.seats[st.seat].sockets > 0
            token = tokens[st.seat] = new_token() if here else ""
            st.token_hash = hash_token(token) if token else ""
    return seats, tokens


def _fresh_start(
    old: GameState, seats: list[StoredSeat], family: str, seed: int
) -> tuple[GameState, list[Seat]]:
    """The rematch's first position and live seats: ``old``'s game and options on ``seed``
    (a position's hidden future re-drawn from it), by today's rules."""
    options = dict(old.options)
    options.pop(RULESET, None)  # a new game plays today's rules
    if POSITION in options:
        options["redraw"] = seed
    try:
        state = new_game(old.game_id, old.num_players, seed, options)
        live_seats = [live_seat(st, family, seed) for st in seats]
    except (MeepleError, ValueError) as exc:
        raise HubError(422, str(exc)) from None
    return state, live_seats


def _tell(live: LiveGame, gid: str, tokens: dict[int, str]) -> None:
    """Tell ``live``'s sockets of its rematch ``gid``: each person's their new token, if given."""
    told = Message({"type": "rematch", "id": gid})
    for sub in list(live.subscribers):
        given = "" if sub.seat is None else tokens.get(sub.seat, "")
        mine = Message({"type": "rematch", "id": gid, "token": given}) if given else told
        live._put(sub, mine)


class Rematches:
    """The hub's rematches and seat tokens."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def rematch(
        self, live: LiveGame, seat: int, client: Client | None = None
    ) -> tuple[LiveGame, bool, str | None]:
        """The rematch of finished game ``live``, whether this call started it, and a token for
        person's seat ``seat`` (the asker's) in it: ``None`` if that seat's was given already.

        The same game id, options and seats: people keep their names, ask settings and chat
        standing, bots their kinds and names; the host's key and the lobby listing carry over;
        the seed is new. Each person's seat has a new token, given once (docs/SERVER.md,
        "Tokens"): the old game's tokens open nothing in it. Made now, the asker's and those of
        the people whose page is open on ``live`` are given at once, each person's sockets
        told ``{"type": "rematch", "id", "token"}`` (spectators: the id alone); another person
        asks later with their old token (:meth:`claim`). A game that started from a position
        starts there again with its hidden future (dice, decks' order) re-drawn from the new
        seed (``options["redraw"]``): the position holds the random state, so a new seed alone
        would deal the same dice again. Made once, under the game's lock, within ``client``'s
        share as a new game is (:meth:`quota`): later calls return the same game.
        """
        async with live.lock:
            if live.rematch is not None:
                new = await self.hub.get(live.rematch)
                return new, False, await self.claim(new, seat)
            if live.status != FINISHED:
                raise HubError(422, f"the game is {live.status}: a rematch comes after its end")
            old = live.state
            stored = await asyncio.to_thread(self.hub.storage.load_game, live.id)
            listed = True if stored is None else stored.listed
            seats, tokens = _new_seats(live, seat)
            seed = secrets.randbits(63)
            family = live.family or old.family
            state, live_seats = _fresh_start(old, seats, family, seed)
            gid = await self.hub.quotas.store_new(
                functools.partial(
                    self.hub.storage.create_game,
                    old.game_id,
                    old.num_players,
                    seed,
                    state.options,
                    seats,
                    host_hash=live.host_hash,
                    listed=listed,
                    turn_timer=live.turn_timer,
                    hints=live.hints,
                ),
                self.hub.quota(client),
            )
            await self.hub.writer.run(self.hub.storage.set_rematch, live.id, gid)
            await self.hub.ownership.claim(gid)
            new = LiveGame(
                gid,
                state,
                live_seats,
                host_hash=live.host_hash,
                family=family,
                turn_timer=live.turn_timer,
                away_timer=self.hub.away_timer,
                hints=live.hints,
            )
            self.hub.games[gid] = new
            self.hub._start_table(new)
            live.rematch = gid
            _tell(live, gid, tokens)
            return new, True, tokens.get(seat) or None

    async def claim(self, live: LiveGame, seat: int) -> str | None:
        """The token of person's seat ``seat`` of rematch ``live``, if none was given yet
        (:meth:`rematch`); ``None`` otherwise."""
        async with live.lock:
            if live.seats[seat].kind != "human" or live.seats[seat].token_hash:
                return None
            return await self.new_token(live, seat)

    async def reissue(self, live: LiveGame, token: str, seat: int) -> str:
        """A new token for person's seat ``seat``; the old one opens nothing from now on: its
        requests get 403, and its sockets are told ``{"type": "revoked", "seat", "detail"}``
        and closed. The host may do it for any person's seat (a link that went astray), a person
        for their own."""
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            raise HubError(422, f"seat {seat + 1} is not a person's seat")
        if not live.is_host(token) and live.seat_of(token) != seat:
            raise HubError(403, "only the host or the seat's own player may do that")
        async with live.lock:
            return await self.new_token(live, seat)

    async def new_token(self, live: LiveGame, seat: int) -> str:
        """Give person's seat ``seat`` a new token, stored first (caller holds ``live.lock``);
        the sockets of the old one are closed."""
        person = live.seats[seat]
        token = new_token()
        stored = person.stored()
        stored.token_hash = hash_token(token)
        await self.hub.writer.run(self.hub.storage.set_seat, live.id, stored)
        had = bool(person.token_hash)
        person.token_hash = stored.token_hash
        if had:
            told = Message(
                {
                    "type": "revoked",
                    "seat": seat,
                    "detail": "this seat has a new link: the one this page has opens it no more",
                }
            )
            for sub in list(live.subscribers):
                if sub.seat == seat:
                    live._put(sub, told)
                    self.hub.unsubscribe(live, sub)
                    sub.seat = None  # an action still on its way is a spectator's: refused
                    end_queue(sub.queue)
        return token
