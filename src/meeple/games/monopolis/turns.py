"""The turn and the end of the game: two actions a turn, new requirement cards after the turn,
the last round, and the result.

monopolis-rules.txt, "The Course of the Game (A JÁTÉK MENETE)" ("On your turn you take 2
actions") and "End of the Game (A JÁTÉK VÉGE)". Like ``games/monopoly/rules/turns.py``: the
state applies an action, this module says what follows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.games.monopolis import building
from meeple.games.monopolis.actions import ACTION, JOKER_CHOICE, OVER
from meeple.games.monopolis.city import plots_needing_cards
from meeple.games.monopolis.scoring import ranking, score_sheets
from meeple.kernel.protocol import Event, GameResult

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

ACTIONS_PER_TURN: Final = 2
RULESET: Final = 2
"""Monopolis's ruleset (``meeple.kernel.family.GameFamily.ruleset``): ruleset 2 chooses the
start player (:func:`choose_first`); in ruleset 1 (a game stored before there were rulesets)
seat 1 always started."""
START_CHOICES: Final = ("random", "first_seat")
"""The rule ``start_player`` (``options["rules"]``, a table's choice): a seat drawn at random
(the default), or seat 1."""


def choose_first(s: MonopolisState) -> int:
    """The start player: "Choose a starting player, who receives the start player marker"
    (Setup). The rulebook leaves the choice to the table, so a seat is drawn from the game's
    own stream, after the rest of the setup (``start_player = "first_seat"``: seat 1; docs/RULES.md,
    "Who starts")."""
    ruleset = s._options.get("ruleset") or RULESET
    rules = s._options.get("rules") or {}
    if ruleset < 2 or rules.get("start_player", "random") == "first_seat":
        return 0
    return s.rng.below(s.n)


def setup_events(s: MonopolisState) -> list[Event]:
    """Who starts (the protocol's ``setup_events``)."""
    return [Event("first_player", {"seat": s.start_player})]


def after_gain(s: MonopolisState, events: list[Event] | None) -> None:
    """After a purchase or a build: decide the jokers gained, then the action is over."""
    if s.pend_jokers:
        s.phase = JOKER_CHOICE
    else:
        finish_action(s, events)


def finish_action(s: MonopolisState, events: list[Event] | None) -> None:
    """One of the turn's two actions is done; after the second the turn ends."""
    s.phase = ACTION
    s.actions_done += 1
    if s.actions_done == ACTIONS_PER_TURN:
        end_turn(s, events)


def end_turn(s: MonopolisState, events: list[Event] | None) -> None:
    """Deal new cards after the turn's last build, then pass the turn or end the game.

    "The game ends in the round in which one player uses their last house. That round is
    still played to its end": the game ends after the last seat before the start player
    (the holder of the start player marker).
    """
    seat = s.turn_player
    for plot in plots_needing_cards(s.value_at, s.card_at, s.to_deal):
        if s.bag:
            s.card_at[plot] = s.bag.pop()
            if events is not None:
                events.append(Event("deal", {"plot": plot, "card": s.card_at[plot]}))
    s.to_deal.clear()
    s.turns += 1
    if events is not None:
        events.append(Event("turn_end", {"seat": seat, "turn": s.turns}))
    if (seat + 1) % s.n == s.start_player:
        if s.final_round:
            end_game(s, "last_house", events)
            return
        if not any(building.could_ever_build(s, q) for q in range(s.n)):
            end_game(s, "stalled", events)
            return
    # A simulation's turn cap (the ``max_turns`` option, as Monopoly's: docs/RULES.md,
    # "Turn cap"), after the rulebook's own ends so that those win a tie.
    cap = int(s._options.get("max_turns") or 0)
    if cap and s.turns >= cap:
        end_game(s, "turn_cap", events)
        return
    s.turn_player = (seat + 1) % s.n
    s.actions_done = 0


def end_game(s: MonopolisState, reason: str, events: list[Event] | None) -> None:
    """The game is over: score every sheet and rank the players ("End of the Game")."""
    s.phase = OVER
    s.end_reason = reason
    sheets = score_sheets(s)
    totals = [sheet["total"] for sheet in sheets]
    order, winners = ranking(s, totals)
    s._result = GameResult(
        winners=winners,
        ranking=order,
        end_reason=reason,
        turns=s.turns,
        scores=[float(t) for t in totals],
        sheets=sheets,
    )
    if events is not None:
        events.append(Event("game_end", {"reason": reason, "sheets": sheets, "winners": winners}))
