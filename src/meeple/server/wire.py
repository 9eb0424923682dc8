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
import math
import re
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


NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""A character no string a client sends may hold: a control character other than tab, line
feed and carriage return (NUL among them: PostgreSQL's text cannot store it), and a surrogate
on its own (``"\\ud800"`` is valid JSON syntax but no character: no UTF-8 text can hold it)."""


class BadJSON(ValueError):
    """Why a client's JSON is refused, and the answer's status: ``400`` when it is not JSON
    text as RFC 8259 and I-JSON (RFC 7493) define it, ``422`` when a string holds a character
    no field takes (:data:`NOT_TEXT`). The reason says what is wrong and where, never what was
    sent (docs/SERVER.md, "Bad bytes")."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def loads(raw: str | bytes, *, strict: bool = True, root: str = "body") -> Any:
    """A client's JSON text parsed. Strict (the default), it refuses with :class:`BadJSON` what
    ``json.loads`` would let through: bytes that are not UTF-8, ``NaN`` and ``Infinity``, a
    number beyond a double's range (``1e400``, which would read as infinity), and a string or
    key with a character of :data:`NOT_TEXT`; JSON text that does not parse, or nests past the
    recursion limit, is refused too. Reasons say where, from ``root`` (``body.seats[1].name:
    ...``). ``strict=False`` is ``json.loads`` itself (a refused WebSocket message is read that
    way to tell an action from the rest), and raises what it raises.

    The garbage collector is held off meanwhile: a message nested past the recursion limit
    fails with ``RecursionError`` at its deepest point, and a collection started there would
    run finalizers with no stack left to run them (each then lost as an "unraisable"
    exception)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _strict(raw, root) if strict else json.loads(raw)
    finally:
        if enabled:
            gc.enable()


class _Refused(Exception):
    """What the parser's hooks raise (:func:`_no_constant`, :func:`_finite`), made a
    :class:`BadJSON` with the root's name by :func:`_strict`."""


def _no_constant(name: str) -> Any:
    raise _Refused(f"not JSON: {name} is no JSON number")


def _finite(number: str) -> float:
    value = float(number)
    if not math.isfinite(value):
        raise _Refused("not JSON the server reads: a number beyond a double's range")
    return value


def _strict(raw: str | bytes, root: str) -> Any:
    if isinstance(raw, (bytes, bytearray)):
        try:
            text = raw.decode("utf-8")  # (refuses encoded surrogates too)
        except UnicodeDecodeError as exc:
            raise BadJSON(400, f"{root}: not JSON: not UTF-8 text (byte {exc.start + 1})") from None
    else:
        text = raw
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except _Refused as exc:
        raise BadJSON(400, f"{root}: {exc}") from None
    except json.JSONDecodeError as exc:
        what = exc.msg.lower().removesuffix(" at")  # "unterminated string starting at"
        where = f"line {exc.lineno} column {exc.colno}"
        raise BadJSON(400, f"{root}: not JSON: {what} at {where}") from None
    except RecursionError:
        raise BadJSON(400, f"{root}: not JSON the server reads: nested too deep") from None
    except ValueError:  # an integer past Python's 4,300 digits
        raise BadJSON(
            400, f"{root}: not JSON the server reads: a number with too many digits"
        ) from None
    # json.loads refuses a raw control character below U+0020 in a string, so only an escape
    # (a backslash) or a raw character of NOT_TEXT above it can put one in: most texts have
    # neither, and are not walked.
    walk = "\\" in text or NOT_TEXT.search(text)
    if walk and (bad := _bad_string(value, root)) is not None:
        raise BadJSON(
            422,
            f"{bad}: a string may not hold a control character (other than tab and line "
            "breaks) or a lone surrogate",
        )
    return value


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


def _bad_string(value: Any, root: str) -> str | None:
    """Where in ``value`` a string or key holds a character of :data:`NOT_TEXT`
    (``body.seats[1].name``, ``body.rules (a key)``), the first in the text's order; ``None``
    if none does. A key is named in the path only if it is a short identifier, as every field
    is: the path repeats nothing else the client sent. Walked with a stack, not recursion, so
    as deep as ``json.loads`` read."""
    stack: list[tuple[Any, str]] = [(value, root)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if NOT_TEXT.search(item):
                return where
        elif isinstance(item, dict):
            for key in item:
                if NOT_TEXT.search(key):
                    return f"{where} (a key)"
            stack.extend(
                (sub, f"{where}.{key}" if _KEY.fullmatch(key) else f"{where}.…")
                for key, sub in reversed(item.items())
            )
        elif isinstance(item, list):
            stack.extend((item[i], f"{where}[{i}]") for i in reversed(range(len(item))))
    return None
