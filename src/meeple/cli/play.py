"""``meeple play``: a game at the terminal, humans and bots, for every game id.

Issue "Play in the terminal": a compact board and player panel (the game family's:
``GameFamily.table``), every decision offered as a numbered list of exactly the
legal actions in words, answered by a number or by the action's text (``bid 137``: any amount
in range is accepted, as the engine does). The any-time actions (build, mortgage, trade, ...)
appear in the list wherever the engine's windows offer them (docs/KERNEL.md, "Monopoly: phases,
frames and windows"). Several humans may share the keyboard: each prompt names the seat that
decides. Bots move with one printed line. ``--save FILE`` writes the game after every action
(``meeple.kernel.saves``); ``--resume FILE`` continues a saved game (and keeps saving to it).

Issue 16: a human is asked only when the rule of :mod:`meeple.kernel.asking` (the one the web
app follows too) says so; otherwise the terminal plays the move-on for them
(:func:`~meeple.kernel.asking.auto_move`). Each human seat starts with the game's settings on
:data:`~meeple.kernel.asking.TERMINAL_DEFAULT` (:func:`~meeple.kernel.asking.for_game`: asked
for every real decision, before a roll only when building is worth weighing, never in other
players' turns; in My First Monopoly before every roll, as the child rolls the die), changed
by ``--others-turns`` / ``--own-turn`` or at any prompt by ``ask others ...`` / ``ask own
...``. ``wait`` at any prompt is the web's "I want to act": the seat is asked at its next
chance (its next window, before its next roll or at the end of its turn) whatever its
settings, until it moves on (issue 38: asking before every roll made 31 of 97 inputs a plain
"Roll the dice"). There is no grace period here: a terminal cannot count down while it waits
for a line, so a move-on happens at once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from meeple.bots.advisor import DEFAULT_SECONDS, AdviceError, advise
from meeple.bots.base import Bot, bot_kinds, make_bot
from meeple.cli.options import MAX_SEED, GameArgument, RuleArgs, make_console
from meeple.cli.paths import output_file
from meeple.kernel.asking import (
    END_TURN,
    FORCED,
    OTHERS_TURN,
    ROLL,
    TERMINAL_DEFAULT,
    AskSettings,
    MoveOn,
    auto_move,
    for_game,
)
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import family_of, family_of_state, game_family, game_info, new_game
from meeple.kernel.options import RULES, parse_rule_args, rules_in_force
from meeple.kernel.position import load_position
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import load_game, save_game

HUMAN: Final = "human"
OTHERS_TURNS: Final = ("never", "build", "always")
OWN_TURN: Final = ("build", "roll", "always")

INTRO: Final = (
    "Type the number of a choice or an action's text; 'help' lists the commands "
    "(board, deed, info, ask, wait, why, hint, quit)."
)
COMMANDS: Final = (
    "'board' draws the table again and lists the choices, 'info' gives the rules in short, "
    "'wait' asks you at your next chance to build, mortgage or trade (before your next roll, "
    "at the end of your turn or in another player's), whatever 'ask' says, "
    "'why' says why the last bot moved as it did ('why on': after every bot move, 'why off'), "
    "'hint' asks the advisor for each choice's chance of winning (about 2 seconds), "
    "'help' shows this, 'quit' stops (the save file keeps the game)."
)
_OWN_WORDS: Final = {
    "build": "in your own turn only when you can build (the rest goes by itself)",
    "roll": "before each roll, and at the end of your turn only when you can build",
    "always": "before each roll and at the end of each of your turns",
}
_OTHERS_WORDS: Final = {
    "never": "never in other players' turns",
    "build": "in other players' turns only when you can build",
    "always": "in every other player's turn",
}


def _fail(console: Console, message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}", soft_wrap=True)  # a path stays whole
    return typer.Exit(2)


class Seat:
    """One seat at the table: a human (prompted by name, asked as ``ask`` says) or a bot."""

    def __init__(
        self,
        index: int,
        kind: str,
        name: str,
        bot: Bot | None,
        ask: AskSettings = TERMINAL_DEFAULT,
    ) -> None:
        self.index = index
        self.kind = kind
        self.name = name
        self.bot = bot
        self.ask = ask
        # 'wait': asked at the next chance whatever ``ask`` says, until the seat moves on.
        self.held = False

    @property
    def human(self) -> bool:
        return self.bot is None

    def label(self) -> str:
        """``P2 Bob (standard)``; ``P2 (standard)`` when the seat has no name of its own."""
        number = f"P{self.index + 1}"
        own = "" if self.name == f"Player {self.index + 1}" else f" {self.name}"
        return f"{number}{own} ({self.kind})"


class Again:
    """A prompt's answer that asks the loop to look again (the seat's settings changed)."""


class Reasons:
    """What the table says of the bots' reasons (``Bot.explain``): the last bot move's, and
    whether to say each one as it happens (``why on``); and whether a human may ask the advisor
    for a hint (``--no-hints`` turns it off for the table)."""

    def __init__(self, hints: bool = True) -> None:
        self.every = False
        self.last = ""
        self.hints = hints


AGAIN: Final = Again()


def ask_words(settings: AskSettings) -> str:
    """When a seat is asked, in words (for the start of the game and the ``ask`` command)."""
    return f"{_OWN_WORDS[settings.own_turn]}; {_OTHERS_WORDS[settings.others_turns]}"


ASK_USAGE: Final = "'ask', 'ask others never|build|always' or 'ask own build|roll|always'"


def is_ask_command(text: str) -> bool:
    """Whether a line is the ``ask`` command in its own form: ``ask`` alone, or ``ask
    others|own VALUE``. Anything else that starts with "ask" is read as a choice (issue 38: a
    trade's "Ask for Boardwalk" must not be swallowed by the command)."""
    words = text.split()
    return words == ["ask"] or (
        len(words) == 3 and words[0] == "ask" and words[1] in ("others", "own")
    )


def ask_command(words: Sequence[str], settings: AskSettings) -> tuple[AskSettings | None, str]:
    """``ask others VALUE`` / ``ask own VALUE``: the new settings and a one-line answer, or
    ``None`` and the reason (``ask`` alone: ``None`` and the current settings)."""
    usage = "Type 'ask others never|build|always' or 'ask own build|roll|always'"
    if not words:
        return None, f"You are asked {ask_words(settings)}. {usage} to change it."
    if len(words) != 2 or words[0] not in ("others", "own"):
        return None, usage
    which, value = words
    if which == "others":
        if value not in OTHERS_TURNS:
            return None, f"'ask others' takes {', '.join(OTHERS_TURNS)}, not {value!r}"
        new = AskSettings.from_dict({**settings.to_dict(), "others_turns": value})
        return new, f"From now on you are asked {_OTHERS_WORDS[value]}."
    if value not in OWN_TURN:
        return None, f"'ask own' takes {', '.join(OWN_TURN)}, not {value!r}"
    new = AskSettings.from_dict({**settings.to_dict(), "own_turn": value})
    return new, f"From now on you are asked {_OWN_WORDS[value]}."


def choice_words(state: GameState, action: Action, names: Sequence[str] | None = None) -> str:
    """A legal action as the terminal lists it (``GameState.choice_text``: Monopoly's build
    costs, trade partners by name and number, no engine terms)."""
    return state.choice_text(action, names)


def exact_choice(state: GameState, text: str, names: Sequence[str] | None = None) -> Action | None:
    """The legal action whose words (as listed, or the engine's description) or whose text
    are exactly ``text``, case aside; ``None`` if none. Looked up before any command, so no
    command ever takes a choice's words ("Ask for Boardwalk (Bob's)" is a choice, not ``ask``).
    """
    lowered = text.strip().lower()
    for a in state.legal_actions():
        said = (str(a), state.describe_action(a).lower(), choice_words(state, a, names).lower())
        if lowered in said:
            return a
    return None


_SEAT_WORD: Final = re.compile(r"p(\d+)")


def _seat_action(
    state: GameState, kind: str, arg: str, names: Sequence[str] | None
) -> tuple[Action | None, str]:
    """``trade P2`` / ``trade Bob``: a seat typed as a person writes it (``GameFamily
    .seat_moves``); a bare number is refused, since the action's text counts seats from 0."""
    players = state.num_players
    labels = names or [f"Player {q + 1}" for q in range(players)]
    m = _SEAT_WORD.fullmatch(arg)
    seat = int(m.group(1)) - 1 if m else -1
    if m is None:
        found = [q for q, name in enumerate(labels) if name.lower() == arg]
        seat = found[0] if found else -1
    if not 0 <= seat < players:
        me = state.current_player()  # the one typing: never a seat they would name here
        which = ", ".join(f"P{q + 1} ({labels[q]})" for q in range(players) if q != me)
        if arg.isdigit():
            why = f"name the player as P{arg} or by name, not by a bare number"
        else:
            why = f"there is no player {arg!r}"
        return None, f"'{kind} {arg}': {why}; the other players are {which}"
    action = Action(kind, (seat,))
    if state.is_legal(action):
        return action, ""
    return None, f"'{kind} {arg}' is not legal now: {state.why_illegal(action)}"


def _by_start(
    state: GameState, text: str, names: Sequence[str] | None
) -> tuple[Action | None, list[int]]:
    """The one legal choice whose words start with ``text`` (``ask for boardwalk``), or
    ``None`` and the numbers of every choice that does (none, or several)."""
    lowered = text.lower()
    hits = [
        k
        for k, a in enumerate(state.legal_actions(), 1)
        if choice_words(state, a, names).lower().startswith(lowered)
    ]
    if len(hits) == 1:
        return state.legal_actions()[hits[0] - 1], hits
    return None, hits


def parse_choice(
    state: GameState, text: str, names: Sequence[str] | None = None
) -> tuple[Action | None, str]:
    """The action a human typed, or ``None`` and the reason it was refused.

    Accepts the number of a listed choice, a choice's words (``Roll the dice``) or a start of
    them that only one choice has (``ask for boardwalk``), or an action's text (``roll``,
    ``build 39``, any bid in range), case-insensitively. A seat in an action's text is typed
    as a person names a player (``trade P2``, ``trade Bob``: ``GameFamily.seat_moves``).
    """
    legal = state.legal_actions()
    text = text.strip()
    if not text:
        return None, f"type a number from 1 to {len(legal)} or an action"
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1], ""
        return None, f"{k} is not a choice: pick a number from 1 to {len(legal)}"
    found = exact_choice(state, text, names)
    if found is not None:
        return found, ""
    lowered = " ".join(text.lower().split())
    kind, _, arg = lowered.partition(" ")
    if kind in family_of_state(state).seat_moves and arg:
        return _seat_action(state, kind, arg, names)
    try:
        action: Action | None = Action.parse(lowered)
        reason = ""
    except ValueError:
        action = None
        reason = (
            f"'{text}' is neither a choice nor an action: type a number from 1 to {len(legal)}, "
            "a choice's words (or their start) or an action's text"
        )
    if action is not None and state.is_legal(action):
        return action, ""
    start, hits = _by_start(state, lowered, names)
    if start is not None:
        return start, ""
    if len(hits) > 1:
        numbers = ", ".join(map(str, hits))
        return None, f"'{text}' starts choices {numbers}: type the number of the one you mean"
    if action is not None:
        reason = f"'{text}' is not legal now: {state.why_illegal(action)}"
    return None, reason


