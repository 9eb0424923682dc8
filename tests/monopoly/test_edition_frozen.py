"""Monopoly Frozen II: every edition-specific statement of its rulebook.

Rulebook: ``shared/rules/monopoly-frozen-2-rules.txt``. Edition data:
``editions/frozen-ii.toml`` (the classic layout: scenes on the classic street squares with
classic values, Elements Earth 5, Wind 15, Fire 25, Water 35, Snowflakes 12 and 28, Family
Chest 2/17/33, Royal Decree 7/22/36, Disaster Tax 4 (M200), Water Tax 38 (M100); see
docs/EDITIONS.md, "frozen-ii"). Expected numbers come from the rulebook and that data file.
"""

from __future__ import annotations

from typing import Any

import pytest

from meeple.games.monopoly import MonopolyState
from meeple.games.monopoly.frames import HOUSE
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.tables import ELEMENT, OP_SNOWFLAKE, SNOWFLAKE
from tests.monopoly.helpers import (
    act,
    at,
    build_to,
    cash,
    deck_index,
    deck_top,
    describe_all,
    dice,
    edition_game,
    event_kinds,
    illegal,
    jail,
    legal,
    own,
    pass_windows,
    turn_of,
)

EARTH, WIND, FIRE, WATER = 5, 15, 25, 35
FLAKE_1, FLAKE_2 = 12, 28


def frozen(players: int = 4, **rules: Any) -> MonopolyState:
    return edition_game("frozen-ii", players, **rules)


def auction(s: MonopolyState) -> AuctionFrame:
    """The auction on top of the decision stack."""
    f = s.stack[-1]
    assert isinstance(f, AuctionFrame)
    return f


# -- Board spaces ---------------------------------------------------------------------------


def test_the_board_has_four_elements_two_snowflakes_and_the_named_spaces() -> None:
    """monopoly-frozen-2-rules.txt, "Element" ("four Element spaces: Earth, Wind, Fire, and
    Water"), "Snowflake", "Disaster Tax and Water Tax", "Royal Decree and Family Chest";
    components: 22 Title Deeds, 16 Royal Decree and 16 Family Chest cards, 32 Village Dwellings,
    12 Castles."""
    s = frozen()
    ed = s.ed
    assert [ed.square_names[i] for i in (EARTH, WIND, FIRE, WATER)] == [
        "Earth",
        "Wind",
        "Fire",
        "Water",
    ]
    assert [i for i, k in enumerate(ed.kind) if k == ELEMENT] == [EARTH, WIND, FIRE, WATER]
    assert [i for i, k in enumerate(ed.kind) if k == SNOWFLAKE] == [FLAKE_1, FLAKE_2]
    assert len(ed.properties) == 22  # 22 Title Deed cards: scenes only
    assert [(d.name, len(d.cards)) for d in ed.decks] == [
        ("Royal Decree", 16),
        ("Family Chest", 16),
    ]
    assert (s.houses, s.hotels) == (32, 12)
    assert (ed.names.house, ed.names.hotel) == ("Village Dwelling", "Castle")


def test_element_travels_ahead_to_the_next_element() -> None:
    """monopoly-frozen-2-rules.txt, "Element": "When you land on one, travel ahead to the next
    Element space". Arriving there does not travel again (docs/RULES.md, "Element travel")."""
    s = frozen()
    dice(s, 2, 3)
    events = act(s, "roll")
    assert s.pos[0] == WIND
    assert "element" in event_kinds(events)
    assert event_kinds(events).count("element") == 1  # Wind does not send on to Fire
    assert s.cash[0] == 1500
    assert "Earth: Player 1 travels on to Wind." in describe_all(s, events)


def test_element_water_to_earth_collects_go_salary() -> None:
    """monopoly-frozen-2-rules.txt, "Element" and "Go": travelling from Water ahead to Earth
    passes GO, so M200 is collected ("When you pass or land on the GO space, collect M200");
    Earth is not left again."""
    s = frozen()
    at(s, 0, 31)
    dice(s, 1, 3)
    events = act(s, "roll")
    assert s.pos[0] == EARTH
    assert s.cash[0] == 1700
    assert event_kinds(events).count("salary") == 1
    assert event_kinds(events).count("element") == 1


