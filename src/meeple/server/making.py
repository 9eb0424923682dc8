"""Making a game: a new table's seats, people joining by invite, the host starting or cancelling.

A new game is checked whole before anything is stored (:func:`meeple.server.opening.opening`,
:func:`meeple.server.opening.game_rules`, each seat's kind and name), then stored within its
maker's share (:meth:`meeple.server.quotas.Quotas.store_new`).
"""

from __future__ import annotations

import functools
import hmac
import secrets
from typing import TYPE_CHECKING, Any, NamedTuple

from meeple.bots.base import FILE_KINDS, bot_kinds, make_bot
from meeple.kernel.asking import WEB_DEFAULT, for_game
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import GameInfo, game_info, new_game
from meeple.kernel.options import RULES
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed
from meeple.server.errors import HubError
from meeple.server.limits import Client
from meeple.server.live import LiveGame
from meeple.server.names import pick_bot_names, seat_names
from meeple.server.opening import game_rules, opening
from meeple.server.seats import STAND_IN, Seat, check_name, live_seat
from meeple.server.storage import (
    ACTIVE,
    CANCELLED,
    WAITING,
    StoredSeat,
    hash_token,
    new_token,
)

if TYPE_CHECKING:
    from meeple.server.hub import Hub


class Created(NamedTuple):
    """A new game, each seat's token (people only), the host's key and the invite code."""

    live: LiveGame
    tokens: list[str | None]
    host: str
    invite: str | None


def _info(game: str, n: int) -> GameInfo:
    """``game``'s description, for a table of ``n`` seats; 422 if there is no such game or it
    is not for ``n`` players."""
    try:
        info = game_info(game)
    except MeepleError as exc:
        raise HubError(422, str(exc)) from None
    if not info.min_players <= n <= info.max_players:
        raise HubError(
            422, f"{game} is for {info.min_players} to {info.max_players} players, not {n}"
        )
    return info


def _start(
    game: str,
    n: int,
    seed: int | None,
    position: dict[str, Any] | None,
    rules: dict[str, Any] | None,
) -> tuple[GameState | None, dict[str, Any]]:
    """The position the game starts from (``None``: the game's own start) and its options
    (the rules chosen), checked: see :meth:`Making.create`."""
    if rules and position is not None:
        raise HubError(
            422,
            "rules: a game from a position plays by the position's own rules (its "
            "options' rules): set them there",
        )
    chosen = game_rules(game, rules or {}, "rules")
    placed = None if position is None else opening(game, n, seed, position)
    options: dict[str, Any] = {} if placed is None else dict(placed.options)
    if chosen:
        options[RULES] = chosen
    return placed, options


def _stored_seats(
    game: str, family: str, seats: list[dict[str, Any]], seed: int
) -> tuple[list[StoredSeat], list[str | None]]:
    """The new game's seats as stored, and each person's token (``None`` for bots and open
    seats); 422 for a name or bot kind the server does not take."""
    known = bot_kinds(family, game)
    try:
        names = seat_names(seats, seed)
    except ValueError as exc:
        raise HubError(422, str(exc)) from None
    stored_seats: list[StoredSeat] = []
    tokens: list[str | None] = []
    for i, (spec, name) in enumerate(zip(seats, names, strict=True)):
        if spec["type"] == "bot":
            kind = spec["bot"]
            # Plain kinds only: an argument (``param:FILE``) would read server files, and
            # a file kind without one cannot play.
            if kind not in known or ":" in kind or kind in FILE_KINDS:
                raise HubError(422, f"unknown bot {kind!r} for {game}; known: {', '.join(known)}")
            stored_seats.append(StoredSeat(i, "bot", name, kind, ""))
            tokens.append(None)
        elif spec["type"] == "open":
            stored_seats.append(StoredSeat(i, "open", name, "", ""))
            tokens.append(None)
        else:
            token = new_token()
            ask = spec.get("ask")
            stored_seats.append(StoredSeat(i, "human", name, "", hash_token(token), ask))
            tokens.append(token)
    return stored_seats, tokens


