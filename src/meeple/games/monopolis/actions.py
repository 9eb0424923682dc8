"""The action vocabulary of Monopolis: small values, built into chains, with a fixed encoding.

monopolis-rules.txt, "The Course of the Game (A JÁTÉK MENETE)": two actions per turn, each a
purchase or a build, or 1 money for an action that cannot be taken. Each decision is one of:

=============  ==============  ==========================================================
phase          action          meaning
=============  ==============  ==========================================================
action         ``buy S``       buy the face-up resource card in place S (0-2 left, 3-5 right)
action         ``build_at P``  start a build on the requirement card pointing at plot P
action         ``pass_action`` take 1 money: only when no purchase and no build is possible
pay            ``pay_full``    pay the whole card
pay            ``pay_pair R``  pay two of resource R (the card shows R at least twice)
tile           ``tile V``      lay a tile worth V (1, 2, 3, 4 or 6)
joker          ``joker R``     fix a newly gained joker as resource R
joker          ``joker_hold``  put it on the joker track (at most 3 held)
=============  ==============  ==========================================================

:func:`action_space` lists every action once, so an RL driver can use a fixed mask.
"""

from __future__ import annotations

from meeple.games.monopolis.city import PLOTS
from meeple.games.monopolis.components import VALUES
from meeple.games.monopolis.market import SLOTS
from meeple.kernel.protocol import Action

BUY = "buy"
BUILD_AT = "build_at"
PASS_ACTION = "pass_action"
PAY_FULL = "pay_full"
PAY_PAIR = "pay_pair"
TILE = "tile"
JOKER = "joker"
JOKER_HOLD = "joker_hold"

#: How many integer arguments each action kind takes.
ARITY: dict[str, int] = {
    BUY: 1,
    BUILD_AT: 1,
    PASS_ACTION: 0,
    PAY_FULL: 0,
    PAY_PAIR: 1,
    TILE: 1,
    JOKER: 1,
    JOKER_HOLD: 0,
}

#: Decision phases.
ACTION, PAY, TILE_CHOICE, JOKER_CHOICE, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("action", "pay", "tile", "joker", "over")
#: The action kinds each phase accepts.
PHASE_KINDS: tuple[tuple[str, ...], ...] = (
    (BUY, BUILD_AT, PASS_ACTION),
    (PAY_FULL, PAY_PAIR),
    (TILE,),
    (JOKER, JOKER_HOLD),
    (),
)
PASS = Action(PASS_ACTION)
FULL_PAYMENT = Action(PAY_FULL)
HOLD = Action(JOKER_HOLD)


def action_space(resources: int) -> tuple[Action, ...]:
    """Every action of the game once, in a fixed order (the RL encoding)."""
    out: list[Action] = [Action(BUY, (s,)) for s in range(SLOTS)]
    out += [Action(BUILD_AT, (p,)) for p in range(PLOTS)]
    out.append(PASS)
    out.append(FULL_PAYMENT)
    out += [Action(PAY_PAIR, (r,)) for r in range(resources)]
    out += [Action(TILE, (v,)) for v in VALUES]
    out += [Action(JOKER, (r,)) for r in range(resources)]
    out.append(HOLD)
    return tuple(out)