def test_landing_on_an_element_by_card_travels_on() -> None:
    """monopoly-frozen-2-rules.txt, "Element" (any landing) and "Royal Decree and Family Chest"
    (do what the card says): RD07 moves to Earth (passing GO from 7, M200), which travels on to
    Wind; RD14 moves to Fire, which travels on to Water."""
    s = frozen()
    rd = deck_index(s, "royal_decree")
    deck_top(s, rd, "RD07")
    dice(s, 3, 4)
    act(s, "roll")
    assert s.pos[0] == WIND and s.cash[0] == 1700
    s2 = frozen()
    deck_top(s2, rd, "RD14")
    at(s2, 0, 18)
    dice(s2, 1, 3)
    act(s2, "roll")
    assert s2.pos[0] == WATER and s2.cash[0] == 1500


def test_disaster_tax_and_water_tax_pay_the_bank() -> None:
    """monopoly-frozen-2-rules.txt, "Disaster Tax and Water Tax": "Pay the Bank the amount shown
    on the space" (M200 and M100 in the data file, classic amounts, assumed)."""
    s = frozen()
    assert s.ed.square_names[4] == "Disaster Tax" and s.ed.square_names[38] == "Water Tax"
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1300
    pass_windows(s)
    at(s, 1, 34)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[1] == 1400 and s.bank_in == 300


# -- The snowflake ---------------------------------------------------------------------------


def test_snowflake_space_places_the_token_on_a_scene_you_own() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "place the snowflake token on any scene that
    you own, occupied or unoccupied" (here Player 2 stands on the chosen scene)."""
    s = frozen()
    own(s, 0, 6, 39)
    at(s, 1, 6)
    at(s, 0, 7)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.pos[0] == FLAKE_1
    assert s.decision_name() == "snowflake" and s.current_player() == 0
    assert legal(s) == {"place_snowflake 6", "place_snowflake 39"}
    events = act(s, "place_snowflake 6")  # occupied by Player 2: allowed
    assert s.snowflake == 6
    assert s.cash == [1500, 1500, 1500, 1500]  # nothing paid by the player standing there
    assert "Player 1 puts the snowflake on King Agnarr's Story." in describe_all(s, events)


def test_next_non_owner_pays_double_rent_and_the_snowflake_melts() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "The next person to land on that scene has to
    pay you double the rent! The snowflake then melts and goes back in the box." King Agnarr's
    Story (rent M6) costs M12 once; the next visitor pays M6."""
    s = frozen()
    own(s, 0, 6)
    s.snowflake = 6
    turn_of(s, 1)
    at(s, 1, 1)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert "snowflake_melts" in event_kinds(events)
    assert s.cash[1] == 1488 and s.cash[0] == 1512
    assert s.snowflake == -1
    pass_windows(s)
    at(s, 2, 1)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.cash[2] == 1494 and s.cash[0] == 1518


def test_the_owner_landing_does_not_melt_the_snowflake() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": the next *person* to land pays the owner
    double; the owner landing on their own scene pays nothing and the snowflake stays
    (docs/RULES.md, "The snowflake")."""
    s = frozen()
    own(s, 0, 6)
    s.snowflake = 6
    at(s, 0, 1)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.pos[0] == 6 and s.snowflake == 6 and s.cash[0] == 1500


