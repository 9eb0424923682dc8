"""The Monopolis game state and its kernel-protocol methods: setup, the turn, the decision
chains, the end.

monopolis-rules.txt, "Setup (ELŐKÉSZÜLETEK)", "The Course of the Game (A JÁTÉK MENETE)" and
"End of the Game (A JÁTÉK VÉGE)". The rules of each action live in their own modules:
:mod:`.market` (purchasing), :mod:`.building` (building), :mod:`.city` (the grid and its
border), :mod:`.scoring` (final scoring). This module sequences them. Saving is
``saved.py``'s, what a seat sees ``view.py``'s, events and actions in words ``describe.py``'s
(the state's methods delegate to them), as in ``games/monopoly/``.

The state is flat (ints, lists of ints) so :meth:`MonopolisState.clone` is a handful of list
copies. All chance comes from :attr:`MonopolisState.rng`, saved in the snapshot.
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopolis import building, market, saved
from meeple.games.monopolis.actions import (
    ACTION,
    ARITY,
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
    PHASE_KINDS,
    TILE,
    TILE_CHOICE,
)
from meeple.games.monopolis.building import FULL, VALUE_INDEX
from meeple.games.monopolis.city import (
    CASTLE,
    EMPTY,
    NEIGHBOURS,
    PLOTS,
    park_adjacent,
    plots_needing_cards,
)
from meeple.games.monopolis.components import VALUES, Components, components_at
from meeple.games.monopolis.describe import describe_action, describe_event
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.scoring import ranking, score_sheets
from meeple.games.monopolis.view import view as seen_by
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import Action, Event, GameResult, GameState
from meeple.kernel.rng import Rng

GAME_ID = "monopolis"
STARTING_MONEY = 5
#: "You may hold at most 3 joker resources at a time."
JOKER_TRACK = 3
ACTIONS_PER_TURN = 2
START_PLAYER = 0
# position and redraw: a game started from a position (meeple.kernel.position)
OPTIONS = ("components", "max_turns", "position", "redraw")


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
        "tile_at",
        "tile_decks",
        "to_deal",
        "turn_player",
        "turns",
        "value_at",
    )

    comps: Components
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
        """Set up a new game ("Setup (ELŐKÉSZÜLETEK)"); seat 0 is the start player.

        ``blank`` sets nothing, for :meth:`clone` and ``saved.from_snapshot``, which set every
        field themselves (the compiled build makes each object through ``__init__``)."""
        if blank:
            return
        options = dict(options or {})
        check_options(options)
        if not 2 <= players <= 4:
            raise ValueError(f"monopolis is for 2 to 4 players, not {players}")
        self._init_fields(players, seed, options)
        comps = self.comps
        rng = self.rng
        for value in VALUES:
            deck = comps.tile_ids_of_value(value)
            rng.shuffle(deck)
            self.tile_decks.append(deck)
        for deck_index in (0, 1):
            deck = [c.id for c in comps.resource_cards if c is not None and c.deck == deck_index]
            rng.shuffle(deck)
            self.res_decks.append(deck)
        market.deal_market(self)
        self.bag = list(range(1, len(comps.requirement_cards)))
        rng.shuffle(self.bag)
        market.starting_stock(self)
        self.tile_at[CASTLE] = 0
        self.value_at[CASTLE] = 0
        for plot in NEIGHBOURS[CASTLE]:
            self.card_at[plot] = self.bag.pop()

    def _init_fields(self, players: int, seed: int, options: dict[str, Any]) -> None:
        comps = components_at(str(options.get("components", "")))
        self.comps = comps
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
        self.turn_player = START_PLAYER
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
        from meeple.games.monopolis.render import RULES_SUMMARY

        return list(RULES_SUMMARY)

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
        if self._legal is None:
            self._legal = self._compute_legal()
        return action in self._legal

    def _compute_legal(self) -> list[Action]:
        seat = self.turn_player
        phase = self.phase
        if phase == ACTION:
            out = [Action(BUY, (s,)) for s in range(SLOTS) if market.can_buy(self, seat, s)]
            out += [
                Action(BUILD_AT, (p,))
                for p in range(PLOTS)
                if self.card_at[p] != EMPTY and building.can_build_at(self, seat, p)
            ]
            return out or [PASS]
        if phase == PAY:
            return [
                FULL_PAYMENT if m == FULL else Action(PAY_PAIR, (m,))
                for m in building.pay_modes(self, seat, self.pend_plot)
            ]
        if phase == TILE_CHOICE:
            return [
                Action(TILE, (v,))
                for v in building.tile_values(self, seat, self.pend_plot, self.pend_mode)
            ]
        if phase == JOKER_CHOICE:
            out = [Action(JOKER, (r,)) for r in range(len(self.comps.resources))]
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
            self._after_gain(events)
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
            self._after_gain(events)
        elif kind in (JOKER, JOKER_HOLD):
            if kind == JOKER:
                self.res[seat][action.args[0]] += 1
            else:
                self.jokers[seat] += 1
            self.pend_jokers -= 1
            if events is not None:
                events.append(
                    Event(
                        "joker",
                        {"seat": seat, "resource": action.args[0] if action.args else -1},
                    )
                )
            if self.pend_jokers == 0:
                self._finish_action(events)
        else:  # PASS_ACTION
            self.money[seat] += 1
            if events is not None:
                events.append(Event("pass", {"seat": seat, "money": 1}))
            self._finish_action(events)
        return events if events is not None else []

    def _after_gain(self, events: list[Event] | None) -> None:
        """After a purchase or a build: decide the jokers gained, then the action is over."""
        if self.pend_jokers:
            self.phase = JOKER_CHOICE
        else:
            self._finish_action(events)

    def _finish_action(self, events: list[Event] | None) -> None:
        self.phase = ACTION
        self.actions_done += 1
        if self.actions_done == ACTIONS_PER_TURN:
            self._end_turn(events)

    def _end_turn(self, events: list[Event] | None) -> None:
        """Deal new cards after the turn's last build, then pass the turn or end the game.

        "The game ends in the round in which one player uses their last house. That round is
        still played to its end": the game ends after the last seat before the start player.
        """
        seat = self.turn_player
        for plot in plots_needing_cards(self.value_at, self.card_at, self.to_deal):
            if self.bag:
                self.card_at[plot] = self.bag.pop()
                if events is not None:
                    events.append(Event("deal", {"plot": plot, "card": self.card_at[plot]}))
        self.to_deal.clear()
        self.turns += 1
        if events is not None:
            events.append(Event("turn_end", {"seat": seat, "turn": self.turns}))
        if (seat + 1) % self.n == START_PLAYER:
            if self.final_round:
                self._end_game("city_complete", events)
                return
            if not any(building.could_ever_build(self, s) for s in range(self.n)):
                self._end_game("stalled", events)
                return
        # A simulation's turn cap (the ``max_turns`` option, as Monopoly's: docs/RULES.md,
        # "Turn cap"), after the rulebook's own ends so that those win a tie.
        cap = int(self._options.get("max_turns") or 0)
        if cap and self.turns >= cap:
            self._end_game("turn_cap", events)
            return
        self.turn_player = (seat + 1) % self.n
        self.actions_done = 0

    def _end_game(self, reason: str, events: list[Event] | None) -> None:
        self.phase = OVER
        self.end_reason = reason
        sheets = score_sheets(self)
        totals = [s["total"] for s in sheets]
        order, winners = ranking(self, totals)
        self._result = GameResult(
            winners=winners,
            ranking=order,
            end_reason=reason,
            turns=self.turns,
            scores=[float(t) for t in totals],
            sheets=sheets,
        )
        if events is not None:
            events.append(
                Event("game_end", {"reason": reason, "sheets": sheets, "winners": winners})
            )

    # -- reasons for illegal actions -------------------------------------------------------

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal now (kernel protocol)."""
        kind, args = action.kind, action.args
        if self.phase == OVER:
            return "the game is over"
        if kind not in ARITY:
            return f"unknown action {kind!r}; known: {', '.join(ARITY)}"
        if len(args) != ARITY[kind]:
            return f"{kind} takes {ARITY[kind]} number(s), not {len(args)}"
        if kind not in PHASE_KINDS[self.phase]:
            wanted = " or ".join(PHASE_KINDS[self.phase])
            return f"player {self.turn_player + 1} must now choose {wanted}, not {kind}"
        seat = self.turn_player
        arg = args[0] if args else 0
        if kind == BUY:
            if not 0 <= arg < SLOTS:
                return f"market places are 0 to {SLOTS - 1}"
            if market.slot_card(self, arg) < 0:
                return f"place {arg} holds no card"
            price = market.slot_price(self, arg)
            return f"the card in place {arg} costs {price} and you have {self.money[seat]}"
        if kind == BUILD_AT:
            if not 0 <= arg < PLOTS:
                return f"plots are 0 to {PLOTS - 1}"
            if self.card_at[arg] == EMPTY:
                return f"no requirement card points at plot {arg}"
            return f"you cannot pay the card at plot {arg} for any tile you may lay there"
        if kind == PASS_ACTION:
            return "you can still buy or build: 1 money is only for an action you cannot take"
        if kind in (PAY_FULL, PAY_PAIR, TILE):
            return self._why_illegal_build_step(kind, arg)
        if kind == JOKER:
            return f"resources are 0 to {len(self.comps.resources) - 1}"
        return f"the joker track already holds {JOKER_TRACK} jokers: decide this one now"

    def _why_illegal_build_step(self, kind: str, arg: int) -> str:
        card = self.comps.card(self.card_at[self.pend_plot])
        if kind == PAY_FULL:
            return "you cannot pay the whole card, even with your jokers, or no tile fits"
        if kind == PAY_PAIR:
            if not 0 <= arg < len(card.needs) or card.needs[arg] < 2:
                return "the card does not show that resource twice: only identical pairs pay"
            return "you cannot pay two of that resource, or no park or residential quarter fits"
        allowed = building.mode_values(card, self.pend_mode)
        if arg not in allowed:
            return f"this payment allows tiles worth {', '.join(map(str, allowed))}"
        if not self.tile_decks[VALUE_INDEX[arg]]:
            return f"no tiles worth {arg} are left"
        if arg == 1 and park_adjacent(self.value_at, self.pend_plot):
            return "a park cannot be built next to another park"
        return f"a tile worth {arg} needs {building.houses_needed(arg)} houses; you have fewer"

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
        saved.restore(self, snap)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MonopolisState:
        """Rebuild a state from :meth:`snapshot` data; :class:`SaveFileError` names bad fields."""
        return saved.from_snapshot(data)

    def clone(self) -> MonopolisState:
        """An independent copy: list copies only, no deepcopy."""
        c = MonopolisState(self.n, self._seed, blank=True)
        c.comps = self.comps
        c.n = self.n
        c.capacity = self.capacity
        c._seed = self._seed
        c._options = self._options
        c.rng = Rng(self.rng.state)
        c.money = self.money[:]
        c.res = [r[:] for r in self.res]
        c.jokers = self.jokers[:]
        c.houses = self.houses[:]
        c.hand = [h[:] for h in self.hand]
        c.tile_at = self.tile_at[:]
        c.value_at = self.value_at[:]
        c.owner_at = self.owner_at[:]
        c.houses_at = self.houses_at[:]
        c.cubes = self.cubes[:]
        c.card_at = self.card_at[:]
        c.bag = self.bag[:]
        c.tile_decks = [d[:] for d in self.tile_decks]
        c.res_decks = [d[:] for d in self.res_decks]
        c.discards = [d[:] for d in self.discards]
        c.market = [m[:] for m in self.market]
        c.turn_player = self.turn_player
        c.actions_done = self.actions_done
        c.phase = self.phase
        c.pend_plot = self.pend_plot
        c.pend_mode = self.pend_mode
        c.pend_jokers = self.pend_jokers
        c.to_deal = self.to_deal[:]
        c.final_round = self.final_round
        c.turns = self.turns
        c.end_reason = self.end_reason
        c._history = self._history[:]
        c._legal = self._legal
        c._result = self._result
        c.record_events = self.record_events
        return c

    # -- words -----------------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        """An event in plain English."""
        return describe_event(self, event)

    def describe_action(self, action: Action) -> str:
        """An action in plain English for the current position."""
        return describe_action(self, action)


def check_options(options: dict[str, Any]) -> None:
    """``ValueError`` naming the first unknown or malformed option (a new game, a snapshot)."""
    for key, value in options.items():
        if key not in OPTIONS:
            raise ValueError(f"unknown monopolis option {key!r}; known: {', '.join(OPTIONS)}")
        if key == "components" and not isinstance(value, str):
            raise ValueError("option 'components' must be a path to a components file")
        if key == "max_turns" and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise ValueError("option 'max_turns' must be a whole number of player-turns, 0 or more")


def new_monopolis(players: int, seed: int, options: dict[str, Any]) -> MonopolisState:
    """A new game of Monopolis for ``players`` seats from ``seed``.

    ``options`` may name another ``components`` file (an owner's corrected components).
    """
    return MonopolisState(players, seed, options)


__all__ = ["MonopolisState", "new_monopolis"]
