"""The standard bot says why it chose (``games/monopoly/explain.py``; issue 20, "Bots that
explain themselves")."""

from __future__ import annotations

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bots import StandardBot
from meeple.kernel.bot import RandomBot
from meeple.kernel.family import new_game
from tests.monopoly.helpers import at, cash, dice, game, own

PARK_PLACE, BOARDWALK = 37, 39


def test_asking_why_changes_no_choice() -> None:
    """Explanations are asked only when someone wants them: a game where every move is
    explained plays exactly as one where none is."""
    games = []
    for explained in (False, True):
        s = new_game("classic", 3, 12, {"max_turns": 200})
        bots = [StandardBot(i) for i in range(3)]
        said = 0
        while not s.is_terminal():
            bot = bots[s.current_player()]
            a = bot.choose(s)
            if explained:
                said += bool(bot.explain(s, a))
            s.apply(a)
        games.append(s.history)
        assert not explained or said > 50
    assert games[0] == games[1]


def test_a_purchase_that_completes_a_set_says_so() -> None:
    s = game(2)
    own(s, 0, PARK_PLACE)
    at(s, 0, 30)
    dice(s, 4, 5)  # 30 + 9: Boardwalk
    s.apply(A.A_ROLL)
    bot = StandardBot(1)
    a = bot.choose(s)
    assert a == A.A_BUY
    assert bot.explain(s, a) == "buys Boardwalk: it completes the Dark Blue set"


def test_a_bid_and_a_refusal_give_the_bots_reasons() -> None:
    s = game(2)
    cash(s, 0, 100)
    at(s, 0, 30)
    dice(s, 4, 5)
    s.apply(A.A_ROLL)  # Boardwalk at $400 with $100: declined, then auctioned
    bot = StandardBot(1)
    a = bot.choose(s)
    assert a == A.A_DECLINE and "it keeps for rent" in bot.explain(s, a)
    s.apply(a)
    while s.current_player() != 1:
        s.apply(StandardBot(0).choose(s))
    a = StandardBot(2).choose(s)
    text = StandardBot(2).explain(s, a)
    assert text.startswith("bids $") and "Boardwalk is worth $" in text


def test_other_bots_have_nothing_to_say_by_default() -> None:
    s = game(2)
    assert RandomBot(1).explain(s, s.legal_actions()[0]) == ""
