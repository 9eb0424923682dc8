"""``meeple play``: a game at the terminal, humans and bots, for every game id.

Issue "Play in the terminal": a compact board and player panel (Monopoly:
:mod:`meeple.games.monopoly.render`; Monopolis: the city of
:mod:`meeple.games.monopolis.render` and a panel here), every decision offered as a numbered
list of exactly the legal actions in words (``describe_action``), answered by a number or by
the action's text (``bid 137``: any amount in range is accepted, as the engine does). The
any-time actions (build, mortgage, trade, ...) appear in the list wherever the engine's
windows offer them (docs/KERNEL.md, "Monopoly: phases, frames and windows"). Several humans
may share the keyboard: each prompt names the seat that decides. Bots move with one printed
line. ``--save FILE`` writes the game after every action (``meeple.kernel.saves``);
``--resume FILE`` continues a saved game (and keeps saving to it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from meeple.bots.base import Bot, bot_kinds, make_bot
from meeple.games.registry import game_family, game_info, new_game
from meeple.kernel.errors import MeepleError
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import load_game, save_game

HUMAN = "human"
HELP = (
    "Type the number of a choice or its action text (e.g. 'roll', 'bid 137'); "
    "'board' redraws the table, 'help' shows this, 'quit' stops (the save file keeps the game)."
)


def _fail(console: Console, message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


class Seat:
    """One seat at the table: a human (prompted by name) or a bot."""

    def __init__(self, index: int, kind: str, name: str, bot: Bot | None) -> None:
        self.index = index
        self.kind = kind
        self.name = name
        self.bot = bot

    @property
    def human(self) -> bool:
        return self.bot is None

    def label(self) -> str:
        return f"{self.name} (seat {self.index + 1}, {self.kind})"


def parse_choice(state: GameState, text: str) -> tuple[Action | None, str]:
    """The action a human typed, or ``None`` and the reason it was refused.

    Accepts the number of a listed choice, an action's text (``roll``, ``build 39``, any bid
    in range) or a choice's words (``Roll the dice``), case-insensitively.
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
    lowered = text.lower()
    for a in legal:
        if lowered == state.describe_action(a).lower():
            return a, ""
    try:
        action = Action.parse(lowered)
    except ValueError as exc:
        return None, f"{exc}; type a number from 1 to {len(legal)} or an action's text"
    if state.is_legal(action):
        return action, ""
    why = getattr(state, "why_illegal", None)
    reason = str(why(action)) if callable(why) else "it is not one of the choices now"
    return None, f"'{text}' is not legal now: {reason}"


def table_text(state: GameState, seat: int | None) -> str:
    """The board, the players' panel and the decision, as plain text."""
    from meeple.games.monopoly.state import MonopolyState

    if isinstance(state, MonopolyState):
        from meeple.games.monopoly.render import render_board

        return render_board(state, seat) + "\n" + panel_text(state, seat)
    return state.render() + "\n" + panel_text(state, seat)


def panel_text(state: GameState, seat: int | None) -> str:
    """The players' panel and the decision (no board), as plain text."""
    from meeple.games.monopoly.state import MonopolyState

    if isinstance(state, MonopolyState):
        from meeple.games.monopoly.render import decision_line, player_lines

        return "\n".join([*player_lines(state, seat), decision_line(state, seat)])
    return "\n".join(monopolis_panel(state, seat))


def monopolis_panel(state: GameState, seat: int | None) -> list[str]:
    """The Monopolis seats, the market and the decision, one line each."""
    v = state.view(seat)
    lines = []
    for pl in v["seats"]:
        q = pl["seat"]
        mark = ">" if q == v["current_player"] else " "
        res = ", ".join(f"{k} {n}" for k, n in pl["resources"].items() if n) or "no resources"
        lines.append(
            f"{mark}P{q + 1}: money {pl['money']}, {res}, jokers {pl['jokers']}, "
            f"houses left {pl['houses_left']}, cards {len(pl['cards'])}"
        )
    market = []
    for place in v["market"]:
        card = place["card"]
        if card is None:
            market.append(f"{place['slot']}: -")
            continue
        what = "+".join(card["resources"]) or "nothing"
        if card["liza"]:
            what += "+joker"
        if card["coins"]:
            what += f"+{card['coins']} money"
        market.append(f"{place['slot']}: {what} ({place['price']})")
    lines.append("Market: " + "; ".join(market))
    tiles = ", ".join(f"{val}: {t['count']}" for val, t in v["tile_supply"].items())
    lines.append(f"Tiles left by value: {tiles}")
    if v["result"] is None:
        lines.append(
            f"Turn {v['turns'] + 1}: Player {v['current_player'] + 1} decides "
            f"({v['phase']}, action {v['actions_done'] + 1} of 2)"
            + ("; final round" if v["final_round"] else "")
        )
    return lines


