"""The protocol every game keeps (``meeple.kernel.protocol.GameState``), checked the same way
for every game id and player count: OpenSpiel's idea of tests every game inherits (issue 19).

A random game of each is played (a uniform random bot per seat, seeded) and, at positions
along it, each check runs: clones are independent, a save file loads back to the same game
that plays on the same, the same seed and actions make the same game, a refused action says
why and leaves the state exactly as it was, every legal action round-trips through its text
and is legal, and every seat's view (and the spectator's) is JSON with neither the random state
nor any deck's order in it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from meeple.bots.base import make_bot
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.family import game_family, game_ids, game_info, new_game
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import load_data, save_data

ACTIONS = 400
"""How far each game is played (a random game wanders for thousands of actions)."""
EVERY = 40
"""The checks run at every this many actions, and at the end."""


def cases() -> list[tuple[str, int]]:
    out = []
    for game in game_ids():
        info = game_info(game)
        out += [(game, n) for n in sorted({info.min_players, info.max_players})]
    return out


def positions(game: str, players: int, seed: int = 11) -> Iterator[tuple[GameState, int]]:
    """The positions of a random game where the checks run, with the next action's seat."""
    state = new_game(game, players, seed)
    family = game_family(game)
    bots = [make_bot("random", family, derive_seed(seed, 1 + s)) for s in range(players)]
    while True:
        n = len(state.history)
        if state.is_terminal() or n >= ACTIONS:
            yield state, -1
            return
        if n % EVERY == 0:
            yield state, state.current_player()
        state.apply(bots[state.current_player()].choose(state))


def frozen(state: GameState) -> str:
    """Everything the state holds, as text (to compare before and after)."""
    return json.dumps([state.snapshot(), [str(a) for a in state.history]], sort_keys=True)


@pytest.fixture(params=cases(), ids=lambda c: f"{c[0]}-p{c[1]}")
def game(request: pytest.FixtureRequest) -> tuple[str, int]:
    case: tuple[str, int] = request.param
    return case


def test_the_game_plays_and_ends_or_goes_on(game: tuple[str, int]) -> None:
    seen = 0
    for state, seat in positions(*game):
        seen += 1
        if state.is_terminal():
            assert state.current_player() == -1 and state.legal_actions() == []
            result = state.result()
            assert result is not None and result.end_reason
            assert sorted(result.ranking) == list(range(state.num_players))
        elif seat >= 0:
            assert 0 <= seat < state.num_players and state.legal_actions()
            assert state.result() is None
    assert seen >= 2


def test_random_play_keeps_every_invariant(game: tuple[str, int]) -> None:
    """The family's audit (``GameFamily.audit``) finds nothing after any action of a random
    game, and every position reached is a valid one (``position.problems``)."""
    from meeple.kernel.family import family_of_state
    from meeple.kernel.position import problems

    name, players = game
    state = new_game(name, players, 5)
    family = family_of_state(state)
    bots = [make_bot("random", family.name, derive_seed(5, 1 + s)) for s in range(players)]
    assert family.audit(state) == []
    while not state.is_terminal() and len(state.history) < ACTIONS:
        state.apply(bots[state.current_player()].choose(state))
        assert family.audit(state) == [], (len(state.history), state.history[-1])
    assert problems(state) == []


def test_a_clone_is_independent(game: tuple[str, int]) -> None:
    for state, seat in positions(*game):
        if seat < 0:
            continue
        before = frozen(state)
        copy = state.clone()
        assert frozen(copy) == before
        copy.apply(copy.legal_actions()[-1])
        assert frozen(state) == before  # the original did not move with its copy


def test_a_copy_into_a_used_state_is_a_clone(game: tuple[str, int]) -> None:
    """``copy_into`` (the server's spare position) makes what ``clone`` makes, whatever the
    spare held before: same state, same choices as it plays on, and independent of both."""
    name, players = game
    seen = list(positions(name, players))
    spare = seen[-1][0].clone()  # a state that went far: its caches hold another position
    for state, seat in seen[:-1]:
        if seat < 0:
            continue
        before = frozen(state)
        copy, clone = state.copy_into(spare), state.clone()
        assert frozen(copy) == before
        for _ in range(EVERY):  # play on alike, choices and all
            if clone.is_terminal():
                break
            legal = clone.legal_actions()
            assert copy.legal_actions() == legal
            action = legal[len(clone.history) % len(legal)]
            copy.apply(action)
            clone.apply(action)
            assert frozen(copy) == frozen(clone)
        assert frozen(state) == before  # the original did not move with its copy
        spare = copy


def test_a_save_file_loads_back_to_the_same_game(game: tuple[str, int]) -> None:
    for state, seat in positions(*game):
        data = json.loads(json.dumps(save_data(state)))  # through its text, as on disk
        loaded = load_data(data)
        assert frozen(loaded) == frozen(state)
        if seat >= 0:  # and it plays on the same
            action = state.legal_actions()[0]
            a, b = state.clone(), loaded.clone()
            a.apply(action)
            b.apply(action)
            assert frozen(a) == frozen(b)


