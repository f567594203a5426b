"""The habits of a maintained package: typed, one version string, an
explicit public surface."""
import ast
import importlib
import importlib.metadata
import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import bansugoroku_fast

from . import source_tree

PACKAGE = Path(bansugoroku_fast.__file__).parent


def test_the_package_is_typed():
    """PEP 561: the marker ships (pyproject's package-data)."""
    assert (PACKAGE / "py.typed").is_file()


def test_every_kernel_module_python_imports_has_a_stub():
    """One hand-written .pyi per compiled module that Python code imports
    (``from . import _batch``), beside it in the package (built in place, or
    installed from a wheel); .ci/run holds them to the modules with stubtest."""
    sources = {path.name.split(".")[0] for path in PACKAGE.iterdir() if path.name.endswith(tuple(EXTENSION_SUFFIXES))}
    imported = set()
    for path in PACKAGE.rglob("*.py"):
        for names in re.findall(r"^from \.+ import (.+)$", path.read_text(encoding="utf-8"), re.M):
            imported |= {name.strip() for name in names.split(",")} & sources
    assert imported >= {"_batch", "_validate"}
    assert sorted(name for name in imported if not (PACKAGE / f"{name}.pyi").is_file()) == []


def test_one_version_string():
    """pyproject.toml reads __version__ (dynamic version): the installed metadata agrees."""
    try:
        installed = importlib.metadata.distribution("bansugoroku-fast")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed (CI installs it)")
    shipped = Path(installed.locate_file("bansugoroku_fast/__init__.py"))
    if shipped.resolve() != Path(bansugoroku_fast.__file__).resolve():
        # An editable install maps the name elsewhere, maybe to another checkout with another version.
        pytest.skip("the package imported is not the installed metadata's copy (.ci/wheel checks an installed wheel)")
    assert installed.version == bansugoroku_fast.__version__


@pytest.mark.parametrize(
    "module",
    ["bansugoroku_fast", "bansugoroku_fast.errors", "bansugoroku_fast.games.interactive", "bansugoroku_fast.turn",
     "bansugoroku_fast.typing", "bansugoroku_fast.oracle", "bansugoroku_fast.notation", "bansugoroku_fast.play",
     "bansugoroku_fast.layout"],
)
def test_all_names_exist_once(module):
    imported = importlib.import_module(module)
    assert len(set(imported.__all__)) == len(imported.__all__)
    assert [name for name in imported.__all__ if not hasattr(imported, name)] == []


def test_every_error_is_exported():
    """Each exception errors.py defines is in its __all__, so that callers
    catch it as ``bansugoroku_fast.errors.SomeError``; the package's own
    names hold the base of them all and the module."""
    from bansugoroku_fast import errors

    defined = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == errors.__name__}
    assert len(defined) >= 17
    assert sorted(errors.__all__) == sorted(defined)
    assert {"BansugorokuError", "errors"} <= set(bansugoroku_fast.__all__)
    assert all(issubclass(getattr(errors, name), errors.BansugorokuError) or name.endswith("Warning")
               for name in defined)


def _imports_through_the_package(path: Path, code: str) -> list[str]:
    """The imports in ``code`` (of the module at ``path``) that go through bansugoroku_fast/__init__.py
    rather than to the module defining the name: ``import bansugoroku_fast``,
    ``from bansugoroku_fast... import``, and a relative import that reaches
    the package and takes from it anything but a submodule (``from .. import
    legal_plays``). Doctests are strings, not imports, so they may."""
    package_of = path.parent.relative_to(PACKAGE.parent).parts  # ("bansugoroku_fast", "cli") for cli/x.py
    offenders = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE.name]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            named = [node.module] if (node.module or "").split(".")[0] == PACKAGE.name else []
        elif isinstance(node, ast.ImportFrom) and node.module is None:  # from . import x, from .. import x
            reached = PACKAGE.parent.joinpath(*package_of[: len(package_of) - node.level + 1])
            named = [f"{'.' * node.level} import {alias.name}" for alias in node.names
                     if reached == PACKAGE and not _is_submodule(PACKAGE, alias.name)]
        else:
            continue
        offenders += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {name}" for name in named]
    return offenders


def _is_submodule(package: Path, name: str) -> bool:
    return (package / name).is_dir() or any(package.glob(f"{name}.py")) or any(package.glob(f"{name}.*.so"))


