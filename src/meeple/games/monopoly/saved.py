"""The state as data: the snapshot a save file holds, and loading one back.

A snapshot is everything that determines the game from here, including the random state and
the decks' order (so it is never shown to a player: views are ``view.py``'s). Frames are
written by their own ``to_dict`` and read back by their class's ``from_dict``, found by the
frame's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from meeple.games.monopoly.frames import Frame
from meeple.games.monopoly.kept import STAMPS
from meeple.games.monopoly.rules import (
    auction,
    bankruptcy,
    buying,
    mortgage,
    shortage,
    snowflake,
    trade,
)
from meeple.kernel.arrays import copy_array, int_array

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

# Each kind of frame by its name in a snapshot (``Frame.name``), and how to read it back.
FRAME_READERS: Final = {
    "buy": buying.BuyFrame.from_dict,
    "auction": auction.AuctionFrame.from_dict,
    "debt": bankruptcy.DebtFrame.from_dict,
    "trade": trade.TradeFrame.from_dict,
    "mortgage_fee": mortgage.MortgageFeeFrame.from_dict,
    "shortage": shortage.ShortageFrame.from_dict,
    "place": shortage.PlaceFrame.from_dict,
    "snowflake": snowflake.SnowflakeFrame.from_dict,
}


def read_frame(d: dict[str, Any]) -> Frame:
    """Rebuild a frame from ``Frame.to_dict`` output (save files)."""
    read = FRAME_READERS.get(d["frame"])
    if read is None:
        raise ValueError(f"unknown frame {d['frame']!r}")
    return read(d)


def snapshot(s: MonopolyState) -> dict[str, Any]:
    snap = _snapshot(s)
    if s.dice_script:  # only then, so the save files of other games stay as they were
        snap["dice_script"] = list(s.dice_script)
    if s.rules.free_parking_money:  # the same: only games with the house rule have a pot
        snap["pot"] = s.pot
    return snap


def _snapshot(s: MonopolyState) -> dict[str, Any]:
    return {
        "rng": s.rng.state,
        "cash": list(s.cash),
        "pos": list(s.pos),
        "in_jail": list(s.in_jail),
        "jail_turns": list(s.jail_turns),
        "alive": list(s.alive),
        "offers": list(s.offers),
        "owner": list(s.owner),
        "level": list(s.level),
        "mortgaged": list(s.mortgaged),
        "landings": list(s.landings),
        "houses": s.houses,
        "hotels": s.hotels,
        "decks": [list(d) for d in s.decks],
        "card_holder": list(s.card_holder),
        "turn": s.turn,
        "turn_no": s.turn_no,
        "phase": s.PHASE_NAMES[s.phase],
        "doubles": s.doubles,
        "dice": list(s.dice),
        "window": s.window[s.window_next :],
        "stack": [f.to_dict() for f in s.stack],
        "claims": [list(c) for c in s.claims],
        "eliminated": list(s.eliminated),
        "over": s.over,
        "end_reason": s.end_reason,
        "bank_in": s.bank_in,
        "bank_out": s.bank_out,
        "snowflake": s.snowflake,
        "bankrupt_seat": s.bankrupt_seat,
    }


def restore(s: MonopolyState, snap: dict[str, Any]) -> None:
    """Load a :meth:`snapshot` into this state (same edition and seats). ``KeyError`` or
    ``ValueError`` on malformed data; the caller turns them into a save-file error."""
    n, size = s.n, s.ed.size

    def ints(key: str, length: int) -> list[int]:
        v = snap[key]
        if not isinstance(v, list) or len(v) != length or not all(isinstance(x, int) for x in v):
            raise ValueError(f"{key} must be a list of {length} integers")
        return [int(x) for x in v]

    s.rng.state = int(snap["rng"])
    s.cash, s.pos = ints("cash", n), int_array(ints("pos", n))
    s.in_jail = [bool(x) for x in ints("in_jail", n)]
    s.jail_turns, s.offers = ints("jail_turns", n), int_array(ints("offers", n))
    s.alive = [bool(x) for x in ints("alive", n)]
    s.owner, s.level = int_array(ints("owner", size)), int_array(ints("level", size))
    s.mortgaged = [bool(x) for x in ints("mortgaged", size)]
    s.landings = int_array(ints("landings", size + 1))
    s.houses, s.hotels = int(snap["houses"]), int(snap["hotels"])
    s.decks = [[int(x) for x in d] for d in snap["decks"]]
    if len(s.decks) != len(s.ed.decks):
        raise ValueError("decks: wrong number of decks for this edition")
    s.card_holder = ints("card_holder", len(s.ed.jail_cards))
    s.turn, s.turn_no = int(snap["turn"]), int(snap["turn_no"])
    s.first_player, s.start_rolls = -1, []  # set up by the snapshot, not by a roll-off
    s.round_no, s.round_seats = 1, 0  # rounds are counted from here (MonopolyState.round_no)
    s.phase = s.PHASE_NAMES.index(snap["phase"])
    s.doubles = int(snap["doubles"])
    d = snap["dice"]
    s.dice = (int(d[0]), int(d[1]))
    s.window = [int(x) for x in snap["window"]]
    s.window_next = 0
    s.stack = [read_frame(f) for f in snap["stack"]]
    s.claims = [[int(x) for x in c] for c in snap["claims"]]
    s.eliminated = [int(x) for x in snap["eliminated"]]
    s.over, s.end_reason = bool(snap["over"]), str(snap["end_reason"])
    s.bank_in, s.bank_out = int(snap["bank_in"]), int(snap["bank_out"])
    s.snowflake = int(snap["snowflake"])
    s.pot = int(snap.get("pot", 0))
    s.bankrupt_seat = int(snap["bankrupt_seat"])
    s.dice_script = [int(x) for x in snap.get("dice_script", [])]
    s.invalidate()


def copy_to(src: MonopolyState, c: MonopolyState) -> None:
    """Make ``c`` (a state of the same edition and seats) what a fresh clone of ``src`` is,
    in its own lists (``MonopolyState.clone`` and ``copy_into``;
    ``tests/monopoly/test_clone.py`` checks every attribute against a clone's)."""
    c._options, c.max_turns, c._seed = src._options, src.max_turns, src._seed
    c.rng.state = src.rng.state
    c.cash[:], c.pos = src.cash, copy_array(src.pos)
    c.in_jail[:], c.jail_turns[:] = src.in_jail, src.jail_turns
    c.alive[:], c.offers = src.alive, copy_array(src.offers)
    c.owner, c.level = copy_array(src.owner), copy_array(src.level)
    c.mortgaged[:] = src.mortgaged
    c.landings = copy_array(src.landings)
    c.houses, c.hotels = src.houses, src.hotels
    for mine, theirs in zip(c.decks, src.decks, strict=True):
        mine[:] = theirs
    c.card_holder[:] = src.card_holder
    c.turn, c.turn_no, c.phase = src.turn, src.turn_no, src.phase
    c.ruleset, c.first_player = src.ruleset, src.first_player
    c.start_rolls[:] = src.start_rolls
    c.round_no, c.round_seats = src.round_no, src.round_seats
    c.doubles, c.dice = src.doubles, src.dice
    c.dice_script[:] = src.dice_script
    c.window[:], c.window_next = src.window, src.window_next
    c.stack[:] = [f.copy() for f in src.stack]
    c.claims[:] = [list(x) for x in src.claims]
    c.eliminated[:] = src.eliminated
    c.over, c.end_reason = src.over, src.end_reason
    c.bank_in, c.bank_out, c.pot = src.bank_in, src.bank_out, src.pot
    c.snowflake, c.bankrupt_seat = src.snowflake, src.bankrupt_seat
    c._history, c._hlen = src._history, src._hlen  # shared: see _record
    c.record_history = src.record_history  # (a clone of a game without one has none either)
    c._events = None
    c.record_events = src.record_events
    c._legal = None
    # Same board, same stamp: what is kept by stamp stays valid until either copy changes
    # the board; what is kept along the log of changes starts again with the new log.
    c.board_stamp = src.board_stamp
    c.kept.copy_from(src.kept)
    c.changes.clear()
    c.changes_id = STAMPS.next()
