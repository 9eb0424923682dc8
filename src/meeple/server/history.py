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
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from meeple.games.monopolis.scoring import STEPS, score_sheets
from meeple.games.monopolis.state import MonopolisState
from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules import money
from meeple.games.monopoly.state import MonopolyState
from meeple.games.registry import new_game
from meeple.kernel.protocol import Action, Event, GameState
from meeple.kernel.saves import save_data
from meeple.server.hub import HubError
from meeple.server.schemas import MAX_TOKEN, ErrorBody

if TYPE_CHECKING:
    from meeple.server.hub import Hub, LiveGame

HISTORY_CACHE = 32
"""How many computed histories are kept (per game and ``state_id``; the oldest go first)."""

MAX_POSITION = 2**31

DRAFTING = frozenset({A.TRADE_DEED, A.TRADE_CARD, A.TRADE_CASH})
"""Monopoly's steps of drafting a trade offer: private to the proposer until the offer is made
(``view`` hides the draft), so a replayed move of this kind is not put in words."""

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
    seats: list[int]
    amount: int | None = None


class History(BaseModel):
    id: str
    game: str
    family: str
    status: str
    state_id: int
    seed: int | None = Field(description="The game's seed: shown only once the game is over")
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


class Replayed(BaseModel):
    id: str
    n: int = Field(description="The position shown: the number of actions applied")
    state_id: int = Field(description="The game's current position (the last n)")
    status: str = Field(description="The game's status now")
    current_player: int = Field(description="Who decides at position n (-1: over)")
    mover: int = Field(description="Who made the move from n-1 to n (-1 at 0)")
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
    seat: int = Field(description="The token's seat, the same in the rematch")
    created: bool = Field(description="Whether this call made it (false: it was made before)")


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
        if action.kind not in DRAFTING:
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
        "ranking_rule": None,
        "worth": None,
        "steps": None,
        "sheets": None,
    }
    if isinstance(s, MonopolyState):
        out.update(_monopoly_story(s, rec.actions))
    elif isinstance(s, MonopolisState):
        out.update(_monopolis_story(s, rec.actions))
    else:  # a family without a story of its own: its money, turn by action
        for a in rec.actions:
            s.apply(a)
        out.update(series={"measure": "money", "unit": "", "points": []}, moments=[])
    r = s.result()
    out["result"] = None if r is None else r.to_dict()
    return out


def worth_of(s: MonopolyState, p: int) -> dict[str, Any]:
    """Seat ``p``'s net worth in parts that add up to it (rules/money.py ``net_worth``: cash,
    the printed price of unmortgaged deeds and the mortgage value of mortgaged ones, and the
    cost of buildings): deeds count at their printed price, and each mortgage takes off the
    difference between the price and the mortgage value."""
    ed = s.ed
    deeds = buildings = mortgages = 0
    count = mortgaged = houses = hotels = 0
    for sq in ed.properties:
        if s.owner[sq] != p:
            continue
        count += 1
        deeds += ed.price[sq]
        buildings += money.building_value(s, sq)
        level = s.level[sq]
        if level >= 5:
            hotels += 1
        else:
            houses += level
        if s.mortgaged[sq]:
            mortgaged += 1
            mortgages -= ed.price[sq] - ed.mortgage[sq]
    return {
        "seat": p,
        "net_worth": money.net_worth(s, p),
        "cash": s.cash[p],
        "deeds": deeds,
        "buildings": buildings,
        "mortgages": mortgages,
        "deed_count": count,
        "mortgaged_count": mortgaged,
        "houses": houses,
        "hotels": hotels,
        "jail_cards": sum(1 for h in s.card_holder if h == p),
        "alive": s.alive[p],
    }


def _moment(
    sid: int,
    turn: int,
    kind: str,
    title: str,
    text: str,
    seats: Sequence[int],
    amount: int | None = None,
) -> dict[str, Any]:
    return {
        "state_id": sid,
        "turn": turn,
        "kind": kind,
        "title": title,
        "text": text,
        "seats": list(seats),
        "amount": amount,
    }


def _wins(winners: Sequence[int]) -> str:
    """The end of a sentence naming the winners (" Player 1 wins."); empty without one."""
    if not winners:
        return ""
    names = " and ".join(f"Player {w + 1}" for w in winners)
    return f" {names} {'win' if len(winners) > 1 else 'wins'}."


