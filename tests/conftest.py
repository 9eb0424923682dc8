"""Shared pytest options: ``--big`` runs the long random-play audits."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--big",
        action="store_true",
        default=False,
        help="run the long random-play audits (20,000 games)",
    )


@pytest.fixture
def big(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--big"))
