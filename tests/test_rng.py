"""The game's random stream: SplitMix64 exactly, whichever build (pure or mypyc) runs it."""

from __future__ import annotations

import pytest

from meeple.kernel.rng import Rng, derive_seed

M64 = (1 << 64) - 1


class ReferenceSplitMix:
    """SplitMix64 written the plain way, on unbounded integers, as the published C reads."""

    def __init__(self, seed: int) -> None:
        self.x = seed & M64

    def next64(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            z = self.next64()
            if z < limit:
                return z % n


def test_published_vector() -> None:
    # The first outputs of Vigna's splitmix64.c seeded with 1234567.
    r = Rng(1234567)
    assert [r.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


@pytest.mark.parametrize("seed", [0, 1, 42, M64, 1 << 63, (1 << 63) - 1, -1, 1 << 70])
def test_stream_and_state_match_reference(seed: int) -> None:
    r, ref = Rng(seed), ReferenceSplitMix(seed)
    assert r.state == ref.x
    for _ in range(2000):
        assert r.next64() == ref.next64()
        assert r.state == ref.x


@pytest.mark.parametrize(
    "n",
    [
        1,
        2,
        3,
        6,
        7,
        12,
        40,
        1 << 32,
        (1 << 32) + 1,
        10**18 + 9,
        (1 << 62) - 1,
        1 << 62,
        (1 << 62) + 1,
        (1 << 63) - 1,
    ],
)
def test_below_matches_reference_rejection(n: int) -> None:
    r, ref = Rng(n), ReferenceSplitMix(n)
    for _ in range(3000):
        v = r.below(n)
        assert v == ref.below(n)
        assert 0 <= v < n
    assert r.state == ref.x


def test_below_draws_again_from_the_top() -> None:
    # n = 3 * 2**61 + 1: 2**64 % n is about a quarter of all outputs, so draws are often
    # rejected, and which ones must match the reference exactly.
    n = 3 * (1 << 61) + 1
    assert (1 << 64) % n > 1 << 61
    r, ref = Rng(5), ReferenceSplitMix(5)
    drawn = 0
    for _ in range(500):
        before = ref.x
        assert r.below(n) == ref.below(n)
        drawn += (ref.x - before) % (1 << 64) != 0x9E3779B97F4A7C15
    assert drawn > 0  # some draws took more than one output


def test_state_round_trip_and_bad_bounds() -> None:
    r = Rng(99)
    r.next64()
    s = r.state
    other = Rng(0)
    other.state = s
    assert [other.below(6) for _ in range(50)] == [r.below(6) for _ in range(50)]
    with pytest.raises(ValueError, match="below"):
        r.below(0)
    with pytest.raises(ValueError, match="below"):
        r.below(1 << 63)


def test_derive_seed_is_stable() -> None:
    assert derive_seed(7, 1, 2) == derive_seed(7, 1, 2) != derive_seed(7, 2, 1)
    assert 0 <= derive_seed(-3) <= M64


def _reference_derive_seed(seed: int, *salts: int) -> int:
    """derive_seed as defined: the first output of a stream per step, on unbounded integers."""
    out = ReferenceSplitMix(seed).next64()
    for s in salts:
        out = ReferenceSplitMix(out ^ ((s * 0x9E3779B97F4A7C15) & M64)).next64()
    return out


def _derive_seed_by_streams(seed: int, *salts: int) -> int:
    """derive_seed as it was written before it worked on one word: an Rng per step."""
    out = Rng(seed).next64()
    for s in salts:
        out = Rng(out ^ ((s * 0x9E3779B97F4A7C15) & M64)).next64()
    return out


def test_derive_seed_matches_its_definition() -> None:
    """derive_seed (one stream's word, not a stream per salt) gives the seeds the definition
    gives: every game and bot seed of every run depends on it. Seeds and salts of every width
    and sign, past the 62 bits the compiled build keeps unboxed and past 64."""
    import random

    edges = [0, 1, -1, 7, (1 << 62) - 1, 1 << 62, -(1 << 62), (1 << 63) - 1, 1 << 63, M64]
    edges += [1 << 64, (1 << 70) + 3, -(1 << 70)]
    draw = random.Random(18)
    seeds = edges + [draw.getrandbits(draw.choice((8, 32, 63, 64, 80))) for _ in range(400)]
    seeds += [-x for x in seeds[len(edges) :: 3]]
    checked = 0
    for seed in seeds:
        for salts in (
            (),
            (draw.randrange(10**6),),  # game i of a run
            (draw.randrange(10**6), 1 + draw.randrange(8)),  # seat j's bot in game i
            (draw.choice(edges),),
            (draw.getrandbits(70) - (1 << 69), draw.choice(edges), 0),
        ):
            want = _reference_derive_seed(seed, *salts)
            assert derive_seed(seed, *salts) == want == _derive_seed_by_streams(seed, *salts)
            checked += 1
    assert checked == 5 * len(seeds)
    # Seeds of the simulator's run 0 (game 0, its seat 0's bot) as they have always been.
    assert derive_seed(0, 0) == 12035550249420947055
    assert derive_seed(0, 0, 1) == 5340111002213094958
    assert derive_seed((1 << 70) + 5, 3, 4) == 14177886835680215166
