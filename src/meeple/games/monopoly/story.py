"""A Monopoly game's story for its replay: net worth turn by turn, what each seat's worth is
made of, and the key moments (the largest rent, auction and trade, sets completed,
bankruptcies, the end). Served by ``meeple.server.history`` through ``GameFamily.story``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules import money
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.protocol import Action, Event
from meeple.kernel.story import moment, wins_text


def worth_of(s: MonopolyState, p: int) -> dict[str, Any]:
    """Seat ``p``'s net worth in parts that add up to it (rules/money.py ``net_worth``: cash,
    the printed price of unmortgaged deeds and the mortgage value of mortgaged ones, and the
    cost of buildings): deeds count at their printed price, and each mortgage takes off the
    difference between the price and the mortgage value."""
    ed = s.ed
    deeds = buildings = mortgages = 0
    count = mortgaged = houses = hotels = 0
    for sq in ed.properties:
        if s.owner[sq] != p:
            continue
        count += 1
        deeds += ed.price[sq]
        buildings += money.building_value(s, sq)
        level = s.level[sq]
        if level >= 5:
            hotels += 1
        else:
            houses += level
        if s.mortgaged[sq]:
            mortgaged += 1
            mortgages -= ed.price[sq] - ed.mortgage[sq]
    return {
        "seat": p,
        "net_worth": money.net_worth(s, p),
        "cash": s.cash[p],
        "deeds": deeds,
        "buildings": buildings,
        "mortgages": mortgages,
        "deed_count": count,
        "mortgaged_count": mortgaged,
        "houses": houses,
        "hotels": hotels,
        "jail_cards": sum(1 for h in s.card_holder if h == p),
        "alive": s.alive[p],
    }


def monopoly_story(s: MonopolyState, actions: Sequence[Action]) -> dict[str, Any]:
    ed = s.ed
    n = s.n
    points = [
        {"state_id": 0, "turn": s.turn_no, "values": [money.net_worth(s, p) for p in range(n)]}
    ]
    moments: list[dict[str, Any]] = []
    # The largest of a kind: (amount, state_id, turn, event, text); the first one wins a tie.
    best: dict[str, tuple[int, int, int, Event, str]] = {}
    has_set = [False] * n
    hotel = False
    deals = ("bought", "auction_won", "trade_done", "bankrupt")
    for i, a in enumerate(actions):
        turn = s.turn_no
        events = s.apply(a)
        sid = i + 1
        check_sets = False
        for e in events:
            k, d = e.kind, e.data
            if k == "rent" or (k == "auction_won" and d["item"] == DEED):
                if k not in best or d["amount"] > best[k][0]:
                    best[k] = (d["amount"], sid, turn, e, s.describe(e))
            elif k == "bankrupt":
                who = [d["player"]] + ([d["creditor"]] if d["creditor"] >= 0 else [])
                moments.append(moment(sid, turn, k, "Bankruptcy", s.describe(e), who))
            elif k == "built" and d["level"] == 5 and not hotel:
                hotel = True
                title = f"First {ed.names.hotel}"
                moments.append(
                    moment(sid, turn, "first_hotel", title, s.describe(e), [d["player"]])
                )
            elif k == "game_over":
                r = s.result()
                winners = [] if r is None else r.winners
                text = s.describe(e) + wins_text(winners)
                moments.append(moment(sid, turn, k, "Game over", text, winners))
            if k in deals:
                check_sets = True
        if check_sets:
            for p in range(n):
                if has_set[p] or not s.alive[p]:
                    continue
                for g in ed.street_groups:
                    if all(s.owner[m] == p for m in ed.groups[g].members):
                        has_set[p] = True
                        text = f"Player {p + 1} owns every deed of {ed.groups[g].name}."
                        moments.append(
                            moment(sid, turn, "first_set", "First colour set", text, [p])
                        )
                        break
        if s.turn_no != turn or s.over:
            values = [money.net_worth(s, p) for p in range(n)]
            points.append({"state_id": sid, "turn": s.turn_no, "values": values})
    titles = {"rent": "Largest rent", "auction_won": "Largest auction win"}
    for k, (amount, sid, turn, e, text) in best.items():
        d = e.data
        who = [d["payer"], d["owner"]] if k == "rent" else [d["player"]]
        moments.append(moment(sid, turn, k, titles[k], text, who, amount))
    moments.sort(key=lambda m: m["state_id"])
    return {
        "ranking_rule": s.rules.ranking,
        "series": {"measure": "net_worth", "unit": ed.currency, "points": points},
        "worth": [worth_of(s, p) for p in range(n)],
        "moments": moments,
    }