def _monopoly_story(s: MonopolyState, actions: Sequence[Action]) -> dict[str, Any]:
    ed = s.ed
    n = s.n
    points = [
        {"state_id": 0, "turn": s.turn_no, "values": [money.net_worth(s, p) for p in range(n)]}
    ]
    moments: list[dict[str, Any]] = []
    # The largest of a kind: (amount, state_id, turn, event, text); the first one wins a tie.
    best: dict[str, tuple[int, int, int, Event, str]] = {}
    has_set = [False] * n
    hotel = False
    deals = ("bought", "auction_won", "trade_done", "bankrupt")
    for i, a in enumerate(actions):
        turn = s.turn_no
        events = s.apply(a)
        sid = i + 1
        check_sets = False
        for e in events:
            k, d = e.kind, e.data
            if k == "rent" or (k == "auction_won" and d["item"] == DEED):
                if k not in best or d["amount"] > best[k][0]:
                    best[k] = (d["amount"], sid, turn, e, s.describe(e))
            elif k == "bankrupt":
                who = [d["player"]] + ([d["creditor"]] if d["creditor"] >= 0 else [])
                moments.append(_moment(sid, turn, k, "Bankruptcy", s.describe(e), who))
            elif k == "built" and d["level"] == 5 and not hotel:
                hotel = True
                title = f"First {ed.names.hotel}"
                moments.append(
                    _moment(sid, turn, "first_hotel", title, s.describe(e), [d["player"]])
                )
            elif k == "game_over":
                r = s.result()
                winners = [] if r is None else r.winners
                text = s.describe(e) + _wins(winners)
                moments.append(_moment(sid, turn, k, "Game over", text, winners))
            if k in deals:
                check_sets = True
        if check_sets:
            for p in range(n):
                if has_set[p] or not s.alive[p]:
                    continue
                for g in ed.street_groups:
                    if all(s.owner[m] == p for m in ed.groups[g].members):
                        has_set[p] = True
                        text = f"Player {p + 1} owns every deed of {ed.groups[g].name}."
                        moments.append(
                            _moment(sid, turn, "first_set", "First colour set", text, [p])
                        )
                        break
        if s.turn_no != turn or s.over:
            values = [money.net_worth(s, p) for p in range(n)]
            points.append({"state_id": sid, "turn": s.turn_no, "values": values})
    titles = {"rent": "Largest rent", "auction_won": "Largest auction win"}
    for k, (amount, sid, turn, e, text) in best.items():
        d = e.data
        who = [d["payer"], d["owner"]] if k == "rent" else [d["player"]]
        moments.append(_moment(sid, turn, k, titles[k], text, who, amount))
    moments.sort(key=lambda m: m["state_id"])
    return {
        "ranking_rule": s.rules.ranking,
        "series": {"measure": "net_worth", "unit": ed.currency, "points": points},
        "worth": [worth_of(s, p) for p in range(n)],
        "moments": moments,
    }


def _monopolis_story(s: MonopolisState, actions: Sequence[Action]) -> dict[str, Any]:
    def totals() -> list[int]:
        return [sheet["total"] for sheet in score_sheets(s)]

    points = [{"state_id": 0, "turn": s.turns + 1, "values": totals()}]
    moments: list[dict[str, Any]] = []
    best: dict[str, tuple[tuple[int, int], int, int, Event, str]] = {}
    for i, a in enumerate(actions):
        turn = s.turns + 1
        events = s.apply(a)
        sid = i + 1
        for e in events:
            k, d = e.kind, e.data
            if k == "buy" or k == "build":
                key = (d["price"], 0) if k == "buy" else (d["value"], len(d["houses"]))
                if k not in best or key > best[k][0]:
                    best[k] = (key, sid, turn, e, s.describe(e))
                if k == "build" and d["last_house"]:
                    title = "The final round begins"
                    moments.append(
                        _moment(sid, turn, "last_house", title, s.describe(e), [d["seat"]])
                    )
            elif k == "game_end":
                moments.append(_moment(sid, turn, k, "Game over", s.describe(e), d["winners"]))
        if s.turns + 1 != turn or s.is_terminal():
            points.append({"state_id": sid, "turn": s.turns + 1, "values": totals()})
    titles = {"buy": "Dearest card bought", "build": "Largest building"}
    for k, (key, sid, turn, e, text) in best.items():
        moments.append(_moment(sid, turn, k, titles[k], text, [e.data["seat"]], key[0]))
    moments.sort(key=lambda m: m["state_id"])
    return {
        "series": {"measure": "points", "unit": "points", "points": points},
        "steps": list(STEPS),
        "sheets": [{"seat": seat, **sheet} for seat, sheet in enumerate(score_sheets(s))],
        "moments": moments,
    }


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
    cache: OrderedDict[tuple[str, int], dict[str, Any]] = request.app.state.history_cache
    key = (rec.id, len(rec.actions))
    found = cache.get(key)
    if found is None:
        found = await asyncio.to_thread(history_of, rec)
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
    the one already started: any person's seat token of the game may ask."""
    hub = _hub(request)
    live = await hub.get(gid)
    seat = live.seat_of(body.token)
    new, created = await hub.rematch(live)
    return {"id": new.id, "seat": seat, "created": created}


def install(app: FastAPI) -> None:
    """Add the end-of-game endpoints to ``app``."""
    app.state.history_cache = OrderedDict()
    app.include_router(router)
