"""Bad input at every entry point gets a clear error and changes nothing.

The kernel protocol (meeple.kernel.protocol.GameState.apply): an illegal action raises
meeple.kernel.errors.IllegalActionError with a reason, and the state is left exactly as it was
(``s.snapshot()`` identical, nothing added to the history). Each case names the rule that makes
the action illegal.
"""

import pytest

from meeple.games.monopoly import new_monopoly
from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import Action
from tests.monopoly.helpers import (
    act,
    at,
    build_to,
    cash,
    dice,
    game,
    illegal,
    jail,
    own,
)


def on_boardwalk(players: int = 4):  # type: ignore[no-untyped-def]
    s = game(players=players)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    return s


@pytest.mark.parametrize(
    "text",
    [
        "buy",
        "decline",
        "bid 10",
        "end_turn",
        "pass",
        "accept",
        "pay_fine",
        "keep_mortgage 39",
        "want_building",
        "place_building 1",
        "propose",
        "counter",
    ],
)
def test_wrong_phase_before_the_roll(text: str) -> None:
    """Friends rules B, "On Your Turn": a turn starts with the roll; none of these decisions is
    open now."""
    s = game()
    reason = illegal(s, text)
    assert "before the roll" in reason and "pre_roll" not in reason


def test_roll_during_the_buy_decision() -> None:
    """Friends rules A, "Unowned Moment": the buy-or-auction choice comes first."""
    s = on_boardwalk()
    assert "buy" in illegal(s, "roll")


def test_unaffordable_buy() -> None:
    """Friends rules A, "Unowned Moment": "pay the bank the amount printed on the space" - 399
    cash cannot buy Boardwalk (400)."""
    s = game()
    cash(s, 0, 399)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    reason = illegal(s, "buy")
    assert "buy" in reason and "decline" in reason


def test_unaffordable_buy_reason_names_cash_and_price() -> None:
    """Friends rules A, "Unowned Moment": the reason says why - cash 399 < price 400. (The
    reason was generic until commit dad95fa.)"""
    s = game()
    cash(s, 0, 399)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    reason = illegal(s, "buy")
    assert "399" in reason and "400" in reason


def test_uneven_build() -> None:
    """Friends rules A, "Placing Coffee Mugs": build evenly."""
    s = game()
    own(s, 0, 37, 39)
    build_to(s, {39: 1})
    assert "evenly" in illegal(s, "build 39")


def test_build_on_a_mortgaged_set() -> None:
    """Friends rules A, "Build Coffee Mugs and Sofas": not if any street of the group is
    mortgaged."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 0, 37, 39)
    s.mortgaged[37] = True
    s.invalidate()
    assert "mortgaged" in illegal(s, "build 39")


@pytest.mark.parametrize("square", [0, 5, 12, 40, -1, 999])
def test_build_on_a_square_that_is_not_a_street(square: int) -> None:
    """Friends rules A, "Build Coffee Mugs and Sofas": buildings go on moments (streets)."""
    s = game()
    own(s, 0, 1, 3)
    assert "not a street" in illegal(s, f"build {square}")


def test_bid_below_the_minimum() -> None:
    """Friends rules A: "The bidding can start as low as M1"; later bids must raise."""
    s = on_boardwalk()
    act(s, "decline")
    assert "between 1" in illegal(s, "bid 0")
    act(s, "bid 50")
    assert "between 51" in illegal(s, "bid 50")
    illegal(s, "bid -5")


def test_bid_above_cash() -> None:
    """Friends rules B, "Auction": "Auction bids can only be made in cash"."""
    s = on_boardwalk()
    act(s, "decline")
    assert "cash 1500" in illegal(s, "bid 1501")


def test_trade_of_a_deed_with_buildings_in_its_group() -> None:
    """Friends rules A, "Trading": "If you want to trade a space that has coffee mugs or a sofa
    on it, you must sell them to the Bank before you trade/sell it"."""
    s = game()
    own(s, 1, 37, 39, 5)
    build_to(s, {37: 1, 39: 1})
    act(s, "trade 1")
    illegal(s, "trade_deed 39")
    illegal(s, "trade_deed 37")


def test_trade_cash_beyond_what_a_side_has() -> None:
    """Friends rules A, "Trading": a side cannot pay cash it does not hold."""
    s = game()
    own(s, 1, 39)
    act(s, "trade 1")
    illegal(s, "trade_cash 1501")
    illegal(s, "trade_cash -1501")


def test_trade_with_yourself_or_a_missing_seat() -> None:
    """Friends rules A, "Trading": "trade with the other players"."""
    s = game()
    own(s, 0, 39)
    illegal(s, "trade 0")
    illegal(s, "trade 4")
    illegal(s, "trade -1")


def test_unknown_action_kind() -> None:
    """The kernel protocol: only the Monopoly action kinds exist."""
    s = game()
    assert "no action 'fly'" in illegal(s, "fly")
    assert "no action" in illegal(s, "fly 3")


@pytest.mark.parametrize(
    "text", ["roll 3", "roll 1 2", "build", "build 1 3", "mortgage", "use_card", "end_turn 0"]
)
def test_malformed_arguments(text: str) -> None:
    """The kernel protocol: each action kind takes a fixed number of integer arguments."""
    s = game()
    own(s, 0, 1, 3)
    jail(s, 0)
    illegal(s, text)


def test_malformed_arguments_in_an_auction() -> None:
    """The kernel protocol: "bid" takes exactly one amount."""
    s = on_boardwalk()
    act(s, "decline")
    illegal(s, "bid")
    illegal(s, "bid 10 20")


