"""The record layouts the kernels state (``_batch.OUTPUT_ROWS``,
``_games.PLY_FIELDS`` and ``GAME_FIELDS``) against the package's own, and
the check (``bansugoroku_fast._kernel.check_layout``) that refuses a drift between them.

The kernels' statements are held to what they write: the arrays the
package hands out have the stated dtype and shape, and the stated row size
is the sum of the fields' sizes (what the kernel's pointer arithmetic
assumes: 52 bytes of a board, 2 x MAX_STEPS of steps, MAX_STEPS of dice
and of hits).
"""
import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, _batch, _games, _kernel, batch, games
from bansugoroku_fast._kernel import as_fields, check_layout, layout_differences, row_bytes


def test_the_output_rows_the_kernel_states_are_the_package_s():
    ours = as_fields(_kernel.ROW_LAYOUT)
    check_layout("output rows", _batch.OUTPUT_ROWS, _batch.OUTPUT_ROW_BYTES, ours)
    # A board is 2 x 26 bytes and a play has at most 4 steps (two dice, or a
    # double's four moves): 52 + 4 x 2 + 4 + 4 bytes over the fields.
    assert _batch.OUTPUT_ROW_BYTES == 52 + 8 + 4 + 4
    found = batch.generate_plays(Position.initial().array[None], np.array([[6, 5]], dtype=np.int8), Rules())
    for name, dtype, shape in _batch.OUTPUT_ROWS:
        array = getattr(found, name)
        assert array.dtype == np.dtype(dtype) and array.shape[1:] == shape, name


def test_the_game_records_the_kernel_states_are_the_package_s():
    records = games.play_games(Rules(), 2, seed=3)
    ply_names = [name for name, _, _ in _games.PLY_FIELDS]
    game_names = [name for name, _, _ in _games.GAME_FIELDS]
    # GameRecords: the offsets, then the ply fields, then the game fields but
    # the status (a failed game raises; a game cut off at max_plies shows as
    # ``truncated``, beside them).
    expected = ("offsets", *ply_names, *game_names[:-1])
    assert games.GameRecords._fields[:len(expected)] == expected
    for name, dtype, shape in (*_games.PLY_FIELDS, *_games.GAME_FIELDS[:-1]):
        array = getattr(records, name)
        assert array.dtype == np.dtype(dtype) and array.shape[1:] == shape, name
    ends = _kernel.GameEnds.empty(1)
    check_layout("game ends", _games.GAME_FIELDS, _games.GAME_ROW_BYTES,
                 [(name, array.dtype, array.shape[1:]) for name, array in ends._asdict().items()])
    # A logged ply is the position before, the roll, the position after.
    assert _games.PLY_ROW_BYTES == row_bytes(_games.PLY_FIELDS) == 52 + 2 + 52


@pytest.mark.parametrize(("changed", "problem"), [
    ({"hits": ((4,), np.uint8)}, "field 'hits': kernel bool (4,), package uint8 (4,)"),
    ({"dice": ((5,), np.int8)}, "field 'dice': kernel int8 (4,), package int8 (5,)"),
    ({"extra": ((1,), np.int8)}, "fields: kernel ['children', 'steps', 'dice', 'hits'], package "
                                 "['children', 'steps', 'dice', 'hits', 'extra']"),
])
def test_a_drift_between_the_layouts_fails_loudly(changed, problem):
    ours = as_fields({**_kernel.ROW_LAYOUT, **changed})
    assert problem in layout_differences(_batch.OUTPUT_ROWS, _batch.OUTPUT_ROW_BYTES, ours)
    with pytest.raises(ImportError, match="rebuild them"):
        check_layout("output rows", _batch.OUTPUT_ROWS, _batch.OUTPUT_ROW_BYTES, ours)


def test_a_kernel_row_size_that_disagrees_with_its_fields_fails():
    ours = as_fields(_kernel.ROW_LAYOUT)
    assert layout_differences(_batch.OUTPUT_ROWS, 64, ours) == ["row bytes: the kernel's fields make 68, it states 64"]
