"""``pip install .`` and its wheels (issue 18): compiled by mypyc where a C compiler works, pure
Python with a one-line notice where none does (or with ``MEEPLE_PURE=1``), the same games either
way.

Each test builds a wheel with ``python -m build`` (an sdist, then the wheel from it) from a copy
of the source tree, without build isolation (this environment's setuptools and mypy: nothing is
downloaded), installs it with ``pip --target`` and plays with it ahead of the checkout on the
path.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.test_compiled import PLAY

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("build", reason="the dev extras' `build` is not installed")
pytest.importorskip("mypyc", reason="mypyc is not installed")


def _tree(tmp: Path) -> Path:
    """The project as a fresh clone has it: no compiled modules, no build record."""
    tree = tmp / "clone"
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, tree / name)
    junk = shutil.ignore_patterns("*.so", "compiled.json", "__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", tree / "src", ignore=junk)
    return tree


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_PURE"}
    return {**env, **extra}


def _build_and_install(tmp: Path, **env: str) -> tuple[Path, Path, str]:
    """Build a wheel of a fresh tree with ``env``; its path, where it is installed, the log."""
    tree = _tree(tmp)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "dist"), str(tree)],
        env=_env(**env),
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("*.whl")
    target = tmp / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, "--target", str(target), str(wheel)],
        check=True,
        env=_env(),
    )
    return wheel, target, built.stdout + built.stderr


def _run(target: Path, code: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` with the installed wheel first on the path (the checkout after it)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        env=_env(PYTHONPATH=str(target)),
        capture_output=True,
        text=True,
        check=True,
    )


VERSION = """
import meeple
from meeple.cli.main import version_lines
print(meeple.__file__)
print(*version_lines(), sep="\\n")
"""


def _pure_games() -> dict[str, object]:
    """The games the checkout's pure-Python engine plays (test_compiled's script)."""
    out = subprocess.run(
        [sys.executable, "-c", PLAY],
        env=_env(PYTHONPATH=str(ROOT / "src"), MEEPLE_PURE="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout))


@pytest.mark.parametrize(
    ("variable", "value", "why"),
    [
        ("CC", "/nonexistent/cc", "no C compiler found"),
        ("MEEPLE_PURE", "1", "MEEPLE_PURE=1"),
    ],
)
def test_a_wheel_without_a_compiler_is_pure_and_plays_the_same_games(
    tmp_path: Path, variable: str, value: str, why: str
) -> None:
    wheel, target, log = _build_and_install(tmp_path, **{variable: value})
    # One line says so, and the wheel is pure Python: it installs anywhere.
    notice = f"meeple: {why}; installing the pure-Python engine (about 15 times slower; see README)"
    assert notice in log
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        assert not [n for n in z.namelist() if n.endswith(".so")]
        record = json.loads(z.read("meeple/compiled.json"))
    assert record == {"modules": {}, "pure": why}
    shown = _run(target, VERSION)
    assert shown.stdout.startswith(str(target / "meeple"))
    assert f"engine: python (pure Python, installed so: {why}" in shown.stdout
    # Without a compiler, it says how to get the compiled engine; not when pure was asked for.
    hint = "install meeple again for the compiled engine"
    assert (hint in shown.stdout) == (variable == "CC")
    assert "older than its source" not in shown.stderr
    played = json.loads(_run(target, PLAY).stdout)
    pure = _pure_games()
    assert played["build"] == "python"
    assert played["games"] == pure["games"] and played["city"] == pure["city"]


def test_a_wheel_with_a_compiler_is_compiled_and_plays_the_same_games(tmp_path: Path) -> None:
    wheel, target, log = _build_and_install(tmp_path)
    assert "installing the pure-Python engine" not in log
    # The compiler's flags for the engine (buildinfo.C_FLAGS: this machine's GCC takes both).
    assert "-fno-semantic-interposition -fno-plt" in log
    assert not wheel.name.endswith("-none-any.whl")  # for this platform and Python
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        record = json.loads(z.read("meeple/compiled.json"))
    # Both families' engines, and the hash of each compiled source as built.
    for module in ("meeple/games/monopoly/state", "meeple/games/monopolis/state"):
        assert any(n.startswith(module + ".") and n.endswith(".so") for n in names)
        source = (ROOT / "src" / f"{module}.py").read_bytes()
        assert record["modules"][f"{module}.py"] == hashlib.sha256(source).hexdigest()
    shown = _run(target, VERSION)
    assert shown.stdout.startswith(str(target / "meeple"))
    assert "engine: mypyc (compiled: " in shown.stdout
    played = json.loads(_run(target, PLAY).stdout)
    pure = _pure_games()
    assert played["build"] == "mypyc"
    assert played["games"] == pure["games"] and played["mid_game"] == pure["mid_game"]
    assert played["city"] == pure["city"]
    # An installed module edited afterwards: the installed build warns and runs pure.
    rng = target / "meeple/kernel/rng.py"
    rng.write_text(rng.read_text() + "\n# edited after the install\n")
    stale = _run(target, PLAY)
    assert "compiled engine is older than its source (meeple/kernel/rng.py changed)" in stale.stderr
    assert json.loads(stale.stdout)["build"] == "python"
