"""The reference's own Sphinx machinery: where each public name is documented.

The package re-exports names from the rooms that define them
(``bansugoroku_fast.Position`` is ``bansugoroku_fast.position.Position``;
``bansugoroku_fast.Game`` is ``bansugoroku_fast.games.Game``), and its
docstrings and type hints name objects by whichever path is nearest. Each
object is documented once, on the page of the public module users import it
from (its *home*), and this extension

* resolves any reference to a package object, by whatever path, to the page
  that documents that same object (Python identity, not spelling);
* renders a reference to an existing but undocumented object of the package
  (an internal module such as ``bansugoroku_fast.games.policies``, a private
  helper) as plain code, since there is no page to link;
* leaves every other reference alone: a name that does not exist in the
  package stays a broken reference, an error under ``sphinx -W``;
* adds the ``bsf-home-members`` directive: autodoc entries for the names a
  module (the top-level package) defines itself, the names whose home is a
  public submodule being documented on that submodule's page;
* adds the ``bsf-names`` directive: a table of a module's ``__all__``, each
  name linked to where it is documented, with its first docstring line.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
import textwrap
import types
from collections.abc import Callable
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import PycodeError
from sphinx.ext.napoleon import Config as NapoleonConfig
from sphinx.ext.napoleon.docstring import NumpyDocstring
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

PACKAGE = "bansugoroku_fast"
#: The public submodules, in the reference's order; each has a page that documents its ``__all__``.
PUBLIC_MODULES = ("batch", "games", "formats", "evaluators", "evaluators.nets", "endgames", "cube", "analysis",
                  "envs", "distributed", "oracle", "errors", "typing", "render")
_DECLARED = "an attribute declared by its class, set on each instance"
_SCALARS = (int, float, str, bytes, bool, type(None))


def lookup(dotted: str) -> tuple[bool, Any]:
    """``(True, object)`` that a dotted name of the package names, or ``(False, None)``."""
    parts = dotted.split(".")
    if parts[0] != PACKAGE:
        return False, None
    for split in range(len(parts), 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if isinstance(value, type):
                try:
                    value = inspect.getattr_static(value, attribute)
                except AttributeError:
                    # an instance attribute the class (or a base) declares: it exists, with no object
                    if not declares(value, attribute):
                        return False, None
                    value = _DECLARED
            else:
                try:
                    value = getattr(value, attribute)
                except AttributeError:
                    return False, None
        return True, value
    return False, None


def declares(cls: type, attribute: str) -> bool:
    """Whether ``cls`` or a base annotates ``attribute`` or assigns ``self.<attribute>`` in a method."""
    for base in cls.__mro__:
        if attribute in vars(base).get("__annotations__", {}):
            return True
        try:
            analyzer = ModuleAnalyzer.for_module(base.__module__)
            analyzer.analyze()
        except PycodeError:
            continue
        if f"{base.__qualname__}.{attribute}" in analyzer.tagorder:
            return True
    return False


def identity(value: Any) -> Any:
    """The object that stands for ``value`` (a class attribute read statically or not)."""
    if isinstance(value, (classmethod, staticmethod, types.MethodType)):
        return value.__func__
    return value


def home_module(name: str) -> str:
    """The module whose page documents the top-level name ``name``."""
    package = importlib.import_module(PACKAGE)
    value = getattr(package, name)
    if isinstance(value, types.ModuleType):
        return value.__name__
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(f"{PACKAGE}.{module_name}")
        if name in getattr(module, "__all__", ()) and getattr(module, name) is value:
            return module.__name__
    return PACKAGE


def documented(env: BuildEnvironment) -> dict[int, str]:
    """id(object) -> the full name it is documented under (the first one, in page order)."""
    cached: dict[int, str] | None = getattr(env, "_bsf_documented", None)
    if cached is not None:
        return cached
    found: dict[int, str] = {}
    keep: list[Any] = []    # the objects stay alive while their ids are keys
    for full_name in env.get_domain("py").objects:
        ok, value = lookup(full_name)
        if not ok or isinstance(value, _SCALARS):
            continue
        value = identity(value)
        keep.append(value)
        found.setdefault(id(value), full_name)
    env._bsf_documented = found         # type: ignore[attr-defined]
    env._bsf_documented_keep = keep     # type: ignore[attr-defined]
    return found


#: Inline markup of a docstring's first line: ``code`` or :role:`target`.
_INLINE = re.compile(r"``(?P<code>[^`]+)``|:(?:py:)?(?P<role>\w+):`(?P<target>[^`]+)`")
_DOCSTRING_OF = re.compile(r"docstring of ([\w.]+)")


def candidates(target: str, node: addnodes.pending_xref) -> list[str]:
    """The dotted names ``target`` may mean where it is written, nearest first."""
    target = target.lstrip(".~")
    names = [target]
    context = [node.get("py:module"), node.get("py:class")]
    module, cls = context
    if module and cls:
        names.append(f"{module}.{cls}.{target}")
    if module:
        names.append(f"{module}.{target}")
    # The module the docstring was written in (autodoc records "docstring of <name>"): a short name
    # there means what that module's namespace holds.
    match = _DOCSTRING_OF.search(node.source or "")
    if match:
        owner = match.group(1).split(".")
        for split in range(len(owner), 1, -1):
            names.append(".".join(owner[:split] + [target]))
    # The module that defines the object being documented (a type field or an annotation napoleon or
    # autodoc wrote for it): a short name there means what that module holds.
    for documented_name in enclosing_objects(node):
        ok, value = lookup(documented_name)
        home = getattr(value, "__module__", None) if ok else None
        if isinstance(home, str):
            names.append(f"{home}.{target}")
    names.append(f"{PACKAGE}.{target}")
    # An error's short name (a Raises section's ``GameTooLongError``) means
    # the error of that name, which only ``errors`` holds.
    names.append(f"{PACKAGE}.errors.{target}")
    return names


def enclosing_objects(node: nodes.Node) -> list[str]:
    """The full names of the objects whose descriptions hold ``node``, innermost first."""
    found = []
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.desc):
            for signature in parent.findall(addnodes.desc_signature):
                if signature.get("module") and signature.get("fullname"):
                    found.append(f"{signature['module']}.{signature['fullname']}")
                break
        parent = parent.parent
    return found


def resolve(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
            contnode: nodes.Element) -> nodes.Element | None:
    """The ``missing-reference`` handler: link by identity, or render as code, or leave broken."""
    if node.get("refdomain") != "py":
        return None
    objects = env.get_domain("py").objects
    for name in candidates(node["reftarget"], node):
        if name in objects:     # documented under this very name (a spelling Sphinx's search missed)
            entry = objects[name]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)
        ok, value = lookup(name)
        if not ok:
            continue
        if isinstance(value, _SCALARS):
            full_name = name if name in objects else None
        else:
            full_name = documented(env).get(id(identity(value)))
        if full_name is None:
            return contnode     # a real object of the package that no page documents: plain code
        entry = objects[full_name]
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, full_name)
    if defined_once(node["reftarget"]):
        return contnode     # a class of the package named in an annotation autodoc wrote as text
    return None


def defined_once(target: str) -> bool:
    """Whether exactly one class of the package is called ``target`` (a bare name): an annotation
    autodoc leaves as text (a dataclass field's) names it, and there is no page to link."""
    if "." in target:
        return False
    classes = {id(value) for name, module in list(sys.modules.items()) if name.startswith(PACKAGE)
               for value in [getattr(module, target, None)]
               if isinstance(value, type) and value.__module__.startswith(PACKAGE) and value.__name__ == target}
    return len(classes) == 1


def foreign_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A method that autodoc gives the docstring of another package's class it overrides
    (gymnasium's ``Env.step``) says so instead: that text is written for that package's site, in
    its markup, with its cross-references."""
    if what not in ("method", "property") or getattr(obj, "__doc__", None) is not None:
        return
    owner_name, _, attribute = name.rpartition(".")
    ok, owner = lookup(owner_name)
    if not ok or not isinstance(owner, type):
        return
    for base in owner.__mro__[1:]:
        if getattr(vars(base).get(attribute), "__doc__", None):
            if not base.__module__.startswith(PACKAGE):
                lines[:] = [f"As ``{base.__module__}.{base.__qualname__}.{attribute}`` (that package's "
                            "documentation describes it).", ""]
            return


def doc_comment(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A constant re-exported by a public module gets the ``#:`` comment of the module defining it
    (in place of nothing, or of its type's docstring: ``dict``'s, a class's)."""
    if what != "data":
        return
    own = inspect.cleandoc(getattr(type(obj), "__doc__", None) or "")
    if any(line.strip() for line in lines) and "\n".join(lines).strip() != own:
        return
    lines[:] = []
    attribute = name.rpartition(".")[2]
    for candidate in sorted(sys.modules):
        module = sys.modules[candidate]
        if not candidate.startswith(PACKAGE) or getattr(module, attribute, _DECLARED) is not obj:
            continue
        try:
            analyzer = ModuleAnalyzer.for_module(candidate)
        except PycodeError:
            continue
        comment = analyzer.find_attr_docs().get(("", attribute))
        if comment:
            lines[:] = [*comment]
            return


def autodoc_block(names: list[tuple[str, str]]) -> list[str]:
    """MyST lines running the autodoc directive of each (full name, kind)."""
    lines = ["```{eval-rst}"]     # autodoc writes reStructuredText: parse it as such
    for full_name, what in names:
        directive = {"class": "autoclass", "exception": "autoexception", "warning": "autoexception",
                     "function": "autofunction", "data": "autodata"}[what]
        lines += [f".. {directive}:: {full_name}", ""]
    return lines + ["```"]


class DataDirective(SphinxDirective):
    """``bsf-data MODULE``: autodoc entries for the constants and type aliases of MODULE's
    ``__all__`` that ``automodule`` leaves out (autodoc documents a module's data only where the
    module itself gives it a ``#:`` comment; :func:`doc_comment` finds the defining module's)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        commented = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
        aliases = importlib.import_module(f"{PACKAGE}.typing")
        # an alias of bansugoroku_fast.typing that another module re-exports is documented there
        # only, so that its name, short, refers to one entry
        names = [(f"{module.__name__}.{name}", "data") for name in module.__all__
                 if kind(getattr(module, name)) == "data" and ("", name) not in commented
                 and (module is aliases or getattr(aliases, name, None) is not getattr(module, name))]
        if not names:
            return []
        container = nodes.container()
        self.state.nested_parse(StringList(autodoc_block(names), source=self.env.docname), self.content_offset,
                                container)
        return list(container.children)


class HomeMembersDirective(SphinxDirective):
    """``bsf-home-members MODULE``: autodoc entries for the names of MODULE's ``__all__`` that no
    public submodule's page documents (the rest are linked from the ``bsf-names`` table)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        names = [(f"{module.__name__}.{name}", kind(getattr(module, name)))
                 for name in module.__all__ if home_module(name) == module.__name__]
        container = nodes.container()
        self.state.nested_parse(StringList(autodoc_block(names), source=self.env.docname), self.content_offset,
                                container)
        return list(container.children)


def summary(value: Any) -> str:
    """The first line of a public object's docstring ("" for a value without its own)."""
    if isinstance(value, (*_SCALARS, tuple, list, dict, frozenset)):
        return ""
    doc = inspect.getdoc(value) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


def kind(value: Any) -> str:
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, type):
        if issubclass(value, Warning):
            return "warning"
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isroutine(value):
        return "function"
    return "data"


