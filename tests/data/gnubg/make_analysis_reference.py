"""Write the analysis reference: match files gnubg played and gnubg's analysis of them.

Run with Debian's gnubg 1.07 from this folder (a few minutes):

    /usr/games/gnubg -t -q -p make_analysis_reference.py

It writes ``analysis_3a.mat``, ``analysis_3b.mat``, ``analysis_5.mat``,
``analysis_7.mat`` and ``analysis_reference.json``.

How gnubg is driven
-------------------
1. Play.  gnubg plays each match against itself at 0 ply, with chequer and
   cube noise (player 0: 0.015, player 1: 0.03) so that errors occur, and
   ``export match mat`` writes it.
2. Analyse.  The .mat is read back (``import mat``) and analysed with
   ``analyse match`` under gnubg's default analysis settings except plies
   (``set analysis chequerplay evaluation plies 0``, same for the cube) and
   ``set threads 1``; the wall and CPU time of ``analyse match`` is taken
   at 0 and at 2 plies (the 2-ply analysis is timed only).
3. Read.  ``gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)``
   gives each record: the played move, gnubg's candidate list with
   equities (``moves``, best first, ``imove`` the played one), the marks
   (``skill``, ``cube-skill``), the luck (``luck-value``, ``luck``).  Move
   notation is ``gnubg.movetupletostring``.  For the cube decisions the
   record holds gnubg's raw outputs (MWC at match play), so the script
   calls ``gnubg.cfevaluate`` at 0 ply on the same board and cube state (as
   the analysis did) for the normalised no double / double-take /
   double-pass equities and the proper action, and checks that its
   no-double and double-take MWC equal the record's.  The losses follow
   gnubg's analysis.c: no double ``optimal - ND``, double
   ``optimal - min(DT, DP)``, take ``DT - DP``, pass ``DP - DT`` (from the
   doubler's side), counted when positive.
4. Move numbers and columns come from the .mat text itself; the script
   checks that its sequence of rolls and cube actions is gnubg's.
5. ``show statistics match`` is captured and parsed line by line; the
   per-player sums of the decision losses are checked against its error
   totals.
"""
import ctypes
import json
import os
import re
import sys
import tempfile
import time

import gnubg

LIBC = ctypes.CDLL(None)
MATCHES = [("analysis_3a.mat", 3, 101), ("analysis_3b.mat", 3, 202), ("analysis_5.mat", 5, 303),
           ("analysis_7.mat", 7, 404)]
NOISE = (0.015, 0.03)


def run(cmd):
    """Run a gnubg command and return what it printed (C stdout captured)."""
    sys.stdout.flush()
    LIBC.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            gnubg.command(cmd)
            LIBC.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return f.read().decode("utf-8", "replace")


def f9(x):
    return float(f"{x:.9g}")


def timed(cmd):
    t, c = time.time(), time.process_time()
    run(cmd)
    return {"wall_seconds": round(time.time() - t, 3), "cpu_seconds": round(time.process_time() - c, 3)}


# --------------------------------------------------------------------------
ENTRY = re.compile(r"\d\d:|Doubles =>|Takes|Drops|Beavers|Raccoons")


def parse_mat(text):
    """[[(move number, seat, kind, text)] per game] from the .mat text."""
    games = []
    for line in text.splitlines():
        if re.match(r"\s*Game \d+", line):
            games.append([])
            continue
        m = re.match(r"\s*(\d+)\)(.*)$", line)
        if not m or not games:
            continue
        number, rest = int(m.group(1)), m.group(2)
        starts = [e.start() for e in ENTRY.finditer(rest)]
        pieces = [rest[a:b].strip() for a, b in zip(starts, starts[1:] + [len(rest)])]
        if len(pieces) == 1:
            seats = [0 if starts[0] < 20 else 1]
        elif len(pieces) == 2:
            seats = [0, 1]
        else:
            raise RuntimeError("cannot read .mat line: " + line)
        for seat, piece in zip(seats, pieces):
            if piece[:2].isdigit():
                kind = "roll"
            elif piece.startswith("Doubles"):
                kind = "double"
            elif piece.startswith("Takes"):
                kind = "take"
            elif piece.startswith("Drops"):
                kind = "drop"
            else:
                raise RuntimeError("unknown .mat entry: " + piece)
            games[-1].append((number, seat, kind, piece))
    return games


