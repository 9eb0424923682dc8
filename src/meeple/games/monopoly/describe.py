"""Events and actions in plain words, in the edition's own names (a hotel may be a sofa)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import BANK, HOTEL, HOUSE, POT
from meeple.games.monopoly.tables import (
    OP_BANK_PAYS,
    OP_COLLECT_FROM_EACH_PLAYER,
    OP_PAY_BANK,
    OP_PAY_EACH_PLAYER,
    OP_REPAIRS,
    STREET,
)
from meeple.kernel.protocol import Action, Event

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.games.monopoly.tables import Card


def _seat(p: int) -> str:
    if p == BANK:
        return "the bank"
    return "the Free Parking pot" if p == POT else f"Player {p + 1}"


def _money(s: MonopolyState, amount: int) -> str:
    cur = s.ed.currency
    return f"-{cur}{-amount}" if amount < 0 else f"{cur}{amount}"


def _level(s: MonopolyState, lvl: int) -> str:
    names = s.ed.names
    if lvl == 5:
        return f"a {names.hotel}"
    return f"{lvl} {names.house}{'s' if lvl != 1 else ''}"


def describe_event(s: MonopolyState, e: Event) -> str:
    """``e`` in a sentence: each kind of event is worded by the helper of its topic."""
    d = e.data
    k = e.kind
    for topic in (_moving_text, _paying_text, _deeds_text, _dealing_text):
        text = topic(s, k, d)
        if text is not None:
            return text
    return f"{k}: {d}"


def _moving_text(s: MonopolyState, k: str, d: dict[str, Any]) -> str | None:
    """The dice, the start, moving and jail. (None: not an event of this topic.)"""
    sq = s.ed.square_names

    def m(amount: int) -> str:
        return _money(s, amount)

    if k == "roll":
        dice = d["dice"]
        doubles = " (doubles)" if len(dice) == 2 and dice[0] == dice[1] else ""
        return f"{_seat(d['player'])} rolls {' and '.join(str(x) for x in dice)}{doubles}."
    if k == "start_roll":
        total = sum(d["dice"])
        return f"{_seat(d['player'])} rolls {total} to see who starts."
    if k == "first_player":
        why = {
            "roll_off": " (the highest roll)",
            "random": " (drawn at random)",
            "first_seat": "",
        }.get(d["how"], "")
        return f"{_seat(d['player'])} starts{why}."
    if k == "move":
        return f"{_seat(d['player'])} moves to {sq[d['to']]}."
    if k == "salary":
        return f"{_seat(d['player'])} collects {m(d['amount'])} salary."
    if k == "three_doubles":
        return f"{_seat(d['player'])} rolled doubles three times."
    if k == "jailed":
        return f"{_seat(d['player'])} goes to {s.ed.names.jail}."
    if k == "fine_paid":
        into = " into the Free Parking pot" if s.rules.free_parking_money else ""
        return f"{_seat(d['player'])} pays {m(d['amount'])}{into} to leave {s.ed.names.jail}."
    if k == "card_used":
        card = f"{_jail_card(s, d['card'])} {s.ed.names.jail_card} card"
        return f"{_seat(d['player'])} uses a {card}."
    if k == "jail_doubles":
        return f"{_seat(d['player'])} rolls doubles and leaves {s.ed.names.jail}."
    if k == "jail_stay":
        return f"{_seat(d['player'])} stays in {s.ed.names.jail} (attempt {d['attempt']})."
    if k == "jail_third_miss":
        return f"{_seat(d['player'])} missed a third time and must pay {m(d['amount'])} to leave."
    return None


def _paying_text(s: MonopolyState, k: str, d: dict[str, Any]) -> str | None:
    """Taxes, cards, the Free Parking pot, payments, debts and rent. (None: not an event of
    this topic.)"""
    sq = s.ed.square_names

    def m(amount: int) -> str:
        return _money(s, amount)

    if k == "tax":
        return f"{_seat(d['player'])} owes {m(d['amount'])} for {sq[d['square']]}."
    if k == "card":
        deck = s.ed.decks[d["deck"]]
        drawn = next((c for c in deck.cards if c.id == d["card"]), None)
        effect = card_effect(s, drawn) if drawn is not None else ""
        said = ""
        if drawn is not None and effect and not _says_amounts(s, drawn, d["text"]):
            said = f" ({effect})"
        return f"{_seat(d['player'])} draws {deck.name}: {d['text']}{said}."
    if k == "free_parking_pot":
        return f"{_seat(d['player'])} takes the Free Parking pot: {m(d['amount'])}."
    if k == "paid":
        return f"{_seat(d['payer'])} pays {m(d['amount'])} to {_seat(d['payee'])}."
    if k == "debt":
        return (
            f"{_seat(d['debtor'])} owes {m(d['amount'])} to {_seat(d['creditor'])} and "
            "must raise the money."
        )
    if k == "rent":
        return (
            f"{_seat(d['payer'])} owes {m(d['amount'])} rent to {_seat(d['owner'])} for "
            f"{sq[d['square']]}."
        )
    if k == "rent_claimable":
        return (
            f"{_seat(d['owner'])} may claim {m(d['amount'])} rent from "
            f"{_seat(d['payer'])} for {sq[d['square']]}."
        )
    if k == "no_rent_mortgaged":
        return f"{sq[d['square']]} is mortgaged: no rent."
    return None


def _deeds_text(s: MonopolyState, k: str, d: dict[str, Any]) -> str | None:
    """Buying deeds, auctions, buildings and mortgages. (None: not an event of this topic.)"""
    sq = s.ed.square_names

    def m(amount: int) -> str:
        return _money(s, amount)

    if k == "bought":
        return f"{_seat(d['player'])} buys {sq[d['square']]} for {m(d['price'])}."
    if k == "declined":
        return f"{_seat(d['player'])} does not buy {sq[d['square']]}."
    if k == "auction":
        what = sq[d["square"]] if d["item"] == 0 else _item(s, d["item"])
        return f"Auction of {what}."
    if k == "bid":
        return f"{_seat(d['player'])} bids {m(d['amount'])}."
    if k == "auction_pass":
        return f"{_seat(d['player'])} drops out of the auction."
    if k == "auction_won":
        what = sq[d["square"]] if d["item"] == 0 else _item(s, d["item"])
        return f"{_seat(d['player'])} wins {what} for {m(d['amount'])}."
    if k == "unsold":
        what = sq[d["square"]] if d["item"] == 0 else _item(s, d["item"])
        return f"Nobody bids: {what} stays with the bank."
    if k == "built":
        return f"{_seat(d['player'])} builds on {sq[d['square']]}: now {_level(s, d['level'])}."
    if k == "sold_building":
        return (
            f"{_seat(d['player'])} sells a building on {sq[d['square']]}: now "
            f"{_level(s, d['level'])}."
        )
    if k == "sold_group":
        return f"{_seat(d['player'])} sells every building of {s.ed.groups[d['group']].name}."
    if k == "shortage":
        return f"Buildings are short: other players may want the {_item(s, d['item'])} too."
    if k == "shortage_answer":
        return f"{_seat(d['player'])} {'wants' if d['wants'] else 'does not want'} one."
    if k == "mortgaged":
        return f"{_seat(d['player'])} mortgages {sq[d['square']]} for {m(d['amount'])}."
    if k == "unmortgaged":
        return f"{_seat(d['player'])} lifts the mortgage on {sq[d['square']]} for {m(d['amount'])}."
    if k == "mortgage_interest":
        return (
            f"{_seat(d['player'])} keeps {sq[d['square']]} mortgaged and owes "
            f"{m(d['amount'])} interest."
        )
    return None


def _dealing_text(s: MonopolyState, k: str, d: dict[str, Any]) -> str | None:
    """Trades, bankruptcy, Frozen II's elements and snowflake, turns and the end. (None: not an
    event of this topic.)"""
    sq = s.ed.square_names

    def m(amount: int) -> str:
        return _money(s, amount)

    if k == "trade_started":
        return f"{_seat(d['proposer'])} drafts an offer to {_seat(d['target'])}."
    if k == "trade_offer":
        sets = _sets_completed(s, d, "It would complete")
        return f"{_seat(d['proposer'])} offers {_seat(d['target'])} a trade: {_offer(s, d)}.{sets}"
    if k == "trade_done":
        sets = _sets_completed(s, d, "It completes")
        return f"{_seat(d['proposer'])} and {_seat(d['target'])} trade: {_offer(s, d)}.{sets}"
    if k == "trade_rejected":
        return f"{_seat(d['target'])} rejects the offer."
    if k == "trade_cancelled":
        return f"{_seat(d['proposer'])} withdraws the offer."
    if k == "trade_countered":
        return f"{_seat(d['proposer'])} makes a counter-offer."
    if k == "bankrupt":
        return f"{_seat(d['player'])} is bankrupt to {_seat(d['creditor'])}."
    if k == "cannot_buy":
        return f"{_seat(d['player'])} cannot buy {sq[d['square']]}: it stays unsold."
    if k == "forgiven":
        if d["creditor"] == BANK:
            return f"{_seat(d['player'])} cannot pay {m(d['amount'])}: the bank lets it go."
        return (
            f"{_seat(d['player'])} cannot pay {m(d['amount'])} to {_seat(d['creditor'])} and "
            "says something nice about them instead."
        )
    if k == "sings":
        return (
            f"{_seat(d['player'])} cannot pay and has no card, sings a favourite song and leaves "
            f"{s.ed.names.jail} for free."
        )
    if k == "element":
        return f"{sq[d['square']]}: {_seat(d['player'])} travels on to {sq[d['to']]}."
    if k == "snowflake_placed":
        return f"{_seat(d['player'])} puts the snowflake on {sq[d['square']]}."
    if k == "snowflake_no_scene":
        return f"{_seat(d['player'])} owns no scene to put the snowflake on."
    if k == "snowflake_melts":
        return f"The snowflake on {sq[d['square']]} melts: double rent."
    if k == "snowflake_returned":
        return (
            f"{sq[d['square']]} changes hands: the snowflake on it goes back in the box "
            "without melting."
        )
    if k == "turn":
        return f"Turn {d['turn']}: {_seat(d['player'])}."
    if k == "game_over":
        return f"Game over ({d['reason'].replace('_', ' ')})."
    return None


def card_effect(s: MonopolyState, card: Card) -> str:
    """What a card that moves money does, with its amounts ("collect $50", "pay $25 per
    house and $100 per hotel"), or "" for a card that moves no money (issue 38: a card that
    pays says how much, whatever its printed text says: the classic deck's "Bank pays
    dividend" names no amount; the themed decks' texts do)."""
    a, b = card.a, card.b
    names = s.ed.names
    if card.op == OP_BANK_PAYS:
        return f"collect {_money(s, a)}"
    if card.op == OP_PAY_BANK:
        return f"pay {_money(s, a)}"
    if card.op == OP_PAY_EACH_PLAYER:
        return f"pay each player {_money(s, a)}"
    if card.op == OP_COLLECT_FROM_EACH_PLAYER:
        return f"collect {_money(s, a)} from each player"
    if card.op == OP_REPAIRS:
        return f"pay {_money(s, a)} per {names.house} and {_money(s, b)} per {names.hotel}"
    return ""


def _says_amounts(s: MonopolyState, card: Card, text: str) -> bool:
    """Whether a card's printed text already names every amount it moves."""
    amounts = [card.a, card.b] if card.op == OP_REPAIRS else [card.a]
    return all(re.search(rf"{re.escape(_money(s, x))}(?!\d)", text) for x in amounts)


def _jail_card(s: MonopolyState, j: int) -> str:
    """The name of the deck jail card ``j`` comes from (the card itself is named by the
    edition: ``names.jail_card``, ``names.jail_card_short``)."""
    return s.ed.decks[s.ed.jail_cards[j][0]].name


def _item(s: MonopolyState, item: int) -> str:
    return {HOUSE: s.ed.names.house, HOTEL: s.ed.names.hotel}.get(item, "deed")


def _offer(s: MonopolyState, d: dict[str, object]) -> str:
    """Who gives what in a trade: "Player 1 gives Park Place and $50; Player 2 gives
    Boardwalk" (rules/trade.py records each side's deeds and cards in the event)."""
    p, q = d["proposer"], d["target"]
    assert isinstance(p, int) and isinstance(q, int)

    def side(deeds_key: str, cards_key: str, cash: int) -> str:
        deeds, cards = d.get(deeds_key) or [], d.get(cards_key) or []
        assert isinstance(deeds, list) and isinstance(cards, list)
        items = [s.ed.square_names[x] for x in deeds]
        items += [f"a {_jail_card(s, x)} {s.ed.names.jail_card_short}" for x in cards]
        if cash > 0:
            items.append(_money(s, cash))
        if not items:
            return "nothing"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    cash = d.get("cash") or 0
    assert isinstance(cash, int)
    mine = side("proposer_gives", "proposer_cards", cash)
    theirs = side("target_gives", "target_cards", -cash)
    return f"{_seat(p)} gives {mine}; {_seat(q)} gives {theirs}"


def _sets_completed(s: MonopolyState, d: dict[str, object], says: str) -> str:
    """The colour sets a trade gives each side the whole of, as a sentence after the trade's
    words (" It would complete Player 2's Dark Blue set."), or "" (issue 38: an offer says
    that it completes the offerer's set). Read off the board before or after the deeds change
    hands alike: a deed counts as the side's when it receives it, or holds it and does not
    give it."""
    ed, owner = s.ed, s.owner
    sets: list[str] = []
    for who, gets_key, gives_key in (
        (d["proposer"], "target_gives", "proposer_gives"),
        (d["target"], "proposer_gives", "target_gives"),
    ):
        gets, gives = d.get(gets_key) or [], d.get(gives_key) or []
        assert isinstance(who, int) and isinstance(gets, list) and isinstance(gives, list)
        done: list[int] = []
        for sq in gets:
            g = ed.group_of[sq]
            if ed.kind[sq] != STREET or g in done:
                continue
            members = ed.groups[g].members
            if all(m in gets or (owner[m] == who and m not in gives) for m in members):
                done.append(g)
                sets.append(f"{_seat(who)}'s {ed.groups[g].name} set")
    return f" {says} {' and '.join(sets)}." if sets else ""


def describe_action(s: MonopolyState, a: Action) -> str:
    """A legal action in words, for menus."""
    sq = s.ed.square_names
    x = a.args[0] if a.args else 0
    k = a.kind
    texts = {
        A.ROLL: "Roll the dice",
        A.PAY_FINE: f"Pay {_money(s, s.rules.jail_fine)} to leave",
        A.END_TURN: "End the turn",
        A.PASS: "Pass",
        A.BUY: "Buy",
        A.DECLINE: "Auction it",
        A.PROPOSE: "Propose the offer",
        A.CANCEL: "Cancel the offer",
        A.ACCEPT: "Accept",
        A.REJECT: "Reject",
        A.COUNTER: "Counter-offer",
        A.BANKRUPT: "Declare bankruptcy",
        A.WANT_BUILDING: "I want one too",
        A.NO_BUILDING: "I don't want one",
    }
    if k in texts:
        return texts[k]
    if k == A.USE_CARD:
        return f"Use the {_jail_card(s, x)} {s.ed.names.jail_card} card"
    if k == A.BID:
        return f"Bid {_money(s, x)}"
    if k in (A.BUILD, A.PLACE_BUILDING):
        return f"Build on {sq[x]}"
    if k == A.SELL_BUILDING:
        return f"Sell a building on {sq[x]}"
    if k == A.SELL_GROUP:
        return f"Sell every building of {s.ed.groups[x].name}"
    if k == A.MORTGAGE:
        return f"Mortgage {sq[x]} (+{_money(s, s.ed.mortgage[x])})"
    if k == A.UNMORTGAGE:
        return f"Lift the mortgage on {sq[x]} ({_money(s, s.ed.unmortgage_cost[x])})"
    if k == A.TRADE:
        return f"Make an offer to {_seat(x)}"
    if k == A.CLAIM_RENT:
        c = s.claims[x]
        return f"Claim {_money(s, c[2])} rent from {_seat(c[1])}"
    if k == A.TRADE_DEED:
        return f"Add or remove {sq[x]}"
    if k == A.TRADE_CARD:
        return f"Add or remove the {_jail_card(s, x)} {s.ed.names.jail_card_short}"
    if k == A.TRADE_CASH:
        return f"Set cash to {_money(s, x)} (positive: you pay)"
    if k == A.LIFT_MORTGAGE:
        return f"Lift the mortgage on {sq[x]} now ({_money(s, s.ed.unmortgage_cost[x])})"
    if k == A.KEEP_MORTGAGE:
        return f"Keep {sq[x]} mortgaged, paying {_money(s, s.ed.interest[x])} interest"
    return str(a)
