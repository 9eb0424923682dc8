"""A seat: taken with the invite code, handed to the standard bot and back, its view, and what
its person asks of the table (when to be asked, a hold, a proxy bid)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from meeple.kernel.asking import AskSettings
from meeple.server.hub import HubError
from meeple.server.routes.params import ERRORS, GameIdPath, SeatToken, hub_of
from meeple.server.schemas import (
    ErrorBody,
    Joined,
    PostHold,
    PostJoin,
    PostProxy,
    PostStandIn,
    PublicGame,
    PutAsk,
    SeatState,
    SeatView,
)

router = APIRouter()


@router.post("/api/games/{gid}/join", response_model=Joined, responses=ERRORS)
async def join_game(gid: GameIdPath, body: PostJoin, request: Request) -> dict[str, Any]:
    """Take an open seat with the invite code and a name; returns the seat's token."""
    hub = hub_of(request)
    live = await hub.get(gid)
    token = await hub.join(live, body.code, body.seat, body.name)
    return {"seat": body.seat, "token": token, "url": f"/play/{gid}#token={token}"}


@router.post("/api/games/{gid}/stand-in", response_model=PublicGame, responses=ERRORS)
async def stand_in(gid: GameIdPath, body: PostStandIn, request: Request) -> dict[str, Any]:
    """Hand a person's seat to the standard bot, or back (the host: any person's seat; a
    person: their own)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    await hub.stand_in(live, body.token, body.seat, body.on)
    return live.public()


@router.get(
    "/api/games/{gid}/view",
    response_model=SeatView,
    responses={
        **ERRORS,
        401: {"model": ErrorBody, "description": "No token (send Authorization: Bearer)"},
    },
)
async def get_view(gid: GameIdPath, token: SeatToken, request: Request) -> dict[str, Any]:
    """A seat's view, with its legal actions when it decides now. The seat's token goes in
    the ``Authorization: Bearer TOKEN`` header (``?token=`` is still read, for older
    clients, but a URL ends up in logs)."""
    live = await hub_of(request).get(gid)
    return live.seat_view(live.seat_of(token))


@router.put("/api/games/{gid}/ask", response_model=SeatState, responses=ERRORS)
async def put_ask(gid: GameIdPath, body: PutAsk, request: Request) -> dict[str, Any]:
    """Set when the token's person wants to be asked; the rest moves on by itself."""
    hub = hub_of(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    ask = AskSettings(body.others_turns, body.own_turn, body.grace)
    await hub.set_ask(live, seat, ask)
    return live.seat_answer(seat)


@router.post("/api/games/{gid}/hold", response_model=SeatState, responses=ERRORS)
async def post_hold(gid: GameIdPath, body: PostHold, request: Request) -> dict[str, Any]:
    """Hold the table for the token's person (asked at its next decision, whatever its
    settings, to act first), or release it. A hold lasts while the seat's WebSocket is
    open, and ends when the seat moves on (passes, rolls or ends its turn)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    if body.hold and live.seats[seat].sockets <= 0:
        raise HubError(422, "a hold lasts while the seat's WebSocket is open: connect it first")
    hub.hold(live, seat, body.hold)
    return live.seat_answer(seat)


@router.post("/api/games/{gid}/proxy", response_model=SeatState, responses=ERRORS)
async def post_proxy(gid: GameIdPath, body: PostProxy, request: Request) -> dict[str, Any]:
    """Bid for the token's person up to ``limit`` in the open auction (the smallest raise
    each time it is their turn, dropping out past the limit), or stop (``null``)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    hub.set_proxy(live, seat, body.limit)
    return live.seat_answer(seat)
