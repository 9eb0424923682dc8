"""``meeple serve``: the web server (API, WebSockets, durable games)."""

from __future__ import annotations

import logging
from typing import Annotated

import typer


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
        float, typer.Option(help="Seconds a bot waits before each move.", min=0.0)
    ] = 0.5,
) -> None:
    """Serve games over HTTP and WebSocket; games survive a restart."""
    import uvicorn

    from meeple.server.app import create_app, resolve_database_url
    from meeple.server.schemas import MAX_ACTION

    url = resolve_database_url(database_url)
    shown = host if ":" not in host else f"[{host}]"
    typer.echo(f"meeple: storing games in {_redact(url)}")
    typer.echo(f"meeple: open http://{shown}:{port}/ (API docs at /docs)")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    app = create_app(url, bot_pace)
    # No access log: a line for every action is CPU spent on each move under load
    # (benchmarks/bench_server.py); the app logs what matters (games started, resumed, errors).
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=16 * 1024 + MAX_ACTION,
        log_level="info",
        access_log=False,
    )


def _redact(url: str) -> str:
    """``url`` without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url