def table_text(state: GameState, seat: int | None, names: Sequence[str] | None = None) -> str:
    """The board, the players' panel and the decision, as plain text (also the RL
    environments' ``render()``)."""
    return table_rich(state, seat, names).plain


def table_rich(state: GameState, seat: int | None, names: Sequence[str] | None = None) -> Text:
    """The board (Monopoly's in its group colours), the players' panel and the decision
    (``GameFamily.table``)."""
    return family_of_state(state).table(state, seat, names)


def panel_text(state: GameState, seat: int | None, names: Sequence[str] | None = None) -> str:
    """The players' panel and the decision (no board), as plain text."""
    return "\n".join(family_of_state(state).panel_lines(state, seat, names))


def _seats(
    console: Console,
    spec: str | None,
    names: str | None,
    players: int,
    family: str,
    seed: int,
    ask: AskSettings,
    state: GameState | None = None,
) -> list[Seat]:
    if spec is None:
        default = "standard" if "standard" in bot_kinds(family) else "random"
        kinds = [HUMAN] + [default] * (players - 1)
    else:
        kinds = [k.strip() for k in spec.split(",") if k.strip()]
    if len(kinds) != players:
        listed = f"{len(kinds)} seat" + ("" if len(kinds) == 1 else "s")
        raise _fail(console, f"--seats lists {listed} for a {players}-player game")
    known = bot_kinds(family)
    for k in kinds:
        # A kind may take an argument (``mcts:200``, ``policy:FILE``): checked by make_bot below.
        if k != HUMAN and k.partition(":")[0] not in known:
            raise _fail(console, f"unknown seat {k!r}: 'human' or a bot ({', '.join(known)})")
    given = [x.strip() for x in names.split(",")] if names else []
    if given and len(given) != players:
        listed = f"{len(given)} name" + ("" if len(given) == 1 else "s")
        raise _fail(
            console, f"--names lists {listed} for {players} seats: one per seat, comma-separated"
        )
    out = []
    for i, k in enumerate(kinds):
        name = given[i] if given else f"Player {i + 1}"
        try:
            bot = None if k == HUMAN else make_bot(k, family, derive_seed(seed, 1 + i))
            check = getattr(bot, "check_game", None)  # a policy bot: trained for this game?
            if check is not None and state is not None:
                check(state)
        except ValueError as exc:
            raise _fail(console, str(exc)) from None
        out.append(Seat(i, k, name, bot, ask))
    return out


