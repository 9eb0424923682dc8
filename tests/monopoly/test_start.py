"""Who goes first (``rules/start.py``; docs/RULES.md, "Who starts").

Friends rules A: "All of the players take turns rolling both of the dice. Whichever player
rolls the highest starts the game." My First Monopoly: "The youngest player goes first".
"""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.rules.rulesets import RULESET
from meeple.kernel.family import family, new_game
from meeple.kernel.saves import load_data, save_data


def rolls_of(s: object) -> list[tuple[int, int]]:
    r = s.start_rolls  # type: ignore[attr-defined]
    return [(r[i], r[i + 1] + r[i + 2]) for i in range(0, len(r), 3)]


@pytest.mark.parametrize("edition", ["classic", "friends", "frozen-ii"])
def test_the_highest_roller_starts(edition: str) -> None:
    for seed in range(40):
        s = new_monopoly(edition, 4, seed)
        rolls = rolls_of(s)
        # The roll-off read back: everyone rolls in seat order, then the tied highest again.
        rolling, i = [0, 1, 2, 3], 0
        while True:
            assert [p for p, _ in rolls[i : i + len(rolling)]] == rolling
            totals = dict(rolls[i : i + len(rolling)])
            i += len(rolling)
            best = max(totals.values())
            rolling = [p for p in rolling if totals[p] == best]
            if len(rolling) == 1:
                break
        assert i == len(rolls) and rolling == [s.first_player] and s.turn == s.first_player
        assert s.current_player() == s.first_player and s.decision_name() == "pre_roll"


def test_the_tied_highest_roll_again_among_themselves() -> None:
    tied = 0
    for seed in range(300):
        s = new_monopoly("classic", 4, seed)
        rolls = rolls_of(s)
        if len(rolls) == 4:
            continue
        tied += 1
        first = rolls[:4]
        best = max(t for _, t in first)
        again = [p for p, t in first if t == best]
        assert len(again) >= 2 and [p for p, _ in rolls[4 : 4 + len(again)]] == again
    assert tied > 10  # (ties at the top are common: about one roll-off in six)


def test_every_seat_starts_about_as_often() -> None:
    starts = Counter(new_monopoly("classic", 4, seed).first_player for seed in range(800))
    assert set(starts) == {0, 1, 2, 3} and min(starts.values()) > 150


def test_my_first_monopoly_draws_a_seat_for_the_youngest() -> None:
    """The engine knows no ages: a seat drawn from the game's stream stands in, no roll."""
    for edition in ("my-first-monopoly-1", "my-first-monopoly-2"):
        starts = Counter()
        for seed in range(200):
            s = new_monopoly(edition, 3, seed)
            assert s.start_rolls == [] and s.turn == s.first_player
            starts[s.first_player] += 1
        assert set(starts) == {0, 1, 2}


def test_the_first_seat_option_and_the_first_ruleset_start_with_player_1() -> None:
    first = {"rules": {"start_player": "first_seat"}}
    old = {"ruleset": 1}
    for seed in range(30):
        for options in (first, old):
            s = new_monopoly("classic", 4, seed, options)
            assert s.turn == 0 and s.start_rolls == []
    # The draw is the only difference: with Player 1 starting, the first ruleset's game.
    a = new_monopoly("classic", 4, 9, first)
    b = new_monopoly("classic", 4, 9, old)
    assert a.rng.state == b.rng.state and a.decks == b.decks


def test_the_log_says_who_rolled_and_who_starts() -> None:
    s = new_monopoly("classic", 3, 4)
    lines = [s.describe(e) for e in s.setup_events()]
    assert lines[0].startswith("Player 1 rolls ") and lines[0].endswith(" to see who starts.")
    assert lines[-1] == f"Player {s.first_player + 1} starts (the highest roll)."
    kid = new_monopoly("my-first-monopoly-1", 3, 4)
    assert [kid.describe(e) for e in kid.setup_events()] == [
        f"Player {kid.first_player + 1} starts (drawn at random)."
    ]
    # A clone keeps the setup; a game restored from a snapshot was set up by it.
    assert [s.describe(e) for e in s.clone().setup_events()] == lines
    s.restore(s.snapshot())
    assert s.setup_events() == []


def test_a_new_game_is_stamped_with_the_ruleset() -> None:
    assert family("monopoly").ruleset == RULESET == 3
    assert new_game("classic", 2, 1).options["ruleset"] == RULESET
    assert new_monopoly("classic", 2, 1).options["ruleset"] == RULESET
    with pytest.raises(ValueError, match="ruleset from 1 to 3"):
        new_game("classic", 2, 1, {"ruleset": 4})


def test_a_save_file_from_before_rulesets_replays_as_it_was_played() -> None:
    """A file without a ruleset was saved when Player 1 always started: it loads so."""
    s = new_game("classic", 3, 8, {"ruleset": 1})
    for _ in range(40):
        s.apply(s.legal_actions()[0])
    data = save_data(s)
    del data["options"]["ruleset"]  # as an older meeple wrote it
    loaded = load_data(data)
    assert loaded.history == s.history and loaded.snapshot() == s.snapshot()
    assert loaded.options["ruleset"] == 1
