"""Simulations may cap the number of turns: a capped game records its end reason and ranks the
players by net worth (docs/RULES.md, Decisions, "Turn cap"; rules/turns.ranking and
rules/money.net_worth). Also a few seeded random games, audited after every action.
"""

import random

from meeple.games.monopoly.audit import audit, board_signature
from tests.monopoly.helpers import act, at, build_to, capped_game, cash, dice, own, pass_windows


def test_capped_game_ends_with_reason_turn_cap() -> None:
    """docs/RULES.md, "Turn cap": max_turns counts player-turns; the game ends after that many
    with end_reason "turn_cap"."""
    s = capped_game(players=2, max_turns=2)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert not s.is_terminal() and s.turn == 1
    at(s, 1, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.is_terminal()
    r = s.result()
    assert r is not None and r.end_reason == "turn_cap" and r.turns == 2


def test_simulations_cap_a_game_that_never_ends_by_default() -> None:
    """docs/RULES.md, "Turn cap": a simulation caps a game that does not end at
    DEFAULT_MAX_TURNS unless told otherwise. It is a backstop: standard bots end their games by
    the rules (they break stalemates: tests/monopoly/test_stalemate.py), so this game is one
    that cannot end. Two standard bots start a classic game with M10^15 each: no turn can cost
    a player more than a few thousand, so nobody can go bankrupt in a billion turns. Without
    the default cap this test would never return."""
    from meeple.sim.runner import DEFAULT_MAX_TURNS, SimConfig, play_one

    position = {"cash": [10**15, 10**15], "bank_out": 2 * 10**15 - 3000}
    cfg = SimConfig("classic", 2, 1, 0, ("standard",) * 2, options={"position": position})
    assert cfg.max_turns == DEFAULT_MAX_TURNS > 0
    rec = play_one(cfg, 0)
    assert rec.end_reason == "turn_cap" and rec.turns == DEFAULT_MAX_TURNS
    assert all(c > 10**14 for c in rec.cash)  # both still rich beyond reach


def test_capped_game_ranks_by_net_worth() -> None:
    """Net worth = cash + printed price of unmortgaged deeds + mortgage value of mortgaged ones
    + cost of buildings (docs/RULES.md, Decisions). Seat 0: 1000 + Boardwalk 400 + Park Place
    350 + 2 houses at 200 = 2150; seat 1: 1500; seat 2: 1200 + Reading 200 = 1400."""
    s = capped_game(players=3, max_turns=1)
    cash(s, 0, 1000)
    own(s, 0, 39, 37)
    build_to(s, {39: 1, 37: 1})
    own(s, 2, 5)
    cash(s, 2, 1200)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    pass_windows(s)
    assert s.is_terminal()
    r = s.result()
    assert r is not None
    assert r.scores == [1000 + 400 + 350 + 400, 1500, 1400]
    assert r.ranking == [0, 1, 2] and r.winners == [0]


def test_net_worth_counts_mortgaged_deeds_at_mortgage_value() -> None:
    """docs/RULES.md, "Turn cap": a mortgaged deed counts at its mortgage value (Park Place
    175)."""
    from meeple.games.monopoly.rules.money import net_worth

    s = capped_game(players=2)
    own(s, 0, 37, mortgaged=True)
    assert net_worth(s, 0) == 1500 + 175


def test_tied_net_worth_shares_first_place() -> None:
    """docs/RULES.md, "Turn cap": equal net worth shares first place, listed in seat order."""
    s = capped_game(players=3, max_turns=1)
    cash(s, 2, 1000)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    r = s.result()
    assert r is not None
    assert r.winners == [0, 1] and r.ranking == [0, 1, 2]


def play_random(seed: int, players: int, max_turns: int) -> None:
    s = capped_game(players=players, seed=seed, max_turns=max_turns)
    pick = random.Random(seed)
    for _ in range(20000):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        assert legal, s.decision_name()
        # Prefer the plain moves so games progress; still try every kind now and then.
        quiet = [a for a in legal if a.kind in ("roll", "end_turn", "pass", "buy", "accept")]
        a = pick.choice(quiet if quiet and pick.random() < 0.8 else legal)
        before = board_signature(s)
        s.apply(a)
        problems = audit(s, before)
        assert not problems, (seed, s.history[-10:], problems)
    assert s.is_terminal()
    r = s.result()
    assert r is not None and r.end_reason in ("turn_cap", "last_player_standing")


def test_random_capped_games_end_with_a_reason_and_keep_the_invariants() -> None:
    """DESIGN.md, "Correctness you can see": every game ends or reaches its cap with a recorded
    reason; the audit holds after every action."""
    for seed in range(6):
        play_random(seed, players=2 + seed % 3, max_turns=120)
