"""Why the Monopolis standard bot did what it did, in a short sentence (issue 20, "Bots that
explain themselves"): "builds a workplace on the plot 1 north, 3 west of the castle: 4 points,
2 money and the rewards under 2 houses", "buys wood, wood, iron for 3: 1 resource short of a
special building on the plot 1 west of the castle".

Asked only when someone wants to know (``Bot.explain``: the terminal's ``why``, the web page's
bot reasons), never while choosing, so simulations pay nothing for it. The words come from the
same valuations the bot chose by (``valuation.build_worth``, ``valuation.potential``), read on the
position it chose in; reading them changes nothing the bot keeps (it keeps nothing but its
random stream, which this never draws from). Not compiled: words are not the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopolis import market
from meeple.games.monopolis.actions import (
    BUILD_AT,
    BUY,
    JOKER,
    JOKER_HOLD,
    PASS_ACTION,
    PAY_FULL,
    PAY_PAIR,
    TILE,
)
from meeple.games.monopolis.building import (
    FULL,
    VALUE_INDEX,
    WORKPLACE_MONEY,
    houses_needed,
    mode_needs,
    mode_values,
    value_fits,
)
from meeple.games.monopolis.city import EMPTY, PLOTS, cube_partners
from meeple.games.monopolis.components import BUILDING_NAMES, PARK, SPECIAL, WORKPLACE
from meeple.games.monopolis.describe import plot_words
from meeple.games.monopolis.scoring import board_bonus
from meeple.games.monopolis.terms import JOKER_TRACK
from meeple.games.monopolis.valuation import Tally, best_build, build_worth

if TYPE_CHECKING:
    from meeple.games.monopolis.bots import MonopolisStandardBot
    from meeple.games.monopolis.state import MonopolisState
    from meeple.kernel.protocol import Action


def gains(s: MonopolisState, seat: int, plot: int, mode: int, value: int, tally: Tally) -> str:
    """What a build brings ``seat``, in a few words: the points, cubes, majorities, money,
    rewards and the last-house bonus that make up its worth (``valuation.build_worth``)."""
    words = [f"{value} point{'s' if value != 1 else ''}"]
    partners = cube_partners(s.value_at, plot, value)
    if partners:
        mine = sum(1 for q in partners if s.owner_at[q] == seat)
        cubes = f"{len(partners)} cube{'s' if len(partners) > 1 else ''}"
        words.append(cubes + (f" ({mine} more on its own tiles)" if mine else ""))
    if value == PARK and tally.park_worth > 0:
        words.append("ground in the park majority")
    card = s.tables.card(s.card_at[plot])
    tile = s.tile_decks[VALUE_INDEX[value]][-1]
    icons = list(s.tables.tile_icon_ids[tile]) + ([card.icon] if card.icon >= 0 else [])
    names = [s.comps.icons[i].replace("_", " ") for i in icons if tally.icon_worth[i] > 0]
    if names:
        names = list(dict.fromkeys(names))
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        words.append(f"ground in the {listed} majorit{'y' if len(names) == 1 else 'ies'}")
    if value == WORKPLACE:
        words.append(f"{WORKPLACE_MONEY} money")
    k = houses_needed(value)
    words.append(f"the rewards under {k} house{'s' if k > 1 else ''}")
    if s.houses[seat] + k == s.capacity:
        words.append(f"the {board_bonus(s.n)}-point bonus for its last house")
    return ", ".join(words)


def building_words(s: MonopolisState, plot: int, value: int) -> str:
    """ "a workplace on the plot 1 north, 3 west of the castle"."""
    name = BUILDING_NAMES[value]
    article = "an" if name[0] in "aeiou" else "a"
    return f"{article} {name} on the plot {plot_words(plot)}"


def nearest_build(
    s: MonopolisState, bot: MonopolisStandardBot, seat: int, have: list[int], jokers: int
) -> tuple[str, int]:
    """The build in reach of ``have`` and ``jokers`` that the bot's purchases aim at
    (``valuation.potential``): its words and how many resources it would still miss."""
    tally = Tally(s, seat, bot.w)
    best: tuple[float, str, int] | None = None
    for plot in range(PLOTS):
        if s.card_at[plot] == EMPTY:
            continue
        card = s.tables.card(s.card_at[plot])
        for mode in (FULL, *card.pairs):
            needs = mode_needs(card, mode, len(have))
            missing = sum(max(0, needs[r] - have[r]) for r in range(len(have)))
            short = max(0, missing - jokers)
            for value in mode_values(card, mode):
                if not value_fits(s, seat, plot, value):
                    continue
                worth = build_worth(s, seat, plot, mode, value, tally, bot.w) - bot.w.gap * short
                if best is None or worth > best[0]:
                    best = (worth, building_words(s, plot, value), short)
    if best is None:
        return "", 0
    return best[1], best[2]


def why(bot: MonopolisStandardBot, s: MonopolisState, action: Action) -> str:
    """Why ``bot``, deciding for ``s.current_player()`` in ``s``, chose ``action``."""
    seat = s.current_player()
    kind = action.kind
    arg = action.args[0] if action.args else 0
    if kind == BUILD_AT:
        plan = best_build(s, seat, [arg], Tally(s, seat, bot.w), bot.w)
        if plan is None:
            return ""
        _, plot, mode, value = plan
        reason = gains(s, seat, plot, mode, value, Tally(s, seat, bot.w))
        if s.final_round:
            return f"builds {building_words(s, plot, value)}: the last round, {reason}"
        return f"builds {building_words(s, plot, value)}: {reason}"
    if kind in (PAY_FULL, PAY_PAIR):
        plan = best_build(s, seat, [s.pend_plot], Tally(s, seat, bot.w), bot.w)
        value = plan[3] if plan is not None else 0
        what = "the whole card" if kind == PAY_FULL else f"two {s.comps.resources[arg]}"
        return f"pays {what}: enough for the {BUILDING_NAMES.get(value, 'building')} it plans"
    if kind == TILE:
        reason = gains(s, seat, s.pend_plot, s.pend_mode, arg, Tally(s, seat, bot.w))
        if arg == SPECIAL:
            return f"lays a special building: {reason}"
        return f"lays {building_words(s, s.pend_plot, arg)}: {reason}"
    if kind == BUY:
        card = s.tables.resource_card(market.slot_card(s, arg))
        got = [s.comps.resources[r] for r, k in enumerate(card.gains) for _ in range(k)]
        got += ["a joker"] * card.liza
        head = f"buys {', '.join(got)} for {market.slot_price(s, arg)}"
        have = [s.res[seat][r] + card.gains[r] for r in range(len(card.gains))]
        jokers = min(JOKER_TRACK, s.jokers[seat] + card.liza)
        target, short = nearest_build(s, bot, seat, have, jokers)
        plots = [p for p in range(PLOTS) if s.card_at[p] != EMPTY]
        plan = best_build(s, seat, plots, Tally(s, seat, bot.w), bot.w)
        if plan is not None and not s.final_round:
            head += (
                f" rather than build (its best build now, {building_words(s, plan[1], plan[3])}, "
                f"is worth {plan[0]:.1f} to it, below its {bot.w.threshold:g})"
            )
        if not target:
            return f"{head}: resources for the cards to come"
        if short == 0:
            return f"{head}: now it can build {target}"
        return f"{head}: {short} resource{'s' if short > 1 else ''} short of {target}"
    if kind == JOKER_HOLD:
        return "keeps the joker on its track: it pays whatever a build is missing"
    if kind == JOKER:
        if s.jokers[seat] >= JOKER_TRACK:
            return (
                f"takes the joker as {s.comps.resources[arg]}: its joker track is full, and its "
                "best build in reach misses it most"
            )
        return f"takes the joker as {s.comps.resources[arg]}"
    if kind == PASS_ACTION:
        return "takes 1 money: it can neither buy a card nor build"
    return ""
