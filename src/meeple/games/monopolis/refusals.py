"""Why an action is refused: the sentence ``MonopolisState.why_illegal`` gives (kernel protocol).

Like ``games/monopoly/refusals.py``: the reason in the rules' words ("the right row's 1st card
(place 3) costs 3 money and you have 1"), else what the decision wants instead, so a person or
a program sending a wrong action learns what it may send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopolis import building, market
from meeple.games.monopolis.actions import (
    ARITY,
    BUILD_AT,
    BUY,
    JOKER,
    OVER,
    PASS_ACTION,
    PAY_FULL,
    PAY_PAIR,
    PHASE_KINDS,
    TILE,
)
from meeple.games.monopolis.building import VALUE_INDEX
from meeple.games.monopolis.city import EMPTY, PLOTS, park_adjacent
from meeple.games.monopolis.describe import place_words, plot_words
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.terms import JOKER_TRACK

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState
    from meeple.kernel.protocol import Action


def why_illegal(s: MonopolisState, action: Action) -> str:
    """A sentence saying why ``action`` is not legal in ``s`` now."""
    kind, args = action.kind, action.args
    if s.phase == OVER:
        return "the game is over"
    if kind not in ARITY:
        return f"unknown action {kind!r}; known: {', '.join(ARITY)}"
    if len(args) != ARITY[kind]:
        return f"{kind} takes {ARITY[kind]} number(s), not {len(args)}"
    if kind not in PHASE_KINDS[s.phase]:
        wanted = " or ".join(PHASE_KINDS[s.phase])
        return f"player {s.turn_player + 1} must now choose {wanted}, not {kind}"
    seat = s.turn_player
    arg = args[0] if args else 0
    if kind == BUY:
        if not 0 <= arg < SLOTS:
            return (
                f"buy takes a market place from 0 to {SLOTS - 1} (0-2: the left row's cards, "
                "3-5: the right row's)"
            )
        if market.slot_card(s, arg) < 0:
            return f"{place_words(arg)} (place {arg}) is empty"
        price = market.slot_price(s, arg)
        have = s.money[seat]
        return f"{place_words(arg)} (place {arg}) costs {price} money and you have {have}"
    if kind == BUILD_AT:
        if not 0 <= arg < PLOTS:
            return f"build_at takes a plot from 0 to {PLOTS - 1}, row by row from the north-west"
        where = f"the plot {plot_words(arg)} (plot {arg})"
        if s.card_at[arg] == EMPTY:
            return f"no requirement card points at {where}"
        return f"you cannot pay the card on {where} for any tile you may lay there"
    if kind == PASS_ACTION:
        return "you can still buy or build: 1 money is only for an action you cannot take"
    if kind in (PAY_FULL, PAY_PAIR, TILE):
        return _build_step(s, kind, arg)
    if kind == JOKER:
        names = ", ".join(f"{r} {name}" for r, name in enumerate(s.comps.resources))
        return f"joker takes a resource from 0 to {len(s.comps.resources) - 1} ({names})"
    return f"the joker track already holds {JOKER_TRACK} jokers: decide this one now"


def _build_step(s: MonopolisState, kind: str, arg: int) -> str:
    """Why a payment or a tile value is refused while a build is under way."""
    card = s.tables.card(s.card_at[s.pend_plot])
    if kind == PAY_FULL:
        return "you cannot pay the whole card, even with your jokers, or no tile fits"
    if kind == PAY_PAIR:
        if not 0 <= arg < len(card.needs) or card.needs[arg] < 2:
            return "the card does not show that resource twice: only identical pairs pay"
        return "you cannot pay two of that resource, or no park or residential quarter fits"
    allowed = building.mode_values(card, s.pend_mode)
    if arg not in allowed:
        return f"this payment allows tiles worth {', '.join(map(str, allowed))}"
    if not s.tile_decks[VALUE_INDEX[arg]]:
        return f"no tiles worth {arg} are left"
    if arg == 1 and park_adjacent(s.value_at, s.pend_plot):
        return "a park cannot be built next to another park"
    return f"a tile worth {arg} needs {building.houses_needed(arg)} houses; you have fewer"
