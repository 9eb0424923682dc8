"""The standard bot breaks stalemates (games/monopoly/bots.py, ``StandardBot.force_progress``):
a game between standard bots ends by the rules, and the turn cap is a backstop only.

The position is one such game as it stood (classic, two players, seed 0, game 40 of
``meeple simulate classic --players 2 --bots standard`` before the bot broke stalemates): the
bank's 32 houses are all on the board, Player 1's three cheap sets stand at three houses and
the red set at one, Player 2's four sets at one house or none, so nobody can build a hotel and
nobody sells. That game ran to the 5,000-turn cap with Player 1's cash at M114k.
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopoly import MonopolyState
from meeple.games.monopoly.audit import audit, board_signature
from meeple.games.monopoly.bots import STALL_CHECK_ROUNDS, Params, StandardBot
from meeple.kernel.position import from_position

PLAYER_1 = {1: 3, 3: 3, 6: 3, 8: 3, 9: 3, 11: 3, 13: 3, 14: 3, 21: 1, 23: 0, 24: 0, 25: 0}
PLAYER_2 = {
    **{16: 0, 18: 0, 19: 0, 26: 0, 27: 1, 29: 1, 31: 1, 32: 1, 34: 1, 37: 1, 39: 1},
    **{5: 0, 15: 0, 35: 0, 12: 0, 28: 0},  # railroads and utilities
}
STALL_ROUNDS = Params().stall_rounds


def shortage(seed: int) -> MonopolyState:
    """The housing-shortage stalemate, each player with M5,000, Player 1 to roll."""
    owner = [0 if sq in PLAYER_1 else 1 if sq in PLAYER_2 else -1 for sq in range(40)]
    level = [PLAYER_1.get(sq, PLAYER_2.get(sq, 0)) for sq in range(40)]
    data: dict[str, Any] = {
        "game": "classic",
        "players": 2,
        "seed": seed,
        "options": {"max_turns": 5000},
        # (bank_out: the bank paid out what they hold beyond the starting M1,500 each, so the
        # money audit balances)
        "position": {"cash": [5000, 5000], "bank_out": 7000, "owner": owner, "level": level},
    }
    s = from_position(data)
    assert isinstance(s, MonopolyState)
    s.record_events = False
    assert (s.houses, s.hotels, s.round_no) == (0, 12, 1)  # every house out, no hotel
    return s


def test_without_stalemate_breaking_the_shortage_never_moves() -> None:
    """The position is a real stalemate: standard bots that never force progress build
    nothing, sell nothing and nobody goes broke, round after round (the cap ends such a game)."""
    for seed in (1, 2):
        s = shortage(seed)
        never = Params(stall_rounds=10**9)
        bots = [StandardBot(10 * seed + p, never) for p in range(2)]
        levels = list(s.level)
        while s.round_no <= 6 * STALL_ROUNDS:
            s.apply(bots[s.current_player()].choose(s))
        assert list(s.level) == levels and s.houses == 0 and s.alive == [True, True]
        assert min(s.cash) > 5000  # both richer than they started


def test_standard_bots_break_the_shortage_and_the_game_ends() -> None:
    """The standard bots see no progress (no building beyond the board's most, no deed changing
    hands, nobody out) for ``stall_rounds`` rounds, then force it: a player moves houses onto
    its set nearest four houses and builds hotels there, which give houses back to the bank,
    in the very round the stall is seen; the game then ends by the rules, far inside the cap.
    Every action stays legal and the invariant audit holds throughout."""
    for seed in (1, 2, 3):
        s = shortage(seed)
        bots = [StandardBot(10 * seed + p) for p in range(2)]
        stalled_in = first_hotel = 0
        while not s.is_terminal():
            before = board_signature(s)
            s.apply(bots[s.current_player()].choose(s))
            assert not audit(s, before)
            if not stalled_in and any(bot.stalled for bot in bots):
                stalled_in = s.round_no
            if not first_hotel and s.hotels < 12:
                first_hotel = s.round_no
        assert stalled_in == 1 + STALL_ROUNDS  # (counted from the first round seen)
        assert first_hotel == stalled_in
        r = s.result()
        assert r is not None and r.end_reason == "last_player_standing"
        assert s.round_no < 4 * STALL_ROUNDS


def test_progress_ends_the_stall() -> None:
    """Once the houses move (a hotel stands, more is built than ever before), the game has
    progressed: at their next look for progress (every ``STALL_CHECK_ROUNDS`` rounds) the bots
    play normally again, until it stalls anew."""
    s = shortage(1)
    bots = [StandardBot(10 + p) for p in range(2)]
    while s.hotels == 12 and not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    assert s.hotels < 12 and any(bot.stalled for bot in bots)
    hotel_round = s.round_no
    while s.round_no <= hotel_round + STALL_CHECK_ROUNDS and not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    assert not any(bot.stalled for bot in bots)


def test_the_bot_says_why_it_moves_houses() -> None:
    """Asked why (``Bot.explain``), a stalled bot names the stalemate for the moves that end it:
    selling a house outside a debt, building on the set it fills, and the first hotel."""
    s = shortage(1)
    bots = [StandardBot(10 + p) for p in range(2)]
    said: dict[str, str] = {}
    while s.hotels == 12 and not s.is_terminal():
        bot = bots[s.current_player()]
        action = bot.choose(s)
        kind = "hotel" if action.kind == "build" and s.level[action.args[0]] == 4 else action.kind
        if kind in ("sell_building", "build", "hotel"):
            said.setdefault(kind, bot.explain(s, action))
        s.apply(action)
    rounds = f"nothing has moved for {STALL_ROUNDS} rounds"
    assert said["sell_building"].startswith("sells a house on ") and rounds in said["sell_building"]
    assert said["build"].startswith("builds on ") and "set to hotels" in said["build"]
    assert said["hotel"].startswith("builds a hotel on ") and rounds in said["hotel"]
