"""Random play with an invariant audit after every action (DESIGN.md, "Correctness you can see").

2,000 complete classic games in CI (20,000 with ``--big``), 2 to 6 seats, half with the uniform
``random`` bot and half with a random bot that leans towards buying and building, so that
sets, hotels, housing shortages and bankruptcies with buildings all happen often. After every
action: money conserved with the bank as the only source and sink, houses and hotels conserved,
one owner per deed, even building, no building beside a mortgage, jail cards conserved, no
negative cash, and a legal action for whoever must decide. Every game must end, by the last
player standing or by the turn cap, with the reason recorded. Every other edition gets the
same audit over 200 games (2,000 with ``--big``), ending by its own end condition.
"""

from __future__ import annotations

import pytest

from meeple.bots.base import Bot, RandomBot
from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.games.monopoly.audit import audit, board_signature
from meeple.games.monopoly.bots import StandardBot
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.rules import holdings
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed

CHUNK = 100
CI_GAMES = 2000
BIG_GAMES = 20000
EAGER = (
    "buy",
    "build",
    "bid",
    "place_building",
    "want_building",
    "roll",
    "end_turn",
    "pass",
    "accept",
    "lift_mortgage",
    "unmortgage",
)


class EagerRandomBot(Bot):
    """Random, but half the time picks among buying, building and moving on when it can."""

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if self.rng.below(2):
            eager = [a for a in legal if a.kind in EAGER]
            if eager:
                return eager[self.rng.below(len(eager))]
        return legal[self.rng.below(len(legal))]


def play_audited(
    seed: int, players: int, eager: bool, edition: str = "classic", standard: int = 0
) -> MonopolyState:
    """Play one game with random bots (the first ``standard`` seats: standard bots), auditing
    the state after every action."""
    s = new_monopoly(edition, players, seed, {"max_turns": 1500})
    s.record_events = False
    kind = EagerRandomBot if eager else RandomBot
    bots: list[Bot] = [kind(derive_seed(seed, 7, p)) for p in range(players)]
    bots[:standard] = [StandardBot(derive_seed(seed, 8, p)) for p in range(standard)]
    while not s.is_terminal():
        action = bots[s.current_player()].choose(s)
        before = board_signature(s)
        s.apply(action)
        problems = audit(s, before)
        assert not problems, f"seed {seed} after {len(s.history)} actions ({action}): {problems}"
    problems = audit(s)
    assert not problems, problems
    assert s.end_reason in ("last_player_standing", "turn_cap", "all_properties_sold", "bankruptcy")
    return s


