"""Decisions: what the seat to act is deciding, and the frames that stack on the turn.

The turn itself is a phase of the state (roll, jail choice, end of turn, the windows of the
other players); frames stack on top of it (DESIGN.md, "A stack of decision frames"): an
auction asks every bidder in turn, a debt asks the debtor, a trade offer asks its recipient.
Each phase and each kind of frame is a :class:`Decision` that knows its legal actions, whether
it allows an action, why it refuses one, how to play one, and what happens with no decision
(:meth:`Decision.settle`). The rule that opens a frame owns its class: ``rules/buying.py`` the
purchase, ``rules/auction.py`` the auction, ``rules/bankruptcy.py`` the debt, and so on; the
phases live in ``rules/turns.py`` and ``rules/jail.py``. The state only asks the decision on
top (``MonopolyState.decision``).

A frame holds plain data only, so cloning a state copies it cheaply; phases hold nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from meeple.kernel.protocol import MoveOn, only_action

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng

BANK: Final = -1
# The Free Parking pot (rule option ``free_parking_money``): a creditor like the bank, whose
# money waits on Free Parking for the next player to land there (rules/money.py).
POT: Final = -2

# Kinds of thing sold at auction.
DEED: Final = 0
HOUSE: Final = 1
HOTEL: Final = 2
ITEM_NAMES: Final = ("deed", "house", "hotel")


class Decision:
    """A decision in progress: a phase of the turn or a frame on the stack.

    The any-time actions (build, sell, mortgage, lift, trade, claim: ``rules/anytime.py``) are
    played the same way whichever decision allows them, so :meth:`play` sees only the
    decision's own actions; :meth:`allows` and :meth:`legal` say which any-time actions it
    offers.
    """

    __slots__ = ()
    name = "decision"

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        """The actions seat ``p`` (the decider) may take: the list ``legal_actions`` shows."""
        raise NotImplementedError

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        """Whether ``kind arg`` is legal (the same answer as membership in :meth:`legal`,
        plus any amount in range for a bid or trade cash), without building the list."""
        raise NotImplementedError

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        """Apply this decision's own action ``kind arg`` (already checked by :meth:`allows`)."""
        raise NotImplementedError

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        """``legal[rng.below(len(legal))]`` for ``legal`` = :meth:`legal`, with that one draw
        (``MonopolyState.sample_legal``, the ``random`` bot). Here from the list itself; a
        decision whose list is long finds the same action without making the list (the phases
        of the turn, a trade draft)."""
        legal = s.legal_actions()
        return legal[rng.below(len(legal))]

    def settle(self, s: MonopolyState) -> bool:
        """Do what needs no decision; return True when someone must decide now, False when
        the state moved on and the next decision should settle in turn."""
        return True

    def refusal(self, s: MonopolyState, p: int, action: Action) -> str:
        """Why this decision refuses ``action`` in the rules' words, or "" for the general
        answer (``MonopolyState.why_illegal``)."""
        return ""

    def move_on(self, s: MonopolyState, p: int) -> MoveOn | None:
        """The answer that lets the table go on without a real choice (``meeple.kernel.asking``),
        if there is one: here, as in most frames, the only legal action (every legal action of
        a purchase, an auction, a debt or a trade answers it, so more than one is a choice)."""
        return only_action(s)


class Frame(Decision):
    """A decision pushed on the stack. ``decider`` is the seat that must act while it is on
    top."""

    __slots__ = ()
    name = "frame"

    def decider(self) -> int:
        raise NotImplementedError

    def copy(self) -> Frame:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The frame as ``seat`` may see it (a view): all of it unless it holds a secret."""
        return self.to_dict()

    def without(self, p: int) -> bool:
        """Seat ``p`` has left the game: forget it; return whether the frame is still wanted.
        By default a frame goes with its decider."""
        return self.decider() != p
