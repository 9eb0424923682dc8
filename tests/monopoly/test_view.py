"""``view(seat)``: a seat sees the table, never the deck order, the random state or a draft.

DESIGN.md, "One view function": strip secrets for web clients, bots and RL alike.
"""

from __future__ import annotations

import json

from meeple.bots.base import RandomBot
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.view import views
from meeple.kernel.protocol import Action
from tests.monopoly.helpers import first_seat


def test_view_hides_deck_order_and_random_state() -> None:
    s = new_monopoly("classic", 3, 77)
    bots = [RandomBot(i) for i in range(3)]
    for _ in range(400):
        if s.is_terminal():
            break
        s.apply(bots[s.current_player()].choose(s))
        for seat in (None, 0, 1, 2):
            v = s.view(seat)
            text = json.dumps(v)
            assert "rng" not in v
            assert str(s.rng.state) not in text
            assert all(set(d) == {"id", "name", "cards_left"} for d in v["decks"])
            assert [d["cards_left"] for d in v["decks"]] == [len(d) for d in s.decks]


def test_only_the_decider_sees_its_legal_actions() -> None:
    s = new_monopoly("classic", 3, 1)
    p = s.current_player()
    assert s.view(p)["legal_actions"] == [str(a) for a in s.legal_actions()]
    assert s.view((p + 1) % 3)["legal_actions"] == []
    assert s.view(None)["legal_actions"] == []


def test_a_view_without_legal_actions_is_the_view_less_them() -> None:
    """The RL observation's view (``views(..., legal_actions=False)``) is the seat's view with
    no legal actions listed, the decider's too, and nothing else changed."""
    s = new_monopoly("classic", 3, 1)
    bots = [RandomBot(i) for i in range(3)]
    for _ in range(60):
        p = s.current_player()
        full = s.view(p)
        bare = views(s, [p], legal_actions=False)[0]
        assert full["legal_actions"] and bare["legal_actions"] == []
        assert {**full, "legal_actions": []} == bare
        s.apply(bots[p].choose(s))


def test_a_trade_draft_is_seen_by_its_proposer_only() -> None:
    s = new_monopoly("classic", 3, 1, first_seat())
    s.owner[1] = 0
    s.invalidate()
    s.apply(Action("trade", (1,)))
    s.apply(Action("trade_deed", (1,)))
    assert s.view(0)["frame"]["deeds"] == [1]
    assert "deeds" not in s.view(1)["frame"]
    assert s.view(1)["frame"]["drafting"] is True
    s.apply(Action("propose"))
    assert s.view(1)["frame"]["deeds"] == [1]


def test_views_at_once_are_each_seats_view() -> None:
    """``views`` (a server's update to every seat) shares the table between the views, and
    each is the seat's ``view``: drafts, legal actions and all (positions with a draft too)."""
    drafts = 0
    for game, players, seed in (("classic", 4, 5), ("frozen-ii", 3, 2), ("friends", 2, 9)):
        s = new_monopoly(game, players, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        seats: list[int | None] = [None, *range(players)]
        for _ in range(300):
            if s.is_terminal():
                break
            together = s.views(seats)
            assert [json.dumps(v) for v in together] == [json.dumps(s.view(x)) for x in seats]
            assert together[0]["squares"] is together[-1]["squares"]
            drafts += any(v["frame"] and v["frame"].get("drafting") for v in together)
            s.apply(bots[s.current_player()].choose(s))
    assert drafts > 0


def test_a_clone_plays_on_as_the_original() -> None:
    """A clone (made without shuffling decks it then replaces) is the same game."""
    s = new_monopoly("classic", 4, 3)
    bots = [RandomBot(i) for i in range(4)]
    for _ in range(200):
        if s.is_terminal():
            break
        c = s.clone()
        assert c.snapshot() == s.snapshot()
        assert c.decks == s.decks and c.decks is not s.decks
        s = c
        s.apply(bots[s.current_player()].choose(s))