def _ask_settings(
    console: Console, others_turns: str | None, own_turn: str | None
) -> dict[str, str]:
    """The human seats' settings the options set (the game's own for those left out); exit 2
    naming the option if one is wrong."""
    if others_turns is not None and others_turns not in OTHERS_TURNS:
        raise _fail(
            console, f"--others-turns must be {', '.join(OTHERS_TURNS)}, not {others_turns!r}"
        )
    if own_turn is not None and own_turn not in OWN_TURN:
        raise _fail(console, f"--own-turn must be {', '.join(OWN_TURN)}, not {own_turn!r}")
    given = {"others_turns": others_turns, "own_turn": own_turn}
    return {k: v for k, v in given.items() if v is not None}


SeatsOption = Annotated[
    str | None,
    typer.Option(
        help="'human' or a bot kind per seat, comma-separated (default: you, then standard bots)."
    ),
]
PlayersOption = Annotated[
    int | None, typer.Option(help="Number of seats (default: as many as --seats lists, or 4).")
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        min=0, max=MAX_SEED, help="Seed of the game, 0 to 2**63 - 1 (default: a random one)."
    ),
]
SaveOption = Annotated[Path | None, typer.Option(help="Save the game to FILE after every action.")]
ResumeOption = Annotated[
    Path | None, typer.Option(help="Continue the game saved in FILE (and keep saving to it).")
]
FromOption = Annotated[
    Path | None,
    typer.Option(
        "--from",
        help="Play on from the position in FILE (JSON or TOML: see `meeple position`); "
        "with --seed, its hidden future (dice, the decks' order) is re-drawn from the seed.",
    ),
]
NamesOption = Annotated[str | None, typer.Option(help="Names of the seats, comma-separated.")]
OthersTurnsOption = Annotated[
    str | None,
    typer.Option(
        help="When humans are asked in other players' turns (to build, mortgage or trade "
        "there): never, build (only when they can build) or always. Default: the game's "
        "(never)."
    ),
]
OwnTurnOption = Annotated[
    str | None,
    typer.Option(
        help="When humans are asked in their own turn: build (only when they can build), "
        "roll (before each roll) or always (also at the end of the turn). Default: the "
        "game's (build; roll in My First Monopoly, where the child rolls the die)."
    ),
]
HintsOption = Annotated[
    bool,
    typer.Option(
        help="Whether humans may ask the advisor for a hint ('hint': each choice's "
        "chance of winning)."
    ),
]


