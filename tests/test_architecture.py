"""The import rules of ``docs/architecture.md``, held against the package.

The rooms are read from the document's table, so that the page and the code
cannot drift apart: every module is in exactly one room, every import goes
down or stays in its room, only the seam imports a compiled kernel, nothing
imports another module's private names, the graph has no cycle and its
longest chain is at most 17 modules, and policies are named in one registry
that imports what it names (no module found by an import string).
"""
from __future__ import annotations

import ast
import fnmatch
import functools
import re
from pathlib import Path

import pytest

from . import source_tree

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bansugoroku_fast"
DOC = ROOT / "docs" / "architecture.md"
SEAM = "bansugoroku_fast._kernel"
#: The longest chain of imports. 16 since the policy registry imports the
#: evaluators it names ("net": the command line -> the games -> the policies
#: -> the evaluators' search, network and encoding -> the batch calls); the
#: chain was as long before, but an import string hid six of its levels.
#: 17 since ``bansugoroku serve``: the command line -> serve -> the web app
#: -> match files -> the games (the app writes and reads the page's games as
#: match files).
MOST_LEVELS = 17

pytestmark = source_tree.needs("docs/architecture.md", "src/bansugoroku_fast", "bansugoroku_fast")


def module_files() -> dict[str, Path]:
    """Every Python module of the package by dotted name."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def kernel_modules() -> set[str]:
    """The compiled modules: one per ``.pyx`` under ``src/``."""
    return {f"bansugoroku_fast.{path.stem}" for path in (ROOT / "src" / "bansugoroku_fast").glob("*.pyx")}


def rooms() -> list[tuple[int, list[str]]]:
    """``(room number, module patterns)`` from the document's table."""
    found = []
    for line in DOC.read_text().splitlines():
        match = re.match(r"\|\s*(\d+) [a-z ]+\|(.*?)\|", line)
        if match:
            patterns = [name.strip(" `") for name in match.group(2).split(",")]
            found.append((int(match.group(1)), patterns))
    return found


def room_of(module: str, table: list[tuple[int, list[str]]]) -> list[int]:
    """The rooms whose patterns name ``module`` (relative names; the package itself is ``bansugoroku_fast``)."""
    relative = module.removeprefix("bansugoroku_fast.") if module != "bansugoroku_fast" else module
    return [number for number, patterns in table
            if any(fnmatch.fnmatchcase(relative, pattern) for pattern in patterns)]


def _runs(node: ast.AST) -> bool:
    """False for an ``if TYPE_CHECKING:`` block, which only type checkers read."""
    if isinstance(node, ast.If):
        test = node.test
        return not ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
                    or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))
    return True


