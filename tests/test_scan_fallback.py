"""The portable scan of a position (``bsf_scan_rows`` without SSE2, what
builds on other architectures such as aarch64 use) gives the SSE2 scan's
masks and checks.

The C code is taken as it stands from ``bsf_board.h`` and compiled twice
into a small program, once as the build compiles it and once with
``__SSE2__`` undefined; both scan the same rows (valid positions, counts
out of range, negative counts) and must print the same fields. Skipped
only where there is no C compiler.
"""
import subprocess
from pathlib import Path

import numpy as np

from bansugoroku_fast import Rules

from . import source_tree, strategies

BOARD_H = source_tree.ROOT / "src" / "bansugoroku_fast" / "bsf_board.h"
compiler = source_tree.c_compiler()
pytestmark = [source_tree.needs("src/bansugoroku_fast/bsf_board.h"), source_tree.needs_c_compiler()]

MAIN = r"""
#include <stdio.h>
int main(void) {
    signed char rows[52], copy[52];
    int value, i;
    for (;;) {
        for (i = 0; i < 52; i++) {
            if (scanf("%d", &value) != 1) return 0;
            rows[i] = (signed char) value;
        }
        bsf_scan scan;
        bsf_scan_rows(rows, &scan, copy);
        for (i = 0; i < 52; i++) if (copy[i] != rows[i]) return 2;
        printf("%u %u %u %u %u %d\n", scan.me_any, scan.me_multi, scan.opp_any, scan.opp_multi,
               scan.opp_blot, scan.counts_ok);
    }
}
"""


def scan_source() -> str:
    """The board header's C, with a main that scans rows read from stdin."""
    return '#include <stddef.h>\n#include "bsf_board.h"\n' + MAIN


def scanned(rows: np.ndarray, tmp_path: Path, *flags: str) -> list[str]:
    source = tmp_path / "scan.c"
    source.write_text(scan_source())
    program = tmp_path / f"scan{len(flags)}"
    subprocess.run([compiler, "-O2", *flags, f"-I{BOARD_H.parent}", str(source), "-o", str(program)], check=True)
    feed = "\n".join(" ".join(map(str, row)) for row in rows.reshape(len(rows), 52).tolist())
    done = subprocess.run([str(program)], input=feed, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_portable_scan_matches_sse2_scan(tmp_path):
    valid = np.concatenate([strategies.edge_positions(rules, 200, seed=5) for rules in Rules.all_combinations()])
    rng = np.random.default_rng(7)
    garbage = rng.integers(-128, 128, size=(400, 2, 26)).astype(np.int8)
    off_by_one = valid[:400].copy()
    off_by_one[np.arange(400), np.arange(400) % 2, rng.integers(0, 26, 400)] += 1
    negative = valid[:400].copy()
    negative[np.arange(400), np.arange(400) % 2, rng.integers(0, 26, 400)] = -1
    # A count below 0 that another place makes up for: 15 stones in the row.
    made_up = valid[:400].copy()
    for item, (row, place) in enumerate(zip(np.arange(400) % 2, rng.integers(0, 26, 400))):
        made_up[item, row, (place + 1) % 26] += made_up[item, row, place] + 1
        made_up[item, row, place] = -1
    rows = np.concatenate([valid, garbage, off_by_one, negative, made_up])
    portable = scanned(rows, tmp_path, "-U__SSE2__")
    preprocessed = subprocess.run([compiler, "-E", "-U__SSE2__", f"-I{BOARD_H.parent}", str(tmp_path / "scan.c")],
                                  capture_output=True, text=True, check=True).stdout
    assert "emmintrin" not in preprocessed
    assert portable == scanned(rows, tmp_path)
    counts_ok = [line.split()[-1] for line in portable]
    assert counts_ok[: len(valid)] == ["1"] * len(valid)
    assert set(counts_ok[len(valid):]) == {"0"}
