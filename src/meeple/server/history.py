"""The end of a game: its story (worth or points over the game, what each worth is made of,
the key moments), any position of it replayed, its save file, and the rematch.

Everything here is computed from what determines a game, ``(game id, players, seed, options,
actions)``, by replaying it in a worker thread; it reads only public information (views and
event texts, never deck order or the random state), and the seed only once the game is over.
Endpoints (docs/SERVER.md, "The end of a game"):

- ``GET /api/games/{id}/history``: the net-worth (Monopoly) or points (Monopolis) series, one
  point per turn; what each seat's net worth is made of, or each seat's score sheet; the key
  moments; the seed once the game is over. Cached per game and ``state_id``.
- ``GET /api/games/{id}/replay/{n}``: the public view at position ``n`` and the events of the
  move that reached it (replayed from the seed each time: about 4 microseconds per action).
- ``GET /api/games/{id}/save``: a finished game as a save file (``meeple replay FILE``).
- ``POST /api/games/{id}/rematch``: a new game with the same seats and a new seed, made once.
- ``GET /api/games/{id}/chances``: each seat's chance of winning over a finished game and where
  it was decided (the advisor's playouts: :func:`meeple.bots.advisor.chances_over`). Cached.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from meeple.bots.advisor import chances_over, decided
from meeple.kernel.family import family_of_state, new_game
from meeple.kernel.options import rules_in_force
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.saves import save_data
from meeple.server.hub import HubError
from meeple.server.limits import client_of
from meeple.server.schemas import MAX_TOKEN, ErrorBody

if TYPE_CHECKING:
    from meeple.server.hub import Hub, LiveGame

HISTORY_CACHE = 32
"""How many computed histories are kept (per game and ``state_id``; the oldest go first)."""

MAX_POSITION = 2**31

router = APIRouter()

GameIdPath = Annotated[str, PathParam(min_length=1, max_length=32)]
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "The token is not a person's seat of this game"},
    404: {"model": ErrorBody, "description": "No such game"},
    422: {"description": "Malformed request, a position past the end, or the game not over"},
}


# ---------------------------------------------------------------------------- models


class Point(BaseModel):
    state_id: int = Field(description="The position: the number of actions applied")
    turn: int = Field(description="The turn that starts there (the last point: the last turn)")
    values: list[int] = Field(description="Per seat: net worth (Monopoly) or points (Monopolis)")


class Series(BaseModel):
    measure: str = Field(description='"net_worth" (Monopoly) or "points" (Monopolis)')
    unit: str = Field(description="The edition's currency, or 'points'")
    points: list[Point]


class Worth(BaseModel):
    """What a Monopoly seat's net worth is made of: cash + deeds + buildings + mortgages."""

    seat: int
    net_worth: int
    cash: int
    deeds: int = Field(description="The printed price of every deed the seat owns")
    buildings: int = Field(description="What its houses and hotels cost")
    mortgages: int = Field(
        description="Zero or negative: per mortgaged deed, its mortgage value less its price"
    )
    deed_count: int
    mortgaged_count: int
    houses: int
    hotels: int
    jail_cards: int
    alive: bool


class Sheet(BaseModel):
    """A Monopolis seat's points per scoring step (as if the game ended at this position)."""

    seat: int
    money: int
    board: int
    collections: int
    parks: int
    tiles: int
    total: int


class Moment(BaseModel):
    state_id: int = Field(description="The position right after the move it happened in")
    turn: int
    kind: str
    title: str
    text: str = Field(description="What happened, in the events' words ('Player 2' for seat 1)")
    seats: list[int] = Field(description="The seats it concerns, counted from 0")
    amount: int | None = None


class History(BaseModel):
    id: str
    game: str
    family: str
    status: str
    state_id: int
    seed: int | None = Field(
        description="The game's seed, once the game is over (null before). A 64-bit number: "
        "JavaScript's JSON.parse rounds it above 2^53, so a browser reads `seed_text`"
    )
    seed_text: str | None = Field(
        description="The same seed as decimal digits, exact in any JSON reader (null until "
        "the game is over)",
        examples=["5540251580662524031"],
    )
    result: dict[str, Any] | None
    ranking_rule: str | None = Field(
        description="Monopoly: how the edition ranks players (net_worth, "
        "properties_then_cash, cash_then_properties)"
    )
    series: Series
    worth: list[Worth] | None = Field(description="Monopoly: each seat's net worth in parts")
    steps: list[str] | None = Field(description="Monopolis: the scoring steps, in order")
    sheets: list[Sheet] | None = Field(description="Monopolis: each seat's score sheet")
    moments: list[Moment]
    rules_changed: list[str] = Field(
        description="The rules this game set that differ from its edition's, in words "
        '("Free Parking money: on (normally off)"); empty when it plays by the book'
    )


