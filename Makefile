# The two quick-start commands: `make run` and `make test`. Both build the virtual environment
# in .venv on first use (Python 3.11+ with venv and pip is all a fresh machine needs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test check lint bench compiled pure test-compiled clean

$(BIN)/meeple: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(BIN)/meeple

# The main job on its embedded defaults: the web app on 127.0.0.1:8000, games in meeple.sqlite.
run: $(BIN)/meeple
	$(BIN)/meeple serve

# Every test, plus lint and type checks.
test: $(BIN)/meeple lint
	$(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider

# Lint, types and the fast tier: every test but those marked slow (tests/conftest.py: Chromium,
# server processes, mypyc, the long random-play audit). For the edit-test loop; CI runs `test`.
check: $(BIN)/meeple lint
	$(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider -m "not slow"

lint: $(BIN)/meeple
	$(BIN)/ruff check src tests tools benchmarks examples
	$(BIN)/ruff format --check src tests tools benchmarks examples
	$(BIN)/mypy
	$(BIN)/mypy examples

bench: $(BIN)/meeple
	$(BIN)/python benchmarks/bench_classic.py

# The engine compiled by mypyc from the same source (C extensions beside the .py files), and
# back to pure Python. See benchmarks/README.md.
compiled: $(BIN)/meeple
	$(BIN)/python tools/compile.py

pure: $(BIN)/meeple
	$(BIN)/python tools/compile.py --clean

# Every test against the mypyc build (CI runs the pure build, and tests/test_compiled.py checks
# the two play the same games); back to pure Python afterwards, pass or fail.
test-compiled: $(BIN)/meeple
	$(BIN)/python tools/compile.py
	$(BIN)/pytest -q -n auto --dist worksteal -p no:cacheprovider; status=$$?; \
	$(BIN)/python tools/compile.py --clean; exit $$status

clean:
	rm -rf $(VENV) build src/*.egg-info
