"""The GNU Backgammon reference data of tests/data/gnubg/ hold together.

``cube_reference.json`` and ``analysis_reference.json`` were written by gnubg
1.07 itself (``make_cube_reference.py``, ``make_analysis_reference.py``; see
tests/data/gnubg/README.md).  These tests check only the files' own
consistency, not the library's evaluator: every Position ID decodes, the
probabilities are probabilities, the match files read, and the analysis
has one decision per move of the match file.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bansugoroku_fast import Position

DATA = Path(__file__).parent / "data" / "gnubg"


@cache
def load(name: str) -> Any:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{name} not generated yet")
    return json.loads(path.read_text())


def check_probabilities(probs: list[float]) -> None:
    win, win_g, win_bg, lose_g, lose_bg = probs
    assert all(0.0 <= p <= 1.0 for p in probs)
    assert win_bg <= win_g + 1e-6 <= win + 2e-6
    assert lose_bg <= lose_g + 1e-6 <= 1.0 - win + 2e-6


def pips(row: list[int]) -> int:
    return sum(n * point for point, n in enumerate(row))


# --- cube_reference.json -------------------------------------------------------------


def test_cube_header_names_gnubg() -> None:
    header = load("cube_reference.json")["header"]
    assert header["gnubg"].startswith("GNU Backgammon 1.07")
    assert "make_cube_reference.py" in header["command"]
    assert header["evalcontext"]["plies"] == 0 and header["evalcontext"]["noise"] == 0.0


def test_cube_positions_decode_from_the_roller_side() -> None:
    data = load("cube_reference.json")
    positions = data["positions"]
    assert 300 <= len(positions) <= 500
    assert len({p["id"] for p in positions}) == len(positions)
    for pos in positions:
        position = Position.from_id(pos["id"])
        assert position.id == pos["id"]
        roller, opponent = position.tolist()
        # row 0 is the side on roll: its pips are gnubg's roller pips
        assert [pips(roller), pips(opponent)] == pos["pips"]
        check_probabilities(pos["probabilities"])
    for pos in data["deeper"]["positions"]:
        Position.from_id(pos["id"])


def test_cube_kinds_and_classes_are_varied() -> None:
    positions = load("cube_reference.json")["positions"]
    kinds = {p["kind"] for p in positions}
    assert kinds == {"opening", "contact", "backgame", "crashed", "race", "bearoff_one_sided", "bearoff_two_sided"}
    for pos in positions:
        assert 0.6 <= pos["cube_efficiency"] <= 0.7
        if pos["class"] == "race":
            assert pos["gnubg_class"] == "Race"


def test_cube_rows_are_consistent() -> None:
    data = load("cube_reference.json")
    columns = data["header"]["cube_columns"]
    states = data["states"]
    assert {s["owner"] for s in states.values()} == {"centred", "roller", "opponent"}
    for pos in data["positions"]:
        assert set(pos["cube"]) == set(states)
        for name, row in pos["cube"].items():
            state = states[name]
            entry = dict(zip(columns, row))
            assert len(row) == (8 if state["match_length"] else 5)
            assert isinstance(entry["action"], str) and entry["action"]
            # a pass gives the roller one cube (normalised: +1)
            assert entry["double_pass"] == pytest.approx(1.0, abs=1e-6)
            if state["match_length"]:
                for key in ("mwc_no_double", "mwc_double_take", "mwc_double_pass"):
                    assert 0.0 <= entry[key] <= 1.0
                # the normalisation is increasing: equity order is MWC order
                assert (entry["no_double"] < entry["double_take"]) == (
                    entry["mwc_no_double"] < entry["mwc_double_take"] + 1e-7
                ) or abs(entry["no_double"] - entry["double_take"]) < 1e-5
            if state["owner"] == "opponent":
                assert entry["action"] == "Unknown cube decision"
            elif state["crawford"] or (state["match_length"] and state["score"][0] == state["match_length"] - 1):
                assert entry["action"] == "Never double, take (dead cube)"
            elif "beaver" in entry["action"]:
                assert state["beavers"]


def test_cube_deeper_plies() -> None:
    data = load("cube_reference.json")
    deeper = data["deeper"]
    assert len(deeper["positions"]) == 40
    for pos in deeper["positions"]:
        assert set(pos["plies"]) == {"1", "2"}
        for by_state in pos["plies"].values():
            assert set(by_state) == set(deeper["states"])
            for entry in by_state.values():
                check_probabilities(entry["probabilities"])
