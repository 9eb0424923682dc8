"""When a person is asked (meeple.kernel.asking) and what moving on means in each game."""

from __future__ import annotations

import pytest

from meeple.bots.base import make_bot
from meeple.games.monopoly.rules import anytime
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.asking import (
    END_TURN,
    FORCED,
    OTHERS_TURN,
    ROLL,
    TERMINAL_DEFAULT,
    WEB_DEFAULT,
    AskSettings,
    MoveOn,
    auto_move,
    countdown,
    is_real_choice,
    wants_asking,
)
from meeple.kernel.family import game_info, new_game
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed

PASS, ROLL_A, END = Action("pass"), Action("roll"), Action("end_turn")


def play(game: str, players: int, seed: int, limit: int = 4000) -> list[GameState]:
    """Every position of a game between standard bots (clones), up to ``limit`` actions;
    Player 1 starts (the seeds were chosen for what their games show)."""
    family = game_info(game).family
    s = new_game(game, players, seed, {"rules": {"start_player": "first_seat"}})
    bots = [make_bot("standard", family, derive_seed(seed, 1 + p)) for p in range(players)]
    out = []
    while not s.is_terminal() and len(s.history) < limit:
        out.append(s.clone())
        s.apply(bots[s.current_player()].choose(s))
    return out


@pytest.mark.parametrize(
    ("game", "players"),
    [("classic", 4), ("friends", 3), ("frozen-ii", 4), ("my-first-monopoly-2", 3)],
)
def test_monopoly_moves_on_only_past_optional_actions(game: str, players: int) -> None:
    # The kids' level has no any-time actions: no windows, no end of turn to wait for.
    kids = game.startswith("my-first")
    seen: set[str] = set()
    # Seed 3: each game reaches a decision with one answer (classic a mortgaged deed received,
    # Friends a deed its lander cannot pay for, Frozen II the snowflake's one scene); seed 5's
    # games stopped doing so when issue 38 changed the standard bots' games.
    for s in play(game, players, 3, 1500):
        assert isinstance(s, MonopolyState)
        move = s.move_on()
        legal = s.legal_actions()
        p = s.current_player()
        if move is None:
            continue
        seen.add(move.moment)
        assert move.action in legal
        if move.moment == FORCED:
            assert legal == [move.action]
            continue
        assert not s.stack, "a frame's answers are all real unless there is only one"
        phase = s.PHASE_NAMES[s.phase]
        expected = {"pre_roll": (ROLL, ROLL_A), "end_turn": (END_TURN, END)}
        want = expected.get(phase, (OTHERS_TURN, PASS))
        assert (move.moment, move.action) == want, phase
        if move.moment == OTHERS_TURN:
            assert p != s.turn
        # Everything besides the move-on is optional (build, sell, mortgage, lift, trade).
        assert set(legal) - {move.action} == set(anytime.options(s, p))
        assert move.worth_asking == bool(anytime.build_options(s, p))
    if kids:
        assert ROLL in seen and seen <= {FORCED, ROLL}, seen
    else:
        assert seen == {FORCED, ROLL, END_TURN, OTHERS_TURN}, seen


def test_a_rent_claim_is_always_asked() -> None:
    """With the rent-claims option, unclaimed rent is lost: a window with a claim is real."""
    for s in play("classic", 3, 2, 600):
        assert isinstance(s, MonopolyState)
        if not s.stack and s.phase == s.WINDOW:
            s.claims = [[s.current_player(), s.turn, 10, s.turn_no, 1]]
            s._legal = None
            assert s.move_on() is None
            assert auto_move(s, s.current_player(), AskSettings("never")) is None
            return
    pytest.fail("no window in the game")


def test_monopolis_moves_on_only_when_forced() -> None:
    for s in play("monopolis", 3, 4, 300):
        move = s.move_on()
        legal = s.legal_actions()
        if len(legal) == 1:
            assert move == MoveOn(legal[0], FORCED)
        else:
            assert move is None


