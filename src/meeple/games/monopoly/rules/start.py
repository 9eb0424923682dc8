"""Who goes first.

Friends rules A, "Who Goes First?": "All of the players take turns rolling both of the dice.
Whichever player rolls the highest starts the game." Friends rules B: "Each player rolls the
two dice. The highest roller takes the first turn." Frozen II: "Each player rolls both dice.
The highest roller starts and play moves to the left." The classic rules: "each player in turn
throws the dice. The player with the highest total starts the play." My First Monopoly, both
levels: "The youngest player goes first, and play moves to the left."

The rule option ``start_player`` says which (docs/RULES.md, "Who starts"): ``roll_off`` (the
tied highest roll again, among themselves, until one is highest), ``random`` (a seat drawn from
the game's stream: it stands in for the youngest player, whose age the engine does not know)
or ``first_seat``. The choice is made at setup from the game's own random stream, so the same
edition, options and seed start the same way; the rolls are kept (``MonopolyState.start_rolls``)
for the log (:func:`setup_events`). A game of ruleset 1 (stored before there were rulesets:
:mod:`.rulesets`) starts with seat 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.kernel.protocol import Event

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def choose_first(s: MonopolyState) -> int:
    """The seat that takes the first turn, chosen as the edition's ``start_player`` says; a
    roll-off's rolls are appended to ``s.start_rolls`` as (seat, die, die) triples."""
    how = s.rules.start_player if s.ruleset >= 2 else "first_seat"
    if how == "first_seat":
        return 0
    if how == "random":
        return s.rng.below(s.n)
    sides, two = s.rules.die_sides, s.rules.dice == 2
    rolling = list(range(s.n))
    while True:
        best, top = -1, []
        for p in rolling:
            d1 = s.rng.below(sides) + 1
            d2 = s.rng.below(sides) + 1 if two else 0
            s.start_rolls += [p, d1, d2]
            if d1 + d2 > best:
                best, top = d1 + d2, [p]
            elif d1 + d2 == best:
                top.append(p)
        if len(top) == 1:
            return top[0]
        rolling = top  # the tied highest roll again


def setup_events(s: MonopolyState) -> list[Event]:
    """The roll-off's rolls, then who starts and how (the protocol's ``setup_events``); none
    for a game set up from a snapshot or a position (``first_player`` -1)."""
    if s.first_player < 0:
        return []
    rolls = s.start_rolls
    out = [
        Event(
            "start_roll",
            {
                "player": rolls[i],
                "dice": [rolls[i + 1], rolls[i + 2]] if rolls[i + 2] else [rolls[i + 1]],
            },
        )
        for i in range(0, len(rolls), 3)
    ]
    how = s.rules.start_player if s.ruleset >= 2 else "first_seat"
    out.append(Event("first_player", {"player": s.first_player, "how": how}))
    return out