def play(
    game: GameArgument = None,
    seats: SeatsOption = None,
    players: PlayersOption = None,
    seed: SeedOption = None,
    save: SaveOption = None,
    resume: ResumeOption = None,
    from_file: FromOption = None,
    names: NamesOption = None,
    others_turns: OthersTurnsOption = None,
    own_turn: OwnTurnOption = None,
    hints: HintsOption = True,
    rule: RuleArgs = None,
) -> None:
    """Play a game at the terminal: humans and bots, every legal choice numbered."""
    console = make_console(highlight=False)
    ask = _ask_settings(console, others_turns, own_turn)
    if resume is not None and from_file is not None:
        raise _fail(console, "--resume and --from do not go together: give one")
    if resume is not None and rule:
        raise _fail(
            console,
            "a saved game goes on with the rules it started with: --rule does not go with --resume",
        )
    if resume is not None and seed is not None:
        raise _fail(
            console, "a saved game goes on with its own seed: --seed does not go with --resume"
        )
    if resume is not None or from_file is not None:
        state, family = _loaded(console, game, players, seed, resume, from_file, rule)
        save = save or resume
    else:
        state, family = _started(console, game, players, seed, seats, rule)
    try:
        settings = AskSettings.from_dict(
            {**for_game(state.game_id, state.options, TERMINAL_DEFAULT).to_dict(), **ask}
        )
    except ValueError as exc:
        raise _fail(console, escape(str(exc))) from None
    table = _seats(console, seats, names, state.num_players, family, state.seed, settings, state)
    if save is not None:  # before the first move, not after it (cli/paths.py)
        output_file(save, "--save" if save != resume else "--resume")
    state.record_events = True
    console.print(", ".join(s.label() for s in table), markup=False)
    _introduce(console, state, table)
    if not state.history:  # a new game: who starts, and how they were chosen
        named = [s.name for s in table]
        for event in state.setup_events():
            console.print("  " + _named(state.describe(event), named), style="dim", markup=False)
    try:
        _loop(console, state, table, save, Reasons(hints))
    except (EOFError, KeyboardInterrupt):
        console.print("\nStopped." + (f" The game is saved in {save}." if save else ""))
        raise typer.Exit(0) from None


