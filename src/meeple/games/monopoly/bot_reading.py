"""How the standard Monopoly bot reads the board: the cash it keeps (:meth:`reserve`), what a
deed is worth to it (:meth:`deed_value`), and its reading of each colour group, kept from one
decision to the next and read again only for the groups that changed (:meth:`read_board`).

The bottom layer of :class:`~meeple.games.monopoly.bots.StandardBot` (``bots.py`` says why the
bot is a few layers of one class): the trades, the stalemates and the decisions above it read
its caches.
"""

from __future__ import annotations

from mypy_extensions import i64

from meeple.games.monopoly.bot_params import STANDARD_PARAMS, Params
from meeple.games.monopoly.rules import holdings, rent
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY
from meeple.kernel.arrays import int_array
from meeple.kernel.bot import Bot


class BoardReading(Bot):
    """The standard bot's reading of the board and its valuations (the module docstring)."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed)
        self.p = params or STANDARD_PARAMS
        # Caches keyed by (seat, board stamp): the valuations depend on the board alone, and the
        # stamp changes whenever it does, so the play loop does not rescan the board.
        self._reserve_me = -1  # the seat and stamp the reserve was worked out for
        self._reserve_stamp = 0
        self._reserve = 0
        self._has_set = False  # I own a whole street group (kept with the reserve)
        self._min_house = 0  # ... and the cheapest house on such a group
        self._my_mortgages = False  # I have a mortgaged deed (kept with the reserve)
        self._cheapest_lift = 0  # my cheapest mortgaged deed to lift (kept with the reserve)
        # The board as this bot last read it (read_board), a group at a time: which log of
        # changes (a state's own: a new state starts a new one) and seat, how far into that
        # log, and at which board stamp.
        self._read_log = 0  # (MonopolyState.changes_id)
        self._read_me = -1
        self._read_pos = 0
        self._read_stamp = 0
        # (arrays: kernel/arrays.py; read and written for every group read)
        self._g_danger = int_array([])  # per group: the worst rent an opponent's deed charges
        self._g_lift = int_array([])  # ... the cheapest of my mortgaged deeds to lift
        self._mortgaged_in = 0  # bit g: I have a mortgaged deed in group g
        self._all_mine = 0  # bit g: I own all of group g
        self._street_index = int_array([])  # group -> its index in ed.street_groups, or -1
        # Per street group (in ed.street_groups order): the player it is split with (read_group)
        # when it is split between me and one other alone, else -1; the deeds of it I lack.
        self._partner = int_array([])
        self._wants: list[list[int]] = []
        self._splits_changed = True  # since the offers were last made
        self._reading_moved = True  # the reserve's part of the reading, since the reserve

    # -- valuation -------------------------------------------------------------------------

    def reserve(self, s: MonopolyState, me: int) -> int:
        """Cash to keep: grows with the worst rent an opponent can charge now."""
        if me == self._reserve_me and s.board_stamp == self._reserve_stamp:
            return self._reserve
        self.read_board(s, me)
        self._reserve_me, self._reserve_stamp = me, s.board_stamp
        if not self._reading_moved:  # (the groups read again read as before)
            return self._reserve
        self._reading_moved = False
        ed = s.ed
        g_danger, g_lift = self._g_danger, self._g_lift
        danger = 0
        for d in g_danger:
            if d > danger:
                danger = d
        # My cheapest mortgaged deed to lift, and the cheapest house on a street group I own
        # whole (0: none): below them, no lifting and no building.
        mortgaged_in, all_mine = self._mortgaged_in, self._all_mine
        self._my_mortgages = mortgaged_in != 0
        self._cheapest_lift = 0
        if mortgaged_in:
            first = True
            for g in range(len(g_lift)):
                if (mortgaged_in >> g) & 1 and (first or g_lift[g] < self._cheapest_lift):
                    self._cheapest_lift = g_lift[g]
                    first = False
        self._has_set = False
        self._min_house = 0
        if all_mine:
            house_cost = ed.house_cost
            for g in ed.street_groups:
                if (all_mine >> g) & 1:  # (rent.owns_group)
                    for m in ed.groups[g].members:
                        if not self._has_set or house_cost[m] < self._min_house:
                            self._min_house = house_cost[m]
                        self._has_set = True
        p = self.p
        # (between the bounds by comparisons: min and max are calls to the interpreted build)
        keep = danger * p.reserve_danger_share
        if keep < p.reserve_min:
            keep = float(p.reserve_min)
        if keep > p.reserve_max:
            keep = float(p.reserve_max)
        self._reserve = int(keep)
        return self._reserve

    def read_board(self, s: MonopolyState, me: int) -> None:
        """Bring this bot's reading of the board up to date: only the groups the state's log of
        changes names since the last reading are read again (a rent depends on its own group
        alone: rent.rents_now), so a change to one group costs one group's reading, not the
        whole board's. A new state, a new seat or a change of everything reads it all."""
        same_log = s.changes_id == self._read_log
        if s.board_stamp == self._read_stamp and same_log and me == self._read_me:
            return
        ed = s.ed
        n_groups = len(ed.groups)
        everything = not same_log or me != self._read_me
        # Bit g: read group g again (-1: all of them).
        again: i64 = -1 if everything else holdings.groups_changed_since(s, self._read_pos)
        if everything:  # (a new board, perhaps of another edition: its tables made afresh)
            self._g_danger = int_array([0] * n_groups)
            self._g_lift = int_array([0] * n_groups)
            self._mortgaged_in = self._all_mine = 0
            index = [-1] * n_groups
            for i, g in enumerate(ed.street_groups):
                index[g] = i
            self._street_index = int_array(index)
            self._partner = int_array([-1] * len(ed.street_groups))
            self._wants = [[] for _ in ed.street_groups]
        if again == -1:  # (every group is read again below, and may read otherwise)
            self._splits_changed = self._reading_moved = True
        self._read_log, self._read_me, self._read_stamp = s.changes_id, me, s.board_stamp
        self._read_pos = len(s.changes)
        rents = rent.rents_now(s)  # (as square_rent reads them, without a call per square)
        if again == -1:
            for g in range(n_groups):
                self.read_group(s, me, g, rents)
            return
        g = 0
        while again:  # (the groups named, lowest first: most readings name one or two)
            if again & 1:
                self.read_group(s, me, g, rents)
            again >>= 1
            g += 1

    def read_group(self, s: MonopolyState, me: int, g: int, rents: list[int]) -> None:
        """Read group ``g`` for :meth:`read_board`: the worst rent an opponent's unmortgaged
        deed of it charges now (a utility at an average roll), whether I own all of it,
        my cheapest mortgaged deed of it to lift, and, for a street group, whom it is split
        with and what I lack of it (:meth:`offer_shapes`)."""
        ed = s.ed
        owner, mortgaged, kind, cost = s.owner, s.mortgaged, ed.kind, ed.unmortgage_cost
        level = s.level
        danger: i64 = 0  # (machine words, as the arrays they are compared with)
        all_mine = True
        mortgaged_here = False
        lift: i64 = 0
        # The two players the group is split between, when every deed of it is owned, by those
        # two alone, and nothing in it is built: only such a group can be part of an offer (one
        # of the two lacks exactly what the other holds). (-1: not split so.)
        a: i64 = -1
        b: i64 = -1
        split = True
        members = ed.groups[g].members
        for m in members:
            o = owner[m]
            if o < 0 or level[m]:
                split = False
            elif o != a and o != b:
                if a < 0:
                    a = o
                elif b < 0:
                    b = o
                else:
                    split = False
            if o == me:
                if mortgaged[m]:
                    if not mortgaged_here or cost[m] < lift:
                        lift = cost[m]
                    mortgaged_here = True
                continue
            all_mine = False
            if o >= 0 and not mortgaged[m]:
                r = rents[m] * ed.utility_roll if kind[m] == UTILITY else rents[m]
                if r > danger:
                    danger = r
        bit = 1 << g
        # (set the bit, then clear it again unless it holds)
        mortgaged_in = (self._mortgaged_in | bit) ^ (0 if mortgaged_here else bit)
        mine = (self._all_mine | bit) ^ (0 if all_mine else bit)
        if (
            danger != self._g_danger[g]
            or lift != self._g_lift[g]
            or mortgaged_in != self._mortgaged_in
            or mine != self._all_mine
        ):
            self._g_danger[g] = danger
            self._g_lift[g] = lift
            self._mortgaged_in, self._all_mine = mortgaged_in, mine
            self._reading_moved = True
        i = self._street_index[g]
        if i >= 0:
            q = -1 if not split or b < 0 else b if a == me else a if b == me else -1
            if q >= 0:
                want = [m for m in members if owner[m] == q]
                if q != self._partner[i] or want != self._wants[i]:
                    self._partner[i], self._wants[i] = q, want
                    self._splits_changed = True
            elif self._partner[i] >= 0:
                self._partner[i], self._wants[i] = -1, []
                self._splits_changed = True

    def square_rent(self, s: MonopolyState, sq: int) -> int:
        """The rent ``sq`` charges now (a utility at an average roll: ``Edition.utility_roll``)."""
        r = rent.rents_now(s)[sq]
        return r * s.ed.utility_roll if s.ed.kind[sq] == UTILITY else r

    def deed_value(self, s: MonopolyState, me: int, sq: int) -> float:
        """What ``sq`` is worth to ``me``: its price, more if it completes, grows or blocks a
        set."""
        ed = s.ed
        price = float(ed.price[sq])
        members = ed.groups[ed.group_of[sq]].members
        owner = s.owner
        # How many of the other deeds of the group are mine, and who holds them all when one
        # player does (-2: nobody yet, -3: more than one holder); loops, not a set per call.
        mine = 0
        holder = -2
        for m in members:
            if m != sq:
                o = owner[m]
                if o == me:
                    mine += 1
                if holder == -2:
                    holder = o
                elif o != holder:
                    holder = -3
        kind = ed.kind[sq]
        p = self.p
        if kind == STREET:
            if mine == len(members) - 1:
                value = price * (1 + p.set_bonus)
            else:
                value = price * (1 + p.partial_bonus * mine)
            if holder >= 0 and holder != me:  # another player alone holds the rest: a block
                value += price * p.block_bonus
            return value
        if kind == RAILROAD:
            return price * (1 + 0.25 * mine)
        if kind == UTILITY:
            return price * (0.7 + 0.3 * mine)
        return price

    def completes_set_for(self, s: MonopolyState, p: int, sq: int, extra: list[int]) -> bool:
        """Whether ``p`` would own all of ``sq``'s street group after receiving ``extra``."""
        ed = s.ed
        if ed.kind[sq] != STREET:
            return False
        return all(s.owner[m] == p or m in extra for m in ed.groups[ed.group_of[sq]].members)
