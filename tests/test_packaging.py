"""The habits of a maintained package: typed, one version string, an
explicit public surface."""
import importlib
import importlib.metadata
from pathlib import Path

import pytest

import bansugoroku_fast

PACKAGE = Path(bansugoroku_fast.__file__).parent


def test_the_package_is_typed():
    """PEP 561: the marker ships (pyproject's package-data), and so do the kernels' stubs."""
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_validate.pyi").is_file()


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
     "bansugoroku_fast.typing", "bansugoroku_fast.oracle", "bansugoroku_fast.notation", "bansugoroku_fast.play"],
)
def test_all_names_exist_once(module):
    imported = importlib.import_module(module)
    assert len(set(imported.__all__)) == len(imported.__all__)
    assert [name for name in imported.__all__ if not hasattr(imported, name)] == []


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