@pytest.mark.parametrize("text", ["", "   ", "Roll", "bid ten", "bid 1.5", "build-1", "ROLL"])
def test_malformed_text_is_refused_before_it_reaches_the_game(text: str) -> None:
    """The action text form ("kind arg1 arg2"): Action.parse raises ValueError with the reason
    and the game is never touched."""
    s = game()
    before = s.snapshot()
    with pytest.raises(ValueError) as info:
        s.apply(Action.parse(text))
    assert str(info.value)
    assert s.snapshot() == before


def test_jail_actions_out_of_jail() -> None:
    """Friends rules A, "Getting Out of Jail": the fine and the card are for leaving jail."""
    from tests.monopoly.helpers import CHANCE, give_card

    s = game()
    give_card(s, 0, CHANCE)
    illegal(s, "pay_fine")
    illegal(s, "use_card 0")


def test_use_a_card_you_do_not_hold() -> None:
    """Friends rules A, "Getting Out of Jail": "use one you already own"."""
    s = game()
    jail(s, 0)
    illegal(s, "use_card 0")
    illegal(s, "use_card 1")
    illegal(s, "use_card 7")


def test_pay_fine_without_the_cash() -> None:
    """Friends rules A, "Getting Out of Jail": "pay M50 to the Bank"."""
    s = game()
    jail(s, 0)
    cash(s, 0, 10)
    illegal(s, "pay_fine")


def test_bankrupt_while_raising_could_pay() -> None:
    """docs/RULES.md, Decisions ("When bankruptcy is allowed")."""
    s = game()
    own(s, 1, 39)
    own(s, 0, 5)
    cash(s, 0, 10)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    illegal(s, "bankrupt")
    illegal(s, "end_turn")
    illegal(s, "roll")


def test_act_for_another_seat_is_impossible() -> None:
    """The kernel protocol: actions are for the seat that decides now; seat 1 cannot build
    during seat 0's roll decision."""
    s = game()
    own(s, 1, 1, 3)
    illegal(s, "build 1")
    illegal(s, "mortgage 1")
    illegal(s, "sell_building 1")


def test_claim_rent_with_no_claims() -> None:
    """Rule option rent_claim_required: only a pending claim can be claimed."""
    s = game(rent_claim_required=True)
    illegal(s, "claim_rent 0")


def test_every_action_after_the_game_is_over() -> None:
    """Friends rules A, "Winning": after the end nothing more happens."""
    s = game(players=2)
    own(s, 1, 37, 39)
    build_to(s, {37: 5, 39: 5})
    cash(s, 0, 10)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    act(s, "bankrupt")
    assert s.is_terminal()
    for text in ("roll", "pass", "end_turn", "bid 5"):
        assert "over" in illegal(s, text)


def test_error_carries_action_and_reason() -> None:
    """meeple.kernel.errors.IllegalActionError: ``action`` is the text, ``reason`` a sentence."""
    s = game()
    with pytest.raises(IllegalActionError) as info:
        s.apply(Action("buy"))
    assert info.value.action == "buy"
    assert "illegal action 'buy'" in str(info.value)


def test_bad_rule_options_are_refused_with_the_field_named() -> None:
    """Entry point new_monopoly: a bad rule option names the option and the reason."""
    with pytest.raises(ValueError, match=r"options\.rules\.dice"):
        new_monopoly("classic", 2, 1, {"rules": {"dice": 3}})
    with pytest.raises(ValueError, match=r"options\.rules\.no_such_rule"):
        new_monopoly("classic", 2, 1, {"rules": {"no_such_rule": 1}})
    with pytest.raises(ValueError, match=r"options\.rules must be a table"):
        new_monopoly("classic", 2, 1, {"rules": [1]})


@pytest.mark.parametrize("players", [0, 1, 9])
def test_bad_number_of_players(players: int) -> None:
    """Entry point new_monopoly: classic is for 2 to 8 players (Friends rules A: 2-6 players; the
    classic edition allows 8)."""
    with pytest.raises(ValueError, match="2 to 8 players"):
        new_monopoly("classic", players, 1)


def test_every_decision_is_named_in_words_in_refusals() -> None:
    """A refusal names the decision in words (issue 38), never the engine's phase name: every
    decision met in random games of every edition has its words."""
    import random

    from meeple.games.monopoly.refusals import DECISION_WORDS
    from meeple.kernel.family import game_ids, game_info, new_game

    seen: set[str] = set()
    for gid in [g for g in game_ids() if game_info(g).family == "monopoly"]:
        for seed in range(6):
            s = new_game(gid, 4, seed)
            rng = random.Random(seed)
            while not s.is_terminal() and len(s.history) < 3000:
                seen.add(s.decision_name())
                s.apply(rng.choice(s.legal_actions()))
    assert {"pre_roll", "buy", "auction", "trade", "end_turn"} <= seen  # the walk went far
    assert seen - {"over"} <= set(DECISION_WORDS), seen - set(DECISION_WORDS)


def test_a_refusal_in_jail_names_the_editions_jail() -> None:
    """The jail decision in the edition's own word: My First Monopoly's "Time Out"."""
    from tests.monopoly.helpers import first_seat

    for game_id, word in (("classic", "Jail"), ("my-first-monopoly-1", "Time Out")):
        s = new_monopoly(game_id, 2, 1, first_seat())
        jail(s, 0)
        assert s.decision_name() == "jail"
        assert f"must decide how to get out of {word} now" in illegal(s, "accept")
