"""The simulator sets up a run once (``runner._Run``: ``game_maker``, ``bot_maker``) and plays
the games its definition says: game ``i`` of seed ``S`` is ``new_game(game, players,
derive_seed(S, i), options)`` with the bot in seat ``j`` made by ``make_bot(kind, family,
derive_seed(S, i, 1 + j))``. The families' own game makers (Monopoly's edition found once,
Monopolis's constructor bound once) make the games the kernel's default makes."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.bots.base import bot_maker, make_bot
from meeple.kernel.family import (
    GameFamily,
    family_of,
    game_ids,
    game_info,
    game_maker,
    new_game,
)
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed
from meeple.sim.runner import GameRecord, SimConfig, play_one, run


def _played_by_definition(cfg: SimConfig, i: int) -> GameRecord:
    """Game ``i`` of ``cfg`` set up from nothing, everything looked up for it alone."""
    seed = derive_seed(cfg.seed, i)
    options = dict(cfg.options)
    if cfg.max_turns:
        options["max_turns"] = cfg.max_turns
    if "position" in options:
        options["redraw"] = seed
    s = new_game(cfg.game, cfg.players, seed, options)
    s.record_events = False
    first = s.current_player()
    fam = family_of(cfg.game, cfg.options)
    kinds = cfg.seat_bots(i)
    bots = [make_bot(k, fam.name, derive_seed(cfg.seed, i, 1 + j)) for j, k in enumerate(kinds)]
    n = 0
    while not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
        n += 1
    r = s.result()
    assert r is not None
    return GameRecord(
        i,
        seed,
        kinds,
        list(r.winners),
        r.turns,
        r.end_reason,
        list(r.scores),
        n,
        [s.money_of(p) for p in range(cfg.players)],
        fam.landings(s),
        fam.rounds_played(s),
        first,
    )


def _edition_data() -> dict[str, Any]:
    from meeple.games.monopoly.edition import builtin_edition

    return builtin_edition("classic").model.model_dump(mode="json", exclude_none=True)


def _a_position() -> dict[str, Any]:
    s = new_game("classic", 4, 1)
    bots = [make_bot("standard", "monopoly", p) for p in range(4)]
    for _ in range(120):
        s.apply(bots[s.current_player()].choose(s))
    return family_of("classic").position(s)


CONFIGS = {
    "classic": lambda: SimConfig("classic", 4, 4, 0, ("standard",) * 4),
    "kinds rotated": lambda: SimConfig(
        "classic", 4, 4, 7, ("standard", "random", "tuned", "standard"), 300, rotate_seats=True
    ),
    "a wide seed": lambda: SimConfig("classic", 3, 3, (1 << 70) + 5, ("random",) * 3, 200),
    "rule options": lambda: SimConfig(
        "classic", 4, 3, 3, ("standard",) * 4, options={"rules": {"free_parking_money": True}}
    ),
    "ruleset 1": lambda: SimConfig("classic", 4, 3, 3, ("standard",) * 4, options={"ruleset": 1}),
    "edition as data": lambda: SimConfig(
        "classic", 4, 3, 6, ("standard",) * 4, options={"edition": _edition_data()}
    ),
    "from a position": lambda: SimConfig(
        "classic", 4, 3, 13, ("standard",) * 4, options={"position": _a_position()}
    ),
    "monopolis": lambda: SimConfig("monopolis", 3, 3, 5, ("standard", "random", "standard")),
}


@pytest.mark.parametrize("name", CONFIGS)
def test_a_run_plays_the_games_its_definition_says(name: str) -> None:
    cfg = CONFIGS[name]()
    want = [_played_by_definition(cfg, i) for i in range(cfg.games)]
    assert list(run(cfg)) == want
    assert play_one(cfg, cfg.games - 1) == want[-1]


def _same_game(a: GameState, b: GameState) -> bool:
    return (
        a.snapshot() == b.snapshot()
        and a.options == b.options
        and a.legal_actions() == b.legal_actions()
    )


@pytest.mark.parametrize("game", game_ids())
def test_a_familys_game_maker_makes_the_kernels_games(game: str) -> None:
    """Each family's override of GameFamily.game_maker against the kernel's default (each
    game through the factory), for every game id at its fewest and most players."""
    info = game_info(game)
    fam = family_of(game)
    for players in (info.min_players, info.max_players):
        options = {"ruleset": fam.ruleset, "max_turns": 300}
        mine = fam.game_maker(info, players, options)
        default = GameFamily.game_maker(fam, info, players, options)
        for seed in (0, 1, 2**64 - 1, derive_seed(5, players)):
            assert _same_game(mine(seed), default(seed))
            assert _same_game(mine(seed), new_game(game, players, seed, {"max_turns": 300}))


def test_an_edition_given_as_data_is_parsed_once_and_plays_the_same() -> None:
    data = _edition_data()
    fam = family_of("classic", {"edition": data})
    options = {"edition": data, "ruleset": fam.ruleset}
    mine = fam.game_maker(None, 3, options)
    default = GameFamily.game_maker(fam, None, 3, options)  # (from_options, a parse a game)
    for seed in range(3):
        assert _same_game(mine(seed), default(seed))


def test_a_game_maker_checks_once_and_keeps_its_own_options() -> None:
    with pytest.raises(ValueError, match="2 to 8 players"):
        game_maker("classic", 9)
    with pytest.raises(ValueError, match="ruleset"):
        game_maker("classic", 4, {"ruleset": 99})
    options: dict[str, Any] = {"max_turns": 40}
    make = game_maker("classic", 4, options)
    options["max_turns"] = 7  # (after the maker is made: no game of it changes)
    s = make(11)
    assert s.options["max_turns"] == 40 and "ruleset" not in options
    assert _same_game(s, new_game("classic", 4, 11, {"max_turns": 40}))


def test_a_bot_maker_makes_the_bots_make_bot_makes() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius' for monopoly"):
        bot_maker("genius", "monopoly")
    s = new_game("classic", 4, 3)
    for kind in ("standard", "random", "tuned"):
        make = bot_maker(kind, "monopoly")
        for seed in (0, 9):
            a, b = make(seed), make_bot(kind, "monopoly", seed)
            assert type(a) is type(b)
            assert [a.choose(s) for _ in range(5)] == [b.choose(s) for _ in range(5)]


@pytest.mark.parametrize("bots", ["random", "standard"])
def test_a_run_keeps_nothing_of_the_games_it_has_played(bots: str) -> None:
    """Memory stays flat over a long run: once the caches of made actions are warm, a game's
    state, bots and streams are all freed. Two leaks of the compiled build did not: a random
    bot's first stream (its class took ``Bot``'s ``tp_init`` and ran ``__init__`` twice) and
    every game's landing counts (a ``vec`` passed from uncompiled code to a compiled function:
    docs/KERNEL.md, "Arrays"), about 570 bytes a game together."""
    import gc
    import tracemalloc

    from meeple.kernel.rng import Rng

    cfg = SimConfig("classic", 4, 500, 3, (bots,) * 4)
    games = run(cfg, 1)
    for _ in range(250):  # the caches of made actions fill up first
        next(games)
    gc.collect()
    streams = sum(1 for o in gc.get_objects() if type(o) is Rng)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for rec in games:
            assert rec.landings  # (the counts the record holds are its own list)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert sum(1 for o in gc.get_objects() if type(o) is Rng) == streams
    assert kept / 250 < 100, f"{kept / 250:.0f} bytes kept a game"
