"""The exact long-run share of dice rolls that end on each square: a Markov chain.

A **state** is the situation just before a roll: the square the player stands on and how many
doubles they have rolled so far this turn, or "in jail" with the number of failed tries at
doubles. One **transition** is one roll and everything it causes, read from the compiled
:class:`~meeple.games.monopoly.edition.Edition` (never from a hard-coded board), so the same
code serves every edition:

- the move by the dice total (Friends rules B, "On Your Turn": "roll both dice ... move
  clockwise"); a double rolls again, the third double in one turn goes to jail without moving
  (Friends rules A, "Rolling doubles"; rule options ``dice``, ``doubles_roll_again``,
  ``doubles_to_jail``; a one-die edition never rolls doubles);
- the square's effect on position: Go to Jail (Friends rules A, "Go to Jail"), a card square
  draws a card of its deck (Friends rules A, "Apartment 19 and Apartment 20"), whose
  ``move_to`` / ``move_to_nearest`` / ``move_relative`` / ``go_to_jail`` moves apply, and a
  card square reached by a card move draws again (classic: Chance 36 "Go back 3 spaces" to
  Community Chest 33); an Element square travels on to the next one (Frozen II, "Element");
- jail (Friends rules A, "Getting Out of Jail"), by the ``jail`` argument:

  ``"short"``: the jailed player pays the fine at the start of their next turn and rolls as
  usual, so the jail state is left at once and the next roll is an ordinary roll from the
  jail square; ``"long"``: they roll for doubles up to ``rules.max_jail_turns`` times; doubles
  move them out by that roll (no extra roll: ``rules.jail_doubles_extra_roll``, which changes
  nothing here as the doubles count starts again at 0 either way); the last miss pays and moves
  by that roll. Editions with Time Out instead of jail (My First Monopoly: "pay $1" or use a
  card at the start of the next turn, then "take your turn") have no tries at doubles: both
  settings give the ``short`` chain.

The share of rolls that end on square *s* is the stationary weight of the states "just before
a roll, standing on *s*" (each state records where the previous roll ended). A roll that ends
with the player in jail (sent there, or a failed try at doubles) counts as **in jail**, apart
from Just Visiting, so the Go to Jail square itself has share 0. These are exactly the counts
the engine keeps in :attr:`MonopolyState.landings <meeple.games.monopoly.state.MonopolyState>`.

Approximation, as in every published Monopoly chain: cards are drawn uniformly (each card of
a deck with probability 1/deck size) at every draw, the long-run frequency of a shuffled deck
that cycles (a drawn card goes to the bottom), ignoring the order within the cycle. A Get Out
of Jail Free card is a card that does not move you (in the real game it is held out of the deck
until used); with ``kept_jail_cards`` the chain instead leaves every Get Out of Jail Free card out
of its deck, the long run of a game whose players keep those cards and never use them.

The solve is exact (:class:`~fractions.Fraction`, :func:`~meeple.analysis.stationary.stationary`):
each probability is a reduced fraction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from meeple.analysis.stationary import closed_class, stationary
from meeple.games.monopoly.tables import (
    CARD,
    ELEMENT,
    GO_TO_JAIL,
    OP_GET_OUT_OF_JAIL_FREE,
    OP_GO_TO_JAIL,
    OP_MOVE_RELATIVE,
    OP_MOVE_TO,
    OP_MOVE_TO_NEAREST,
    Edition,
)

JailPolicy = Literal["short", "long"]
JAIL_POLICIES: tuple[JailPolicy, ...] = ("short", "long")

JAILED = -1
"""The "final square" of a roll that ends in jail."""
PLAIN = -1
"""How a roll reached its final square: by the dice, a plain card move or an Element, or
(any other value) by a "nearest railroad/utility" card with that rent multiplier."""

Arrival = tuple[int, int]
"""(final square or :data:`JAILED`, :data:`PLAIN` or a nearest card's multiplier)."""


def dice_outcomes(ed: Edition) -> list[tuple[int, bool, Fraction]]:
    """Every (total, is a double, probability) of one roll of the edition's dice."""
    sides = ed.rules.die_sides
    if ed.rules.dice == 1:
        return [(d, False, Fraction(1, sides)) for d in range(1, sides + 1)]
    acc: dict[tuple[int, bool], int] = {}
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            key = (a + b, a == b)
            acc[key] = acc.get(key, 0) + 1
    return [(t, d, Fraction(c, sides * sides)) for (t, d), c in sorted(acc.items())]


def arrivals(ed: Edition, kept_jail_cards: bool = False) -> list[dict[Arrival, Fraction]]:
    """For each square, where a move onto it finally ends, after the square's effects.

    Mirrors :func:`meeple.games.monopoly.rules.landing.land` and
    :func:`meeple.games.monopoly.rules.cards.resolve` for position. Card squares can lead to
    card squares (possibly in a loop), so their arrivals solve a small linear system
    ``X = direct + T X`` over the card squares, exactly.
    """
    n = ed.size

    def stop(sq: int) -> Arrival:
        kind = ed.kind[sq]
        if kind == GO_TO_JAIL:
            return (JAILED, PLAIN)
        if kind == ELEMENT:  # travels on to the next Element, which does not travel again
            return (ed.nearest[ELEMENT][sq], PLAIN)
        return (sq, PLAIN)

    card_squares = [sq for sq in range(n) if ed.kind[sq] == CARD]
    index = {sq: i for i, sq in enumerate(card_squares)}
    direct: list[dict[Arrival, Fraction]] = [{} for _ in card_squares]
    links: list[dict[int, Fraction]] = [{} for _ in card_squares]
    for i, sq in enumerate(card_squares):
        deck = ed.decks[ed.deck_of[sq]].cards
        if kept_jail_cards:
            deck = tuple(c for c in deck if c.op != OP_GET_OUT_OF_JAIL_FREE)
        if not deck:  # nothing left to draw: the square does nothing
            direct[i][sq, PLAIN] = Fraction(1)
            continue
        w = Fraction(1, len(deck))

        def add(key: Arrival, p: Fraction, row: dict[Arrival, Fraction]) -> None:
            row[key] = row.get(key, Fraction(0)) + p

        def land(target: int, p: Fraction, i: int = i) -> None:
            if ed.kind[target] == CARD:
                links[i][index[target]] = links[i].get(index[target], Fraction(0)) + p
            else:
                add(stop(target), p, direct[i])

        for card in deck:
            if card.op == OP_MOVE_TO:
                land(card.a, w)
            elif card.op == OP_MOVE_RELATIVE:
                land((sq + card.a) % n, w)
            elif card.op == OP_MOVE_TO_NEAREST:
                target = ed.nearest[card.a][sq]
                if card.a == ELEMENT:  # an Element reached by card travels on
                    land(target, w)
                else:
                    add((target, card.b), w, direct[i])
            elif card.op == OP_GO_TO_JAIL:
                add((JAILED, PLAIN), w, direct[i])
            else:  # money, repairs, snowflake, Get Out of Jail Free: no move
                add((sq, PLAIN), w, direct[i])
    solved = _solve_links(direct, links)
    return [solved[index[sq]] if sq in index else {stop(sq): Fraction(1)} for sq in range(n)]


def _solve_links(
    direct: list[dict[Arrival, Fraction]], links: list[dict[int, Fraction]]
) -> list[dict[Arrival, Fraction]]:
    """Solve ``X_i = direct_i + sum_j links[i][j] X_j`` by Gauss-Jordan elimination."""
    k = len(direct)
    a = [[Fraction(int(i == j)) - links[i].get(j, Fraction(0)) for j in range(k)] for i in range(k)]
    rhs = [dict(d) for d in direct]
    for col in range(k):
        piv = next((r for r in range(col, k) if a[r][col] != 0), None)
        if piv is None:
            raise ValueError("a loop of card moves that never ends")
        a[col], a[piv] = a[piv], a[col]
        rhs[col], rhs[piv] = rhs[piv], rhs[col]
        inv = 1 / a[col][col]
        a[col] = [x * inv for x in a[col]]
        rhs[col] = {key: x * inv for key, x in rhs[col].items()}
        for r in range(k):
            f = a[r][col]
            if r == col or f == 0:
                continue
            a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
            row = rhs[r]
            for key, x in rhs[col].items():
                row[key] = row.get(key, Fraction(0)) - f * x
    return [{key: x for key, x in row.items() if x != 0} for row in rhs]


@dataclass(frozen=True)
class Step:
    """One outcome of one roll: the next state, its probability, and how the roll ended."""

    to: int
    p: Fraction
    final: int  # the square the roll ended on, or JAILED
    how: int  # PLAIN or a nearest card's multiplier
    total: int  # the dice total of the roll


class LandingChain:
    """The chain's states and transitions for one edition and jail policy.

    States are numbered ``square * D + doubles`` (``D = rules.doubles_to_jail``) for a player
    standing on ``square`` with ``doubles`` doubles rolled this turn, then ``size * D + k``
    for a player in jail after ``k`` failed tries (``k = 0`` only, under ``short``).
    """

    def __init__(self, ed: Edition, jail: JailPolicy, kept_jail_cards: bool = False) -> None:
        if jail not in JAIL_POLICIES:
            raise ValueError(f"jail must be one of {', '.join(JAIL_POLICIES)}, not {jail!r}")
        self.ed = ed
        self.jail = jail
        r = ed.rules
        self.long = jail == "long" and r.jail_style == "jail"
        self.D = r.doubles_to_jail
        self.tries = r.max_jail_turns if self.long else 1
        self.size = ed.size * self.D + self.tries
        self.dice = dice_outcomes(ed)
        self.arrive = arrivals(ed, kept_jail_cards)

    def state(self, square: int, doubles: int) -> int:
        return square * self.D + doubles

    def jail_state(self, tries: int) -> int:
        return self.ed.size * self.D + tries

    def describe(self, state: int) -> str:
        n = self.ed.size * self.D
        if state >= n:
            return f"in jail after {state - n} tries"
        sq, d = divmod(state, self.D)
        return f"on {self.ed.square_names[sq]} ({sq}), {d} doubles this turn"

    def steps(self, state: int) -> Iterator[Step]:
        """Every outcome of the roll made from ``state``."""
        ed = self.ed
        n = ed.size
        jail0 = self.jail_state(0)
        if state >= n * self.D:
            tries = state - n * self.D
            if not self.long:  # pays at once (or Time Out): an ordinary roll from the jail
                yield from self.steps(self.state(ed.jail, 0))
                return
            for total, double, p in self.dice:
                if not double and tries + 1 < self.tries:
                    yield Step(self.jail_state(tries + 1), p, JAILED, PLAIN, total)
                else:  # out on doubles, or pays after the last miss: moves by this roll
                    yield from self._move(ed.jail, total, p, 0)
            return
        sq, doubles = divmod(state, self.D)
        again = ed.rules.doubles_roll_again
        for total, double, p in self.dice:
            if double and doubles + 1 >= self.D:  # the third double: to jail, no move
                yield Step(jail0, p, JAILED, PLAIN, total)
            else:
                yield from self._move(sq, total, p, doubles + 1 if double and again else 0)

    def _move(self, sq: int, total: int, p: Fraction, next_doubles: int) -> Iterator[Step]:
        for (final, how), q in self.arrive[(sq + total) % self.ed.size].items():
            if final == JAILED:
                yield Step(self.jail_state(0), p * q, JAILED, how, total)
            else:
                yield Step(self.state(final, next_doubles), p * q, final, how, total)

    def rows(self) -> list[dict[int, Fraction]]:
        """The transition matrix, one sparse row per state."""
        out: list[dict[int, Fraction]] = []
        for s in range(self.size):
            row: dict[int, Fraction] = {}
            for st in self.steps(s):
                row[st.to] = row.get(st.to, Fraction(0)) + st.p
            out.append(row)
        return out


@dataclass(frozen=True)
class LandingResult:
    """The long-run share of rolls ending on each square, in jail, and how they got there.

    ``squares[s]`` and ``in_jail`` sum to exactly 1. ``nearest[s]`` maps a nearest card's
    multiplier to the share of rolls that reached ``s`` by that card; ``dice_weighted[s]`` is
    the expected dice total times the indicator of a roll ending on ``s`` by the dice or a
    plain move (what a utility charges per roll at multiplier 1).
    """

    edition: Edition
    jail: JailPolicy
    kept_jail_cards: bool
    squares: tuple[Fraction, ...]
    in_jail: Fraction
    nearest: tuple[dict[int, Fraction], ...]
    dice_weighted: tuple[Fraction, ...]
    states: int
    state_weights: dict[int, Fraction]

    @property
    def jail_rule(self) -> str:
        """The jail rule the chain used, in words."""
        r = self.edition.rules
        if r.jail_style == "time_out":
            return "Time Out: leave at the start of the next turn, then roll (as short)"
        if self.jail == "short":
            return f"short: pay {r.jail_fine} at the start of the next turn, then roll"
        return (
            f"long: roll for doubles up to {r.max_jail_turns} times, then pay and move by the "
            "last roll"
        )

    def ranked(self) -> list[int]:
        """Squares by share, most landed on first (ties by board order)."""
        return sorted(range(len(self.squares)), key=lambda s: (-self.squares[s], s))


def landing_analysis(ed: Edition, jail: JailPolicy, kept_jail_cards: bool = False) -> LandingResult:
    """Solve the landing chain of ``ed`` under the ``jail`` policy, exactly.

    ``kept_jail_cards``: leave the Get Out of Jail Free cards out of their decks (see the
    module notes); by default they stay in and do not move you.
    """
    chain = LandingChain(ed, jail, kept_jail_cards)
    rows = chain.rows()
    states = closed_class(rows, chain.state(ed.go, 0))
    # Remove the "after a double" states first (few rolls enter them), the rest last.
    n = ed.size * chain.D
    order = sorted(states, key=lambda s: (-(s % chain.D) if s < n else 0, s))
    pi = stationary(rows, order)
    squares = [Fraction(0)] * ed.size
    jailed = Fraction(0)
    for s, w in pi.items():
        if s >= n:
            jailed += w
        else:
            squares[s // chain.D] += w
    nearest: list[dict[int, Fraction]] = [{} for _ in range(ed.size)]
    dice_weighted = [Fraction(0)] * ed.size
    for s, w in pi.items():
        for st in chain.steps(s):
            if st.final == JAILED:
                continue
            if st.how == PLAIN:
                dice_weighted[st.final] += w * st.p * st.total
            else:
                got = nearest[st.final]
                got[st.how] = got.get(st.how, Fraction(0)) + w * st.p
    return LandingResult(
        ed,
        jail,
        kept_jail_cards,
        tuple(squares),
        jailed,
        tuple(nearest),
        tuple(dice_weighted),
        len(states),
        pi,
    )
