"""meeple: plays, simulates and analyses the Monopoly family and Monopolis.

Every game implements the kernel protocol in :mod:`meeple.kernel`; bots, the simulator,
the command line and every other driver only ever talk to that protocol.
"""

__version__ = "0.1.0"
