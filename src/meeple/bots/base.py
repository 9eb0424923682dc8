"""The bot kinds a driver can seat, for any game family: the drivers' one way to make a bot.

A kind is the family's own (``GameFamily.bots``: ``standard``, ``param``) or one every family
has: ``random`` (uniform over the legal actions), ``policy`` (a trained policy file played with
NumPy, ``policy:FILE``: :mod:`meeple.bots.policy`, for a family with an action encoding; and
``learned``, the policy the package ships for the game, where there is one) and
``mcts`` (the search bot, for a family
with search support, ``GameFamily.search``). The bot class itself is
:class:`meeple.kernel.bot.Bot`, which a family's bots subclass.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from meeple.bots.policy import learned_bot, packaged_games, packaged_policy, policy_bot
from meeple.kernel.bot import Bot, BotFactory, RandomBot, play_out
from meeple.kernel.family import GameFamily, families, family, game_ids, game_info

__all__ = [
    "FILE_KINDS",
    "Bot",
    "BotFactory",
    "RandomBot",
    "bot_kinds",
    "bot_maker",
    "make_bot",
    "play_out",
]

FILE_KINDS = frozenset({"param", "policy"})
"""Kinds that play only from a file named in their argument (``param:FILE``, ``policy:FILE``):
the web server offers and accepts none of them, as it would read files on the server."""


@functools.cache
def _kinds(fam: GameFamily) -> dict[str, BotFactory]:
    """Every kind a game of ``fam`` can seat, by name: made once per family (a simulation makes
    a bot per seat and game; the table and its factories do not change). Callers must not
    change it."""
    kinds: dict[str, BotFactory] = {"random": lambda seed, _: RandomBot(seed)}
    # A policy reads the family's observation and action encoding: a family that gives none
    # (GameFamily.encoding left as the kernel's, which refuses) has no policy kind.
    if type(fam).encoding is not GameFamily.encoding:
        kinds["policy"] = policy_bot(fam.name)
        shipped = _shipped(fam.name)
        if shipped:  # the policies the package ships for its games (bots/policies/)
            kinds["learned"] = learned_bot(shipped)
    search = fam.search
    if search is not None:
        from meeple.bots.mcts import mcts_factory

        kinds["mcts"] = mcts_factory(search)
    kinds.update(fam.bots)
    return kinds


@functools.cache
def _shipped(family_name: str) -> list[str]:
    """The games of ``family_name`` the package ships a policy for (looked up once)."""
    known = set(game_ids())
    return [g for g in packaged_games() if g in known and game_info(g).family == family_name]


def bot_kinds(family_name: str | None = None, game_id: str | None = None) -> list[str]:
    """The bot kinds a game of family ``family_name`` can seat (of any family when
    ``None``), sorted; with ``game_id``, those that can play that game (``learned`` only where
    the package ships a policy for it)."""
    if family_name is None:
        return sorted({k for fam in families() for k in _kinds(fam)})
    kinds = sorted(_kinds(family(family_name)))
    if game_id is not None and packaged_policy(game_id) is None:
        kinds = [k for k in kinds if k != "learned"]
    return kinds


def make_bot(kind: str, family_name: str, seed: int) -> Bot:
    """A new bot of ``kind`` (``KIND`` or ``KIND:ARGUMENT``) for a game of ``family_name``.

    ``ValueError`` names an unknown kind or a bad argument.
    """
    return bot_maker(kind, family_name)(seed)


def bot_maker(kind: str, family_name: str) -> Callable[[int], Bot]:
    """``make_bot(kind, family_name, seed)`` as a function of ``seed``: the family and the kind
    looked up once, for a driver that seats the same kinds game after game (a simulation seats
    four bots a game). An unknown kind raises ``ValueError`` here; a bad argument, when a bot
    is made (as the kind's factory reads it)."""
    kinds = _kinds(family(family_name))
    base, _, argument = kind.partition(":")
    factory = kinds.get(base)
    if factory is None:
        raise ValueError(
            f"unknown bot {kind!r} for {family_name}; known: {', '.join(sorted(kinds))}"
        )
    return lambda seed: factory(seed, argument)
