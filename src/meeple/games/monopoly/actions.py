"""The action kinds of the Monopoly family, with their arguments.

Every action is a :class:`~meeple.kernel.protocol.Action` whose text form is what players,
logs and save files see (``"roll"``, ``"bid 120"``, ``"build 39"``). ``docs/ACTIONS.md`` lists
when each is offered.
"""

from __future__ import annotations

from typing import Final

from meeple.kernel.protocol import Action

# The turn.
ROLL: Final = "roll"  # roll the dice (also the jail attempt at doubles)
PAY_FINE: Final = "pay_fine"  # leave jail by paying the fine before rolling
USE_CARD: Final = (
    "use_card"  # CARD: leave jail with Get Out of Jail Free card CARD (Edition.jail_cards)
)
END_TURN: Final = "end_turn"  # the player on turn is done
PASS: Final = "pass"  # a window: done; an auction: drop out

# Buying and auctions.
BUY: Final = "buy"
DECLINE: Final = "decline"
BID: Final = "bid"  # AMOUNT

# Any-time management (build, sell, mortgage, trade, claim rent).
BUILD: Final = "build"  # SQUARE
SELL_BUILDING: Final = "sell_building"  # SQUARE
SELL_GROUP: Final = (
    "sell_group"  # GROUP: every building of a group (only when no single sale is legal)
)
MORTGAGE: Final = "mortgage"  # SQUARE
UNMORTGAGE: Final = "unmortgage"  # SQUARE
TRADE: Final = "trade"  # SEAT: start an offer to that seat
CLAIM_RENT: Final = "claim_rent"  # INDEX into the pending claims

# Building a trade offer, and answering it.
TRADE_DEED: Final = "trade_deed"  # SQUARE: add/remove a deed of either side
TRADE_CARD: Final = "trade_card"  # CARD: add/remove Get Out of Jail Free card CARD of either side
TRADE_CASH: Final = "trade_cash"  # AMOUNT: > 0 proposer pays, < 0 recipient pays
PROPOSE: Final = "propose"
CANCEL: Final = "cancel"
ACCEPT: Final = "accept"
REJECT: Final = "reject"
COUNTER: Final = "counter"

# Debts.
BANKRUPT: Final = "bankrupt"
LIFT_MORTGAGE: Final = "lift_mortgage"  # SQUARE: a mortgaged deed just received, unmortgaged now
KEEP_MORTGAGE: Final = "keep_mortgage"  # SQUARE: ... kept mortgaged, paying the interest now

# Building shortage.
WANT_BUILDING: Final = "want_building"
NO_BUILDING: Final = "no_building"
PLACE_BUILDING: Final = "place_building"  # SQUARE

# The snowflake token (Frozen II).
PLACE_SNOWFLAKE: Final = "place_snowflake"  # SQUARE

A_ROLL: Final = Action(ROLL)
A_PAY_FINE: Final = Action(PAY_FINE)
A_END_TURN: Final = Action(END_TURN)
A_PASS: Final = Action(PASS)
A_BUY: Final = Action(BUY)
A_DECLINE: Final = Action(DECLINE)
A_PROPOSE: Final = Action(PROPOSE)
A_CANCEL: Final = Action(CANCEL)
A_ACCEPT: Final = Action(ACCEPT)
A_REJECT: Final = Action(REJECT)
A_COUNTER: Final = Action(COUNTER)
A_BANKRUPT: Final = Action(BANKRUPT)
A_WANT: Final = Action(WANT_BUILDING)
A_NO: Final = Action(NO_BUILDING)

ALL_KINDS: Final = (
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

# The kinds that take one integer argument (every other kind takes none).
WITH_ARG: Final = frozenset(
    {
        USE_CARD,
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
        LIFT_MORTGAGE,
        KEEP_MORTGAGE,
        PLACE_BUILDING,
        PLACE_SNOWFLAKE,
    }
)

# Offsets above the smallest legal bid that legal_actions lists (any amount in range is legal).
BID_LADDER: Final = (0, 4, 9, 24, 49, 99, 199, 499)
# Changes one draft of a trade offer may make before it must be proposed or cancelled.
MAX_DRAFT_EDITS: Final = 12
# Cash amounts listed while building a trade offer (any amount in range is legal).
CASH_LADDER: Final = (0, 10, 25, 50, 100, 200, 500, 1000)
