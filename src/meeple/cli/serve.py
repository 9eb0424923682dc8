"""``meeple serve``: the web server (API, WebSockets, durable games)."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

if TYPE_CHECKING:  # (imported where used: meeple[server] may be missing)
    from fastapi import FastAPI

    from meeple.server.hub import Lifecycle
    from meeple.server.security import AllowedHosts, AllowedOrigins

FORWARDED_ENV = "MEEPLE_FORWARDED_ALLOW_IPS"
"""The default of ``--forwarded-allow-ips`` (as uvicorn reads ``FORWARDED_ALLOW_IPS``)."""
HSTS_ENV = "MEEPLE_HSTS"
"""The default of ``--hsts`` (``1``, ``true``, ``yes`` or ``on``)."""


HostOption = Annotated[str, typer.Option(help="Address to listen on.")]

PortOption = Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)]

DatabaseUrlOption = Annotated[
    str | None,
    typer.Option(
        help="SQLAlchemy database URL (default: $MEEPLE_DATABASE_URL, else "
        "sqlite:///meeple.sqlite in the current directory).",
    ),
]

BotPaceOption = Annotated[
    float,
    typer.Option(
        help="The table's pace: seconds a move the table plays (a bot's, a person's "
        "move-on) waits when it shows something, three times that before a turn's roll; "
        "moves that show nothing go at once.",
        min=0.0,
    ),
]

AwayTimerOption = Annotated[
    float,
    typer.Option(
        help="Seconds a decision waits on a person who is away (no page of theirs open) "
        "before the standard bot plays their seat, until they are back (0: never).",
        min=0.0,
    ),
]

AccessLogOption = Annotated[
    bool,
    typer.Option(
        "--access-log",
        help="Log every HTTP request (off by default: it costs CPU on every move). "
        "Secrets in a URL's query (token=, code=) are logged as [redacted].",
    ),
]

WsCompressionOption = Annotated[
    bool,
    typer.Option(
        "--ws-compression/--no-ws-compression",
        help="Compress WebSocket messages (permessage-deflate) for clients that offer it, "
        "as browsers do: an update takes about a fifth of the bytes, for about an eighth "
        "more CPU per action (benchmarks/README.md, server section).",
    ),
]

AllowedHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        metavar="HOST",
        help="A Host this server answers to, NAME or NAME:PORT (repeat for each; "
        "default: $MEEPLE_ALLOWED_HOSTS, comma-separated, else the names of --host: "
        "127.0.0.1, localhost and [::1] for a loopback address, any IP address and "
        "localhost for 0.0.0.0 or ::). Others get 400 (DNS rebinding).",
    ),
]

AllowedOriginOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-origin",
        metavar="ORIGIN",
        help="An origin besides the server's own, https://HOST[:PORT], whose pages may "
        "change state and open WebSockets (repeat for each; default: "
        "$MEEPLE_ALLOWED_ORIGINS, comma-separated). Other origins get 403.",
    ),
]

ExpireAfterDaysOption = Annotated[
    float,
    typer.Option(
        help="A game waiting or in play that nobody moved for this many days expires (0: never).",
        min=0.0,
    ),
]

PurgeAfterDaysOption = Annotated[
    float,
    typer.Option(
        help="Delete finished, cancelled and expired games this many days after their "
        "last change (0: keep them as records for replays).",
        min=0.0,
    ),
]

MaxBotGamesOption = Annotated[
    int,
    typer.Option(
        help="How many all-bot games play at once (each only while someone watches it); "
        "others wait for a slot.",
        min=1,
    ),
]

UnloadAfterMinutesOption = Annotated[
    float,
    typer.Option(
        help="Let go from memory a game nobody asked for this many minutes (it loads "
        "again, from the database, when someone does).",
        min=1.0,
    ),
]

RedisUrlOption = Annotated[
    str | None,
    typer.Option(
        help="Serve the database's games together with other meeple serve processes, "
        "which share this Redis (redis://HOST:PORT/DB; default: $MEEPLE_REDIS_URL). Each "
        "game in play is held by one process at a time; the others forward to it "
        "(docs/SERVER.md, 'More than one process'). Needs a database every process "
        "reaches: PostgreSQL.",
    ),
]

LeaseSecondsOption = Annotated[
    float,
    typer.Option(
        help="With --redis-url: how long a game held by a process that died waits before "
        "another takes it over.",
        min=1.0,
    ),
]

ForwardedAllowIpsOption = Annotated[
    str | None,
    typer.Option(
        "--forwarded-allow-ips",
        envvar=FORWARDED_ENV,
        metavar="ADDRESSES",
        help="The reverse proxy's addresses, comma-separated: from them X-Forwarded-For "
        "gives the client's address (the per-client limits count by it) and "
        "X-Forwarded-Proto the scheme. Name each proxy's own address; a network "
        "(10.0.0.0/8) or * is taken with a warning (any machine in it could name any "
        "client). Default: none, the headers are ignored and the connection's address is "
        "the client's.",
    ),
]

WaitingExpireMinutesOption = Annotated[
    float,
    typer.Option(
        help="A game waiting to start that nobody joined for this many minutes expires "
        "(0: only as any other game, after --expire-after-days).",
        min=0.0,
    ),
]

HstsOption = Annotated[
    bool,
    typer.Option(
        "--hsts",
        envvar=HSTS_ENV,
        help="Send Strict-Transport-Security (max-age one year) on every answer: only "
        "for a server reached over HTTPS alone, when the TLS proxy does not send it "
        "itself (docs/DEPLOY.md).",
    ),
]

RequestTimeoutOption = Annotated[
    float,
    typer.Option(
        help="Seconds a client has to send a whole request from its first byte, and a new "
        "connection its first byte; then it is closed (408). Request heads are limited to "
        "32 KiB (431). A WebSocket is timed until its upgrade (docs/DEPLOY.md).",
        min=1.0,
    ),
]

NoLimitsOption = Annotated[
    bool,
    typer.Option(
        "--no-limits",
        help="Turn off the per-client and per-socket limits (docs/SERVER.md, 'Limits'): "
        "for load tests from one address, never for a server facing the internet.",
    ),
]


def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    database_url: DatabaseUrlOption = None,
    bot_pace: BotPaceOption = 0.5,
    # The away timer's default is meeple.server.hub.AWAY_TIMER (not imported here: the server
    # extra may be missing).
    away_timer: AwayTimerOption = 30.0,
    access_log: AccessLogOption = False,
    ws_compression: WsCompressionOption = True,
    allowed_host: AllowedHostOption = None,
    allowed_origin: AllowedOriginOption = None,
    expire_after_days: ExpireAfterDaysOption = 7.0,
    purge_after_days: PurgeAfterDaysOption = 0.0,
    max_bot_games: MaxBotGamesOption = 20,
    unload_after_minutes: UnloadAfterMinutesOption = 10.0,
    redis_url: RedisUrlOption = None,
    lease_seconds: LeaseSecondsOption = 5.0,
    forwarded_allow_ips: ForwardedAllowIpsOption = None,
    waiting_expire_minutes: WaitingExpireMinutesOption = 60.0,
    hsts: HstsOption = False,
    request_timeout: RequestTimeoutOption = 10.0,
    no_limits: NoLimitsOption = False,
) -> None:
    """Serve games over HTTP and WebSocket; games survive a restart (needs meeple\\[server]).

    $MEEPLE_ADMIN_TOKEN, when set, guards /metrics and turns on the operator's endpoints
    (docs/SERVER.md, "Operating"); without it, /metrics of a server listening beyond loopback
    answers 403.
    """
    from meeple.cli.extras import require

    require("server", "meeple serve")
    from meeple.server.app import create_app, resolve_database_url
    from meeple.server.limits import NO_LIMITS, Limits

    url = resolve_database_url(database_url)
    guards = _guards(host, port, allowed_host, allowed_origin, forwarded_allow_ips)
    typer.echo(f"meeple: storing games in {_redact(url)}")
    typer.echo(f"meeple: open {browse_url(host, port)} (API docs at /docs)")
    _start_logs()
    typer.echo(f"meeple: answering to Host {guards.answered} (see --allowed-host)")
    if guards.origins:
        typer.echo(f"meeple: also taking requests from pages of {guards.listed}")
    redis_url = _redis(redis_url)
    _say_proxies(host, guards.proxies)
    app = create_app(
        url,
        bot_pace,
        allowed_hosts=guards.hosts,
        allowed_origins=guards.origins,
        limits=NO_LIMITS if no_limits else Limits(),
        lifecycle=_lifecycle(
            expire_after_days,
            purge_after_days,
            unload_after_minutes,
            max_bot_games,
            waiting_expire_minutes,
        ),
        redis_url=redis_url,
        lease_seconds=lease_seconds,
        listen=host,
        hsts=hsts,
        away_timer=away_timer if away_timer > 0 else None,
    )
    _run(app, host, port, access_log, guards.proxies, ws_compression, request_timeout)


class Guards(NamedTuple):
    """Who the server answers: the Hosts (``--allowed-host``), the other origins
    (``--allowed-origin``), each as a list and as the server's check, and the proxies trusted
    for the client's address (``--forwarded-allow-ips``)."""

    hosts: list[str]
    origins: list[str]
    answered: AllowedHosts
    listed: AllowedOrigins
    proxies: list[str]


