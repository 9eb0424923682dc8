"""Playing: an action applied, why actions are refused now, and the advisor's hint."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from meeple.server.routes.params import ERRORS, GameIdPath, hub_of
from meeple.server.schemas import Applied, Hint, PostAction, PostHint, PostWhy, Why
from meeple.server.wire import dumps, join_objects

router = APIRouter()


@router.post("/api/games/{gid}/actions", response_model=Applied, responses=ERRORS)
async def post_action(gid: GameIdPath, body: PostAction, request: Request) -> Response:
    """Apply an action for the token's seat at position ``state_id``."""
    began = time.perf_counter()
    hub = hub_of(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    answer = await hub.act_answer(live, seat, body.state_id, body.action)
    request.app.state.latency.observe(time.perf_counter() - began)
    # Applied, with the view its update carried, encoded once for both.
    text = join_objects(dumps(answer), f'{{"view":{live.view_text(seat)}}}')
    return Response(text, media_type="application/json")


@router.post("/api/games/{gid}/why", response_model=Why, responses=ERRORS)
async def post_why(gid: GameIdPath, body: PostWhy, request: Request) -> dict[str, Any]:
    """Why each of these actions is refused now, in the engine's words (a page says so on
    a disabled control); ``null`` for one that is legal."""
    live = await hub_of(request).get(gid)
    return {
        "state_id": live.state_id,
        "reasons": live.why(live.seat_of(body.token), body.actions),
    }


@router.post("/api/games/{gid}/hint", response_model=Hint, responses=ERRORS)
async def post_hint(gid: GameIdPath, body: PostHint, request: Request) -> dict[str, Any]:
    """The advisor's answer at the token's person's decision: each option with its chance
    of winning against standard play and a 95% interval, the best marked (about two
    seconds). Worked out from what that seat may see only. 403 when the host turned hints
    off; 409 when ``state_id`` is not the seat's decision now; 429 when the advisor is
    busy."""
    hub = hub_of(request)
    live = await hub.get(gid)
    return await hub.hint(live, live.seat_of(body.token), body.state_id)
