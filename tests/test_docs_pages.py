"""The documentation site's pages as a reader meets them (docs/, README.md):
code that fits the page, the boards the library draws, one path for a
newcomer. The built site in a browser: tests/test_docs_browser.py."""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from . import source_tree

ROOT = source_tree.ROOT
DOCS = ROOT / "docs"
pytestmark = source_tree.needs("README.md", "docs/guides", "docs/_ext")

#: The widest code line the pages hold: at 1280 px the site's code blocks
#: show about 90 characters, and a line past that scrolls sideways.
WIDEST_CODE_LINE = 88


def site_pages() -> list[Path]:
    """README.md and every Markdown page of docs/ (not a build's output)."""
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    return [page for page in pages if not {"_build", "_generated"} & set(page.relative_to(ROOT).parts)]


def fenced_blocks(page: Path) -> list[tuple[int, str, str]]:
    """(first line number, language, text) of each fenced code block of ``page``."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, found.start()) + 2, found.group(2), found.group(3))
            for found in re.finditer(r"^(```+)(\S*)\n(.*?)^\1", text, re.M | re.S)]


def test_no_code_line_is_wider_than_the_page():
    pages = site_pages()
    assert {"README.md", "rules.md", "getting-started.md"} <= {page.name for page in pages}
    # A directive's block ({eval-rst}, {toctree}...) is source, not code shown on the page.
    wide = [f"{page.relative_to(ROOT)}:{first + index}: {len(line)} characters"
            for page in pages for first, language, block in fenced_blocks(page) if not language.startswith("{")
            for index, line in enumerate(block.splitlines()) if len(line) > WIDEST_CODE_LINE]
    assert wide == []


def test_the_width_check_sees_a_wide_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Text may be as long as it likes. " * 5 + "\n\n```python\n>>> " + "x" * 85 + "\n```\n")
    ((first, language, block),) = fenced_blocks(page)
    assert (first, language) == (4, "python")
    assert max(len(line) for line in block.splitlines()) == WIDEST_CODE_LINE + 1


# --- the boards -------------------------------------------------------------------------------------

def boards_module():
    spec = importlib.util.spec_from_file_location("bsf_boards", DOCS / "_ext" / "bsf_boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_boards_are_what_the_library_draws():
    """docs/images/boards/ holds each board of bsf_boards.BOARDS as the
    renderer draws it now (after a change: python docs/_ext/bsf_boards.py)."""
    boards = boards_module()
    folder = DOCS / "images" / "boards"
    assert sorted(path.stem for path in folder.glob("*.svg")) == sorted(boards.BOARDS)
    stale = [name for name, board in boards.BOARDS.items()
             if (folder / f"{name}.svg").read_text(encoding="utf-8") != boards.drawing(board)]
    assert stale == []


def test_every_board_is_shown_and_numbered_on_both_rows_with_a_key():
    boards = boards_module()
    shown = " ".join(page.read_text(encoding="utf-8") for page in site_pages())
    assert [name for name in boards.BOARDS if f"images/boards/{name}.svg" not in shown] == []
    start = boards.drawing(boards.BOARDS["start"])
    numbers = [int(text) for text in re.findall(r">(\d+)</text>", start)]
    assert sorted(numbers) == list(range(1, 25)) and "X (light), to move" in start and "O (dark)" in start


@pytest.mark.parametrize("page", ["guides/getting-started.md", "rules.md", "guides/games-and-rollouts.md",
                                  "guides/evaluators.md", "endgames.md", "guides/analysis.md"])
def test_the_pages_a_reader_would_rather_look_at_show_a_board(page):
    assert "images/boards/" in (DOCS / page).read_text(encoding="utf-8")


def gallery_module():
    pytest.importorskip("matplotlib")
    spec = importlib.util.spec_from_file_location("bsf_gallery", DOCS / "_ext" / "bsf_gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gallery_boards_are_numbered_on_both_rows_with_a_key():
    drawings = gallery_module().board_drawings()
    assert len(drawings) == 3
    for name, drawing in drawings.items():
        numbers = sorted(int(text) for text in re.findall(r">(\d+)</text>", drawing) if int(text) <= 24)
        assert set(numbers) == set(range(1, 25)), name
        assert "X (light)" in drawing and "O (dark)" in drawing, name


def test_the_speed_chart_labels_have_no_markdown_left(monkeypatch):
    """The speed chart labels its bars with the front page's call names, backticks taken off."""
    gallery = gallery_module()
    labels = []
    monkeypatch.setattr(gallery, "_save", lambda figure, name: labels.extend(
        tick.get_text() for tick in figure.axes[0].get_yticklabels()))
    gallery.speed_table()
    assert len(labels) >= 3 and "generate_plays(), every field" in labels
    assert [label for label in labels if "`" in label] == []


