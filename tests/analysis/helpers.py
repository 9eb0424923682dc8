"""Playing real engine games to count where rolls end, and checking counts against a chain.

The games use the engine through the kernel protocol (:func:`meeple.kernel.family.new_game`)
with a policy that only ever rolls, ends the turn, passes and declines to buy; in jail it pays
(``short``) or rolls for doubles (``long``), and it never plays a Get Out of Jail Free card.
Buying, auctions and trades do not move anyone, so rule options that switch them off
(``auctions``, ``trading``, ``must_buy``) change no movement and only make the run faster; a
billion in starting cash keeps everyone solvent, and a huge ``max_turns`` keeps the game going.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import Edition
from meeple.kernel.family import new_game

_PLAIN = {A.ROLL, A.END_TURN, A.PASS, A.DECLINE}

# The check: every category's z (replicate games' mean against the chain, with the standard
# error estimated from the spread between games, so the dependence between rolls within a game
# is accounted for) within MAX_Z, and the sum of z^2 at most CHI2_PER_DOF times its degrees of
# freedom. With 16 replicate games each z^2 is about F(1, 15): mean 1.15, so a chain that is
# right gives a ratio near 1.2; a chain that is off by one card in sixteen in one deck gives
# about 2.5 (docs/ANALYSIS.md).
MAX_Z = 5.0
CHI2_PER_DOF = 2.0


def rolls_by_game(
    game_id: str,
    jail: str,
    games: int,
    rolls: int,
    burn_in: int,
    seed: int,
    players: int = 4,
    edition: Edition | None = None,
) -> list[list[int]]:
    """Per game: how many of ``rolls`` rolls (after ``burn_in``) ended on each square, then in
    jail (:attr:`MonopolyState.landings`)."""
    out = []
    for g in range(games):
        options: dict[str, Any] = {
            "rules": {
                "starting_cash": 10**9,
                "auctions": False,
                "trading": False,
                "must_buy": False,
            },
            "max_turns": 10**9,
        }
        if edition is not None:
            options["edition"] = edition.model.model_dump(mode="json", exclude_none=True)
        s = new_game(game_id, players, seed + g, options)
        assert isinstance(s, MonopolyState)
        s.record_events = False
        done = 0
        base: list[int] = []
        while done < burn_in + rolls:
            if done == burn_in and not base:
                base = list(s.landings)
            action = _choose(s, jail)
            if action.kind == A.ROLL:
                done += 1
            s.apply(action)
        assert not s.over
        out.append([x - y for x, y in zip(s.landings, base, strict=True)])
    return out


def _choose(s: MonopolyState, jail: str) -> Any:
    legal = s.legal_actions()
    if s.phase == s.JAIL and not s.stack:
        kinds = {a.kind: a for a in legal}
        order = (A.PAY_FINE, A.ROLL) if jail == "short" else (A.ROLL, A.PAY_FINE)
        return next(kinds[k] for k in order if k in kinds)
    return next(a for a in legal if a.kind in _PLAIN)


def z_scores(counts: Sequence[Sequence[int]], probs: Sequence[Fraction]) -> list[float]:
    """Per category: (mean share over the games - chain probability) / standard error."""
    g = len(counts)
    out = []
    for k, p in enumerate(probs):
        shares = [c[k] / sum(c) for c in counts]
        mean = sum(shares) / g
        sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (g - 1))
        if sd == 0:
            out.append(0.0 if mean == p else math.inf)
        else:
            out.append((mean - float(p)) / (sd / math.sqrt(g)))
    return out


def agrees(counts: Sequence[Sequence[int]], probs: Sequence[Fraction]) -> tuple[bool, str]:
    """The check (see :data:`MAX_Z`), and a line saying how it went."""
    z = z_scores(counts, probs)
    dof = sum(1 for p in probs if p > 0) - 1
    chi2 = sum(x * x for x in z)
    worst = max(range(len(z)), key=lambda k: abs(z[k]))
    ok = abs(z[worst]) <= MAX_Z and chi2 <= CHI2_PER_DOF * dof
    return ok, f"max |z| {abs(z[worst]):.2f} (category {worst}), sum z^2 {chi2:.1f} on {dof} dof"


def without_card_moves(ed: Edition) -> Edition:
    """``ed`` with every card made a no-move card: a deliberately wrong chain for classic."""
    return _edit_cards(ed, lambda c: True)


def jail_cards_as_no_moves(ed: Edition) -> Edition:
    """``ed`` with each Get Out of Jail Free card made a card that pays nothing: the deck then
    holds it at all times, as the chain assumes by default."""
    return _edit_cards(ed, lambda c: c["op"] == "get_out_of_jail_free")


def _edit_cards(ed: Edition, which: Any) -> Edition:
    from meeple.games.monopoly.edition import parse_edition

    data = ed.model.model_dump(mode="json", exclude_none=True)
    for deck in data["decks"]:
        cards = []
        for c in deck["cards"]:
            if which(c):
                c = {"id": c["id"], "text": c["text"], "op": "bank_pays", "amount": 0}
            cards.append(c)
        deck["cards"] = cards
    return parse_edition(data, ed.source)
