"""The kernel protocol: the narrow interface every game implements and every driver uses.

Modelled on OpenSpiel's ``State`` and catanatron's ``Game``: a driver asks who must decide now
(:meth:`GameState.current_player`), which actions are legal (:meth:`GameState.legal_actions`),
applies one (:meth:`GameState.apply`, which returns what happened as :class:`Event` values), and
reads :meth:`GameState.is_terminal` and :meth:`GameState.result`. :meth:`GameState.view` is the
only way a seat sees the state: it strips what that seat may not see (deck order, the random
state). A game is fully determined by ``(game id, options, seed, actions)``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from meeple.kernel.rng import Rng

_SPACES: Final = re.compile(r"[ \t\n\r\f\v]+")
_KIND: Final = re.compile(r"[a-z]+(?:_[a-z]+)*")
_ARG: Final = re.compile(r"-?[0-9]{1,18}")
"""An action's argument: ASCII digits only (``int`` also takes "١٢", "+5", "1_000")."""


class Action(NamedTuple):
    """A small, hashable action value: a kind and integer arguments.

    Its text form is ``"kind arg1 arg2"`` (``"bid 120"``, ``"build 39"``): readable in logs and
    save files, and parsed back by :meth:`parse`.
    """

    kind: str
    args: tuple[int, ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        return self.kind + " " + " ".join(str(a) for a in self.args)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"kind arg1 arg2"``; raises ``ValueError`` naming the part that is malformed.

        Strict, as the text comes from clients, save files and people: the kind is lower-case
        ASCII words joined by ``_``; each argument is an integer in ASCII digits (``-?[0-9]+``,
        at most 18 digits); parts are separated by ASCII whitespace. ``str(a)`` of any action a
        game makes parses back to ``a``.
        """
        parts = [p for p in _SPACES.split(text) if p]
        if not parts:
            raise ValueError("empty action")
        kind = parts[0]
        if _KIND.fullmatch(kind) is None:
            raise ValueError(
                f"action kind {kind!r} must be lower-case ASCII words joined by '_' "
                "(such as 'end_turn')"
            )
        for p in parts[1:]:
            if _ARG.fullmatch(p) is None:
                raise ValueError(
                    "action arguments are integers in ASCII digits (-?[0-9]+, at most 18 "
                    f"digits), not {p!r} (in {text!r})"
                )
        return cls(kind, tuple(int(p) for p in parts[1:]))


class Event(NamedTuple):
    """Something that happened, as data. Games turn events into plain words on request."""

    kind: str
    data: dict[str, Any]


# When a move-on comes (``MoveOn.moment``; see meeple.kernel.asking).
FORCED: Final = "forced"
"""The decision has one legal action: there is nothing to choose."""
ROLL: Final = "roll"
"""The seat's own turn, before the roll: rolling, or an any-time action first."""
END_TURN: Final = "end_turn"
"""The seat's own turn, after its moves: ending the turn, or an any-time action first."""
OTHERS_TURN: Final = "others_turn"
"""Another player's turn (a Monopoly window): passing, or an any-time action."""
PROXY: Final = "proxy"
"""A standing order the person gave ("bid up to N": :meth:`GameState.auction_bid`)."""


class MoveOn(NamedTuple):
    """The one answer that lets the table go on at the current decision.

    ``moment`` is one of :data:`FORCED`, :data:`ROLL`, :data:`END_TURN`, :data:`OTHERS_TURN`.
    ``worth_asking`` is true when an optional action a person would want to weigh is open (in
    Monopoly: the decider can afford to build); a seat's settings decide whether that asks it
    (:mod:`meeple.kernel.asking`).
    """

    action: Action
    moment: str
    worth_asking: bool = False


@dataclass
class GameResult:
    """The outcome of a finished game.

    ``ranking`` lists seats from first place down; ``winners`` are the seats sharing first
    place (one unless the game's tie-break leaves a tie). ``end_reason`` names why the game
    ended (``"last_player_standing"``, ``"turn_cap"``, ...). ``sheets``: each seat's score
    sheet, for a game that scores in steps (Monopolis: points per scoring step and the total);
    empty otherwise.
    """

    winners: list[int]
    ranking: list[int]
    end_reason: str
    turns: int
    scores: list[float] = field(default_factory=list)
    sheets: list[dict[str, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "end_reason": self.end_reason,
            "turns": self.turns,
            "scores": list(self.scores),
        }
        if self.sheets:
            out["sheets"] = [dict(sheet) for sheet in self.sheets]
        return out


# Compiled by mypyc with the Monopoly engine (tools/compile.py), so that MonopolyState is a
# native class (attributes in C slots, not a dict); games that are not compiled still subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class GameState(ABC):
    """One game in progress. Subclasses hold flat, cheaply copied data."""

    #: The game family id (``"monopoly"``, ``"monopolis"``).
    family: str = ""

    @property
    @abstractmethod
    def game_id(self) -> str:
        """The id a user types: an edition id (``"classic"``) or ``"monopolis"``."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    @property
    @abstractmethod
    def seed(self) -> int:
        """The seed the game was created with."""

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The game options the game was created with (JSON-able)."""

    @property
    @abstractmethod
    def history(self) -> list[Action]:
        """Every action applied since the start, in order. A state whose
        :attr:`record_history` is off has none to give, and raises
        :class:`~meeple.kernel.errors.HistoryOff`."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat that must decide now, or -1 when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions of the current decision, in a stable order.

        Actions with an amount (a bid, cash in a trade) list a ladder of amounts; any amount in
        the documented range is also accepted by :meth:`apply` (see :meth:`is_legal`).
        """

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        return action in self.legal_actions()

    def sample_legal(self, rng: Rng) -> Action:
        """A legal action drawn uniformly at random with ``rng`` (the ``random`` bot's move).

        The contract: the answer is ``legal[rng.below(len(legal))]`` for ``legal =
        self.legal_actions()``, with that one draw from ``rng`` and no other, so a family
        may override it to find the same action without building the list (the Monopoly
        family counts the options of each kind and makes only the one drawn) and the games
        of ``random`` bots stay the same. Ask only while the game is not over."""
        legal = self.legal_actions()
        return legal[rng.below(len(legal))]

    @abstractmethod
    def apply(self, action: Action) -> Sequence[Event]:
        """Apply ``action`` for the current player and return the events it caused.

        Raises :class:`~meeple.kernel.errors.IllegalActionError` (state untouched) if the action
        is not legal now. Events are returned only while :attr:`record_events` is true (an
        empty sequence otherwise: a simulation makes no list per action).
        """

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def result(self) -> GameResult | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Never deck order or random state."""

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats`` at one position (a server's update to every seat).

        A game may make what all of them see alike once and share it between the views, so a
        view is read-only: nothing may change it or its parts.
        """
        return [self.view(seat) for seat in seats]

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data (secrets included: this is the save file's core)."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy (for search): no shared mutable data."""

    def copy_into(self, spare: GameState) -> GameState:
        """A copy of this state, as :meth:`clone` makes it, made in ``spare``'s storage where
        the family can (``spare`` is then overwritten and returned); by default a new clone.

        For a holder of many long-lived games (the server applies each action to a copy, and
        keeps the replaced position as the next copy's storage): a copy into old lists makes
        no new objects for the garbage collector's young generation to look at again and
        again while they live (issue 17's collector pauses)."""
        return self.clone()

    @abstractmethod
    def describe(self, event: Event) -> str:
        """An event in plain words."""

    @abstractmethod
    def describe_action(self, action: Action) -> str:
        """An action in plain words for the current position."""

    def setup_events(self) -> list[Event]:
        """What happened at setup, before the first action, for the log (``describe`` puts
        each in words): who starts, and how they were chosen (Monopoly's roll-off). Empty by
        default, and for a game set up from a snapshot or a position."""
        return []

    def move_on(self) -> MoveOn | None:
        """The answer that lets the table go on without a real choice, if the current decision
        has one: by default the only legal action (``FORCED``). Games with optional any-time
        actions say which answer moves on past them (Monopoly: ``pass``, ``roll``,
        ``end_turn``). ``None`` when the decision is a real choice."""
        return None if self.is_terminal() else only_action(self)

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal now (for a person: a refused request,
        a disabled control). Games say more than this default."""
        return "it is not one of the choices now"

    def auction_bid(self, seat: int, limit: int) -> tuple[bool, Action | None]:
        """A standing order "bid up to ``limit``" (a proxy bid a front end plays for a person):
        whether ``seat`` is still in an open auction, and what it plays now if it decides (the
        smallest raise while that stays within ``limit`` and its cash, else dropping out).
        ``(False, None)`` when no auction is open for ``seat``: the order then lapses. Games
        without auctions keep this default."""
        return False, None

    def money_of(self, seat: int) -> int:
        """The cash (money) ``seat`` holds now: for per-game records."""
        return 0

    def choice_text(self, action: Action, names: Sequence[str] | None = None) -> str:
        """A legal action as a front end lists it for a person (``names``: the seats' names);
        by default :meth:`describe_action`, capitalised."""
        text = self.describe_action(action)
        return text[:1].upper() + text[1:]

    def rules_summary(self) -> list[str]:
        """The game's rules in a few sentences of plain words, for newcomers (the terminal's
        ``info``, the web page's rules panel); empty if the game has none."""
        return []

    def render(self) -> str:
        """The table as text for a terminal (the board, the city); empty if the game has none."""
        return ""

    record_events: bool = True

    record_history: bool = True
    """Whether :meth:`apply` adds each action to :attr:`history`. A simulation that neither
    saves nor audits its games turns it off (``meeple.sim.runner``), as it turns off
    :attr:`record_events`: most of its games are never looked at again, and appending every
    action costs about 2% of a game (issue 18). Set it before the first action: a state that
    did not record from the start has no history to give
    (:class:`~meeple.kernel.errors.HistoryOff`), and its clones inherit the setting. A family
    may keep its history anyway (Monopolis does: its snapshot holds it, and its games are
    short)."""


def only_action(state: GameState) -> MoveOn | None:
    """The only legal action of ``state`` as its forced move-on answer (``FORCED``); ``None``
    when there is a choice (the default of :meth:`GameState.move_on`, and of a decision that
    has no answer of its own)."""
    legal = state.legal_actions()
    return MoveOn(legal[0], FORCED) if len(legal) == 1 else None