def parse_statistics(text):
    """{section: {label: [player 0, player 1]}} from `show statistics match`."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Player "))
    names = lines[head].split()[1:3]
    col1 = lines[head].index(names[1], len("Player") + len(names[0]) + 1)
    col0 = lines[head].index(names[0], len("Player"))
    out = {"players": names}
    section = None
    for line in lines[head + 1:]:
        if not line.strip():
            continue
        if line.strip().endswith("statistics") and len(line.strip().split()) <= 3:
            section = line.strip()
            out[section] = {}
            continue
        if section is None:
            continue
        label = line[:col0].strip()
        out[section][label] = [line[col0:col1].strip(), line[col1:].strip()]
    return out


# --------------------------------------------------------------------------
def move_text(move, board):
    if not move:
        return ""
    return gnubg.movetupletostring(move, board)


def cube_eval(board, cube, owner, score, length, crawford):
    """gnubg's 0-ply cube decision for the roller (gnubg player 0 here)."""
    ci = gnubg.cubeinfo(cube, owner, 0, length, score, int(crawford), 0)
    ec = {"cubeful": 1, "plies": 0, "deterministic": 1, "noise": 0.0}
    opt, nd, dt, dp, _code, text = gnubg.cfevaluate(board, ci, ec)
    return ci, {"no_double": nd, "double_take": dt, "double_pass": dp, "optimal": opt, "proper": text}


def decisions_of(match, mat_games, length):
    out = []
    for g, (game, mat) in enumerate(zip(match["games"], mat_games)):
        info = game["info"]
        score = [info["score-X"], info["score-O"]]
        crawford = bool(info.get("crawford", False))
        cube, owner = 1, -1  # owner: -1 centred, else gnubg player
        recs = [r for r in game["game"] if r.get("action") in ("move", "double", "take", "drop")]
        if len(recs) != len(mat):
            raise RuntimeError(f"game {g + 1}: {len(recs)} gnubg records, {len(mat)} .mat entries")
        last_double = None
        for rec, (number, seat, kind, text) in zip(recs, mat):
            player = 0 if rec["player"] == "X" else 1
            want = {"move": "roll"}.get(rec["action"], rec["action"])
            if seat != player or kind != want:
                raise RuntimeError(f"game {g + 1} move {number}: .mat {seat} {kind}, gnubg {player} {want}")
            a = rec.get("analysis", {})
            base = {"game": g + 1, "move_number": number, "player": player}
            roller_score = (score[player], score[1 - player])
            rel_owner = -1 if owner == -1 else (0 if owner == player else 1)
            if rec["action"] in ("move", "double"):
                last_double = None
            if rec["action"] in ("move", "double") and "nd-cubeful-eq" in a:
                board = gnubg.positionfromid(rec["board"])
                ci, e = cube_eval(board, cube, rel_owner, roller_score, length, crawford)
                mwc = gnubg.eq2mwc
                for key, raw in (("no_double", a["nd-cubeful-eq"]), ("double_take", a["dt-cubeful-eq"])):
                    if abs(mwc(e[key], ci) - raw) > 2e-5:
                        raise RuntimeError(f"cube eval differs from the analysis at game {g + 1} move {number}")
                if rec["action"] == "move":
                    loss = max(0.0, e["optimal"] - e["no_double"])
                    mark = a.get("cube-skill", "none")
                else:
                    loss = max(0.0, e["optimal"] - min(e["double_take"], e["double_pass"]))
                    mark = a.get("skill", "none")
                last_double = e if rec["action"] == "double" else None
                out.append(dict(base, kind="cube", action="no double" if rec["action"] == "move" else "double",
                                cube=cube, owner=["centred", "roller", "opponent"][rel_owner + 1],
                                score=list(roller_score), crawford=crawford,
                                no_double=f9(e["no_double"]), double_take=f9(e["double_take"]),
                                double_pass=f9(e["double_pass"]), proper=e["proper"], loss=f9(loss), mark=mark,
                                mat=text if rec["action"] == "double" else ""))
            elif rec["action"] in ("take", "drop"):
                e = last_double
                if e is None:
                    loss = 0.0
                elif rec["action"] == "take":
                    loss = max(0.0, e["double_take"] - e["double_pass"])
                else:
                    loss = max(0.0, e["double_pass"] - e["double_take"])
                out.append(dict(base, kind="cube", action=rec["action"], cube=cube,
                                proper=("take" if e["double_take"] <= e["double_pass"] else "pass") if e else None,
                                loss=f9(loss), mark=a.get("skill", "none"), mat=text))
                if rec["action"] == "take":
                    cube, owner = cube * 2, player
            if rec["action"] == "move":
                board = gnubg.positionfromid(rec["board"])
                moves = a.get("moves", ())
                if moves:
                    best, played = moves[0], moves[a["imove"]]
                    best_eq, played_eq = best["score"], played["score"]
                    best_text = move_text(best["move"], board)
                else:
                    best_eq = played_eq = None
                    best_text = move_text(rec["move"], board)
                out.append(dict(base, kind="play", dice=list(rec["dice"]), played=move_text(rec["move"], board),
                                best=best_text, played_equity=None if played_eq is None else f9(played_eq),
                                best_equity=None if best_eq is None else f9(best_eq),
                                loss=0.0 if best_eq is None else f9(best_eq - played_eq),
                                mark=a.get("skill", "none"), luck=f9(a["luck-value"]) if "luck-value" in a else None,
                                luck_mark=a.get("luck", "unmarked"), candidates=len(moves), mat=text,
                                position=rec["board"]))
    return out


