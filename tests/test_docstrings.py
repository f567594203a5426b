"""Every public function's docstring has the numpydoc sections the reference
renders: Parameters (naming each parameter of the signature, and only
them), Returns or Yields, Raises and Examples; every public class's has
Parameters (naming each parameter of its constructor) and Examples.

The public functions are those the package and its public submodules list
in ``__all__``.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import re

import pytest

PACKAGE = "bansugoroku_fast"
#: The public submodules (as docs/_ext/bsf_reference.py documents them).
PUBLIC_MODULES = ("batch", "games", "formats", "evaluators", "evaluators.nets", "endgames", "cube", "analysis",
                  "envs", "distributed", "oracle", "errors", "typing", "render")


def public_names(wanted) -> dict[str, object]:
    """name users import it under -> each public object for which
    ``wanted(object)`` holds, once (the package's own name first, then its
    home submodule's)."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for module_name in ("", *PUBLIC_MODULES):
        module = importlib.import_module(f"{PACKAGE}.{module_name}" if module_name else PACKAGE)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if wanted(value) and id(value) not in seen:
                seen.add(id(value))
                found[f"{module_name}.{name}" if module_name else name] = value
    return found


def public_functions() -> dict[str, object]:
    return public_names(inspect.isfunction)


def public_classes() -> dict[str, type]:
    return public_names(lambda value: isinstance(value, type))  # type: ignore[return-value]


def sections(doc: str) -> dict[str, list[str]]:
    """A numpydoc docstring's sections: title -> the lines under its underline."""
    lines = inspect.cleandoc(doc).splitlines()
    found: dict[str, list[str]] = {}
    current = None
    for index, line in enumerate(lines):
        if index + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[index + 1].strip()) and line.strip():
            current = line.strip()
            found[current] = []
        elif current is not None and not re.fullmatch(r"-{3,}", line.strip()):
            found[current].append(line)
    return found


def documented_parameters(lines: list[str]) -> list[str]:
    """The names of a Parameters section (``name : type`` lines, unindented;
    ``x1, x2 : type`` names two), without the stars of ``*args`` and
    ``**options``."""
    found = [match.group(1) for line in lines if (match := re.match(r"(\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*)\s*:", line))]
    return [name.strip().lstrip("*") for names in found for name in names.split(",")]


def missing_sections(function: object) -> list[str]:
    found = sections(inspect.getdoc(function) or "")
    parameters = [name for name in inspect.signature(function).parameters if name != "self"]
    wanted = ["Parameters", "Raises"] if parameters else []
    missing = [title for title in [*wanted, "Examples"] if title not in found]
    if "Returns" not in found and "Yields" not in found:
        missing.append("Returns")
    if parameters and "Parameters" in found and documented_parameters(found["Parameters"]) != parameters:
        missing.append(f"Parameters naming {parameters}, in order")
    return missing


def constructor_parameters(cls: type) -> list[str]:
    """The parameters of ``cls(...)`` as users call it (none for an enum, or
    an exception made from its message alone)."""
    if issubclass(cls, enum.Enum):
        return []
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    if issubclass(cls, BaseException) and [p.kind for p in signature.parameters.values()] == [
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return []
    return list(signature.parameters)


def missing_class_sections(cls: type) -> list[str]:
    found = sections(inspect.getdoc(cls) or "")
    parameters = constructor_parameters(cls)
    missing = [title for title in [*(["Parameters"] if parameters else []), "Examples"] if title not in found]
    if parameters and "Parameters" in found and documented_parameters(found["Parameters"]) != parameters:
        missing.append(f"Parameters naming {parameters}, in order")
    return missing


FUNCTIONS = public_functions()
CLASSES = public_classes()


def test_the_public_functions_are_found():
    assert len(FUNCTIONS) >= 100
    assert {"legal_plays", "rollout", "oracle.perft", "distributed.rollout", "render.board"} <= set(FUNCTIONS)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_a_public_function_has_the_numpydoc_sections(name):
    assert missing_sections(FUNCTIONS[name]) == []


def test_the_public_classes_are_found():
    assert len(CLASSES) >= 90
    assert {"Position", "Rules", "errors.InvalidPositionError", "envs.BanSugorokuEnv"} <= set(CLASSES)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_public_class_has_the_numpydoc_sections(name):
    assert missing_class_sections(CLASSES[name]) == []


#: The parameters of public functions where anything goes (and is checked inside):
#: what a user's evaluator returned, and an environment's keyword options.
ANYTHING_GOES = {("evaluators.check_output", "output"), ("envs.aec_env", "options"),
                 ("envs.backgammon", "options"), ("envs.ban_sugoroku", "options")}


#: Classes whose fields hold values of several kinds: a rollout's figures are
#: numbers for one position and arrays for a batch.
ANY_FIELDS = {"RolloutResult"}


def test_public_signatures_say_what_they_take():
    """``Any`` or ``object`` only where anything goes: elsewhere the aliases of
    bansugoroku_fast.typing (PositionLike, RulesLike, PoliciesLike, EvaluatorLike...)."""
    vague = [(name, parameter.name) for name, function in sorted(FUNCTIONS.items())
             for parameter in inspect.signature(function).parameters.values()
             if parameter.annotation in ("Any", "object") and (name, parameter.name) not in ANYTHING_GOES]
    constructors = {name: cls for name, cls in CLASSES.items()
                    if constructor_parameters(cls) and name not in ANY_FIELDS}
    vague += [(name, parameter.name) for name, cls in sorted(constructors.items())
              for parameter in inspect.signature(cls).parameters.values() if parameter.annotation in ("Any", "object")]
    assert vague == []


def test_the_sections_are_read_as_numpydoc_writes_them():
    def example(position, dice, *, rules=None):
        """Summary.

        Parameters
        ----------
        position : PositionLike
            The position.
        dice : DiceLike
            The roll.
        rules : RulesLike
            The rules.

        Returns
        -------
        Plays
            The plays.

        Raises
        ------
        InvalidDiceError
            Not a roll.

        Examples
        --------
        >>> 1
        1
        """

    assert missing_sections(example) == []
    example.__doc__ = example.__doc__.replace("        rules : RulesLike\n            The rules.\n", "")
    assert missing_sections(example) == ["Parameters naming ['position', 'dice', 'rules'], in order"]
