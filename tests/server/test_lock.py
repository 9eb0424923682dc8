"""The image's lock file (requirements/server.txt, made by ``make lock``; Dockerfile) agrees
with pyproject.toml: every dependency of the core and of the ``server`` extra is pinned there at
a version its specifier allows, with the dependencies of the extras it asks for (uvicorn's
``standard``), and nothing else is pinned as if pyproject.toml asked for it; every pin carries
its files' hashes, and the Dockerfile installs from it with ``--require-hashes``."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import requires
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "server.txt"
IMAGE = {"python_version": "3.11", "python_full_version": "3.11.0", "sys_platform": "linux",
         "platform_system": "Linux", "implementation_name": "cpython",
         "platform_python_implementation": "CPython", "os_name": "posix"}  # fmt: skip
"""The image's environment (python:3.11-slim), for the markers of a requirement."""


def wanted() -> list[Requirement]:
    """The core's and the server extra's requirements, as pyproject.toml lists them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [
        Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["server"]
    ]


def locked() -> dict[str, tuple[str, int, set[str]]]:
    """Each pinned package: its version, how many hashes, and what it is there for."""
    out: dict[str, tuple[str, int, set[str]]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", LOCK.read_text()):
        head = re.match(r"([A-Za-z0-9_.\-]+)==([^\s;\\]+)", block)
        if head is None:
            continue
        via = set(
            re.findall(
                r"#\s+(?:via\s+)?([A-Za-z0-9_.\-]+(?: \(pyproject\.toml\))?)\s*$", block, re.M
            )
        )
        out[canonicalize_name(head[1])] = (head[2], block.count("--hash=sha256:"), via)
    return out


def test_every_dependency_is_pinned_as_pyproject_allows() -> None:
    pins = locked()
    assert pins, "no pins read from requirements/server.txt"
    for req in wanted():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is not in requirements/server.txt: run make lock"
        version = pins[name][0]
        assert req.specifier.contains(version, prereleases=True), (
            f"requirements/server.txt pins {name}=={version}, which {req} does not allow: "
            "run make lock"
        )
        # What an extra it asks for brings (uvicorn[standard]: uvloop, httptools, ...), as the
        # installed package's metadata says, on the image's platform.
        for dep in map(Requirement, requires(req.name) or []):
            if dep.marker is None or dep.marker.evaluate({**IMAGE, "extra": ""}):
                continue  # not an extra's (the package's own: pinned as its dependency)
            if any(dep.marker.evaluate({**IMAGE, "extra": e}) for e in req.extras):
                assert canonicalize_name(dep.name) in pins, f"{dep} (of {req}) is not pinned"


def test_nothing_else_is_pinned_for_pyproject() -> None:
    direct = {n for n, (_, _, via) in locked().items() if "meeple (pyproject.toml)" in via}
    assert direct == {canonicalize_name(r.name) for r in wanted()}, "run make lock"


def test_every_pin_has_hashes_and_the_image_requires_them() -> None:
    for name, (version, hashes, _) in locked().items():
        assert hashes >= 1, f"{name}=={version} has no hash"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY requirements/server.txt" in dockerfile
    assert re.search(r"pip install --require-hashes --no-deps -r \S+requirements", dockerfile)
    assert re.search(r"pip install --no-deps /tmp/wheels/\*\.whl", dockerfile)
    assert "[server]" not in dockerfile  # nothing resolved at build time
