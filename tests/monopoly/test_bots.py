"""The Monopoly bots: every decision legal, standard far stronger than random, param from JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.bots.base import make_bot
from meeple.games.monopoly import MonopolyState
from meeple.games.monopoly.audit import audit, board_signature
from meeple.games.monopoly.bots import Params, StandardBot
from meeple.games.monopoly.edition import builtin_edition_ids
from meeple.games.monopoly.rules import holdings
from meeple.kernel.family import new_game
from meeple.kernel.rng import derive_seed
from meeple.sim.runner import SimConfig, simulate


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_standard_bot_decisions_are_always_legal(edition: str) -> None:
    """Fuzz: standard bots (mixed with random ones) in every edition; apply() rejects any
    illegal action, and the invariant audit runs after every action."""
    for i in range(6):
        seed = derive_seed(31, i)
        s = new_game(edition, 4, seed, {"max_turns": 300})
        s.record_events = False
        kinds = ["standard", "standard", "random", "standard"] if i % 2 else ["standard"] * 4
        bots = [make_bot(k, "monopoly", derive_seed(seed, p)) for p, k in enumerate(kinds)]
        while not s.is_terminal():
            assert isinstance(s, MonopolyState)
            before = board_signature(s)
            s.apply(bots[s.current_player()].choose(s))
            assert not audit(s, before)


@pytest.mark.parametrize("edition", ["classic", "frozen-ii"])
def test_standard_bot_reading_of_the_board_is_what_a_fresh_reading_gives(edition: str) -> None:
    """The standard bot reads the board a group at a time and, after a change, reads again only
    the groups the state's log of changes names. After every action of games with trades,
    building, mortgages and bankruptcies, each seat's bot must know exactly what a new bot
    reading the whole board knows: the cash reserve and what it is made of, and the trade
    offers it would consider."""
    fields = ("_reserve", "_has_set", "_min_house", "_my_mortgages", "_cheapest_lift")
    compared = 0
    for i in range(3):
        seed = derive_seed(47, i)
        s = new_game(edition, 4, seed, {"max_turns": 300})
        assert isinstance(s, MonopolyState)
        s.record_events = False
        bots = [StandardBot(derive_seed(seed, p)) for p in range(4)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
            for p, bot in enumerate(bots):
                if not s.alive[p]:
                    continue
                fresh = StandardBot(0)
                assert bot.reserve(s, p) == fresh.reserve(s, p)
                where = (i, len(s.history), p)
                assert [getattr(bot, f) for f in fields] == [getattr(fresh, f) for f in fields]
                assert bot.offer_shapes(s, p) == fresh.offer_shapes(s, p), where
                # The trade caches' key: who owns what, as the seats' masks worked out afresh.
                owned = (len(s.owner), *holdings.find_deed_bits(s)[0])
                assert bot.owners(s) == fresh.owners(s) == owned, where
                compared += 1
    assert compared > 1000


def test_standard_beats_three_random_bots() -> None:
    """Issue target: in seat-rotated 4-player classic games standard wins at least 90%."""
    cfg = SimConfig(
        "classic",
        4,
        24,
        5,
        ("standard", "random", "random", "random"),
        max_turns=1000,
        rotate_seats=True,
    )
    summary, _ = simulate(cfg)
    assert summary["results"]["wins_by_bot"].get("standard", 0) >= 0.9 * 24


def test_param_bot_reads_its_parameters(tmp_path: Path) -> None:
    path = tmp_path / "bold.json"
    path.write_text(json.dumps({"reserve_min": 0, "bid_share": 1.5}))
    bot = make_bot(f"param:{path}", "monopoly", 1)
    assert isinstance(bot, StandardBot)
    assert bot.p.reserve_min == 0 and bot.p.bid_share == 1.5
    assert bot.p.set_bonus == Params().set_bonus


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"courage": 3}', "unknown parameter"),
        ('{"bid_share": "lots"}', "must be a number"),
        ("[1, 2]", "JSON object"),
        ("{nope", "not JSON"),
    ],
)
def test_bad_param_file_is_refused(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        make_bot(f"param:{path}", "monopoly", 1)


def test_bots_own_their_streams() -> None:
    """Same bot seeds, same game: bit for bit (DESIGN.md, "Chance lives in the state")."""
    logs = []
    for _ in range(2):
        s = new_game("classic", 3, 8, {"max_turns": 120})
        bots = [make_bot("standard", "monopoly", 40 + p) for p in range(3)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
        logs.append([str(a) for a in s.history])
    assert logs[0] == logs[1]


def test_the_tuned_bot_takes_its_editions_tuned_thresholds() -> None:
    """``tuned`` (docs/BOTS.md, "Tuning"): in classic, the thresholds shipped in
    ``tuned/classic.json``, so it plays exactly as ``param:`` that file; in an edition with
    none shipped, the standard thresholds, so it plays exactly as ``standard``."""
    from meeple.games.monopoly.bots import TUNED, Params

    shipped = Params.tuned("classic")
    assert shipped is not None and shipped != Params()

    def played(game: str, kind: str) -> list[str]:
        s = new_game(game, 3, 9, {})
        bots = [make_bot(kind, "monopoly", 1 + i) for i in range(3)]
        for _ in range(600):
            if s.is_terminal():
                break
            s.apply(bots[s.current_player()].choose(s))
        if kind == "tuned":
            assert bots[0].p == (Params.tuned(game) or Params())  # type: ignore[attr-defined]
        return [str(a) for a in s.history]

    for game in ("classic", "friends"):  # (the editions a tuning was shown to help: BOTS.md)
        assert played(game, "tuned") == played(game, f"param:{TUNED / f'{game}.json'}")
    assert played("classic", "tuned") != played("classic", "standard")
    untuned = [
        g for g in ("friends", "frozen-ii", "my-first-monopoly-2") if Params.tuned(g) is None
    ]
    for game in untuned:
        assert played(game, "tuned") == played(game, "standard")
