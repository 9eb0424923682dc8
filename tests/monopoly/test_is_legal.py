"""``is_legal`` decides from the option lists without building the list of actions; here it is
checked against the list itself, at every decision of random and standard-bot games in every
edition: every listed action is legal, any amount in range for a bid or trade cash is legal,
and nothing else is (every kind, with arguments on and around the board, and with the wrong
number of arguments)."""

from __future__ import annotations

import pytest

from meeple.bots.base import Bot, RandomBot
from meeple.games.monopoly import actions as A
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.bots import StandardBot
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed

from .test_random_play import EagerRandomBot


def in_range(s: MonopolyState, a: Action) -> bool:
    """The amounts accepted beyond the listed ladders (docs/ACTIONS.md)."""
    f = s.stack[-1] if s.stack else None
    if len(a.args) != 1:
        return False
    x = a.args[0]
    if a.kind == A.BID and isinstance(f, AuctionFrame):
        return f.next_min() <= x <= s.cash[f.decider()]
    if (
        a.kind == A.TRADE_CASH
        and isinstance(f, TradeFrame)
        and not f.responding
        and f.edits < A.MAX_DRAFT_EDITS
    ):
        return -s.cash[f.target] <= x <= s.cash[f.proposer]
    return False


def candidates(s: MonopolyState, full: bool) -> list[Action]:
    """Actions to ask about: every kind; arguments across the board (all kinds when ``full``,
    else the kinds now legal) and around every amount range."""
    legal = s.legal_actions()
    legal_kinds = {a.kind for a in legal}
    span = list(range(-1, s.ed.size + 1))
    out = [Action(k) for k in A.ALL_KINDS]
    out += [Action(k, (0, 0)) for k in A.ALL_KINDS]
    for k in sorted(A.WITH_ARG):
        args = span if full or k in legal_kinds else [0, 1]
        out += [Action(k, (x,)) for x in args]
    f = s.stack[-1] if s.stack else None
    if isinstance(f, AuctionFrame):
        lo, hi = f.next_min(), s.cash[f.decider()]
        out += [Action(A.BID, (x,)) for x in (lo - 1, lo, (lo + hi) // 2, hi, hi + 1)]
    if isinstance(f, TradeFrame):
        lo, hi = -s.cash[f.target], s.cash[f.proposer]
        out += [Action(A.TRADE_CASH, (x,)) for x in (lo - 1, lo, 7, hi, hi + 1)]
    return out + legal


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_is_legal_agrees_with_legal_actions(edition: str) -> None:
    rules = builtin_edition(edition).rules
    decisions = 0
    for i in range(4):
        players = rules.min_players + i % (min(rules.max_players, 5) - rules.min_players + 1)
        seed = derive_seed(404, i)
        s = new_monopoly(edition, players, seed, {"max_turns": 120})
        s.record_events = False
        kind = EagerRandomBot if i % 2 else RandomBot
        bots: list[Bot] = [kind(derive_seed(seed, p)) for p in range(players)]
        if i >= 2:
            bots[0] = StandardBot(derive_seed(seed, 9))
        while not s.is_terminal():
            legal = set(s.legal_actions())
            for a in candidates(s, full=decisions % 7 == 0):
                s.invalidate()  # is_legal must not lean on a list already built
                expected = a in legal or in_range(s, a)
                assert s.is_legal(a) == expected, (edition, i, s.decision_name(), a)
            decisions += 1
            s.apply(bots[s.current_player()].choose(s))
    assert decisions > 100


def test_an_actions_kind_reads_the_same_bits_by_identity_or_by_look_up() -> None:
    """``state._kind_bits`` recognises the commonest kinds by identity before the dict: every
    kind, as ``actions`` spells it and as a string of its own (read from a save file), gets the
    table's bits, and a kind of no action of the family gets -1 (then apply refuses it)."""
    from meeple.games.monopoly.state import _KIND_BITS, _kind_bits

    for kind in A.ALL_KINDS:
        own = "".join(list(kind))  # an equal string, not the same object
        assert _kind_bits(kind) == _kind_bits(own) == _KIND_BITS[kind], kind
    assert _kind_bits("fly") == -1
    s = new_monopoly("classic", 2, 1)
    with pytest.raises(IllegalActionError, match="fly"):
        s.apply(Action("fly", ()))
