"""A game's chat: said at the table, and read back."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from meeple.server.routes.params import ERRORS, GameIdPath, hub_of
from meeple.server.schemas import Chat, ChatMessage, PostChat

router = APIRouter()


@router.post("/api/games/{gid}/chat", response_model=ChatMessage, status_code=201, responses=ERRORS)
async def post_chat(gid: GameIdPath, body: PostChat, request: Request) -> dict[str, Any]:
    """Say something at the table (people only): stored with the game and sent to every
    socket as ``{"type": "chat", ...}``. Limited in length and rate (429 beyond)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    return await hub.chat(live, live.seat_of(body.token), body.text)


@router.get("/api/games/{gid}/chat", response_model=Chat, responses=ERRORS)
async def get_chat(
    gid: GameIdPath,
    request: Request,
    after: Annotated[int, Query(ge=-1, le=2**62)] = -1,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The game's chat, oldest first: messages after id ``after`` (-1: the newest)."""
    hub = hub_of(request)
    live = await hub.get(gid)
    return {"messages": await asyncio.to_thread(hub.storage.chat, live.id, after, limit)}