def imports_of(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a file that can run, function-local ones included."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if not _runs(node):
            assert isinstance(node, ast.If)
            for child in node.orelse:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def _target(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@functools.cache
def graph() -> dict[str, set[tuple[str, str]]]:
    """``module -> {(imported module, name imported or "")}`` within the package
    (compiled kernels included)."""
    modules = module_files()
    known = set(modules) | kernel_modules()
    edges: dict[str, set[tuple[str, str]]] = {name: set() for name in modules}
    for module, path in modules.items():
        for node in imports_of(path):
            if isinstance(node, ast.Import):
                edges[module] |= {(alias.name, "") for alias in node.names if alias.name in known}
                continue
            target = _target(module, path, node)
            if not target.startswith("bansugoroku_fast"):
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                edges[module].add((submodule, "") if submodule in known else (target, alias.name))
    return edges


def test_every_module_is_in_exactly_one_room():
    table = rooms()
    assert [number for number, _ in table] == sorted(number for number, _ in table), "rooms in order"
    placed = {module: room_of(module, table) for module in module_files()}
    assert {module: found for module, found in placed.items() if len(found) != 1} == {}


def test_only_the_seam_imports_the_kernels():
    kernels = kernel_modules()
    assert kernels, "no .pyx found"
    importers = {module for module, edges in graph().items() for target, _ in edges if target in kernels}
    assert importers == {SEAM}


def test_imports_go_down_or_stay_in_their_room():
    table = rooms()
    kernels = kernel_modules()
    upward = [
        f"{module} (room {room_of(module, table)[0]}) imports {target} (room {room_of(target, table)[0]})"
        for module, edges in graph().items() for target, _ in edges
        if target not in kernels and room_of(target, table)[0] > room_of(module, table)[0]
    ]
    assert upward == []


def test_no_module_imports_another_module_s_private_names():
    private = [f"{module}: from {target} import {name}" for module, edges in graph().items()
               for target, name in edges if name.startswith("_") and not name.startswith("__")]
    assert private == []


def test_the_import_graph_has_no_cycle_and_at_most_seventeen_levels():
    edges = {module: {target for target, _ in targets if target in graph()} - {module}
             for module, targets in graph().items()}
    levels: dict[str, int] = {}
    on_path: list[str] = []

    def level(module: str) -> int:
        if module in on_path:
            cycle = on_path[on_path.index(module):] + [module]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if module not in levels:
            on_path.append(module)
            levels[module] = 1 + max((level(target) for target in edges[module]), default=0)
            on_path.pop()
        return levels[module]

    deepest = max(edges, key=level)
    assert levels[deepest] <= MOST_LEVELS, f"{deepest} stands on {levels[deepest]} levels"


#: Module paths that must not come back: the deprecated aliases of the
#: unpublished versions' paths (0.1-0.3), removed after 0.4.0, and their helper.
REMOVED_ALIASES = ("api", "game", "lockstep", "policies", "choices", "opponent", "tallies", "_moved")


def test_no_alias_modules():
    """Each name has one module path: none of the removed aliases is back,
    and no module replaces itself (or another) in ``sys.modules``."""
    modules = module_files()
    assert sorted(name for name in REMOVED_ALIASES if f"bansugoroku_fast.{name}" in modules) == []
    rewriting = [module for module, path in modules.items()
                 if re.search(r"sys\.modules\[[^]]+\]\s*=|sys\.modules\.(update|setdefault)", path.read_text())]
    assert rewriting == []


def test_policies_are_named_in_one_registry_without_import_strings():
    """One registry (``games.policies.POLICIES``) names every policy; no
    module finds another by a string (``importlib.import_module``) but the
    package's lazy names (PEP 562), the seam's choice of a kernel build and
    the conformance kit's engine named by the user; and nothing fills the
    registry as a side effect of an import (no module writes to it)."""
    from bansugoroku_fast.games import policies

    assert set(policies.POLICIES) == {"random", "first", "heuristic", "pubeval", "race", "net", "net1"}
    sources = {module: path.read_text() for module, path in module_files().items()}
    by_string = {module for module, text in sources.items() if "import_module" in text}
    # the namespaces that load their heavy names on first use (PEP 562), and the
    # command that loads the analysis late, name modules as strings; no policy does
    lazy = {"bansugoroku_fast", "bansugoroku_fast.cube", "bansugoroku_fast.analysis", "bansugoroku_fast.cli.analyse"}
    assert by_string <= lazy | {SEAM, "bansugoroku_fast.formats.conformance.engines"}
    assert "importlib" not in sources["bansugoroku_fast.games.policies"]
    writers = [module for module, text in sources.items()
               if re.search(r"POLICIES\[[^]]+\]\s*=|POLICIES\.(update|setdefault)", text)]
    assert writers == []


def bare_builtin_raises(source: str) -> list[int]:
    """The lines of ``source`` that raise a bare ``ValueError`` or
    ``TypeError`` (called or not), rather than a typed error."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(raised, ast.Name) and raised.id in ("ValueError", "TypeError"):
                found.append(node.lineno)
    return sorted(found)


def test_the_package_raises_typed_errors_only():
    """Every error the package raises is one of ``errors``, which all derive
    from ``BansugorokuError`` (and from ValueError / TypeError where they are
    one): no bare ``raise ValueError(...)`` / ``raise TypeError(...)``."""
    bare = [f"{module}:{line}" for module, path in module_files().items()
            for line in bare_builtin_raises(path.read_text())]
    assert bare == []
    assert bare_builtin_raises("def f(x):\n    if x:\n        raise ValueError('x')\n    raise TypeError\n") == [3, 4]


def test_every_error_class_derives_from_the_base():
    from bansugoroku_fast import errors

    classes = [getattr(errors, name) for name in errors.__all__]
    exceptions = [cls for cls in classes if issubclass(cls, Exception) and not issubclass(cls, Warning)]
    assert [cls.__name__ for cls in exceptions if not issubclass(cls, errors.BansugorokuError)] == []


#: The calls whose class arguments test an error rather than raise one.
CLASS_TESTS = ("isinstance", "issubclass")


def raised_names(source: str) -> set[str]:
    """The names ``source`` raises, warns or makes: raised (``raise X``,
    ``raise X(...)``, ``raise X.of_game(...)``), called (``X(...)``, an
    error built to be raised elsewhere) or handed to a call (``warn(...,
    X)``, a helper told which error to raise); not a name that is only
    imported, caught or tested with ``isinstance``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(raised, ast.Attribute):    # X.of_game(...)
                raised = raised.value
            if isinstance(raised, ast.Name):
                found.add(raised.id)
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                found.add(node.func.id)
                if node.func.id in CLASS_TESTS:
                    continue
            found.update(argument.id for argument in [*node.args, *(k.value for k in node.keywords)]
                         if isinstance(argument, ast.Name))
    return found


def test_every_error_class_is_raised_or_a_base_of_one_that_is():
    """No error class (or warning) lingers that nothing raises: each is
    raised, warned or made by a module of the package (not ``errors``
    itself), or is the base of one that is, which a caller catches."""
    from bansugoroku_fast import errors

    used = set().union(*(raised_names(path.read_text()) for module, path in module_files().items()
                         if module != "bansugoroku_fast.errors"))
    classes = [getattr(errors, name) for name in errors.__all__]
    raised = [cls for cls in classes if cls.__name__ in used]
    idle = [cls.__name__ for cls in classes if not any(issubclass(made, cls) for made in raised)]
    assert idle == []
    assert raised_names("raise A\nraise B('x')\nraise C.of_game(1)\nD()\nwarn('x', E)\n"
                        "isinstance(x, F)\ntry:\n    pass\nexcept G:\n    pass\n") == {
        "A", "B", "C", "D", "warn", "E", "isinstance"}


def test_the_rules_catch_what_they_forbid(tmp_path):
    """The checks above see what they look for: a private import, an upward
    import hidden in a function, an import under TYPE_CHECKING (ignored)."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from .moves import _prepare\n"
        "def later():\n    from .games import bulk\n"
        "if TYPE_CHECKING:\n    from .cli import main\n"
    )
    names = [(node.module, [alias.name for alias in node.names]) for node in imports_of(source)
             if isinstance(node, ast.ImportFrom)]
    assert names == [("typing", ["TYPE_CHECKING"]), ("moves", ["_prepare"]), ("games", ["bulk"])]
    assert room_of("bansugoroku_fast.games.bulk", rooms()) == [5]
    assert room_of("bansugoroku_fast.cli.match", rooms()) == [7]


#: The network classes: the one that plays and trains, and the oracle's plain twin.
NETWORK_CLASSES = {"bansugoroku_fast.evaluators.network.NetEvaluator",
                   "bansugoroku_fast.oracle.evaluators.PlainNetwork"}


def test_one_network_class_plays_and_trains():
    # a class with a forward pass (a ``forward`` method) or named a network is a network class:
    # training fits NetEvaluator's layers (bansugoroku_fast.train.fitting), not a class of its own
    found = set()
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                methods = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
                if "forward" in methods or node.name.endswith("Network"):
                    found.add(f"{module}.{node.name}")
    assert found == NETWORK_CLASSES


KERNEL_SOURCES = ROOT / "src" / "bansugoroku_fast"
#: The most lines a kernel module's ``.pyx`` may have: past it, a module holds
#: more than one idea and is split along a seam that says something.
MOST_PYX_LINES = 800


def test_no_kernel_module_is_over_800_lines():
    long = {path.name: lines for path in KERNEL_SOURCES.glob("*.pyx")
            if (lines := len(path.read_text().splitlines())) > MOST_PYX_LINES}
    assert long == {}


def test_the_kernels_c_is_in_headers_not_in_string_literals():
    """Hand-written C lives in ``bsf_*.h`` (``cdef extern from "bsf_x.h"``),
    where a C compiler, an editor and a linter read it, not in a Cython
    string (``cdef extern from *`` with a verbatim block)."""
    verbatim = re.compile(r'cdef\s+extern\s+from\s+\*')
    sources = sorted([*KERNEL_SOURCES.glob("*.pyx"), *KERNEL_SOURCES.glob("*.pxd")])
    assert [path.name for path in sources if verbatim.search(path.read_text())] == []
    included = {name for path in sources
                for name in re.findall(r'cdef\s+extern\s+from\s+"(bsf_[^"]+)"', path.read_text())}
    assert included <= {path.name for path in KERNEL_SOURCES.glob("bsf_*.h")}
    assert verbatim.search('cdef extern from *:\n    """int x;"""') is not None


#: The kernel walker, where the rules of a turn are written, and the
#: functions that write them (docs/architecture.md, "Where a rule lives in
#: the kernels"): a move's origins, the win that ends a sequence, the
#: must-play rule (the most dice; one die: the larger).
TURN_WALKER = "_search.pyx"
TURN_RULES = ("_move_origins", "_mover_has_won", "_record", "_die_of_one_move")
#: The two walks that apply them, each taking its origins from _move_origins.
TURN_WALKS = ("_search", "_walk_two_moves")


def kernel_functions() -> dict[str, list[tuple[str, str]]]:
    """Every function defined in the kernel sources (``cdef``, ``cpdef``,
    ``def``; a ``.pxd``'s inline ones too), by name: the files defining it,
    each with the function's text (up to the next line that starts a
    statement at the top level)."""
    starts = re.compile(r"^(?:cp?def|def)\b[^\n]*?\b(\w+)\(", re.M)
    found: dict[str, list[tuple[str, str]]] = {}
    for path in sorted([*KERNEL_SOURCES.glob("*.pyx"), *KERNEL_SOURCES.glob("*.pxd")]):
        text = path.read_text()
        tops = [match.start() for match in re.finditer(r"^\S", text, re.M)] + [len(text)]
        for match in starts.finditer(text):
            if is_definition(text, match.end() - 1):
                end = next(top for top in tops if top > match.start())
                found.setdefault(match.group(1), []).append((path.name, text[match.start():end]))
    return found


def is_definition(text: str, opening: int) -> bool:
    """Whether the signature whose parameters open at ``opening`` (its
    ``(``) starts a definition (its line ends with ``:``), not a declaration."""
    depth = 0
    for index in range(opening, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[index:].split("\n", 1)[0].rstrip().endswith(":")
    return False


def rule_section() -> str:
    text = DOC.read_text()
    start = text.index("## Where a rule lives in the kernels")
    return text[start:text.index("\n## ", start + 1)]


def test_the_rules_of_a_turn_are_written_once_in_the_kernel_walker():
    functions = kernel_functions()
    for name in (*TURN_RULES, *TURN_WALKS):
        assert [file for file, _ in functions.get(name, [])] == [TURN_WALKER], name
        assert f"`{name}`" in rule_section(), f"the architecture page does not name {name}"
    assert f"`{TURN_WALKER}`" in rule_section()
    for walk in TURN_WALKS:
        assert "_move_origins(" in functions[walk][0][1], f"{walk} finds a move's origins by itself"
    # The one-die clause of the must-play rule, in both walks.
    assert "_die_of_one_move(" in functions["_walk_two_moves"][0][1]
    assert "_die_of_one_move(" in functions["_search_one_die"][0][1]


def test_kernel_functions_finds_definitions_not_declarations():
    functions = kernel_functions()
    # declared in _search.pxd, defined in _search.pyx (one line, then two); inline in _board.pxd
    assert [file for file, _ in functions["run_turn_scanned"]] == ["_search.pyx"]
    assert [file for file, _ in functions["count_last_two"]] == ["_shortcuts.pyx"]
    assert [file for file, _ in functions["nth_highest"]] == ["_board.pxd"]
    assert "while k:" in functions["nth_highest"][0][1]


def test_one_probe_asks_the_cpu_and_one_mechanism_acts_on_it():
    """Every choice of code by CPU reads ``bsf_cpu.h``'s probe: no other
    kernel source asks the CPU (``__builtin_cpu_supports``), none has GCC
    clone a function with its own resolver (``target_clones``), no kernel
    module is a second build of another's source (a ``.pyx`` including a
    ``.pyx``), and the AVX2 copies' target attribute is written once, in
    ``bsf_cpu.h``, which the network code and the batch kernels use
    (docs/architecture.md, "How the kernels choose code by CPU"). The
    exact networks' hand-written vectors (``bsf_net_exact_simd.h``) name
    the instruction set they are written in."""
    sources = [*KERNEL_SOURCES.glob("*.pyx"), *KERNEL_SOURCES.glob("*.pxd"), *KERNEL_SOURCES.glob("bsf_*.[ch]")]
    asking = {path.name for path in sources if "__builtin_cpu_supports" in path.read_text()}
    assert asking == {"bsf_cpu.h"}
    assert [path.name for path in sources if "target_clones" in path.read_text()] == []
    assert [path.name for path in sources if re.search(r"^include ", path.read_text(), re.MULTILINE)] == []
    targeting = {path.name for path in sources if "target(" in path.read_text()}
    assert targeting == {"bsf_cpu.h", "bsf_net_exact_simd.h"}
    network, batch = (KERNEL_SOURCES / "bsf_net.h").read_text(), (KERNEL_SOURCES / "_batch.pyx").read_text()
    assert "BSF_AVX2_TARGET" in network and "bsf_cpu_avx2()" in network
    assert re.findall(r"^cdef avx2_copy_void (\w+)", batch, re.MULTILINE) == [
        "_count_items_avx2", "_generate_items_avx2", "_shots_items_avx2"]