def _guards(
    host: str,
    port: int,
    allowed_host: list[str] | None,
    allowed_origin: list[str] | None,
    forwarded_allow_ips: str | None,
) -> Guards:
    """The guards the options (or the environment) set, each checked: a bad one is refused
    as the option's bad value, before the server starts."""
    from meeple.server.security import (
        AllowedHosts,
        AllowedOrigins,
        resolve_hosts,
        resolve_origins,
        trusted_proxies,
    )

    hosts, origins = resolve_hosts(allowed_host, host, port), resolve_origins(allowed_origin)
    try:
        answered = AllowedHosts(hosts)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--allowed-host") from None
    try:
        listed = AllowedOrigins(origins)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--allowed-origin") from None
    try:
        proxies = trusted_proxies(forwarded_allow_ips)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--forwarded-allow-ips") from None
    return Guards(hosts, origins, answered, listed, proxies)


def _start_logs() -> None:
    """The server's log lines on stderr, secrets in URLs redacted."""
    from meeple.server import logs

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    logs.install()  # an old client may still put a token in a URL, and uvicorn logs URLs


def _redis(redis_url: str | None) -> str | None:
    """The Redis shared with other processes (``--redis-url``, else ``$MEEPLE_REDIS_URL``),
    its URL checked and said; ``None``: this process serves alone."""
    redis_url = redis_url or os.environ.get("MEEPLE_REDIS_URL") or None
    if redis_url is not None:
        from redis.asyncio import Redis

        try:
            Redis.from_url(redis_url)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--redis-url") from None
        typer.echo(f"meeple: serving games with the other processes on Redis {_redact(redis_url)}")
    return redis_url


