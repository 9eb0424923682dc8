"""``meeple admin``: the operator's commands, talking to a running ``meeple serve`` over HTTP
(its ``/api/admin/`` endpoints, :mod:`meeple.server.admin`; docs/SERVER.md, "Operator
commands").

The admin token comes from ``$MEEPLE_ADMIN_TOKEN`` or ``--token-file``, never from an option's
value: a command line is visible to every user of the machine (``ps``) and kept in shell
histories. Requests use the standard library's ``urllib`` (httpx is only a development
dependency of meeple) and never follow a redirect, so the token goes to the server named and
nowhere else.

Exit status: 0 done; 1 the server refused (a wrong token, an unknown game, a game in play to
purge) or could not be reached; 2 bad usage (no token, a malformed ``--server``).
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.table import Table
from rich.text import Text

from meeple.cli.options import HELP_MARKUP, make_console

ADMIN_ENV = "MEEPLE_ADMIN_TOKEN"
"""The server's :data:`meeple.server.metrics.ADMIN_ENV` (not imported from there: the command
line need not load the server's packages to send a request)."""
SERVER_ENV = "MEEPLE_SERVER"
DEFAULT_SERVER = "http://127.0.0.1:8000"
TIMEOUT = 30.0
"""Seconds to wait for the server's answer (a purge of many games takes a while)."""

admin_app = typer.Typer(
    help="The operator's view of a running server: list, inspect, cancel and purge games "
    f"(needs the server's admin token, ${ADMIN_ENV}).",
    no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
)
console = make_console(highlight=False)
err = make_console(stderr=True, highlight=False)

Server = Annotated[
    str,
    typer.Option(
        "--server",
        envvar=SERVER_ENV,
        help="The server's URL.",
        show_envvar=True,
    ),
]
TokenFile = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        help=f"Read the admin token from this file (default: ${ADMIN_ENV}).",
        dir_okay=False,
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the server's answer as JSON.")]


class AdminError(Exception):
    """A request that did not succeed, with the reason in words and the exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # urllib would resend the Authorization header to wherever a redirect points.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def read_token(token_file: Path | None) -> str:
    """The admin token: the first line of ``token_file``, else ``$MEEPLE_ADMIN_TOKEN``."""
    if token_file is not None:
        try:
            lines = token_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            raise AdminError(f"cannot read the token file {token_file}: {reason}", 2) from None
        token = lines[0].strip() if lines else ""
        if not token:
            raise AdminError(f"the token file {token_file} is empty", 2)
        return _check(token)
    token = os.environ.get(ADMIN_ENV, "").strip()
    if not token:
        raise AdminError(
            f"no admin token: set ${ADMIN_ENV} (as for meeple serve) or give --token-file", 2
        )
    return _check(token)


def _check(token: str) -> str:
    # An HTTP header carries printable ASCII; anything else would fail deep inside urllib.
    if not all(33 <= ord(ch) <= 126 for ch in token):
        raise AdminError("the admin token must be printable ASCII with no spaces", 2)
    return token


def call(
    server: str,
    token: str,
    method: str,
    path: str,
    *,
    query: dict[str, Any] | None = None,
    body: Any = None,
) -> Any:
    """``method`` ``path`` on ``server`` with the admin token; the JSON answer, or
    :class:`AdminError` with the server's reason."""
    base = server.rstrip("/")
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AdminError(f"--server must be an http:// or https:// URL, not {server!r}", 2)
    url = base + path
    if query:
        url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(request, timeout=TIMEOUT) as answer:
            raw = answer.read()
    except urllib.error.HTTPError as exc:
        raise AdminError(_refusal(exc, base)) from None
    except urllib.error.URLError as exc:
        reason = exc.reason if isinstance(exc.reason, str) else _reason(exc.reason)
        raise AdminError(
            f"no meeple server answers at {base}: {reason} (is meeple serve running? give "
            f"its URL with --server or ${SERVER_ENV})"
        ) from None
    except (OSError, http.client.HTTPException) as exc:  # a timeout, a reset, not HTTP
        raise AdminError(f"{base} did not answer: {_reason(exc)}") from None
    try:
        return json.loads(raw)
    except ValueError:
        raise AdminError(f"the answer from {base} is not JSON: is it a meeple server?") from None


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _refusal(exc: urllib.error.HTTPError, base: str) -> str:
    """The server's refusal in words: its ``detail`` when it sent one."""
    detail = ""
    try:
        body = json.loads(exc.read() or b"null")
        found = body.get("detail") if isinstance(body, dict) else None
        if isinstance(found, str):
            detail = found
        elif isinstance(found, list) and found and isinstance(found[0], dict):
            # FastAPI's 422: a list of problems, each with where ("loc") and what ("msg").
            where = ".".join(str(p) for p in found[0].get("loc", []))
            detail = f"{where}: {found[0].get('msg', 'invalid')}"
    except (ValueError, OSError):
        pass
    if 300 <= exc.code < 400:
        where = exc.headers.get("Location", "elsewhere")
        return f"{base} redirects to {where}: give that URL with --server"
    if exc.code == 404 and detail in ("", "Not Found"):  # FastAPI's word for no such route
        return f"{base} has no admin endpoints (404): is it a meeple server of this version?"
    if not detail:
        detail = exc.reason if isinstance(exc.reason, str) else "no reason given"
    return f"{detail} ({exc.code})"


