"""``MonopolyState.sample_legal`` (the ``random`` bot's move) draws the action the list would
give: at every decision of random games in every edition, it returns
``legal[rng.below(len(legal))]`` for the list of legal actions, with the same one draw from the
stream, without making the list. So the ``random`` bot stays uniform over the legal actions,
plays only legal ones, plays every kind the rules offer, and plays the same games as when it
read the list."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly import actions as A
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.kernel.rng import Rng, derive_seed


def twin(rng: Rng) -> Rng:
    """A second stream at the same point as ``rng``."""
    out = Rng()
    out.state = rng.state
    return out


def check_games(edition: str, games: int, options: dict[str, Any]) -> Counter[str]:
    """Play ``games`` random games of ``edition``, checking :meth:`sample_legal` against the list
    at every decision; the kinds of action drawn, counted."""
    rules = builtin_edition(edition).rules
    drawn: Counter[str] = Counter()
    for i in range(games):
        players = rules.min_players + i % (min(rules.max_players, 5) - rules.min_players + 1)
        seed = derive_seed(1818, i)
        s = new_monopoly(edition, players, seed, {"max_turns": 300, **options})
        s.record_events = False
        rngs = [Rng(derive_seed(seed, p)) for p in range(players)]
        while not s.is_terminal():
            rng = rngs[s.current_player()]
            by_list = twin(rng)
            action = s.sample_legal(rng)  # (first: no list is made yet)
            legal = s.legal_actions()
            assert action == legal[by_list.below(len(legal))], (edition, i, s.decision_name())
            assert rng.state == by_list.state  # one draw, as the list's
            assert s.is_legal(action)
            if len(s.history) % 5 == 0:  # a clone works its kept tables out afresh
                assert (
                    s.clone().sample_legal(twin(by_list)) == legal[twin(by_list).below(len(legal))]
                )
            drawn[action.kind] += 1
            s.apply(action)
    return drawn


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_sample_legal_is_the_lists_draw(edition: str) -> None:
    drawn = check_games(edition, 4, {})
    assert sum(drawn.values()) > 100  # (a kids' edition: a few short games)


def test_sample_legal_with_rent_claims_draws_every_kind() -> None:
    """Classic with rent claims on, so every any-time kind is offered: the draws cover every
    kind of the turn, the any-time actions, auctions, trades and debts."""
    drawn = check_games("classic", 6, {"rules": {"rent_claim_required": True}})
    expected = {
        A.ROLL,
        A.END_TURN,
        A.PASS,
        A.BUY,
        A.DECLINE,
        A.BID,
        A.BUILD,
        A.SELL_BUILDING,
        A.MORTGAGE,
        A.UNMORTGAGE,
        A.TRADE,
        A.CLAIM_RENT,
        A.TRADE_DEED,
        A.TRADE_CASH,
        A.PROPOSE,
        A.CANCEL,
        A.ACCEPT,
        A.REJECT,
        A.COUNTER,
        A.KEEP_MORTGAGE,
        A.BANKRUPT,
    }
    assert expected <= set(drawn), expected - set(drawn)


def test_random_bot_draws_through_the_state() -> None:
    """The bot's move is the state's draw with the bot's stream (so the family decides how)."""
    s = new_monopoly("classic", 4, 7)
    bot = RandomBot(5)
    for _ in range(200):
        expected = s.sample_legal(twin(bot.rng))
        action = bot.choose(s)
        assert action == expected
        s.apply(action)
