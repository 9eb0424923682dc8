"""Shared pytest options: ``--big`` runs the long random-play audits; the tests listed in
:data:`SLOW` carry the ``slow`` mark, which ``make check`` leaves out (``make test`` runs all)."""

from __future__ import annotations

import pytest

SLOW = (
    "tests/browser/",  # Chromium (about 2 minutes of the suite)
    "tests/monopoly/test_random_play.py",  # 2,000 audited games (two thirds of the suite)
    "tests/test_compiled.py",  # builds the engine with mypyc
    "tests/test_install.py",  # builds wheels, one of them with mypyc
    "tests/server/test_cluster.py",  # server processes on PostgreSQL and Redis
    "tests/server/test_fuzz.py",  # schemathesis against the API
    "tests/server/test_byte_fuzz.py",  # hypothesis's bytes against a real server
    "tests/server/test_http_limits.py",  # raw sockets against a real server, waiting it out
    "tests/sim/test_bench_classic.py",  # the speed benchmark at a small size
    "tests/sim/test_bench_monopolis.py",  # Monopolis's speed benchmark at a small size
    "tests/sim/test_ray_backend.py",  # a local Ray cluster
    "tests/rl/test_rllib.py",  # RLlib training on a local Ray cluster (skipped without it)
    "tests/monopoly/test_is_legal.py",  # is_legal against legal_actions over many positions
    "tests/test_play_flow.py",  # the terminal game under a pseudo-terminal
    "tests/sim/test_signals.py",  # simulate stopped by real signals, 10**12 games in flight
    "tests/test_docs.py::test_the_readme_tour_runs_as_written",  # the README's commands, run
    "tests/test_play_asking.py",  # the same, for when the terminal asks
)
"""Where the slow tier lives: each of these took 10 s or more of a worker's time in a full run
(``pytest --durations``), about nine tenths of the suite between them."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


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
