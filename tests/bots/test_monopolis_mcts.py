"""The ``mcts`` bot on Monopolis (games/monopolis/search.py): legal full games, reproducible,
blind to what a seat cannot see (the decks, the bag, the tiles under each stack's top)."""

from __future__ import annotations

import pytest

from meeple.bots.base import Bot, make_bot
from meeple.bots.mcts import MctsBot
from meeple.games.monopolis.bots import MonopolisStandardBot
from meeple.games.monopolis.hidden import determinize
from meeple.games.monopolis.search import BuildPlan
from meeple.games.monopolis.state import MonopolisState, new_monopolis
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import Rng


def mcts(seed: int, arg: str = "6") -> MctsBot:
    bot = make_bot(f"mcts:{arg}", "monopolis", seed)
    assert isinstance(bot, MctsBot)
    return bot


@pytest.mark.parametrize(
    ("players", "opponent", "seed"), [(2, "standard", 1), (3, "random", 2), (4, "standard", 3)]
)
def test_mcts_plays_legal_full_games(players: int, opponent: str, seed: int) -> None:
    s = new_game("monopolis", players, seed, {})
    s.record_events = False
    seat = seed % players
    bots: list[Bot] = [
        mcts(seed, "4") if p == seat else make_bot(opponent, "monopolis", p) for p in range(players)
    ]
    while not s.is_terminal():
        a = bots[s.current_player()].choose(s)
        assert s.is_legal(a), (a, s.legal_actions())
        s.apply(a)
    result = s.result()
    assert result is not None and result.end_reason == "last_house"
    bot = bots[seat]
    assert isinstance(bot, MctsBot) and bot.stats.searches > 5


def scrambled(s: MonopolisState, salt: int) -> MonopolisState:
    """A clone with another random state and another order of every hidden pile (the resource
    decks, the bag, the tiles under each stack's face-up top): it looks the same from every
    seat."""
    c = s.clone()
    r = Rng(salt)
    c.rng.state = r.next64()
    for pile in (*c.res_decks, c.bag):
        r.shuffle(pile)
    for stack in c.tile_decks:
        if len(stack) > 2:
            top = stack.pop()
            r.shuffle(stack)
            stack.append(top)
    return c


def test_determinize_depends_only_on_what_is_public_and_the_search_stream() -> None:
    s = new_monopolis(3, 4, {})
    a, b = scrambled(s, 1), scrambled(s, 2)
    assert a.bag != b.bag and a.res_decks != b.res_decks and a.tile_decks != b.tile_decks
    determinize(a, 0, Rng(42))
    determinize(b, 0, Rng(42))
    assert (a.bag, a.res_decks, a.tile_decks, a.rng.state) == (
        b.bag,
        b.res_decks,
        b.tile_decks,
        b.rng.state,
    )
    # The same cards and tiles, each stack's face-up top where it was.
    assert sorted(a.bag) == sorted(s.bag)
    assert [sorted(d) for d in a.res_decks] == [sorted(d) for d in s.res_decks]
    assert [sorted(d) for d in a.tile_decks] == [sorted(d) for d in s.tile_decks]
    assert [d[-1] for d in a.tile_decks] == [d[-1] for d in s.tile_decks]
    assert a.bag != s.bag and a.rng.state != s.rng.state


def test_decisions_do_not_depend_on_the_hidden_order() -> None:
    """Two same-seed bots, one shown the real game and one a copy with every hidden pile in
    another order, choose the same at every decision of a game, with the same rollout values."""
    s = new_monopolis(2, 13, {})
    s.record_events = False
    seat = 1
    real, blind = mcts(5), mcts(5)
    other = MonopolisStandardBot(0)
    n = 0
    while not s.is_terminal():
        if s.current_player() == seat:
            a = real.choose(s)
            assert blind.choose(scrambled(s, n)) == a
            assert blind.stats.last_values == real.stats.last_values
            n += 1
        else:
            a = other.choose(s)
        s.apply(a)
    assert real.stats.searches > 5


def test_the_same_seed_plays_the_same_moves() -> None:
    def game() -> list[Action]:
        s = new_monopolis(2, 21, {})
        s.record_events = False
        bots: list[Bot] = [mcts(7), MonopolisStandardBot(1)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
        return s.history

    assert game() == game()


def test_a_build_plan_pays_and_lays_the_tile_it_planned() -> None:
    """The option of a build is the whole chain: the bot keeps to its payment and tile."""
    s = new_monopolis(2, 6, {})
    std = MonopolisStandardBot(0)
    while not (s.phase == 0 and any(a.kind == "build_at" for a in s.legal_actions())):
        s.apply(std.choose(s))
    build = next(a for a in s.legal_actions() if a.kind == "build_at")
    c = s.clone()
    c.apply(build)
    pay = c.legal_actions()[0]
    c.apply(pay)
    tile = c.legal_actions()[-1]
    plan = BuildPlan(build.args[0], -1 if pay.kind == "pay_full" else pay.args[0], tile.args[0])
    assert plan.first() == build and plan.follow(s) is None
    s.apply(build)
    assert plan.follow(s) == pay
    s.apply(pay)
    assert plan.follow(s) == tile
    s.apply(tile)
    assert plan.follow(s) is None
