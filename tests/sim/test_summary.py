"""The simulation summary is built a game at a time (``sim/summary.py``) and says what the
whole list of games says: the same wins, exact means, the median and 95th percentile of game
lengths as ``statistics`` and a sort give them."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from meeple.sim.runner import GameRecord, SimConfig, run
from meeple.sim.summary import Summary, add_exact, kth, lengths, summarise


@pytest.mark.parametrize(
    "cfg",
    [
        SimConfig("classic", 4, 120, 5, ("standard", "random", "standard", "random")),
        SimConfig("monopolis", 3, 60, 2, ("standard",) * 3, rotate_seats=True),
    ],
    ids=["classic", "monopolis"],
)
def test_the_summary_of_a_run_is_that_of_its_whole_list_of_games(cfg: SimConfig) -> None:
    records = list(run(cfg, 1))
    n = cfg.players
    res = summarise(cfg, records, 2.0)["results"]
    turns = sorted(r.turns for r in records)
    assert res["mean_turns"] == round(statistics.fmean(turns), 6)
    assert res["median_turns"] == float(statistics.median(turns))
    assert res["p95_turns"] == float(turns[int(0.95 * (len(turns) - 1))])
    rounds = [r.rounds for r in records]
    assert res["median_rounds"] == float(statistics.median(rounds))
    assert res["actions"] == sum(r.actions for r in records)
    assert res["mean_scores_by_seat"] == [
        round(statistics.fmean(r.scores[p] for r in records), 4) for p in range(n)
    ]
    wins = [0.0] * n
    for r in records:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    assert res["wins_by_seat"] == [round(w, 6) for w in wins]
    assert sum(res["end_reasons"].values()) == len(records)


def test_a_summary_read_part_way_counts_the_games_added_so_far() -> None:
    cfg = SimConfig("classic", 4, 40, 1, ("random",) * 4)
    records = list(run(cfg, 1))
    tally = Summary(cfg)
    for r in records[:10]:
        tally.add(r)
    early = tally.result(1.0)
    assert early["timing"]["games_per_s"] == 10.0
    assert early["results"]["actions"] == sum(r.actions for r in records[:10])
    for r in records[10:]:
        tally.add(r)
    assert tally.result(1.0)["results"] == summarise(cfg, records, 1.0)["results"]


def test_exact_sums_and_order_statistics() -> None:
    rng = random.Random(7)
    values = [rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-8, 8) for _ in range(2000)]
    partials: list[float] = []
    for x in values:
        add_exact(partials, x)
    assert math.fsum(partials) == math.fsum(values)  # as exact as fsum of them all
    lengths_seen = [rng.randint(1, 60) for _ in range(501)]
    histogram: dict[int, int] = {}
    for v in lengths_seen:
        histogram[v] = histogram.get(v, 0) + 1
    ordered = sorted(lengths_seen)
    assert [kth(histogram, k) for k in range(len(ordered))] == ordered
    with pytest.raises(IndexError):
        kth(histogram, len(ordered))
    assert lengths("turns", histogram)["median_turns"] == float(statistics.median(ordered))
    even = {**histogram, 61: 1}
    assert lengths("turns", even)["median_turns"] == statistics.median([*ordered, 61])
    assert lengths("turns", {}) == {"mean_turns": 0.0, "median_turns": 0.0, "p95_turns": 0.0}


def test_games_that_count_landings_on_different_boards_are_refused() -> None:
    cfg = SimConfig("classic", 4, 2, 1, ("random",) * 4)
    first, second = list(run(cfg, 1))
    tally = Summary(cfg)
    tally.add(first)
    odd = GameRecord(**{**second.__dict__, "landings": second.landings[:-1]})
    refused = "counts landings on 40 places, the run's first game on 41"
    with pytest.raises(ValueError, match=refused):
        tally.add(odd)
