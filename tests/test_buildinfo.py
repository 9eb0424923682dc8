"""``meeple.buildinfo.accepted_flags``: the C compiler's flags for the compiled engine are passed
only where the compiler takes them (a refused flag would fail the build, which would then fall
back to pure Python), and never to MSVC."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meeple.buildinfo import C_FLAGS, accepted_flags


class _Compiler:
    """A stand-in for a distutils compiler that refuses the flags in ``refuses``."""

    def __init__(self, refuses: tuple[str, ...] = (), compiler_type: str = "unix") -> None:
        self.refuses, self.compiler_type = refuses, compiler_type
        self.tried: list[str] = []

    def compile(self, sources: list[str], output_dir: str, extra_postargs: list[str]) -> Any:
        assert Path(sources[0]).read_text().strip()  # a real file to compile
        self.tried += extra_postargs
        if set(extra_postargs) & set(self.refuses):
            raise RuntimeError("unrecognized command-line option")
        return []


def test_every_flag_the_compiler_takes_is_passed() -> None:
    compiler = _Compiler()
    assert accepted_flags(compiler) == list(C_FLAGS)
    assert compiler.tried == list(C_FLAGS)  # each tried on its own


def test_a_flag_the_compiler_refuses_is_left_out() -> None:
    assert accepted_flags(_Compiler(refuses=(C_FLAGS[0],))) == list(C_FLAGS[1:])
    assert accepted_flags(_Compiler(refuses=C_FLAGS)) == []


def test_msvc_gets_none() -> None:
    compiler = _Compiler(compiler_type="msvc")
    assert accepted_flags(compiler) == [] and compiler.tried == []


def test_this_machines_compiler_takes_them(tmp_path: Path) -> None:
    from setuptools._distutils import ccompiler
    from setuptools._distutils import sysconfig as distutils_sysconfig

    compiler: Any = ccompiler.new_compiler()
    distutils_sysconfig.customize_compiler(compiler)
    probe = tmp_path / "probe.c"
    probe.write_text("int probe(void) { return 0; }\n")
    try:
        compiler.compile([str(probe)], output_dir=str(tmp_path))
    except Exception:
        pytest.skip("no working C compiler here (the build is pure)")
    assert accepted_flags(compiler) == list(C_FLAGS)  # (this machine's GCC takes both)
