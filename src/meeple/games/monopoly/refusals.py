"""Why an action is refused: the sentence ``MonopolyState.why_illegal`` gives (kernel protocol).

The decision in progress gives its own reason in the rules' words when it has one
(``Decision.refusal``: "you cannot build: Boardwalk is mortgaged"), else the any-time rules
do (``rules/anytime.py``); failing both, the sentence says what is legal instead, so a person
or a program sending a wrong action learns what it may send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.rules import anytime

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


# Each decision in the words a person reads (issue 38: never the engine's phase names).
DECISION_WORDS: dict[str, str] = {
    "pre_roll": "what to do before the roll",
    "jail": "how to get out of {jail}",  # the edition's word: My First Monopoly's Time Out
    "end_turn": "what to do before ending the turn",
    "window": "whether to act before the next turn",
    "buy": "whether to buy the deed",
    "auction": "on a bid in the auction",
    "debt": "how to raise the money owed",
    "trade": "on the trade offer",
    "mortgage_fee": "whether to lift a mortgage received",
    "shortage": "whether to want one of the buildings in short supply",
    "place": "where to place the building won",
    "snowflake": "where to put the snowflake",
}


def _decision_words(s: MonopolyState, name: str) -> str:
    words = DECISION_WORDS.get(name, name.replace("_", " "))
    return words.format(jail=s.ed.names.jail)


def why_illegal(s: MonopolyState, action: Action) -> str:
    """A sentence saying why ``action`` is not legal in ``s`` now."""
    if s.over:
        return "the game is over"
    p = s.current_player()
    if action.kind not in A.ALL_KINDS:
        return f"there is no action {action.kind!r}"
    why = s.decision().refusal(s, p, action) or anytime.refusal(s, p, action)
    if why:
        return why
    legal = s.legal_actions()
    kinds = sorted({a.kind for a in legal})
    if action.kind not in kinds:
        name = s.decision_name()
        return (
            f"Player {p + 1} must decide {_decision_words(s, name)} "
            f"now; legal action kinds: {', '.join(kinds)}"
        )
    args = sorted(str(a) for a in legal if a.kind == action.kind)
    return f"{action} is not one of the legal choices: {', '.join(args)}"
