"""A Monopoly position as data, set up again with checks (``meeple.kernel.position``).

The position is the state's snapshot (``MonopolyState.snapshot``: cash, squares, deeds, the
bank, whose turn and which decision) with the cards named by id: ``decks`` maps each deck's id
to its card ids, top first, and ``card_holder`` maps each Get Out of Jail Free card's id to the
seat holding it (-1: in its deck). ``dice_script`` lists dice to come (``[[3, 4], [6, 6]]``),
rolled before the random stream is used again. Fields left out keep their value at the start
of the game; ``houses`` and ``hotels`` left out are what the board leaves in the bank, and a
held card left in a deck given by default is taken out of it.

:func:`problems` checks the position against the rules it must obey (the rulebook's "Buying
Houses": a whole colour group, built evenly, none of it mortgaged; the bank's 32 houses and
12 hotels; deeds owned only by players still in the game; ...), each problem in words.
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopoly.hidden import determinize
from meeple.games.monopoly.rules.bankruptcy import DebtFrame
from meeple.games.monopoly.rules.buildings import HOTEL_LEVEL as HOTEL
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import STREET
from meeple.kernel.errors import PositionError
from meeple.kernel.rng import Rng


def position_of(s: MonopolyState) -> dict[str, Any]:
    """``s``'s position: its snapshot with cards named by id."""
    data = s.snapshot()
    model = s.ed.model
    data["decks"] = {
        deck.id: [deck.cards[i].id for i in order]
        for deck, order in zip(model.decks, s.decks, strict=True)
    }
    data["card_holder"] = {_jail_card_id(s, j): h for j, h in enumerate(s.card_holder)}
    data["dice_script"] = _pairs(s.dice_script, s.rules.dice)
    return data


def at_position(s: MonopolyState, data: dict[str, Any]) -> MonopolyState:
    """``s`` (a new game) set to the position ``data``; :class:`PositionError` names each
    malformed field. Consistency is checked apart, by :func:`problems`."""
    snap = s.snapshot()
    known = set(snap) | {"dice_script"}
    bad = [f"unknown field {k!r}" for k in sorted(set(data) - known)]
    if bad:
        raise PositionError("position", [*bad, "known fields: " + ", ".join(sorted(known))])
    errors: list[str] = []
    merged = {**snap, **{k: v for k, v in data.items() if k not in ("decks", "card_holder")}}
    holders = list(s.card_holder)
    if "card_holder" in data:
        holders = _holders(s, data["card_holder"], errors)
    merged["card_holder"] = holders
    if "decks" in data:
        merged["decks"] = _decks(s, data["decks"], errors)
    else:  # the opening's decks, less any card a player holds
        held = {s.ed.jail_cards[j] for j, h in enumerate(holders) if h >= 0}
        merged["decks"] = [
            [c for c in order if (d, c) not in held] for d, order in enumerate(s.decks)
        ]
    script = data.get("dice_script", [])
    merged["dice_script"] = _script(s, script, errors)
    if errors:
        raise PositionError("position", errors)
    try:
        s.restore(merged)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise PositionError("position", [_reason(exc)]) from None
    if "houses" not in data or "hotels" not in data:
        on_board = [s.level[sq] for sq in range(s.ed.size)]
        if "houses" not in data:
            s.houses = s.rules.houses - sum(v for v in on_board if v < HOTEL)
        if "hotels" not in data:
            s.hotels = s.rules.hotels - sum(1 for v in on_board if v == HOTEL)
    s.invalidate()
    return s


def problems(s: MonopolyState) -> list[str]:
    """Everything in ``s``'s position that the rules forbid, in words (empty: none)."""
    out = _player_problems(s) + _square_problems(s) + _bank_problems(s)
    n = s.n
    if not s.over and not (0 <= s.turn < n and s.alive[s.turn]):
        out.append(f"it is seat {s.turn}'s turn, not a player still in the game")
    if sum(s.alive) < 1:
        out.append("nobody is left in the game")
    return out


