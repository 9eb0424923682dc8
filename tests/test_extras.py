"""Issue 18, a lean core with extras: ``pip install meeple`` plays, simulates to JSON and CSV
and analyses exactly; the web app, Parquet and plots, the RL environments and Ray come with
``meeple[server]``, ``[lab]``, ``[rl]``, ``[ray]`` (``[all]``: every one), and what needs a
missing extra says which one to install (:mod:`meeple.extras`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.extras import EXTRAS, MissingExtra, need

ROOT = Path(__file__).resolve().parent.parent
CORE = {"typer", "rich", "pydantic", "tomli-w", "mypy-extensions", "librt"}
runner = CliRunner()


def _name(requirement: str) -> str:
    """The distribution's normalized name in a requirement (``uvicorn[standard]>=0.29``)."""
    return re.split(r"[\[<>=~!; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _block(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """As if ``modules`` were not installed (``None`` in ``sys.modules`` stops an import)."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_the_core_dependencies_stay_lean_and_each_extra_lists_its_packages() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {_name(r) for r in project["dependencies"]} == CORE
    optional = project["optional-dependencies"]
    assert optional["all"] == [f"meeple[{','.join(EXTRAS)}]"]
    # Every module meeple.extras checks for comes from a distribution its extra lists
    # (websockets: through uvicorn[standard]).
    dists = packages_distributions()
    for extra, modules in EXTRAS.items():
        listed = {_name(r) for r in optional[extra]}
        for module in modules:
            if module == "websockets":
                assert "uvicorn[standard]" in " ".join(optional[extra])
                continue
            names = {d.lower().replace("_", "-") for d in dists.get(module, [])}
            assert names & listed, (extra, module, names)


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_need_names_the_extra_to_install(extra: str, monkeypatch: pytest.MonkeyPatch) -> None:
    need(extra, "this")  # installed here (make's venv has meeple[all])
    _block(monkeypatch, EXTRAS[extra][-1])
    with pytest.raises(MissingExtra) as caught:
        need(extra, "this feature")
    assert isinstance(caught.value, ImportError)
    assert str(caught.value) == (
        f"this feature needs meeple[{extra}] ({EXTRAS[extra][-1]} not installed): "
        f"pip install 'meeple[{extra}]'"
    )


def test_serve_without_the_server_extra_says_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _block(monkeypatch, "uvicorn")
    r = runner.invoke(app, ["serve", "--port", "0"])
    assert r.exit_code == 1
    assert "error: meeple serve needs meeple[server] (uvicorn not installed): pip install " in (
        r.output
    )
    assert "'meeple[server]'" in r.output and "Traceback" not in r.output


def test_the_ray_backend_without_the_ray_extra_says_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _block(monkeypatch, "ray")
    r = runner.invoke(app, ["simulate", "classic", "--games", "1", "--backend", "ray"])
    assert r.exit_code == 1
    assert "--backend ray needs meeple[ray] (ray not installed): pip install 'meeple[ray]'" in (
        r.output
    )


def test_a_plot_without_the_lab_extra_says_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _block(monkeypatch, "matplotlib")
    board = tmp_path / "board.png"
    r = runner.invoke(
        app, ["analyze", "landing", "classic", "--jail", "long", "--plot", str(board)]
    )
    assert r.exit_code == 1
    assert "--plot needs meeple[lab] (matplotlib not installed): pip install 'meeple[lab]'" in (
        r.output
    )
    assert not board.exists()


def test_version_lists_the_extras_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert runner.invoke(app, ["version"]).output.splitlines()[-1] == (
        "extras: server, lab, rl, ray"
    )
    _block(monkeypatch, "ray", "matplotlib")
    assert runner.invoke(app, ["version"]).output.splitlines()[-1] == (
        "extras: server, rl (not installed: lab, ray)"
    )


def test_out_without_the_lab_extra_writes_the_csv_and_says_where_parquet_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _block(monkeypatch, "pyarrow")
    out = tmp_path / "rows"
    r = runner.invoke(app, ["simulate", "classic", "--games", "2", "--max-turns", "50", "--json",
                            "-", "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["games.csv"]
    assert json.loads(r.stdout)["games"] == 2
    assert "wrote games.csv only: games.parquet needs meeple[lab] (pyarrow not installed)" in (
        r.stderr
    )


# The core with every extra's packages missing, in a fresh interpreter: a finder ahead of the
# others refuses them, as an installation without them would.
CORE_PROBE = textwrap.dedent(
    """
    import importlib, json, sys
    from pathlib import Path

    BLOCKED = set(sys.argv[1].split(","))

    class NotInstalled:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    for name in [m for m in sys.modules if m.partition(".")[0] in BLOCKED]:
        del sys.modules[name]
    sys.meta_path.insert(0, NotInstalled())

    import meeple
    from typer.testing import CliRunner
    from meeple.cli.main import app

    src = Path(meeple.__file__).parent
    extras_only = ("meeple.server", "meeple.rl", "meeple.analysis.plot")
    imported, refused = [], {}
    for path in sorted(src.rglob("*.py")):
        parts = path.relative_to(src.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        try:
            importlib.import_module(name)
            imported.append(name)
        except ImportError as exc:
            refused[name] = str(exc)
    runner = CliRunner()

    def run(*args):
        r = runner.invoke(app, list(args), input="")
        return {"code": r.exit_code, "out": r.stdout, "err": r.stderr,
                "exc": None if r.exception is None or isinstance(r.exception, SystemExit)
                else repr(r.exception)}

    tmp = Path(sys.argv[2])
    commands = {
        "help": run("--help"),
        "simulate": run("simulate", "classic", "--games", "3", "--bots", "standard",
                        "--max-turns", "200", "--json", "-", "--out", str(tmp / "rows"),
                        "--save-dir", str(tmp / "saves")),
        "monopolis": run("simulate", "monopolis", "--players", "3", "--games", "2", "--json", "-"),
        "replay": run("replay", str(tmp / "saves" / "game-000000.json")),
        "analyze": run("analyze", "landing", "classic", "--jail", "long", "--json", "-"),
        "play": run("play", "classic", "--seats", "human,standard", "--seed", "1"),
        "editions": run("editions", "show", "classic"),
        "version": run("version"),
        "serve": run("serve"),
        "ray": run("simulate", "classic", "--games", "1", "--backend", "ray"),
        "plot": run("analyze", "landing", "classic", "--jail", "short",
                    "--plot", str(tmp / "b.png")),
    }
    loaded = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    print(json.dumps({"imported": imported, "refused": refused, "commands": commands,
                      "loaded": loaded, "files": sorted(p.name for p in (tmp / "rows").iterdir())}))
    """
)


def _extra_of(module: str) -> str | None:
    """The extra a module of meeple needs, or None for the core."""
    package = ".".join(module.split(".")[:2])
    if package in ("meeple.server", "meeple.rl"):
        return package.split(".")[1]
    if module == "meeple.analysis.plot":
        return "lab"
    if module.startswith(("meeple.kernel.", "meeple.games.")) and module.endswith(
        (".encoding", ".observation")
    ):
        return "rl"  # numpy: the encodings and observations only the RL environments use
    return None


def test_the_core_works_without_any_extras_packages(tmp_path: Path) -> None:
    blocked = sorted({m for modules in EXTRAS.values() for m in modules})
    done = subprocess.run(
        [sys.executable, "-c", CORE_PROBE, ",".join(blocked), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["loaded"] == []
    # Every module of the core imports; those of an extra refuse, naming it.
    assert {n: _extra_of(n) for n in got["refused"]} == {
        n: _extra_of(n) for n in got["imported"] + list(got["refused"]) if _extra_of(n)
    }
    for name in ("meeple.cli.main", "meeple.cli.serve", "meeple.sim.ray_backend",
                 "meeple.sim.records", "meeple.analysis.landing", "meeple.bots.mcts"):  # fmt: skip
        assert name in got["imported"]
    for name, message in got["refused"].items():
        extra = _extra_of(name)
        assert f"needs meeple[{extra}]" in message and f"pip install 'meeple[{extra}]'" in message
    cmd = got["commands"]
    for ok in ("help", "simulate", "monopolis", "replay", "analyze", "play", "editions"):
        assert cmd[ok]["code"] == 0 and cmd[ok]["exc"] is None, (ok, cmd[ok])
    assert json.loads(cmd["simulate"]["out"])["games"] == 3
    assert got["files"] == ["games.csv"] and "needs meeple[lab]" in cmd["simulate"]["err"]
    assert json.loads(cmd["analyze"]["out"])["edition"]
    assert "Player 1, your choice" in cmd["play"]["out"]
    assert (
        cmd["version"]["out"].splitlines()[-1]
        == "extras: none (not installed: server, lab, rl, ray)"
    )
    for command, extra in (("serve", "server"), ("ray", "ray"), ("plot", "lab")):
        assert cmd[command]["code"] == 1 and cmd[command]["exc"] is None, cmd[command]
        assert f"needs meeple[{extra}]" in cmd[command]["err"]
        assert f"pip install 'meeple[{extra}]'" in cmd[command]["err"]
