"""Dice, doubles and moving round the board.

Friends rules B, "On Your Turn": roll both dice, move clockwise, act on the square; "If your
move took you onto or past the GO space, collect M200"; "If you rolled a double, roll the dice
again"; "If you roll doubles 3 times on the same turn, you must Go to Jail". Friends rules A,
"Rolling doubles": three doubles send you to jail at once (the third roll is not moved; Frozen
II, "Game Play": "Do not complete your third turn").

Moving lands nobody: the roll action that moves and then lands (``turns.roll_and_move``) and
the cards and jail rolls that do the same call :func:`advance` and then ``landing.land``, so
this module sits below the landing rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.rules import money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def roll_dice(s: MonopolyState, p: int) -> tuple[int, int]:
    """Roll the edition's dice from the game's own stream; one-die editions return (d, 0).
    Dice a position scripted (``dice_script``) come first."""
    if s.dice_script:
        d1, d2 = s.dice_script.pop(0), s.dice_script.pop(0)
    else:
        sides = s.rules.die_sides
        d1 = s.rng.below(sides) + 1
        d2 = s.rng.below(sides) + 1 if s.rules.dice == 2 else 0
    s.dice = (d1, d2)
    if s._events is not None:
        s.event("roll", player=p, dice=[d1, d2] if d2 else [d1])
    return d1, d2


def roll_one_die(s: MonopolyState, p: int) -> int:
    """Roll one die, whatever the edition's dice (a utility's rent under ``utility_rent_dice =
    "one_die"``). A scripted pair (``dice_script``) gives its first face."""
    if s.dice_script:
        d = s.dice_script.pop(0)
        s.dice_script.pop(0)
    else:
        d = s.rng.below(s.rules.die_sides) + 1
    s.dice = (d, 0)
    if s._events is not None:
        s.event("roll", player=p, dice=[d])
    return d


def is_double(s: MonopolyState, d1: int, d2: int) -> bool:
    """Doubles need two dice showing the same face."""
    return s.rules.dice == 2 and d1 == d2


def advance(s: MonopolyState, p: int, steps: int) -> None:
    """Move ``p`` forward ``steps`` squares, collecting the GO salary on passing or landing.

    Friends rules A, "GO": "Whenever you land on or pass GO, you will collect M200". Card moves
    forward use this too; going to jail never does (:func:`jail.send_to_jail`).
    """
    n = s.ed.size
    old = s.pos[p]
    new = old + steps
    if new >= n:
        new -= n
        money.bank_pays(s, p, s.rules.go_salary)
        if s._events is not None:
            s.event("salary", player=p, amount=s.rules.go_salary)
    s.pos[p] = new
    if s._events is not None:
        s.event("move", player=p, to=new)


def move_back(s: MonopolyState, p: int, steps: int) -> None:
    """Move ``p`` backwards (a "go back" card): never collects the GO salary."""
    s.pos[p] = new = (s.pos[p] - steps) % s.ed.size
    if s._events is not None:
        s.event("move", player=p, to=new)
