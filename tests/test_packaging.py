"""The habits of a maintained package: typed, one version string, an
explicit public surface."""
import importlib
import importlib.metadata
import re
from pathlib import Path

import pytest

import bansugoroku_fast

PACKAGE = Path(bansugoroku_fast.__file__).parent


def test_the_package_is_typed():
    """PEP 561: the marker ships (pyproject's package-data)."""
    assert (PACKAGE / "py.typed").is_file()


def test_every_kernel_module_python_imports_has_a_stub():
    """One hand-written .pyi per compiled module that Python code imports
    (``from . import _batch``); .ci/run holds them to the modules with stubtest."""
    sources = {path.stem for path in (PACKAGE.parent / "src" / "bansugoroku_fast").glob("*.pyx")}
    imported = set()
    for path in PACKAGE.rglob("*.py"):
        for names in re.findall(r"^from \.+ import (.+)$", path.read_text(encoding="utf-8"), re.M):
            imported |= {name.strip() for name in names.split(",")} & sources
    assert imported >= {"_batch", "_validate"}
    assert sorted(name for name in imported if not (PACKAGE / f"{name}.pyi").is_file()) == []


def test_one_version_string():
    """pyproject.toml reads __version__ (dynamic version): the installed metadata agrees."""
    try:
        installed = importlib.metadata.version("bansugoroku-fast")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed (CI installs it)")
    assert installed == bansugoroku_fast.__version__


@pytest.mark.parametrize(
    "module",
    ["bansugoroku_fast", "bansugoroku_fast.errors", "bansugoroku_fast.game", "bansugoroku_fast.turn",
     "bansugoroku_fast.typing", "bansugoroku_fast.oracle", "bansugoroku_fast.notation", "bansugoroku_fast.play",
     "bansugoroku_fast.layout"],
)
def test_all_names_exist_once(module):
    imported = importlib.import_module(module)
    assert len(set(imported.__all__)) == len(imported.__all__)
    assert [name for name in imported.__all__ if not hasattr(imported, name)] == []


def test_every_error_is_exported():
    """Each exception errors.py defines is in its __all__ and the package's,
    so that callers catch it as ``bansugoroku_fast.SomeError``."""
    from bansugoroku_fast import errors

    defined = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == errors.__name__}
    assert len(defined) >= 17
    assert sorted(errors.__all__) == sorted(defined)
    assert sorted(defined - set(bansugoroku_fast.__all__)) == []


def test_package_modules_never_import_the_package_itself():
    """Modules inside the package import each other directly (relative
    imports), never through bansugoroku_fast/__init__.py; doctests may."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.strip()
            if code.startswith(("import bansugoroku_fast", "from bansugoroku_fast")):
                offenders.append(f"{path.relative_to(PACKAGE)}:{number}: {code}")
    assert offenders == []