class NamesDirective(SphinxDirective):
    """``bsf-names MODULE``: a table of MODULE's ``__all__`` (name, kind, summary), each name linked."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"kinds": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        wanted = set(self.options.get("kinds", "").split()) or None
        table = nodes.table(classes=["bsf-names"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (30, 12, 58):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self.row([nodes.Text("name"), nodes.Text("kind"), nodes.Text("what it is")])
        body = nodes.tbody()
        group += body
        for name in module.__all__:
            value = getattr(module, name)
            what = kind(value)
            if wanted and what not in wanted:
                continue
            full_name = f"{module.__name__}.{name}"
            ref = addnodes.pending_xref("", nodes.literal(text=name, classes=["xref", "py", "py-obj"]),
                                        refdomain="py", reftype="obj", reftarget=full_name,
                                        refexplicit=True, refwarn=True)
            ref["refdoc"] = self.env.docname
            text = summary(value)
            cell = nodes.paragraph()
            if text:
                cell.extend(self.parse_inline(text, getattr(value, "__module__", None) or module.__name__))
            body += self.row([ref, nodes.Text(what), cell])
        return [table]

    def parse_inline(self, text: str, module: str) -> list[nodes.Node]:
        """A docstring's first line with its ``code`` and ``:role:`target``` markup as nodes."""
        parsed: list[nodes.Node] = []
        position = 0
        for match in _INLINE.finditer(text):
            parsed.append(nodes.Text(text[position:match.start()]))
            if match.group("code") is not None:
                parsed.append(nodes.literal(text=match.group("code")))
            else:
                target = match.group("target")
                shown = target.rsplit(".", 1)[-1] if target.startswith("~") else target
                ref = addnodes.pending_xref("", nodes.literal(text=shown.lstrip("~"), classes=["xref", "py"]),
                                            refdomain="py", reftype=match.group("role"),
                                            reftarget=target.lstrip("~"), refexplicit=True, refwarn=True)
                ref["refdoc"] = self.env.docname
                ref["py:module"] = module   # short names mean what the docstring's module holds
                parsed.append(ref)
            position = match.end()
        parsed.append(nodes.Text(text[position:]))
        return parsed

    @staticmethod
    def row(cells: list[nodes.Node]) -> nodes.row:
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            entry += content if isinstance(content, nodes.paragraph) else nodes.paragraph("", "", content)
            row += entry
        return row


