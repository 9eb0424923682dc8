"""The standard Monopoly bot in a stalled game: it watches the game's progress
(:meth:`~StallBreaking.note_round`) and, once nothing has moved for ``stall_rounds`` rounds (the
housing shortage nobody ends), forces progress (:meth:`~StallBreaking.force_progress`).

A layer of :class:`~meeple.games.monopoly.bots.StandardBot` (``bots.py`` says why the bot is a
few layers of one class), above its reading of the board and its trades.
"""

from __future__ import annotations

from typing import Final

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bot_params import Params
from meeple.games.monopoly.bot_trades import OfferMaking
from meeple.games.monopoly.rules import anytime, buildings
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.arrays import int_array
from meeple.kernel.protocol import Action

STALL_CHECK_ROUNDS: Final = 5
"""How often (in rounds) :meth:`StandardBot.note_round` looks for progress: a look compares the
owner of every deed, and a stall is ``stall_rounds`` long, so a look every round would cost
time for nothing."""

FORCED_SALES_PER_TURN: Final = 16
"""The most houses :meth:`StandardBot.force_progress` sells in one turn: a set needs at most
16 to stand at four houses, and the cap ends the bot's window even when another player wins
the houses it sells at auction."""


# The kinds of action force_progress makes with an argument (actions.Made: bots.py says why).
_BUILD: Final = A.made(A.BUILD)
_SELL_BUILDING: Final = A.made(A.SELL_BUILDING)


class StallBreaking(OfferMaking):
    """The standard bot's watch on progress and its way out of a stalemate (the module
    docstring)."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed, params)
        # Progress, as this bot has watched it (note_round, a look every STALL_CHECK_ROUNDS
        # rounds): the round of its last look and of its next, the last round in which the game
        # progressed, the bank's stock at its lowest so far (in houses: a hotel counts 5), who
        # owned each square and how many players had left at the last look; whether the game
        # has stalled (no progress for stall_rounds rounds).
        self._round_seen = -1
        self._round_next = 0
        self._progress_round = 0
        self._bank_low = -1
        self._owners_seen = int_array([])
        self._gone_seen = 0
        self.stalled = False
        self._sales_turn = -1  # the turn of the houses force_progress sold, and how many
        self._sales = 0

    # -- stalemates -------------------------------------------------------------------------

    def note_round(self, s: MonopolyState) -> None:
        """Every ``STALL_CHECK_ROUNDS`` rounds (:meth:`manage` calls it): whether the game
        progressed since the last look (more buildings on the board than ever before in it, a
        deed changed hands or a player left), and so whether it has stalled: no progress for
        ``stall_rounds`` rounds. A game this bot has not watched from the start counts from
        the first round it sees."""
        r = s.round_no
        bank = s.houses + 5 * s.hotels  # the bank's buildings, in houses: lowest, most built
        gone = len(s.eliminated)
        owner, seen = s.owner, self._owners_seen
        if r < self._round_seen or len(seen) != len(owner):  # another game
            self._owners_seen = owner[:]
            self._bank_low = bank
            self._gone_seen = gone
            self._progress_round = r
        else:
            moved = owner != seen  # (one comparison of the lists, in C)
            if moved:
                self._owners_seen = owner[:]
            if moved or bank < self._bank_low or gone != self._gone_seen:
                if bank < self._bank_low:
                    self._bank_low = bank
                self._gone_seen = gone
                self._progress_round = r
        self._round_seen = r
        self._round_next = r + STALL_CHECK_ROUNDS
        self.stalled = r - self._progress_round >= self.p.stall_rounds

    def force_progress(self, s: MonopolyState, me: int, cash: int, reserve: int) -> Action | None:
        """What the bot does in a stalled game before its normal play (None: nothing).

        The stalemate standard players fall into is a housing shortage: every house of the bank
        is on the board, spread over sets at three houses or fewer, so nobody can build a hotel
        (which would give four houses back) and nobody sells; cash piles up on every side and
        no rule ends the game. The bot breaks it by moving its houses: it sells houses from its
        other sets (the cheapest first) and buys them back on the one set that needs the fewest
        to stand at four houses on every street, then builds that set's hotels, each of which
        gives four houses back to the bank for everyone to build with. While stalled it builds
        any hotel it can first, and does not ask for a house another player wants to buy in a
        shortage (:meth:`choose`), so the player moving houses gets them at list price."""
        if not s.rules.buildings:
            return None
        ed, level = s.ed, s.level
        builds = anytime.build_options(s, me)
        for sq in builds:  # a hotel: four houses back to the bank
            if level[sq] == 4 and cash - ed.house_cost[sq] >= reserve:
                return _BUILD.of(sq)
        focus = self.focus_group(s, me)
        if focus < 0:
            return None
        cost = ed.groups[focus].house_cost
        for sq in builds:
            if ed.group_of[sq] == focus and cash - cost >= reserve:
                return _BUILD.of(sq)
        if s.turn_no != self._sales_turn:
            self._sales_turn, self._sales = s.turn_no, 0
        if s.houses or self._sales >= FORCED_SALES_PER_TURN:
            return None  # (the bank has a house the focus set cannot take now: no sale)
        # Sell a house of another set still short of four houses (never one standing at four
        # or with hotels: it would be the next focus and take the house back), the cheapest
        # houses first, from their highest level.
        sell = -1
        for m in buildings.sell_squares(s, me):
            g = ed.group_of[m]
            if g == focus or not houses_short(s, g):
                continue
            c, b = ed.house_cost[m], ed.house_cost[sell] if sell >= 0 else 0
            if sell < 0 or c < b or (c == b and level[m] > level[sell]):
                sell = m
        if sell < 0 or cash + ed.house_cost[sell] // 2 - cost < reserve:
            return None
        self._sales += 1
        return _SELL_BUILDING.of(sell)

    def focus_group(self, s: MonopolyState, me: int) -> int:
        """The street set :meth:`force_progress` brings to four houses: of the sets I own whole
        and unmortgaged with a street below four houses, the one needing the fewest houses for
        it (the dearest houses among those), provided the bank's houses and those on my other
        sets short of four make up the number, and the bank has a hotel to build next; -1 for
        none."""
        if not s.hotels:  # (four houses everywhere would free nothing)
            return -1
        ed, level = s.ed, s.level
        self.read_board(s, me)  # (_all_mine)
        all_mine = self._all_mine
        spare = s.houses  # houses the bank has, or I could sell from my sets
        focus, need = -1, 0
        for g in ed.street_groups:
            if not (all_mine >> g) & 1 or not buildings.buildable_group(s, me, g):
                continue
            short = houses_short(s, g)
            if not short:
                continue
            for m in ed.groups[g].members:
                spare += level[m]
            if (
                focus < 0
                or short < need
                or (short == need and ed.groups[g].house_cost > ed.groups[focus].house_cost)
            ):
                focus, need = g, short
        if focus < 0:
            return -1
        for m in ed.groups[focus].members:  # (its own houses are no help)
            spare -= level[m]
        return focus if need <= spare else -1


def houses_short(s: MonopolyState, g: int) -> int:
    """How many houses street group ``g`` lacks to stand at four on every street (0 when it
    does, or has hotels: the even-building rule keeps its streets within one level)."""
    level = s.level
    short = 0
    for m in s.ed.groups[g].members:
        if level[m] < 4:
            short += 4 - level[m]
    return short
