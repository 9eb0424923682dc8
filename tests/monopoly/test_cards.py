"""Every card of both classic decks, and how cards are drawn, returned and kept.

Friends rules A, "Apartment 19 and Apartment 20" (Chance / Community Chest): "take the top card
... take the corresponding action ... return the card to the bottom of the corresponding pile";
Get Out of Jail Free is kept. Card effects from shared/reference/classic-cards.json (2008 US
decks) and its "rules": nearest = next going forward; the railroad card pays twice the normal
rent; the utility card pays 10 x a fresh roll; passing GO on a card move pays the salary; going
to jail never does; repairs count a hotel once at the hotel rate.
"""

import pytest

from tests.monopoly.helpers import (
    CHANCE,
    CHEST,
    act,
    at,
    build_to,
    cash,
    deck_top,
    dice,
    event_kinds,
    game,
    own,
)


def draw(s, deck: int, card: str, square: int | None = None) -> list:  # type: ignore[no-untyped-def]
    """Seat 0 rolls 1+2 onto a card square of ``deck`` with ``card`` on top."""
    if square is None:
        square = 7 if deck == CHANCE else 17
    deck_top(s, deck, card)
    at(s, 0, square - 3)
    dice(s, 1, 2)
    return act(s, "roll")


def card_index(s, deck: int, card: str) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, c in enumerate(s.ed.decks[deck].cards) if c.id == card)


# (card id, expected position, expected cash of the drawer, decision left open or None)
CHANCE_FROM_7 = [
    ("CH01", 0, 1700, None),  # Advance to GO: collect 200
    ("CH02", 24, 1500, "buy"),  # Illinois Avenue, GO not passed from 7
    ("CH03", 11, 1500, "buy"),  # St. Charles Place
    ("CH04", 39, 1500, "buy"),  # Boardwalk
    ("CH05", 15, 1500, "buy"),  # nearest railroad from 7: Pennsylvania Railroad
    ("CH06", 15, 1500, "buy"),  # the duplicate
    ("CH07", 12, 1500, "buy"),  # nearest utility from 7: Electric Company
    ("CH08", 7, 1550, None),  # dividend 50
    ("CH09", 7, 1500, None),  # Get Out of Jail Free, kept
    ("CH10", 4, 1300, None),  # back 3 to Income Tax: pay 200
    ("CH11", 10, 1500, None),  # Go to Jail
    ("CH12", 7, 1500, None),  # repairs with no buildings: 0
    ("CH13", 7, 1485, None),  # speeding fine 15
    ("CH14", 5, 1700, "buy"),  # Reading Railroad: passes GO from 7
    ("CH15", 7, 1350, None),  # pay each of 3 players 50
    ("CH16", 7, 1650, None),  # building loan 150
]
CHEST_FROM_17 = [
    ("CC01", 0, 1700, None),  # Advance to GO
    ("CC02", 17, 1700, None),  # bank error 200
    ("CC03", 17, 1450, None),  # doctor's fee 50
    ("CC04", 17, 1550, None),  # sale of stock 50
    ("CC05", 17, 1500, None),  # Get Out of Jail Free, kept
    ("CC06", 10, 1500, None),  # Go to Jail
    ("CC07", 17, 1600, None),  # holiday fund 100
    ("CC08", 17, 1520, None),  # tax refund 20
    ("CC09", 17, 1530, None),  # birthday: 10 from each of 3 players
    ("CC10", 17, 1600, None),  # life insurance 100
    ("CC11", 17, 1400, None),  # hospital 100
    ("CC12", 17, 1450, None),  # school fees 50
    ("CC13", 17, 1525, None),  # consultancy 25
    ("CC14", 17, 1500, None),  # repairs with no buildings: 0
    ("CC15", 17, 1510, None),  # beauty contest 10
    ("CC16", 17, 1600, None),  # inheritance 100
]


