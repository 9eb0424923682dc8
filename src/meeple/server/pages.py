"""The browser app: the lobby, the game page, and the two read-only endpoints they need.

The pages are static files (``static/``: HTML, CSS and JavaScript modules, no build step) that
talk to the JSON API like any other client. Besides the game API they read:

- ``GET /api/catalog``: the game ids with their titles, player ranges and bot kinds (the lobby);
- ``GET /api/games/{id}/board``: the printed components of a game (a Monopoly edition's squares,
  colour groups, prices, rents and names; Monopolis' resources and player board). They never
  change during a game, so they are sent once here and not in every WebSocket update.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from meeple.bots import bot_kinds
from meeple.kernel.family import family_of_state, game_ids, game_info
from meeple.kernel.protocol import GameState

if TYPE_CHECKING:
    from meeple.server.hub import Hub

STATIC = Path(__file__).with_name("static")

router = APIRouter()


class CatalogEntry(BaseModel):
    game: str
    title: str
    family: str
    min_players: int
    max_players: int
    bots: list[str]


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/play/{gid}", include_in_schema=False)
async def play_page(gid: Annotated[str, PathParam(min_length=1, max_length=32)]) -> FileResponse:
    return FileResponse(STATIC / "play.html", media_type="text/html")


@router.get("/join/{gid}", include_in_schema=False)
async def join_page(gid: Annotated[str, PathParam(min_length=1, max_length=32)]) -> FileResponse:
    return FileResponse(STATIC / "join.html", media_type="text/html")


@router.get("/api/catalog", response_model=list[CatalogEntry])
async def catalog() -> list[dict[str, Any]]:
    """Every game id a game can be created with, and the bot kinds its seats may have."""
    out = []
    for gid in game_ids():
        info = game_info(gid)
        out.append(
            {
                "game": gid,
                "title": info.title,
                "family": info.family,
                "min_players": info.min_players,
                "max_players": info.max_players,
                # Kinds that take an argument (param:FILE) are refused by POST /api/games.
                "bots": [k for k in bot_kinds(info.family) if k != "param"],
            }
        )
    return out


@router.get(
    "/api/games/{gid}/board",
    responses={404: {"description": "No such game"}},
)
async def board(
    gid: Annotated[str, PathParam(min_length=1, max_length=32)], request: Request
) -> dict[str, Any]:
    """The printed components of a game: what the page draws the board from (never secret)."""
    hub: Hub = request.app.state.hub
    live = await hub.get(gid)
    return board_of(live.state)


def board_of(state: GameState) -> dict[str, Any]:
    """The public, unchanging description of ``state``'s board (see the module docstring)."""
    return family_of_state(state).board(state)


def install(app: FastAPI) -> None:
    """Add the pages, their endpoints and the static files to ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
