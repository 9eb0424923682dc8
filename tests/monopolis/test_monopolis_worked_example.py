"""The rulebook's worked example (monopolis-rules.txt, "Building", PÉLDA), word for word.

"In the starting position, in the North with 2 tools and 1 iron paid, you may build a building
worth 1, 2 or 3 points; but if you pay only the two tools, you may build a 1-point park or a
2-point residential quarter. In the East, after paying the full requirement (4 resources), you
may build any building type, but with only 2 workers paid you may build a 1-point park or a
2-point residential quarter too. You may not build with 3 resources paid, and you may not pay 1
worker and 1 wood. In the South the situation is similar: any building is possible for the full
set, and the 2 iron pay for a park or a residential quarter. In the West, only the payment of
all 4 resources allows building (and so anything can be built), because there are no 2
identical resources with which a park or residential quarter could be built."
"""

from __future__ import annotations

import pytest
from monopolis_helpers import (
    EAST,
    NORTH,
    RES,
    SOUTH,
    WEST,
    act,
    clear_cards,
    find_card,
    fresh,
    legal_texts,
    put_card,
    set_resources,
)

from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.errors import IllegalActionError

ANY = [1, 2, 3, 4, 6]
SMALL = [1, 2]


@pytest.fixture
def example() -> MonopolisState:
    """The starting castle with the example's four cards, seat 0 rich in every resource."""
    s = fresh(2, seed=3)
    clear_cards(s)
    put_card(s, NORTH, find_card(s, ["tools", "tools", "iron"], "III"))
    put_card(s, EAST, find_card(s, ["wood", "iron", "workers", "workers"], "I"))
    put_card(s, SOUTH, find_card(s, ["wood", "iron", "iron", "tools"], "I"))
    put_card(s, WEST, find_card(s, ["wood", "iron", "tools", "workers"], "II"))
    set_resources(s, 0, wood=4, iron=4, tools=4, workers=4)
    return s


def tiles_after(state: MonopolisState, plot: int, payment: str) -> list[int]:
    s = state.clone()
    act(s, f"build_at {plot}")
    act(s, payment)
    return [a.args[0] for a in s.legal_actions()]


def payments(state: MonopolisState, plot: int) -> list[str]:
    s = state.clone()
    act(s, f"build_at {plot}")
    return legal_texts(s)


def test_all_four_sides_can_be_built(example: MonopolisState) -> None:
    builds = [t for t in legal_texts(example) if t.startswith("build_at")]
    assert builds == [f"build_at {p}" for p in sorted((NORTH, EAST, SOUTH, WEST))]


def test_north_full_payment_allows_1_2_3(example: MonopolisState) -> None:
    assert payments(example, NORTH) == ["pay_full", f"pay_pair {RES['tools']}"]
    assert tiles_after(example, NORTH, "pay_full") == [1, 2, 3]


def test_north_two_tools_allow_park_or_residential(example: MonopolisState) -> None:
    assert tiles_after(example, NORTH, f"pay_pair {RES['tools']}") == SMALL


def test_north_payment_takes_exactly_two_tools_and_one_iron(example: MonopolisState) -> None:
    s = example.clone()
    for text in (f"build_at {NORTH}", "pay_full", "tile 3"):
        act(s, text)
    assert s.res[0] == [4, 3, 2, 4]
    s = example.clone()
    for text in (f"build_at {NORTH}", f"pay_pair {RES['tools']}", "tile 2"):
        act(s, text)
    assert s.res[0] == [4, 4, 2, 4]


def test_east_full_allows_anything_two_workers_allow_small(example: MonopolisState) -> None:
    assert payments(example, EAST) == ["pay_full", f"pay_pair {RES['workers']}"]
    assert tiles_after(example, EAST, "pay_full") == ANY
    assert tiles_after(example, EAST, f"pay_pair {RES['workers']}") == SMALL


def test_east_no_three_resources_and_no_worker_plus_wood(example: MonopolisState) -> None:
    s = example.clone()
    act(s, f"build_at {EAST}")
    before = s.snapshot()
    # There is no partial payment at all, and a pair must be identical: wood is shown once.
    for bad in (f"pay_pair {RES['wood']}", f"pay_pair {RES['iron']}", "pay_part 3"):
        with pytest.raises(IllegalActionError) as err:
            act(s, bad)
        assert err.value.reason
    assert s.snapshot() == before
    with pytest.raises(IllegalActionError, match="identical"):
        act(s, f"pay_pair {RES['wood']}")


def test_south_full_allows_anything_two_iron_allow_small(example: MonopolisState) -> None:
    assert payments(example, SOUTH) == ["pay_full", f"pay_pair {RES['iron']}"]
    assert tiles_after(example, SOUTH, "pay_full") == ANY
    assert tiles_after(example, SOUTH, f"pay_pair {RES['iron']}") == SMALL


def test_west_only_the_full_set_builds_and_then_anything(example: MonopolisState) -> None:
    assert payments(example, WEST) == ["pay_full"]
    assert tiles_after(example, WEST, "pay_full") == ANY
    s = example.clone()
    act(s, f"build_at {WEST}")
    for r in range(4):
        with pytest.raises(IllegalActionError, match="identical"):
            act(s, f"pay_pair {r}")
