"""How the ``mcts`` bot searches a Monopoly game: which decisions, which options, what score.

Searched decisions, each with the ``standard`` bot's own choice as the first option (so a tie
keeps the standard play):

* buy or decline a deed (a declined deed goes to auction);
* an auction for a deed: drop out now, or bid the minimum each time up to a limit of 0.6, 1,
  1.4 or 2 times the printed price (a plan kept for the rest of the auction, so one search
  covers an auction that rises a unit at a time);
* leaving jail: pay the fine, use a card, or try for doubles;
* building or lifting a mortgage when it is possible: the standard choice, the standard's next
  house, or moving on (roll, end the turn, close the window);
* proposing the trade offer the standard bot would make (as it is, asking the partner for more
  cash, or not at all), and answering one;
* paying a received mortgage off or keeping it; wanting a building in a shortage.

Every other decision (rolling, windows with nothing to build, drafting a trade offer, raising
money for a debt, placing a building) is the ``standard`` bot's: its choices there are sound and
a search would spend the budget where the difference is small.

The score of a rollout's last state, for the searching seat, estimates its chance to win from
each player's *equity*: net worth plus the rent its deeds earn, at their current buildings,
from every opponent's roll over :data:`RENT_ROUNDS` rounds, at an even chance of landing on
each square; the score is ``equity ** SHARPNESS`` over the sum of every player's. Net worth
alone would call buying a deed at its price a wash; the rent term is what makes a set with
houses worth more than its cost. A win scores 1 (a shared win ``1/k``), a bankruptcy 0. The two
constants were fitted on positions of games between ``standard`` bots
(``tools/calibrate_mcts.py``), where they predict the winner best of the grid tried
(cross-entropy 0.770 and Brier score 0.430, against 1.009 and 0.556 for shares of plain net
worth, and a Brier score of 0.750 for no information).
"""

from __future__ import annotations

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bots import StandardBot
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.hidden import determinize
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY, Edition
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng
from meeple.kernel.search import Option

HORIZON_ROLLS = 16
"""Dice rolls a rollout plays (about four rounds of four players) before it is scored."""

RENT_ROUNDS = 80.0
"""Rounds of future rent counted in a player's equity (see the module docstring)."""

SHARPNESS = 2.0
"""The score is ``equity ** SHARPNESS`` over the sum of everyone's: a leader's chance of winning
grows faster than its share of the equity."""

BID_LIMITS = (0.6, 1.0, 1.4, 2.0)
"""Auction limits tried, as shares of the deed's printed price."""

OFFER_DISCOUNTS = (50, 150)
"""Extra cash asked of the partner in the variants of the standard bot's trade offer."""

_MOVE_ON = (A.A_ROLL, A.A_END_TURN, A.A_PASS)
_SWAPS = {
    A.BUY: A.A_DECLINE,
    A.DECLINE: A.A_BUY,
    A.ACCEPT: A.A_REJECT,
    A.REJECT: A.A_ACCEPT,
    A.WANT_BUILDING: A.A_NO,
    A.NO_BUILDING: A.A_WANT,
}


class BidUpTo(Option):
    """In the auction for deed ``square``: bid the minimum while it is at most ``limit``, then
    drop out."""

    __slots__ = ("limit", "square")

    def __init__(self, first: Action, square: int, limit: int) -> None:
        super().__init__(first)
        self.square = square
        self.limit = limit

    def follow(self, state: GameState) -> Action | None:
        legal = state.legal_actions()
        if A.A_PASS not in legal:
            return None
        frame = state.view(None)["frame"]
        if (
            not frame
            or frame.get("frame") != "auction"
            or frame["item"] != DEED
            or frame["square"] != self.square
        ):
            return None
        bids = [a.args[0] for a in legal if a.kind == A.BID]
        low = min(bids) if bids else self.limit + 1
        return Action(A.BID, (low,)) if low <= self.limit else A.A_PASS

    def describe(self, state: GameState) -> str:
        return f"Bid up to {money(_edition(state), self.limit)}"

    def __repr__(self) -> str:
        return f"BidUpTo({self.square}, {self.limit})"


