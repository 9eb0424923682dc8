"""The Monopolis standard bot: it builds workplaces when they score, plays the same game from
the same seeds, beats the first standard bot (kept as ``standard-v1``) and says why it moves."""

from __future__ import annotations

from monopolis_helpers import (
    NORTH,
    act,
    at,
    clear_cards,
    find_card,
    fresh,
    give_exactly,
    place_tile,
    put_card,
)

from meeple.bots.base import make_bot
from meeple.games.monopolis.bots import STANDARD, MonopolisStandardBot, Tally, build_worth
from meeple.games.monopolis.bots_v1 import MonopolisStandardV1Bot
from meeple.games.monopolis.building import FULL
from meeple.games.monopolis.components import WORKPLACE
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.bot import Bot, play_out
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed


def workplace_position() -> MonopolisState:
    """Player 1 holds exactly the four different resources of a Type II card north of the
    castle: any tile may go there but a park (one stands next to it) or a special building (all
    four are built), and nothing else is on the table."""
    s = fresh(2, 5)
    clear_cards(s)
    for plot in (at(-3, 3), at(3, 3), at(-3, -3), at(3, -3)):
        place_tile(s, plot, 6, 1)
    place_tile(s, at(0, 2), 1, 1)
    card = find_card(s, ["wood", "iron", "tools", "workers"], "II")
    put_card(s, NORTH, card)
    give_exactly(s, 0, card)
    s.money[0] = 0  # nothing to buy: the build is the only action
    return s


def test_a_workplace_is_valued_per_action_and_built() -> None:
    """ "4. Workplace": 4 points, 2 money at once and two houses, whose two reward spaces pay
    at once; worth more in one action than a business quarter's 3 points and one house."""
    s = workplace_position()
    tally = Tally(s, 0, STANDARD)
    workplace = build_worth(s, 0, NORTH, FULL, WORKPLACE, tally, STANDARD)
    business = build_worth(s, 0, NORTH, FULL, 3, tally, STANDARD)
    assert workplace > business
    bot = MonopolisStandardBot(0)
    act(s, str(bot.choose(s)))
    act(s, str(bot.choose(s)))
    assert bot.choose(s) == Action("tile", (WORKPLACE,))
    # The first standard bot divided a workplace's worth by its two houses: a business quarter.
    assert MonopolisStandardV1Bot(0).choose(s) == Action("tile", (3,))


def rotated(kinds: list[str], players: int, games: int) -> tuple[dict[str, float], dict[str, int]]:
    """Wins (a tie's shared) of each kind over seat-rotated games, and workplaces built."""
    wins = dict.fromkeys(kinds, 0.0)
    workplaces = dict.fromkeys(kinds, 0)
    for i in range(games):
        s = new_game("monopolis", players, derive_seed(99, i), {})
        s.record_events = False
        order = [kinds[(j + i) % players] for j in range(players)]
        bots = [make_bot(k, "monopolis", derive_seed(99, i, 1 + j)) for j, k in enumerate(order)]
        play_out(s, bots)
        assert isinstance(s, MonopolisState)
        result = s.result()
        assert result is not None
        for w in result.winners:
            wins[order[w]] += 1 / len(result.winners)
        for plot, owner in enumerate(s.owner_at):
            if owner >= 0 and s.value_at[plot] == WORKPLACE:
                workplaces[order[owner]] += 1
    return wins, workplaces


def test_the_standard_bot_beats_the_first_one_and_builds_workplaces() -> None:
    """A cheap sanity check on fixed seeds (the measured rates, with intervals, are in
    docs/BOTS.md): the standard bot wins most seat-rotated 2-player games against
    ``standard-v1``, and builds workplaces, which the first bot almost never did."""
    games = 60
    wins, workplaces = rotated(["standard", "standard-v1"], 2, games)
    assert wins["standard"] > 0.6 * games
    assert workplaces["standard"] >= games // 2
    assert workplaces["standard-v1"] < workplaces["standard"] // 4


def test_the_same_seeds_play_the_same_game() -> None:
    def game() -> list[Action]:
        s = new_game("monopolis", 3, 17, {})
        bots: list[Bot] = [MonopolisStandardBot(derive_seed(17, 1 + j)) for j in range(3)]
        play_out(s, bots)
        return s.history

    assert game() == game()


def test_explanations_name_the_building_and_its_worth() -> None:
    s = workplace_position()
    bot = MonopolisStandardBot(0)
    first = bot.choose(s)
    why = bot.explain(s, first)
    assert why.startswith("builds a workplace on the plot 1 north of the castle: 4 points")
    assert "2 money" in why and "the rewards under 2 houses" in why


def test_a_purchase_says_what_it_brings_closer() -> None:
    s = fresh(2, 3)
    bot = MonopolisStandardBot(1)
    action = bot.choose(s)
    assert action.kind == "buy"
    why = bot.explain(s, action)
    assert why.startswith("buys ")
    assert "short of" in why or "now it can build" in why


def test_asking_why_changes_no_choice() -> None:
    """Two bots with the same seed, one asked why at every decision: the same game, and every
    decision explained in words (the joker track and the market included)."""

    def game(ask: bool) -> tuple[list[Action], int]:
        s = new_game("monopolis", 2, 8, {})
        assert isinstance(s, MonopolisState)
        bots = [MonopolisStandardBot(1), MonopolisStandardBot(2)]
        said = 0
        while not s.is_terminal():
            bot = bots[s.current_player()]
            before = s.snapshot() if ask else None
            action = bot.choose(s)
            if ask and len(s.legal_actions()) > 1:
                assert bot.explain(s, action), action
                assert s.snapshot() == before  # explaining reads the state, never changes it
                said += 1
            s.apply(action)
        return s.history, said

    asked, said = game(True)
    assert game(False)[0] == asked and said > 20


def test_the_bots_placing_is_the_final_scorings_majority() -> None:
    """``bots.placings`` (plain loops) agrees with ``scoring.majority`` on every count of up to
    4 seats from 0 to 4, for both awards."""
    import itertools

    from meeple.games.monopolis.bots import placings
    from meeple.games.monopolis.scoring import COLLECTION_AWARD, PARK_AWARD, majority

    for n in (2, 3, 4):
        for counts in itertools.product(range(5), repeat=n):
            for award in (PARK_AWARD, COLLECTION_AWARD):
                want = majority(list(counts), award)
                assert placings(list(counts), award) == want, counts
