"""The standard Monopoly bot's thresholds (:class:`Params`): the standard ones, those ``meeple
tune`` found and shipped for an edition, or those of a JSON file (the ``param`` bot).

Compiled with the bot (``meeple.buildinfo``): the bot reads a threshold on most decisions, and
a native class reads it without a dictionary look-up.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Final

from meeple.kernel.files import UnreadableFile, read_text


@dataclass(frozen=True)
class Params:
    """Every threshold of the standard bot (the ``param`` bot reads them from JSON)."""

    reserve_min: int = 50  # keep at least this much cash
    reserve_danger_share: float = 0.4  # ... plus this share of the worst rent on the board
    reserve_max: int = 600
    set_bonus: float = 1.5  # a deed completing my set is worth price x (1 + this)
    partial_bonus: float = 0.3  # ... price x (1 + this x deeds of its group I own)
    block_bonus: float = 0.5  # ... plus price x this when it stops an opponent's set
    bid_share: float = 1.0  # bid up to this share of the value
    build_first_to: int = 3  # build every set evenly to this many houses first
    build_beyond_extra: int = 150  # build further only with this much cash above the reserve
    jail_stay_owned_share: float = 0.7  # stay in jail once this share of deeds is owned
    trade_premium: float = 0.6  # offer price x (1 + this) for the deeds completing a set
    # ... and once that is refused, price x (1 + this): above what a player who fears handing
    # over a set asks (set_gift_penalty), so a board where no swap exists does not stall.
    trade_premium_last: float = 3.2
    accept_margin: float = 0.0  # accept an offer worth at least this much more than it costs
    set_gift_penalty: float = 4.0  # a deed completing an opponent's set costs price x this
    unmortgage_extra: int = 100  # lift a mortgage only with this much above the reserve
    # Rounds without progress (no building beyond the most the board has held, no deed changing
    # hands, nobody out) after which the bot forces progress (StandardBot.force_progress).
    stall_rounds: int = 50

    @classmethod
    def tuned(cls, edition: str) -> Params | None:
        """The thresholds ``meeple tune`` found for ``edition`` and shipped because they beat
        the standard ones (``tuned/EDITION.json``; docs/BOTS.md, "Tuning"), or ``None``."""
        path = TUNED / f"{edition}.json"
        return cls.from_file(path) if path.is_file() else None

    @classmethod
    def from_file(cls, path: str | Path) -> Params:
        """Load parameters from JSON; unknown keys or wrong types raise ``ValueError``."""
        try:
            data = json.loads(read_text(path))
        except UnreadableFile as exc:
            raise ValueError(f"{path}: cannot read bot parameters: {exc.reason}") from None
        except ValueError as exc:
            raise ValueError(f"{path}: bot parameters are not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: bot parameters must be a JSON object")
        known = {f.name: f.type for f in fields(cls)}
        out = asdict(cls())
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"{path}: {key}: unknown parameter; known: {', '.join(known)}")
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"{path}: {key}: must be a number")
            out[key] = value
        return cls(**out)


TUNED: Final = Path(__file__).parent / "tuned"
"""Where the tuned thresholds of each edition are shipped (:meth:`Params.tuned`)."""

STANDARD_PARAMS: Final = Params()
"""The standard thresholds, made once: a Params is frozen, so every standard bot shares them
(making them costs more than the rest of a new bot, and a simulation makes four a game)."""