@pytest.mark.parametrize(
    ("moment", "worth", "settings", "asked"),
    [
        (FORCED, True, AskSettings("always", "always"), False),
        (OTHERS_TURN, True, AskSettings("never"), False),
        (OTHERS_TURN, False, AskSettings("build"), False),
        (OTHERS_TURN, True, AskSettings("build"), True),
        (OTHERS_TURN, False, AskSettings("always"), True),
        (ROLL, False, AskSettings(own_turn="build"), False),
        (ROLL, True, AskSettings(own_turn="build"), True),
        (ROLL, False, AskSettings(own_turn="roll"), True),
        (END_TURN, False, AskSettings(own_turn="roll"), False),
        (END_TURN, True, AskSettings(own_turn="roll"), True),
        (END_TURN, False, AskSettings(own_turn="always"), True),
    ],
)
def test_settings_decide_who_is_asked(
    moment: str, worth: bool, settings: AskSettings, asked: bool
) -> None:
    assert wants_asking(MoveOn(PASS, moment, worth), settings) is asked


def test_auto_move_asks_without_settings_when_held_or_not_deciding() -> None:
    s = new_game("classic", 3, 1, {"rules": {"start_player": "first_seat"}})
    assert auto_move(s, 0, WEB_DEFAULT) == MoveOn(ROLL_A, ROLL, False)
    assert auto_move(s, 0, None) is None  # the API's default: ask every decision
    assert auto_move(s, 0, WEB_DEFAULT, held=True) is None
    assert auto_move(s, 1, WEB_DEFAULT) is None  # seat 1 does not decide now
    # The terminal asks before a roll only when something is worth doing first (issue 38).
    assert auto_move(s, 0, TERMINAL_DEFAULT) == MoveOn(ROLL_A, ROLL, False)


def test_real_choices() -> None:
    s = new_game("classic", 3, 1)
    assert not is_real_choice(s, ROLL_A)  # rolling with nothing else worth doing
    found = 0
    for pos in play("classic", 3, 1, 2000):
        move = pos.move_on()
        legal = pos.legal_actions()
        for a in legal:
            real = is_real_choice(pos, a)
            if move is None:
                assert real is (len(legal) > 1)
            elif a != move.action:
                assert real  # an optional action taken instead of moving on
            else:
                assert real is move.worth_asking
                found += real
    assert found, "no move-on with a build open: the worth_asking case went untested"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"others_turns": "sometimes"}, "others_turns"),
        ({"own_turn": "never"}, "own_turn"),
        ({"grace": -1}, "grace"),
        ({"grace": 31}, "grace"),
        ({"colour": "red"}, "unknown ask setting"),
    ],
)
def test_bad_settings_say_what_is_wrong(data: dict[str, object], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        AskSettings.from_dict(data)


def test_settings_round_trip() -> None:
    a = AskSettings("build", "roll", 1.5)
    assert AskSettings.from_dict(a.to_dict()) == a


@pytest.mark.parametrize(
    ("moment", "settings", "seconds"),
    [
        (ROLL, AskSettings(grace=3), 3.0),
        (END_TURN, AskSettings(grace=3), 3.0),
        (OTHERS_TURN, AskSettings(grace=3), 0.0),  # nothing to decide there: at once
        (FORCED, AskSettings(grace=3), 0.0),  # nothing else to do
        (ROLL, WEB_DEFAULT, 0.0),  # the lobby's: no countdown at all
        (ROLL, None, 0.0),
    ],
)
def test_a_countdown_only_where_the_person_could_want_to_act(
    moment: str, settings: AskSettings | None, seconds: float
) -> None:
    """Issue 38, "No waiting for nothing": a front end counts down only at the person's own
    roll and end of turn, and only for a person who set a grace."""
    assert countdown(MoveOn(PASS, moment), settings) == seconds
