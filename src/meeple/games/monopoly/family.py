"""The Monopoly family as a plugin (:class:`~meeple.kernel.family.GameFamily`): every edition
is a game id, and what the drivers need of a Monopoly game is here, so none of them names it.

Registered through the ``meeple.families`` entry point (``pyproject.toml``). Heavy or
front-end modules (the renderer, the story, the RL tables) are imported when first asked for,
so making a game imports only the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.catalog import builtin_catalog
from meeple.games.monopoly.rules.rulesets import RULESET
from meeple.kernel.family import GameFamily, GameFile, GameInfo, GameMaker
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import RenderableType
    from rich.text import Text

    from meeple.games.monopoly.state import MonopolyState
    from meeple.games.monopoly.tables import Edition
    from meeple.kernel.bot import BotFactory
    from meeple.kernel.encoding import ActionEncoding, Observer
    from meeple.kernel.options import RuleOption
    from meeple.kernel.search import SearchFamily


def _m(state: GameState) -> MonopolyState:
    return cast("MonopolyState", state)


def _new(edition: str | Edition, players: int, seed: int, options: dict[str, Any]) -> GameState:
    # The engine and the edition models load when the first game is made, not when the
    # family is: listing the games needs neither (catalog.py).
    from meeple.games.monopoly.state import new_monopoly

    return new_monopoly(edition, players, seed, options)


class MonopolyFamily(GameFamily):
    """Every Monopoly edition: the built-in ones by id, and an edition given as data."""

    name = "monopoly"
    order = 0
    ruleset = RULESET
    # Drafting a trade offer is private to the proposer until the offer is made (``view``
    # hides the draft), so a replay does not put those steps in words.
    private_moves = frozenset({A.TRADE_DEED, A.TRADE_CARD, A.TRADE_CASH})
    seat_moves = frozenset({A.TRADE})
    terminal_help = (
        "Type the number of a choice, its words or their start ('ask for boardwalk'), or an "
        "action: roll, buy, bid 137 (any amount you can pay), build 39, mortgage 12 (square "
        "numbers as the board shows them), trade P2 (an offer to Player 2; a name works too), "
        "end_turn. 'deed 39' or 'deed "
        "board' shows a title deed (a square's number or the start of its name; 'deed' alone: "
        "where you stand). 'ask others never|build|always' says when you are asked in other "
        "players' turns (to build, mortgage or trade there), 'ask own build|roll|always' in "
        "your own turn, 'ask' shows both."
    )

    def __init__(self) -> None:
        self._search: SearchFamily | None = None

    def games(self) -> Sequence[GameInfo]:
        out = []
        for e in builtin_catalog():

            def factory(
                players: int, seed: int, options: dict[str, Any], _eid: str = e.id
            ) -> GameState:
                return _new(_eid, players, seed, options)

            out.append(GameInfo(e.id, self.name, e.name, e.min_players, e.max_players, factory))
        return out

    def claims(self, options: Mapping[str, Any]) -> bool:
        # An edition given as data (an edition file, or a save file that carries one).
        return isinstance(options.get("edition"), dict)

    def from_options(self, players: int, seed: int, options: dict[str, Any]) -> GameState:
        from meeple.games.monopoly.edition import parse_edition

        ed = parse_edition(options["edition"], "options.edition")
        return _new(ed, players, seed, options)

    def game_maker(self, info: GameInfo | None, players: int, options: dict[str, Any]) -> GameMaker:
        """The games of one edition: the edition found (a built-in one) or parsed (one given
        as data: a pydantic validation of the whole edition) once, not for every game. The
        state takes a copy of the options, so all the games share them."""
        from meeple.games.monopoly.state import new_monopoly

        ed = self._edition(info.game_id if info is not None else "", options)
        return lambda seed: new_monopoly(ed, players, seed, options)

    def read_game_file(self, path: Path) -> GameFile:
        """A Monopoly edition file (TOML or JSON: docs/EDITIONS.md), carried as data in the
        game's options (``claims``), so a save file replays it without the file."""
        from meeple.games.monopoly.edition import load_edition_file

        ed = load_edition_file(path)
        data = ed.model.model_dump(mode="json", exclude_none=True)
        return GameFile(ed.id, {"edition": data}, ed.rules.min_players, ed.rules.max_players)

    def describe(
        self, game_id: str, options: Mapping[str, Any], source: str = ""
    ) -> RenderableType:
        from meeple.games.monopoly.edition_text import render_edition

        return render_edition(self._edition(game_id, options, source))

    def export(self, game_id: str, options: Mapping[str, Any]) -> str:
        from meeple.games.monopoly.edition_text import export_toml

        return export_toml(self._edition(game_id, options))

    def asking(self, game_id: str, options: Mapping[str, Any]) -> Mapping[str, str]:
        """The edition's ``[asking]`` table (data: My First Monopoly's child rolls the die),
        where it differs from the front ends' defaults."""
        return self._edition(game_id, options).model.asking.model_dump(exclude_none=True)

    def rule_options(self, game_id: str, options: Mapping[str, Any]) -> list[RuleOption]:
        """The house rules and rulebook readings a table may set for one game
        (``house_rules.PER_GAME``), with the edition's values as defaults."""
        from meeple.games.monopoly.house_rules import rule_options

        return rule_options(self._edition(game_id, options))

    def edition(self, game_id: str) -> Edition:
        """The built-in edition ``game_id`` as tables (board, deeds, decks, rules): what the
        exact analyses of :mod:`meeple.analysis` study, which ``meeple analyze`` asks for
        here so that the command line names no family. Only Monopoly has it: a driver looks
        for it with ``getattr``, not on :class:`~meeple.kernel.family.GameFamily`."""
        return self._edition(game_id, {})

    def _edition(self, game_id: str, options: Mapping[str, Any], source: str = "") -> Edition:
        from meeple.games.monopoly.edition import builtin_edition, parse_edition

        if self.claims(options):
            return parse_edition(options["edition"], source or "options.edition")
        return builtin_edition(game_id)

    def position(self, state: GameState) -> dict[str, Any]:
        from meeple.games.monopoly.position import position_of

        return position_of(_m(state))

    def at_position(self, state: GameState, data: dict[str, Any]) -> GameState:
        from meeple.games.monopoly.position import at_position

        return at_position(_m(state), data)

    def problems(self, state: GameState) -> list[str]:
        from meeple.games.monopoly.position import problems

        return problems(_m(state))

    def audit(self, state: GameState) -> list[str]:
        from meeple.games.monopoly.audit import audit

        return audit(_m(state))

    def redraw(self, state: GameState, seed: int) -> None:
        from meeple.games.monopoly.position import redraw

        redraw(_m(state), seed)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        from meeple.games.monopoly.bots import StandardBot, TunedBot, param_bot

        return {
            "standard": lambda seed, _: StandardBot(seed),
            "tuned": lambda seed, _: TunedBot(seed),
            "param": param_bot,
        }

    @property
    def search(self) -> SearchFamily:
        if self._search is None:
            from meeple.games.monopoly.search import MonopolySearch

            self._search = MonopolySearch()
        return self._search

    def board(self, state: GameState) -> dict[str, Any]:
        from meeple.games.monopoly.board import board_data

        return board_data(_m(state))

    def board_text(self, state: GameState, seat: int | None) -> Text:
        from meeple.games.monopoly.render import board_text

        return board_text(_m(state), seat)

    def board_plain(self, state: GameState) -> str:
        from meeple.games.monopoly.render import render_board

        return render_board(_m(state))

    def panel_lines(
        self, state: GameState, seat: int | None, names: Sequence[str] | None
    ) -> list[str]:
        from meeple.games.monopoly.render import decision_line, player_lines

        s = _m(state)
        return [*player_lines(s, seat, names), decision_line(s, seat, names)]

    def card_lines(
        self, state: GameState, seat: int, query: str, names: Sequence[str] | None
    ) -> list[str]:
        """A title deed: of square ``query`` (a number or the start of a name), or of the
        square ``seat`` stands on."""
        from meeple.games.monopoly.render import deed_lines, find_squares

        s = _m(state)
        found = [s.pos[seat]] if not query.strip() else find_squares(s, query)
        if not found:
            return [f"No square is called {query.strip()!r}: try its number (0-{s.ed.size - 1})."]
        if len({s.ed.square_names[sq] for sq in found}) > 1:
            listed = ", ".join(f"{sq} {s.ed.square_names[sq]}" for sq in found)
            return [f"Which one? {listed}"]
        return deed_lines(s, found[0], seat, names)

    def story(self, state: GameState, actions: Sequence[Action]) -> dict[str, Any]:
        from meeple.games.monopoly.story import monopoly_story

        return monopoly_story(_m(state), actions)

    def landings(self, state: GameState) -> list[int]:
        from meeple.games.monopoly.rules.turns import landing_counts

        return landing_counts(_m(state))

    def encoding(self, state: GameState) -> ActionEncoding:
        from meeple.games.monopoly.encoding import MonopolyEncoding

        return MonopolyEncoding.for_state(_m(state))

    def observer(self, state: GameState) -> Observer:
        from meeple.games.monopoly.observation import MonopolyObserver

        return MonopolyObserver.for_state(_m(state))

    def turns_played(self, state: GameState) -> int:
        return _m(state).turn_no - 1

    def rounds_played(self, state: GameState) -> int:
        """Rounds begun, counted as turns pass (``rules/turns.count_round``): players
        eliminated along the way make later rounds shorter."""
        return _m(state).round_no

    def worth(self, state: GameState) -> list[float]:
        """Net worth (``rules/money.py``), 0 for a bankrupt seat."""
        from meeple.games.monopoly.rules.money import net_worth

        s = _m(state)
        return [float(net_worth(s, p)) if s.alive[p] else 0.0 for p in range(s.n)]

    def alive(self, state: GameState, seat: int) -> bool:
        return bool(_m(state).alive[seat])


FAMILY = MonopolyFamily()
"""The family object the ``meeple.families`` entry point names."""