def _run(server: str, token_file: Path | None, method: str, path: str, **kw: Any) -> Any:
    """:func:`call` with the token, turning an :class:`AdminError` into a message and exit."""
    try:
        return call(server, read_token(token_file), method, path, **kw)
    except AdminError as exc:
        _fail(exc.message, exc.status)


def _fail(message: str, status: int) -> NoReturn:
    err.print(Text.assemble(("error: ", "bold red"), message), soft_wrap=True)
    raise typer.Exit(status)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def _when(iso: str) -> str:
    """An ISO time as ``YYYY-MM-DD HH:MM`` (the server's times are UTC)."""
    return iso[:16].replace("T", " ")


def _seats(seats: list[dict[str, Any]]) -> Text:
    text = Text()
    for i, s in enumerate(seats):
        if i:
            text.append(", ")
        if s["kind"] == "bot":
            text.append(s["name"], style="dim")  # the bot's kind: in `show` and --json
        elif s["kind"] == "open":
            text.append("(open)", style="dim")
        else:
            text.append(s["name"], style="bold")
            if s.get("stand_in"):
                text.append(" [bot stands in]", style="dim")
    return text


STATUSES = ("waiting", "active", "finished", "cancelled", "expired")
STATUS_STYLE = {"active": "green", "waiting": "yellow", "finished": "blue"}