def test_the_same_seed_and_actions_make_the_same_game(game: tuple[str, int]) -> None:
    name, players = game
    *_, (last, _) = positions(name, players)
    again = new_game(name, players, last.seed)
    for action in last.history:
        again.apply(Action.parse(str(action)))
    assert frozen(again) == frozen(last)


def test_a_refused_action_says_why_and_changes_nothing(game: tuple[str, int]) -> None:
    for state, _ in positions(*game):
        before = frozen(state)
        for wrong in (Action("no_such_move"), Action("roll", (1, 2, 3))):
            assert not state.is_legal(wrong)
            with pytest.raises(IllegalActionError) as refused:
                state.apply(wrong)
            assert str(refused.value) and state.why_illegal(wrong)
            assert frozen(state) == before


def test_every_legal_action_is_legal_and_round_trips(game: tuple[str, int]) -> None:
    for state, seat in positions(*game):
        if seat < 0:
            continue
        for action in state.legal_actions():
            assert Action.parse(str(action)) == action
            assert state.is_legal(action)
            assert state.describe_action(action)


def secrets(state: GameState) -> list[str]:
    """Texts no view may hold: the random state, and each deck's order (as JSON lists, with and
    without spaces)."""
    snap = state.snapshot()
    out = [str(snap["rng"])]
    for name, value in snap.items():
        if "deck" in name:
            for deck in value if value and isinstance(value[0], list) else [value]:
                if len(deck) >= 4:
                    out += [json.dumps(deck), json.dumps(deck, separators=(",", ":"))]
    return out


def test_views_are_json_without_random_state_or_deck_order(game: tuple[str, int]) -> None:
    for state, _ in positions(*game):
        hidden = secrets(state)
        seats: list[int | None] = [None, *range(state.num_players)]
        for seat, view in zip(seats, state.views(seats), strict=True):
            text = json.dumps(view)
            assert view == state.view(seat)
            assert '"rng"' not in text
            assert not [h for h in hidden if h in text], seat


def test_a_position_round_trips_and_plays_on_the_same(game: tuple[str, int]) -> None:
    """``position_data`` -> text -> ``from_position`` gives the same table, which is valid,
    plays on exactly as the original, and saves and loads as a game of its own."""
    from meeple.kernel.position import from_position, position_data, problems

    for state, seat in positions(*game):
        assert problems(state) == []  # every position a game reaches is a valid one
        data = json.loads(json.dumps(position_data(state)))
        again = from_position(data)
        assert again.history == [] and position_data(again) == position_data(state)
        if seat < 0:
            continue
        a, b = state.clone(), again
        for _ in range(EVERY):
            if a.is_terminal():
                break
            action = a.legal_actions()[-1]
            a.apply(action)
            b.apply(action)
        assert position_data(a) == position_data(b)
        loaded = load_data(json.loads(json.dumps(save_data(b))))
        assert frozen(loaded) == frozen(b)


def test_a_position_with_an_unknown_field_is_refused_by_name(game: tuple[str, int]) -> None:
    from meeple.kernel.errors import PositionError
    from meeple.kernel.position import from_position

    name, players = game
    with pytest.raises(PositionError, match="unknown field 'no_such_field'"):
        from_position({"game": name, "players": players, "position": {"no_such_field": 1}})


def test_the_rl_encoding_fits_every_position(game: tuple[str, int]) -> None:
    """The family's RL tables: a fixed observation length inside its bounds, and a mask of the
    table's size that marks the legal actions, each decoding back to itself."""
    from meeple.rl.encoding import encoding_for
    from meeple.rl.observation import OBS_BOUND, observer_for

    name, players = game
    start = new_game(name, players, 0)
    enc, obs = encoding_for(start), observer_for(start)
    for state, seat in positions(*game):
        for viewer in range(players):
            v = obs.observe(state, viewer)
            assert v.shape == (obs.size,) and abs(v).max() <= OBS_BOUND
        if seat < 0:
            continue
        mask = enc.mask(state)
        assert mask.shape == (enc.size,) and mask.sum() >= 1
        for i in mask.nonzero()[0]:
            assert state.is_legal(enc.decode(state, int(i)))


def test_a_new_future_keeps_the_table(game: tuple[str, int]) -> None:
    """``redraw`` (``simulate --from``, ``play --from --seed``, the advisor's premise) draws
    only what no seat can see: every seat's view stays as it was."""
    from meeple.kernel.position import redraw

    for state, seat in positions(*game):
        if seat < 0:
            continue
        copy = state.clone()
        redraw(copy, 4242)
        for who in [None, *range(state.num_players)]:
            assert copy.view(who) == state.view(who)
