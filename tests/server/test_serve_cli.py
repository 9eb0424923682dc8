"""``meeple serve``'s own choices, with uvicorn stubbed out: the address it tells you to open,
and the WebSocket protocol it runs (``meeple.server.deflate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app as cli
from meeple.server.deflate import WideWindowProtocol


def serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[str, dict[str, Any]]:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    done = CliRunner().invoke(cli, ["serve", "--database-url", url, *args])
    assert done.exit_code == 0, done.output
    return done.output, seen


def test_a_server_on_every_address_says_to_open_localhost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = serve(tmp_path, monkeypatch, "--host", "0.0.0.0", "--port", "8123")
    assert "open http://localhost:8123/ (listening on every address)" in out
    assert "http://0.0.0.0" not in out
    out, _ = serve(tmp_path, monkeypatch, "--host", "::1", "--port", "8124")
    assert "open http://[::1]:8124/" in out


def test_sockets_run_the_wide_window_protocol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seen = serve(tmp_path, monkeypatch)
    assert seen["ws"] is WideWindowProtocol and seen["ws_per_message_deflate"] is True
    _, seen = serve(tmp_path, monkeypatch, "--no-ws-compression")
    assert seen["ws_per_message_deflate"] is False
