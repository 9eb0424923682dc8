"""The games: one rules kernel per game family."""