def test_snowflake_doubles_the_set_rent_and_building_rent() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "double the rent" - of whatever rent is due:
    the doubled set rent (M6 x 2 x 2 = M24) or a Village Dwelling rent (M30 x 2)."""
    s = frozen()
    own(s, 0, 6, 8, 9)
    s.snowflake = 8
    turn_of(s, 1)
    at(s, 1, 3)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.cash[1] == 1500 - 24
    s2 = frozen()
    own(s2, 0, 6, 8, 9)
    build_to(s2, {6: 1, 8: 1, 9: 1})
    s2.snowflake = 8
    turn_of(s2, 1)
    at(s2, 1, 3)
    dice(s2, 2, 3)
    act(s2, "roll")
    assert s2.cash[1] == 1500 - 60


def test_landing_on_a_snowflake_space_when_it_is_out_moves_it() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "If the snowflake token is already on someone's
    property when you land on this space ... simply move it." Player 1's snowflake on King
    Agnarr's Story moves to Player 2's scene; King Agnarr's Story is back to M6."""
    s = frozen()
    own(s, 0, 6)
    own(s, 1, 16)
    s.snowflake = 6
    turn_of(s, 1)
    at(s, 1, 24)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[1] == FLAKE_2 and s.decision_name() == "snowflake"
    assert legal(s) == {"place_snowflake 16"}
    act(s, "place_snowflake 16")
    assert s.snowflake == 16
    pass_windows(s)
    at(s, 2, 1)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.cash[2] == 1494  # normal rent on 6 now


def test_drawing_a_snowflake_card_when_it_is_out_moves_it() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "Some cards also let you use the snowflake!"
    and "If the snowflake token is already on someone's property when you ... draw a relevant
    card, simply move it" (RD05)."""
    s = frozen()
    own(s, 1, 6)
    own(s, 0, 11)
    s.snowflake = 6
    deck_top(s, deck_index(s, "royal_decree"), "RD05")
    at(s, 0, 4)
    dice(s, 1, 2)
    events = act(s, "roll")
    assert "card" in event_kinds(events)
    assert s.decision_name() == "snowflake" and legal(s) == {"place_snowflake 11"}
    act(s, "place_snowflake 11")
    assert s.snowflake == 11


def test_owning_no_scene_the_snowflake_space_does_nothing() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": the token goes on "any scene that you own"; a
    player who owns none cannot place it, so nothing happens and a snowflake already out stays
    where it is (docs/RULES.md, "The snowflake")."""
    s = frozen()
    own(s, 1, 6)
    s.snowflake = 6
    at(s, 0, 7)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert "snowflake_no_scene" in event_kinds(events)
    assert s.snowflake == 6 and not s.stack
    assert s.cash[0] == 1500


def test_snowflake_cards_are_in_both_decks() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "Some cards also let you use the snowflake!"
    The designed decks hold three: RD05, RD06 (Royal Decree) and FC15 (Family Chest)."""
    s = frozen()
    flakes = [c.id for d in s.ed.decks for c in d.cards if c.op == OP_SNOWFLAKE]
    assert flakes == ["RD05", "RD06", "FC15"]


def test_snowflake_on_a_mortgaged_scene_melts_without_rent() -> None:
    """monopoly-frozen-2-rules.txt, "Mortgaging Scenes": "Rent cannot be collected on scenes
    that are mortgaged"; the snowflake still melts on the next visitor (docs/RULES.md, "The
    snowflake": it melts rent or no rent)."""
    s = frozen()
    own(s, 0, 6, mortgaged=True)
    s.snowflake = 6
    turn_of(s, 1)
    at(s, 1, 1)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert {"snowflake_melts", "no_rent_mortgaged"} <= set(event_kinds(events))
    assert s.snowflake == -1 and s.cash[1] == 1500


# The snowflake on a scene that changes hands (docs/RULES.md, "The snowflake"): the token goes
# back in the box, for each way a scene can leave its owner; the next visitor pays the normal rent.

KING_AGNARR, KING_AGNARR_RENT = 6, 6


def _next_visitor_pays(s: MonopolyState, owner: int) -> None:
    """Player 3 lands on King Agnarr's Story and pays its printed rent (M6) to ``owner``."""
    pass_windows(s)
    turn_of(s, 2)
    before = s.cash[owner]
    at(s, 2, 1)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert s.pos[2] == KING_AGNARR and "snowflake_melts" not in event_kinds(events)
    assert s.cash[2] == 1500 - KING_AGNARR_RENT
    assert s.cash[owner] == before + KING_AGNARR_RENT