def _who(p: int) -> str:
    return f"player {p + 1}"


def _player_problems(s: MonopolyState) -> list[str]:
    """Each player's cash, square and jail turns."""
    ed, r, n = s.ed, s.rules, s.n
    out: list[str] = []
    name = ed.square_names
    in_debt = any(isinstance(f, DebtFrame) for f in s.stack)
    for p in range(n):
        if s.cash[p] < 0 and not in_debt:
            out.append(f"{_who(p)} has negative cash ({s.cash[p]}) and no debt to settle")
        if not 0 <= s.pos[p] < ed.size:
            out.append(f"{_who(p)} stands on square {s.pos[p]}, off the board (0-{ed.size - 1})")
        elif s.in_jail[p] and s.pos[p] != ed.jail:
            out.append(f"{_who(p)} is in jail but stands on {name[s.pos[p]]}")
        if not 0 <= s.jail_turns[p] <= r.max_jail_turns:
            out.append(f"{_who(p)} has {s.jail_turns[p]} turns in jail (0-{r.max_jail_turns})")
    return out


def _square_problems(s: MonopolyState) -> list[str]:
    """Each square's owner, mortgage and buildings, and even building in each group."""
    ed, r, n = s.ed, s.rules, s.n
    out: list[str] = []
    name = ed.square_names
    for sq in range(ed.size):
        owner, level = s.owner[sq], s.level[sq]
        if not ed.is_property[sq]:
            if owner != -1 or level or s.mortgaged[sq]:
                out.append(f"{name[sq]} ({sq}) is not a deed: it has no owner or buildings")
            continue
        if not -1 <= owner < n:
            out.append(f"{name[sq]} ({sq}) is owned by seat {owner}, not a player at the table")
            continue
        if owner >= 0 and not s.alive[owner]:
            out.append(f"{name[sq]} is owned by {_who(owner)}, who is out of the game")
        if s.mortgaged[sq] and owner < 0:
            out.append(f"{name[sq]} is mortgaged but nobody owns it")
        if level == 0:
            continue
        g = ed.groups[ed.group_of[sq]]
        what = "a hotel" if level == HOTEL else f"{level} house{'s' * (level > 1)}"
        if not r.buildings or g.kind != STREET or not 0 <= level <= HOTEL:
            out.append(f"{name[sq]} cannot have {what}")
        elif owner < 0:
            out.append(f"{name[sq]} has {what} but nobody owns it")
        elif any(s.owner[m] != owner for m in g.members):
            out.append(f"{_who(owner)} has {what} on {name[sq]} but does not own all of {g.name}")
        elif any(s.mortgaged[m] for m in g.members):
            out.append(f"{name[sq]} has {what} but part of {g.name} is mortgaged")
    for g in ed.groups:
        levels = [s.level[m] for m in g.members]
        if g.kind == STREET and levels and max(levels) - min(levels) > 1:
            out.append(f"{g.name} is not built evenly (levels {levels})")
    return out


def _bank_problems(s: MonopolyState) -> list[str]:
    """The bank's buildings, the pot, the jail cards and the decks."""
    ed, r, n = s.ed, s.rules, s.n
    out: list[str] = []
    houses = sum(v for v in s.level if 0 < v < HOTEL)
    hotels = sum(1 for v in s.level if v == HOTEL)
    if s.houses < 0 or houses + s.houses != r.houses:
        out.append(
            f"the bank has {s.houses} houses and {houses} are on the board: "
            f"{r.houses} in all, not {houses + s.houses}"
        )
    if s.hotels < 0 or hotels + s.hotels != r.hotels:
        out.append(
            f"the bank has {s.hotels} hotels and {hotels} are on the board: "
            f"{r.hotels} in all, not {hotels + s.hotels}"
        )
    if s.pot < 0:
        out.append(f"the Free Parking pot holds {s.pot}: it cannot be negative")
    for j, h in enumerate(s.card_holder):
        card = _jail_card_id(s, j)
        if not -1 <= h < n:
            out.append(f"card {card} is held by seat {h}, not a player at the table")
        elif h >= 0 and not s.alive[h]:
            out.append(f"card {card} is held by {_who(h)}, who is out of the game")
    for d, deck in enumerate(ed.decks):
        held = {c for j, (dd, c) in enumerate(ed.jail_cards) if dd == d and s.card_holder[j] >= 0}
        order = s.decks[d]
        if sorted(order) != sorted(set(range(len(deck.cards))) - held):
            out.append(
                f"deck {deck.id} must hold each of its cards once, less the ones players hold"
            )
    return out