def _say_proxies(host: str, proxies: list[str]) -> None:
    """The proxies trusted, a warning for each too wide, and that /metrics answers 403 on a
    server listening beyond loopback until the operator's token is set."""
    from meeple.server.metrics import admin_token, metrics_need_token
    from meeple.server.security import proxy_warnings

    if proxies:
        typer.echo(f"meeple: client addresses from X-Forwarded-For of {', '.join(proxies)}")
    for warning in proxy_warnings(proxies):
        typer.echo(f"meeple: warning: {warning}", err=True)
    if metrics_need_token(host) and admin_token() is None:
        typer.echo(
            f"meeple: /metrics answers 403 until MEEPLE_ADMIN_TOKEN is set (listening on {host}, "
            "beyond loopback)",
            err=True,
        )


def _lifecycle(
    expire_after_days: float,
    purge_after_days: float,
    unload_after_minutes: float,
    max_bot_games: int,
    waiting_expire_minutes: float,
) -> Lifecycle:
    """When games expire, are purged and let go from memory, and how many all-bot games play
    at once (0 days or minutes: never)."""
    from meeple.server.hub import Lifecycle

    day = 24 * 3600.0
    return Lifecycle(
        expire_after=expire_after_days * day if expire_after_days > 0 else None,
        purge_after=purge_after_days * day if purge_after_days > 0 else None,
        unload_after=unload_after_minutes * 60.0,
        max_bot_games=max_bot_games,
        waiting_expire_after=waiting_expire_minutes * 60.0 if waiting_expire_minutes else None,
    )


def _run(
    app: FastAPI,
    host: str,
    port: int,
    access_log: bool,
    proxies: list[str],
    ws_compression: bool,
    request_timeout: float,
) -> None:
    """Serve ``app`` with uvicorn until stopped."""
    import uvicorn

    from meeple.server.deflate import WideWindowProtocol
    from meeple.server.httpprotocol import GuardedHttp
    from meeple.server.schemas import MAX_ACTION

    # No access log by default: a line for every action is CPU spent on each move under load
    # (benchmarks/bench_server.py); the app logs what matters (games started, resumed, errors).
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=16 * 1024 + MAX_ACTION,
        log_level="info",
        access_log=access_log,
        # uvicorn's own default trusts a proxy on the loopback addresses (or $FORWARDED_ALLOW_IPS);
        # here only the addresses given are trusted, and none when none is given.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        ws_per_message_deflate=ws_compression,
        ws=WideWindowProtocol,  # each update compressed against the last (server/deflate.py)
        # httptools with a head limit and a deadline for each request (server/httpprotocol.py)
        http=GuardedHttp.with_deadline(request_timeout),
    )


def browse_url(host: str, port: int) -> str:
    """The address to open in a browser: a server listening on every address (``0.0.0.0``,
    ``::``) is reached at ``localhost`` on this machine (nobody can browse to ``0.0.0.0``)."""
    if host in ("0.0.0.0", "::", ""):
        return f"http://localhost:{port}/ (listening on every address)"
    shown = host if ":" not in host else f"[{host}]"
    return f"http://{shown}:{port}/"


def _redact(url: str) -> str:
    """``url`` (a database's or Redis') without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url