class Offer(Option):
    """Open a trade offer to ``partner`` (``first``), make the draft ``edits`` one at a time,
    then propose it."""

    __slots__ = ("edits", "partner")

    def __init__(self, first: Action, edits: list[Action]) -> None:
        super().__init__(first)
        self.partner = first.args[0]
        self.edits = edits

    def follow(self, state: GameState) -> Action | None:
        seat = state.current_player()
        frame = state.view(seat)["frame"]
        if (
            not frame
            or frame.get("frame") != "trade"
            or frame.get("responding", True)
            or frame["proposer"] != seat
            or frame["target"] != self.partner
        ):
            return None
        done = frame["edits"]  # the draft edits made so far: where this plan stands
        return self.edits[done] if done < len(self.edits) else A.A_PROPOSE

    def describe(self, state: GameState) -> str:
        ed = _edition(state)
        owner = [sq["owner"] for sq in state.view(None)["squares"]]
        give: list[str] = []
        get: list[str] = []
        for a in self.edits:
            if a.kind == A.TRADE_DEED:
                (get if owner[a.args[0]] == self.partner else give).append(
                    ed.square_names[a.args[0]]
                )
            elif a.kind == A.TRADE_CASH and a.args[0]:
                x = a.args[0]
                (give if x > 0 else get).append(money(ed, abs(x)))
        return (
            f"Offer Player {self.partner + 1} "
            f"{' and '.join(give) or 'nothing'} for {' and '.join(get) or 'nothing'}"
        )

    def __repr__(self) -> str:
        return f"Offer({self.action}, {[str(a) for a in self.edits]})"


