"""Invariant audit of a Monopoly state: what must hold after every action.

DESIGN.md, "Correctness you can see": money conserved with the bank as the only source and sink;
houses and hotels conserved with the bank's stock; one owner per deed; even building; no
building in a group with a mortgage; Get Out of Jail Free cards conserved; no negative cash;
the snowflake (Frozen II) only on a scene a player owns;
the hot path's shortcuts (``anytime.has_any``, ``is_legal`` for moving on) agree with the full
legal-action lists; and the board stamp is honest: a change to who owns, builds, mortgages, holds
a jail card or plays takes a new stamp (pass :func:`board_signature` from before the action), each
group whose squares changed is named in the state's log of changes, and what is cached under the
current stamp, kept from the log or kept by the board's writers (holders of tradeable deeds,
build options, building capacities, built groups, the masks of deeds, rents) is what computing it
afresh gives. Used by the random-play tests after every action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import HOTEL, HOUSE
from meeple.games.monopoly.rules import anytime, buildings, holdings, rent, trade
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def board_signature(s: MonopolyState) -> tuple[Any, ...]:
    """The board stamp and everything it stands for (take it before an action, for
    :func:`audit`)."""
    board = (s.owner, s.level, s.mortgaged, s.card_holder, s.alive)
    return (s.board_stamp, *(tuple(x) for x in board), len(s.changes))


def audit(s: MonopolyState, before: tuple[Any, ...] | None = None) -> list[str]:
    """Every broken invariant, as sentences; empty when the state is sound. ``before`` is the
    :func:`board_signature` taken before the last action, to check the stamp moved with it."""
    bad = _stamp_moved(s, before) if before is not None else []
    for check in (_kept_tables, _money_kept, _buildings_kept, _cards_and_tokens, _decision_sound):
        bad += check(s)
    return bad


def _stamp_moved(s: MonopolyState, before: tuple[Any, ...]) -> list[str]:
    """The board stamp moved with the board, and the log of changes names each group changed."""
    bad: list[str] = []
    now = board_signature(s)
    if now[1:-1] != before[1:-1] and now[0] == before[0]:
        bad.append("the board changed but kept its stamp (a rule forgot board_changed())")
    # ... and each group whose squares changed is named in the log of changes since (-1
    # names them all).
    if now[1:4] != before[1:4]:
        named = set(s.changes[before[-1] :])
        owner, level, mortgaged = before[1], before[2], before[3]
        for g, grp in enumerate(s.ed.groups):
            changed = any(
                (owner[m], level[m], mortgaged[m]) != (s.owner[m], s.level[m], s.mortgaged[m])
                for m in grp.members
            )
            if changed and g not in named and -1 not in named:
                bad.append(f"group {grp.id} changed but the log of changes does not name it")
    return bad


def _kept_tables(s: MonopolyState) -> list[str]:
    """What the rules keep worked out (holders, build spots and options, capacities, built
    groups, masks of deeds, builders, rents) is what working it out afresh gives."""
    bad: list[str] = []
    if s.kept.holders_known:
        fresh = trade.find_holders(s)
        if fresh != s.kept.holders:
            bad.append(f"cached holders of tradeables {s.kept.holders:b} != {fresh:b} (bit masks)")
        if trade.alive_mask(s) != s.kept.alive:
            bad.append(f"cached seats still in {s.kept.alive:b} != {trade.alive_mask(s):b}")
    seat = s.kept.spots_key[1]
    if seat >= 0 and s.kept.spots_key == (s.board_stamp, seat, s.houses, s.hotels):
        fresh_spots = buildings.build_spots(s, seat)
        if s.kept.build_spots != fresh_spots:
            bad.append(f"kept build spots of seat {seat} {s.kept.build_spots} != {fresh_spots}")
        # What build_options answers now, read without asking it (the audit changes nothing).
        seat_cash = s.cash[seat]
        kept = (
            s.kept.build_spots
            if seat_cash >= s.kept.spots_dearest
            else s.kept.builds
            if s.kept.builds_cash == seat_cash
            else None
        )
        fresh_builds = buildings.build_squares(s, seat)
        if kept is not None and kept != fresh_builds:
            bad.append(f"kept build options of seat {seat} {kept} != {fresh_builds}")
    for item in (HOUSE, HOTEL):
        kept_caps, fresh_caps = buildings.capacities(s, item), buildings.find_capacities(s, item)
        if kept_caps != fresh_caps:
            bad.append(f"kept building capacities {kept_caps} != {fresh_caps} (item {item})")
        if buildings.capacity_total(s, item) != sum(fresh_caps):
            bad.append(f"kept total capacity {buildings.capacity_total(s, item)} (item {item})")
    if s.kept.built != buildings.find_built_groups(s):
        bad.append(f"kept built groups {s.kept.built} != {buildings.find_built_groups(s)}")
    kept_bits = (s.kept.held, s.kept.mortgaged_bits, s.kept.built_bits)
    fresh_bits = holdings.find_deed_bits(s)
    if kept_bits != fresh_bits:
        bad.append(f"kept masks of deeds (held, mortgaged, built) {kept_bits} != {fresh_bits}")
    # (a group's builder as the building rule finds it on the board: buildings.buildable_group;
    # group_capacity and the spots read the kept one, so they cannot check it)
    fresh_builder = [-1] * len(s.ed.groups)
    for g in s.ed.street_groups:
        q = s.owner[s.ed.groups[g].members[0]]
        if q >= 0 and buildings.buildable_group(s, q, g):
            fresh_builder[g] = q
    fresh_builders = sum({1 << q for q in fresh_builder if q >= 0})
    if (s.kept.builder, s.kept.builders) != (fresh_builder, fresh_builders):
        bad.append(f"kept builders {s.kept.builder} != {fresh_builder} (or their mask)")
    if not s.kept.rents_dirty:
        # The kept table against the rent rule worked out afresh from the board.
        due = rent.find_rents(s)
        if s.kept.rents != due:
            bad.append(f"cached rents {s.kept.rents} != {due}")
    return bad


def _money_kept(s: MonopolyState) -> list[str]:
    """Money is conserved with the bank as its only source and sink; nobody's cash is negative."""
    bad: list[str] = []
    r = s.rules
    cash, alive = s.cash, s.alive
    start = r.starting_cash * s.n
    # The Free Parking pot holds players' money, not the bank's (rules/money.fines_to).
    if sum(cash) + s.pot != start + s.bank_out - s.bank_in:
        bad.append(
            f"money: players hold {sum(cash)} and the pot {s.pot}, expected "
            f"{start} + {s.bank_out} paid out - {s.bank_in} taken in"
        )
    if s.pot < 0 or (s.pot and not r.free_parking_money):
        rule = "on" if r.free_parking_money else "off"
        bad.append(f"the Free Parking pot holds {s.pot} (house rule free_parking_money {rule})")
    if min(cash) < 0:
        bad.append(f"negative cash: {cash}")
    if not all(alive) and any(c for p, c in enumerate(cash) if not alive[p]):
        bad.append(f"an eliminated seat still has cash: {cash}")
    return bad