def test_package_modules_never_import_the_package_itself():
    """Modules inside the package import each other directly (relative
    imports of the defining module), never through bansugoroku_fast/__init__.py."""
    offenders = [line for path in sorted(PACKAGE.rglob("*.py"))
                 for line in _imports_through_the_package(path, path.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.parametrize("code", [
    "import bansugoroku_fast",
    "from bansugoroku_fast import legal_plays",
    "from bansugoroku_fast.moves import legal_plays",
    "from .. import legal_plays",  # in a subpackage: the package's __init__
])
def test_the_import_check_finds_an_import_through_the_package(code):
    """The check above can fail: each of these, in a module of a subpackage
    (cli/), is an import through the package; ``from .. import moves`` (a submodule) is not."""
    found = _imports_through_the_package(PACKAGE / "cli" / "probe.py", f"{code}\nfrom .. import moves\n")
    assert len(found) == 1 and found[0].startswith("cli/probe.py:1: ")


@source_tree.needs("docs/guides/contributing.md", "src")
def test_the_layout_names_what_the_tree_holds():
    """The Layout block of docs/guides/contributing.md: each folder it names
    exists, each kernel module it names is in src/, and every kernel module
    in src/ is named."""
    root = PACKAGE.parent
    guide = (root / "docs" / "guides" / "contributing.md").read_text(encoding="utf-8")
    layout = guide.split("## Layout", 1)[1].split("```")[1]
    folders = re.findall(r"^(\S+)/\s", layout, re.M)
    assert {"src", "bansugoroku_fast", "tests", "benchmarks", "docs"} <= set(folders)
    assert [folder for folder in folders if not (root / folder).is_dir()] == []
    kernels = {path.stem for path in (root / "src" / "bansugoroku_fast").glob("_*.p[yx][xd]")}
    assert set(re.findall(r"\b(_[a-z][a-z0-9_]*)\b", layout)) == kernels


@source_tree.needs("README.md", "docs/guides/contributing.md", ".ci/run")
@pytest.mark.parametrize("page", ["README.md", "docs/guides/contributing.md"])
def test_the_set_up_commands_are_what_ci_runs(page):
    """The two set-up commands of the front page (and of the contributors'
    guide, which repeats them) stand as they are in .ci/run."""
    root = PACKAGE.parent
    set_up = (root / page).read_text(encoding="utf-8").split("## Set-up", 1)[1].split("```")[1]
    commands = [line.split("#")[0].strip() for line in set_up.splitlines()[1:]]
    commands = [command for command in commands if command]  # not the comment lines
    ci_lines = {line.strip() for line in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()}
    assert commands == ["pip install -e '.[test]' && bansugoroku moves 6-5", "python -m pytest -n auto"]
    assert [command for command in commands if command not in ci_lines] == []


def test_the_oracle_and_the_package_offer_the_same_single_position_functions():
    """The oracle's single-position functions (oracle.moves) and the
    package's kernel-backed ones are two parallel APIs: the same names, each
    pair with the same parameters (names, defaults, kinds)."""
    import inspect

    from bansugoroku_fast import oracle
    from bansugoroku_fast.oracle import moves

    def parameters(function):
        return [(p.name, p.default, p.kind) for p in inspect.signature(function).parameters.values()]

    single = [name for name in oracle.__all__ if getattr(getattr(oracle, name), "__module__", None) == moves.__name__]
    assert len(single) == 10
    assert sorted(set(single) - set(bansugoroku_fast.__all__)) == []
    for name in single:
        assert parameters(getattr(bansugoroku_fast, name)) == parameters(getattr(oracle, name)), name


@source_tree.needs("pyproject.toml")
def test_the_wheel_builds_cover_linux_macos_and_windows():
    """cibuildwheel's configuration names the platforms the wheels are built for."""
    tomllib = pytest.importorskip("tomllib")
    with open(source_tree.path("pyproject.toml"), "rb") as file:
        config = tomllib.load(file)["tool"]["cibuildwheel"]
    assert set(config["linux"]["archs"]) == {"x86_64", "aarch64"}
    assert set(config["macos"]["archs"]) == {"x86_64", "arm64"}
    assert config["windows"]["archs"] == ["AMD64"]
    assert all(f"cp3{minor}-*" in config["build"] for minor in (10, 11, 12, 13))
