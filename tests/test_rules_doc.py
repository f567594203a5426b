"""docs/rules.md is the rules the code and tests cite by section
("docs/rules.md §2.7", or "§2.8" further on in the same text): every section
sign in the project must name a section the document has."""
import re

from . import source_tree

ROOT = source_tree.ROOT
RULES = ROOT / "docs" / "rules.md"
CITED_IN = ["bansugoroku_fast", "tests", "src", "benchmarks", "examples", "fuzz", "docs"]
SOURCES = ("*.py", "*.pyx", "*.pxd", "*.pyi", "*.md")

pytestmark = source_tree.needs("docs/rules.md", "README.md", "src")


def sections() -> set[str]:
    """The section numbers of the headings: '## §2 A turn', '### §2.7 ...'."""
    return set(re.findall(r"^#{2,3} §(\d+(?:\.\d+)?)\b", RULES.read_text(encoding="utf-8"), re.M))


def citations() -> list[tuple[str, int, str]]:
    """(file, line, section) for every section sign followed by a number:
    in this project a '§' always points into docs/rules.md (its own
    cross-references included), with or without the file's name before it."""
    paths = [ROOT / "README.md"]
    for folder in CITED_IN:
        paths += sorted(path for pattern in SOURCES for path in (ROOT / folder).rglob(pattern))
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for cited in re.finditer(r"§([\d.]*\d)", text):
            line = text.count("\n", 0, cited.start()) + 1
            found.append((path.relative_to(ROOT).as_posix(), line, cited.group(1)))
    return found


def test_the_rules_document_has_numbered_sections():
    assert {"1", "1.3", "2", "2.7", "3.4", "4.2", "5", "6.2", "7"} <= sections()


def test_every_citation_names_an_existing_section():
    cited = citations()
    assert len({path for path, _, _ in cited}) >= 10  # the package, its tests and its documents do cite it
    missing = [(path, line, number) for path, line, number in cited if number not in sections()]
    assert missing == []


def test_the_decisions_name_test_files_that_exist():
    """§7's table says where each decision is tested: those files exist."""
    decisions = RULES.read_text(encoding="utf-8").split("## §7", 1)[1]
    named = set(re.findall(r"`(tests/[\w/]+\.py)`", decisions))
    assert len(named) >= 3
    assert sorted(name for name in named if not (ROOT / name).is_file()) == []
