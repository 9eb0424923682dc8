"""Helpers for the Monopolis tests: set up positions while conserving every component."""

from __future__ import annotations

from meeple.games.monopolis import new_monopolis
from meeple.games.monopolis.building import VALUE_INDEX
from meeple.games.monopolis.city import EMPTY, PLOTS, plot_at
from meeple.games.monopolis.components import CARD_TYPES
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.protocol import Action

RES = {"wood": 0, "iron": 1, "tools": 2, "workers": 3}
CASTLE = 24
NORTH, EAST, SOUTH, WEST = 17, 25, 31, 23


def fresh(players: int = 2, seed: int = 1) -> MonopolisState:
    """A new game with Player 1 as the start player (scenarios set up their own turns; who
    starts is tested in test_monopolis_setup.py)."""
    return new_monopolis(players, seed, {"rules": {"start_player": "first_seat"}})


def act(state: MonopolisState, text: str) -> None:
    state.apply(Action.parse(text))


def legal_texts(state: MonopolisState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def set_resources(state: MonopolisState, seat: int, **counts: int) -> None:
    state.res[seat] = [counts.get(name, 0) for name in RES]
    state._legal = None


def find_card(
    state: MonopolisState,
    needs: list[str],
    type_name: str,
    reward: str = "any",
) -> int:
    """A requirement card id with exactly ``needs`` (and a reward kind), from the bag first."""
    want = [0, 0, 0, 0]
    for n in needs:
        want[RES[n]] += 1
    ids = []
    for card in state.comps.requirement_cards:
        if card is None or list(card.needs) != want or card.type != CARD_TYPES[type_name]:
            continue
        kind = (
            "icon" if card.icon >= 0 else "coins" if card.coins else "liza" if card.liza else "none"
        )
        if reward in ("any", kind):
            ids.append(card.id)
    in_bag = [c for c in ids if c in state.bag]
    assert ids, f"no card {needs} {type_name} {reward}"
    return (in_bag or ids)[0]


def put_card(state: MonopolisState, plot: int, card_id: int) -> None:
    """Put ``card_id`` on ``plot`` (an empty plot), returning displaced cards to the bag."""
    assert state.value_at[plot] == EMPTY
    if card_id in state.bag:
        state.bag.remove(card_id)
    else:
        where = state.card_at.index(card_id)
        state.card_at[where] = EMPTY
        state.bag.append(card_id)
    if state.card_at[plot] != EMPTY:
        state.bag.append(state.card_at[plot])
    state.card_at[plot] = card_id
    state._legal = None


def clear_cards(state: MonopolisState) -> None:
    """Return every card on the table to the bag."""
    for plot in range(PLOTS):
        if state.card_at[plot] != EMPTY:
            state.bag.append(state.card_at[plot])
            state.card_at[plot] = EMPTY
    state._legal = None


def place_tile(state: MonopolisState, plot: int, value: int, owner: int, houses: int = 0) -> int:
    """Lay the top tile worth ``value`` on ``plot`` for ``owner`` (no card taken, no reward).

    ``houses`` moves that many of the owner's houses onto it (default: what the tile needs).
    Cubes are updated as the rules say.
    """
    from meeple.games.monopolis.city import cube_partners

    assert state.value_at[plot] == EMPTY
    if state.card_at[plot] != EMPTY:
        state.bag.append(state.card_at[plot])
        state.card_at[plot] = EMPTY
    tile = state.tile_decks[VALUE_INDEX[value]].pop()
    state.tile_at[plot] = tile
    state.value_at[plot] = value
    state.owner_at[plot] = owner
    k = houses or (2 if value == 4 else 1)
    state.houses_at[plot] = k
    state.houses[owner] += k
    partners = cube_partners(state.value_at, plot, value)
    for q in partners:
        state.cubes[q] += 1
    state.cubes[plot] += len(partners)
    state._legal = None
    return tile


def at(x: int, y: int) -> int:
    """The plot at offset (x east, y north) of the castle."""
    return plot_at(x + 3, 3 - y)


def tools_card(state: MonopolisState, plot: int, reward: str = "none") -> int:
    """Put a Type III card showing two tools (and a reward of the given kind) on ``plot``."""
    for third in ("workers", "iron", "wood", "tools"):
        try:
            card = find_card(state, ["tools", "tools", third], "III", reward)
        except AssertionError:
            continue
        if card in state.bag:
            put_card(state, plot, card)
            return card
    raise AssertionError(f"no two-tools card with reward {reward}")


def give_exactly(state: MonopolisState, seat: int, card_id: int) -> None:
    """Set ``seat``'s resources to exactly what card ``card_id`` needs."""
    state.res[seat] = list(state.comps.card(card_id).needs)
    state._legal = None
