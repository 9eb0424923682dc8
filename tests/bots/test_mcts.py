"""The ``mcts`` bot: legal moves in every edition, reproducible, blind to hidden information,
within its budget, and clear about bad arguments."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from meeple.bots.base import Bot, bot_kinds, make_bot
from meeple.bots.mcts import DEFAULT_ITERATIONS, Budget, MctsBot, Option
from meeple.cli.main import app
from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bots import StandardBot
from meeple.games.monopoly.hidden import determinize
from meeple.games.monopoly.search import BidUpTo, MonopolySearch, Offer
from meeple.games.monopoly.state import MonopolyState, new_monopoly
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import Rng
from tests.monopoly.helpers import first_seat, own


def mcts(seed: int, arg: str = "6") -> MctsBot:
    bot = make_bot(f"mcts:{arg}", "monopoly", seed)
    assert isinstance(bot, MctsBot)
    return bot


def play(s: MonopolyState, bots: list[Bot], check: bool = True) -> list[Action]:
    """Play to the end (the turn cap), checking every move is legal before applying it."""
    moves = []
    while not s.is_terminal():
        a = bots[s.current_player()].choose(s)
        if check:
            assert s.is_legal(a), (a, s.decision_name(), s.legal_actions())
        s.apply(a)
        moves.append(a)
    return moves


def reach(s: MonopolyState, decision: str, bots: list[Bot] | None = None) -> MonopolyState:
    """Play standard bots until ``decision`` is up with more than one legal action."""
    bots = bots or [StandardBot(p) for p in range(s.n)]
    while s.decision_name() != decision or len(s.legal_actions()) < 2:
        assert not s.is_terminal(), f"no {decision} decision reached"
        s.apply(bots[s.current_player()].choose(s))
    return s


# -- always legal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "players", "opponent", "seed"),
    [
        ("classic", 4, "standard", 1),
        ("classic", 3, "random", 2),
        ("friends", 4, "standard", 3),
        ("frozen-ii", 3, "standard", 4),
        ("my-first-monopoly-1", 2, "random", 5),
        ("my-first-monopoly-2", 4, "standard", 6),
    ],
)
def test_every_decision_is_legal_in_every_edition(
    edition: str, players: int, opponent: str, seed: int
) -> None:
    s = new_game(edition, players, seed, {"max_turns": 50})
    assert isinstance(s, MonopolyState)
    s.record_events = False
    seat = seed % players
    bots: list[Bot] = [
        mcts(seed, "4") if p == seat else make_bot(opponent, "monopoly", p) for p in range(players)
    ]
    play(s, bots)
    assert s.is_terminal()


def test_a_long_game_against_standard_bots_stays_legal_and_searches() -> None:
    s = new_monopoly("classic", 4, 11, {"max_turns": 160})
    s.record_events = False
    bot = mcts(3, "4")
    play(s, [StandardBot(0), bot, StandardBot(2), StandardBot(3)])
    assert bot.stats.searches > 5


# -- reproducible --------------------------------------------------------------------------------


def test_the_same_seed_plays_the_same_moves() -> None:
    def game(bot_seed: int) -> list[Action]:
        s = new_monopoly("classic", 3, 21, {"max_turns": 45})
        s.record_events = False
        return play(s, [mcts(bot_seed), StandardBot(1), StandardBot(2)], check=False)

    assert game(7) == game(7)


def test_the_bot_draws_one_number_from_its_stream_per_search() -> None:
    s = reach(new_monopoly("classic", 4, 5), "buy")
    bot = mcts(9)
    before = Rng(9)
    bot.choose(s)
    assert bot.stats.searches == 1
    before.next64()
    assert bot.rng.state == before.state


# -- never sees what its seat cannot see ----------------------------------------------------------


def scrambled(s: MonopolyState, salt: int) -> MonopolyState:
    """A clone with another random state and another order of every deck: a state that looks
    exactly the same from every seat."""
    c = s.clone()
    r = Rng(salt)
    c.rng.state = r.next64()
    for deck in c.decks:
        r.shuffle(deck)
    return c


def test_determinize_depends_only_on_what_is_public_and_the_bots_stream() -> None:
    s = reach(new_monopoly("classic", 4, 8), "buy")
    a, b = scrambled(s, 1), scrambled(s, 2)
    assert a.decks != b.decks and a.rng.state != b.rng.state
    determinize(a, s.current_player(), Rng(42))
    determinize(b, s.current_player(), Rng(42))
    assert a.decks == b.decks and a.rng.state == b.rng.state
    assert a.rng.state != s.rng.state
    assert [sorted(d) for d in a.decks] == [sorted(d) for d in s.decks]


def test_decisions_do_not_depend_on_the_real_dice_or_deck_order() -> None:
    """Two same-seed bots, one shown the real state and one a scrambled copy, decide the same at
    every decision of a game, with the same rollout values."""
    s = new_monopoly("classic", 4, 13, {"max_turns": 70})
    s.record_events = False
    seat = 2
    real, blind = mcts(5), mcts(5)
    others = [StandardBot(p) for p in range(4)]
    n = 0
    while not s.is_terminal():
        if s.current_player() == seat:
            a = real.choose(s)
            assert blind.choose(scrambled(s, n)) == a
            assert blind.stats.last_values == real.stats.last_values
            n += 1
        else:
            a = others[s.current_player()].choose(s)
        s.apply(a)
    assert real.stats.searches > 3


# -- the budget ---------------------------------------------------------------------------------


def test_an_iteration_budget_caps_the_rollouts_of_every_search() -> None:
    s = new_monopoly("classic", 4, 17, {"max_turns": 50})
    s.record_events = False
    bot = mcts(1, "20")
    bots: list[Bot] = [bot, StandardBot(1), StandardBot(2), StandardBot(3)]
    most = 0
    while not s.is_terminal():
        before = bot.stats.searches
        s.apply(bots[s.current_player()].choose(s))
        if bot.stats.searches > before:
            most = max(most, bot.stats.last_rollouts)
            assert sum(c for _, _, c in bot.stats.last_values) == bot.stats.last_rollouts
    assert 0 < most <= 20


def test_a_time_budget_bounds_each_decision() -> None:
    s = reach(new_monopoly("classic", 4, 5), "buy")
    bot = mcts(2, "0.05s")
    t = time.perf_counter()
    bot.choose(s)
    took = time.perf_counter() - t
    assert bot.stats.last_rollouts >= 2
    assert took < 0.05 + 0.5  # the deadline, plus at most one round of rollouts


def test_bare_mcts_has_a_default_budget_and_is_a_bot_of_both_families() -> None:
    bot = make_bot("mcts", "monopoly", 0)
    assert isinstance(bot, MctsBot)
    assert bot.budget == Budget(DEFAULT_ITERATIONS, None)
    assert "mcts" in bot_kinds("monopoly")
    assert "mcts" in bot_kinds("monopolis")  # games/monopolis/search.py


@pytest.mark.parametrize(
    ("arg", "budget"),
    [("200", Budget(200, None)), ("0.5s", Budget(None, 0.5)), ("100:2s", Budget(100, 2.0))],
)
def test_budget_arguments(arg: str, budget: Budget) -> None:
    assert Budget.parse(arg) == budget


@pytest.mark.parametrize("arg", ["abc", "0", "-3", "1.5", "0s", "xs", "10:20", "1s:2s", "9999999"])
def test_bad_budget_arguments_say_what_is_expected(arg: str) -> None:
    with pytest.raises(ValueError, match="bad mcts budget"):
        make_bot(f"mcts:{arg}", "monopoly", 0)


def test_the_cli_refuses_a_bad_mcts_budget_and_plays_mcts_in_monopolis() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "classic", "--bots", "mcts:lots"])
    assert result.exit_code == 2
    assert "bad mcts budget 'lots'" in result.output
    result = runner.invoke(
        app, ["simulate", "monopolis", "--players", "2", "--bots", "mcts:x,random"]
    )
    assert result.exit_code == 2
    assert "bad mcts budget 'x'" in result.output
    args = ["simulate", "monopolis", "--players", "2", "--games", "2", "--bots", "mcts:4,standard"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output


# -- what is searched -----------------------------------------------------------------------------


def test_a_buy_decision_compares_buying_and_declining() -> None:
    s = reach(new_monopoly("classic", 4, 5), "buy")
    options = MonopolySearch().options(s, s.current_player(), StandardBot())
    assert isinstance(options, list)
    assert {o.first() for o in options} == {A.A_BUY, A.A_DECLINE}


def test_an_auction_is_one_search_then_a_plan() -> None:
    s = new_monopoly("classic", 4, 5)
    s.record_events = False
    reach(s, "buy")
    s.apply(A.A_DECLINE)
    bidder = s.current_player()
    options = MonopolySearch().options(s, bidder, StandardBot())
    assert isinstance(options, list)
    assert options[0].first() == A.A_PASS
    plans = [o for o in options[1:] if isinstance(o, BidUpTo)]
    assert plans and all(p.first().kind == A.BID for p in plans)
    plan = plans[-1]
    low = min(a.args[0] for a in s.legal_actions() if a.kind == A.BID)
    assert plan.follow(s) == Action(A.BID, (low,))
    plan.limit = low - 1
    assert plan.follow(s) == A.A_PASS


def test_the_standard_bots_trade_offer_is_searched_with_variants_and_drafted() -> None:
    s = new_monopoly("classic", 4, 5, first_seat())
    s.record_events = False
    own(s, 0, 16, 18, 9)  # two oranges and a light blue
    own(s, 1, 19, 6, 8)  # the last orange and two light blues: a swap completes both sets
    options = MonopolySearch().options(s, 0, StandardBot())
    assert isinstance(options, list)
    offers = [o for o in options if isinstance(o, Offer)]
    assert len(offers) >= 2 and options[-1].first() == A.A_ROLL
    assert all(o.first() == Action(A.TRADE, (1,)) for o in offers)
    assert all(A.A_PROPOSE not in o.edits for o in offers)
    bot = mcts(4, "12")
    bots: list[Bot] = [bot, StandardBot(1), StandardBot(2), StandardBot(3)]
    first = bot.choose(s)
    s.apply(first)
    while s.current_player() == 0 and s.decision_name() == "trade":
        a = bot.choose(s)
        assert s.is_legal(a)
        s.apply(a)
    if first.kind == A.TRADE:  # drafted and proposed: seat 1 answers
        assert s.decision_name() == "trade" and s.current_player() == 1
        s.apply(bots[1].choose(s))


def test_routine_decisions_are_the_standard_bots() -> None:
    s = new_monopoly("classic", 4, 5)
    search = MonopolySearch()
    assert s.legal_actions() == [A.A_ROLL]
    bot = mcts(0)
    assert bot.choose(s) == A.A_ROLL
    assert bot.stats.searches == 0
    assert search.options(s, 0, StandardBot()) == A.A_ROLL


def test_a_single_option_needs_no_rollout() -> None:
    s = reach(new_monopoly("classic", 4, 5), "buy")
    bot = mcts(0)
    only = Option(A.A_BUY)
    assert bot.search(s, s.current_player(), [only]) is only
    assert bot.stats.rollouts == 0


def test_the_score_is_a_share_of_equity() -> None:
    search = MonopolySearch()
    s = new_monopoly("classic", 4, 5)
    assert [search.evaluate(s, p) for p in range(4)] == [0.25] * 4
    s.owner[39] = 0  # Boardwalk earns seat 0 rent: a bigger share than its price alone
    s.cash[0] -= 400
    assert search.evaluate(s, 0) > 0.25
    s.alive[1] = False
    assert search.evaluate(s, 1) == 0.0


def test_mcts_says_what_its_search_found() -> None:
    """Bot.explain (issue 20): a searched decision names the rollouts and the options' scores,
    a bid kept to an earlier plan says so, the rest is the standard bot's reason."""
    s = new_game("classic", 2, 3, {"rules": {"start_player": "first_seat"}})
    bots = [make_bot("mcts:16", "monopoly", 1), make_bot("standard", "monopoly", 2)]
    said: list[str] = []
    for _ in range(400):
        if s.is_terminal():
            break
        p = s.current_player()
        a = bots[p].choose(s)
        if p == 0:
            said.append(bots[0].explain(s, a))
        s.apply(a)
    searched = [r for r in said if r.startswith("searched ")]
    assert searched and all(" scores 0." in r or " scores 1." in r for r in searched)
    assert any(r.startswith("searched 16 rollouts: Buy scores") for r in searched)
    assert any(r.startswith("keeps to its plan: bid up to $") for r in said)
    rest = [r for r in said if r and not r.startswith(("searched ", "keeps to its plan"))]
    assert rest  # decisions not searched: the standard bot's own reasons