@pytest.mark.parametrize(
    ("deck", "card", "pos", "money", "frame"),
    [(CHANCE, *c) for c in CHANCE_FROM_7] + [(CHEST, *c) for c in CHEST_FROM_17],
    ids=[c[0] for c in CHANCE_FROM_7 + CHEST_FROM_17],
)
def test_every_card(deck: int, card: str, pos: int, money: int, frame: str | None) -> None:
    """classic-cards.json, each card's effect; Friends rules A, "Apartment 19 and Apartment 20"
    (top card, resolved, returned to the bottom; Get Out of Jail Free kept)."""
    s = game()
    events = draw(s, deck, card)
    drawn = [e.data["card"] for e in events if e.kind == "card"]
    assert drawn == [card]
    assert s.pos[0] == pos
    assert s.cash[0] == money
    if frame:
        assert s.decision_name() == frame and s.current_player() == 0
    idx = card_index(s, deck, card)
    if card in ("CH09", "CC05"):
        assert s.card_holder[deck] == 0
        assert idx not in s.decks[deck] and len(s.decks[deck]) == 15
    else:
        assert s.decks[deck][-1] == idx and len(s.decks[deck]) == 16
        assert s.card_holder[deck] == -1
    if card in ("CH11", "CC06"):
        assert s.in_jail[0]
        assert "salary" not in event_kinds(events)
    paid = [s.describe(e) for e in events if e.kind == "paid"]
    if card == "CH15":
        assert s.cash[1:] == [1550, 1550, 1550]
        # The log says each payment (issue 20: the replay printed none).
        assert paid == [f"Player 1 pays $50 to Player {q}." for q in (2, 3, 4)]
    if card == "CC09":
        assert s.cash[1:] == [1490, 1490, 1490]
        assert paid == [f"Player {q} pays $10 to Player 1." for q in (2, 3, 4)]


def test_cards_come_from_the_top_and_go_to_the_bottom() -> None:
    """Friends rules A: "take the top card from the corresponding pile ... return the card to the
    bottom of the corresponding pile" - two draws take the first two cards in order."""
    s = game(players=2)
    # Make sure neither of the first two is a card that moves or keeps the card.
    deck_top(s, CHANCE, "CH13")
    deck_top(s, CHANCE, "CH08")
    order = list(s.decks[CHANCE])
    at(s, 0, 4)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.decks[CHANCE] == [*order[1:], order[0]]
    s.turn, s.phase = 0, s.PRE_ROLL
    at(s, 0, 4)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.decks[CHANCE] == [*order[2:], order[0], order[1]]
    assert s.cash[0] == 1500 + 50 - 15


@pytest.mark.parametrize(
    ("card", "pos"), [("CH02", 24), ("CH03", 11), ("CH05", 5), ("CH07", 12), ("CH14", 5)]
)
def test_card_move_past_go_pays_salary(card: str, pos: int) -> None:
    """classic-cards.json "passing_go": "Moving forward past GO because of a card pays the GO
    salary" (from the Chance square 36); Friends rules A, "GO": "Whenever you land on or pass
    GO"."""
    s = game()
    draw(s, CHANCE, card, square=36)
    assert s.pos[0] == pos
    assert s.cash[0] == 1700


def test_advance_to_boardwalk_from_36_does_not_pass_go() -> None:
    """classic-cards.json CH04 note: "from Chance squares 7/22/36 GO is never passed"."""
    s = game()
    draw(s, CHANCE, "CH04", square=36)
    assert s.pos[0] == 39 and s.cash[0] == 1500


def test_go_back_three_from_36_lands_on_community_chest_which_draws() -> None:
    """classic-cards.json CH10: "36->33 Community Chest (then resolve that square)"."""
    s = game()
    deck_top(s, CHEST, "CC02")
    events = draw(s, CHANCE, "CH10", square=36)
    assert [e.data["card"] for e in events if e.kind == "card"] == ["CH10", "CC02"]
    assert s.pos[0] == 33
    assert s.cash[0] == 1700  # bank error 200, no GO salary for moving back
    assert s.decks[CHANCE][-1] == card_index(s, CHANCE, "CH10")
    assert s.decks[CHEST][-1] == card_index(s, CHEST, "CC02")


