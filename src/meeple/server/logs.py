"""Keep secrets out of the server's log.

A seat's token, the host's key and an invite code travel in headers, bodies, the WebSocket's
first message or a link's ``#fragment``, never in a URL the server sees; but an old client
(or an old link) may still put one in a query string (``?token=``, ``?code=``), and uvicorn
logs request lines (``uvicorn.access``) and WebSocket paths (``uvicorn.error``: ``"WebSocket
/api/games/ID/ws?token=..." [accepted]``) with their query. :class:`RedactSecrets` replaces
the value of every such parameter with ``[redacted]`` before a record is written, and
:func:`install` puts it where ``meeple serve`` logs.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any
from urllib.parse import unquote_plus

REDACTED = "[redacted]"

SECRET_PARAMS = ("token", "host_token", "code", "invite")
"""Query parameters whose value is a secret (a seat's token, the host's key, an invite)."""

# A query parameter: its name (after ``?``, ``&``, ``;``, a space or at the start) and its
# value. A name is compared once unquoted (``tok%65n`` is ``token`` to the server, so it is to
# the filter).
_PARAM = re.compile(r"(?:(?<=[?&;\s])|^)(?P<name>[^?&;=#\s\"'/]+)=(?P<value>[^&;#\s\"']*)")


UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


def redact(text: str) -> str:
    """``text`` with the value of every secret query parameter replaced by ``[redacted]``."""
    if "=" not in text:
        return text
    return _PARAM.sub(_redact_param, text)


def _redact_param(m: re.Match[str]) -> str:
    if m["value"] and unquote_plus(m["name"]).lower() in SECRET_PARAMS:
        return f"{m['name']}={REDACTED}"
    return m[0]


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """A logging filter that redacts secret query parameters in a record's message and in
    its arguments (in place, so formatters that read the arguments, like uvicorn's access
    log, see them redacted too). It never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


def install() -> RedactSecrets:
    """Redact every record of uvicorn's loggers, and every record that reaches the root
    logger's handlers (the app's own loggers). Logger filters survive uvicorn's own logging
    configuration (``logging.config.dictConfig`` replaces handlers, never filters), so this
    may be called before ``uvicorn.run``. Idempotent."""
    flt = RedactSecrets()
    targets: list[logging.Filterer] = [logging.getLogger(name) for name in UVICORN_LOGGERS]
    targets += logging.getLogger().handlers
    for target in targets:
        if not any(isinstance(f, RedactSecrets) for f in target.filters):
            target.addFilter(flt)
    return flt


WITHHELD = "(message withheld: it may hold what the client sent)"


def withheld_traceback(exc: BaseException) -> str:
    """``exc``'s traceback as Python prints it (the exceptions it was raised from or while
    handling first, an exception group's members after it), each exception's message replaced
    by :data:`WITHHELD`: the frames and types locate the fault, and no message can repeat a
    request's body or headers (a database error quotes its statement's parameters)."""
    out: list[str] = []
    seen: set[int] = set()

    def chain(e: BaseException) -> None:
        if id(e) in seen:  # a cycle of causes
            return
        seen.add(id(e))
        if e.__cause__ is not None:
            chain(e.__cause__)
            out.append("\nThe above exception was the direct cause of the following exception:\n\n")
        elif e.__context__ is not None and not e.__suppress_context__:
            chain(e.__context__)
            out.append("\nDuring handling of the above exception, another exception occurred:\n\n")
        out.append("Traceback (most recent call last):\n")
        out.extend(traceback.format_tb(e.__traceback__))
        out.append(f"{type(e).__module__}.{type(e).__qualname__}: {WITHHELD}\n")
        if isinstance(e, BaseExceptionGroup):
            for i, member in enumerate(e.exceptions, 1):
                out.append(f"\n({i} of the group's {len(e.exceptions)})\n")
                chain(member)

    chain(exc)
    return "".join(out).rstrip("\n")
