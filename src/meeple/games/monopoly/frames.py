"""Decision frames: the sub-procedures that take over who decides until they are done.

The turn itself is a phase of the state (roll, jail choice, end of turn, the windows of the
other players); frames stack on top of it (DESIGN.md, "A stack of decision frames"): an
auction asks every bidder in turn, a debt asks the debtor, a trade offer asks its recipient.
A frame holds plain data only, so cloning a state copies it cheaply.
"""

from __future__ import annotations

from typing import Any, Final

BANK: Final = -1

# Kinds of thing sold at auction.
DEED: Final = 0
HOUSE: Final = 1
HOTEL: Final = 2
ITEM_NAMES: Final = ("deed", "house", "hotel")


class Frame:
    """Base class. ``decider`` is the seat that must act while this frame is on top."""

    __slots__ = ()
    name = "frame"

    def decider(self) -> int:
        raise NotImplementedError

    def copy(self) -> Frame:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


class BuyFrame(Frame):
    """A player on an unowned deed: buy it at the printed price or send it to auction."""

    __slots__ = ("player", "square")
    name = "buy"

    def __init__(self, player: int, square: int) -> None:
        self.player = player
        self.square = square

    def decider(self) -> int:
        return self.player

    def copy(self) -> BuyFrame:
        return BuyFrame(self.player, self.square)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "square": self.square}


class AuctionFrame(Frame):
    """An English auction: bidders in seat order raise or drop out until one bid stands.

    ``item`` is DEED (``square`` names it), HOUSE or HOTEL (a building-shortage auction).
    ``active`` lists the seats still in, in bidding order; ``turn`` indexes the one to act.
    """

    __slots__ = ("active", "high", "high_bidder", "item", "min_bid", "square", "turn")
    name = "auction"

    def __init__(
        self,
        item: int,
        square: int,
        active: list[int],
        min_bid: int,
        high: int = 0,
        high_bidder: int = -1,
        turn: int = 0,
    ) -> None:
        self.item = item
        self.square = square
        self.active = active
        self.min_bid = min_bid
        self.high = high
        self.high_bidder = high_bidder
        self.turn = turn

    def decider(self) -> int:
        return self.active[self.turn]

    def next_min(self) -> int:
        return self.high + 1 if self.high_bidder >= 0 else self.min_bid

    def copy(self) -> AuctionFrame:
        return AuctionFrame(
            self.item,
            self.square,
            list(self.active),
            self.min_bid,
            self.high,
            self.high_bidder,
            self.turn,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "item": self.item,
            "square": self.square,
            "active": list(self.active),
            "min_bid": self.min_bid,
            "high": self.high,
            "high_bidder": self.high_bidder,
            "turn": self.turn,
        }


class DebtFrame(Frame):
    """A debt the debtor cannot pay from cash: raise money or, if that cannot work, go bankrupt.

    ``creditor`` is a seat or BANK. ``then_move`` > 0 moves the debtor that many squares once
    paid (the third failed jail roll: pay the fine, then move).
    """

    __slots__ = ("amount", "creditor", "debtor", "then_move")
    name = "debt"

    def __init__(self, debtor: int, creditor: int, amount: int, then_move: int = 0) -> None:
        self.debtor = debtor
        self.creditor = creditor
        self.amount = amount
        self.then_move = then_move

    def decider(self) -> int:
        return self.debtor

    def copy(self) -> DebtFrame:
        return DebtFrame(self.debtor, self.creditor, self.amount, self.then_move)

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "debtor": self.debtor,
            "creditor": self.creditor,
            "amount": self.amount,
            "then_move": self.then_move,
        }


class TradeFrame(Frame):
    """A trade offer built one small choice at a time, then answered by its recipient.

    ``deeds`` and ``cards`` are the items changing hands (each goes to whoever does not own
    it); ``cash`` > 0 is paid by the proposer, < 0 by the recipient. ``responding`` is true
    once proposed. ``counters`` counts counter-offers made in this negotiation; ``edits`` the
    changes made to the draft (capped, so a draft always ends: docs/RULES.md, "Trades").
    """

    __slots__ = ("cards", "cash", "counters", "deeds", "edits", "proposer", "responding", "target")
    name = "trade"

    def __init__(
        self,
        proposer: int,
        target: int,
        deeds: list[int] | None = None,
        cards: list[int] | None = None,
        cash: int = 0,
        responding: bool = False,
        counters: int = 0,
        edits: int = 0,
    ) -> None:
        self.edits = edits
        self.proposer = proposer
        self.target = target
        self.deeds = deeds if deeds is not None else []
        self.cards = cards if cards is not None else []
        self.cash = cash
        self.responding = responding
        self.counters = counters

    def decider(self) -> int:
        return self.target if self.responding else self.proposer

    def copy(self) -> TradeFrame:
        return TradeFrame(
            self.proposer,
            self.target,
            list(self.deeds),
            list(self.cards),
            self.cash,
            self.responding,
            self.counters,
            self.edits,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "proposer": self.proposer,
            "target": self.target,
            "deeds": list(self.deeds),
            "cards": list(self.cards),
            "cash": self.cash,
            "responding": self.responding,
            "counters": self.counters,
            "edits": self.edits,
        }


