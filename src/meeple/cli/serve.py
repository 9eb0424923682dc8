"""``meeple serve``: the web server (API, WebSockets, durable games)."""

from __future__ import annotations

import logging
import os
from typing import Annotated

import typer

FORWARDED_ENV = "MEEPLE_FORWARDED_ALLOW_IPS"
"""The default of ``--forwarded-allow-ips`` (as uvicorn reads ``FORWARDED_ALLOW_IPS``)."""
HSTS_ENV = "MEEPLE_HSTS"
"""The default of ``--hsts`` (``1``, ``true``, ``yes`` or ``on``)."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL (default: $MEEPLE_DATABASE_URL, else "
            "sqlite:///meeple.sqlite in the current directory).",
        ),
    ] = None,
    bot_pace: Annotated[
        float,
        typer.Option(
            help="The table's pace: seconds a move the table plays (a bot's, a person's "
            "move-on) waits when it shows something, three times that before a turn's roll; "
            "moves that show nothing go at once.",
            min=0.0,
        ),
    ] = 0.5,
    away_timer: Annotated[
        float,
        typer.Option(
            help="Seconds a decision waits on a person who is away (no page of theirs open) "
            "before the standard bot plays their seat, until they are back (0: never).",
            min=0.0,
        ),
    ] = 30.0,  # meeple.server.hub.AWAY_TIMER (not imported here: the server extra may be missing)
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log",
            help="Log every HTTP request (off by default: it costs CPU on every move). "
            "Secrets in a URL's query (token=, code=) are logged as [redacted].",
        ),
    ] = False,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            help="Compress WebSocket messages (permessage-deflate) for clients that offer it, "
            "as browsers do: an update takes about a fifth of the bytes, for about an eighth "
            "more CPU per action (benchmarks/README.md, server section).",
        ),
    ] = True,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="HOST",
            help="A Host this server answers to, NAME or NAME:PORT (repeat for each; "
            "default: $MEEPLE_ALLOWED_HOSTS, comma-separated, else the names of --host: "
            "127.0.0.1, localhost and [::1] for a loopback address, any IP address and "
            "localhost for 0.0.0.0 or ::). Others get 400 (DNS rebinding).",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-origin",
            metavar="ORIGIN",
            help="An origin besides the server's own, https://HOST[:PORT], whose pages may "
            "change state and open WebSockets (repeat for each; default: "
            "$MEEPLE_ALLOWED_ORIGINS, comma-separated). Other origins get 403.",
        ),
    ] = None,
    expire_after_days: Annotated[
        float,
        typer.Option(
            help="A game waiting or in play that nobody moved for this many days expires "
            "(0: never).",
            min=0.0,
        ),
    ] = 7.0,
    purge_after_days: Annotated[
        float,
        typer.Option(
            help="Delete finished, cancelled and expired games this many days after their "
            "last change (0: keep them as records for replays).",
            min=0.0,
        ),
    ] = 0.0,
    max_bot_games: Annotated[
        int,
        typer.Option(
            help="How many all-bot games play at once (each only while someone watches it); "
            "others wait for a slot.",
            min=1,
        ),
    ] = 20,
    unload_after_minutes: Annotated[
        float,
        typer.Option(
            help="Let go from memory a game nobody asked for this many minutes (it loads "
            "again, from the database, when someone does).",
            min=1.0,
        ),
    ] = 10.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Serve the database's games together with other meeple serve processes, "
            "which share this Redis (redis://HOST:PORT/DB; default: $MEEPLE_REDIS_URL). Each "
            "game in play is held by one process at a time; the others forward to it "
            "(docs/SERVER.md, 'More than one process'). Needs a database every process "
            "reaches: PostgreSQL.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            help="With --redis-url: how long a game held by a process that died waits before "
            "another takes it over.",
            min=1.0,
        ),
    ] = 5.0,
    forwarded_allow_ips: Annotated[
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
    ] = None,
    waiting_expire_minutes: Annotated[
        float,
        typer.Option(
            help="A game waiting to start that nobody joined for this many minutes expires "
            "(0: only as any other game, after --expire-after-days).",
            min=0.0,
        ),
    ] = 60.0,
    hsts: Annotated[
        bool,
        typer.Option(
            "--hsts",
            envvar=HSTS_ENV,
            help="Send Strict-Transport-Security (max-age one year) on every answer: only "
            "for a server reached over HTTPS alone, when the TLS proxy does not send it "
            "itself (docs/DEPLOY.md).",
        ),
    ] = False,
    request_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a client has to send a whole request from its first byte, and a new "
            "connection its first byte; then it is closed (408). Request heads are limited to "
            "32 KiB (431). A WebSocket is timed until its upgrade (docs/DEPLOY.md).",
            min=1.0,
        ),
    ] = 10.0,
    no_limits: Annotated[
        bool,
        typer.Option(
            "--no-limits",
            help="Turn off the per-client and per-socket limits (docs/SERVER.md, 'Limits'): "
            "for load tests from one address, never for a server facing the internet.",
        ),
    ] = False,
) -> None:
    """Serve games over HTTP and WebSocket; games survive a restart (needs meeple\\[server]).

    $MEEPLE_ADMIN_TOKEN, when set, guards /metrics and turns on the operator's endpoints
    (docs/SERVER.md, "Operating"); without it, /metrics of a server listening beyond loopback
    answers 403.
    """
    from meeple.cli.extras import require

    require("server", "meeple serve")
    import uvicorn

    from meeple.server import logs
    from meeple.server.app import create_app, resolve_database_url
    from meeple.server.deflate import WideWindowProtocol
    from meeple.server.httpprotocol import GuardedHttp
    from meeple.server.hub import Lifecycle
    from meeple.server.limits import NO_LIMITS, Limits
    from meeple.server.metrics import admin_token, metrics_need_token
    from meeple.server.schemas import MAX_ACTION
    from meeple.server.security import (
        AllowedHosts,
        AllowedOrigins,
        proxy_warnings,
        resolve_hosts,
        resolve_origins,
        trusted_proxies,
    )

    url = resolve_database_url(database_url)
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
    typer.echo(f"meeple: storing games in {_redact(url)}")
    typer.echo(f"meeple: open {browse_url(host, port)} (API docs at /docs)")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    logs.install()  # an old client may still put a token in a URL, and uvicorn logs URLs
    typer.echo(f"meeple: answering to Host {answered} (see --allowed-host)")
    if origins:
        typer.echo(f"meeple: also taking requests from pages of {listed}")
    redis_url = redis_url or os.environ.get("MEEPLE_REDIS_URL") or None
    if redis_url is not None:
        from redis.asyncio import Redis

        try:
            Redis.from_url(redis_url)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--redis-url") from None
        typer.echo(f"meeple: serving games with the other processes on Redis {_redact(redis_url)}")
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
    limits = NO_LIMITS if no_limits else Limits()
    day = 24 * 3600.0
    lifecycle = Lifecycle(
        expire_after=expire_after_days * day if expire_after_days > 0 else None,
        purge_after=purge_after_days * day if purge_after_days > 0 else None,
        unload_after=unload_after_minutes * 60.0,
        max_bot_games=max_bot_games,
        waiting_expire_after=waiting_expire_minutes * 60.0 if waiting_expire_minutes else None,
    )
    app = create_app(
        url,
        bot_pace,
        allowed_hosts=hosts,
        allowed_origins=origins,
        limits=limits,
        lifecycle=lifecycle,
        redis_url=redis_url,
        lease_seconds=lease_seconds,
        listen=host,
        hsts=hsts,
        away_timer=away_timer if away_timer > 0 else None,
    )
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
