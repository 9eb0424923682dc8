"""Why the standard bot did what it did, in a short sentence (issue 20, "Bots that explain
themselves"): "buys Park Place: completes the Dark Blue set", "bids up to $220: what the deed
is worth to it".

Asked only when someone wants to know (``Bot.explain``: the terminal's ``why``, the web page's
bot reasons), never while choosing, so simulations pay nothing for it. The words come from the
same valuations the bot chose by (``StandardBot.reserve``, ``deed_value``, ``fair``), read on
the position it chose in; reading them changes none of the bot's later choices (they depend on
the position alone). Not compiled: words are not the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.bankruptcy import DebtFrame
from meeple.games.monopoly.rules.trade import TradeFrame
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.bots import StandardBot
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


def why(bot: StandardBot, s: MonopolyState, action: Action) -> str:
    """Why ``bot``, deciding for ``s.current_player()`` in ``s``, chose ``action`` ("" when
    there is nothing to say: a roll, a pass with nothing worth doing)."""
    me = s.current_player()
    kind = action.kind
    top = s.stack[-1] if s.stack else None
    reserve = bot.reserve(s, me)
    if kind == A.BUY or kind == A.DECLINE:
        return buying(bot, s, action, top, reserve)
    if isinstance(top, AuctionFrame):
        return bidding(bot, s, action, top)
    if isinstance(top, DebtFrame):
        return paying(s, action, top)
    if isinstance(top, TradeFrame):
        return trading(bot, s, action, top)
    if bot.stalled:  # (StandardBot.force_progress: the moves that end a stalemate)
        said = stalled(bot, s, action)
        if said:
            return said
    return managing(s, action, reserve)


def group_name(s: MonopolyState, sq: int) -> str:
    """The name of ``sq``'s group."""
    ed = s.ed
    return ed.groups[ed.group_of[sq]].name


def buying(bot: StandardBot, s: MonopolyState, action: Action, top: object, reserve: int) -> str:
    """Why ``bot`` bought the deed offered (``top``, a buying frame) or let it go to auction."""
    me, ed, cur = s.current_player(), s.ed, s.ed.currency
    arg = action.args[0] if action.args else 0
    if action.kind == A.BUY:
        sq = top.square if top is not None else arg  # type: ignore[attr-defined]
        if bot.completes_set_for(s, me, sq, [sq]):
            return f"buys {ed.square_names[sq]}: it completes the {group_name(s, sq)} set"
        return (
            f"buys {ed.square_names[sq]}: {cur}{s.cash[me] - ed.price[sq]} left, above the "
            f"{cur}{reserve} it keeps for rent"
        )
    sq = top.square if top is not None else 0  # type: ignore[attr-defined]
    return (
        f"lets {ed.square_names[sq]} go to auction: buying it would leave less than the "
        f"{cur}{reserve} it keeps for rent"
    )


def bidding(bot: StandardBot, s: MonopolyState, action: Action, top: AuctionFrame) -> str:
    """Why ``bot`` bid as it did in the auction ``top``, or dropped out."""
    ed, cur = s.ed, s.ed.currency
    if top.item != DEED:
        return "bids for a building: worth up to one and a half times its price to it"
    value = bot.deed_value(s, s.current_player(), top.square)
    if action.kind == A.BID:
        arg = action.args[0] if action.args else 0
        return f"bids {cur}{arg}: {ed.square_names[top.square]} is worth {cur}{value:.0f} to it"
    return (
        f"drops out: {ed.square_names[top.square]} is worth {cur}{value:.0f} to it, or it "
        f"must keep cash for rent"
    )


