"""The state of a Monopoly-family game and its kernel-protocol methods.

The state is flat (lists of ints and bools indexed by seat or square) so that cloning and
saving are cheap. It holds the board, the players and the stack of decisions; the decision in
progress (a phase of the turn or a frame on the stack: ``frames.py``, each owned by its rule
in :mod:`meeple.games.monopoly.rules`) says which actions are legal and plays them. Saving is
``saved.py``'s, what a seat sees ``view.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from meeple.games.monopoly import actions as A
from meeple.games.monopoly import refusals, saved
from meeple.games.monopoly.describe import describe_action, describe_event
from meeple.games.monopoly.edition import builtin_edition, with_rule_overrides
from meeple.games.monopoly.frames import Decision, Frame
from meeple.games.monopoly.kept import STAMPS, Kept
from meeple.games.monopoly.rules import (
    anytime,
    auction,
    holdings,
    rulesets,
    start,
    turns,
)
from meeple.games.monopoly.tables import Edition
from meeple.games.monopoly.view import views as seen_by
from meeple.kernel.arrays import int_array
from meeple.kernel.errors import HistoryOff, IllegalActionError
from meeple.kernel.protocol import (
    Action,
    Event,
    GameResult,
    GameState,
    MoveOn,
)
from meeple.kernel.rng import Rng

SAVE_VERSION: Final = 1


# The phases of the turn: the decision when no frame is on the stack (_phase).
_PRE_ROLL: Final = turns.PreRoll()
_IN_JAIL: Final = turns.InJail()
_END_TURN: Final = turns.EndTurn()
_WINDOW: Final = turns.Window()
_OVER: Final = turns.Over()


# What apply and is_legal need to know of an action's kind, found with one look-up: bit
# _TAKES_ARG when it takes one integer argument (every other kind takes none), bit _ANY_TIME
# when it is an any-time action (``rules/anytime.py``), played the same way whichever
# decision allows it. A kind not listed is no action of this family.
_TAKES_ARG: Final = 1
_ANY_TIME: Final = 2
_KIND_BITS: Final[dict[str, int]] = {
    kind: (_TAKES_ARG if kind in A.WITH_ARG else 0) | (_ANY_TIME if kind in anytime.KINDS else 0)
    for kind in A.ALL_KINDS
}


def _kind_bits(kind: str) -> int:
    """:data:`_KIND_BITS` of ``kind`` (-1: no kind of this family's). The kinds played most
    after the three move-on answers (a trade draft's steps, mortgages and lifts: three in four
    of a random player's other actions; bids and builds: two in five of a standard player's)
    are recognised by their string's identity first (the actions the bots and the rules make
    share ``actions``' strings): a look-up in the dict costs the compiled build about 130
    instructions. A kind read from text, an equal string of its own, is looked up.
    (``tests/monopoly/test_is_legal.py`` checks every kind both ways against the table.)"""
    if kind is A.TRADE_DEED or kind is A.TRADE_CASH or kind is A.BID:
        return _TAKES_ARG  # (a decision's own, with an argument)
    if kind is A.MORTGAGE or kind is A.UNMORTGAGE or kind is A.BUILD:
        return _TAKES_ARG | _ANY_TIME
    return _KIND_BITS.get(kind, -1)


class MonopolyState(GameState):
    """A game of any Monopoly edition. Create with :func:`new_monopoly`.

    Its fields, set in ``__init__`` (the ones that need more than their name):

    - ``ruleset``: which of the family's rulesets the game plays, in its options whoever made
      it (a save file or the server keeps them): a game stored before there were rulesets plays
      ruleset 1 (meeple.kernel.family.stored_options). An older ruleset plays some rule options
      as it did (rules/rulesets.py), under the game's own.
    - ``pos``, ``offers``, ``owner``, ``level``, ``landings``: native arrays when compiled
      (meeple.kernel.arrays), the board's most-read tables. ``landings``: where each roll ended,
      after its card moves: one count per square, and a last count for rolls that ended in
      jail (apart from Just Visiting). Simulation's "landing" share.
    - ``first_player``, ``start_rolls``: who starts (rules/start.py), and a roll-off's rolls as
      (seat, die, die) triples.
    - ``round_no``, ``round_seats``: rounds begun (a simulation's round count,
      rules/turns.count_round) and, as bits, the seats that have had a turn in the current one.
      Not saved: a save replays its actions, which count them again; a restored snapshot counts
      from its own position.
    - ``dice_script``: dice to come, set by a position (meeple.kernel.position): faces in pairs
      (a second face of 0 with one die), rolled before the random stream is used again.
    - ``window``, ``window_next``: the players of this turn's any-time windows, in the order
      they come, and the index in it of the next one to open: closing a window moves the index
      on (no list shrinks and no list is made on every window); snapshots list the windows
      still to come.
    - ``pot``: money waiting on Free Parking (house rule free_parking_money): the players'
      money, not the bank's, so money is conserved as cash + pot = start + bank out - bank in.
    - ``_history``, ``_hlen``: the actions so far: a list a clone shares until one of them
      appends (_record), so a clone copies no history (a search clones at every step; the
      server for every action, where a new list of every action per game was most of the
      collector's young work). This state's actions are the list's first ``_hlen``.
    - ``kept``: what the rules keep worked out about the board, by stamp or along the log of
      changes.
    - ``changes``, ``changes_id``: the board changes of this state object, in order: the group
      named, or -1 for any or all (holdings.board_changed). A reader that remembers how far it
      read knows which groups to read again (the standard bot does); a clone starts a log of its
      own. Which log it is: a number no other log had (a copy into a used state starts a new
      log).
    """

    family = "monopoly"

    # Phases of the turn (used when no frame is on the stack).
    PRE_ROLL: Final = 0
    JAIL: Final = 1
    END_TURN: Final = 2
    WINDOW: Final = 3
    OVER: Final = 4
    PHASE_NAMES: Final = ("pre_roll", "jail", "end_turn", "window", "over")

    def __init__(
        self,
        edition: Edition,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        shuffle: bool = True,
    ) -> None:
        # shuffle=False leaves the decks in order, for a clone that sets them and the random
        # stream itself (shuffling draws from the stream: most of a clone's time otherwise).
        options = dict(options or {})
        options.setdefault("ruleset", rulesets.RULESET)
        self._options = options
        self.ruleset = int(options["ruleset"])
        edition = with_rule_overrides(edition, rulesets.rule_values(self.ruleset))
        self.ed = edition = with_rule_overrides(edition, options.get("rules"))
        self.rules = r = edition.rules
        self.max_turns = int(options.get("max_turns") or 0)
        if not r.min_players <= players <= r.max_players:
            raise ValueError(
                f"{edition.id} is for {r.min_players} to {r.max_players} players, not {players}"
            )
        self.n = players
        self._seed = seed
        self.rng = Rng(seed)
        self.cash = [r.starting_cash] * players
        self.pos = int_array([edition.go] * players)
        self.in_jail = [False] * players
        self.jail_turns = [0] * players
        self.alive = [True] * players
        self.offers = int_array([0] * players)
        size = edition.size
        self.owner = int_array([-1] * size)
        self.level = int_array([0] * size)
        self.mortgaged = [False] * size
        self.landings = int_array([0] * (size + 1))
        self.houses = r.houses
        self.hotels = r.hotels
        self.decks: list[list[int]] = []
        for d in edition.decks:
            order = list(range(len(d.cards)))
            if shuffle:
                self.rng.shuffle(order)
            self.decks.append(order)
        self.card_holder = [-1] * len(edition.jail_cards)  # seat holding each jail card, or -1
        self.start_rolls: list[int] = []
        self.first_player = start.choose_first(self) if shuffle else 0
        self.turn = self.first_player
        self.turn_no = 1
        self.round_no = 1
        self.round_seats = 0
        self.phase = self.PRE_ROLL
        self.doubles = 0
        self.dice = (0, 0)
        self.dice_script: list[int] = []
        self.window: list[int] = []
        self.window_next = 0
        self.stack: list[Frame] = []
        self.claims: list[list[int]] = []  # [owner, payer, amount, turn_no, square]
        self.eliminated: list[int] = []
        self.over = False
        self.end_reason = ""
        self.bank_in = 0
        self.bank_out = 0
        self.pot = 0
        self.snowflake = -1  # the square the snowflake token is on (Frozen II), or -1
        self.bankrupt_seat = -1  # who went bankrupt when a bankruptcy ends the game
        self._history: list[Action] = []
        self._hlen = 0
        self._events: list[Event] | None = None
        self.record_events = True
        self._legal: list[Action] | None = None
        self.board_stamp = STAMPS.next()
        self.kept = Kept(len(edition.groups), players)
        self.changes: list[int] = []
        self.changes_id = STAMPS.next()

    # -- identity -------------------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.ed.id

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
        if not self.record_history:
            raise HistoryOff()
        h = self._history
        return h if len(h) == self._hlen else h[: self._hlen]

    # -- helpers used by the rules -------------------------------------------------------

    def event(self, kind: str, **data: Any) -> None:
        """Record an event (callers check ``self._events is not None`` first: no cost unread)."""
        if self._events is not None:
            self._events.append(Event(kind, data))

    # -- the protocol -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return -1
        if self.stack:
            return self.stack[-1].decider()
        if self.phase == self.WINDOW:
            return self.window[self.window_next]
        return self.turn

    def _at(self) -> tuple[Decision, int]:
        """(:meth:`decision`, :meth:`current_player`) of a game not over, from one look at the
        top of the stack: the compiled build checks the type of every frame it reads off the
        stack, and every action asks both."""
        if self.stack:
            f = self.stack[-1]
            return f, f.decider()
        d = _phase(self.phase)
        if self.phase == self.WINDOW:
            return d, self.window[self.window_next]
        return d, self.turn

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> GameResult | None:
        if not self.over:
            return None
        winners, order, worth = turns.ranking(self)
        return GameResult(winners, order, self.end_reason, self.turn_no, worth)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def invalidate(self) -> None:
        """Forget cached answers: the legal actions and everything keyed by the board stamp, and
        work out again what the rules keep up to date (call after editing the state by hand in
        tests)."""
        self._legal = None
        holdings.work_out_kept(self)
        holdings.board_changed(self)

    def decision(self) -> Decision:
        """The decision in progress: the frame on top of the stack, else the turn's phase.
        It knows the legal actions, refusals and how to play its own actions."""
        return self.stack[-1] if self.stack else _phase(self.phase)

    def _compute_legal(self) -> list[Action]:
        if self.over:
            return []
        d, p = self._at()
        return d.legal(self, p)

    def move_on(self) -> MoveOn | None:
        """The answer that lets the table go on (meeple.kernel.asking), if there is one: the
        decision's own (``Decision.move_on``; the phases' in ``rules/turns.py``)."""
        if self.over:
            return None
        d, p = self._at()
        return d.move_on(self, p)

    def auction_bid(self, seat: int, limit: int) -> tuple[bool, Action | None]:
        return auction.proxy_bid(self, seat, limit)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now: the same answer as membership in
        :meth:`legal_actions` (plus any amount in range for a bid or trade cash), decided by
        the decision in progress from the option lists and rule checks that list is made of,
        without building it. Every action applied is checked so, so most of a game never
        builds a list of actions; ``tests/monopoly/test_is_legal.py`` checks both answers
        agree."""
        if self.over:
            return False
        d, p = self._at()
        return self._allows(p, d, action) >= 0

    def sample_legal(self, rng: Rng) -> Action:
        """A legal action drawn uniformly with one ``rng.below(len(legal_actions()))``, as
        the kernel protocol says, found by the decision in progress (``Decision.sample``):
        the phases and a trade draft count their options of each kind and make only the
        action drawn, the same one the list would give (``tests/monopoly/test_sample.py``)."""
        if self._legal is not None or self.over:  # (a list made already: read it)
            legal = self.legal_actions()
            return legal[rng.below(len(legal))]
        d, p = self._at()
        return d.sample(self, p, rng)

    def _allows(self, p: int, d: Decision, action: Action) -> int:
        """The bits of ``action``'s kind (:data:`_KIND_BITS`) when ``p`` may play it in
        ``d`` now, else -1. (apply asks the seat and the decision once, for the check and the
        play alike, and reads the bits again to play it.)"""
        kind = action.kind
        args = action.args
        if action is A.A_PASS or action is A.A_ROLL or action is A.A_END_TURN:
            bits = 0  # (most of a game's actions: three comparisons before any look-up)
        else:
            bits = _kind_bits(kind)
        if bits < 0 or len(args) != bits & _TAKES_ARG:
            return -1
        return bits if d.allows(self, p, kind, args[0] if args else 0) else -1

    def apply(self, action: Action) -> Sequence[Event]:
        if self.over:
            raise IllegalActionError(str(action), self.why_illegal(action))
        d, p = self._at()
        bits = self._allows(p, d, action)
        if bits < 0:
            raise IllegalActionError(str(action), self.why_illegal(action))
        events: list[Event] | None = [] if self.record_events else None
        self._events = events
        self._legal = None
        if self.record_history:
            self._record(action)
        # An any-time action is played the same way whichever decision allowed it; any other
        # is the decision's own.
        kind = action.kind
        arg = action.args[0] if bits & _TAKES_ARG else 0
        if bits & _ANY_TIME:
            anytime.play(self, p, kind, arg)
        else:
            d.play(self, p, kind, arg)
        self._settle()
        self._events = None
        return events if events is not None else ()

    def _record(self, action: Action) -> None:
        """Add ``action`` to the history: in place while no state sharing the list appended
        first, else to a copy of this state's own actions."""
        h = self._history
        if len(h) != self._hlen:
            h = self._history = h[: self._hlen]
        h.append(action)
        self._hlen += 1

    def _settle(self) -> None:
        """Run everything that needs no decision, until someone must decide or the game ends:
        pay debts once the cash is there, close decided auctions, skip empty windows (each
        decision's ``settle``)."""
        # (decision() written out: a call per pass costs the interpreted build)
        while not self.over:
            d = self.stack[-1] if self.stack else _phase(self.phase)
            if d.settle(self):
                return

    def setup_events(self) -> list[Event]:
        """Who starts, and the roll-off that chose them (``rules/start.py``)."""
        return start.setup_events(self)

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal now (``refusals.py``)."""
        return refusals.why_illegal(self, action)

    def decision_name(self) -> str:
        """The name of the current decision (a frame name or a phase name)."""
        return self.decision().name

    # -- copies, saves, views -----------------------------------------------------------

    def clone(self) -> MonopolyState:
        # A new state of the same edition and seats, then a copy into it. The compiled build
        # makes every object through __init__ (self.ed already has the rule overrides).
        c = MonopolyState(self.ed, self.n, self._seed, shuffle=False)
        saved.copy_to(self, c)
        return c

    def copy_into(self, spare: GameState) -> GameState:
        if not isinstance(spare, MonopolyState) or spare.ed is not self.ed or spare.n != self.n:
            return self.clone()
        saved.copy_to(self, spare)
        return spare

    def snapshot(self) -> dict[str, Any]:
        return saved.snapshot(self)

    def restore(self, snap: dict[str, Any]) -> None:
        """Load a :meth:`snapshot` into this state (same edition and seats). ``KeyError`` or
        ``ValueError`` on malformed data; the caller turns them into a save-file error."""
        saved.restore(self, snap)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it: everything on the table, nothing hidden.

        Deck order and the random state are never included (only deck sizes); an offer still
        being drafted is shown to its proposer only.
        """
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        return seen_by(self, seats)

    def money_of(self, seat: int) -> int:
        return self.cash[seat]

    def describe(self, event: Event) -> str:
        return describe_event(self, event)

    def describe_action(self, action: Action) -> str:
        return describe_action(self, action)

    def choice_text(self, action: Action, names: Sequence[str] | None = None) -> str:
        """A legal action as a person's list shows it (kernel protocol): builds and sales
        with their price, trade partners by name and number, no engine terms."""
        from meeple.games.monopoly.render import choice_text

        return choice_text(self, action, names)

    def rules_summary(self) -> list[str]:
        """The edition's main rules in words, from its rule options (kernel protocol), so a
        custom edition gets its own."""
        from meeple.games.monopoly.render import rules_lines

        return rules_lines(self.ed)


def _phase(phase: int) -> Decision:
    """The phase of the turn numbered ``phase`` (``MonopolyState.PRE_ROLL``, ...). (A test per
    phase, not an item of a tuple of decisions: the compiled build checks the type of an item
    it reads from a tuple, through the class's whole ancestry, and this is asked about twice an
    action.)"""
    if phase == MonopolyState.WINDOW:  # (the commonest)
        return _WINDOW
    if phase == MonopolyState.PRE_ROLL:
        return _PRE_ROLL
    if phase == MonopolyState.END_TURN:
        return _END_TURN
    return _IN_JAIL if phase == MonopolyState.JAIL else _OVER


def new_monopoly(
    edition: str | Edition, players: int, seed: int, options: dict[str, Any] | None = None
) -> MonopolyState:
    """Start a game of ``edition`` (an id or a loaded :class:`Edition`)."""
    ed = builtin_edition(edition) if isinstance(edition, str) else edition
    s = MonopolyState(ed, players, seed, options)
    s._settle()
    return s
