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

from mypy_extensions import i64

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import Decision
from meeple.games.monopoly.rules import anytime, holdings, jail, landing, money, movement
from meeple.games.monopoly.rules.table import finish as finish
from meeple.games.monopoly.rules.table import next_seat as next_seat
from meeple.games.monopoly.rules.table import seats_from as seats_from
from meeple.kernel.protocol import END_TURN as MOVE_END_TURN
from meeple.kernel.protocol import OTHERS_TURN, MoveOn
from meeple.kernel.protocol import ROLL as MOVE_ROLL

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


class Phase(Decision):
    """A phase of the turn, under any frames: its own action, which moves the table on, and
    the any-time actions (``rules/anytime.py``) of the player it waits for."""

    __slots__ = ()

    def refusal(self, s: MonopolyState, p: int, action: Action) -> str:
        if action.kind == A.BUILD and len(action.args) == 1 and s.rules.buildings:
            return anytime.build_refusal(s, p, action.args[0])
        return ""


class MoveOnPhase(Phase):
    """A phase with one action of its own, which moves the table on (``roll`` before the
    roll, ``end_turn`` at the end of the turn, ``pass`` in another player's window), beside
    the optional any-time actions: that action is the phase's move-on answer
    (``meeple.kernel.asking``), worth asking about when the decider can afford to build. A
    rent claim open to the decider (the rent-claims option: unclaimed rent is lost) is a real
    choice."""

    __slots__ = ("lead", "moment", "own")

    def __init__(self, own: Action, moment: str) -> None:
        self.own = own
        self.lead = [own]  # what the list of legal actions starts with (sample)
        self.moment = moment

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return [self.own, *anytime.options(s, p)]

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        return anytime.sample(s, p, rng, self.lead)

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        if kind == self.own.kind:
            return True
        return anytime.allows(s, p, kind, arg)  # (False for a kind that is no any-time one)

    def move_on(self, s: MonopolyState, p: int) -> MoveOn | None:
        if anytime.has_claim(s, p):
            return None
        return MoveOn(self.own, self.moment, bool(anytime.build_options(s, p)))


class PreRoll(MoveOnPhase):
    """Before the roll: roll (or first build, sell, mortgage, trade, claim)."""

    __slots__ = ()
    name = "pre_roll"

    def __init__(self) -> None:
        super().__init__(A.A_ROLL, MOVE_ROLL)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        expire_claims(s)
        roll_and_move(s, p)
        count_landing(s, p)


class InJail(Phase):
    """In jail before the roll: pay the fine, use a card or (not in Time Out) try for doubles
    (``rules/jail.py``). With no way out in Time Out, the player leaves (or is insolvent) as
    the edition says, with nothing to decide."""

    __slots__ = ()
    name = "jail"

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return self.ways_out(s, p) + anytime.options(s, p)

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        """:meth:`legal`'s action drawn by one ``rng.below`` (``Decision.sample``): the ways
        out listed, the any-time actions counted (``anytime.sample``)."""
        return anytime.sample(s, p, rng, self.ways_out(s, p))

    def ways_out(self, s: MonopolyState, p: int) -> list[Action]:
        """The phase's own actions, which :meth:`legal` lists first."""
        out = []
        if jail.may_pay_fine(s, p):
            out.append(A.A_PAY_FINE)
        out += [A.act(A.USE_CARD, d) for d, h in enumerate(s.card_holder) if h == p]
        if s.rules.jail_style == "jail":  # Time Out has no tries at doubles
            out.append(A.A_ROLL)
        return out

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        if kind in anytime.KINDS:
            return anytime.allows(s, p, kind, arg)
        if kind == A.ROLL:
            return s.rules.jail_style == "jail"
        if kind == A.PAY_FINE:
            return jail.may_pay_fine(s, p)
        if kind == A.USE_CARD:
            return 0 <= arg < len(s.card_holder) and s.card_holder[arg] == p
        return False

    def refusal(self, s: MonopolyState, p: int, action: Action) -> str:
        if action.kind == A.PAY_FINE and not jail.may_pay_fine(s, p):
            fine = s.rules.jail_fine
            if s.cash[p] < fine:
                return f"the fine is {fine} and your cash is {s.cash[p]}"
            return (
                f"the fine is paid before rolling on your first {s.rules.max_jail_turns - 1} "
                f"turns in {s.ed.names.jail} only: on the last try roll, and pay after a miss"
            )
        return super().refusal(s, p, action)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        if kind == A.ROLL:
            expire_claims(s)
            jail.roll_in_jail(s, p)
            count_landing(s, p)
        elif kind == A.PAY_FINE:
            jail.pay_fine(s, p)
        else:
            jail.use_card(s, p, arg)

    def settle(self, s: MonopolyState) -> bool:
        if s.rules.jail_style == "time_out" and jail.time_out_stuck(s, s.turn):
            jail.leave_time_out_broke(s, s.turn)
            return False
        return True


class EndTurn(MoveOnPhase):
    """After the moves: end the turn. Skipped when the player could do nothing else."""

    __slots__ = ()
    name = "end_turn"

    def __init__(self) -> None:
        super().__init__(A.A_END_TURN, MOVE_END_TURN)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        end_turn(s)

    def settle(self, s: MonopolyState) -> bool:
        if anytime.has_any(s, s.turn):
            return True
        end_turn(s)
        return False