def play_match(path, length, seed):
    run(f"set seed {seed}")
    for p in (0, 1):
        run(f"set player {p} gnubg")
        run(f"set player {p} chequerplay evaluation plies 0")
        run(f"set player {p} chequerplay evaluation noise {NOISE[p]}")
        run(f"set player {p} chequerplay evaluation deterministic on")
        run(f"set player {p} cubedecision evaluation plies 0")
        run(f"set player {p} cubedecision evaluation noise {NOISE[p]}")
        run(f"set player {p} cubedecision evaluation deterministic on")
    run("set player 0 name Left")
    run("set player 1 name Right")
    run("set automatic game on")
    run(f"new match {length}")
    run(f"export match mat {path}")
    for p in (0, 1):
        run(f"set player {p} human")


def analyse(path, length):
    run(f"import mat {path}")
    run("set analysis chequerplay evaluation plies 0")
    run("set analysis cubedecision evaluation plies 0")
    t0 = timed("analyse match")
    match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)
    stats = parse_statistics(run("show statistics match"))
    with open(path) as f:
        mat_games = parse_mat(f.read())
    decisions = decisions_of(match, mat_games, length)
    # the losses add up to gnubg's error totals
    for player in (0, 1):
        for kind, section in (("play", "Chequerplay statistics"), ("cube", "Cube statistics")):
            total = sum(d["loss"] for d in decisions if d["player"] == player and d["kind"] == kind)
            printed = float(stats[section]["Error total EMG (MWC)"][player].split()[0])
            if abs(total + printed) > 0.0015:
                raise RuntimeError(f"{path}: {kind} losses of player {player} add to {total}, gnubg {printed}")
    run("set analysis chequerplay evaluation plies 2")
    run("set analysis cubedecision evaluation plies 2")
    run(f"import mat {path}")
    t2 = timed("analyse match")
    run("set analysis chequerplay evaluation plies 0")
    run("set analysis cubedecision evaluation plies 0")
    games = [{"game": g + 1, "score": [x["info"]["score-X"], x["info"]["score-O"]],
              "winner": 0 if x["info"].get("winner") == "X" else 1, "points": x["info"].get("points-won"),
              "resigned": bool(x["info"].get("resigned"))} for g, x in enumerate(match["games"])]
    return {"file": path, "match_length": length, "players": stats["players"],
            "timing": {"ply0": t0, "ply2": t2}, "games": games,
            "statistics": {k: v for k, v in stats.items() if k != "players"}, "decisions": decisions}


def main():
    t0, c0 = time.time(), time.process_time()
    run("set threads 1")
    run("set output mwc off")
    run("new session")
    out = []
    for path, length, seed in MATCHES:
        play_match(path, length, seed)
        out.append(analyse(path, length))
    header = {
        "gnubg": run("show version").strip().splitlines()[0],
        "command": "cd tests/data/gnubg && /usr/games/gnubg -t -q -p make_analysis_reference.py",
        "made_by": "make_analysis_reference.py (its docstring says how gnubg was driven)",
        "play": f"gnubg against itself at 0 ply, chequer and cube noise {NOISE[0]} (player 0, left column) "
                f"and {NOISE[1]} (player 1), deterministic",
        "analysis": "analyse match at 0 ply for chequer play and cube, gnubg's defaults otherwise "
                    "(Kazaross XG2 MET, pruning nets, move filters), set threads 1",
        "timing": "wall and CPU seconds of `analyse match` at 0 and 2 plies (threads 1), for a speed benchmark",
        "decisions": "in order of play: a cube decision (if gnubg analysed one) before each play, doubles, "
                     "takes and passes; player 0 is the .mat's left column; move_number is the .mat's line "
                     "number; equities and losses are normalised EMG per 1-cube, losses positive; mark is "
                     "gnubg's skill mark (none/doubtful/bad/very bad), luck_mark its luck mark (verybad/bad/"
                     "unmarked/good/verygood); score for cube decisions is (player, opponent)",
        "statistics": "`show statistics match` as printed, one [player 0, player 1] pair per line",
        "seconds": round(time.time() - t0, 1),
        "cpu_seconds": round(time.process_time() - c0, 1),
    }
    with open("analysis_reference.json", "w") as f:
        json.dump({"header": header, "matches": out}, f, separators=(",", ":"))
        f.write("\n")
    print("wrote analysis_reference.json:", [(m["file"], len(m["decisions"])) for m in out])


main()