def _buildings_kept(s: MonopolyState) -> list[str]:
    """Houses and hotels are conserved with the bank's stock, deeds have one owner, groups are
    built evenly, by one owner, without a mortgage."""
    bad: list[str] = []
    ed, r = s.ed, s.rules
    owner, level, mortgaged, alive = s.owner, s.level, s.mortgaged, s.alive
    hotels_out = sum(1 for v in level if v == 5)
    houses_out = sum(level) - 5 * hotels_out
    if s.houses + houses_out != r.houses or s.houses < 0:
        bad.append(f"houses: bank {s.houses} + on board {houses_out} != {r.houses}")
    if s.hotels + hotels_out != r.hotels or s.hotels < 0:
        bad.append(f"hotels: bank {s.hotels} + on board {hotels_out} != {r.hotels}")
    if min(level) < 0 or max(level) > 5:
        bad.append(f"impossible building level: {level}")
    for sq in range(ed.size):
        if not ed.is_property[sq]:
            if owner[sq] != -1 or level[sq] or mortgaged[sq]:
                bad.append(f"square {sq} is not a deed but is owned or built on")
        elif owner[sq] < 0:
            if mortgaged[sq]:
                bad.append(f"unowned deed {sq} is mortgaged")
        elif not alive[owner[sq]]:
            bad.append(f"deed {sq} belongs to eliminated seat {owner[sq]}")
    if any(level):
        for g in ed.street_groups:
            members = ed.groups[g].members
            levels = [level[m] for m in members]
            if any(levels):
                owners = {owner[m] for m in members}
                if len(owners) != 1 or -1 in owners:
                    bad.append(f"group {ed.groups[g].id} has buildings but not one owner")
                if max(levels) - min(levels) > 1:
                    bad.append(f"group {ed.groups[g].id} is built unevenly: {levels}")
                if any(mortgaged[m] for m in members):
                    bad.append(f"group {ed.groups[g].id} has buildings and a mortgage")
        for sq in ed.properties:
            if level[sq] and ed.kind[sq] != STREET:
                bad.append(f"square {sq} is not a street but has buildings")
    return bad


def _cards_and_tokens(s: MonopolyState) -> list[str]:
    """The snowflake is on a scene a player owns; the decks and jail cards are conserved."""
    bad: list[str] = []
    ed, owner, alive = s.ed, s.owner, s.alive
    flake = s.snowflake
    if flake >= 0 and not (0 <= flake < ed.size and ed.kind[flake] == STREET and owner[flake] >= 0):
        # Placed on a scene its placer owns, back in the box when the scene changes hands.
        bad.append(f"the snowflake is on square {flake}, not on a scene a player owns")
    for d, deck in enumerate(ed.decks):
        held_cards = [
            i for j, (dd, i) in enumerate(ed.jail_cards) if dd == d and s.card_holder[j] >= 0
        ]
        cards = sorted(s.decks[d] + held_cards)
        if cards != list(range(len(deck.cards))):
            bad.append(f"deck {deck.id} is not a permutation of its cards: {cards}")
    for j, held in enumerate(s.card_holder):
        if held >= 0 and not alive[held]:
            bad.append(f"eliminated seat {held} holds jail card {j}")
    return bad


def _decision_sound(s: MonopolyState) -> list[str]:
    """A living seat decides and has a legal action; the hot path's shortcuts agree with the
    full lists."""
    bad: list[str] = []
    alive = s.alive
    if not s.over:
        p = s.current_player()
        if not alive[p]:
            bad.append(f"eliminated seat {p} must decide")
        legal = s.legal_actions()
        if not legal:
            bad.append(f"seat {p} must decide '{s.decision_name()}' but has no legal action")
        # The shortcuts of the hot path agree with the full lists they stand for.
        for a in (A.A_ROLL, A.A_PASS, A.A_END_TURN):
            if s.is_legal(a) != (a in legal):
                bad.append(f"is_legal({a}) disagrees with legal_actions() at '{s.decision_name()}'")
        for q in range(s.n):
            if alive[q] and anytime.has_any(s, q) != bool(anytime.options(s, q)):
                bad.append(f"anytime.has_any({q}) disagrees with anytime.options({q})")
    elif not s.end_reason:
        bad.append("the game is over without a reason")
    return bad
