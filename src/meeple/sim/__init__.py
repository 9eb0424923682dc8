"""The simulation lab: many reproducible games, summarised."""
