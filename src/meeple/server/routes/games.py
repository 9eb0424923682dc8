"""The games: the lobby's list, a new game, the host's start and cancel, a game's public view
and its log."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from meeple.server.limits import client_of
from meeple.server.routes.params import ERRORS, GameIdPath, hub_of
from meeple.server.schemas import Created, CreateGame, GameLog, GameSummary, HostKey, PublicGame

LOG_PAGE_MAX = 1000
"""The most actions one page of a game's log covers."""

router = APIRouter()


@router.get("/api/games", response_model=list[GameSummary])
async def list_games(
    request: Request,
    status: Literal["waiting", "active", "finished", "cancelled"] | None = None,
) -> list[dict[str, Any]]:
    """The newest listed games (at most 100, a few of each address: docs/SERVER.md,
    "Limits"): no tokens, no views; private games never."""
    return await hub_of(request).lobby(status)


@router.post("/api/games", response_model=Created, status_code=201, responses=ERRORS)
async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
    """Make a game, from its start or from a ``position``; returns each person's token and
    page, the host's key and, when seats are open, the invite code and page (the game then
    waits for the host to start it)."""
    hub = hub_of(request)
    seats = [s.model_dump() for s in body.seats]  # a person's ask: a dict or None
    client = client_of(request)
    hub.check_new_game(client)
    made = await hub.create(
        body.game,
        seats,
        body.seed,
        body.listed,
        body.turn_timer,
        body.position,
        body.rules,
        body.hints,
        client,
    )
    gid = made.live.id
    return {
        "id": gid,
        "seats": [
            {"seat": i, "token": t, "url": None if t is None else f"/play/{gid}#token={t}"}
            for i, t in enumerate(made.tokens)
        ],
        "host_token": made.host,
        "invite": made.invite,
        "invite_url": None if made.invite is None else f"/join/{gid}#code={made.invite}",
    }


@router.post("/api/games/{gid}/start", response_model=PublicGame, responses=ERRORS)
async def start_game(gid: GameIdPath, body: HostKey, request: Request) -> dict[str, Any]:
    """The host starts a waiting game; seats still open are given to standard bots."""
    hub = hub_of(request)
    live = await hub.get(gid)
    await hub.start_game(live, body.host_token)
    return live.public()


@router.post("/api/games/{gid}/cancel", response_model=PublicGame, responses=ERRORS)
async def cancel_game(gid: GameIdPath, body: HostKey, request: Request) -> dict[str, Any]:
    """The host cancels the game (kept as a record; nobody can act in it any more)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    await hub.cancel(live, body.host_token)
    return live.public()


@router.get("/api/games/{gid}", response_model=PublicGame, responses=ERRORS)
async def get_game(gid: GameIdPath, request: Request) -> dict[str, Any]:
    """The public view (what a spectator sees), with ``status`` and ``state_id``."""
    return (await hub_of(request).get(gid)).public()


@router.get("/api/games/{gid}/log", response_model=GameLog, responses=ERRORS)
async def get_log(
    gid: GameIdPath,
    request: Request,
    before: Annotated[int | None, Query(ge=1, le=2**31)] = None,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE_MAX)] = 200,
) -> dict[str, Any]:
    """The game's log from the first move, a page at a time: the events in words of the
    ``limit`` actions before position ``before`` (default: the newest). The same for
    everyone: it says only what every seat saw happen."""
    hub = hub_of(request)
    live = await hub.get(gid)
    log = await hub.log_of(live)
    end = len(log) if before is None else min(before - 1, len(log))
    start = max(0, end - limit)
    entries = [{"state_id": i + 1, "events": log[i]} for i in range(start, end) if log[i]]
    setup = [live.state.describe(e) for e in live.state.setup_events()]
    if start == 0 and setup:  # the page that begins the game: who starts, first
        entries.insert(0, {"state_id": 0, "events": setup})
    return {"state_id": len(log), "first": start + 1, "entries": entries}