class Making:
    """The hub's game making: new games, invited people taking seats, the host's start and
    cancel."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def create(
        self,
        game: str,
        seats: list[dict[str, Any]],
        seed: int | None,
        listed: bool = True,
        turn_timer: float | None = None,
        position: dict[str, Any] | None = None,
        rules: dict[str, Any] | None = None,
        hints: bool = True,
        client: Client | None = None,
    ) -> Created:
        """A new game: each person's token (``None`` for bots and open seats), the host's key,
        and the invite code when seats are open (the game then waits for the host to start).

        ``client`` made it: the game must fit in its share (:meth:`quota`; 429 otherwise).

        ``position`` (what a position file holds) starts the game there: see :func:`opening`.
        It is checked before anything is stored, so a refused position leaves no trace; the
        game's options carry it, so the game replays from storage like any other. ``rules``
        sets the game's rule options (``GameFamily.rule_options``: checked here by kind, and
        together when the game is made), carried in its options the same way."""
        n = len(seats)
        info = _info(game, n)
        placed, options = _start(game, n, seed, position, rules)
        if placed is not None:
            seed = placed.seed
        if seed is None:
            seed = secrets.randbits(63)
        stored_seats, tokens = _stored_seats(game, info.family, seats, seed)
        host = new_token()
        invite = new_token() if any(st.kind == "open" for st in stored_seats) else None
        stage = WAITING if invite is not None else ""
        try:
            state = placed if placed is not None else new_game(game, n, seed, options)
            live_seats = [live_seat(st, info.family, seed) for st in stored_seats]
        except (MeepleError, ValueError) as exc:
            raise HubError(422, str(exc)) from None
        gid = await self.hub.quotas.store_new(
            functools.partial(
                self.hub.storage.create_game,
                game,
                n,
                seed,
                state.options,  # (stamped with the family's ruleset: new_game)
                stored_seats,
                status=stage or ACTIVE,
                host_hash=hash_token(host),
                invite_hash=None if invite is None else hash_token(invite),
                listed=listed,
                turn_timer=turn_timer,
                hints=hints,
            ),
            self.hub.quota(client),
        )
        live = LiveGame(
            gid,
            state,
            live_seats,
            stage=stage,
            host_hash=hash_token(host),
            invite_hash=None if invite is None else hash_token(invite),
            family=info.family,
            turn_timer=turn_timer,
            away_timer=self.hub.away_timer,
            hints=hints,
        )
        if await self.hub.ownership.adopt(gid):
            self.hub.games[gid] = live
            self.hub._start_table(live)
        return Created(live, tokens, host, invite)

    async def join(self, live: LiveGame, code: str, seat: int, name: str) -> str:
        """An invited person takes open ``seat`` under ``name``; returns their token."""
        async with live.lock:
            if live.invite_hash is None or not hmac.compare_digest(
                live.invite_hash, hash_token(code)
            ):
                raise HubError(403, "this invite code is not this game's")
            if live.status != WAITING:
                raise HubError(409, f"the game is {live.status}: its seats are taken")
            if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "open":
                free = [s.seat + 1 for s in live.seats if s.kind == "open"]
                raise HubError(409, f"seat {seat + 1} is not free; free seats: {free}")
            clean = check_name(name, [s.name for s in live.seats if s.kind != "open"])
            token = new_token()
            person = live.seats[seat]
            ask = for_game(live.state.game_id, live.state.options, WEB_DEFAULT)
            taken = Seat(seat, "human", clean, "", hash_token(token), ask=ask)
            await self.hub.writer.run(self.hub.storage.set_seat, live.id, taken.stored())
            person.kind, person.name, person.token_hash = "human", clean, taken.token_hash
            person.ask = taken.ask
        live.broadcast_seats()
        return token

    async def start_game(self, live: LiveGame, host: str) -> None:
        """The host starts a waiting game: seats still open go to standard bots."""
        live.check_host(host)
        async with live.lock:
            if live.status != WAITING:
                raise HubError(409, f"the game is {live.status}, not waiting to start")
            kinds = bot_kinds(live.family)
            kind = STAND_IN if STAND_IN in kinds else kinds[0]
            open_seats = [s for s in live.seats if s.kind == "open"]
            taken = [s.name for s in live.seats if s.kind != "open"]
            picked = pick_bot_names(live.state.seed, taken, len(open_seats))
            for person, name in zip(open_seats, picked, strict=True):
                person.kind, person.bot_kind, person.name = "bot", kind, name
                person.bot = make_bot(
                    kind, live.family, derive_seed(live.state.seed, 1 + person.seat)
                )
                await self.hub.writer.run(self.hub.storage.set_seat, live.id, person.stored())
            await self.hub.writer.run(self.hub.storage.set_status, live.id, ACTIVE)
            live.stage = ""
        live.broadcast_seats()
        live.broadcast([])
        self.hub._start_table(live)

    async def cancel(self, live: LiveGame, host: str) -> None:
        """The host cancels the game: it is kept as a record and never played on."""
        live.check_host(host)
        await self.operator_cancel(live)

    async def operator_cancel(self, live: LiveGame) -> None:
        """Cancel the game without the host's key (the operator's admin token was checked):
        the same as the host's cancel, sockets told alike; 409 if it is not waiting or in
        play."""
        async with live.lock:
            if live.status not in (WAITING, ACTIVE):
                raise HubError(409, f"the game is {live.status}: there is nothing to cancel")
            await self.hub.writer.run(self.hub.storage.set_status, live.id, CANCELLED)
            live.stage = CANCELLED
        task = self.hub.tasks.pop(live.id, None)
        if task is not None:
            task.cancel()
        live.broadcast_seats()
        live.broadcast([])