class Replayed(BaseModel):
    id: str
    n: int = Field(description="The position shown: the number of actions applied")
    state_id: int = Field(description="The game's current position (the last n)")
    status: str = Field(description="The game's status now")
    current_player: int = Field(description="The seat deciding at position n, from 0 (-1: over)")
    mover: int = Field(description="The seat that made the move from n-1 to n, from 0 (-1 at 0)")
    move: str | None = Field(
        description="That move in words; null at 0 and for a step of drafting a trade offer "
        "(private until the offer is made)"
    )
    events: list[str] = Field(description="What the move from n-1 to n did (empty at 0)")
    view: dict[str, Any] = Field(description="GameState.view(None) at position n")


class PostRematch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class Rematch(BaseModel):
    id: str = Field(description="The rematch's game id")
    seat: int = Field(description="The token's seat (from 0), the same in the rematch")
    created: bool = Field(description="Whether this call made it (false: it was made before)")
    token: str | None = Field(
        description="The seat's token in the rematch (the old game's opens nothing there), "
        "given once: null when it was given before (to this person's open page, or an "
        "earlier call); the host can give the seat a new one (POST /reissue)"
    )
    url: str | None = Field(
        description="The seat's page in the rematch, the token in the #fragment"
    )


# ---------------------------------------------------------------------------- replaying


@dataclass(frozen=True)
class Record:
    """What determines a game at one position: enough to replay it in another thread."""

    id: str
    game_id: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[Action, ...]
    finished: bool

    @classmethod
    def of(cls, live: LiveGame) -> Record:
        s = live.state
        return cls(
            live.id,
            s.game_id,
            s.num_players,
            s.seed,
            s.options,
            tuple(s.history),
            s.is_terminal(),
        )

    def start(self) -> GameState:
        return new_game(self.game_id, self.players, self.seed, self.options)


def replay_at(rec: Record, n: int) -> dict[str, Any]:
    """The public view at position ``n`` of ``rec`` and the event texts of move ``n - 1``."""
    s = rec.start()
    s.record_events = False
    for a in rec.actions[: max(0, n - 1)]:
        s.apply(a)
    texts: list[str] = []
    mover, move = -1, None
    if n > 0:
        action = rec.actions[n - 1]
        mover = s.current_player()
        # A family's private moves (drafting a Monopoly trade offer: ``view`` hides the draft
        # until the offer is made) are not put in words.
        if action.kind not in family_of_state(s).private_moves:
            move = s.describe_action(action)
        s.record_events = True
        texts = [s.describe(e) for e in s.apply(action)]
    return {
        "id": rec.id,
        "n": n,
        "state_id": len(rec.actions),
        "status": "finished" if rec.finished else "active",
        "current_player": s.current_player(),
        "mover": mover,
        "move": move,
        "events": texts,
        "view": s.view(None),
    }


def history_of(rec: Record) -> dict[str, Any]:
    """The game's story (the ``History`` model) from replaying it: see the module docstring."""
    s = rec.start()
    s.record_events = True
    out: dict[str, Any] = {
        "id": rec.id,
        "game": rec.game_id,
        "family": s.family,
        "status": "finished" if rec.finished else "active",
        "state_id": len(rec.actions),
        "seed": rec.seed if rec.finished else None,
        "seed_text": str(rec.seed) if rec.finished else None,
        "ranking_rule": None,
        "worth": None,
        "steps": None,
        "sheets": None,
        "rules_changed": rules_in_force(s),
    }
    out.update(family_of_state(s).story(s, rec.actions))
    r = s.result()
    out["result"] = None if r is None else r.to_dict()
    return out


# ---------------------------------------------------------------------------- endpoints


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.get("/api/games/{gid}/history", response_model=History, responses=ERRORS)
async def history(gid: GameIdPath, request: Request) -> dict[str, Any]:
    """The game's story so far: worth or points per turn, the final worth in parts (Monopoly)
    or score sheets (Monopolis), the key moments; the seed once the game is over."""
    live = await _hub(request).get(gid)
    rec = Record.of(live)
    return await _cached(
        request, (rec.id, len(rec.actions)), lambda: asyncio.to_thread(history_of, rec)
    )


