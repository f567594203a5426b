"""docs/rules.md is the rules the code and tests cite by section
("docs/rules.md §2.7"): every such citation must name a section it has."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
CITED_IN = ["bansugoroku_fast", "tests", "src", "benchmarks"]


def sections() -> set[str]:
    """The section numbers of the headings: '## §2 A turn', '### §2.7 ...'."""
    return set(re.findall(r"^#{2,3} §(\d+(?:\.\d+)?)\b", RULES.read_text(encoding="utf-8"), re.M))


def citations() -> list[tuple[str, str]]:
    """(file, section) for every 'docs/rules.md §x.y' (and the further
    sections of a list: 'docs/rules.md §3.9, §4.4')."""
    found = []
    paths = [ROOT / "README.md", ROOT / "benchmarks" / "README.md"]
    for folder in CITED_IN:
        paths += sorted((ROOT / folder).rglob("*.py")) + sorted((ROOT / folder).rglob("*.p[yx][xd]"))
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for cited in re.findall(r"docs/rules\.md\s+((?:§[\d.]*\d(?:,\s*|\s+and\s+)?)+)", text):
            found += [(path.relative_to(ROOT).as_posix(), number) for number in re.findall(r"§([\d.]*\d)", cited)]
    return found


def test_the_rules_document_has_numbered_sections():
    assert {"1", "1.3", "2", "2.7", "3.4", "4.2", "5", "6.2", "7"} <= sections()


def test_every_citation_names_an_existing_section():
    cited = citations()
    assert len(cited) >= 10  # the package and tests do cite it
    missing = [(path, number) for path, number in cited if number not in sections()]
    assert missing == []