# --- the reference ----------------------------------------------------------------------------------

def reference_extension_public_modules() -> tuple[str, ...]:
    """``PUBLIC_MODULES`` of docs/_ext/bsf_reference.py, read from its source
    (importing it needs Sphinx)."""
    tree = ast.parse((DOCS / "_ext" / "bsf_reference.py").read_text(encoding="utf-8"))
    (value,) = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and [target.id for target in node.targets if isinstance(target, ast.Name)] == ["PUBLIC_MODULES"]]
    return tuple(ast.literal_eval(value))


def public_modules() -> set[str]:
    """The package, the submodules the reference documents as public, and
    every module of the package a page tells a reader to import or run."""
    named = {f"bansugoroku_fast.{name}" for name in reference_extension_public_modules()}
    for page in site_pages():
        text = page.read_text(encoding="utf-8")
        named |= set(re.findall(r"(?:from|import|python -m)\s+(bansugoroku_fast(?:\.\w+)*)", text))
    return {"bansugoroku_fast", *named}


def documented_modules() -> set[str]:
    """The modules a page of docs/reference/ documents with ``automodule``."""
    pages = " ".join(page.read_text(encoding="utf-8") for page in (DOCS / "reference").glob("*.md"))
    return set(re.findall(r"\.\. automodule:: ([\w.]+)", pages))


def test_every_public_module_has_a_reference_page():
    public = public_modules()
    assert {"bansugoroku_fast.evaluators.nets", "bansugoroku_fast.distributed"} <= public
    assert sorted(public - documented_modules()) == []


def test_the_docstring_test_checks_the_modules_the_reference_shows():
    from . import test_docstrings

    assert reference_extension_public_modules() == test_docstrings.PUBLIC_MODULES


def documented_named_tuples() -> dict[str, type]:
    """The named tuples the reference pages show: each class that a module
    documented with ``automodule`` lists in ``__all__`` (or, without one,
    defines under a public name), and the named tuples it derives from."""
    found: dict[str, type] = {}
    for module_name in sorted(documented_modules()):
        module = importlib.import_module(module_name)
        names = getattr(module, "__all__", None) or [
            name for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module_name]
        for name in names:
            value = getattr(module, name)
            if isinstance(value, type):
                for cls in value.__mro__:
                    if issubclass(cls, tuple) and hasattr(cls, "_fields") and cls is not tuple:
                        found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def test_every_field_of_a_documented_named_tuple_says_what_it_holds():
    """A field left alone reads "Alias for field number N" in the reference and in help()."""
    pytest.importorskip("starlette")      # the web pages' modules need the web extra
    named = documented_named_tuples()
    assert {"bansugoroku_fast.play.Step", "bansugoroku_fast.batch.OutcomeBatch"} <= set(named)
    bare = [f"{name}.{field}" for name, cls in sorted(named.items()) for field in cls._fields
            if (getattr(cls, field).__doc__ or "").startswith("Alias for field number")]
    assert bare == []