def _loaded(
    console: Console,
    game: str | None,
    players: int | None,
    seed: int | None,
    resume: Path | None,
    from_file: Path | None,
    rule: list[str] | None,
) -> tuple[GameState, str]:
    """The game saved in ``resume``, or the one at the position in ``from_file`` (its hidden
    future re-drawn from ``seed``, under the rules ``rule`` sets), and its family; each must
    agree with the game and seats given."""
    source = resume or from_file
    assert source is not None
    try:
        state = load_game(source) if resume is not None else load_position(source)
    except MeepleError as exc:
        raise _fail(console, str(exc)) from None
    if game is not None and game != state.game_id:
        raise _fail(console, f"{source} holds a game of {state.game_id!r}, not {game!r}")
    if players is not None and players != state.num_players:
        raise _fail(console, f"{source} holds a {state.num_players}-player game")
    if from_file is not None and (seed is not None or rule):
        # The same position, its hidden future (dice, the decks' order) re-drawn from the
        # seed, as `meeple simulate --from` draws each game's; or the position again
        # under the rules --rule sets (the game's options hold the position).
        options = _with_rules(console, state.game_id, state.options, rule)
        if seed is not None:
            options["redraw"] = seed
        at = state.seed if seed is None else seed
        state = _made(console, state.game_id, state.num_players, at, options)
    family = game_family(state.game_id, state.options)
    if resume is not None:
        console.print(
            f"Resuming {state.game_id} (seed {state.seed}) after {len(state.history)} actions."
        )
    else:
        redrawn = "" if seed is None else f", its dice and decks re-drawn from seed {seed}"
        console.print(f"Playing {state.game_id} from the position in {source}{redrawn}.")
    return state, family


