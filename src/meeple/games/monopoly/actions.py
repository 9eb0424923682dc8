"""The action kinds of the Monopoly family, with their arguments.

Every action is a :class:`~meeple.kernel.protocol.Action` whose text form is what players,
logs and save files see (``"roll"``, ``"bid 120"``, ``"build 39"``). ``docs/ACTIONS.md`` lists
when each is offered.
"""

from __future__ import annotations

from meeple.kernel.protocol import Action

# The turn.
ROLL = "roll"  # roll the dice (also the jail attempt at doubles)
PAY_FINE = "pay_fine"  # leave jail by paying the fine before rolling
USE_CARD = "use_card"  # CARD: leave jail with Get Out of Jail Free card CARD (Edition.jail_cards)
END_TURN = "end_turn"  # the player on turn is done
PASS = "pass"  # a window: done; an auction: drop out

# Buying and auctions.
BUY = "buy"
DECLINE = "decline"
BID = "bid"  # AMOUNT

# Any-time management (build, sell, mortgage, trade, claim rent).
BUILD = "build"  # SQUARE
SELL_BUILDING = "sell_building"  # SQUARE
SELL_GROUP = "sell_group"  # GROUP: every building of a group (only when no single sale is legal)
MORTGAGE = "mortgage"  # SQUARE
UNMORTGAGE = "unmortgage"  # SQUARE
TRADE = "trade"  # SEAT: start an offer to that seat
CLAIM_RENT = "claim_rent"  # INDEX into the pending claims

# Building a trade offer, and answering it.
TRADE_DEED = "trade_deed"  # SQUARE: add/remove a deed of either side
TRADE_CARD = "trade_card"  # CARD: add/remove Get Out of Jail Free card CARD of either side
TRADE_CASH = "trade_cash"  # AMOUNT: > 0 proposer pays, < 0 recipient pays
PROPOSE = "propose"
CANCEL = "cancel"
ACCEPT = "accept"
REJECT = "reject"
COUNTER = "counter"

# Debts.
BANKRUPT = "bankrupt"
LIFT_MORTGAGE = "lift_mortgage"  # SQUARE: a mortgaged deed just received, unmortgaged now
KEEP_MORTGAGE = "keep_mortgage"  # SQUARE: ... kept mortgaged, paying the interest now

# Building shortage.
WANT_BUILDING = "want_building"
NO_BUILDING = "no_building"
PLACE_BUILDING = "place_building"  # SQUARE

# The snowflake token (Frozen II).
PLACE_SNOWFLAKE = "place_snowflake"  # SQUARE

A_ROLL = Action(ROLL)
A_PAY_FINE = Action(PAY_FINE)
A_END_TURN = Action(END_TURN)
A_PASS = Action(PASS)
A_BUY = Action(BUY)
A_DECLINE = Action(DECLINE)
A_PROPOSE = Action(PROPOSE)
A_CANCEL = Action(CANCEL)
A_ACCEPT = Action(ACCEPT)
A_REJECT = Action(REJECT)
A_COUNTER = Action(COUNTER)
A_BANKRUPT = Action(BANKRUPT)
A_WANT = Action(WANT_BUILDING)
A_NO = Action(NO_BUILDING)

ALL_KINDS = (
    ROLL,
    PAY_FINE,
    USE_CARD,
    END_TURN,
    PASS,
    BUY,
    DECLINE,
    BID,
    BUILD,
    SELL_BUILDING,
    SELL_GROUP,
    MORTGAGE,
    UNMORTGAGE,
    TRADE,
    CLAIM_RENT,
    TRADE_DEED,
    TRADE_CARD,
    TRADE_CASH,
    PROPOSE,
    CANCEL,
    ACCEPT,
    REJECT,
    COUNTER,
    BANKRUPT,
    LIFT_MORTGAGE,
    KEEP_MORTGAGE,
    WANT_BUILDING,
    NO_BUILDING,
    PLACE_BUILDING,
    PLACE_SNOWFLAKE,
)

# Offsets above the smallest legal bid that legal_actions lists (any amount in range is legal).
BID_LADDER = (0, 4, 9, 24, 49, 99, 199, 499)
# Changes one draft of a trade offer may make before it must be proposed or cancelled.
MAX_DRAFT_EDITS = 12
# Cash amounts listed while building a trade offer (any amount in range is legal).
CASH_LADDER = (0, 10, 25, 50, 100, 200, 500, 1000)
