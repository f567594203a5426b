"""Make ``met_reference.json``: match equity figures from GNU Backgammon
itself, for ``tests/test_met.py``.

Made with Debian's gnubg 1.07 (``GNU Backgammon 1.07.001``), from the
repository root::

    /usr/games/gnubg -t -q -p tests/data/gnubg/make_met_reference.py

It runs inside gnubg's embedded Python (module ``gnubg``). For each table
of ``TABLES`` (gnubg's own copies in /usr/share/gnubg/met) it loads the
table (``set matchequitytable``) and records:

* ``pre``, ``pre_rows``, ``pre_columns``, ``post``: what ``gnubg.met()``
  returns, cut down: the pre-Crawford table
  for away counts 1..25 for Kazaross-XG2, 1..15 for the others
  (``pre[i][j]``: player 0 ``i + 1`` away, player 1
  ``j + 1`` away, player 0's match winning chance), a few whole rows and
  columns out to 64-away (``pre_rows`` / ``pre_columns``, keyed by the
  0-based away index) where gnubg extends the table, and both post-Crawford
  tables to 64-away (``post[k][n]``: player k trailing ``n + 1`` away, the
  leader 1-away, player k's chance);
* ``cubes``: at each case of ``CASES`` (match length, score, cube, Crawford
  flag, player on roll) the gammon prices of ``gnubg.cubeinfo()`` (as gnubg
  lays them out: ``((gammon 0, backgammon 0), (gammon 1, backgammon 1))``),
  ``eq2mwc`` at the equities of ``EQUITIES`` and ``mwc2eq`` at the chances
  of ``CHANCES``.

Numbers are gnubg's float32 values written with 9 significant digits (which
give the float32 back exactly).
"""
import json
import os

import gnubg

MET_DIR = "/usr/share/gnubg/met"
OUTPUT = "tests/data/gnubg/met_reference.json"  # gnubg's Python has no __file__: run from the repository root
TABLES = ["Kazaross-XG2.xml", "woolsey.xml", "zadeh.xml", "mec.xml", "jac050.xml", "g11.xml"]
SAMPLED = [24, 31, 63]
FULL = {"Kazaross-XG2.xml": 25}  # the pre-Crawford block written whole: 25 by 25 here, 15 by 15 elsewhere
EQUITIES = [-1.0, -0.35, 0.0, 0.5, 1.0]
CHANCES = [0.1, 0.5, 0.85]
CASES = [  # (length, (score 0, score 1), cube, crawford, player on roll)
    (1, (0, 0), 1, 0, 0),
    (3, (0, 0), 1, 0, 1),
    (5, (4, 4), 1, 0, 0),
    (5, (4, 2), 1, 1, 1),
    (5, (4, 2), 1, 0, 1),
    (5, (2, 4), 2, 0, 0),
    (7, (0, 0), 1, 0, 0),
    (7, (2, 3), 2, 0, 1),
    (7, (6, 3), 1, 1, 0),
    (7, (3, 6), 2, 0, 0),
    (9, (1, 5), 4, 0, 1),
    (11, (3, 9), 4, 0, 0),
    (13, (0, 12), 1, 1, 1),
    (17, (10, 4), 8, 0, 0),
    (25, (0, 0), 1, 0, 0),
    (25, (10, 20), 8, 0, 1),
    (25, (24, 3), 16, 0, 1),
    (40, (1, 39), 1, 0, 0),
    (64, (0, 0), 2, 0, 1),
    (64, (30, 50), 32, 0, 0),
]


def g9(value):
    """``value`` with 9 significant digits (a float32 round-trips)."""
    return float(f"{value:.9g}")


def table_figures(name):
    pre, post0, post1 = gnubg.met()
    size = FULL.get(name, 15)
    return {
        "pre": [[g9(v) for v in row[:size]] for row in pre[:size]],
        "pre_rows": {str(i): [g9(v) for v in pre[i]] for i in SAMPLED},
        "pre_columns": {str(j): [g9(row[j]) for row in pre] for j in SAMPLED},
        "post": [[g9(v) for v in post0], [g9(v) for v in post1]],
    }


def case_figures(length, score, cube, crawford, move):
    info = gnubg.cubeinfo(cube, -1, move, length, score, crawford, 0)
    (g0, b0), (g1, b1) = info["gammonprice"]
    return {
        "length": length, "score": list(score), "cube": cube, "crawford": bool(crawford), "player": move,
        "gammonprice": [[g9(g0), g9(b0)], [g9(g1), g9(b1)]],
        "eq2mwc": [[e, g9(gnubg.eq2mwc(e, info))] for e in EQUITIES],
        "mwc2eq": [[m, g9(gnubg.mwc2eq(m, info))] for m in CHANCES],
    }


def main():
    reference = {"gnubg": "GNU Backgammon 1.07.001 (Debian)", "tables": {}}
    for name in TABLES:
        gnubg.command("set matchequitytable " + os.path.join(MET_DIR, name))
        figures = table_figures(name)
        figures["cubes"] = [case_figures(*case) for case in CASES]
        reference["tables"][name] = figures
    out = OUTPUT
    with open(out, "w") as handle:
        json.dump(reference, handle, sort_keys=True, separators=(",", ":"))
        handle.write("\n")
    print("wrote", out)


main()