def test_go_back_three_from_22_lands_on_new_york_avenue() -> None:
    """classic-cards.json CH10: "22->19 New York Ave" - an unowned deed: buy or auction."""
    s = game()
    draw(s, CHANCE, "CH10", square=22)
    assert s.pos[0] == 19 and s.decision_name() == "buy"


def test_go_back_three_onto_an_owned_street_pays_rent() -> None:
    """classic-cards.json CH10 and Friends rules A, "Paying Rent": New York Avenue owned by
    another player charges its rent (16)."""
    s = game()
    own(s, 1, 19)
    draw(s, CHANCE, "CH10", square=22)
    assert s.cash[0] == 1484


@pytest.mark.parametrize("card", ["CH05", "CH06"])
def test_nearest_railroad_pays_double_rent(card: str) -> None:
    """classic-cards.json CH05/CH06: "pay_owner_2x_normal_railroad_rent" - owner of 2 railroads:
    2 x 50 = 100."""
    s = game()
    own(s, 1, 15, 25)
    draw(s, CHANCE, card)
    assert s.pos[0] == 15
    assert s.cash[0] == 1400 and s.cash[1] == 1600


def test_nearest_railroad_from_22_is_b_and_o() -> None:
    """classic-cards.json CH05 note: "22->25"; one railroad owned: 2 x 25 = 50."""
    s = game()
    own(s, 1, 25)
    draw(s, CHANCE, "CH05", square=22)
    assert s.pos[0] == 25 and s.cash[0] == 1450


def test_nearest_railroad_mortgaged_charges_nothing() -> None:
    """Friends rules A, "Paying Rent": "If the moment is mortgaged, you do not owe rent" - also
    on a card move."""
    s = game()
    own(s, 1, 15, mortgaged=True)
    draw(s, CHANCE, "CH05")
    assert s.cash[0] == 1500


def test_nearest_utility_pays_ten_times_a_fresh_roll() -> None:
    """classic-cards.json CH07: "roll_dice_pay_owner_10x_total" - "10x regardless of how many
    utilities the owner has": owner of one utility, fresh roll 3+4 -> 70."""
    s = game()
    own(s, 1, 12)
    deck_top(s, CHANCE, "CH07")
    at(s, 0, 4)
    dice(s, 1, 2, 3, 4)
    act(s, "roll")
    assert s.pos[0] == 12
    assert s.cash[0] == 1430 and s.cash[1] == 1570


def test_nearest_utility_from_22_is_water_works() -> None:
    """classic-cards.json CH07 note: "22->28"; both utilities owned: still 10 x the fresh roll
    (6+6 -> 120)."""
    s = game()
    own(s, 1, 12, 28)
    deck_top(s, CHANCE, "CH07")
    at(s, 0, 19)
    dice(s, 1, 2, 6, 6)
    act(s, "roll")
    assert s.pos[0] == 28 and s.cash[0] == 1380


def test_trip_to_reading_railroad_charges_normal_rent() -> None:
    """classic-cards.json CH14: "normal railroad rent (not doubled)": 25 for one railroad, plus
    the salary for passing GO from 7."""
    s = game()
    own(s, 1, 5)
    draw(s, CHANCE, "CH14")
    assert s.cash[0] == 1500 + 200 - 25


def test_advance_to_a_street_owned_by_another_pays_its_rent() -> None:
    """classic-cards.json CH02 note: "normal rent/buy on arrival" (Illinois Avenue, 20)."""
    s = game()
    own(s, 1, 24)
    draw(s, CHANCE, "CH02")
    assert s.cash[0] == 1480