def _started(
    console: Console,
    game: str | None,
    players: int | None,
    seed: int | None,
    seats: str | None,
    rule: list[str] | None,
) -> tuple[GameState, str]:
    """A new game of ``game`` (as many seats as given, or as ``--seats`` lists, or 4 within
    the game's range; a random seed unless given), and its family."""
    if game is None:
        raise _fail(console, "give a game id (see `meeple editions`), --resume FILE or --from FILE")
    try:
        info = game_info(game)
    except MeepleError as exc:
        raise _fail(console, str(exc)) from None
    count = len(seats.split(",")) if seats else max(info.min_players, min(4, info.max_players))
    count = players if players is not None else count
    if not info.min_players <= count <= info.max_players:
        raise _fail(
            console,
            f"{game} is for {info.min_players} to {info.max_players} players, not {count}",
        )
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    state = _made(console, game, count, seed, _with_rules(console, game, {}, rule))
    console.print(f"{info.title}: {count} players, seed {seed}.")
    return state, info.family


def _with_rules(
    console: Console, game: str, options: dict[str, Any], given: list[str] | None
) -> dict[str, Any]:
    """``options`` with the rules ``--rule NAME=VALUE`` sets, each value parsed by its
    option's kind; exit 2 naming a bad option and what it takes."""
    if not given:
        return dict(options)
    try:
        chosen = parse_rule_args(family_of(game, options).rule_options(game, options), given, game)
    except ValueError as exc:
        raise _fail(console, escape(str(exc))) from None
    return {**options, RULES: {**(options.get(RULES) or {}), **chosen}}


def _made(
    console: Console, game: str, players: int, seed: int, options: dict[str, Any]
) -> GameState:
    """The new game, or exit 2 with the reason its options are refused (rules that do not go
    together, as the family checks them)."""
    try:
        return new_game(game, players, seed, options)
    except (MeepleError, ValueError) as exc:
        raise _fail(console, escape(str(exc))) from None


def _introduce(console: Console, state: GameState, table: list[Seat]) -> None:
    """How to answer, the rules changed for this game, and when each human is asked (once, at
    the start; 'help' and 'info' say more)."""
    for line in rules_in_force(state):
        console.print(f"House rule: {line}", markup=False)
    console.print(INTRO, style="dim", markup=False)
    if family_of_state(state).asking_note:
        return  # the family has no rolls nor other players' turns to act in
    for seat in table:
        if seat.human:
            console.print(
                f"{seat.name}, you are asked {ask_words(seat.ask)} ('ask' to change it; "
                "'wait' at any prompt to be asked at your next chance to act).",
                style="dim",
                markup=False,
            )


def _help(state: GameState) -> str:
    return family_of_state(state).terminal_help + " " + COMMANDS


def _loop(
    console: Console, state: GameState, table: list[Seat], save: Path | None, why: Reasons
) -> None:
    names = [s.name for s in table]
    drawn_for = -1  # the human the table was last shown to, -1 once anyone else moved
    last_board = ""  # the board as last drawn
    while not state.is_terminal():
        p = state.current_player()
        seat = table[p]
        if seat.human:
            move = auto_move(state, p, seat.ask, seat.held)
            if move is not None:
                _say_move_on(console, state, seat, move, names)
                action = move.action
            else:
                # The whole table is drawn when a human starts deciding after anyone else
                # moved and the board changed (an auction or a trade does not change it); while
                # the same human goes on deciding, only the players' panel and the decision.
                board = _board_plain(state)
                if drawn_for != p and board != last_board:
                    _draw(console, state, p, names)
                    last_board = board
                else:
                    console.print(Text(panel_text(state, p, names)))
                drawn_for = p
                reply = _ask(console, state, seat, names, why)
                if reply is None:
                    console.print("Stopped." + (f" The game is saved in {save}." if save else ""))
                    return
                if isinstance(reply, Again):
                    continue
                action = reply
                moving_on = state.move_on()
                if seat.held and moving_on is not None and action == moving_on.action:
                    seat.held = False  # moving on ends the hold, as on the web
        else:
            assert seat.bot is not None
            action = seat.bot.choose(state)
            drawn_for = -1
            reason = seat.bot.explain(state, action)  # (on the position it chose in)
            said = f"{seat.name} ({seat.kind}): {choice_words(state, action, names)}"
            why.last = f"{said}: {reason}." if reason else f"{said} ({seat.kind} says no more)."
            if not _quiet(state, action):
                console.print(said, markup=False)
                if why.every and reason:
                    console.print(f"  (why: {reason})", style="italic", markup=False)
        for event in state.apply(action):
            text = _named(state.describe(event), names)
            console.print("  " + text, style="dim", markup=False)
        if save is not None:
            try:
                save_game(state, save)
            except OSError as exc:  # the disk filled up, the folder went: the last save stands
                raise _fail(
                    console,
                    f"cannot save to {save} ({exc.strerror or exc}); it holds the game as it "
                    "was before this action",
                ) from None
    _draw(console, state, None, names)
    _finish(console, state, table)