def test_a_traded_scene_sends_the_snowflake_back_to_the_box() -> None:
    """monopoly-frozen-2-rules.txt, "Snowflake": "place the snowflake token on any scene that you
    own ... The next person to land on that scene has to pay you double the rent!" The promise is
    to the player who placed it; traded away ("Deals and trades"), the scene takes no snowflake
    to its new owner."""
    s = frozen()
    own(s, 0, KING_AGNARR)
    s.snowflake = KING_AGNARR
    act(s, "trade 1")
    act(s, f"trade_deed {KING_AGNARR}")
    act(s, "trade_cash -100")
    act(s, "propose")
    events = act(s, "accept")
    assert s.owner[KING_AGNARR] == 1 and s.snowflake == -1
    assert event_kinds(events)[-1] == "snowflake_returned"
    assert describe_all(s, events)[-1] == (
        "King Agnarr's Story changes hands: the snowflake on it goes back in the box without "
        "melting."
    )
    _next_visitor_pays(s, 1)


def test_a_scene_handed_to_a_creditor_sends_the_snowflake_back_to_the_box() -> None:
    """monopoly-frozen-2-rules.txt, "Do you owe another player?": "Give them all your ... scenes";
    the bankrupt placer can be paid nothing, and the creditor did not place the snowflake."""
    s = frozen()
    own(s, 0, KING_AGNARR)
    s.snowflake = KING_AGNARR
    own(s, 1, 37, 39)
    build_to(s, {37: 5, 39: 5})
    cash(s, 0, 0)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")  # Boardwalk's square with a Castle: M2,000
    act(s, "bankrupt")
    assert s.owner[KING_AGNARR] == 1 and s.snowflake == -1
    _next_visitor_pays(s, 1)


def test_a_bankrupts_scene_auctioned_by_the_bank_has_no_snowflake() -> None:
    """monopoly-frozen-2-rules.txt, "Do you owe the Bank?": "Return all of your scenes to the
    Bank ... All your scenes must immediately be put up for auction". The token leaves with the
    placer's ownership, before the auction: its winner buys the scene without it."""
    s = frozen()
    own(s, 0, KING_AGNARR)
    s.snowflake = KING_AGNARR
    cash(s, 0, 0)
    dice(s, 1, 3)
    act(s, "roll")  # Disaster Tax, M200: M30 raisable
    events = act(s, "bankrupt")
    assert "snowflake_returned" in event_kinds(events) and s.snowflake == -1
    assert auction(s).square == KING_AGNARR
    act(s, "bid 10")  # seat 1
    act(s, "pass")
    act(s, "pass")
    assert s.owner[KING_AGNARR] == 1 and s.snowflake == -1
    _next_visitor_pays(s, 1)


def test_the_snowflake_stays_when_another_scene_changes_hands() -> None:
    """Only the scene under the token matters: trading another scene leaves it in place, and it
    still doubles the rent (M12) for the player who placed it."""
    s = frozen()
    own(s, 0, KING_AGNARR, 8)
    s.snowflake = KING_AGNARR
    act(s, "trade 1")
    act(s, "trade_deed 8")
    act(s, "trade_cash -100")
    act(s, "propose")
    events = act(s, "accept")
    assert s.owner[8] == 1 and s.snowflake == KING_AGNARR
    assert "snowflake_returned" not in event_kinds(events)
    pass_windows(s)
    turn_of(s, 2)
    at(s, 2, 1)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.cash[2] == 1500 - 2 * KING_AGNARR_RENT and s.snowflake == -1


def test_the_audit_refuses_a_snowflake_on_a_scene_nobody_owns() -> None:
    """The invariant the decision keeps: the token lies on a scene a player owns (placed on
    their own, gone when it leaves them)."""
    from meeple.games.monopoly.audit import audit

    s = frozen()
    s.snowflake = KING_AGNARR
    assert "the snowflake is on square 6, not on a scene a player owns" in audit(s)
    own(s, 0, KING_AGNARR)
    assert audit(s) == []


# -- Auctions --------------------------------------------------------------------------------


