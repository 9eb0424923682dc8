"""The lab: studies that play many games and read them (``meeple report``). It sits above the
simulator and the analyses, which it combines, and below the command line."""
