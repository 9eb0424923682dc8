"""The Monopolis game state and its kernel-protocol methods: setup, the turn, the decision
chains, the end.

monopolis-rules.txt, "Setup (ELŐKÉSZÜLETEK)", "The Course of the Game (A JÁTÉK MENETE)" and
"End of the Game (A JÁTÉK VÉGE)". The rules of each action live in their own modules:
:mod:`.market` (purchasing), :mod:`.building` (building), :mod:`.city` (the grid and its
border), :mod:`.turns` (two actions a turn, the last round), :mod:`.scoring` (final scoring);
a refusal's sentence is :mod:`.refusals`'. This module applies an action and asks them. Saving is
``saved.py``'s, what a seat sees ``view.py``'s, events and actions in words ``describe.py``'s
(the state's methods delegate to them), as in ``games/monopoly/``. The layers point one way:
the game's fixed terms (``terms.py``) and components at the bottom, the rules above them, the
snapshots and the words above those (each reads the state's type only to check itself), and
this module, the dispatcher, at the top; it makes the blank states ``saved.py`` fills.

The state is flat (ints, lists of ints) so :meth:`MonopolisState.clone` is a handful of list
copies. All chance comes from :attr:`MonopolisState.rng`, saved in the snapshot.
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopolis import building, market, refusals, saved, turns
from meeple.games.monopolis.actions import (
    ACTION,
    BUILD_AT,
    BUY,
    FULL_PAYMENT,
    HOLD,
    JOKER,
    JOKER_CHOICE,
    JOKER_HOLD,
    OVER,
    PASS,
    PASS_ACTION,
    PAY,
    PAY_FULL,
    PAY_PAIR,
    TILE,
    TILE_CHOICE,
    act,
)
from meeple.games.monopolis.building import FULL
from meeple.games.monopolis.city import CASTLE, EMPTY, NEIGHBOURS, PLOTS
from meeple.games.monopolis.components import Components
from meeple.games.monopolis.describe import describe_action, describe_event
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.tables import Tables, tables_at
from meeple.games.monopolis.terms import (
    GAME_ID,
    JOKER_TRACK,
    OPTIONS,
    STARTING_MONEY,
    check_options,
)
from meeple.games.monopolis.view import view as seen_by
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import Action, Event, GameResult, GameState
from meeple.kernel.rng import Rng


class MonopolisState(GameState):
    """One game of Monopolis. Build one with :func:`new_monopolis`."""

    family = "monopolis"

    __slots__ = (
        "_history",
        "_legal",
        "_options",
        "_result",
        "_seed",
        "actions_done",
        "bag",
        "capacity",
        "card_at",
        "comps",
        "cubes",
        "discards",
        "end_reason",
        "final_round",
        "hand",
        "houses",
        "houses_at",
        "jokers",
        "market",
        "money",
        "n",
        "owner_at",
        "pend_jokers",
        "pend_mode",
        "pend_plot",
        "phase",
        "res",
        "res_decks",
        "rng",
        "start_player",
        "tables",
        "tile_at",
        "tile_decks",
        "to_deal",
        "turn_player",
        "turns",
        "value_at",
    )

    comps: Components
    tables: Tables
    n: int
    capacity: int
    rng: Rng
    money: list[int]
    res: list[list[int]]
    jokers: list[int]
    houses: list[int]
    hand: list[list[int]]
    tile_at: list[int]
    value_at: list[int]
    owner_at: list[int]
    houses_at: list[int]
    cubes: list[int]
    card_at: list[int]
    bag: list[int]
    tile_decks: list[list[int]]
    res_decks: list[list[int]]
    discards: list[list[int]]
    market: list[list[int]]
    start_player: int
    turn_player: int
    actions_done: int
    phase: int
    pend_plot: int
    pend_mode: int
    pend_jokers: int
    to_deal: list[int]
    final_round: bool
    turns: int
    end_reason: str
    _seed: int
    _options: dict[str, Any]
    _history: list[Action]
    _legal: list[Action] | None
    _result: GameResult | None

    def __init__(
        self, players: int, seed: int, options: dict[str, Any] | None = None, *, blank: bool = False
    ) -> None:
        """Set up a new game ("Setup (ELŐKÉSZÜLETEK)"), the start player last (``turns.py``).

        ``blank`` sets nothing, for :meth:`clone` and ``saved.from_snapshot``, which set every
        field themselves (the compiled build makes each object through ``__init__``)."""
        if blank:
            return
        options = dict(options or {})
        check_options(options)
        # The family's ruleset, in the options whoever made the game (``turns.RULESET``).
        options.setdefault("ruleset", turns.RULESET)
        if not 2 <= players <= 4:
            raise ValueError(f"monopolis is for 2 to 4 players, not {players}")
        self._init_fields(players, seed, options)
        rng = self.rng
        for stack in self.tables.tile_stacks:
            deck = stack[:]
            rng.shuffle(deck)
            self.tile_decks.append(deck)
        for cards in self.tables.resource_decks:
            deck = cards[:]
            rng.shuffle(deck)
            self.res_decks.append(deck)
        market.deal_market(self)
        self.bag = list(range(1, len(self.comps.requirement_cards)))
        rng.shuffle(self.bag)
        market.starting_stock(self)
        self.tile_at[CASTLE] = 0
        self.value_at[CASTLE] = 0
        for plot in NEIGHBOURS[CASTLE]:
            self.card_at[plot] = self.bag.pop()
        self.start_player = self.turn_player = turns.choose_first(self)

    def _init_fields(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self.tables = tables_at(str(options.get("components", "")))
        comps = self.comps = self.tables.comps
        self.n = players
        self.capacity = comps.spaces[players]
        self._seed = seed
        self._options = options
        self.rng = Rng(seed)
        size = len(comps.resources)
        self.money = [STARTING_MONEY] * players
        self.res = [[0] * size for _ in range(players)]
        self.jokers = [0] * players
        self.houses = [0] * players
        self.hand = [[] for _ in range(players)]
        self.tile_at = [EMPTY] * PLOTS
        self.value_at = [EMPTY] * PLOTS
        self.owner_at = [EMPTY] * PLOTS
        self.houses_at = [0] * PLOTS
        self.cubes = [0] * PLOTS
        self.card_at = [EMPTY] * PLOTS
        self.bag = []
        self.tile_decks = []
        self.res_decks = []
        self.discards = [[], []]
        self.market = [[], []]
        self.start_player = self.turn_player = 0
        self.actions_done = 0
        self.phase = ACTION
        self.pend_plot = EMPTY
        self.pend_mode = FULL
        self.pend_jokers = 0
        self.to_deal = []
        self.final_round = False
        self.turns = 0
        self.end_reason = ""
        self._history = []
        self._legal = None
        self._result = None

    # -- the protocol's properties --------------------------------------------------------

    @property
    def game_id(self) -> str:
        return GAME_ID

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def history(self) -> list[Action]:
        return list(self._history)

    def current_player(self) -> int:
        return -1 if self.phase == OVER else self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def result(self) -> GameResult | None:
        return self._result

    def money_of(self, seat: int) -> int:
        return self.money[seat]

    def rules_summary(self) -> list[str]:
        """Monopolis' rules in short (kernel protocol)."""
        from meeple.games.monopolis.render import rules_summary

        return rules_summary(self.comps)

    def render(self) -> str:
        """The city as text (``meeple replay`` draws it)."""
        from meeple.games.monopolis.render import render_city

        return render_city(self)

    # -- legal actions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The choices of the current decision, in a stable order (see :mod:`.actions`)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now: the same answer as membership in
        :meth:`legal_actions`. A purchase or a build is decided by the rule that would list it,
        without listing every card and place (the standard bot reads the rules to choose, so
        its games never list the action phase's choices); the other decisions' few choices
        are listed. ``tests/monopolis/test_monopolis_protocol.py`` checks both
        answers agree at every decision."""
        if self._legal is None and self.phase == ACTION:
            return self._allowed_in_action(action)
        if self._legal is None:
            self._legal = self._compute_legal()
        return action in self._legal

    def _allowed_in_action(self, action: Action) -> bool:
        seat = self.turn_player
        kind, args = action.kind, action.args
        if kind == PASS_ACTION:
            # "1 money for an action that cannot be taken": no purchase and no build.
            return (
                not args
                and not any(market.can_buy(self, seat, s) for s in range(SLOTS))
                and not any(building.can_build_at(self, seat, p) for p in range(PLOTS))
            )
        if len(args) != 1:
            return False
        if kind == BUY:
            return 0 <= args[0] < SLOTS and market.can_buy(self, seat, args[0])
        if kind == BUILD_AT:
            return 0 <= args[0] < PLOTS and building.can_build_at(self, seat, args[0])
        return False

    def _compute_legal(self) -> list[Action]:
        seat = self.turn_player
        phase = self.phase
        if phase == ACTION:
            out = [act(BUY, s) for s in range(SLOTS) if market.can_buy(self, seat, s)]
            out += [
                act(BUILD_AT, p)
                for p in range(PLOTS)
                if self.card_at[p] != EMPTY and building.can_build_at(self, seat, p)
            ]
            return out or [PASS]
        if phase == PAY:
            return [
                FULL_PAYMENT if m == FULL else act(PAY_PAIR, m)
                for m in building.pay_modes(self, seat, self.pend_plot)
            ]
        if phase == TILE_CHOICE:
            return [
                act(TILE, v)
                for v in building.tile_values(self, seat, self.pend_plot, self.pend_mode)
            ]
        if phase == JOKER_CHOICE:
            out = [act(JOKER, r) for r in range(self.tables.size)]
            if self.jokers[seat] < JOKER_TRACK:
                out.append(HOLD)
            return out
        return []

    # -- applying actions ------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` for the current player; see :mod:`.actions` for the chains."""
        if not self.is_legal(action):
            raise IllegalActionError(str(action), self.why_illegal(action))
        events: list[Event] | None = [] if self.record_events else None
        self._history.append(action)
        self._legal = None
        seat = self.turn_player
        kind = action.kind
        if kind == BUY:
            market.buy(self, seat, action.args[0], events)
            turns.after_gain(self, events)
        elif kind == BUILD_AT:
            self.pend_plot = action.args[0]
            self.phase = PAY
        elif kind in (PAY_FULL, PAY_PAIR):
            self.pend_mode = FULL if kind == PAY_FULL else action.args[0]
            self.phase = TILE_CHOICE
        elif kind == TILE:
            building.build(self, seat, self.pend_plot, self.pend_mode, action.args[0], events)
            self.pend_plot = EMPTY
            self.pend_mode = FULL
            turns.after_gain(self, events)
        elif kind in (JOKER, JOKER_HOLD):
            if kind == JOKER:
                mine, r = self.res[seat], action.args[0]
                mine[r] = mine[r] + 1  # (not +=: building.build says why)
            else:
                self.jokers[seat] = self.jokers[seat] + 1
            self.pend_jokers -= 1
            if events is not None:
                events.append(
                    Event(
                        "joker",
                        {"seat": seat, "resource": action.args[0] if action.args else -1},
                    )
                )
            if self.pend_jokers == 0:
                turns.finish_action(self, events)
        else:  # PASS_ACTION
            self.money[seat] = self.money[seat] + 1
            if events is not None:
                events.append(Event("pass", {"seat": seat, "money": 1}))
            turns.finish_action(self, events)
        return events if events is not None else []

    # -- reasons for illegal actions -------------------------------------------------------

    def setup_events(self) -> list[Event]:
        """Who starts (``turns.choose_first``)."""
        return turns.setup_events(self)

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal now (kernel protocol; ``refusals.py``)."""
        return refusals.why_illegal(self, action)

    # -- views, saving, copying ------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything public (in Monopolis, all but the order of decks and bag, and the rng)."""
        return seen_by(self, seat)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data, secrets included (the save file's core)."""
        return saved.snapshot(self)

    def restore(self, snap: dict[str, Any]) -> None:
        """Load a :meth:`snapshot` into this state, which becomes the snapshot's game;
        :class:`SaveFileError` names a bad field, and then nothing has changed."""
        saved.restore(self, snap, MonopolisState(self.n, 0, blank=True))

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MonopolisState:
        """Rebuild a state from :meth:`snapshot` data; :class:`SaveFileError` names bad fields."""
        return saved.from_snapshot(data, MonopolisState(0, 0, blank=True))

    def clone(self) -> MonopolisState:
        """An independent copy: list copies only, no deepcopy (``saved.clone``)."""
        return saved.clone(self, MonopolisState(self.n, self._seed, blank=True))

    # -- words -----------------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        """An event in plain English."""
        return describe_event(self, event)

    def describe_action(self, action: Action) -> str:
        """An action in plain English for the current position."""
        return describe_action(self, action)


def new_monopolis(players: int, seed: int, options: dict[str, Any]) -> MonopolisState:
    """A new game of Monopolis for ``players`` seats from ``seed``.

    ``options`` may name another ``components`` file (an owner's corrected components).
    """
    return MonopolisState(players, seed, options)


__all__ = [
    "GAME_ID",
    "JOKER_TRACK",
    "OPTIONS",
    "STARTING_MONEY",
    "MonopolisState",
    "check_options",
    "new_monopolis",
]