@pytest.mark.parametrize(("deck", "card", "cost"), [(CHANCE, "CH12", 425), (CHEST, "CC14", 590)])
def test_repairs_count_a_hotel_once_at_the_hotel_rate(deck: int, card: str, cost: int) -> None:
    """classic-cards.json "repairs": a hotel "is charged once at the hotel rate". Seat 0 has
    hotels on Park Place and Boardwalk and 3 houses on each green street (9 houses):
    Chance 9 x 25 + 2 x 100 = 425; Community Chest 9 x 40 + 2 x 115 = 590."""
    s = game()
    own(s, 0, 37, 39, 31, 32, 34)
    build_to(s, {37: 5, 39: 5, 31: 3, 32: 3, 34: 3})
    draw(s, deck, card)
    assert s.cash[0] == 1500 - cost


def test_pay_each_player_raising_money_creditor_by_creditor() -> None:
    """classic-cards.json CH15 "pay_each_player" 50, with 100 cash: the creditors are paid one
    at a time in seat order from the left; for the third the drawer must raise the money
    (docs/RULES.md, Decisions: several creditors)."""
    s = game()
    cash(s, 0, 100)
    own(s, 0, 39)
    draw(s, CHANCE, "CH15")
    assert s.cash[1:] == [1550, 1550, 1500]
    assert s.decision_name() == "debt" and s.current_player() == 0
    assert "bankrupt" not in {a.kind for a in s.legal_actions()}
    act(s, "mortgage 39")
    assert s.cash == [150, 1550, 1550, 1550]


def test_pay_each_player_drawer_goes_bankrupt_to_the_first_unpaid() -> None:
    """classic-cards.json CH15 with 60 cash and nothing to sell: seat 1 is paid 50; the drawer
    goes bankrupt to seat 2 with the remaining 10; the debt to seat 3 is cancelled with the
    bankrupt (docs/RULES.md, Decisions)."""
    s = game()
    cash(s, 0, 60)
    draw(s, CHANCE, "CH15")
    assert s.cash[1] == 1550
    assert s.stack[-1].creditor == 2
    act(s, "bankrupt")
    assert not s.alive[0]
    assert s.cash[1:] == [1550, 1510, 1500]
    assert s.current_player() in (1, 2, 3)


def test_collect_from_each_player_including_one_who_cannot_pay() -> None:
    """classic-cards.json CC09 "collect_from_each_player" 10: seats 1 and 3 pay; seat 2 has 5
    and nothing to raise, goes bankrupt to the drawer, who gets the 5 (Friends rules A,
    "Bankruptcy": "Any cash you are able to collect goes to the player ... you owe")."""
    s = game()
    cash(s, 2, 5)
    draw(s, CHEST, "CC09")
    assert s.cash[0] == 1520
    assert s.decision_name() == "debt" and s.current_player() == 2
    act(s, "bankrupt")
    assert not s.alive[2]
    assert s.cash == [1525, 1490, 0, 1490]


def test_collect_from_a_player_who_must_mortgage_to_pay() -> None:
    """classic-cards.json CC09 and Friends rules B, "Help, I'm in Debt": a player with 5 cash and
    a deed must mortgage it (bankruptcy is not allowed while raising could pay)."""
    s = game()
    cash(s, 2, 5)
    own(s, 2, 1)
    draw(s, CHEST, "CC09")
    assert s.current_player() == 2
    assert "bankrupt" not in {a.kind for a in s.legal_actions()}
    act(s, "mortgage 1")
    assert s.cash[2] == 5 + 30 - 10 and s.cash[0] == 1530


def test_card_to_jail_never_pays_salary_and_ends_the_turn_on_doubles() -> None:
    """Friends rules B, "Go to Jail": "Draw an Apartment 19 or Apartment 20 card that tells you
    to Go to Jail"; "You do not collect M200"; "your turn ends" even after a double."""
    s = game()
    deck_top(s, CHEST, "CC06")
    at(s, 0, 31)
    dice(s, 1, 1)
    act(s, "roll")
    assert s.in_jail[0] and s.pos[0] == 10 and s.cash[0] == 1500
    assert s.turn == 1
