"""Helpers for scenario tests: set up a position, script the dice, act, assert."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.games.monopoly.audit import audit, board_signature
from meeple.kernel.protocol import Action, Event
from meeple.kernel.rng import Rng


class ScriptedDice(Rng):
    """An Rng whose ``below(6)`` calls return scripted die faces (1-6), in order.

    Other draws (deck shuffles happen at setup, before scripting) fall through to a seeded
    stream, so a test scripts exactly the dice it cares about.
    """

    def __init__(self, faces: list[int]) -> None:
        super().__init__(12345)
        self.faces = list(faces)

    def below(self, n: int) -> int:
        if n == 6 and self.faces:
            return self.faces.pop(0) - 1
        return super().below(n)


def game(players: int = 4, seed: int = 1, **rules: Any) -> MonopolyState:
    """A fresh classic game with events recorded, Player 1 on turn (``start_player =
    "first_seat"``: scenarios script their own dice, and who starts is tested on its own in
    test_start.py); ``rules`` override rule options."""
    return new_monopoly("classic", players, seed, first_seat(rules=rules))


def first_seat(**options: Any) -> dict[str, Any]:
    """Game options with Player 1 starting (``start_player = "first_seat"``), beside any
    ``rules`` and other options given."""
    rules = {"start_player": "first_seat", **options.pop("rules", {})}
    return {**options, "rules": rules}


def dice(s: MonopolyState, *faces: int) -> None:
    """Script the next die faces: ``dice(s, 3, 4)`` makes the next roll a 3 and a 4."""
    s.rng = ScriptedDice(list(faces))


def own(s: MonopolyState, p: int, *squares: int, mortgaged: bool = False) -> None:
    for sq in squares:
        s.owner[sq] = p
        s.mortgaged[sq] = mortgaged
    s.invalidate()


def build_to(s: MonopolyState, levels: dict[int, int]) -> None:
    """Put buildings on squares straight from the bank's stock (level 5 = hotel)."""
    for sq, lvl in levels.items():
        old = s.level[sq]
        if old == 5:
            s.hotels += 1
        else:
            s.houses += old
        if lvl == 5:
            s.hotels -= 1
        else:
            s.houses -= lvl
        s.level[sq] = lvl
    s.invalidate()


def at(s: MonopolyState, p: int, sq: int) -> None:
    s.pos[p] = sq
    s.invalidate()


def cash(s: MonopolyState, p: int, amount: int) -> None:
    """Set a player's cash, keeping the money audit balanced (the bank pays or takes it)."""
    diff = amount - s.cash[p]
    if diff > 0:
        s.bank_out += diff
    else:
        s.bank_in -= diff
    s.cash[p] = amount
    s.invalidate()


def deck_top(s: MonopolyState, deck: int, card_id: str) -> None:
    """Put the card with ``card_id`` on top of deck ``deck``."""
    cards = s.ed.decks[deck].cards
    idx = next(i for i, c in enumerate(cards) if c.id == card_id)
    s.decks[deck].remove(idx)
    s.decks[deck].insert(0, idx)
    s.invalidate()


def act(s: MonopolyState, text: str) -> Sequence[Event]:
    """Apply an action given as text and check the invariants still hold."""
    before = board_signature(s)
    events = s.apply(Action.parse(text))
    problems = audit(s, before)
    assert not problems, problems
    return events


def kinds(s: MonopolyState) -> set[str]:
    return {a.kind for a in s.legal_actions()}


def legal(s: MonopolyState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def event_kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


# -- additions for the rule scenario tests ------------------------------------------------

# Classic deck indices and group indices (editions/classic.toml order).
CHANCE, CHEST = 0, 1
BROWN, LIGHT_BLUE, PINK, ORANGE, RED, YELLOW, GREEN, DARK_BLUE, RAILROADS, UTILITIES = range(10)


def capped_game(players: int = 4, seed: int = 1, max_turns: int = 0, **rules: Any) -> MonopolyState:
    """A classic game with a turn cap (``options["max_turns"]``) and rule overrides."""
    options: dict[str, Any] = {"max_turns": max_turns}
    if rules:
        options["rules"] = rules
    return new_monopoly("classic", players, seed, options)


def turn_of(s: MonopolyState, p: int) -> None:
    """Make it seat ``p``'s turn, before their roll (or at their jail choice if jailed)."""
    s.turn = p
    s.phase = s.JAIL if s.in_jail[p] else s.PRE_ROLL
    s.doubles = 0
    s.invalidate()


def jail(s: MonopolyState, p: int, turns: int = 0) -> None:
    """Put ``p`` in jail having already failed ``turns`` attempts at doubles."""
    s.pos[p] = s.ed.jail
    s.in_jail[p] = True
    s.jail_turns[p] = turns
    if s.turn == p and not s.stack and s.phase in (s.PRE_ROLL, s.JAIL):
        s.phase = s.JAIL
    s.invalidate()


def give_card(s: MonopolyState, p: int, deck: int) -> None:
    """Hand ``p`` the (first) Get Out of Jail Free card of ``deck``, taken out of the deck.

    In classic, jail card 0 is Chance's and jail card 1 is Community Chest's, so ``use_card``
    and ``trade_card`` take the deck number as the card number.
    """
    jc = s.ed.decks[deck].jail_card
    if jc in s.decks[deck]:
        s.decks[deck].remove(jc)
    s.card_holder[s.ed.jail_card_index[deck, jc]] = p
    s.invalidate()


def pass_windows(s: MonopolyState) -> None:
    """Close every open any-time window (each player passes) until a turn begins."""
    for _ in range(50):
        if s.over or s.stack:
            return
        if s.phase == s.WINDOW:
            act(s, "pass")
        elif s.phase == s.END_TURN:
            act(s, "end_turn")
        else:
            return
    raise AssertionError("windows never closed")


def finish_turn(s: MonopolyState) -> None:
    """End the current turn (if it is at its end) and pass every window after it."""
    pass_windows(s)


def illegal(s: MonopolyState, text: str) -> str:
    """Apply ``text``, expect IllegalActionError, check the state did not change at all.

    Returns the error's reason.
    """
    import pytest

    from meeple.kernel.errors import IllegalActionError

    before = s.snapshot()
    history = len(s.history)
    with pytest.raises(IllegalActionError) as info:
        s.apply(Action.parse(text))
    assert s.snapshot() == before
    assert len(s.history) == history
    assert info.value.reason
    assert info.value.action == str(Action.parse(text))
    return info.value.reason


# -- additions for the edition scenario tests ---------------------------------------------


def edition_game(edition: str, players: int = 4, seed: int = 1, **rules: Any) -> MonopolyState:
    """A fresh game of a shipped edition (``friends``, ``frozen-ii``, ``my-first-monopoly-1``,
    ...) with events recorded; ``rules`` override rule options. A one-die edition consumes one
    scripted face per roll (``dice(s, 4)``). Player 1 is on turn, as in :func:`game`."""
    return new_monopoly(edition, players, seed, first_seat(rules=rules))


def deck_index(s: MonopolyState, deck_id: str) -> int:
    """The index of the deck with id ``deck_id`` in the edition (e.g. ``"royal_decree"``)."""
    return next(i for i, d in enumerate(s.ed.decks) if d.id == deck_id)


def describe_all(s: MonopolyState, events: list[Event]) -> list[str]:
    """The plain-words lines of ``events`` (what ``meeple replay`` prints)."""
    return [s.describe(e) for e in events]