def _seats(
    console: Console, spec: str | None, names: str | None, players: int, family: str, seed: int
) -> list[Seat]:
    if spec is None:
        default = "standard" if "standard" in bot_kinds(family) else "random"
        kinds = [HUMAN] + [default] * (players - 1)
    else:
        kinds = [k.strip() for k in spec.split(",") if k.strip()]
    if len(kinds) != players:
        raise _fail(console, f"--seats lists {len(kinds)} seats for a {players}-player game")
    known = bot_kinds(family)
    for k in kinds:
        if k != HUMAN and k not in known:
            raise _fail(console, f"unknown seat {k!r}: 'human' or a bot ({', '.join(known)})")
    given = [x.strip() for x in names.split(",")] if names else []
    if given and len(given) != players:
        raise _fail(console, f"--names lists {len(given)} names for {players} seats")
    out = []
    for i, k in enumerate(kinds):
        name = given[i] if given else f"Player {i + 1}"
        bot = None if k == HUMAN else make_bot(k, family, derive_seed(seed, 1 + i))
        out.append(Seat(i, k, name, bot))
    return out


def play(
    game: Annotated[
        str | None, typer.Argument(help="Game or edition id (see `meeple editions`).")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="'human' or a bot kind per seat, comma-separated "
            "(default: you, then standard bots)."
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of seats (default: as many as --seats lists, or 4).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the game (default: a random one, printed).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Save the game to FILE after every action.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the game saved in FILE (and keep saving to it).")
    ] = None,
    names: Annotated[str | None, typer.Option(help="Names of the seats, comma-separated.")] = None,
) -> None:
    """Play a game at the terminal: humans and bots, every legal choice numbered."""
    console = Console(highlight=False)
    if resume is not None:
        try:
            state = load_game(resume)
        except MeepleError as exc:
            raise _fail(console, str(exc)) from None
        if game is not None and game != state.game_id:
            raise _fail(console, f"{resume} holds a game of {state.game_id!r}, not {game!r}")
        if players is not None and players != state.num_players:
            raise _fail(console, f"{resume} holds a {state.num_players}-player game")
        save = save or resume
        family = game_family(state.game_id, state.options)
        console.print(
            f"Resuming {state.game_id} (seed {state.seed}) after {len(state.history)} actions."
        )
    else:
        if game is None:
            raise _fail(console, "give a game id (see `meeple editions`) or --resume FILE")
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
        state = new_game(game, count, seed)
        family = info.family
        console.print(f"{info.title}: {count} players, seed {seed}.")
    table = _seats(console, seats, names, state.num_players, family, state.seed)
    state.record_events = True
    console.print(", ".join(s.label() for s in table))
    console.print(HELP, style="dim")
    try:
        _loop(console, state, table, save)
    except (EOFError, KeyboardInterrupt):
        console.print("\nStopped." + (f" The game is saved in {save}." if save else ""))
        raise typer.Exit(0) from None


def _loop(console: Console, state: GameState, table: list[Seat], save: Path | None) -> None:
    # The whole table is drawn when a human starts deciding after anyone else moved; while the
    # same human goes on deciding, only the players' panel and the decision are shown again.
    drawn_for = -1
    while not state.is_terminal():
        p = state.current_player()
        seat = table[p]
        if seat.human:
            if drawn_for != p:
                _draw(console, state, p)
                drawn_for = p
            else:
                console.print(Text(panel_text(state, p)))
            action = _ask(console, state, seat)
            if action is None:
                console.print("Stopped." + (f" The game is saved in {save}." if save else ""))
                return
        else:
            assert seat.bot is not None
            action = seat.bot.choose(state)
            drawn_for = -1
            console.print(
                f"{seat.name} ({seat.kind}): {state.describe_action(action)}", markup=False
            )
        for event in state.apply(action):
            console.print("  " + state.describe(event), style="dim", markup=False)
        if save is not None:
            save_game(state, save)
    _draw(console, state, None)
    _finish(console, state, table)


def _draw(console: Console, state: GameState, seat: int | None) -> None:
    console.print(Panel(Text(table_text(state, seat)), title=state.game_id, expand=False))


def _ask(console: Console, state: GameState, seat: Seat) -> Action | None:
    """Prompt ``seat`` until it names a legal action; ``None`` if it quits."""
    legal = state.legal_actions()
    console.print(f"[bold]{escape(seat.name)}[/], your choice:")
    for i, a in enumerate(legal, 1):
        console.print(f"  {i:>2}) {escape(state.describe_action(a))}  [dim]{escape(f'[{a}]')}[/]")
    while True:
        text = console.input(f"[bold]{escape(seat.name)}[/] > ").strip()
        low = text.lower()
        if low in ("quit", "q", "exit"):
            return None
        if low in ("help", "?"):
            console.print(HELP)
            continue
        if low in ("board", "b"):
            _draw(console, state, seat.index)
            continue
        action, reason = parse_choice(state, text)
        if action is not None:
            return action
        console.print(f"[red]Not accepted:[/] {escape(reason)}")


def _finish(console: Console, state: GameState, table: list[Seat]) -> None:
    r = state.result()
    assert r is not None
    winners = " and ".join(table[w].name for w in r.winners)
    console.print(
        f"[bold]Game over[/] ({r.end_reason.replace('_', ' ')}, {r.turns} turns). "
        f"Winner: {winners}."
    )
    scores: list[Any] = list(r.scores)
    for place, q in enumerate(r.ranking, 1):
        score = f" ({scores[q]:g})" if q < len(scores) else ""
        console.print(f"  {place}. {table[q].name}{score}")