class Window(MoveOnPhase):
    """Another player's window between turns: pass. Skipped when they could do nothing."""

    __slots__ = ()
    name = "window"

    def __init__(self) -> None:
        super().__init__(A.A_PASS, OTHERS_TURN)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        s.window_next += 1  # the window closes

    def settle(self, s: MonopolyState) -> bool:
        if s.window_next == len(s.window):
            next_turn(s)
            return False
        if anytime.has_any(s, s.window[s.window_next]):
            return True
        s.window_next += 1
        return False


class Over(Phase):
    """The game is over: nothing is legal."""

    __slots__ = ()
    name = "over"

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return []

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        return False

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        raise AssertionError("the game is over")


def count_landing(s: MonopolyState, p: int) -> None:
    """Where the roll ended, after its card moves, for the simulator's landing shares: the
    square, or the last count for a roll that ended in jail (apart from Just Visiting)."""
    # (a machine word, as the array's index: a ternary of an int and an array's item would
    # be a boxed object, and the array read through a generic call)
    at: i64 = s.ed.size if s.in_jail[p] else s.pos[p]
    s.landings[at] = s.landings[at] + 1  # (as money.bank_pays says why)


def landing_counts(s: MonopolyState) -> list[int]:
    """The counts of :func:`count_landing`, as a new list (a simulation's record of the game).

    Read here, in compiled code, and not by passing ``s.landings`` to a compiled function from
    interpreted code: ``librt`` 0.17 keeps a reference to the buffer of a ``vec`` unboxed at
    that boundary, and the whole table outlived its game (352 bytes a game, found by
    ``tracemalloc``; docs/KERNEL.md, "Arrays")."""
    return [x for x in s.landings]


def end_turn(s: MonopolyState) -> None:
    """The player on turn is done: the other players' windows open, then the next turn."""
    s.phase = s.WINDOW
    # The others still playing, in seat order from the left of the player on turn.
    # (The state's own list, written over: a turn's new list cost the compiled build more than
    # the rest of the turn's end, and so did emptying it, which gives its memory back. No
    # other object holds it: copies copy it.)
    n, t, alive = s.n, s.turn, s.alive
    window = s.window
    k = 0
    for i in range(1, n):
        q = t + i if t + i < n else t + i - n
        if alive[q]:
            if k < len(window):
                window[k] = q
            else:
                window.append(q)
            k += 1
    if len(window) > k:  # (seldom: after a player left)
        del window[k:]
    s.window_next = 0


def next_turn(s: MonopolyState) -> None:
    if s.max_turns and s.turn_no >= s.max_turns:
        finish(s, "turn_cap")
        return
    done = s.turn
    s.turn = next_seat(s, done)
    count_round(s, done)
    s.turn_no += 1
    s.doubles = 0
    offers = s.offers
    for i in range(len(offers)):
        if offers[i]:  # (seldom: reading is cheaper than writing)
            offers[i] = 0
    s.phase = s.JAIL if s.in_jail[s.turn] else s.PRE_ROLL
    if s._events is not None:
        s.event("turn", player=s.turn, turn=s.turn_no)


def count_round(s: MonopolyState, done: int) -> None:
    """Count rounds (``MonopolyState.round_no``, a simulation's ``rounds``): ``done`` has
    finished a turn and ``s.turn`` begins one. A round is a turn of every player still in, in
    turn order; a new one begins when the turn comes to a player who has had a turn in the
    current one. With eliminations this still holds: a round's first player may be gone, and
    the round then ends when the turn reaches anyone who played in it (docs/KERNEL.md,
    "Rounds")."""
    seen = s.round_seats | (1 << done)
    if (seen >> s.turn) & 1:
        s.round_no += 1
        seen = 0
    s.round_seats = seen


def expire_claims(s: MonopolyState) -> None:
    """Rent not claimed in time is forgiven: at a roll of the ``rent_claim_turns``-th turn
    after the one it was owed in (the classic rules, "PAYING RENT": "The owner may not collect
    the rent if he/she fails to ask for it before the second player following throws the
    dice", 2; Friends rules B: "before the player to your left rolls the dice", 1). The
    payer's own extra rolls after a double do not count."""
    if s.claims:
        last = s.turn_no - s.rules.rent_claim_turns  # claims owed after this turn still stand
        s.claims = [c for c in s.claims if c[3] > last]


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
    props = [holdings.count_bits(s.kept.held[p]) for p in range(s.n)]
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


def roll_and_move(s: MonopolyState, p: int) -> None:
    """The ``roll`` action of a player not in jail: roll, handle doubles, move and land."""
    d1, d2 = movement.roll_dice(s, p)
    if movement.is_double(s, d1, d2):
        s.doubles += 1
        if s.doubles >= s.rules.doubles_to_jail:
            if s._events is not None:
                s.event("three_doubles", player=p)
            jail.send_to_jail(s, p)
            return
        s.phase = s.PRE_ROLL if s.rules.doubles_roll_again else s.END_TURN
    else:
        s.phase = s.END_TURN
    movement.advance(s, p, d1 + d2)
    landing.land(s, p)
