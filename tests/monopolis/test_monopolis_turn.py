"""The Course of the Game and the End of the Game: two actions, 1 money, the final round."""

from __future__ import annotations

import pytest
from monopolis_helpers import (
    NORTH,
    RES,
    SOUTH,
    act,
    clear_cards,
    find_card,
    fresh,
    legal_texts,
    put_card,
    set_resources,
)

from meeple.games.monopolis.state import MonopolisState, new_monopolis
from meeple.kernel.errors import IllegalActionError


def finish_jokers(s: MonopolisState) -> None:
    while s.phase == 3:
        act(s, "joker_hold" if s.jokers[s.turn_player] < 3 else "joker 0")


def small_build(s: MonopolisState, plot: int) -> None:
    for text in (f"build_at {plot}", f"pay_pair {RES['tools']}", "tile 2"):
        act(s, text)
    finish_jokers(s)


def ready(s: MonopolisState, *plots: int) -> None:
    clear_cards(s)
    for p in plots:
        put_card(s, p, find_card(s, ["tools", "tools", "iron"], "III"))


@pytest.mark.parametrize("plan", ["buy buy", "buy build", "build buy", "build build"])
def test_two_actions_in_any_combination(plan: str) -> None:
    s = fresh(2, seed=41)
    ready(s, NORTH, SOUTH)
    set_resources(s, 0, tools=4)
    plots = [NORTH, SOUTH]
    for step in plan.split():
        assert s.turn_player == 0
        if step == "buy":
            act(s, "buy 0")
            finish_jokers(s)
        else:
            small_build(s, plots.pop(0))
    assert s.turn_player == 1 and s.actions_done == 0 and s.turns == 1


def test_one_money_only_when_no_action_is_possible() -> None:
    s = fresh(2, seed=42)
    clear_cards(s)
    s.money[0] = 0
    s._legal = None
    assert legal_texts(s) == ["pass_action"]
    act(s, "pass_action")
    assert s.money[0] == 1 and s.actions_done == 1
    # The money may be used for the second action: a purchase is possible now, so no pass.
    assert "pass_action" not in legal_texts(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="1 money is only for an action you cannot"):
        act(s, "pass_action")
    assert s.snapshot() == before


def test_a_possible_action_cannot_be_declined() -> None:
    s = fresh(2, seed=43)
    assert "pass_action" not in legal_texts(s)
    assert all(a.kind in ("buy", "build_at") for a in s.legal_actions())


def play_to_next_turn(s: MonopolisState) -> None:
    seat = s.turn_player
    while not s.is_terminal() and s.turn_player == seat:
        act(s, legal_texts(s)[0])


def test_game_ends_after_the_round_in_which_a_last_house_is_used() -> None:
    s = fresh(2, seed=44)
    ready(s, NORTH)
    set_resources(s, 0, tools=2)
    s.houses[0] = s.capacity - 1
    small_build(s, NORTH)
    assert s.final_round
    act(s, "buy 0")
    finish_jokers(s)
    # Seat 1 still plays so both seats had the same number of turns.
    assert not s.is_terminal() and s.turn_player == 1
    play_to_next_turn(s)
    assert s.is_terminal() and s.current_player() == -1 and s.legal_actions() == []
    result = s.result()
    assert result is not None
    assert result.end_reason == "last_house" and result.turns == 2


def test_three_players_last_house_by_middle_seat() -> None:
    s = fresh(3, seed=45)
    play_to_next_turn(s)
    ready(s, NORTH)
    set_resources(s, 1, tools=2)
    s.houses[1] = s.capacity - 1
    small_build(s, NORTH)
    act(s, legal_texts(s)[0])
    finish_jokers(s)
    assert s.turn_player == 2 and not s.is_terminal()
    play_to_next_turn(s)
    assert s.is_terminal() and s.turns == 3


def test_last_seat_using_its_last_house_ends_the_game_at_once() -> None:
    s = fresh(2, seed=46)
    play_to_next_turn(s)
    ready(s, NORTH, SOUTH)
    set_resources(s, 1, tools=4)
    s.houses[1] = s.capacity - 2
    small_build(s, NORTH)
    assert not s.final_round
    small_build(s, SOUTH)
    assert s.is_terminal() and s.turns == 2


def test_a_game_where_nobody_can_ever_build_again_ends_after_the_round() -> None:
    s = fresh(2, seed=47)
    for deck in s.tile_decks:
        deck.clear()
    s._legal = None
    play_to_next_turn(s)
    assert not s.is_terminal()
    play_to_next_turn(s)
    result = s.result()
    assert result is not None and result.end_reason == "stalled" and result.turns == 2


def test_a_turn_cap_ends_the_game_after_that_many_player_turns() -> None:
    """The ``max_turns`` option (a simulation's cap, as Monopoly's: docs/RULES.md, "Turn cap")
    ends the game after that many player-turns, scored as any end; a bad value is refused."""
    s = new_monopolis(2, 49, {"max_turns": 3})
    play_to_next_turn(s)
    play_to_next_turn(s)
    assert not s.is_terminal()
    play_to_next_turn(s)
    result = s.result()
    assert result is not None and result.end_reason == "turn_cap" and result.turns == 3
    assert len(result.scores) == 2
    for bad in (-1, "3", True):
        with pytest.raises(ValueError, match="max_turns"):
            new_monopolis(2, 49, {"max_turns": bad})


def test_after_the_end_every_action_is_refused() -> None:
    s = fresh(2, seed=48)
    for deck in s.tile_decks:
        deck.clear()
    play_to_next_turn(s)
    play_to_next_turn(s)
    with pytest.raises(IllegalActionError, match="game is over"):
        act(s, "buy 0")
