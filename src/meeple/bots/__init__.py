"""Bots: players that choose an action from a state through the kernel protocol only."""

from meeple.bots.base import Bot, RandomBot, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "make_bot", "register_bot"]