def _board_plain(state: GameState) -> str:
    """The board alone (no panel), to tell whether it changed since it was drawn."""
    return family_of_state(state).board_plain(state)


def _quiet(state: GameState, action: Action) -> bool:
    """A bot passing in another player's turn: nothing to show (issue 16: a quiet screen)."""
    move = state.move_on()
    return move is not None and move.moment == OTHERS_TURN and action == move.action


def _say_move_on(
    console: Console, state: GameState, seat: Seat, move: MoveOn, names: Sequence[str]
) -> None:
    """One short dim line for a move made without asking; none for a pass in another
    player's turn (that happens after every turn)."""
    if move.moment == ROLL:
        text = f"{seat.name} rolls."
    elif move.moment == END_TURN:
        text = f"{seat.name} ends the turn."
    elif move.moment == FORCED:
        text = f"{seat.name}: {choice_words(state, move.action, names)} (the only choice)."
    else:
        return
    console.print(text, style="dim", markup=False)


_PLAYER_N: Final = re.compile(r"\bPlayer (\d+)\b")


def _named(text: str, names: Sequence[str]) -> str:
    """An engine text with ``Player N`` replaced by the seat's name, when seats have names."""
    if all(name == f"Player {i + 1}" for i, name in enumerate(names)):
        return text

    def name_of(m: re.Match[str]) -> str:
        q = int(m.group(1)) - 1
        return names[q] if 0 <= q < len(names) else m.group(0)

    return _PLAYER_N.sub(name_of, text)


def _draw(console: Console, state: GameState, seat: int | None, names: Sequence[str]) -> None:
    console.print(Panel(table_rich(state, seat, names), title=state.game_id, expand=False))


def _show_choices(console: Console, state: GameState, seat: Seat, names: Sequence[str]) -> None:
    """The numbered choices, and how to type an amount that is not listed."""
    legal = state.legal_actions()
    console.print(f"[bold]{escape(seat.name)}[/], your choice:")
    for i, a in enumerate(legal, 1):
        console.print(f"  {i:>2}) {choice_words(state, a, names)}", markup=False)
    for hint in _amount_hints(state, legal):
        console.print(f"      {hint}", style="dim", markup=False)


def _amount_hints(state: GameState, legal: Sequence[Action]) -> list[str]:
    """The typed form of actions that take any amount, not only the listed ones (the list
    shows words only; ``help`` gives the typed forms of the rest)."""
    kinds = {a.kind for a in legal}
    out = []
    if "bid" in kinds:
        low = min(a.args[0] for a in legal if a.kind == "bid")
        high = state.money_of(state.current_player())
        out.append(f"(or type 'bid N' for any bid from {low} to {high})")
    if "trade_cash" in kinds:
        out.append("(or type 'trade_cash N' for any amount: you pay N, or they do if N < 0)")
    return out