def test_auction_bids_start_at_10_and_rise_by_1() -> None:
    """monopoly-frozen-2-rules.txt, "Don't want to buy it?": "Bids start at M10 and anybody can
    increase the bid by as little as M1"."""
    s = frozen()
    dice(s, 1, 2)
    act(s, "roll")  # Charades Night (M60), unowned
    act(s, "decline")
    assert s.decision_name() == "auction" and s.current_player() == 1
    assert min(int(a.split()[1]) for a in legal(s) if a.startswith("bid")) == 10
    reason = illegal(s, "bid 9")
    assert "between 10" in reason
    act(s, "bid 10")
    illegal(s, "bid 10")
    act(s, "bid 11")  # seat 2: M1 more
    assert auction(s).high == 11


def test_an_unbid_scene_stays_with_the_bank() -> None:
    """monopoly-frozen-2-rules.txt, "Don't want to buy it?": "If no one wants to bid on the
    scene, that's fine. Nobody pays anything, and the Title Deed stays with the Bank"."""
    s = frozen()
    dice(s, 1, 2)
    act(s, "roll")
    act(s, "decline")
    for _ in range(4):
        act(s, "pass")
    assert s.owner[3] == -1 and s.cash == [1500] * 4 and not s.stack


def test_building_shortage_auction_starts_at_10() -> None:
    """monopoly-frozen-2-rules.txt, "Not Enough Buildings": "If multiple players want to buy the
    last Village Dwelling or Castle, the Banker must auction it. Bids start at M10"."""
    s = frozen()
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    own(s, 2, 37, 39, 31, 32, 34, 26, 27, 29)
    build_to(s, {37: 4, 39: 4, 31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 3})
    assert s.houses == 1
    act(s, "build 1")
    assert s.decision_name() == "shortage"
    act(s, "want_building")  # seat 1
    act(s, "no_building")  # seat 2
    assert s.decision_name() == "auction" and auction(s).item == HOUSE
    assert auction(s).min_bid == 10
    illegal(s, "bid 9")
    act(s, "bid 10")
    act(s, "pass")
    assert s.decision_name() == "place" and s.current_player() == 0
    act(s, "place_building 1")
    assert s.cash[0] == 1490 and s.level[1] == 1


def test_bankruptcy_to_the_bank_auctions_scenes_unmortgaged_from_10() -> None:
    """monopoly-frozen-2-rules.txt, "Do you owe the Bank?": "Return all of your scenes to the
    Bank. Any mortgages are canceled. All your scenes must immediately be put up for auction"
    (bids from M10, as every Frozen II auction)."""
    s = frozen()
    own(s, 0, 1, mortgaged=True)
    own(s, 0, 3)
    cash(s, 0, 0)
    dice(s, 1, 3)
    act(s, "roll")  # Disaster Tax, M200: 30 raisable
    assert s.decision_name() == "debt"
    act(s, "bankrupt")
    assert not s.alive[0]
    assert s.owner[1] == -1 and not s.mortgaged[1] and s.owner[3] == -1
    assert s.decision_name() == "auction" and auction(s).square == 1
    assert auction(s).min_bid == 10
    act(s, "bid 10")  # seat 1
    act(s, "pass")
    act(s, "pass")
    assert s.owner[1] == 1 and not s.mortgaged[1] and s.cash[1] == 1490
    assert auction(s).square == 3


# -- Rent, jail, building, cards, mortgages --------------------------------------------------


def test_set_rent_stays_on_unmortgaged_scenes_when_one_is_mortgaged() -> None:
    """monopoly-frozen-2-rules.txt, "Mortgaging Scenes": "Rent cannot be collected on scenes
    that are mortgaged. However, the increased rent level can be collected on the unmortgaged
    scenes in a color set" (Charades Night M4, doubled to M8)."""
    s = frozen()
    assert s.rules.set_rent_needs_all_unmortgaged is False
    own(s, 1, 3)
    own(s, 1, 1, mortgaged=True)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1492 and s.cash[1] == 1508
    pass_windows(s)
    turn_of(s, 2)
    at(s, 2, 39)
    dice(s, 1, 1, 2, 3)
    events = act(s, "roll")  # 39 + 2 = 1, mortgaged: no rent (a double: rolls again)
    assert "no_rent_mortgaged" in event_kinds(events) and s.cash[2] == 1700