def paying(s: MonopolyState, action: Action, top: DebtFrame) -> str:
    """How the bot raises the money it owes (``top``, a debt frame)."""
    ed, kind = s.ed, action.kind
    arg = action.args[0] if action.args else 0
    owed = f"{ed.currency}{top.amount}"
    if kind == A.MORTGAGE:
        return f"mortgages {ed.square_names[arg]} to pay {owed}: the deed it misses least"
    if kind == A.SELL_BUILDING:
        return f"sells a building on {ed.square_names[arg]} to pay {owed}"
    if kind == A.BANKRUPT:
        return f"goes bankrupt: selling and mortgaging everything would not pay {owed}"
    return ""


def trading(bot: StandardBot, s: MonopolyState, action: Action, top: TradeFrame) -> str:
    """Why ``bot`` answered the offer ``top`` as it did, or what the offer it made is for."""
    me, ed, kind = s.current_player(), s.ed, action.kind
    if kind == A.ACCEPT:
        return "accepts: what it gets is worth at least what it gives"
    if kind == A.REJECT:
        if not bot.fair(s, me, top):
            return "refuses: it would give more than it gets, or hand over a set"
        return "refuses"
    if kind == A.PROPOSE:
        wanted = [sq for sq in top.deeds if s.owner[sq] != me]
        sets = {group_name(s, sq) for sq in wanted if ed.kind[sq] == STREET}
        if sets:
            return f"offers a trade for the {', '.join(sorted(sets))} set"
        return "offers a trade"
    return ""


def managing(s: MonopolyState, action: Action, reserve: int) -> str:
    """Why the bot built, lifted a mortgage, opened a trade, left or stayed in jail, or
    answered a mortgage fee or a building shortage as it did (its normal play)."""
    me, ed, cur, kind = s.current_player(), s.ed, s.ed.currency, action.kind
    arg = action.args[0] if action.args else 0
    if kind == A.BUILD:
        return (
            f"builds on {ed.square_names[arg]}: {cur}{s.cash[me]} in cash, above the "
            f"{cur}{reserve} it keeps for rent"
        )
    if kind == A.UNMORTGAGE:
        return f"lifts the mortgage on {ed.square_names[arg]}: it has cash to spare"
    if kind == A.TRADE:
        return f"opens a trade with Player {arg + 1} to complete a set"
    if kind == A.PAY_FINE or kind == A.USE_CARD:
        return "leaves jail at once: there are still deeds to buy"
    if kind == A.ROLL and s.phase == s.JAIL:
        return "stays in jail if it can: most deeds are owned, and the others pay rent meanwhile"
    if kind == A.LIFT_MORTGAGE:
        return "lifts the mortgage now: it has the cash"
    if kind == A.KEEP_MORTGAGE:
        return "keeps the mortgage and pays the interest: lifting would leave too little cash"
    if kind == A.WANT_BUILDING:
        return "wants one of the few buildings left: it can pay and keep its reserve"
    if kind == A.NO_BUILDING:
        return "leaves the last buildings to others: it must keep cash for rent"
    return ""


def stalled(bot: StandardBot, s: MonopolyState, action: Action) -> str:
    """Why ``bot`` made a move that ends a stalemate (``StandardBot.force_progress``), or ""
    for a move of its normal play."""
    ed, kind = s.ed, action.kind
    arg = action.args[0] if action.args else 0
    rounds = f"nothing has moved for {bot.p.stall_rounds} rounds"
    if kind == A.SELL_BUILDING and not s.stack:  # (outside a debt only this sells)
        return (
            f"sells a house on {ed.square_names[arg]}: {rounds}, so it moves houses onto one "
            f"set for hotels, which give houses back to the bank"
        )
    if kind == A.BUILD and s.level[arg] == 4:
        return f"builds a hotel on {ed.square_names[arg]}: {rounds}, and it gives four houses back"
    if kind == A.BUILD and ed.group_of[arg] == bot.focus_group(s, s.current_player()):
        group = ed.groups[ed.group_of[arg]].name
        return f"builds on {ed.square_names[arg]}: {rounds}, so it brings the {group} set to hotels"
    if kind == A.NO_BUILDING:
        return f"leaves the house to the player who asked: {rounds}, and they are ending it"
    return ""
