"""The operator's endpoints under ``/api/admin/`` (docs/SERVER.md, "Operator commands"): list
every game (private ones too), inspect one, cancel one, purge old records. ``meeple admin``
(:mod:`meeple.cli.admin`) is their command line.

They are behind the admin token of ``/metrics`` (``$MEEPLE_ADMIN_TOKEN``, checked by
:func:`meeple.server.metrics.bears_admin_token`): without a token configured they are off
(``404`` saying how to turn them on), without ``Authorization: Bearer`` they answer ``401`` and
with another token ``403``. No answer carries a seat's token or any stored hash: every answer
goes through a response model that lists what it may say.

Each change (a cancel, a purge) is logged on ``meeple.server.admin`` with the game ids and the
client address, never a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from meeple.kernel.protocol import Action
from meeple.server.hub import Hub, HubError, LiveGame, event_log
from meeple.server.metrics import ADMIN_ENV, admin_token, bears_admin_token
from meeple.server.schemas import ErrorBody
from meeple.server.storage import ACTIVE, CANCELLED, DONE, WAITING

log = logging.getLogger("meeple.server.admin")

LIST_MAX = 1000
"""The most games one list answer holds."""
LOG_MAX = 500
"""The most log entries (actions) an inspection shows."""
MAX_DAYS = 36_500.0
"""The longest age a purge takes, in days (a hundred years: any record)."""

ADMIN_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="admin token",
    description=f"The operator's token, `${ADMIN_ENV}` of the server, as `Authorization: "
    "Bearer TOKEN`.",
)

Status = Literal["waiting", "active", "finished", "cancelled", "expired"]
GameId = Annotated[str, Path(min_length=1, max_length=32)]


async def require_admin(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(ADMIN_BEARER)],
) -> None:
    """Let the request through only with the admin token (see the module's docstring)."""
    wanted = admin_token()
    if wanted is None:
        # Off rather than open: an operator who forgot the token must not expose every game.
        raise HTTPException(
            404,
            f"the admin endpoints are off: start meeple serve with ${ADMIN_ENV} set to turn "
            "them on",
        )
    if bearer is None:
        raise HTTPException(
            401,
            "the admin endpoints need the admin token: send 'Authorization: Bearer TOKEN'",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not bears_admin_token(request, wanted):
        raise HTTPException(403, f"this is not the admin token (${ADMIN_ENV} of the server)")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AdminSeat(_Model):
    seat: int
    kind: str = Field(description='"human", "bot", or "open" (invited, not taken yet)')
    name: str
    bot: str | None = Field(description="The bot's kind, for a bot seat")
    stand_in: bool = Field(description="The standard bot plays the person's seat for now")
    ask: dict[str, Any] | None = Field(description="When the person wants to be asked")


class AdminGame(_Model):
    """A game's record as the operator sees it: no token, no hash."""

    id: str
    game: str
    players: int
    status: Status
    listed: bool = Field(description="In the lobby's open games (false: private)")
    actions: int = Field(description="Actions stored (the game's state_id)")
    created: str
    updated: str = Field(description="Its last change (made, an action, started, cancelled)")
    turn_timer: float | None
    rematch: str | None
    seats: list[AdminSeat]


class LiveSeat(_Model):
    seat: int
    sockets: int = Field(description="WebSockets open on this seat")
    held: bool
    idle: bool = Field(description="The turn timer gave the seat to a bot until they are back")


class LiveInfo(_Model):
    """The game in this server process's memory."""

    status: str
    state_id: int
    current_player: int
    table_running: bool = Field(description="Its table task (bots, automatic moves) runs")
    bot_slot: bool = Field(description="An all-bot game holding one of the slots to play")
    sockets: int = Field(description="WebSockets open on the game, seats and spectators")
    spectators: int
    seats: list[LiveSeat]


class LogEntry(_Model):
    state_id: int
    events: list[str]


class AdminGameDetail(AdminGame):
    loaded: bool = Field(description="Whether this process has the game in memory")
    live: LiveInfo | None
    log: list[LogEntry] = Field(description="The last log entries asked for (?log=N)")


class PurgeOld(_Model):
    older_than_days: float = Field(
        ge=0.0,
        le=MAX_DAYS,
        description="Purge the finished, cancelled and expired games not changed for this long",
    )


class Purged(_Model):
    purged: list[str] = Field(description="The ids of the games deleted")


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "No admin token (send Authorization: Bearer)"},
    403: {"model": ErrorBody, "description": "Not the admin token"},
    404: {"model": ErrorBody, "description": "The admin endpoints are off, or no such game"},
}


router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(require_admin)],
    responses=ERRORS,
)


def install(app: FastAPI) -> None:
    """Add the ``/api/admin/`` endpoints (over ``app.state.hub``)."""
    app.include_router(router)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _record(hub: Hub, gid: str) -> dict[str, Any]:
    found = await asyncio.to_thread(hub.storage.admin_games, game=gid, limit=1)
    if not found:
        raise HTTPException(404, f"no game {gid!r}")
    return found[0]


async def _detail(hub: Hub, gid: str, lines: int = 0) -> dict[str, Any]:
    out = await _record(hub, gid)
    live = hub.games.get(gid)
    out["loaded"] = live is not None
    out["live"] = None if live is None else _live_info(hub, live)
    out["log"] = await _last_log(hub, gid, live, lines) if lines else []
    return out