def test_leaving_jail_on_doubles_moves_and_ends_the_turn() -> None:
    """monopoly-frozen-2-rules.txt, "How do I get out of Jail?": "Roll doubles on your next
    turn. If you do, you're free! Use the roll to move, and that's the end of your turn"."""
    s = frozen()
    jail(s, 0)
    dice(s, 5, 5)
    events = act(s, "roll")
    assert not s.in_jail[0] and s.pos[0] == 20
    assert "jail_doubles" in event_kinds(events)
    assert s.turn == 1 and s.phase == s.PRE_ROLL  # no second roll for Player 1


def test_buildings_may_be_bought_without_waiting_for_your_turn() -> None:
    """monopoly-frozen-2-rules.txt, "Building Village Dwellings": "As soon as you get a color
    set, you can start buying Village Dwellings (you don't have to wait for your turn)": after
    Player 1's turn, Player 2's window offers the build."""
    s = frozen()
    own(s, 1, 1, 3)
    at(s, 0, 16)
    dice(s, 1, 3)
    act(s, "roll")  # Free Parking
    act(s, "end_turn")
    assert s.phase == s.WINDOW and s.current_player() == 1 and s.turn == 0
    assert {"build 1", "build 3"} <= legal(s)
    events = act(s, "build 1")
    assert s.level[1] == 1 and s.cash[1] == 1450
    assert "Player 2 builds on Arendelle Village: now 1 Village Dwelling." in describe_all(
        s, events
    )


def test_royal_decree_and_family_chest_draw_from_the_top_and_return_to_the_bottom() -> None:
    """monopoly-frozen-2-rules.txt, "Royal Decree and Family Chest": "Take the top card from the
    matching deck and immediately do what it says. Return it to the bottom of the deck"."""
    s = frozen()
    rd, fc = deck_index(s, "royal_decree"), deck_index(s, "family_chest")
    deck_top(s, rd, "RD08")  # collect M50
    order = list(s.decks[rd])
    at(s, 0, 4)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1550
    assert s.decks[rd] == order[1:] + order[:1]
    pass_windows(s)
    deck_top(s, fc, "FC13")  # collect M25
    order = list(s.decks[fc])
    at(s, 1, 15)
    dice(s, 1, 1)
    act(s, "roll")
    assert s.cash[1] == 1525
    assert s.decks[fc] == order[1:] + order[:1]


def test_mortgage_interest_is_ten_percent_of_the_mortgage_value() -> None:
    """monopoly-frozen-2-rules.txt, "Mortgaging Scenes": "To repay a mortgage, pay the unmortgage
    cost to the Bank (mortgage value +10%)" (Queen Anna of Arendelle, mortgage M200: M220;
    Breaking the Dam, M175: M192.50 rounded up to M193); "Deals and trades": a received
    mortgaged scene costs "10% of the mortgage value now"."""
    s = frozen()
    assert s.ed.unmortgage_cost[39] == 220 and s.ed.unmortgage_cost[37] == 193
    assert s.ed.interest[39] == 20
    own(s, 0, 39)
    act(s, "mortgage 39")
    assert s.cash[0] == 1700 and s.mortgaged[39]
    act(s, "unmortgage 39")
    assert s.cash[0] == 1480 and not s.mortgaged[39]


def test_rent_claims_are_off_by_default() -> None:
    """monopoly-frozen-2-rules.txt, "Owned Scenes": "If they don't ask before the next player
    rolls the dice, you don't have to pay!" - the rule option ``rent_claim_required``, off in
    every shipped edition (docs/RULES.md, "Rent claims"): rent is collected on landing."""
    s = frozen()
    assert s.rules.rent_claim_required is False
    own(s, 1, 3)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1496 and not s.claims


def test_frozen_allows_two_to_six_players() -> None:
    """monopoly-frozen-2-rules.txt, components: "6 character pieces"."""
    frozen(2)
    frozen(6)
    with pytest.raises(ValueError, match="2 to 6 players"):
        frozen(7)