async def _cached(
    request: Request,
    key: tuple[str, int],
    compute: Callable[[], Awaitable[dict[str, Any]]],
) -> dict[str, Any]:
    """The answer kept under ``key`` (a game and a position; -1: its chances), else
    ``compute()``'s, kept: the newest :data:`HISTORY_CACHE` answers are."""
    cache: OrderedDict[tuple[str, int], dict[str, Any]] = request.app.state.history_cache
    found = cache.get(key)
    if found is None:
        found = await compute()
        cache[key] = found
        while len(cache) > HISTORY_CACHE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return found


@router.get("/api/games/{gid}/replay/{n}", response_model=Replayed, responses=ERRORS)
async def replay(
    gid: GameIdPath, n: Annotated[int, PathParam(ge=0, le=MAX_POSITION)], request: Request
) -> dict[str, Any]:
    """The public view at position ``n`` (0 to ``state_id``) and what its last move did."""
    live = await _hub(request).get(gid)
    rec = Record.of(live)
    if n > len(rec.actions):
        raise HubError(422, f"position {n} is past the end: the game is at {len(rec.actions)}")
    return await asyncio.to_thread(replay_at, rec, n)


@router.get("/api/games/{gid}/save", responses=ERRORS)
async def save(gid: GameIdPath, request: Request) -> JSONResponse:
    """A finished game as a save file (seed and every move): ``meeple replay FILE`` plays it
    again from the seed, die by die and card by card."""
    live = await _hub(request).get(gid)
    if not live.state.is_terminal():
        raise HubError(422, "the game is not over: its seed and moves are shown at its end")
    disposition = f'attachment; filename="meeple-{live.id}.json"'
    return JSONResponse(save_data(live.state), headers={"content-disposition": disposition})


@router.post("/api/games/{gid}/rematch", response_model=Rematch, responses=ERRORS)
async def rematch(gid: GameIdPath, body: PostRematch, request: Request) -> dict[str, Any]:
    """Start the rematch of a finished game (the same seats and people, a new seed), or return
    the one already started: any person's seat token of the game may ask, and gets their
    seat's new token in the rematch once (``null`` after)."""
    hub = _hub(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    new, created, token = await hub.rematch(live, seat, client_of(request))
    url = None if token is None else f"/play/{new.id}#token={token}"
    return {"id": new.id, "seat": seat, "created": created, "token": token, "url": url}


class ChancePoint(BaseModel):
    state_id: int = Field(description="The position: the number of actions applied")
    chances: list[float] = Field(description="Per seat: its chance of winning from there")


class Turning(BaseModel):
    from_: int = Field(alias="from", description="The position before the winner's chance rose")
    to: int = Field(description="The position after it")
    before: float
    after: float


class Decided(BaseModel):
    winner: int
    turning: Turning | None = Field(
        description="Where the winner became the favourite for good: the last rise of its "
        "chance through 50% (null: the favourite from the start)"
    )
    settled: int | None = Field(
        description="The first position from which the winner's chance stayed at 80% or more"
    )


class Chances(BaseModel):
    id: str
    points: list[ChancePoint]
    decided: Decided | None


def chances_of(rec: Record) -> dict[str, Any]:
    """The ``Chances`` answer for a finished game (see :func:`chances_over`). The series ends
    at the final position, where each seat's chance is its share of the win: the winner is
    read there (the first of equals when the win is shared)."""
    points = chances_over(rec.start(), list(rec.actions))
    final = points[-1]["chances"]
    return {"id": rec.id, "points": points, "decided": decided(points, final.index(max(final)))}


@router.get(
    "/api/games/{gid}/chances",
    response_model=Chances,
    response_model_by_alias=True,
    responses={**ERRORS, 429: {"model": ErrorBody, "description": "The advisor is busy"}},
)
async def chances(gid: GameIdPath, request: Request) -> dict[str, Any]:
    """Each seat's chance of winning over a finished game (about 40 positions, each from 60
    games played out by standard bots on futures re-drawn from what the table saw) and where
    the game was decided. Only once the game is over: in play it would be a hint for everyone."""
    hub = _hub(request)
    live = await hub.get(gid)
    if not live.state.is_terminal():
        raise HubError(422, "the chances over a game are shown once it is over")
    if family_of_state(live.state).search is None:
        raise HubError(422, f"{live.state.game_id} has no advisor to work out chances with")
    rec = Record.of(live)
    # (a history's key has the position, >= 0)
    return await _cached(request, (rec.id, -1), lambda: hub.advisor_work(chances_of, rec))


def install(app: FastAPI) -> None:
    """Add the end-of-game endpoints to ``app``."""
    app.state.history_cache = OrderedDict()
    app.include_router(router)
