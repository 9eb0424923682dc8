"""Game families as plugins: the one registry of game ids, and what each family gives drivers.

A game family (Monopoly with its editions, Monopolis) is one :class:`GameFamily` object that
its package, ``meeple.games.<family>``, exposes and registers. It says how to make a game from
an id and options, which bots and search support it has, how the web page draws its board, how
the terminal shows it, how the RL environments encode its actions and observations, and how a
replay tells its story. The drivers (the simulator, the server, the terminal, the saves and the
RL environments) ask the family and never name one, so adding a family touches no driver
(docs/KERNEL.md, "Adding a game family"; OpenSpiel's ``Game`` registry and TAG's
``GameType`` are the models).

Families are found through the ``meeple.families`` entry point group (``pyproject.toml``), so
an installed package can add one, and :func:`register_family` adds one at run time (a test's
toy game). Entry points are loaded by name, never imported here, so the kernel imports no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from meeple.kernel.errors import MeepleError, PositionError, UnknownGameError
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import RenderableType
    from rich.text import Text

    from meeple.kernel.bot import BotFactory
    from meeple.kernel.encoding import ActionEncoding, Observer
    from meeple.kernel.options import RuleOption
    from meeple.kernel.search import SearchFamily

ENTRY_POINTS = "meeple.families"
"""The entry point group whose objects are :class:`GameFamily` instances."""

GameFactory = Callable[[int, int, dict[str, Any]], GameState]
"""``factory(players, seed, options) -> GameState``."""

GameMaker = Callable[[int], GameState]
"""``make(seed) -> GameState``: one kind of game, from any seed (:func:`game_maker`)."""


class GameFile:
    """A game read from a file (:func:`read_game_file`): its id, the options that make it
    (``new_game(game, players, seed, options)``) and its player range."""

    __slots__ = ("game", "max_players", "min_players", "options")

    def __init__(
        self, game: str, options: dict[str, Any], min_players: int, max_players: int
    ) -> None:
        self.game = game
        self.options = options
        self.min_players = min_players
        self.max_players = max_players


class GameInfo:
    """A registered game id: its family, title, player range and factory."""

    __slots__ = ("factory", "family", "game_id", "max_players", "min_players", "title")

    def __init__(
        self,
        game_id: str,
        family: str,
        title: str,
        min_players: int,
        max_players: int,
        factory: GameFactory,
    ) -> None:
        self.game_id = game_id
        self.family = family
        self.title = title
        self.min_players = min_players
        self.max_players = max_players
        self.factory = factory


class GameFamily:
    """One game family, as the drivers see it. Subclasses fill in what their games have.

    The defaults describe a family with nothing beyond the kernel protocol: no bots but the
    drivers' own (``random``, and ``mcts`` when :attr:`search` is set), the state's
    :meth:`~GameState.render` as its board, no RL encoding.
    """

    #: The family id (``"monopoly"``): the ``family`` of its game ids and its states.
    name: str = ""
    #: Where the family's game ids come in lists (the lobby, ``meeple games``): lower first,
    #: then by name.
    order: int = 100
    #: Action kinds whose moves stay private in a replay (drafting a trade offer, say).
    private_moves: frozenset[str] = frozenset()
    #: Action kinds whose one argument is a seat, counted from 0 in the action's text (the
    #: API's form): the terminal reads that argument as a person writes a player, ``P2`` or
    #: a name, never as a bare number (issue 38: no 0-based seat in a text a person types).
    seat_moves: frozenset[str] = frozenset()
    #: The terminal's help on typing this family's actions (``help``).
    terminal_help: str = "Type the number of a choice, or an action's text."
    #: Empty when a person's asking settings apply (``meeple.kernel.asking``); otherwise why
    #: this family has none (no rolls, no other players' turns to act in).
    asking_note: str = ""
    #: The family's ruleset: raised whenever a change of the rules' defaults would make an
    #: old game play differently. :func:`new_game` stamps a new game's options with it
    #: (``options["ruleset"]``); a game stored or saved before rulesets existed is ruleset 1
    #: (:data:`RULESET`), and the family plays each ruleset as it was (Monopolis 2: the start
    #: player chosen as the rulebook says, in 1 seat 1 started; Monopoly 3:
    #: ``games/monopoly/rules/rulesets.py``).
    ruleset: int = 1

    # -- games ---------------------------------------------------------------------------------

    def games(self) -> Sequence[GameInfo]:
        """The game ids this family registers, in the order a user should see them."""
        raise NotImplementedError

    def asking(self, game_id: str, options: Mapping[str, Any]) -> Mapping[str, str]:
        """The asking settings a person starts with in this game, where they differ from the
        front ends' (``meeple.kernel.asking.for_game``: ``own_turn``, ``others_turns``).
        None by default: a person is asked for the real decisions only."""
        return {}

    def claims(self, options: Mapping[str, Any]) -> bool:
        """Whether ``options`` describe a game of this family by themselves (a Monopoly
        edition given as data), whatever the game id says."""
        return False

    def from_options(self, players: int, seed: int, options: dict[str, Any]) -> GameState:
        """The game ``options`` describe (only called when :meth:`claims` is true)."""
        raise NotImplementedError

    def game_maker(self, info: GameInfo | None, players: int, options: dict[str, Any]) -> GameMaker:
        """The game ``info`` (``None``: the one ``options`` describe, :meth:`claims`) with
        ``players`` seats and ``options`` (stamped and checked by :func:`game_maker`), as a
        function of the seed. By default each game is made as :func:`new_game` always made
        one, through the factory or :meth:`from_options`, with options of its own; a family
        overrides this to do once what all its games of one kind share (Monopoly finds or
        parses the edition once), since a simulation makes thousands of them. The games must
        be the ones the default makes, seed for seed; callers must not change ``options``."""
        if info is None:
            return lambda seed: self.from_options(players, seed, dict(options))
        factory = info.factory
        return lambda seed: factory(players, seed, dict(options))

    # -- a game's printed components, as a file -------------------------------------------------

    def recognises_file(self, path: Path) -> bool:
        """Whether the file at ``path`` is plainly one of this family's game files (a Monopolis
        components file has requirement cards), so this family reads it whatever the order of
        the families; a file no family recognises goes to the first that reads files, which
        says what is wrong with it (:func:`read_game_file`)."""
        return False

    def read_game_file(self, path: Path) -> GameFile | None:
        """The game a file describes (a Monopoly edition file, Monopolis components), or None
        when this family reads no such files; :class:`~meeple.kernel.errors.MeepleError` names
        what is wrong with a file it does read."""
        return None

    def describe(
        self, game_id: str, options: Mapping[str, Any], source: str = ""
    ) -> RenderableType | None:
        """A game's printed components and rule options in words (``meeple editions show``),
        or None when the family has no such description. ``source``: the file the game was
        read from, if it was (:meth:`read_game_file`), to name where the values come from."""
        return None

    def export(self, game_id: str, options: Mapping[str, Any]) -> str | None:
        """A game as an editable file that :meth:`read_game_file` reads back (``meeple
        editions export``), or None."""
        return None

    # -- rule options (meeple.kernel.options) ---------------------------------------------------

    def rule_options(self, game_id: str, options: Mapping[str, Any]) -> list[RuleOption]:
        """The rules a table may set for one game of ``game_id`` made with ``options`` (which
        may give the edition as data), each with the edition's value as its default: what
        ``--rule NAME=VALUE``, the lobby and ``POST /api/games`` offer, and what a game's
        ``options["rules"]`` may hold. None by default."""
        return []

    # -- bots ----------------------------------------------------------------------------------

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """This family's own bot kinds (``standard``, ``param``), besides the drivers'."""
        return {}

    #: Bot kinds kept for measuring (an earlier version of a bot), not offered to people in
    #: the web lobby; they still play in simulations, the arena and the terminal.
    retired_bots: frozenset[str] = frozenset()

    @property
    def search(self) -> SearchFamily | None:
        """What the ``mcts`` bot needs to search this family's games; ``None``: no search."""
        return None

    # -- positions (meeple.kernel.position) ----------------------------------------------------

    def position(self, state: GameState) -> dict[str, Any]:
        """``state``'s position as data: what :meth:`at_position` sets up again."""
        raise ValueError(f"game family {self.name!r} has no position format")

    def at_position(self, state: GameState, data: dict[str, Any]) -> GameState:
        """The game ``state`` (just started, no actions yet) moved to the position ``data``
        describes; fields left out keep their starting values. ``PositionError`` names every
        malformed field."""
        raise ValueError(f"game family {self.name!r} has no position format")

    def problems(self, state: GameState) -> list[str]:
        """What is wrong with ``state``'s position, in words; empty when it is consistent."""
        return []

    def audit(self, state: GameState) -> list[str]:
        """Every invariant ``state`` breaks, in words (what must hold after every action: the
        position's checks and the family's own, such as caches agreeing with the board);
        empty when it is sound. The random-play tests run it after every action."""
        return self.problems(state)

    def redraw(self, state: GameState, seed: int) -> None:
        """Re-draw, from ``seed``, everything in ``state`` nobody can see yet."""
        raise ValueError(f"game family {self.name!r} cannot re-draw a position's future")

    # -- front ends ----------------------------------------------------------------------------

    def board(self, state: GameState) -> dict[str, Any]:
        """The public, unchanging description of ``state``'s components the web page draws
        (never secret: it is the same for every seat)."""
        return {"family": self.name}

    def board_text(self, state: GameState, seat: int | None) -> Text:
        """The board as the terminal draws it (rich text, colours allowed)."""
        from rich.text import Text

        return Text(state.render())

    def board_plain(self, state: GameState) -> str:
        """The board alone, as plain text (the terminal redraws it only when this changes)."""
        return state.render()

    def panel_lines(
        self, state: GameState, seat: int | None, names: Sequence[str] | None
    ) -> list[str]:
        """The players' panel and the decision under the board, seen from ``seat``."""
        return []

    def table(self, state: GameState, seat: int | None, names: Sequence[str] | None = None) -> Text:
        """The board, then the players' panel and the decision: the terminal's table, and the
        RL environments' ``ansi`` render (as plain text)."""
        text = self.board_text(state, seat)
        text.append("\n" + "\n".join(self.panel_lines(state, seat, names)))
        return text

    def card_lines(
        self, state: GameState, seat: int, query: str, names: Sequence[str] | None
    ) -> list[str]:
        """The terminal's ``deed QUERY``: a component's printed card, or why there is none."""
        return ["This game has no cards to show: 'board' shows it."]

    def story(self, state: GameState, actions: Sequence[Action]) -> dict[str, Any]:
        """Apply ``actions`` to ``state`` (a new game recording events) and tell the story a
        replay shows: a ``series`` of each seat's standing and the ``moments`` worth a look,
        plus the family's own fields (see ``meeple.server.history``)."""
        for a in actions:
            state.apply(a)
        return {"series": {"measure": "money", "unit": "", "points": []}, "moments": []}

    def landings(self, state: GameState) -> list[int]:
        """How many times each square was landed on (a simulation's landing shares); empty
        for a game without a track."""
        return []

    # -- learning ------------------------------------------------------------------------------

    def encoding(self, state: GameState) -> ActionEncoding:
        """The fixed integer encoding of ``state``'s game's actions (RL)."""
        raise ValueError(f"no action encoding for game family {self.name!r}")

    def observer(self, state: GameState) -> Observer:
        """The observation vector of ``state``'s game (RL)."""
        raise ValueError(f"no observation for game family {self.name!r}")

    def turns_played(self, state: GameState) -> int:
        """Player-turns completed so far."""
        r = state.result()
        return 0 if r is None else r.turns

    def rounds_played(self, state: GameState) -> int:
        """Rounds begun in a finished game (``meeple simulate``'s ``rounds``; docs/KERNEL.md,
        "Rounds"). A round is one turn of every player still in the game, in turn order; a new
        one begins when the turn comes to a player who has had a turn in the current one, so a
        round the game ends in counts, and the count is the most turns any one player took.
        The default, :meth:`turns_played` over the number of players rounded up, holds for a
        family whose players all stay in and take turns in a fixed order; a family that
        eliminates players counts its own."""
        return -(-self.turns_played(state) // state.num_players)

    def worth(self, state: GameState) -> list[float]:
        """Each seat's standing now, in the family's measure (RL reward shaping)."""
        return [0.0] * state.num_players

    def alive(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` is still in the game (a family may eliminate seats)."""
        return True


# -- the registry ------------------------------------------------------------------------------

_FAMILIES: dict[str, GameFamily] = {}
_GAMES: dict[str, GameInfo] = {}
_loaded = False


def register_family(family: GameFamily) -> None:
    """Add ``family`` and its game ids (a later family with the same name replaces it)."""
    old = _FAMILIES.get(family.name)
    if old is not None:
        for gid in [g for g, info in _GAMES.items() if info.family == old.name]:
            del _GAMES[gid]
    _FAMILIES[family.name] = family
    for info in family.games():
        _GAMES[info.game_id] = info


def unregister_family(name: str) -> None:
    """Remove the family ``name`` and its game ids (a test's toy family)."""
    _FAMILIES.pop(name, None)
    for gid in [g for g, info in _GAMES.items() if info.family == name]:
        del _GAMES[gid]


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    found = []
    for ep in entry_points(group=ENTRY_POINTS):
        fam = ep.load()
        if not isinstance(fam, GameFamily):
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a GameFamily")
        found.append(fam)
    for fam in sorted(found, key=lambda f: (f.order, f.name)):
        if fam.name not in _FAMILIES:  # one registered at run time wins
            register_family(fam)


def families() -> list[GameFamily]:
    """Every registered family."""
    _load()
    return list(_FAMILIES.values())


def family(name: str) -> GameFamily:
    """The family called ``name``; ``KeyError`` names the known ones."""
    _load()
    try:
        return _FAMILIES[name]
    except KeyError:
        raise KeyError(f"unknown game family {name!r}; known: {', '.join(_FAMILIES)}") from None


def game_ids() -> list[str]:
    """All game ids, family by family, in registration order."""
    _load()
    return list(_GAMES)


def game_info(game_id: str) -> GameInfo:
    """The registered game ``game_id``; :class:`UnknownGameError` otherwise."""
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(game_id, list(_GAMES)) from None


def family_of(game_id: str, options: Mapping[str, Any] | None = None) -> GameFamily:
    """The family of ``game_id`` with ``options`` (options may claim a game by themselves)."""
    _load()
    if options:
        for fam in _FAMILIES.values():
            if fam.claims(options):
                return fam
    return _FAMILIES[game_info(game_id).family]


def read_game_file(path: Path) -> GameFile:
    """The game the file at ``path`` describes, read by the family that recognises it
    (:meth:`GameFamily.recognises_file`), or else by the first family that reads such files;
    :class:`MeepleError` names what is wrong (or that no family reads files)."""
    _load()
    fams = list(_FAMILIES.values())
    mine = [fam for fam in fams if fam.recognises_file(path)]
    for fam in mine + [fam for fam in fams if fam not in mine]:
        found = fam.read_game_file(path)
        if found is not None:
            return found
    raise MeepleError(f"{path}: no game family reads game files")


def family_of_state(state: GameState) -> GameFamily:
    """The family of a running game."""
    return family(state.family)


def game_family(game_id: str, options: Mapping[str, Any] | None = None) -> str:
    """The family id of ``game_id`` with ``options``."""
    return family_of(game_id, options).name


def new_game(
    game_id: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> GameState:
    """Start game ``game_id`` with ``players`` seats from ``seed``.

    Raises :class:`UnknownGameError` for an unknown id and ``ValueError`` for a player count
    outside the game's range or a bad option.
    """
    return game_maker(game_id, players, options)(seed)


def game_maker(game_id: str, players: int, options: dict[str, Any] | None = None) -> GameMaker:
    """``new_game(game_id, players, seed, options)`` as a function of ``seed``: the game id,
    family, player count and options are looked up and checked once, when it is made (and
    raise as :func:`new_game` does), not for every game: for a driver that starts many games
    of one kind (``meeple simulate``). ``options`` is copied: changing it afterwards changes
    no game."""
    options = dict(options or {})
    _load()
    for fam in _FAMILIES.values():
        if fam.claims(options):
            _stamp(fam, options)
            return _positioned(fam, fam.game_maker(None, players, options), options)
    info = game_info(game_id)
    fam = _FAMILIES[info.family]
    _stamp(fam, options)
    if not info.min_players <= players <= info.max_players:
        raise ValueError(
            f"{game_id} is for {info.min_players} to {info.max_players} players, not {players}"
        )
    return _positioned(fam, fam.game_maker(info, players, options), options)


def _positioned(fam: GameFamily, make: GameMaker, options: dict[str, Any]) -> GameMaker:
    """``make``, each game moved to ``options["position"]`` when there is one
    (:func:`_at_position`)."""
    if options.get("position") is None:
        return make
    return lambda seed: _at_position(fam, make(seed), options)


RULESET = "ruleset"
"""The option naming the ruleset a game plays (:attr:`GameFamily.ruleset`)."""


def _stamp(fam: GameFamily, options: dict[str, Any]) -> None:
    """Stamp a new game's options with its family's ruleset, or check the one they name."""
    have = options.setdefault(RULESET, fam.ruleset)
    if not isinstance(have, int) or isinstance(have, bool) or not 1 <= have <= fam.ruleset:
        raise ValueError(
            f"option {RULESET!r} must be a {fam.name} ruleset from 1 to {fam.ruleset}, not {have!r}"
        )


def stored_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a game stored or saved by an older meeple: without a ruleset, the
    first (save files and the server's stored games are read through this)."""
    return options if RULESET in options else {**options, RULESET: 1}


def _at_position(fam: GameFamily, state: GameState, options: dict[str, Any]) -> GameState:
    """The new game ``state`` at ``options["position"]``, if there is one, with its hidden
    future re-drawn from ``options["redraw"]`` if that is given (meeple.kernel.position). Both
    options stay in the game's options, so the game is still determined by its id, options,
    seed and actions (a save file replays it)."""
    data = options.get("position")
    if data is None:
        return state
    if not isinstance(data, dict):
        raise PositionError("options.position", ["a position is a table (a JSON object)"])
    state = fam.at_position(state, data)
    found = fam.problems(state)
    if found:
        raise PositionError("options.position", found)
    again = options.get("redraw")
    if again is not None:  # one of many futures of the position (meeple simulate --from)
        if not isinstance(again, int) or isinstance(again, bool):
            raise PositionError("options.redraw", [f"a seed (a whole number), not {again!r}"])
        fam.redraw(state, again)
    return state