@admin_app.command("list")
def list_games(
    status: Annotated[
        str | None,
        typer.Option(
            help="Only games of this status: waiting, active, finished, cancelled, expired."
        ),
    ] = None,
    limit: Annotated[int, typer.Option(help="The most games to list.", min=1, max=1000)] = 100,
    as_json: AsJson = False,
    server: Server = DEFAULT_SERVER,
    token_file: TokenFile = None,
) -> None:
    """List the games, newest first: private ones too, with seats, actions and times."""
    if status is not None and status not in STATUSES:
        _fail(f"--status is one of {', '.join(STATUSES)}, not {status!r}", 2)
    query = {"status": status, "limit": limit}
    games = _run(server, token_file, "GET", "/api/admin/games", query=query)
    if as_json:
        _print_json(games)
        return
    # The seats wrap; the rest stays on one line, so the table reads in 80 columns. When each
    # game was made is in `show` and --json.
    table = Table(
        title=f"Games on {server.rstrip('/')}",
        caption="* private: not in the lobby's open games" if games else None,
        box=None,
        pad_edge=False,
        header_style="bold underline",
    )
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("game", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("actions", justify="right", no_wrap=True)
    table.add_column("changed (UTC)", no_wrap=True)
    table.add_column("seats", ratio=1)
    for g in games:
        table.add_row(
            g["id"] + ("" if g["listed"] else "*"),
            g["game"],
            Text(g["status"], style=STATUS_STYLE.get(g["status"], "")),
            str(g["actions"]),
            _when(g["updated"]),
            _seats(g["seats"]),
        )
    console.print(table)
    more = " (the newest: --limit for more)" if len(games) >= limit else ""
    console.print(f"{len(games)} game{'' if len(games) == 1 else 's'}{more}")


@admin_app.command("show")
def show_game(
    game: Annotated[str, typer.Argument(help="The game's id (see meeple admin list).")],
    log: Annotated[
        int, typer.Option(help="Show the last N entries of the game's log.", min=0, max=500)
    ] = 10,
    as_json: AsJson = False,
    server: Server = DEFAULT_SERVER,
    token_file: TokenFile = None,
) -> None:
    """Show one game: its record, seats, what the server holds of it, its last log lines."""
    path = f"/api/admin/games/{urllib.parse.quote(game, safe='')}"
    g = _run(server, token_file, "GET", path, query={"log": log})
    if as_json:
        _print_json(g)
        return
    about = Table.grid(padding=(0, 2))
    about.add_column(style="bold")
    about.add_column()
    timer = "none" if g["turn_timer"] is None else f"{g['turn_timer']:g} s"
    for key, value in (
        ("game", f"{g['id']} ({g['game']}, {g['players']} players)"),
        ("status", g["status"]),
        ("lobby", "listed" if g["listed"] else "private"),
        ("actions", str(g["actions"])),
        ("created", _when(g["created"]) + " UTC"),
        ("updated", _when(g["updated"]) + " UTC"),
        ("turn timer", timer),
        ("rematch", g["rematch"] or "none"),
    ):
        about.add_row(key, Text(value))
    live = g["live"]
    if live is None:
        about.add_row("in memory", "no (it loads when someone asks for it)")
    else:
        about.add_row(
            "in memory",
            f"yes: {live['status']} at {live['state_id']}, table "
            f"{'running' if live['table_running'] else 'stopped'}, {live['sockets']} sockets "
            f"({live['spectators']} spectators)",
        )
    console.print(about)
    seats = Table(title="Seats")
    for col in ("seat", "kind", "name", "bot", "asked", "sockets"):
        seats.add_column(col)
    by_seat = {s["seat"]: s for s in live["seats"]} if live else {}
    for s in g["seats"]:
        bot = s["bot"] or ("standard (stands in)" if s["stand_in"] else "")
        asked = "" if s["kind"] != "human" else ("always" if s["ask"] is None else "settings")
        sockets = str(by_seat[s["seat"]]["sockets"]) if s["seat"] in by_seat else "-"
        seats.add_row(str(s["seat"] + 1), s["kind"], Text(s["name"]), bot, asked, sockets)
    console.print(seats)
    if g["log"]:
        console.print("[bold]Last log entries[/]")
        for entry in g["log"]:
            for line in entry["events"]:
                console.print(Text(f"{entry['state_id']:>5}  {line}"))


@admin_app.command("cancel")
def cancel_game(
    game: Annotated[str, typer.Argument(help="The game's id (see meeple admin list).")],
    as_json: AsJson = False,
    server: Server = DEFAULT_SERVER,
    token_file: TokenFile = None,
) -> None:
    """Cancel a game waiting or in play, as its host would: kept as a record, played no more;
    its open pages see it cancelled at once."""
    path = f"/api/admin/games/{urllib.parse.quote(game, safe='')}/cancel"
    g = _run(server, token_file, "POST", path)
    if as_json:
        _print_json(g)
        return
    told = g["live"]["sockets"] if g["live"] else 0
    console.print(
        f"cancelled game {g['id']} ({g['game']}, {g['actions']} actions); "
        f"{told} open socket{'' if told == 1 else 's'} told"
    )


@admin_app.command("purge")
def purge(
    game: Annotated[
        str | None, typer.Argument(help="One game to delete (finished, cancelled or expired).")
    ] = None,
    older_than_days: Annotated[
        float | None,
        typer.Option(
            help="Delete every finished, cancelled and expired game not changed for this many "
            "days (0: all of them).",
            min=0.0,
            max=36_500.0,
        ),
    ] = None,
    as_json: AsJson = False,
    server: Server = DEFAULT_SERVER,
    token_file: TokenFile = None,
) -> None:
    """Delete old game records with their seats, actions and chat: one game, or every game
    over for N days. A game waiting or in play is never deleted: cancel it first."""
    if (game is None) == (older_than_days is None):
        _fail("give either a game's id or --older-than-days N", 2)
    if game is not None:
        path = f"/api/admin/games/{urllib.parse.quote(game, safe='')}"
        answer = _run(server, token_file, "DELETE", path)
    else:
        body = {"older_than_days": older_than_days}
        answer = _run(server, token_file, "POST", "/api/admin/purge", body=body)
    if as_json:
        _print_json(answer)
        return
    gone = answer["purged"]
    if not gone:
        console.print("nothing to purge")
        return
    console.print(f"purged {len(gone)} game{'' if len(gone) == 1 else 's'}: {', '.join(gone)}")
