"""What a new server game may start from: the rule options a table may set, and a position.

Checked before anything is stored (:mod:`meeple.server.making`): a refused request leaves no
trace, and says why (``HubError`` 422).
"""

from __future__ import annotations

import logging
from typing import Any

from meeple.kernel.errors import MeepleError
from meeple.kernel.family import RULESET, family_of
from meeple.kernel.options import RULES, check_rules
from meeple.kernel.position import OPTION as POSITION
from meeple.kernel.position import from_position
from meeple.kernel.protocol import GameState
from meeple.server.errors import HubError
from meeple.server.schemas import MAX_SEED

log = logging.getLogger("meeple.server")

POSITION_OPTIONS = frozenset({"redraw", RULES, RULESET})
"""The options a position may carry to the server: ``redraw``, ``rules`` (the rule options a
table may set, checked as a request's are: :func:`game_rules`) and the ``ruleset`` every game
is stamped with (``meeple.kernel.family.new_game``). The server plays its own
games as listed, so a position's other options are refused before anything reads them: an
``edition`` would make a game the lobby does not offer, and Monopolis's ``components`` names a
file on the server (as a bot kind's argument would: see
:meth:`meeple.server.making.Making.create`)."""


def game_rules(game: str, given: object, where: str) -> dict[str, Any]:
    """``given`` (a request's or a position's ``rules``) checked against the rule options
    ``game``'s family offers (``GameFamily.rule_options``): 422 naming the option and what it
    takes, or the options there are. Only those: an edition's other rule options (the houses
    in the box, the player range) make another game, which the server does not offer."""
    known = family_of(game).rule_options(game, {})
    try:
        return check_rules(known, given, game)
    except ValueError as exc:
        raise HubError(422, f"{where}: {exc}") from None


def opening(game: str, players: int, seed: int | None, data: dict[str, Any]) -> GameState:
    """The game at position ``data`` (what a position file holds: ``meeple.kernel.position``)
    for a table of ``players`` seats of ``game``; ``HubError`` 422 with every reason otherwise.

    As ``meeple play --from FILE`` does, the position's own ``game``, ``players``, ``seed``
    (0 when left out) and ``options`` make the game, so the server's game is the command
    line's from the same file; what the request says besides must agree with them (refused,
    never guessed at), and that is checked first, so a position sent to the wrong table is
    told so rather than checked against the wrong rules. The kernel's checks
    (:func:`meeple.kernel.position.from_position`) then give every reason an inconsistent
    position is refused.
    """

    def whole(key: str, default: int | None = None) -> int | None:
        """``data[key]`` if it is a whole number; else None (the kernel names what is wrong)."""
        value = data.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    if isinstance(data.get("game"), str) and data["game"] != game:
        raise HubError(422, f"position: it is a position of {data['game']!r}, not {game!r}")
    seats = whole("players")
    if seats is not None and seats != players:
        raise HubError(422, f"position: it is a {seats}-player position, not {players} seats")
    at = whole("seed", 0)
    if at is not None and not 0 <= at <= MAX_SEED:  # the games table's seed is 64-bit
        raise HubError(422, f"position: seed {at} is not from 0 to {MAX_SEED}")
    if seed is not None and at is not None and seed != at:
        raise HubError(
            422, f"position: its seed is {at}, not {seed} (leave out the request's seed)"
        )
    options = data.get("options", {})
    if isinstance(options, dict):
        other = sorted(set(options) - POSITION_OPTIONS)
        if other:
            raise HubError(
                422,
                f"position: the server takes no option {other[0]!r} in a position (only "
                f"{', '.join(sorted(POSITION_OPTIONS))}): it plays its games as listed",
            )
        if RULES in options:
            game_rules(game, options[RULES], "position: options.rules")
    try:
        state = from_position(data, POSITION)
        # Shown once here: a position the kernel accepts but cannot show or move on from
        # would store a game whose every page fails.
        state.view(None)
        state.legal_actions()
    except MeepleError as exc:  # PositionError: every problem found, in words
        raise HubError(422, str(exc)) from None
    except Exception as exc:
        # Anyone may send a position: what its data makes the engine raise beyond the checks
        # is still the request's fault (422), and worth a look by the operator.
        log.warning("a position the checks passed raised %r", exc, exc_info=True)
        raise HubError(422, f"position: cannot be set up ({type(exc).__name__}: {exc})") from None
    if state.is_terminal():
        raise HubError(422, "position: the game is over there: nothing is left to play")
    return state
