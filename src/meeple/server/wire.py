"""The JSON text of what the server sends on its WebSockets and in answer to an action.

Every action sends an update to each socket of the game and answers the action with the seat's
view; at a thousand games, encoding them was the largest single cost of the server
(``benchmarks/README.md``, server section). Three things make it cheap:

- :func:`dumps` encodes with pydantic-core's serializer (written in Rust, already installed as
  the core of pydantic, which FastAPI uses for every answer): the same compact text as
  Starlette's ``send_json`` (``json.dumps`` with ``separators=(",", ":")`` and
  ``ensure_ascii=False``), several times faster. The one difference is the spelling of some
  floats (``1e-05`` becomes ``0.00001``): the same number to any JSON reader.
- a :class:`Message` queued for several sockets (every spectator, each tab of a seat, a chat
  message) is encoded by the first socket that sends it and the text reused by the others.
- each seat's view is encoded once for a position: its update and the answer to its action
  are joined from the texts of their parts (:func:`join_objects`), the view's among them
  (:meth:`meeple.server.hub.LiveGame.broadcast`).
"""

from __future__ import annotations

import gc
import json
from typing import Any

from pydantic_core import PydanticSerializationError, to_json


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text, non-ASCII characters as they are."""
    try:
        return to_json(obj).decode()
    except PydanticSerializationError:
        # What pydantic-core refuses (a lone surrogate in a string, say): the standard
        # library's text, so a socket fails (or not) exactly as it did with send_json.
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def join_objects(*texts: str) -> str:
    """The JSON text of the object with the items of the objects of ``texts``, in order:
    ``'{"a":1}'`` and ``'{"b":2}'`` make ``'{"a":1,"b":2}'`` (as :func:`dumps` of the whole)."""
    return "{" + ",".join(t[1:-1] for t in texts if t != "{}") + "}"


class Message(dict[str, Any]):
    """A message put on sockets' queues: its JSON text is made once (when first sent, if not
    given). Nothing changes a message once it is queued. Given its text, a message's fields
    may be a part of it (an update's head without its view, a relayed message's none): the
    text is what is sent."""

    __slots__ = ("_text",)
    _text: str

    def __init__(self, data: dict[str, Any], text: str | None = None) -> None:
        super().__init__(data)
        if text is not None:
            self._text = text

    @classmethod
    def relayed(cls, text: str) -> Message:
        """A message known by its text alone: one another process made and published for a
        socket here (:mod:`meeple.server.cluster`). It is sent as it came; its fields are not
        read here, so the text is not parsed again."""
        return cls({}, text)

    def text(self) -> str:
        try:
            return self._text
        except AttributeError:
            self._text = dumps(self)
            return self._text


def text_of(msg: dict[str, Any]) -> str:
    """The JSON text to send for ``msg``: a :class:`Message`'s own, made once."""
    return msg.text() if isinstance(msg, Message) else dumps(msg)


def loads(raw: str | bytes) -> Any:
    """A client's JSON text parsed (``json.loads``), with the garbage collector held off
    meanwhile: a message nested past the recursion limit fails with ``RecursionError`` at its
    deepest point, and a collection started there would run finalizers with no stack left to
    run them (each then lost as an "unraisable" exception). Raises what ``json.loads`` raises."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return json.loads(raw)
    finally:
        if enabled:
            gc.enable()
