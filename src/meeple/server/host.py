"""What the host may do to the people at their table (docs/SERVER.md, "Tokens" and "A table
that talks"), beside starting, cancelling and handing seats to bots (``app.py``):

- ``POST /api/games/{id}/reissue``: a seat's new token. The old one stops at once, on every
  request and every open socket: a link that went astray (shared in the wrong chat, left on a
  borrowed computer) is worth nothing after it. The host may do it for any person's seat, a
  person for their own; the host passes the new link on.
- ``POST /api/games/{id}/moderate``: mute a person in the game's chat (their messages refused),
  remove them from it (refused, and those they sent hidden from everyone), or let them chat
  again. Stored with the seat, so a restart, another server process and the rematch keep it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from meeple.server.schemas import MAX_SEATS, MAX_TOKEN, ErrorBody, PublicGame

if TYPE_CHECKING:
    from meeple.server.hub import Hub

router = APIRouter()

GameIdPath = Annotated[str, PathParam(min_length=1, max_length=32)]
Secret = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]
SeatNumber = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "Not the host's key (nor, to reissue, the seat's)"},
    404: {"model": ErrorBody, "description": "No such game"},
    422: {"description": "Malformed request, or a seat that is not a person's"},
}


class PostReissue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Secret = Field(description="The host's key, or the seat's own token")
    seat: SeatNumber


class Reissued(BaseModel):
    seat: int
    token: str = Field(description="The seat's new token: the old one opens nothing any more")
    url: str = Field(description="The seat's page, the token in the #fragment")


class PostModerate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host_token: Secret
    seat: SeatNumber
    chat: Literal["muted", "removed"] | None = Field(
        description="muted: their messages are refused; removed: refused, and those they sent "
        "hidden from everyone; null: they may chat again (and their messages show again)"
    )


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.post("/api/games/{gid}/reissue", response_model=Reissued, responses=ERRORS)
async def reissue(gid: GameIdPath, body: PostReissue, request: Request) -> dict[str, Any]:
    """A new token for a person's seat (the host: any person's seat; a person: their own). The
    old token stops at once: its requests get 403, its sockets are sent
    ``{"type": "revoked", ...}`` and closed."""
    hub = _hub(request)
    live = await hub.get(gid)
    token = await hub.reissue(live, body.token, body.seat)
    return {"seat": body.seat, "token": token, "url": f"/play/{gid}#token={token}"}


@router.post("/api/games/{gid}/moderate", response_model=PublicGame, responses=ERRORS)
async def moderate(gid: GameIdPath, body: PostModerate, request: Request) -> dict[str, Any]:
    """The host mutes a person in the chat, removes them from it, or lets them back; every
    socket is told ``{"type": "moderated", "seat", "chat"}``. Answer: the public view, whose
    seats carry each person's ``chat``."""
    hub = _hub(request)
    live = await hub.get(gid)
    await hub.moderate(live, body.host_token, body.seat, body.chat)
    return live.public()


def install(app: FastAPI) -> None:
    """Add the host's endpoints to ``app``."""
    app.include_router(router)
