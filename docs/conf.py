"""Sphinx configuration of the bansugoroku-fast documentation site.

Build it from the repository root (docs/README.md says more)::

    pip install -e '.[docs]'
    python -m sphinx -W -b html docs docs/_build/html
"""
from __future__ import annotations

import os
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(DOCS))           # the package of this checkout, before any installed copy
sys.path.insert(0, os.path.join(DOCS, "_ext"))      # the site's own extensions

from bansugoroku_fast import __version__  # noqa: E402

project = "bansugoroku-fast"
author = "the bansugoroku-fast authors"
copyright = "the bansugoroku-fast authors"
release = __version__
version = ".".join(__version__.split(".")[:2])

extensions = [
    "myst_parser",                  # the pages are Markdown (MyST)
    "sphinx.ext.autodoc",           # the reference, from the docstrings
    "sphinx.ext.viewcode",          # "[source]" links into the highlighted code
    "sphinxarg.ext",                # the command line's reference, from its argparse parser
    "sphinx_copybutton",            # a copy button on every code block, prompts and output left out
    "bsf_reference",                # the package's names: the index table, and references by object
    "bsf_gallery",                  # the gallery's pictures, drawn by the library at build time
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# README.md says how to build the site; the generated gallery folder is
# included through the gallery's pages, not read as pages of its own.
exclude_patterns = ["_build", "README.md", "gallery/_generated/*.md", "Thumbs.db", ".DS_Store"]

# --- the copy button ------------------------------------------------------------------------------
# What is copied runs as it stands: the doctests' ">>> " and "... " prompts and the shell's "$ "
# are taken off, and in a block with prompts only the prompted lines are copied (not the output).
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_remove_prompts = True
copybutton_line_continuation_character = "\\"   # a "$ " command's next line, after a backslash

# --- MyST -------------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "html_image"]  # html_image: <img width=...>
myst_heading_anchors = 3            # links to a page's sections by their slug (rules.md#decisions)

# --- the reference ----------------------------------------------------------------------------------
autodoc_default_options = {"show-inheritance": True}  # each page says :members: itself
autodoc_member_order = "bysource"   # the modules order their names by topic
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# The package's own aliases (bansugoroku_fast.typing) stay names in signatures instead of the
# unions they stand for; the module's page documents each one.
autodoc_type_aliases = {
    name: f"bansugoroku_fast.typing.{name}"
    for name in ("BatchLike", "DiceLike", "EvaluatorLike", "PoliciesLike", "PolicyLike", "PositionLike", "Rows",
                 "RulesLike")
}
# Names a signature imports for type checkers only (``if TYPE_CHECKING:``, a room above its own):
# without them autodoc cannot read the signature's hints and shows them all as unresolved text.
autodoc_type_aliases |= {"MatchState": "bansugoroku_fast.formats.MatchState",
                         "PlainGameRecords": "bansugoroku_fast.oracle.GameRecords"}
# The numpydoc sections of the docstrings (Parameters / Returns / Raises / Examples) are rendered
# by bsf_reference with napoleon's parser, on functions, classes and modules only: napoleon as an
# extension would also read the first phrase of a constant's "#:" comment ("Rows of a one-sided
# table: ...") as its type. No autosummary: bsf_reference's tables read ``__all__`` (lazy names
# included) and link each name where it is documented.

# Every cross-reference must resolve: a broken one is an error under -W.
nitpicky = True
# Without network access at build time there are no intersphinx inventories, so names of the
# standard library and of third-party packages cannot be linked; they are listed here (and only
# they: a name of bansugoroku_fast that does not resolve stays an error).
nitpick_ignore_regex = [
    # numpy's array types and dtypes, and numpy.typing's aliases (NDArray, ArrayLike, DTypeLike)
    ("py:.*", r"(numpy|np|npt)(\..*)?"),
    # the standard library's abstract types, typing constructs and classes (os.PathLike, Path, ...)
    ("py:.*", r"(collections\.abc|typing|typing_extensions|types|os|pathlib|io|enum|dataclasses|"
              r"concurrent\.futures|random|argparse|contextlib|abc)\..*"),
    ("py:.*", r"(Path|PathLike|Enum|IntEnum|NamedTuple|Protocol|TypeAlias|Generic|Iterator|Iterable|"
              r"Sequence|Mapping|Callable|Generator|ContextManager|TextIO|BinaryIO|ndarray|NDArray|"
              r"ArrayLike|DTypeLike|dtype|Any|Self|Literal|Final|ClassVar|TypeVar|Exception|Warning)"),
    # autodoc splits a dataclass field's annotation text at its commas (TrainingRun.curve: list[dict[str, Any]])
    ("py:class", r"list\[dict\[str"),
    # ... and a field's dict[str, int] (PlayerStatistics.marks)
    ("py:class", r"dict\[str"),
    # the environments' bases and spaces (gymnasium, pettingzoo), Dask's arrays and clients, tqdm
    ("py:.*", r"(gymnasium|gym|pettingzoo|dask|distributed|tqdm|matplotlib)(\..*)?"),
    # the web server's stack (Starlette, uvicorn, anyio)
    ("py:.*", r"(starlette|uvicorn|anyio)(\..*)?"),
    # ... and a dataclass field's Callable[[], int] (CubefulComputer.cube_value)
    ("py:class", r"Callable\[\[\]"),
]

# --- HTML -------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"bansugoroku-fast {release}"
html_static_path: list[str] = []
