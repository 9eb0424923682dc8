"""What a seat sees of a Monopoly-family game: the table, and its own choices.

Views are what the web page, the terminal and API clients read, so they hold nothing a seat
may not know (docs/KERNEL.md: `view(seat)` never shows the deck order or the random state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.games.monopoly.rules import money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def views(
    s: MonopolyState, seats: Sequence[int | None], legal_actions: bool = True
) -> list[dict[str, Any]]:
    """The state as each of ``seats`` may see it (``MonopolyState.view``).

    Deck order and the random state are never included (only deck sizes); an offer still
    being drafted is shown to its proposer only (``Frame.seen_by``); legal actions only to the
    decider, and to nobody with ``legal_actions=False`` (the RL observation, which has the
    action mask instead: their text is half the cost of the decider's view)."""
    # The table is made once and shared: only the seat, an offer being drafted and the
    # decider's legal actions differ from one seat's view to another's.
    ed = s.ed
    decider = s.current_player()
    top = s.stack[-1] if s.stack else None
    phase, decision = s.PHASE_NAMES[s.phase], s.decision_name()
    dice = list(s.dice)
    players = [
        {
            "seat": p,
            "cash": s.cash[p],
            "position": s.pos[p],
            "in_jail": s.in_jail[p],
            "jail_turns": s.jail_turns[p],
            "alive": s.alive[p],
            "jail_cards": [d for d, h in enumerate(s.card_holder) if h == p],
            "net_worth": money.net_worth(s, p),
        }
        for p in range(s.n)
    ]
    names, owner, level, mortgaged = ed.square_names, s.owner, s.level, s.mortgaged
    squares = [
        {
            "index": sq,
            "name": names[sq],
            "owner": owner[sq],
            "level": level[sq],
            "mortgaged": mortgaged[sq],
        }
        for sq in range(ed.size)
    ]
    bank = {"houses": s.houses, "hotels": s.hotels}
    if s.rules.free_parking_money:  # the money waiting on Free Parking (a house rule)
        bank["pot"] = s.pot
    decks = [
        {"id": d.id, "name": d.name, "cards_left": len(s.decks[i])} for i, d in enumerate(ed.decks)
    ]
    claims = [{"owner": c[0], "payer": c[1], "amount": c[2], "square": c[4]} for c in s.claims]
    assumed = list(ed.assumed)
    out: list[dict[str, Any]] = []
    for seat in seats:
        frame = None if top is None else top.seen_by(seat)
        legal: list[str] = []
        if legal_actions and seat is not None and seat == decider:
            legal = [str(a) for a in s.legal_actions()]
        out.append(
            {
                "game": ed.id,
                "edition": ed.name,
                "seat": seat,
                "turn": s.turn,
                "turn_no": s.turn_no,
                "phase": phase,
                "decision": decision,
                "decider": decider,
                "frame": frame,
                "dice": dice,
                "doubles": s.doubles,
                "players": players,
                "squares": squares,
                "bank": bank,
                "decks": decks,
                "claims": claims,
                "over": s.over,
                "end_reason": s.end_reason,
                "snowflake": s.snowflake,
                "assumed": assumed,
                "legal_actions": legal,
            }
        )
    return out
