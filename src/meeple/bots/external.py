"""An external program as a bot: the arena's line protocol (docs/ARENA.md).

``cmd:PROGRAM`` (or ``exec:PROGRAM``) seats a program in any language. It is started once per
game and seat, reads one JSON object per line on its standard input and, for each decision,
writes the index of its chosen action on one line of its standard output:

- ``{"type": "start", ...}``: the game, the number of players, its seat, a seed of its own and
  the game's printed components (``GameFamily.board``); no answer.
- ``{"type": "decision", "view": ..., "legal": [{"index", "action", "text"}, ...]}``: the
  seat's view (:meth:`~meeple.kernel.protocol.GameState.view`, which never holds the deck
  order or the random state) and the legal actions; the answer is one line holding an index.
- ``{"type": "end", "result": ...}``: the game is over; then its input closes and it should
  exit.

A decision with one legal action is played without asking (it is no choice). A program that
exits, answers late (``time_limit`` seconds per decision) or answers something that is not
the index of a legal action forfeits its seat: it is stopped and the ``fallback`` bot (the
family's ``standard``) plays the seat to the end of the game; :attr:`ExternalBot.forfeit` says
why, for the results.

Only the arena seats these bots (``meeple tournament``): a server or a lobby never starts a
program a client names.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import shlex
import subprocess
import time
from collections.abc import Callable
from typing import Any

from meeple.kernel.bot import Bot
from meeple.kernel.family import family
from meeple.kernel.protocol import Action, GameState

PROTOCOL = 1
"""The protocol's version, sent in the ``start`` message."""

DEFAULT_TIME_LIMIT = 5.0
"""Seconds a program may take over one decision (and to start, on its first)."""

PREFIXES = ("cmd", "exec")
"""The bot kinds that name an external program: ``cmd:PROGRAM`` and ``exec:PROGRAM``."""

_INDEX = re.compile(r"-?[0-9]{1,18}")
_EXIT_GRACE_S = 1.0  # after its input closes, how long a program may take to exit by itself


class Forfeit(Exception):
    """The program lost its seat: why, in a short sentence."""


def is_external(kind: str) -> bool:
    """Whether the bot kind ``kind`` names an external program."""
    return kind.partition(":")[0] in PREFIXES


class ExternalBot(Bot):
    """A program speaking the line protocol, with ``fallback`` taking over if it fails.

    ``command`` is split like a shell would (``shlex``), but no shell runs it. The program is
    started at the first decision, so a bot made and never asked starts nothing. Call
    :meth:`close` when the game is over (it sends the ``end`` message).
    """

    name = "external"

    def __init__(
        self,
        command: str,
        seed: int,
        fallback: Callable[[], Bot],
        time_limit: float = DEFAULT_TIME_LIMIT,
    ) -> None:
        super().__init__(seed)
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("an external bot needs a program: cmd:PROGRAM")
        self.seed = seed
        self.time_limit = time_limit
        self.forfeit = ""
        """Why the program lost its seat ("" while it keeps it)."""
        self.decisions = 0
        """Decisions the program answered."""
        self._fallback = fallback
        self._stand_in: Bot | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if self._stand_in is not None:
            return self._stand_in.choose(state)
        if len(legal) == 1:
            return legal[0]
        try:
            if self._proc is None:
                self._start(state)
            seat = state.current_player()
            message = {
                "type": "decision",
                "seat": seat,
                "view": state.view(seat),
                "legal": [
                    {"index": i, "action": str(a), "text": state.describe_action(a)}
                    for i, a in enumerate(legal)
                ],
            }
            deadline = time.monotonic() + self.time_limit
            self._send(message, deadline)
            answer = self._read_line(deadline)
            index = _parse_index(answer, len(legal))
        except Forfeit as exc:
            return self._give_up(str(exc)).choose(state)
        self.decisions += 1
        return legal[index]

    def close(self, state: GameState | None = None) -> None:
        """Tell the program the game is over (with its result, if ``state`` has one), close
        its input and make sure it has exited."""
        proc = self._proc
        if proc is None:
            return
        if state is not None and not self.forfeit and proc.poll() is None:
            r = state.result()
            try:
                message = {"type": "end", "result": None if r is None else r.to_dict()}
                self._send(message, time.monotonic() + self.time_limit)
            except Forfeit:
                pass  # gone already: nothing left to tell it
        self._stop()

    def _start(self, state: GameState) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                # stderr is the program's own: it reaches the terminal, for its author
                stderr=None,
            )
        except OSError as exc:
            raise Forfeit(f"could not start {self.argv[0]!r}: {exc.strerror or exc}") from None
        assert self._proc.stdin is not None and self._proc.stdout is not None
        # Non-blocking pipes, so a program that stops reading or writing cannot hold the game
        # past its time limit (a blocking write of a large view would wait forever).
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": state.game_id,
                "family": state.family,
                "players": state.num_players,
                "seat": state.current_player(),
                "seed": self.seed,
                "time_limit": self.time_limit,
                # the printed components (deeds, prices, rents; tiles): public and unchanging
                "board": family(state.family).board(state),
            },
            time.monotonic() + self.time_limit,
        )

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        fd = proc.stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Forfeit(f"did not read its input within {self.time_limit:g} s")
            _, ready, _ = select.select([], [fd], [], left)
            if not ready:
                continue
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise Forfeit(self._exited()) from None
            data = data[n:]

    def _read_line(self, deadline: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Forfeit(f"no answer within {self.time_limit:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise Forfeit(self._exited())
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _exited(self) -> str:
        proc = self._proc
        assert proc is not None
        try:
            code = proc.wait(timeout=_EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {code}"

    def _give_up(self, why: str) -> Bot:
        """Stop the program and seat its stand-in for the rest of the game."""
        self.forfeit = f"{why} (after {self.decisions} decisions)"
        self._stop(grace=0.0)  # it had its chance: no waiting for it to exit
        self._stand_in = stand_in = self._fallback()
        return stand_in

    def _stop(self, grace: float = _EXIT_GRACE_S) -> None:
        """Close the program's pipes and see it exit, killing it after ``grace`` seconds."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):  # a pipe to a program that is gone
                    pipe.close()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __del__(self) -> None:
        # A game abandoned without close() (an exception in the play loop) leaves no process.
        if getattr(self, "_proc", None) is not None:
            self._stop()


def _parse_index(answer: bytes, n: int) -> int:
    """The index a program answered, or :class:`Forfeit` saying what was wrong with it."""
    text = answer.decode("utf-8", "replace").strip()
    if _INDEX.fullmatch(text) is None:  # ASCII digits only (int() also takes "1_0", "١")
        raise Forfeit(f"answered {text[:40]!r}, not an index")
    index = int(text)
    if not 0 <= index < n:
        raise Forfeit(f"answered {index}, not one of the {n} legal indices (0 to {n - 1})")
    return index


def make_arena_bot(kind: str, family_name: str, seed: int, time_limit: float) -> Bot:
    """A bot of ``kind`` for the arena: an external program (``cmd:``, ``exec:``), whose
    stand-in is the family's ``standard`` bot (``random`` for a family without one), or any
    kind :func:`~meeple.bots.base.make_bot` makes. ``ValueError`` names a bad kind."""
    from meeple.bots.base import bot_kinds, make_bot

    if not is_external(kind):
        return make_bot(kind, family_name, seed)
    stand_in = "standard" if "standard" in bot_kinds(family_name) else "random"
    command = kind.partition(":")[2]
    return ExternalBot(
        command,
        seed,
        lambda: make_bot(stand_in, family_name, seed),
        time_limit,
    )
