# The two quick-start commands: `make run` and `make test`. Both build the virtual environment
# in .venv on first use (Python 3.11+ with venv and pip is all a fresh machine needs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test check lint bench compiled fresh pure test-pure clean lock

# The editable install compiles the engine with mypyc in place (setup.py) when a C compiler
# works; without one, or with MEEPLE_PURE=1, it installs the pure-Python engine (one line says
# so; `meeple version` says which build runs).
$(BIN)/meeple: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(BIN)/meeple

# The main job on its embedded defaults: the web app on 127.0.0.1:8000, games in meeple.sqlite.
run: fresh
	$(BIN)/meeple serve

# Every test, plus lint and type checks: the whole suite on the compiled engine (the default
# build), then the engine tests on the pure-Python one (tests/test_compiled.py checks that the
# two play the same games). Without a C compiler both runs are pure.
test: fresh lint
	$(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider
	MEEPLE_PURE=1 $(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider $(ENGINE_TESTS)

# The engine's own tests (the rules of both families, golden games, determinism), for the pure
# run of `make test`; the long random-play audit runs compiled only.
ENGINE_TESTS := tests/monopoly tests/monopolis tests/test_golden.py tests/test_same_games.py \
	tests/test_protocol.py tests/test_rng.py tests/test_every_game.py tests/test_record_history.py \
	--deselect tests/monopoly/test_random_play.py

# Lint, types and the fast tier: every test but those marked slow (tests/conftest.py: Chromium,
# server processes, mypyc, the long random-play audit). For the edit-test loop; CI runs `test`.
check: fresh lint
	$(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider -m "not slow"

# A compiled build whose sources changed since is compiled again first (about a minute); a pure
# install stays pure, and MEEPLE_PURE=1 skips it (the stale build then runs pure, unwarned).
fresh: $(BIN)/meeple
	$(BIN)/python tools/compile.py --if-stale

# The image's lock file (Dockerfile): the core's and the server extra's dependencies pinned with
# every file's hash, for Python 3.11 on Linux (the image's). Run it after changing either list in
# pyproject.toml (tests/server/test_lock.py fails until then); pins already there are kept, and
# `make lock LOCK_OPTIONS=--upgrade` moves each to its newest release.
lock: $(BIN)/meeple
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra server --generate-hashes --python-version 3.11 \
		--python-platform linux --custom-compile-command "make lock" $(LOCK_OPTIONS) \
		-o requirements/server.txt

lint: $(BIN)/meeple
	$(BIN)/ruff check src tests tools benchmarks examples setup.py
	$(BIN)/ruff format --check src tests tools benchmarks examples setup.py
	$(BIN)/mypy
	$(BIN)/mypy examples

bench: fresh
	$(BIN)/python benchmarks/bench_classic.py

# The engine compiled by mypyc again, in place (C extensions beside the .py files), and back to
# pure Python (until `make compiled`). See benchmarks/README.md.
compiled: $(BIN)/meeple
	$(BIN)/python tools/compile.py

pure: $(BIN)/meeple
	$(BIN)/python tools/compile.py --clean

# Every test on the pure-Python engine, beside a compiled build.
test-pure: $(BIN)/meeple
	MEEPLE_PURE=1 $(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider

clean:
	rm -rf $(VENV) build dist src/*.egg-info
	find src -name '*.so' -delete
	rm -f src/meeple/compiled.json
