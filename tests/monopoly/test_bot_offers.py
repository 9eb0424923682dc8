"""The standard bot does not make a refused trade offer again while nothing relevant changed
(issue 38, "Bots that remember"; docs/BOTS.md, "Trades: what it remembers").

What is relevant: an offer exists only while its deeds' groups are split as it says, so the
partner's answer can change only with the partner's own circumstances, read as its cash: an
offer refused is made again only once the partner holds less than half the cash it refused
with. Who owns the rest of the board is not relevant (the bot used to make the same offer
again after any deed anywhere changed hands: "$640 for Boardwalk" five times).
"""

from __future__ import annotations

from meeple.games.monopoly import MonopolyState
from meeple.games.monopoly import actions as A
from meeple.games.monopoly.bots import StandardBot
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed
from tests.monopoly.helpers import act, cash, describe_all, game, own

PARK_PLACE, BOARDWALK, READING_RAILROAD = 37, 39, 5


def position(turn: int, partner_cash: int = 1500, railroad: int = -1) -> MonopolyState:
    """Player 1 (the bot) owns Park Place and has $3,000, Player 2 owns Boardwalk and has
    ``partner_cash``, ``railroad`` (a seat, or -1 for the bank) owns Reading Railroad; Player
    1's turn number ``turn``, before the roll."""
    s = game()
    own(s, 0, PARK_PLACE)
    own(s, 1, BOARDWALK)
    if railroad >= 0:
        own(s, railroad, READING_RAILROAD)
    cash(s, 0, 3000)
    cash(s, 1, partner_cash)
    s.turn_no = turn
    return s


def offers_in_turn(bot: StandardBot, s: MonopolyState) -> list[str]:
    """Let ``bot`` (Player 1) act before its roll, Player 2 refusing every offer; the offers
    made, in words."""
    said: list[str] = []
    for _ in range(50):
        top = s.stack[-1] if s.stack else None
        if isinstance(top, TradeFrame) and top.responding:
            act(s, "reject")
            continue
        action = bot.choose(s)
        if action == A.A_ROLL:
            return said
        said += [t for t in describe_all(s, list(act(s, str(action)))) if " offers " in t]
    raise AssertionError("the bot never rolled")


def test_a_refused_offer_is_not_made_again_when_only_other_deeds_change_hands() -> None:
    """The bot offers 1.6 times the price, then (refused) 4.2 times; both refused, it does not
    offer again after a deed it has no part in changes hands, though it used to."""
    bot = StandardBot(1)
    offer = "Player 1 offers Player 2 a trade: Player 1 gives {}; Player 2 gives Boardwalk."
    first = offers_in_turn(bot, position(1))
    assert [t.split(" It ")[0] for t in first] == [offer.format("$640")]
    second = offers_in_turn(bot, position(2))
    assert [t.split(" It ")[0] for t in second] == [offer.format("$1680")]
    assert offers_in_turn(bot, position(3)) == []
    assert offers_in_turn(bot, position(4, railroad=2)) == []  # (the old bot: $640 again)
    assert offers_in_turn(bot, position(5, partner_cash=751)) == []  # not yet half


def test_a_refused_offer_is_made_again_once_the_partner_is_poorer_by_half() -> None:
    """Player 2 refused with $1,500; with $749 it is asked again, the cheaper offer first,
    then the dearer; and then not again until its cash halves once more."""
    bot = StandardBot(1)
    assert len(offers_in_turn(bot, position(1))) == 1
    assert len(offers_in_turn(bot, position(2))) == 1
    assert offers_in_turn(bot, position(3, partner_cash=751)) == []
    again = offers_in_turn(bot, position(4, partner_cash=749))
    assert [t.split(";")[0] for t in again] == [
        "Player 1 offers Player 2 a trade: Player 1 gives $640"
    ]
    dearer = offers_in_turn(bot, position(5, partner_cash=749))
    assert [t.split(";")[0] for t in dearer] == [
        "Player 1 offers Player 2 a trade: Player 1 gives $1680"
    ]
    assert offers_in_turn(bot, position(6, partner_cash=400)) == []
    assert len(offers_in_turn(bot, position(7, partner_cash=374))) == 1


class Refuser:
    """The standard bot, but it refuses every offer made to it (a person who says no). (Not a
    subclass: the compiled build's bot classes take none.)"""

    def __init__(self, seed: int) -> None:
        self.bot = StandardBot(seed)

    def choose(self, state: MonopolyState) -> Action:
        top = state.stack[-1] if state.stack else None
        if isinstance(top, TradeFrame) and top.responding:
            return A.A_REJECT
        return self.bot.choose(state)


def players(seed: int) -> list[StandardBot | Refuser]:
    """Two standard bots (seats 1 and 4) and two refusers."""
    return [
        StandardBot(derive_seed(seed, 1)),
        Refuser(derive_seed(seed, 2)),
        Refuser(derive_seed(seed, 3)),
        StandardBot(derive_seed(seed, 4)),
    ]


def test_in_play_no_refused_offer_is_repeated_while_the_partner_is_as_rich() -> None:
    """Games of standard bots beside refusers: every offer made again after a refusal comes
    with the partner holding less than half the cash it refused with (the old bot repeated
    offers whenever any deed changed hands: 6.6 such repeats a game in standard-bot games,
    benchmarks/count_questions.py)."""
    made = repeats = 0
    for i in range(8):
        seed = derive_seed(38, i)
        s = new_game("classic", 4, seed, {"max_turns": 400})
        assert isinstance(s, MonopolyState)
        bots = players(seed)
        refused: dict[tuple[object, ...], int] = {}  # offer -> the partner's cash then
        offer: tuple[object, ...] = ()
        while not s.is_terminal():
            for e in s.apply(bots[s.current_player()].choose(s)):
                d = e.data
                if e.kind == "trade_offer":
                    offer = (d["proposer"], d["target"], tuple(sorted(d["deeds"])), d["cash"])
                    made += 1
                    if offer in refused:
                        repeats += 1
                        assert 2 * s.cash[d["target"]] < refused[offer], (i, offer)
                elif e.kind == "trade_rejected":
                    refused[offer] = s.cash[d["target"]]
    assert made > 20 and repeats < made


def test_the_memory_is_rebuilt_by_asking_the_bot_its_own_decisions_again() -> None:
    """A resumed game (the server's) makes a new bot and asks it again for the decisions it
    made, in order, the others' actions applied as recorded: it chooses as before, refused
    offers remembered included."""
    seed = derive_seed(38, 100)
    s = new_game("classic", 4, seed, {"max_turns": 400})
    assert isinstance(s, MonopolyState)
    bots = players(seed)
    played: list[tuple[int, Action]] = []
    while not s.is_terminal():
        p = s.current_player()
        played.append((p, bots[p].choose(s)))
        s.apply(played[-1][1])
    again = new_game("classic", 4, seed, {"max_turns": 400})
    bot = StandardBot(derive_seed(seed, 1))
    for p, action in played:
        if p == 0:
            assert bot.choose(again) == action
        again.apply(action)
    assert sum(1 for p, a in played if p == 0 and a.kind == A.PROPOSE) > 2
