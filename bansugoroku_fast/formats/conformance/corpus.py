"""The conformance corpus: its line format, and the files shipped with the
package (``corpus/``, documented in ``corpus/README.md``).

One file per rule combination, ``<slug>.moves``, holds lines

    position-id dice tags [result-id,result-id,...]

(results sorted, ``[]`` for no play), and ``<slug>.perft`` holds lines

    position-id depth nodes

>>> item = parse_item("4HPwATDgc/ABMA 6-5 start [4HPwATDgc/ABMA]", Rules(variant="backgammon"))
>>> item.dice, item.tags, item.results
((6, 5), ('start',), ('4HPwATDgc/ABMA',))
>>> format_item(item)
'4HPwATDgc/ABMA 6-5 start [4HPwATDgc/ABMA]'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...rules import Rules

CORPUS_PACKAGE = "bansugoroku_fast.formats.conformance"
CORPUS_FOLDER = "corpus"
MOVES_SUFFIX = ".moves"
PERFT_SUFFIX = ".perft"
_ID = r"[A-Za-z0-9+/]{14}"
_ITEM = re.compile(rf"^({_ID}) ([1-6])-([1-6]) ([a-z0-9_,]+) \[((?:{_ID}(?:,{_ID})*)?)\]$")
_PERFT = re.compile(rf"^({_ID}) ([0-9]) ([0-9]+)$")


class CorpusFormatError(ValueError):
    """A corpus line that does not follow the format of corpus/README.md."""


@dataclass(frozen=True)
class CorpusItem:
    """One (position, roll) and the Position IDs of its legal results, sorted;
    ``tags`` name the edge classes the item belongs to."""

    rules: Rules
    position_id: str
    dice: tuple[int, int]
    tags: tuple[str, ...]
    results: tuple[str, ...]


@dataclass(frozen=True)
class PerftItem:
    """A perft count: the leaves of the play tree ``depth`` plies deep."""

    rules: Rules
    position_id: str
    depth: int
    nodes: int


def slug(rules: Rules) -> str:
    """The file name stem of a rule set.

    >>> slug(Rules()), slug(Rules(variant="backgammon"))
    ('ban-arrival-multiplied', 'backgammon')
    """
    return rules.short_name.replace("/", "-").replace("_", "-")


def rules_of_slug(name: str) -> Rules:
    for rules in Rules.all_combinations():
        if slug(rules) == name:
            return rules
    raise CorpusFormatError(f"no rule set is named {name!r}")


def format_item(item: CorpusItem) -> str:
    a, b = item.dice
    return f"{item.position_id} {a}-{b} {','.join(item.tags)} [{','.join(item.results)}]"


def parse_item(line: str, rules: Rules) -> CorpusItem:
    match = _ITEM.match(line)
    if not match:
        raise CorpusFormatError(f"not a corpus line: {line[:80]!r}")
    position_id, a, b, tags, results = match.groups()
    return CorpusItem(rules, position_id, (int(a), int(b)), tuple(tags.split(",")),
                      tuple(results.split(",")) if results else ())


def format_perft(item: PerftItem) -> str:
    return f"{item.position_id} {item.depth} {item.nodes}"


def parse_perft(line: str, rules: Rules) -> PerftItem:
    match = _PERFT.match(line)
    if not match:
        raise CorpusFormatError(f"not a perft line: {line[:80]!r}")
    return PerftItem(rules, match.group(1), int(match.group(2)), int(match.group(3)))


def _data_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def corpus_files() -> dict[str, str]:
    """The shipped corpus: file name -> text (README.md included)."""
    folder = resources.files(CORPUS_PACKAGE).joinpath(CORPUS_FOLDER)
    return {entry.name: entry.read_text(encoding="utf-8") for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.is_file() and entry.name.endswith((MOVES_SUFFIX, PERFT_SUFFIX, ".md"))}


def load_corpus(rules_sets: list[Rules] | None = None) -> tuple[list[CorpusItem], list[PerftItem]]:
    """The shipped move items and perft items (of ``rules_sets``, or all)."""
    wanted = set(Rules.all_combinations() if rules_sets is None else rules_sets)
    items: list[CorpusItem] = []
    perfts: list[PerftItem] = []
    for name, text in corpus_files().items():
        stem, _, suffix = name.rpartition(".")
        if suffix not in ("moves", "perft"):
            continue
        rules = rules_of_slug(stem)
        if rules not in wanted:
            continue
        if suffix == "moves":
            items.extend(parse_item(line, rules) for line in _data_lines(text))
        else:
            perfts.extend(parse_perft(line, rules) for line in _data_lines(text))
    return items, perfts


def moves_header(rules: Rules) -> str:
    return (f"# bansugoroku-fast conformance corpus: legal plays, rules {rules.short_name}\n"
            "# position-id dice tags [result-ids, sorted; [] = no play]; see README.md\n")


def perft_header(rules: Rules) -> str:
    return (f"# bansugoroku-fast conformance corpus: perft, rules {rules.short_name}\n"
            "# position-id depth nodes; see README.md\n")


def export_corpus(directory: str | Path) -> list[Path]:
    """Copy the shipped corpus (and its README) into ``directory``."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in corpus_files().items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