class MonopolySearch:
    """The :class:`~meeple.bots.mcts.SearchFamily` of every Monopoly edition."""

    def __init__(
        self,
        horizon: int = HORIZON_ROLLS,
        rent_rounds: float = RENT_ROUNDS,
        sharpness: float = SHARPNESS,
    ) -> None:
        self.horizon = horizon
        self.rent_rounds = rent_rounds
        self.sharpness = sharpness

    def fallback(self, seed: int) -> Bot:
        return StandardBot(seed)

    def rollout_bots(self, state: GameState) -> list[Bot]:
        # Fresh bots: a standard bot's caches and trade plan belong to the game it played.
        return [StandardBot() for _ in range(state.num_players)]

    def determinize(self, state: GameState, seat: int, rng: Rng) -> None:
        determinize(state, seat, rng)

    def tick(self, action: Action) -> bool:
        return action.kind == A.ROLL

    # -- which decisions, which options ---------------------------------------------------

    def options(self, state: GameState, seat: int, fallback: Bot) -> list[Option] | Action:
        legal = state.legal_actions()
        kinds = {a.kind for a in legal}
        if A.BID in kinds:
            auction = self.auction_options(state, seat, legal)
            if auction:
                return auction
        std = fallback.choose(state)
        if std.kind == A.TRADE and isinstance(fallback, StandardBot):
            return self.offer_options(state, seat, std, fallback)
        if std.kind in _SWAPS and _SWAPS[std.kind] in legal:
            return [Option(std), Option(_SWAPS[std.kind])]
        if A.LIFT_MORTGAGE in kinds and std.kind in (A.LIFT_MORTGAGE, A.KEEP_MORTGAGE):
            return [Option(a) for a in _first_each(std, legal)]
        jail = (A.PAY_FINE, A.USE_CARD, A.ROLL)
        if (A.PAY_FINE in kinds or A.USE_CARD in kinds) and std.kind in jail:
            return [Option(a) for a in _first_each(std, legal, jail)]
        if (A.BUILD in kinds or A.UNMORTGAGE in kinds) and (
            std in _MOVE_ON or std.kind in (A.BUILD, A.UNMORTGAGE)
        ):
            candidates = [std, *[a for a in legal if a in _MOVE_ON][:1]]
            builds = [a for a in legal if a.kind == A.BUILD]
            if builds:  # the standard bot's next house: the lowest level, the dearest
                level = [sq["level"] for sq in state.view(None)["squares"]]
                cost = _edition(state).house_cost
                candidates.append(min(builds, key=lambda a: (level[a.args[0]], -cost[a.args[0]])))
            return [Option(a) for a in dict.fromkeys(candidates)]
        return std

    def auction_options(
        self, state: GameState, seat: int, legal: list[Action]
    ) -> list[Option] | None:
        """Drop out, or bid up to a few limits (:data:`BID_LIMITS`); ``None`` for a building
        auction (left to the standard bot)."""
        frame = state.view(None)["frame"]
        if not frame or frame.get("frame") != "auction" or frame["item"] != DEED:
            return None
        sq = frame["square"]
        bids = [a.args[0] for a in legal if a.kind == A.BID]
        if not bids:
            return None
        low = min(bids)
        cash = state.money_of(seat)
        price = _edition(state).price[sq]
        limits = sorted({min(cash, round(price * m)) for m in BID_LIMITS} - {0})
        first = Action(A.BID, (low,))
        out: list[Option] = [Option(A.A_PASS)]
        out += [BidUpTo(first, sq, x) for x in limits if x >= low]
        return out if len(out) > 1 else None

    def offer_options(
        self, state: GameState, seat: int, std: Action, fallback: StandardBot
    ) -> list[Option]:
        """The standard bot's offer, the same asking for :data:`OFFER_DISCOUNTS` more cash from
        the partner, or no offer (moving on). The offer is taken out of the standard bot's
        plan: the chosen option drafts it."""
        plan, fallback.plan = [a for a in fallback.plan if a != A.A_PROPOSE], []
        partner = std.args[0]
        cash = sum(a.args[0] for a in plan if a.kind == A.TRADE_CASH)
        deeds = [a for a in plan if a.kind != A.TRADE_CASH]
        low, high = -state.money_of(partner), state.money_of(seat)
        out: list[Option] = [Offer(std, plan)]
        for discount in OFFER_DISCOUNTS:
            x = max(low, min(high, cash - discount))
            edits = [*deeds, *([Action(A.TRADE_CASH, (x,))] if x else [])]
            if all(edits != o.edits for o in out if isinstance(o, Offer)):
                out.append(Offer(std, edits))
        move_on = [a for a in state.legal_actions() if a in _MOVE_ON]
        if move_on:
            out.append(Option(move_on[0]))
        return out

    # -- the score --------------------------------------------------------------------------

    def evaluate(self, state: GameState, seat: int) -> float:
        if state.is_terminal():
            r = state.result()
            assert r is not None
            return 1.0 / len(r.winners) if seat in r.winners else 0.0
        view = state.view(None)
        players = view["players"]
        if not players[seat]["alive"]:
            return 0.0
        alive = [p for p in range(len(players)) if players[p]["alive"]]
        income = self.rent_per_roll(state, view["squares"], len(players))
        weight = self.rent_rounds * (len(alive) - 1)
        a = self.sharpness
        equity = {p: max(0.0, players[p]["net_worth"] + weight * income[p]) ** a for p in alive}
        total = sum(equity.values())
        return equity[seat] / total if total > 0 else 1.0 / len(alive)

    def rent_per_roll(self, state: GameState, squares: list[dict[str, int]], n: int) -> list[float]:
        """Each seat's expected rent from one opponent's roll, landing evenly on every square
        (a utility at an average roll: ``Edition.utility_roll``)."""
        ed = _edition(state)
        rules = ed.rules
        owner = [sq["owner"] for sq in squares]
        out = [0.0] * n
        for sq in ed.properties:
            p = owner[sq]
            if p < 0 or squares[sq]["mortgaged"]:
                continue
            kind = ed.kind[sq]
            members = ed.groups[ed.group_of[sq]].members
            if kind == STREET:
                level = squares[sq]["level"]
                if level:
                    rent = ed.rent[sq][level]
                elif all(owner[m] == p for m in members):
                    rent = ed.rent[sq][0] * rules.set_rent_multiplier
                else:
                    rent = ed.rent[sq][0]
            else:
                count = sum(1 for m in members if owner[m] == p)
                if kind == RAILROAD:
                    rent = rules.railroad_rents[min(count, len(rules.railroad_rents)) - 1]
                elif kind == UTILITY:
                    mults = rules.utility_multipliers
                    rent = ed.utility_roll * mults[min(count, len(mults)) - 1]
                else:
                    rent = 0
            out[p] += rent
        size = ed.size
        return [x / size for x in out]


def money(ed: Edition, amount: int) -> str:
    """An amount in the edition's currency (``$200``, ``M200``)."""
    return f"{ed.currency}{amount}"


def _edition(state: GameState) -> Edition:
    assert isinstance(state, MonopolyState)
    return state.ed


def _first_each(
    std: Action, legal: list[Action], kinds: tuple[str, ...] | None = None
) -> list[Action]:
    """``std``, then the first legal action of each other kind (of ``kinds`` if given)."""
    out = [std]
    seen = {std.kind}
    for a in legal:
        if a.kind not in seen and (kinds is None or a.kind in kinds):
            seen.add(a.kind)
            out.append(a)
    return out