def _ask(
    console: Console, state: GameState, seat: Seat, names: Sequence[str], why: Reasons
) -> Action | Again | None:
    """Prompt ``seat`` until it names a legal action; ``None`` if it quits, :data:`AGAIN` if
    its settings changed so that the decision now moves on by itself."""
    _show_choices(console, state, seat, names)
    while True:
        text = console.input(f"[bold]{escape(seat.name)}[/] > ").strip()
        low = " ".join(text.lower().split())
        word, _, rest = low.partition(" ")
        # A choice's own words come first: no command takes them (issue 38: "Ask for
        # Boardwalk (Bob's)" is a choice); a command is a command only in its own form.
        chosen = exact_choice(state, text, names)
        if chosen is not None:
            return chosen
        if low in ("quit", "q", "exit"):
            return None
        if low in ("help", "?"):
            console.print(_help(state), markup=False)
        elif low in ("board", "b"):
            _draw(console, state, seat.index, names)
            _show_choices(console, state, seat, names)
        elif low == "info":
            _info(console, state)
            _show_choices(console, state, seat, names)
        elif word == "deed":
            _deed(console, state, seat.index, rest, names)
        elif low in ("why", "why on", "why off"):
            if rest in ("on", "off"):
                why.every = rest == "on"
                console.print(
                    "Each bot move now comes with its reason."
                    if why.every
                    else "Bot moves come without reasons ('why' asks for the last one).",
                    markup=False,
                )
            else:
                console.print(why.last or "No bot has moved yet.", markup=False)
        elif low == "hint":
            _hint(console, state, seat, why.hints)
        elif low == "wait":
            note = family_of_state(state).asking_note  # a family where every choice asks
            seat.held = not note
            console.print(
                note
                or "You will be asked at your next chance to act, whatever 'ask' says, until "
                "you move on (pass, roll or end your turn).",
                markup=False,
            )
        elif is_ask_command(low) and family_of_state(state).asking_note:
            console.print(family_of_state(state).asking_note, markup=False)
        elif is_ask_command(low):
            settings, answer = ask_command(rest.split(), seat.ask)
            console.print(answer, markup=False)
            if settings is not None:
                seat.ask = settings
                if auto_move(state, seat.index, settings) is not None:
                    return AGAIN
        else:
            action, reason = parse_choice(state, text, names)
            if action is not None:
                return action
            if word == "ask":
                reason += f" (the ask command: {ASK_USAGE})"
            console.print(f"[red]Not accepted:[/] {escape(reason)}")


def _hint(console: Console, state: GameState, seat: Seat, allowed: bool) -> None:
    """``hint``: the advisor's table for this decision (:mod:`meeple.bots.advisor`), each
    option with the number to type when it is one of the listed choices."""
    if not allowed:
        console.print("Hints are off at this table.", markup=False)
        return
    console.print(f"Thinking for {DEFAULT_SECONDS:g} seconds...", style="dim", markup=False)
    try:
        advice = advise(state, seat.index, seconds=DEFAULT_SECONDS)
    except AdviceError as exc:
        console.print(f"No hint: {exc}.", markup=False)
        return
    legal = state.legal_actions()
    lines = advice.lines()
    for o, line in zip(advice.options, lines, strict=False):
        number = f"{legal.index(o.action) + 1:>2})" if o.action in legal else "   "
        console.print(f"  {number} {line}", markup=False)
    for line in lines[len(advice.options) :]:
        console.print(f"  {line}", style="dim", markup=False)


def _info(console: Console, state: GameState) -> None:
    """The rules in short (``GameState.rules_summary``: from the edition's rule options, with
    the game's own), then those changed for this game."""
    for line in state.rules_summary() or ["This game has no summary of its rules."]:
        console.print(line, markup=False)
    for line in rules_in_force(state):
        console.print(f"Changed for this game: {line}", markup=False)


def _deed(console: Console, state: GameState, seat: int, text: str, names: Sequence[str]) -> None:
    """``deed N``: the title deed of square N, or of the square whose name starts with N
    (``GameFamily.card_lines``)."""
    for line in family_of_state(state).card_lines(state, seat, text, names):
        console.print(line, markup=False)


def _finish(console: Console, state: GameState, table: list[Seat]) -> None:
    r = state.result()
    assert r is not None
    winners = " and ".join(table[w].name for w in r.winners)
    console.print(
        f"[bold]Game over[/] ({r.end_reason.replace('_', ' ')}, {r.turns} turns). "
        f"Winner: {escape(winners)}."
    )
    scores: list[Any] = list(r.scores)
    for place, q in enumerate(r.ranking, 1):
        score = f" ({scores[q]:g})" if q < len(scores) else ""
        console.print(f"  {place}. {table[q].name}{score}", markup=False)
