"""Bots: players that choose an action from a state through the kernel protocol only."""

from meeple.bots.base import Bot, RandomBot, bot_kinds, make_bot

__all__ = ["Bot", "RandomBot", "bot_kinds", "make_bot"]
