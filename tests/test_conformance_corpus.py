"""The shipped conformance corpus is what the oracle regenerates.

By default: every item's position, roll and generator tag are re-chosen and
compared, and a sample of the items and perft counts is recomputed by the
oracle. Under ``-m slow`` the whole corpus is regenerated and compared file
by file.
"""
from __future__ import annotations

import random

import pytest

from bansugoroku_fast import Position, oracle
from bansugoroku_fast.formats.conformance.corpus import (
    corpus_files,
    format_item,
    format_perft,
    load_corpus,
    slug,
)
from bansugoroku_fast.rules import Rules
from tests import conformance_corpus as generator
from tests.boards import rules_params

RULES = Rules.all_combinations()
ITEMS, PERFTS = load_corpus()
SAMPLE = 25  # items recomputed per rule set by default


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_every_item_is_the_one_the_generator_chooses(rules):
    shipped = [item for item in ITEMS if item.rules == rules]
    chosen = generator.selected_items(rules)
    assert len(shipped) == len(chosen)
    for item, (array, dice, (tag,)) in zip(shipped, chosen):
        assert (item.position_id, item.dice, item.tags[0]) == (Position(array).id, dice, tag)


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_a_sample_of_items_is_what_the_oracle_answers(rules):
    chosen = generator.selected_items(rules)
    shipped = {(item.position_id, item.dice): item for item in ITEMS if item.rules == rules}
    for index in random.Random(rules.code).sample(range(len(chosen)), SAMPLE):
        expected = generator.expected_item(rules, *chosen[index])
        assert format_item(shipped[(expected.position_id, expected.dice)]) == format_item(expected)


def test_perft_positions_and_a_sample_of_counts():
    for rules in RULES:
        shipped = [perft for perft in PERFTS if perft.rules == rules]
        assert shipped[0].position_id == Position.initial().id
        # Depth 1 is 21 oracle calls: recount every one.
        for perft in shipped:
            if perft.depth == 1:
                assert oracle.perft(Position.from_id(perft.position_id), 1, rules) == perft.nodes
    # One depth-3 count in full.
    deep = min((perft for perft in PERFTS if perft.depth == 3), key=lambda perft: perft.nodes)
    assert oracle.perft(Position.from_id(deep.position_id), 3, deep.rules) == deep.nodes


@pytest.mark.slow
def test_the_oracle_regenerates_the_shipped_corpus_exactly(tmp_path):
    generator.write_corpus(tmp_path)
    shipped = corpus_files()
    for rules in RULES:
        for suffix in (".moves", ".perft"):
            name = slug(rules) + suffix
            assert (tmp_path / name).read_text() == shipped[name], name


def test_lines_round_trip_through_the_format():
    for item in ITEMS[:: 97]:
        assert format_item(item).split(" ")[0] == item.position_id
    for perft in PERFTS:
        assert format_perft(perft).split() == [perft.position_id, str(perft.depth), str(perft.nodes)]
