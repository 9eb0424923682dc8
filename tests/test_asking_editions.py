"""Each game asks its people where the printed game has them act (issue 38, "Children roll
their own dice"): a solo game on the lobby's settings for the game (``asking.for_game``)
against standard bots asks the person at least once in every own turn where the rulebook
gives the player something to do."""

from __future__ import annotations

import pytest

from meeple.bots.base import make_bot
from meeple.kernel.asking import WEB_DEFAULT, AskSettings, auto_move, for_game
from meeple.kernel.family import family_of_state, game_ids, game_info, new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed

PRINTED_ROLL = {
    # "Level 1 On Your Turn: 1. Roll the die. 2. Move your token clockwise that number of
    # spaces. 3. Where did you land? Follow the rules of that space!" (Level 2: the same);
    # buying is a must and there is nothing to build, mortgage or trade, so rolling the die is
    # the one act the printed turn gives the child, every turn.
    "my-first-monopoly-1",
    "my-first-monopoly-2",
}


def real_choice(s: GameState) -> bool:
    """Whether the decision now is one a person weighs: more than one meaningful answer."""
    move = s.move_on()
    return (move is None and len(s.legal_actions()) > 1) or (move is not None and move.worth_asking)


def own_turns(game: str, seed: int, limit: int = 3000) -> list[tuple[int, int]]:
    """Seat 0 plays on its lobby settings (a standard bot answers when it is asked) against
    standard bots: for each of seat 0's turns, (questions asked, decisions with a real
    choice). Seat 0 starts."""
    settings: AskSettings = for_game(game)
    players = max(game_info(game).min_players, min(4, game_info(game).max_players))
    s = new_game(game, players, seed, {"rules": {"start_player": "first_seat"}})
    family = family_of_state(s)
    bots = [make_bot("standard", s.family, derive_seed(seed, 1 + p)) for p in range(players)]
    turns: list[tuple[int, int]] = []
    turn, owner = -1, -1
    while not s.is_terminal() and len(s.history) < limit:
        if family.turns_played(s) != turn:  # a new turn: its player decides first
            turn, owner = family.turns_played(s), s.current_player()
            if owner == 0:
                turns.append((0, 0))
        p = s.current_player()
        if p == 0 and owner == 0:
            asked, real = turns[-1]
            turns[-1] = (asked + (auto_move(s, 0, settings) is None), real + real_choice(s))
        s.apply(bots[p].choose(s))
    return turns


@pytest.mark.parametrize("game", game_ids())
def test_the_person_acts_in_every_turn_the_printed_game_gives_them_something_to_do(
    game: str,
) -> None:
    turns = own_turns(game, 3)
    assert len(turns) >= 5, turns
    for k, (asked, real) in enumerate(turns):
        if game in PRINTED_ROLL:
            assert asked >= 1, f"{game}: own turn {k + 1} asked nothing: {turns}"
        # Every game: a turn with a real choice asks (the asking rule never plays one).
        if real:
            assert asked >= 1, f"{game}: own turn {k + 1} had a choice and asked nothing"


def test_the_kids_editions_say_so_in_their_data() -> None:
    """The edition's ``[asking]`` table (data, not code) makes the child roll; the others keep
    the front ends' rule (asked before the roll only when building is worth weighing)."""
    for game in game_ids():
        want = "roll" if game in PRINTED_ROLL else WEB_DEFAULT.own_turn
        assert for_game(game).own_turn == want, game
        assert for_game(game).others_turns == "never"


def test_an_editions_asking_table_is_checked() -> None:
    """An edition file's ``[asking]`` is validated like the rest of it: the error names the
    field and what it takes."""
    from meeple.games.monopoly.edition import builtin_edition, parse_edition
    from meeple.kernel.errors import EditionError

    data = builtin_edition("classic").model.model_dump()
    data["asking"] = {"own_turn": "sometimes"}
    with pytest.raises(EditionError, match=r"asking\.own_turn"):
        parse_edition(data, "mine.toml")
    data["asking"] = {"own_turn": "roll"}
    assert parse_edition(data, "mine.toml").model.asking.own_turn == "roll"
    options = {"edition": data}
    assert for_game("classic", options).own_turn == "roll"  # an edition given as data too
