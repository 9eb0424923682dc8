"""meeple: plays, simulates and analyses the Monopoly family and Monopolis.

Every game implements the kernel protocol in :mod:`meeple.kernel`; bots, the simulator,
the command line and every other driver only ever talk to that protocol.

A compiled engine never runs stale code: ``tools/compile.py`` records the hash of each source
it compiles (``compiled.json`` beside this file), and when a source no longer matches, every
compiled module is loaded from its ``.py`` file instead, with a warning (:mod:`meeple.stale`).
"""

from meeple.stale import guard_compiled_build

__version__ = "0.1.0"

guard_compiled_build()