class MortgageFeeFrame(Frame):
    """Mortgaged deeds just received (trade or bankruptcy): lift each now or pay the interest."""

    __slots__ = ("deeds", "player")
    name = "mortgage_fee"

    def __init__(self, player: int, deeds: list[int]) -> None:
        self.player = player
        self.deeds = deeds

    def decider(self) -> int:
        return self.player

    def copy(self) -> MortgageFeeFrame:
        return MortgageFeeFrame(self.player, list(self.deeds))

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "deeds": list(self.deeds)}


class ShortageFrame(Frame):
    """Buildings are short: each other player able to build says whether they want one.

    ``requester`` asked to build ``item`` (HOUSE or HOTEL) on ``square``; ``asking`` are the
    seats still to answer; ``wanting`` those who said yes.
    """

    __slots__ = ("asking", "item", "requester", "square", "wanting")
    name = "shortage"

    def __init__(
        self,
        item: int,
        requester: int,
        square: int,
        asking: list[int],
        wanting: list[int] | None = None,
    ) -> None:
        self.item = item
        self.requester = requester
        self.square = square
        self.asking = asking
        self.wanting = wanting if wanting is not None else []

    def decider(self) -> int:
        return self.asking[0]

    def copy(self) -> ShortageFrame:
        return ShortageFrame(
            self.item, self.requester, self.square, list(self.asking), list(self.wanting)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "item": self.item,
            "requester": self.requester,
            "square": self.square,
            "asking": list(self.asking),
            "wanting": list(self.wanting),
        }


class PlaceFrame(Frame):
    """The winner of a building auction places the building on a square where it is legal."""

    __slots__ = ("item", "paid", "player")
    name = "place"

    def __init__(self, player: int, item: int, paid: int) -> None:
        self.player = player
        self.item = item
        self.paid = paid

    def decider(self) -> int:
        return self.player

    def copy(self) -> PlaceFrame:
        return PlaceFrame(self.player, self.item, self.paid)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "item": self.item, "paid": self.paid}


class SnowflakeFrame(Frame):
    """A player places (or moves) the snowflake token on a scene they own (Frozen II)."""

    __slots__ = ("player",)
    name = "snowflake"

    def __init__(self, player: int) -> None:
        self.player = player

    def decider(self) -> int:
        return self.player

    def copy(self) -> SnowflakeFrame:
        return SnowflakeFrame(self.player)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player}


def frame_from_dict(d: dict[str, Any]) -> Frame:
    """Rebuild a frame from :meth:`Frame.to_dict` output (save files)."""
    kind = d["frame"]
    if kind == "buy":
        return BuyFrame(d["player"], d["square"])
    if kind == "auction":
        return AuctionFrame(
            d["item"],
            d["square"],
            list(d["active"]),
            d["min_bid"],
            d["high"],
            d["high_bidder"],
            d["turn"],
        )
    if kind == "debt":
        return DebtFrame(d["debtor"], d["creditor"], d["amount"], d["then_move"])
    if kind == "trade":
        return TradeFrame(
            d["proposer"],
            d["target"],
            list(d["deeds"]),
            list(d["cards"]),
            d["cash"],
            d["responding"],
            d["counters"],
            d["edits"],
        )
    if kind == "mortgage_fee":
        return MortgageFeeFrame(d["player"], list(d["deeds"]))
    if kind == "shortage":
        return ShortageFrame(
            d["item"], d["requester"], d["square"], list(d["asking"]), list(d["wanting"])
        )
    if kind == "place":
        return PlaceFrame(d["player"], d["item"], d["paid"])
    if kind == "snowflake":
        return SnowflakeFrame(d["player"])
    raise ValueError(f"unknown frame {kind!r}")