def cli_parser() -> argparse.ArgumentParser:
    """The ``bansugoroku`` parser, for sphinx-argparse: a help text laid out by hand (a raw
    formatter's epilog, such as ``play``'s list of commands) is shown as the literal block it is
    in the terminal, where reStructuredText would read its indented lines as markup."""
    from bansugoroku_fast.cli import build_parser

    parser = build_parser()
    pending = [parser]
    while pending:
        current = pending.pop()
        if current.epilog and issubclass(current.formatter_class, argparse.RawDescriptionHelpFormatter):
            current.epilog = "::\n\n" + textwrap.indent(current.epilog.rstrip(), "    ")
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend(action.choices.values())
    return parser


#: How the numpydoc sections become Sphinx fields (``:param x:``, ``:returns:``, ``:raises E:``).
NUMPYDOC = NapoleonConfig(napoleon_google_docstring=False, napoleon_numpy_docstring=True, napoleon_use_param=True,
                          napoleon_use_rtype=False, napoleon_preprocess_types=False)


def numpydoc_sections(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Render the numpydoc sections (Parameters, Returns, Yields, Raises,
    Examples...) of a function's, class's or module's docstring, with
    napoleon's parser. Docstrings without a section are left as they are,
    and so are constants and attributes: napoleon would read the first
    phrase of their ``#:`` comment ("Rows of a one-sided table: ...") as a
    type."""
    if what in ("attribute", "data", "property"):
        return
    if not any(re.fullmatch(r"-{3,}", line.strip()) for line in lines):
        return
    lines[:] = NumpyDocstring(lines, NUMPYDOC, app, what, name, obj, options).lines()


#: How Sphinx writes an alias of ``autodoc_type_aliases`` that stands inside a union.
_ALIAS_IN_UNION = re.compile(r"TypeAliasForwardRef\('([\w.]+)'\)")


def alias_names(app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None,
                return_annotation: str | None) -> tuple[str | None, str | None]:
    """Write a type alias inside a union by its name (``PositionLike | None``), as Sphinx writes
    an alias alone: it writes ``TypeAliasForwardRef('bansugoroku_fast.typing.PositionLike')``,
    a reference to a class that does not exist."""
    def named(text: str | None) -> str | None:
        return None if text is None else _ALIAS_IN_UNION.sub(r"\1", text)

    return named(signature), named(return_annotation)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-signature", alias_names)
    app.connect("autodoc-process-docstring", numpydoc_sections)
    app.connect("missing-reference", resolve)
    app.connect("autodoc-process-docstring", foreign_docstring)
    app.connect("autodoc-process-docstring", doc_comment, priority=100)  # before other hooks read it
    app.add_directive("bsf-home-members", HomeMembersDirective)
    app.add_directive("bsf-names", NamesDirective)
    app.add_directive("bsf-data", DataDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
