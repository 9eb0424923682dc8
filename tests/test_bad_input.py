"""The bad-input corpus of the command line (issue 40): every mistake a user could type gets
one ``error:`` line and exit status 2, never a traceback, and nothing is written.

Each case runs ``meeple`` in process through :func:`meeple.cli.main.main`, the console
script's entry point (so typer's own usage errors are covered as the user sees them), in a
folder holding one file of each bad kind (:func:`corpus`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from meeple.bots.base import make_bot
from meeple.cli.main import main
from meeple.kernel.family import new_game
from meeple.kernel.position import save_position
from meeple.kernel.saves import save_game


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of bad files, made the current folder: ``latin.*`` (not UTF-8), ``adir`` (a
    folder), ``afile`` (a file), truncated and wrong-version saves, a save and a position."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    latin = "name = 'Caf\u00e9'\n".encode("latin-1")
    for name in ("latin.toml", "latin.json"):
        (tmp_path / name).write_bytes(latin)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("x\n")
    (tmp_path / "empty.toml").write_text("")
    (tmp_path / "syntax.toml").write_text("[board\nname = \n")
    (tmp_path / "array.json").write_text("[1, 2]\n")
    s = new_game("classic", 2, 1)
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    save_game(s, tmp_path / "good.json")
    good = (tmp_path / "good.json").read_text()
    (tmp_path / "trunc.json").write_text(good[: len(good) // 2])
    data = json.loads(good)
    data["version"] = 99
    (tmp_path / "wrongver.json").write_text(json.dumps(data))
    save_position(s, tmp_path / "position.json")
    (tmp_path / "syntax.json").write_text("{'not': json}")
    return tmp_path


def cli(args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``meeple ARGS`` (split on spaces): the exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as stop:
        main(args.split())
    out = capsys.readouterr()
    code = stop.value.code
    return (code if isinstance(code, int) else 0), out.out, out.err


BAD = [
    # unknown ids
    ("simulate nope", "unknown game"),
    ("play nope", "nope"),
    ("editions show nope", "nope"),
    ("editions export nope", "nope"),
    ("editions rules nope", "nope"),
    ("report nope --games 1", "nope"),
    ("tournament nope", "nope"),
    ("tune nope", "nope"),
    ("analyze landing nope --jail short", "nope"),
    ("simulate classic --bots nope", "unknown bot"),
    ("simulate classic --bots standard,random", "one kind for every seat"),
    ("simulate monopolis --bots param:x.json", "unknown bot"),
    ("simulate classic --rule nope=1", "nope"),
    ("simulate classic --rule auctions=maybe", "auctions"),
    ("simulate classic --rule auctions", "NAME=VALUE"),
    ("tournament classic --bots standard", "at least two"),
    # bad numbers
    ("simulate classic --games -5", "--games"),
    ("simulate classic --games 0", "--games"),
    ("simulate classic --games many", "--games"),
    ("simulate classic --players 9", "2 to 8 players"),
    ("simulate classic --players 1", "2 to 8 players"),
    ("simulate classic --seed -1", "--seed"),
    ("simulate classic --seed 100000000000000000000000", "--seed"),
    ("simulate classic --seed 9223372036854775808", "--seed"),
    ("simulate classic --seed x", "--seed"),
    ("simulate classic --workers 0", "--workers"),
    ("simulate classic --workers some", "--workers"),
    ("simulate classic --max-turns -1", "--max-turns"),
    ("play classic --seed -3", "--seed"),
    ("tournament classic --seed -3", "--seed"),
    ("advise good.json --seconds 0", "--seconds"),
    ("advise good.json --rollouts 0", "--rollouts"),
    ("report classic --players 2,x --games 1", "--players"),
    ("report classic --games 0", "--games"),
    ("tune classic --trials 0", "--trials"),
    ("analyze landing classic --jail sometimes", "--jail"),
    # files to read: missing, a folder, not UTF-8, bad syntax, wrong version, the wrong kind
    ("simulate --edition-file missing.toml", "missing.toml"),
    ("simulate --edition-file latin.toml", "not UTF-8"),
    ("simulate --edition-file adir", "adir"),
    ("simulate --edition-file syntax.toml", "syntax.toml"),
    ("simulate --edition-file empty.toml", "empty.toml"),
    ("replay missing.json", "cannot read"),
    ("replay latin.json", "not UTF-8"),
    ("replay adir", "cannot read"),
    ("replay trunc.json", "not JSON"),
    ("replay syntax.json", "not JSON"),
    ("replay wrongver.json", "version"),
    ("replay array.json", "array.json"),
    ("replay position.json", "position.json"),
    ("position missing.json", "cannot read"),
    ("position latin.toml", "not UTF-8"),
    ("position adir", "cannot read"),
    ("position syntax.toml", "not TOML"),
    ("advise latin.json", "not UTF-8"),
    ("advise missing.json", "cannot read"),
    ("simulate --from latin.json", "not UTF-8"),
    ("simulate --from trunc.json", "trunc.json"),
    ("play --from latin.json", "not UTF-8"),
    ("play --resume missing.json", "cannot read"),
    ("play --resume latin.json", "not UTF-8"),
    ("simulate classic --bots param:latin.json", "not UTF-8"),
    ("simulate classic --bots param:missing.json", "missing.json"),
    # paths to write: checked before any game runs
    ("simulate classic --games 3 --json adir", "is a folder"),
    ("simulate classic --games 3 --json nowhere/x.json", "does not exist"),
    ("simulate classic --games 3 --json afile/x.json", "is not a folder"),
    ("simulate classic --games 3 --out afile", "is a file"),
    ("simulate classic --games 3 --out afile/sub", "is a file"),
    ("simulate classic --games 3 --save-dir afile", "is a file"),
    ("report classic --games 1 --out afile", "is a file"),
    ("position good.json --out adir", "is a folder"),
    ("position good.json --out nowhere/p.json", "does not exist"),
    ("advise good.json --rollouts 1 --json adir", "is a folder"),
    ("tournament classic --tables 1 --json adir", "is a folder"),
    ("tournament classic --tables 1 --out afile", "is a file"),
    ("tune classic --out adir", "is a folder"),
    ("analyze landing classic --jail short --json nowhere/x.json", "does not exist"),
    ("analyze landing classic --jail short --plot x.txt", ".png"),
    ("play classic --save nowhere/g.json", "does not exist"),
    ("play classic --save adir", "is a folder"),
    # the command line itself
    ("frobnicate", "frobnicate"),
    ("simulate classic --bogus", "--bogus"),
    ("replay", "Missing argument"),
    ("simulate", "give a game id"),
    ("simulate --from good.json --edition-file latin.toml", "do not go together"),
]


@pytest.mark.parametrize(("args", "words"), BAD, ids=[a for a, _ in BAD])
def test_a_bad_input_is_one_error_line_and_exit_2(
    corpus: Path, capsys: pytest.CaptureFixture[str], args: str, words: str
) -> None:
    before = sorted(str(p.relative_to(corpus)) for p in corpus.rglob("*"))
    code, out, err = cli(args, capsys)
    said = err if "error:" in err else out  # (`meeple play` speaks on its own console)
    lines = [line for line in said.splitlines() if line.strip()]
    assert code == 2, (args, out, err)
    assert "Traceback" not in out + err
    assert lines and lines[-1].startswith("error: "), (args, out, err)
    assert words in lines[-1], (args, lines[-1])
    assert sorted(str(p.relative_to(corpus)) for p in corpus.rglob("*")) == before
    if args.startswith(("simulate", "tournament", "report")):
        assert out == "", "nothing was played or printed before the error"


def test_the_corpus_holds_at_least_sixty_cases() -> None:
    assert len(BAD) >= 60


def test_a_write_that_fails_at_the_end_is_one_line_after_the_figures(
    corpus: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up or the folder goes while the games run: the figures are on screen,
    then one error line (exit 2), not a traceback that loses them."""
    import meeple.cli.paths as paths

    def full(self: Path, data: bytes) -> int:
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(paths.Path, "write_bytes", full)
    code, out, err = cli("simulate classic --games 3 --json summary.json", capsys)
    assert code == 2
    assert "Games" in out or "wins" in out.lower()
    assert err.strip().splitlines()[-1].startswith("error: --json summary.json: cannot be written")


def test_a_good_command_still_exits_0(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("simulate classic --games 2 --json -", capsys)
    assert code == 0
    assert json.loads(out)["games"] == 2


def test_piped_output_is_never_wrapped(tmp_path: Path) -> None:
    """``meeple replay`` into a pipe or a file: each event whole on its line, however long
    (rich broke lines at 80 columns when it could not see a terminal)."""
    import subprocess
    import sys

    from meeple.bots.base import play_out
    from meeple.kernel.saves import load_game

    s = new_game("classic", 4, 3)
    play_out(s, [make_bot("standard", "monopoly", seat) for seat in range(4)])
    save_game(s, tmp_path / "g.json")
    saved = load_game(tmp_path / "g.json")
    again = new_game("classic", 4, 3)
    again.record_events = True
    events = [again.describe(e) for a in saved.history for e in again.apply(a)]
    assert max(map(len, events)) > 80  # trade offers run to 120 characters
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run(
        [sys.executable, "-c", "from meeple.cli.main import main; main()", "replay", "g.json"],
        cwd=tmp_path, capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    lines = set(done.stdout.splitlines())
    assert [e for e in events if e not in lines] == []
