"""Every input kept in ``fuzz/corpus/<target>/`` replayed through its fuzz
target: the inputs that once found a bug (or new code) stay regression tests.

Needs the ``fuzz`` extra (atheris), which CI installs."""
import pytest

from . import source_tree

pytest.importorskip("atheris")
source_tree.require("fuzz")

from fuzz.__main__ import TARGET_NAMES  # noqa: E402
from fuzz.targets import TARGETS  # noqa: E402

CORPUS = source_tree.ROOT / "fuzz" / "corpus"


def test_every_target_has_a_corpus():
    assert sorted(path.name for path in CORPUS.iterdir() if any(path.iterdir())) == sorted(TARGETS)


def test_the_runner_knows_every_target():
    """``python -m fuzz --all`` names the targets without importing atheris."""
    assert sorted(TARGET_NAMES) == sorted(TARGETS)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_corpus_replays_without_a_finding(name):
    inputs = sorted((CORPUS / name).iterdir())
    for path in inputs:
        TARGETS[name](path.read_bytes())  # a finding raises (an AssertionError or an unexpected error)