def redraw(s: MonopolyState, seed: int) -> None:
    """A new future for the same table: each deck's cards shuffled again (held cards stay
    held), a random stream from ``seed`` and no scripted dice (``hidden.determinize``, which
    never reads the real order)."""
    determinize(s, -1, Rng(seed))


# -- helpers ------------------------------------------------------------------------------------


def _jail_card_id(s: MonopolyState, j: int) -> str:
    d, c = s.ed.jail_cards[j]
    return s.ed.model.decks[d].cards[c].id


def _holders(s: MonopolyState, given: Any, errors: list[str]) -> list[int]:
    holders = list(s.card_holder)
    ids = {_jail_card_id(s, j): j for j in range(len(holders))}
    if not isinstance(given, dict):
        errors.append("card_holder: a table of Get Out of Jail Free card id = seat")
        return holders
    for card, seat in given.items():
        if card not in ids:
            errors.append(
                f"card_holder: {card!r} is not a Get Out of Jail Free card; "
                f"those are {', '.join(ids) or 'none'}"
            )
        elif not isinstance(seat, int) or isinstance(seat, bool):
            errors.append(f"card_holder.{card}: a seat number (-1: in its deck), not {seat!r}")
        else:
            holders[ids[card]] = seat
    return holders


def _decks(s: MonopolyState, given: Any, errors: list[str]) -> list[list[int]]:
    model = s.ed.model
    out = [list(d) for d in s.decks]
    if not isinstance(given, dict):
        errors.append("decks: a table of deck id = list of card ids, top first")
        return out
    for deck_id, cards in given.items():
        d = next((i for i, deck in enumerate(model.decks) if deck.id == deck_id), -1)
        if d < 0:
            known = ", ".join(deck.id for deck in model.decks)
            errors.append(f"decks: no deck {deck_id!r} in this edition; known: {known}")
            continue
        index = {c.id: i for i, c in enumerate(model.decks[d].cards)}
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            errors.append(f"decks.{deck_id}: a list of card ids, top first")
            continue
        unknown = [c for c in cards if c not in index]
        if unknown:
            errors.append(f"decks.{deck_id}: no card {unknown[0]!r} in this deck")
            continue
        out[d] = [index[c] for c in cards]
    return out


def _script(s: MonopolyState, given: Any, errors: list[str]) -> list[int]:
    dice, sides = s.rules.dice, s.rules.die_sides
    flat: list[int] = []
    if not isinstance(given, list):
        errors.append("dice_script: a list of rolls such as [[3, 4], [6, 6]]")
        return flat
    for i, roll in enumerate(given):
        faces = roll if isinstance(roll, list) else [roll]
        if len(faces) != dice or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides for f in faces
        ):
            errors.append(
                f"dice_script[{i}]: {dice} die face{'s' * (dice > 1)} from 1 to {sides}, "
                f"not {roll!r}"
            )
            continue
        flat += faces if dice == 2 else [faces[0], 0]
    return flat


def _pairs(flat: list[int], dice: int) -> list[list[int]]:
    pairs = [flat[i : i + 2] for i in range(0, len(flat), 2)]
    return pairs if dice == 2 else [[p[0]] for p in pairs]


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"{exc.args[0]}: missing"
    return str(exc)
