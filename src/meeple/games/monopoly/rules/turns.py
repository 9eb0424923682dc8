"""The turn, the any-time windows, and the end of the game.

Friends rules B, "On Your Turn" and "Don't Wait for the Dice": building, selling, mortgaging,
trading and collecting rent are open to every player "even when it isn't your turn - even if
you're in Jail". They are offered at these windows (docs/RULES.md, "Any-time windows"):

1. the player on turn, before each roll (and before the jail choice);
2. the player on turn, after their moves, before ending the turn;
3. every other player still in the game, in seat order from the left, once the turn ends and
   before the next player rolls; a window closes when its player passes, and is skipped when
   there is nothing they could do;
4. a debtor raising money, and a buyer raising money to buy, may sell buildings and mortgage
   (and a debtor may trade).

"The game ends as soon as all but one of the players have been eliminated" (Friends rules A,
"Winning"). A simulation may cap the number of turns: a capped game ends with the reason
``turn_cap`` and ranks the players by net worth (docs/RULES.md, "Turn cap").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.rules import money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def end_turn(s: MonopolyState) -> None:
    """The player on turn is done: the other players' windows open, then the next turn."""
    s.phase = s.WINDOW
    # The others still playing, in seat order from the left of the player on turn.
    n, t, alive = s.n, s.turn, s.alive
    window = []
    for i in range(1, n):
        q = (t + i) % n
        if alive[q]:
            window.append(q)
    s.window = window
    s.window_next = 0


def next_turn(s: MonopolyState) -> None:
    if s.max_turns and s.turn_no >= s.max_turns:
        finish(s, "turn_cap")
        return
    s.turn = s.next_seat(s.turn)
    s.turn_no += 1
    s.doubles = 0
    for i in range(len(s.offers)):
        s.offers[i] = 0
    s.phase = s.JAIL if s.in_jail[s.turn] else s.PRE_ROLL
    if s._events is not None:
        s.event("turn", player=s.turn, turn=s.turn_no)


def expire_claims(s: MonopolyState) -> None:
    """Rent not claimed before the next player's roll is forgiven."""
    if s.claims:
        s.claims = [c for c in s.claims if c[3] >= s.turn_no]


def finish(s: MonopolyState, reason: str) -> None:
    s.over = True
    s.end_reason = reason
    s.stack.clear()
    s.window = []
    s.window_next = 0
    s.phase = s.OVER
    if s._events is not None:
        s.event("game_over", reason=reason)


def ranking(s: MonopolyState) -> tuple[list[int], list[int], list[float]]:
    """(winners, ranking, scores) by the edition's ranking rule.

    ``net_worth`` (classic; a capped game): the survivors by net worth, ties sharing first place
    and listed in seat order, then the eliminated in reverse order of elimination; a game won by
    the last player standing has them alone first. ``properties_then_cash`` (My First Monopoly
    level 1: "The player with the most properties wins! If there is a tie, the tied player with
    the most money wins!") and ``cash_then_properties`` (level 2: "all other players count up
    their cash. The player with the most cash wins! If there is a tie, the tied player with the
    most properties wins!"), the bankrupt player last. Scores: net worth, properties or cash.
    """
    mode = s.rules.ranking
    seats = [p for p in range(s.n) if s.alive[p] and p != s.bankrupt_seat]
    props = [s.owner.count(p) for p in range(s.n)]
    keys: dict[int, tuple[float, ...]]
    if mode == "net_worth":
        scores = [float(money.net_worth(s, p)) if s.alive[p] else 0.0 for p in range(s.n)]
        keys = {p: (scores[p],) for p in seats}
    elif mode == "properties_then_cash":
        scores = [float(x) for x in props]
        keys = {p: (props[p], s.cash[p]) for p in seats}
    else:
        scores = [float(c) for c in s.cash]
        keys = {p: (s.cash[p], props[p]) for p in seats}
    seats.sort(key=lambda p: tuple(-k for k in keys[p]))
    order = (
        seats + ([s.bankrupt_seat] if s.bankrupt_seat >= 0 else []) + list(reversed(s.eliminated))
    )
    winners = [p for p in seats if keys[p] == keys[seats[0]]] if seats else []
    return winners, order, scores
