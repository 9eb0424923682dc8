"""The limit counters of meeple.server.limits, on a clock the test turns."""

from __future__ import annotations

from meeple.server.limits import Counters, Window


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_sliding_window_counts_per_key_and_forgets() -> None:
    clock = Clock()
    w = Window(10.0, clock)
    assert [w.allow("a", 3) for _ in range(4)] == [True, True, True, False]
    assert w.allow("b", 3)  # another key has its own count
    clock.now = 9.9
    assert not w.allow("a", 3)
    clock.now = 10.0  # the first three left the window
    assert w.allow("a", 3)
    assert w.allow("a", None)  # no limit
    clock.now = 30.0
    w.forget_idle()
    assert w.events == {}


def test_counters_of_open_connections() -> None:
    c = Counters()
    assert c.enter("g", 2) and c.enter("g", 2) and not c.enter("g", 2)
    c.leave("g")
    assert c.enter("g", 2)
    c.leave("g")
    c.leave("g")
    assert c.open == {}
    assert c.enter("g", None)
