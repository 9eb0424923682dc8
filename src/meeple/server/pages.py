"""The browser app: the lobby, the game page, and the read-only endpoints they need.

The pages are static files (``static/``: HTML, CSS and JavaScript modules, no build step) that
talk to the JSON API like any other client. Besides the game API they read:

- ``GET /api/catalog``: the game ids with their titles, player ranges, bot kinds, the rule
  options a table may set for a game (``GameFamily.rule_options``) and when a person is asked
  in it, for the lobby;
- ``GET /api/timers``: the timers a new game gets, for the lobby to show;
- ``GET /api/games/{id}/board``: the printed components of a game (a Monopoly edition's squares,
  colour groups, prices, rents and names; Monopolis' resources and player board) and the rules
  the game changed. They never change during a game, so they are sent once here and not in
  every WebSocket update.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from meeple.bots import bot_kinds
from meeple.bots.base import FILE_KINDS
from meeple.kernel.asking import for_game
from meeple.kernel.family import family, family_of, family_of_state, game_ids, game_info
from meeple.kernel.options import rules_in_force
from meeple.kernel.protocol import GameState
from meeple.server.hub import HANDOVER_AFTER
from meeple.server.schemas import TURN_TIMER, AskModel

if TYPE_CHECKING:
    from meeple.server.hub import Hub

STATIC = Path(__file__).with_name("static")

router = APIRouter()


class RuleOptionInfo(BaseModel):
    """A rule a table may set for a game (meeple.kernel.options.RuleOption)."""

    name: str = Field(description="The key in `POST /api/games`'s `rules`")
    label: str
    kind: Literal["bool", "int", "choice"]
    default: bool | int | str = Field(description="The edition's value (its rulebook's)")
    description: str
    group: str = Field(description="House rules, Rulebook readings, ...")
    choices: list[str] = Field(description="A choice's values")
    choice_labels: list[str] = Field(description="Each choice in words, in the same order")
    minimum: int | None = Field(description="A number's least value (null: none)")
    maximum: int | None = Field(description="A number's greatest value (null: none)")


class CatalogEntry(BaseModel):
    game: str
    title: str
    family: str
    min_players: int
    max_players: int
    bots: list[str]
    rules: list[RuleOptionInfo] = Field(
        description="The rule options a game may set in `POST /api/games`'s `rules`"
    )
    ask: AskModel = Field(
        description="When the lobby has a person asked in this game (a seat's `ask`): the "
        "web's rule with the game's own settings (My First Monopoly: the child rolls)"
    )


class TableTimers(BaseModel):
    turn_timer: float = Field(
        description="Seconds a person who is here may take over one decision before the "
        "standard bot plays their seat, in a game made without `turn_timer`"
    )
    away_timer: float | None = Field(
        description="Seconds a decision waits on a person who is away before the standard bot "
        "plays their seat until they are back (`meeple serve --away-timer`; null: off)"
    )
    handover_after: float = Field(
        description="Seconds a person must be away before another at the table may hand their "
        "seat to the bot (`POST /stand-in`)"
    )


@router.get("/api/timers", response_model=TableTimers)
async def timers(request: Request) -> dict[str, Any]:
    """The timers a new game gets (docs/SERVER.md, "A table that never stalls")."""
    hub: Hub = request.app.state.hub
    return {
        "turn_timer": TURN_TIMER,
        "away_timer": hub.away_timer,
        "handover_after": HANDOVER_AFTER,
    }


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
                # Kinds that take a file (param:FILE, policy:FILE) are refused by POST
                # /api/games; retired ones are kept for measuring only.
                "bots": [
                    k
                    for k in bot_kinds(info.family, gid)
                    if k not in FILE_KINDS and k not in family(info.family).retired_bots
                ],
                "rules": [o.to_dict() for o in family_of(gid).rule_options(gid, {})],
                "ask": for_game(gid).to_dict(),
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
    """The public, unchanging description of ``state``'s board (see the module docstring),
    with ``rules_changed``: the rules the game set that differ from its edition's, in words
    ("Free Parking money: on (normally off)"), for any family."""
    return {**family_of_state(state).board(state), "rules_changed": rules_in_force(state)}


def install(app: FastAPI) -> None:
    """Add the pages, their endpoints and the static files to ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