@router.get("/games", response_model=list[AdminGame])
async def list_games(
    request: Request,
    status: Status | None = None,
    limit: Annotated[int, Query(ge=1, le=LIST_MAX)] = 100,
    created_after: dt.datetime | None = None,
    created_before: dt.datetime | None = None,
    updated_after: dt.datetime | None = None,
    updated_before: dt.datetime | None = None,
) -> list[dict[str, Any]]:
    """Every game, newest first, private ones too: its seats (names, kinds, bots), action
    count, status and times. A time without a zone is UTC."""
    return await asyncio.to_thread(
        functools.partial(
            _hub(request).storage.admin_games,
            status,
            limit,
            created_after=created_after,
            created_before=created_before,
            updated_after=updated_after,
            updated_before=updated_before,
        )
    )


@router.get("/games/{gid}", response_model=AdminGameDetail)
async def show_game(
    gid: GameId,
    request: Request,
    lines: Annotated[int, Query(alias="log", ge=0, le=LOG_MAX)] = 0,
) -> dict[str, Any]:
    """One game's record, and what this process holds of it: loaded or not, its table,
    sockets, and its last ``log`` log entries. Inspecting does not load the game."""
    return await _detail(_hub(request), gid, lines)


@router.post(
    "/games/{gid}/cancel",
    response_model=AdminGameDetail,
    responses={409: {"model": ErrorBody, "description": "Not waiting or in play"}},
)
async def cancel_game(gid: GameId, request: Request) -> dict[str, Any]:
    """Cancel a game waiting or in play, as its host would: it is kept as a record,
    nobody can act in it any more, and its sockets are told at once."""
    hub = _hub(request)
    live: LiveGame | None = None
    with contextlib.suppress(HubError):
        live = await hub.get(gid)
    if live is not None:
        await hub.operator_cancel(live)  # HubError 409 when it is over already
    else:
        # A record that cannot be replayed any more is cancelled in the database alone
        # (nobody can have it open); an unknown game is 404 from _record().
        stored = await _record(hub, gid)
        if stored["status"] not in (WAITING, ACTIVE):
            raise HTTPException(409, f"the game is {stored['status']}: nothing to cancel")
        await hub.writer.run(hub.storage.set_status, gid, CANCELLED)
    log.info("admin: cancelled game %s (request from %s)", gid, _client(request))
    return await _detail(hub, gid)


@router.delete(
    "/games/{gid}",
    response_model=Purged,
    responses={409: {"model": ErrorBody, "description": "Waiting or in play: cancel first"}},
)
async def purge_game(gid: GameId, request: Request) -> dict[str, Any]:
    """Delete a finished, cancelled or expired game with its seats, actions and chat.
    A game waiting or in play is refused (409): cancel it first."""
    hub = _hub(request)
    stored = await _record(hub, gid)
    if stored["status"] not in DONE:
        raise HTTPException(409, f"the game is {stored['status']}: cancel it first, then purge it")
    gone = await hub.writer.run(functools.partial(hub.storage.purge_games, game=gid))
    if not gone:  # it changed between the look and the delete
        raise HTTPException(409, "the game changed meanwhile; look again")
    _let_go(hub, gone)
    log.info("admin: purged game %s (request from %s)", gid, _client(request))
    return {"purged": gone}


@router.post("/purge", response_model=Purged)
async def purge_old(body: PurgeOld, request: Request) -> dict[str, Any]:
    """Delete the finished, cancelled and expired games not changed for
    ``older_than_days`` (0: all of them), with their seats, actions and chat. Games
    waiting or in play are never deleted."""
    hub = _hub(request)
    before = dt.datetime.now(dt.UTC) - dt.timedelta(days=body.older_than_days)
    gone = await hub.writer.run(functools.partial(hub.storage.purge_games, before=before))
    _let_go(hub, gone)
    log.info(
        "admin: purged %d games not changed for %g days (request from %s)%s%s",
        len(gone),
        body.older_than_days,
        _client(request),
        ": " if gone else "",
        ", ".join(gone),
    )
    return {"purged": gone}


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _live_info(hub: Hub, live: LiveGame) -> dict[str, Any]:
    return {
        "status": live.status,
        "state_id": live.state_id,
        "current_player": live.state.current_player(),
        "table_running": live.id in hub.tasks,
        "bot_slot": live.id in hub.bot_games,
        "sockets": len(live.subscribers),
        "spectators": sum(1 for sub in live.subscribers if sub.seat is None),
        "seats": [
            {"seat": s.seat, "sockets": s.sockets, "held": s.held, "idle": s.idle}
            for s in live.seats
        ],
    }


async def _last_log(hub: Hub, gid: str, live: LiveGame | None, lines: int) -> list[dict[str, Any]]:
    """The last ``lines`` entries of the game's log (actions with events), from memory when the
    game is loaded, else replayed from its record without loading it into the hub."""
    if live is not None:
        entries = await hub.log_of(live)
    else:
        stored = await asyncio.to_thread(hub.storage.load_game, gid)
        if stored is None:
            raise HTTPException(404, f"no game {gid!r}")
        try:
            actions = [Action.parse(a) for a in stored.actions]
            entries = await asyncio.to_thread(
                event_log, stored.game_id, stored.players, stored.seed, stored.options, actions
            )
        except Exception as exc:  # a record that no longer replays: say so, still inspect
            reason = f"(the log cannot be replayed: {type(exc).__name__}: {exc})"
            return [{"state_id": len(stored.actions), "events": [reason]}]
    start = max(0, len(entries) - lines)
    return [
        {"state_id": i + 1, "events": entries[i]} for i in range(start, len(entries)) if entries[i]
    ]


def _let_go(hub: Hub, gids: list[str]) -> None:
    """Forget purged games this process holds, closing their sockets (as at shutdown): their
    records are gone, so they must not be served from memory."""
    for gid in gids:
        hub.drop(gid, moved=False)
