"""Builds the engine with mypyc when a C compiler works, and pure Python when not (issue 18).

Everything else about the package is in ``pyproject.toml``; this file adds only the compiled
extensions. ``pip install .``, a wheel (``python -m build``) and an editable install
(``pip install -e .``, the Makefile's) all come through here:

- ``MEEPLE_PURE=1`` in the environment, no working C compiler (a test compile and link of a
  file that includes ``Python.h``), no mypyc, or a C build that fails: the pure-Python engine,
  with a one-line notice on stderr (``pip`` shows a build's output only with ``-v``;
  ``meeple version`` says why afterwards).
- Otherwise the modules listed in ``meeple.buildinfo.COMPILED`` (the list ``tools/compile.py``
  uses too) are compiled by mypyc at ``-O3``, with the flags of ``meeple.buildinfo.C_FLAGS`` the
  compiler accepts.

Either way the build writes ``meeple/compiled.json`` (in the wheel, or beside the sources for an
editable install): the SHA-256 of each compiled source, which :mod:`meeple.stale` checks on
import, or why the build is pure.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, ClassVar

from setuptools import setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

SRC = Path(__file__).resolve().parent / "src"


def _buildinfo() -> Any:
    """``meeple/buildinfo.py`` loaded by path (meeple's dependencies need not be installed)."""
    spec = importlib.util.spec_from_file_location("_meeple_buildinfo", SRC / "meeple/buildinfo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILDINFO = _buildinfo()
MODULES: list[str] = BUILDINFO.compiled_sources(SRC)


def notice(why: str) -> None:
    """The one line a pure build prints."""
    print(
        f"meeple: {why}; installing the pure-Python engine (about 15 times slower; see README)",
        file=sys.stderr,
    )


def c_compiler_problem() -> str | None:
    """Why no extension module can be built here (``None``: a test one compiles and links)."""
    from setuptools._distutils import ccompiler
    from setuptools._distutils import sysconfig as distutils_sysconfig

    compiler: Any = ccompiler.new_compiler()
    try:
        distutils_sysconfig.customize_compiler(compiler)
    except Exception as e:  # a broken toolchain configuration counts as none
        return f"no C compiler found ({e})"
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "probe.c"
        source.write_text("#include <Python.h>\nint meeple_probe(void) { return 0; }\n")
        try:
            objects = compiler.compile(
                [str(source)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]]
            )
            compiler.link_shared_object(objects, str(Path(tmp) / "probe.so"))
        except Exception:  # CompileError, LinkError, a missing executable
            return "no C compiler found"
    return None


def pure_reason() -> str | None:
    """Why this build is pure Python, or ``None`` to compile."""
    if os.environ.get("MEEPLE_PURE", "") == "1":
        return "MEEPLE_PURE=1"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    return c_compiler_problem()


def write_record(package_dir: Path, pure: str | None) -> None:
    """``compiled.json`` for :mod:`meeple.stale`: the compiled sources' hashes, or why pure."""
    record: dict[str, object]
    if pure is None:
        digests = {m: hashlib.sha256((SRC / m).read_bytes()).hexdigest() for m in MODULES}
        record = {"modules": digests}
    else:
        record = {"modules": {}, "pure": pure}
    package_dir.mkdir(parents=True, exist_ok=True)
    (package_dir / BUILDINFO.RECORD_NAME).write_text(
        json.dumps(record, indent=1) + "\n", encoding="utf-8"
    )


class BuildEngine(build_ext):
    """Builds the compiled engine (or nothing) and writes the record, in place or in the build.

    Runs for a pure build too (:class:`Build`), to record that it is pure; an in-place pure
    build (an editable install with ``MEEPLE_PURE=1``) removes an earlier in-place compiled one.
    A C build that fails falls back to pure Python instead of failing the install.
    """

    def run(self) -> None:
        pure = PURE
        if pure is None:
            from setuptools._distutils.errors import CCompilerError, DistutilsError

            try:
                super().run()
            except (CCompilerError, DistutilsError) as e:
                pure = f"the C build failed ({e})"
        if pure is not None:
            notice(pure)
        if self.inplace:  # an editable install, or build_ext --inplace
            package_dir = SRC / "meeple"
            if pure is not None:
                for so in SRC.rglob("*.so"):
                    so.unlink()
        else:
            package_dir = Path(self.build_lib) / "meeple"
        write_record(package_dir, pure)

    def build_extensions(self) -> None:
        # (the compiler's own flags for the engine's C, where it accepts them: buildinfo.C_FLAGS)
        flags = BUILDINFO.accepted_flags(self.compiler)
        for ext in self.extensions:
            ext.extra_compile_args = [*(ext.extra_compile_args or []), *flags]
        super().build_extensions()


class Build(build):
    """``build`` with :class:`BuildEngine` run even when there is no extension to build."""

    sub_commands: ClassVar[list[tuple[str, Any]]] = [
        (name, (lambda self: True) if name == "build_ext" else predicate)
        for name, predicate in build.sub_commands
    ]


def mypyc_extensions() -> list[Any]:
    """mypyc's C sources for :data:`MODULES` (in ``build/mypyc``) and their extensions."""
    from mypyc.build import mypycify

    # mypy options for the compile: no config file (pyproject's strict settings are for the
    # lint; tools/compile.py runs without them too), and imports of packages the build
    # environment lacks (pydantic, numpy...: only the modules around the compiled ones use
    # them) are typed Any instead of errors. Paths under src/ (the build runs in the project's
    # root): mypy names each module from the package folders above it.
    options = ["--config-file=", "--ignore-missing-imports", "--follow-imports=silent"]
    extensions: list[Any] = mypycify(
        [*options, *(f"src/{m}" for m in MODULES)], opt_level="3", target_dir="build/mypyc"
    )
    return extensions


PURE = pure_reason()
"""Why this build is pure (``None``: compiled)."""

# The build backend runs this file for each of pip's questions (requirements, metadata, sdist)
# as well as for the build: only a build runs mypyc (a type check and C generation, about half a
# minute; the C compiler runs later, in BuildEngine).
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
building = PURE is None and not BUILDS.isdisjoint(sys.argv[1:])
setup(
    ext_modules=mypyc_extensions() if building else [],
    cmdclass={"build": Build, "build_ext": BuildEngine},
)