@pytest.mark.parametrize("chunk", range(BIG_GAMES // CHUNK))
def test_random_games_keep_every_invariant(chunk: int, big: bool) -> None:
    if chunk >= CI_GAMES // CHUNK and not big:
        pytest.skip("beyond the CI's 2,000 games: run with --big")
    for i in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        players = 2 + i % 5  # 2 to 6 seats
        s = play_audited(derive_seed(2024, i), players, eager=i % 2 == 1)
        result = s.result()
        assert result is not None
        if result.end_reason == "last_player_standing":
            assert sum(s.alive) == 1 and result.winners == [s.alive.index(True)]


OTHER_EDITIONS = [e for e in builtin_edition_ids() if e != "classic"]
END_REASONS = {
    "last_player_standing": {"last_player_standing"},
    "all_properties_owned": {"all_properties_sold"},
    "first_bankruptcy": {"bankruptcy"},
}


@pytest.mark.parametrize("chunk", range(20))
@pytest.mark.parametrize("edition", OTHER_EDITIONS)
def test_every_edition_keeps_every_invariant(edition: str, chunk: int, big: bool) -> None:
    if chunk >= 2 and not big:
        pytest.skip("beyond the CI's 200 games per edition: run with --big")
    rules = builtin_edition(edition).rules
    for i in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        players = rules.min_players + i % (min(rules.max_players, 6) - rules.min_players + 1)
        s = play_audited(derive_seed(99, i), players, eager=i % 2 == 1, edition=edition)
        # Every game ends by the edition's own end condition, never by the safety cap.
        assert s.end_reason in END_REASONS[rules.end_condition], (edition, i, s.end_reason)


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_standard_bots_keep_every_invariant(edition: str) -> None:
    """The standard bot decides from the state's option lists rather than the legal-action
    list: every move it makes is legal (``apply`` refuses anything else) and keeps every
    invariant, alone at the table and beside random bots."""
    rules = builtin_edition(edition).rules
    for i in range(12):
        players = rules.min_players + i % (min(rules.max_players, 6) - rules.min_players + 1)
        standard = players if i % 2 == 0 else 1
        play_audited(
            derive_seed(77, i), players, eager=i % 4 == 1, edition=edition, standard=standard
        )


def test_the_audit_catches_a_board_change_that_kept_its_stamp() -> None:
    """The caches of the rules and bots are keyed by the board stamp; a rule that changed the
    board without taking a new stamp would leave them stale, and the audit says so."""
    s = new_monopoly("classic", 4, 3)
    before = board_signature(s)
    s.owner[1] = 0  # by hand, without board_changed()
    assert any("kept its stamp" in p for p in audit(s, before))
    holdings.work_out_kept(s)  # (the writers' tables, which a hand edit leaves behind)
    holdings.board_changed(s)
    assert audit(s, before) == []


def test_the_audit_catches_a_group_change_the_log_does_not_name() -> None:
    """The standard bot reads the board a group at a time and reads a group again only when the
    state's log of changes names it (``board_changed(group)``); a rule naming the wrong group
    would leave that reading stale, and the audit says so."""
    s = new_monopoly("classic", 4, 3)
    brown, light_blue = s.ed.group_of[1], s.ed.group_of[6]
    before = board_signature(s)
    s.owner[1] = 0  # a brown deed changes hands ...
    holdings.board_changed(s, light_blue)  # ... but the rule names another group
    assert any("does not name it" in p for p in audit(s, before))
    holdings.work_out_kept(s)  # (the writers' tables, which a hand edit leaves behind)
    holdings.board_changed(s, brown)
    assert audit(s, before) == []


def test_the_audit_catches_a_stale_cache_of_tradeable_holders() -> None:
    s = new_monopoly("classic", 4, 3)
    s.owner[1] = 2
    s.invalidate()  # (the writers' tables and a new stamp, after a hand edit)
    assert s.legal_actions()  # seat 0 may trade with seat 2 now: the cache holds {2}
    assert s.kept.holders == 1 << 2 and audit(s) == []
    s.owner[3] = 1  # by hand, keeping the stamp
    assert any("holders" in p for p in audit(s))


def test_the_audit_catches_stale_build_options() -> None:
    """Where a player may build (``build_options``: the spots, then the cash) is kept per board
    stamp; kept wrongly, the audit says so."""
    from meeple.games.monopoly.rules import anytime

    s = new_monopoly("classic", 4, 3)
    s.owner[1] = s.owner[3] = 0
    s.invalidate()  # (the writers' tables and a new stamp, after a hand edit)
    assert audit(s) == [] and anytime.build_options(s, 0) == [1, 3]
    s.kept.build_spots = [1]  # kept wrongly
    problems = audit(s)
    assert any("build spots" in p for p in problems)
    assert any("build options" in p for p in problems)


def test_the_audit_catches_a_stale_total_of_building_capacity() -> None:
    """Whether buildings are short (asked on every building bought) reads the total capacity
    kept as groups change (``buildings.capacity_total``); kept wrongly, the audit says so."""
    from meeple.games.monopoly.frames import HOUSE
    from meeple.games.monopoly.rules import buildings

    s = new_monopoly("classic", 4, 3)
    s.owner[1] = s.owner[3] = 0
    holdings.work_out_kept(s)  # (the writers' tables, which a hand edit leaves behind)
    holdings.board_changed(s, s.ed.group_of[1])
    assert buildings.capacity_total(s, HOUSE) == 8 and audit(s) == []  # two streets, 4 each
    s.kept.cap_total_houses += 1
    assert any("total capacity" in p for p in audit(s))


def test_the_audit_catches_a_stale_cache_of_built_groups() -> None:
    s = new_monopoly("classic", 4, 3)
    assert s.legal_actions()  # fills the caches for this stamp
    from meeple.games.monopoly.rules import buildings

    assert buildings.built_groups(s) == [False] * len(s.ed.groups) and audit(s) == []
    s.level[1] = 1  # by hand, without telling the state (invalidate() would)
    assert any("built groups" in p for p in audit(s))
    s.invalidate()  # works it out again (the other invariants still object to the hand edit)
    assert buildings.built_groups(s)[s.ed.group_of[1]]
    assert not any("built groups" in p for p in audit(s))


def test_the_audit_catches_a_stale_cache_of_rents() -> None:
    from meeple.games.monopoly.rules import rent

    s = new_monopoly("classic", 4, 3)
    s.owner[1] = 2
    s.invalidate()  # (the writers' tables and a new stamp, after a hand edit)
    assert rent.rents_now(s)[1] == s.ed.rent[1][0] and audit(s) == []
    s.owner[3] = 2  # by hand, keeping the stamp: the brown set now charges double
    assert any("cached rents" in p for p in audit(s))
