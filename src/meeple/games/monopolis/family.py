"""Monopolis as a plugin (:class:`~meeple.kernel.family.GameFamily`): game id ``monopolis``,
and what the drivers need of a Monopolis game, so none of them names it.

Registered through the ``meeple.families`` entry point (``pyproject.toml``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from meeple.kernel.family import GameFamily, GameFile, GameInfo, GameMaker
from meeple.kernel.options import RuleOption
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:
    from rich.console import RenderableType

    from meeple.games.monopolis.components import Components
    from meeple.games.monopolis.state import MonopolisState
    from meeple.kernel.bot import BotFactory
    from meeple.kernel.encoding import ActionEncoding, Observer
    from meeple.kernel.search import SearchFamily


def _m(state: GameState) -> MonopolisState:
    return cast("MonopolisState", state)


def _new(players: int, seed: int, options: dict[str, Any]) -> GameState:
    # The engine loads when the first game is made, not when the family is (listing the
    # games needs only the line below).
    from meeple.games.monopolis.state import new_monopolis

    return new_monopolis(players, seed, options)


class MonopolisFamily(GameFamily):
    """Monopolis, the tile-laying city builder (``shared/rules/monopolis-rules.txt``)."""

    name = "monopolis"
    order = 10
    ruleset = 2  # (games/monopolis/turns.RULESET: the engine loads with the first game)
    retired_bots = frozenset({"standard-v1"})  # the first standard bot, for measuring
    terminal_help = (
        "Type the number of a choice, its words or their start ('buy wood', 'build 1 north', "
        "'lay a park'). 'deed' lists the requirement cards on the table, each with what its "
        "Type lets you build; 'board' draws the city (rows 3N to 3S, columns 3W to 3E of the "
        "castle). Scripts may type the engine's action texts, whose numbers count from 0: buy "
        "0-5 (the left row's cards, then the right row's), build_at 0-48 (the plots row by "
        "row from the north-west corner; the castle is 24), pay_full, pay_pair 0-3 and joker "
        "0-3 (the resources in the order wood, iron, tools, workers), tile 1-6, joker_hold."
    )
    asking_note = (
        "Monopolis has no rolls and no other players' turns to act in: you are asked at every "
        "decision with more than one choice."
    )

    def __init__(self) -> None:
        self._search: SearchFamily | None = None

    def games(self) -> Sequence[GameInfo]:
        return [GameInfo("monopolis", self.name, "Monopolis", 2, 4, _new)]

    def game_maker(self, info: GameInfo | None, players: int, options: dict[str, Any]) -> GameMaker:
        """The games of a simulation, without :func:`_new`'s import for every one (the state
        takes a copy of the options, so all the games share them)."""
        from meeple.games.monopolis.state import new_monopolis

        return lambda seed: new_monopolis(players, seed, options)

    # -- the printed components, as a file (docs/MONOPOLIS.md, "Component design") ----------

    def recognises_file(self, path: Path) -> bool:
        """A components file: TOML with requirement cards (and no Monopoly board)."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return False
        return "requirement_cards" in data and "squares" not in data

    def read_game_file(self, path: Path) -> GameFile | None:
        """A components file (``meeple editions export monopolis``, corrected by an owner of
        the game): the ``components`` option naming it, once it loads without a fault
        (``EditionError`` names the file, the field and the reason)."""
        from meeple.games.monopolis.components import load_components

        if not self.recognises_file(path):
            return None
        load_components(path)
        info = self.games()[0]
        options: dict[str, Any] = {"components": str(Path(path).resolve())}
        return GameFile(info.game_id, options, info.min_players, info.max_players)

    def describe(
        self, game_id: str, options: Mapping[str, Any], source: str = ""
    ) -> RenderableType:
        """The components (``meeple editions show monopolis``), designed ones marked."""
        from meeple.games.monopolis.components_text import render_components

        return render_components(self._components(options), source)

    def export(self, game_id: str, options: Mapping[str, Any]) -> str:
        """The components file, to correct (``meeple editions export monopolis``)."""
        from meeple.games.monopolis.components_text import export_toml

        return export_toml(self._components(options))

    @staticmethod
    def _components(options: Mapping[str, Any]) -> Components:
        from meeple.games.monopolis.components import components_at
        from meeple.games.monopolis.state import check_options

        check_options(dict(options))
        return components_at(str(options.get("components", "")))

    def rule_options(self, game_id: str, options: Mapping[str, Any]) -> list[RuleOption]:
        """Who starts: "Choose a starting player" (Setup) is the table's choice, drawn at
        random unless the table says Player 1 (docs/MONOPOLIS.md D1). Nothing else: the last
        column's points are decided (D16), and the printed components are the components
        file's (``meeple editions export monopolis``), not a table's choice."""
        return [
            RuleOption(
                "start_player",
                "Who starts",
                "choice",
                "random",
                "Who takes the start player marker: a player drawn at random, or Player 1.",
                group="Rulebook readings",
                choices=("random", "first_seat"),
                choice_labels=("a player drawn at random", "Player 1"),
            )
        ]

    def position(self, state: GameState) -> dict[str, Any]:
        from meeple.games.monopolis.position import position_of

        return position_of(_m(state))

    def at_position(self, state: GameState, data: dict[str, Any]) -> GameState:
        from meeple.games.monopolis.position import at_position

        return at_position(_m(state), data)

    def problems(self, state: GameState) -> list[str]:
        from meeple.games.monopolis.position import problems

        return problems(_m(state))

    def audit(self, state: GameState) -> list[str]:
        from meeple.games.monopolis.audit import audit

        return audit(_m(state))

    def redraw(self, state: GameState, seed: int) -> None:
        from meeple.games.monopolis.position import redraw

        redraw(_m(state), seed)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        from meeple.games.monopolis.bots import MonopolisStandardBot
        from meeple.games.monopolis.bots_v1 import MonopolisStandardV1Bot

        return {
            "standard": lambda seed, _: MonopolisStandardBot(seed),
            # The first standard bot, frozen, to measure the present one against (BOTS.md).
            "standard-v1": lambda seed, _: MonopolisStandardV1Bot(seed),
        }

    @property
    def search(self) -> SearchFamily:
        """The ``mcts`` bot's support (``games/monopolis/search.py``), made on first use."""
        if self._search is None:
            from meeple.games.monopolis.search import MonopolisSearch

            self._search = MonopolisSearch()
        return self._search

    def board(self, state: GameState) -> dict[str, Any]:
        from meeple.games.monopolis.board import board_data

        return board_data(_m(state))

    def panel_lines(
        self, state: GameState, seat: int | None, names: Sequence[str] | None
    ) -> list[str]:
        from meeple.games.monopolis.render import panel_lines

        return panel_lines(_m(state), seat, names)

    def card_lines(
        self, state: GameState, seat: int, query: str, names: Sequence[str] | None
    ) -> list[str]:
        from meeple.games.monopolis.render import card_lines

        return card_lines(_m(state))

    def story(self, state: GameState, actions: Sequence[Action]) -> dict[str, Any]:
        from meeple.games.monopolis.story import monopolis_story

        return monopolis_story(_m(state), actions)

    def encoding(self, state: GameState) -> ActionEncoding:
        from meeple.games.monopolis.encoding import MonopolisEncoding

        return MonopolisEncoding.for_state(_m(state))

    def observer(self, state: GameState) -> Observer:
        from meeple.games.monopolis.observation import MonopolisObserver

        return MonopolisObserver.for_state(_m(state))

    def turns_played(self, state: GameState) -> int:
        return _m(state).turns

    def worth(self, state: GameState) -> list[float]:
        """The points each seat would score now (``scoring.score_sheets``)."""
        from meeple.games.monopolis.scoring import score_sheets

        return [float(sh["total"]) for sh in score_sheets(_m(state))]


FAMILY = MonopolisFamily()
"""The family object the ``meeple.families`` entry point names."""
