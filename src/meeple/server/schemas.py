"""Request and response bodies of the API, with size limits; unknown fields are rejected."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from meeple.bots.base import bot_kinds
from meeple.kernel.asking import MAX_GRACE
from meeple.kernel.family import game_ids
from meeple.server.names import MAX_NAME, clean_name

MAX_SEATS = 8
MAX_ACTION = 64
MAX_TOKEN = 64
MAX_SEED = 2**63 - 1
MAX_REF = 2**53
"""The largest ``ref`` a socket's action may carry (a JavaScript number's exact integers)."""
TURN_TIMER = 300.0
"""The turn timer of a game made without one: a person who is here may think this long over one
decision before the standard bot plays their seat (until they take it back). Humane to a slow
thinker (reading a trade offer, talking it over); a person who is away has the server's shorter
away timer (docs/SERVER.md, "A table that never stalls")."""

#: What a seat field holds (docs/SERVER.md, "API": seats count from 0 in data, from 1 in words).
SEAT = "The seat's index, counted from 0: seat 0 is Player 1 in every text"


Name = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_NAME,
        description="One line: letters of any script, digits, symbols, spaces and punctuation, "
        "normalised to NFKC; nothing invisible (no control or format character, line break, "
        "text-direction control or zero-width space: docs/SERVER.md, 'Names')",
    ),
    AfterValidator(clean_name),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AskModel(_Strict):
    """When a person wants to be asked (meeple.kernel.asking.AskSettings); else the table moves
    on by itself after ``grace`` seconds."""

    others_turns: Literal["never", "build", "always"] = "never"
    own_turn: Literal["build", "roll", "always"] = "build"
    grace: Annotated[float, Field(ge=0, le=MAX_GRACE)] = Field(
        default=0.0,
        description="Seconds of countdown before the table rolls or ends the turn for this "
        "person (0: at once); other moves never wait",
    )


class HumanSeat(_Strict):
    type: Literal["human"]
    name: Name
    ask: AskModel | None = Field(
        default=None,
        description="When to ask this person; omitted: every decision is asked (as API v1 did)",
    )


class BotSeat(_Strict):
    type: Literal["bot"]
    bot: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_NAME,
            json_schema_extra={"enum": [k for k in bot_kinds() if k != "param"]},
        ),
    ] = "random"
    name: Name | None = None


class OpenSeat(_Strict):
    """A seat for someone invited: whoever opens the invite link picks it and a name."""

    type: Literal["open"]


SeatSpec = Annotated[HumanSeat | BotSeat | OpenSeat, Field(discriminator="type")]


class CreateGame(_Strict):
    game: Annotated[str, Field(min_length=1, max_length=64, json_schema_extra={"enum": game_ids()})]
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS)]
    seed: Annotated[
        int | None,
        Field(
            ge=0,
            le=MAX_SEED,
            description="The game's seed (0 to 2^63-1; null: the server draws one): a number, "
            'or its decimal digits as a string ("5540251580662524031"), which a browser sends '
            "exactly where a JavaScript number is rounded above 2^53",
        ),
    ] = None
    listed: bool = Field(
        default=True, description="List the game in the lobby's open games (false: private)"
    )
    turn_timer: Annotated[float | None, Field(ge=10, le=86400)] = Field(
        default=TURN_TIMER,
        description="Seconds a person who is here may take over a decision before the standard "
        "bot plays their seat until they take it back (null: no timer). A person who is away "
        "(no page of theirs open) has the server's away timer (`meeple serve --away-timer`, "
        "30 s by default) whatever this says",
    )
    hints: bool = Field(
        default=True,
        description="Whether people may ask the advisor for a hint at their decisions "
        "(POST /api/games/{id}/hint: each option's chance of winning)",
    )
    # Free-form here: the game's family lists its options and the kernel checks each value
    # by its kind (meeple.kernel.options.check_rules), naming the option and what it takes.
    rules: Annotated[dict[str, Any] | None, Field(max_length=64)] = Field(
        default=None,
        description="Rule options for this game, NAME: VALUE (a house rule or a rulebook "
        "reading: `GET /api/catalog` lists each game's with its kind, values and the "
        "edition's value, the default). An unknown name, a value the option does not take "
        "or options that do not go together are refused with 422 and the reason; the game's "
        "options keep them, so its save file and history show them. A game from a position "
        "takes the position's own (its options' `rules`)",
        examples=[{"free_parking_money": True, "auctions": False}],
    )
    # Free-form here: the kernel checks it (meeple.kernel.position.from_position) and names
    # every problem, which a schema could not; the body limit bounds its size.
    position: dict[str, Any] | None = Field(
        default=None,
        description="Start from this position: what a position file holds (`meeple position "
        "--out`, meeple.kernel.position.position_data): format, version, game, players, seed, "
        "options and position. Its game, players and seed make the game, as `meeple play "
        "--from` does: `game` and the number of seats must agree with them, and `seed` must "
        "be left out or agree. Options: `redraw`, and `rules` (the game's rule options, "
        "checked as the request's `rules` are). An inconsistent position is refused "
        "with 422 and every reason",
    )


class SeatToken(BaseModel):
    seat: int = Field(description=SEAT)
    token: str | None = Field(description="The seat's secret (people only; bots play server-side)")
    url: str | None = Field(description="The seat's page; the token rides in the #fragment")


class Created(BaseModel):
    id: str
    seats: list[SeatToken]
    host_token: str = Field(description="The host's key: start, cancel, hand seats to bots")
    invite: str | None = Field(description="The invite code, when seats are open")
    invite_url: str | None = Field(description="The invite page; the code rides in the #fragment")


Secret = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class PostJoin(_Strict):
    code: Secret
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS, description=SEAT)]
    name: Name


class Joined(BaseModel):
    seat: int = Field(description=SEAT)
    token: str
    url: str


class HostKey(_Strict):
    host_token: Secret


class PostStandIn(_Strict):
    token: Secret = Field(description="The host's key, or the seat's own token")
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS, description=SEAT)]
    on: bool = Field(description="true: the standard bot plays the seat; false: the person")


class PostAction(_Strict):
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]
    state_id: Annotated[int, Field(ge=0, le=2**31)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION, examples=["roll"])]


class SocketAct(_Strict):
    """An action sent on a seat's WebSocket (docs/SERVER.md, "WebSocket"): what ``POST
    /actions`` takes, without the token (the socket is already the seat's), and a ``ref`` the
    answer repeats so the client can match them."""

    type: Literal["act"]
    state_id: Annotated[int, Field(ge=0, le=2**31)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION)]
    ref: Annotated[int, Field(ge=0, le=MAX_REF)] | None = None


class PutAsk(AskModel):
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class PostHold(_Strict):
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]
    hold: bool = Field(
        description="true: ask me at my next decision whatever my settings (I want to act); "
        "false: my settings apply again"
    )


class AutoMove(BaseModel):
    action: str
    text: str
    moment: str
    grace: float


class SeatState(BaseModel):
    seat: int = Field(description=SEAT)
    state_id: int = Field(description="The position this seat state belongs to")
    ask: AskModel | None
    held: bool
    auto: AutoMove | None
    proxy: int | None = Field(description="The seat's standing bid limit in the open auction")


class PostProxy(_Strict):
    token: Secret
    limit: Annotated[int | None, Field(ge=0, le=2**31)] = Field(
        description="Bid for me up to this amount in the open auction; null: stop"
    )


class SeatInfo(BaseModel):
    seat: int = Field(description=SEAT)
    type: str = Field(description="human, bot, or open (waiting for an invited person)")
    name: str = Field(
        description="A person's name, or a bot's: NAME (bot) (docs/SERVER.md, 'Names')"
    )
    bot: str | None = Field(None, description="A bot's kind (standard, random...); else null")
    stand_in: bool = Field(description="a bot plays this person's seat for now")
    chat: str | None = Field(
        default=None,
        description="the host's word on this person's chat: muted, removed, or null",
    )
    connected: bool | None = Field(
        None,
        description="A person's presence: a page (WebSocket) of theirs is open; null for "
        "bots and open seats",
    )
    away_for: float | None = Field(
        None,
        description="Seconds since the person's last page closed (or the server loaded "
        "the game with none open); null while one is open, and for bots and open seats",
    )


class Timer(BaseModel):
    seat: int = Field(description="The person whose decision the table waits for")
    left: float = Field(description="Seconds before the standard bot plays their seat")
    away: bool = Field(description="They are away: the away timer runs")


class Timers(BaseModel):
    turn: float | None = Field(description="The game's turn timer (seconds; null: off)")
    away: float | None = Field(description="The away timer (seconds; null: off)")
    handover: float = Field(
        description="Seconds a person must be away before another may hand their seat to a bot"
    )


class LegalAction(BaseModel):
    action: str
    text: str


class GameSummary(BaseModel):
    id: str
    game: str
    players: int
    status: str
    state_id: int
    created: str


class PublicGame(BaseModel):
    id: str
    game: str
    status: str
    state_id: int
    current_player: int = Field(description="The seat that decides now (an index from 0); -1: over")
    seats: list[SeatInfo]
    result: dict[str, Any] | None
    view: dict[str, Any]
    rematch: str | None = Field(None, description="The id of this game's rematch, once started")
    hints: bool = Field(True, description="Whether people may ask the advisor for hints")
    timer: Timer | None = Field(
        None, description="The timer running on the deciding person, if one runs"
    )
    timers: Timers | None = None


class SeatView(PublicGame):
    seat: int = Field(description=SEAT)
    legal_actions: list[LegalAction]
    ask: AskModel | None
    held: bool
    proxy: int | None = None
    auto: AutoMove | None = Field(
        description="The move the server will play for this seat after `grace` seconds unless "
        "it acts or holds first; null when the seat is asked"
    )


class Applied(BaseModel):
    state_id: int
    status: str
    events: list[str]
    view: dict[str, Any]


class LogEntry(BaseModel):
    state_id: int = Field(
        description="The position the action led to (its number from 1); 0 for the setup "
        "(who starts, and how they were chosen), first in the page that begins the game"
    )
    events: list[str]


class GameLog(BaseModel):
    state_id: int = Field(description="The game's position now")
    first: int = Field(description="The first position this page covers (1: the first move)")
    entries: list[LogEntry] = Field(description="Oldest first; actions without events omitted")


class PostWhy(_Strict):
    token: Secret
    actions: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=MAX_ACTION)]],
        Field(min_length=1, max_length=64),
    ]


class Why(BaseModel):
    state_id: int
    reasons: dict[str, str | None] = Field(
        description="Each action's reason for being refused now; null when it is legal"
    )


class PostHint(_Strict):
    token: Secret
    state_id: Annotated[int, Field(ge=0, le=2**62)] = Field(
        description="The position the hint is for: the seat's decision now (409 if stale)"
    )


class HintOption(BaseModel):
    action: str
    text: str
    win: float = Field(description="The chance of winning after this option (0 to 1)")
    low: float = Field(description="95% interval, low end")
    high: float = Field(description="95% interval, high end")
    rollouts: int = Field(description="Games played out from here with this option")
    best: bool


class Hint(BaseModel):
    state_id: int
    seat: int = Field(description=SEAT)
    options: list[HintOption]
    rollouts: int
    seconds: float
    others: int = Field(description="Legal actions not compared (too many to list)")
    note: str


class PostChat(_Strict):
    token: Secret
    text: Annotated[str, Field(min_length=1, max_length=1000)]


class ChatMessage(BaseModel):
    id: int
    seat: int = Field(description=SEAT)
    name: str
    text: str
    at: str


class Chat(BaseModel):
    messages: list[ChatMessage] = Field(description="Oldest first")


class ErrorBody(BaseModel):
    detail: str
    state_id: int | None = None
