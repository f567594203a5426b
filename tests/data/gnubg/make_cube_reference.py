"""Write ``cube_reference.json``: GNU Backgammon's own cube decisions (not run by the tests).

Run with Debian's gnubg 1.07 from this folder (about four minutes, mostly gnubg sleeping):

    /usr/games/gnubg -t -q -p make_cube_reference.py

How gnubg is driven
-------------------
1. Positions.  gnubg plays eight 25-point matches against itself with the
   cube off (so that every game is played out to the bear-off), both sides
   at 0 ply, one or both with chequer-play noise so that the games also
   reach crashed boards and back games.  ``gnubg.match(boards=1)`` gives,
   for every move record, the Position ID before the move, from the mover's
   side (the player on roll; the roll does not change the board).  A
   seeded sample, stratified by kind, keeps about 400 of them.
2. Class.  ``eval <id>`` prints ``Evaluator: <class>`` (gnubg's
   ``ClassifyPosition``); the script reads it from the captured output.
   The cube efficiency is not printed by gnubg: it is computed here with
   the constants and formula of gnubg's ``EvalEfficiency`` (eval.c).
3. Numbers.  ``gnubg.evaluate(board, cubeinfo, evalcontext)`` gives the 0-ply
   cubeless probabilities; ``gnubg.cfevaluate(board, cubeinfo, evalcontext)``
   gives (optimal, no double, double/take, double/pass, decision code,
   decision text) exactly as ``hint`` prints them: money equities per
   1-cube, match equities as normalised EMG (gnubg's ``mwc2eq``);
   ``gnubg.eq2mwc`` turns those back into match winning chances.  The
   cubeinfo dict is ``gnubg.cubeinfo(cube, owner, move=0, matchto, score,
   crawford)``; for money the script then sets ``jacoby``, ``beavers`` and
   the gammon price itself, because ``gnubg.cubeinfo()`` takes Jacoby from
   the current session and beavers from the *count* of beavers in the
   current game (always 0), not from ``set beavers``.
4. Check.  For every tenth position the script sets the same state with
   commands (``set board``, ``set cube``, ``set score``, ``set jacoby``,
   ``set beavers``...), runs ``hint`` at ``set output digits 6`` and checks
   that the printed equities and action agree with (3).
5. Deeper plies.  For 40 positions, money centred (Jacoby on, beavers on:
   gnubg's defaults) and 7-point 2-4, the cube decision at 1 and 2 plies
   from ``evaluate``/``cfevaluate`` (which cannot switch gnubg's pruning
   nets on), compared with ``hint`` under gnubg's default cube evaluation
   settings (pruning nets on, 6 digits); a ``hint`` answer is stored only
   where the two differ.

Quirk: every ``gnubg.evaluate``/``cfevaluate`` call sleeps about 10 ms of
wall time in gnubg 1.07 (a g_usleep in its thread hand-over), so the run
takes minutes of wall time but seconds of CPU.

The evaluation context everywhere: ``{'cubeful': 1, 'plies': n,
'deterministic': 1, 'noise': 0.0}``; the ``eval``/``hint`` commands are
set to the same plies with noise 0 (``set evaluation cubedecision eval
plies n`` etc.).  The match equity table is gnubg's default, Kazaross XG2.
"""
import ctypes
import json
import os
import random
import re
import sys
import tempfile
import time

import gnubg

OUT = "cube_reference.json"
LIBC = ctypes.CDLL(None)
SEED = 20240
N_GAMES_MATCH = 25


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


def ec(plies):
    return {"cubeful": 1, "plies": plies, "deterministic": 1, "noise": 0.0}


def f9(x):
    """gnubg computes in float32: 9 significant digits keep every value exactly."""
    return float(f"{x:.9g}")


# --------------------------------------------------------------------------
# Cube states: (roller, opponent) scores; owner seen from the roller.
MONEY_STATES = {
    "money_centred_nojacoby": dict(cube=1, owner="centred", jacoby=False, beavers=False),
    "money_centred_jacoby": dict(cube=1, owner="centred", jacoby=True, beavers=False),
    "money_centred_jacoby_beavers": dict(cube=1, owner="centred", jacoby=True, beavers=True),
    "money_roller_owns_2": dict(cube=2, owner="roller", jacoby=True, beavers=True),
    "money_opponent_owns_2": dict(cube=2, owner="opponent", jacoby=True, beavers=True),
}
MATCH_STATES = {
    "m7_0-0": dict(cube=1, owner="centred", score=(0, 0), crawford=False),
    "m7_2-4": dict(cube=1, owner="centred", score=(2, 4), crawford=False),
    "m7_4-2": dict(cube=1, owner="centred", score=(4, 2), crawford=False),
    "m7_5-5": dict(cube=1, owner="centred", score=(5, 5), crawford=False),
    "m7_6-3_crawford": dict(cube=1, owner="centred", score=(6, 3), crawford=True),
    "m7_6-3_postcrawford": dict(cube=1, owner="centred", score=(6, 3), crawford=False),
    "m7_3-6_postcrawford": dict(cube=1, owner="centred", score=(3, 6), crawford=False),
    "m7_2-4_roller_owns_2": dict(cube=2, owner="roller", score=(2, 4), crawford=False),
    "m7_2-4_opponent_owns_2": dict(cube=2, owner="opponent", score=(2, 4), crawford=False),
}
STATES = {}
for name, s in MONEY_STATES.items():
    STATES[name] = dict(s, match_length=0, score=(0, 0), crawford=False)
for name, s in MATCH_STATES.items():
    STATES[name] = dict(s, match_length=7, jacoby=False, beavers=False)
OWNER_CODE = {"centred": -1, "roller": 0, "opponent": 1}


def cubeinfo(state):
    """gnubg cubeinfo dict for the roller (gnubg player 0, fMove = 0)."""
    ci = gnubg.cubeinfo(state["cube"], OWNER_CODE[state["owner"]], 0, state["match_length"],
                        tuple(state["score"]), int(state["crawford"]), 0)
    if not state["match_length"]:
        ci["jacoby"] = int(state["jacoby"])
        ci["beavers"] = 3 if state["beavers"] else 0
        price = 0.0 if state["jacoby"] and state["owner"] == "centred" else 1.0
        ci["gammonprice"] = ((price, price), (price, price))
    return ci


# --------------------------------------------------------------------------
# Cube efficiency, as gnubg's EvalEfficiency (eval.c) computes it.
EFFICIENCY = {"Contact": 0.68, "Crashed": 0.68, "Bearoff1": 0.6, "Bearoff-OS": 0.6,
              "Bearoff2": 0.6, "Bearoff-TS": 0.6}


def pips(side):
    return sum(n * (i + 1) for i, n in enumerate(side))


def efficiency(cls, board):
    if cls == "Race":
        return min(0.7, max(0.6, pips(board[1]) * 0.00125 + 0.55))
    return EFFICIENCY[cls]


CLASS_NAME = {"Contact": "contact", "Crashed": "crashed", "Race": "race",
              "Bearoff1": "bearoff_one_sided", "Bearoff-OS": "bearoff_one_sided",
              "Bearoff2": "bearoff_two_sided", "Bearoff-TS": "bearoff_two_sided"}


def gnubg_class(pos_id):
    out = run("eval " + pos_id)
    m = re.search(r"Evaluator:\s*(\S+)", out)
    if not m:
        raise RuntimeError("no evaluator line for " + pos_id + ": " + out)
    return m.group(1)


def backgame(board):
    """Either side holds two points in the other's home board and trails by 50+ pips."""
    for me, them in ((1, 0), (0, 1)):
        anchors = sum(1 for i in range(18, 24) if board[me][i] >= 2)
        if anchors >= 2 and pips(board[me]) - pips(board[them]) >= 50:
            return True
    return False


# --------------------------------------------------------------------------
def setup():
    for cmd in ("set evaluation chequerplay eval plies 0", "set evaluation cubedecision eval plies 0",
                "set evaluation chequerplay eval noise 0", "set evaluation cubedecision eval noise 0",
                "set evaluation chequerplay eval deterministic on",
                "set evaluation cubedecision eval deterministic on",
                "set output digits 6", "set output mwc off", "set automatic bearoff off"):
        run(cmd)


def self_play_positions():
    """Every Position ID before a move in gnubg's self-play matches (cube off)."""
    noises = [(0.0, 0.05), (0.02, 0.02), (0.0, 0.1), (0.05, 0.05), (0.0, 0.03), (0.03, 0.08),
              (0.0, 0.0), (0.1, 0.02)]
    found = []
    for k, (n0, n1) in enumerate(noises):
        run(f"set seed {SEED + k}")
        for p, noise in ((0, n0), (1, n1)):
            run(f"set player {p} gnubg")
            run(f"set player {p} chequerplay evaluation plies 0")
            run(f"set player {p} chequerplay evaluation noise {noise}")
            run(f"set player {p} chequerplay evaluation deterministic on")
            run(f"set player {p} cubedecision evaluation plies 0")
        run("set cube use off")
        run("set automatic game on")
        run(f"new match {N_GAMES_MATCH}")
        match = gnubg.match(analysis=0, boards=1, statistics=0)
        for g, game in enumerate(match["games"]):
            n = 0
            for rec in game["game"]:
                if rec.get("action") == "move" and "board" in rec:
                    found.append((rec["board"], k, g, n))
                    n += 1
    run("set cube use on")
    for p in (0, 1):
        run(f"set player {p} human")
    run("set automatic game off")
    run("set automatic roll off")
    return found


QUOTAS = [("opening", 40), ("contact", 115), ("backgame", 25), ("crashed", 45),
          ("race", 85), ("bearoff_one_sided", 50), ("bearoff_two_sided", 40)]
RACE_BINS = [(0, 40), (40, 60), (60, 80), (80, 100), (100, 120), (120, 999)]


def classify(board):
    """gnubg's ClassifyPosition (eval.c) for contact, crashed and race; None for a bear-off.

    Debian's gnubg has only 6-point bear-off databases, so a position is a
    bear-off candidate only when both sides are inside their home boards;
    those are asked of gnubg itself (``eval``)."""
    backs = [max((i for i in range(25) if side[i]), default=-1) for side in board]
    if min(backs) < 0:
        return "Over"
    if backs[0] + backs[1] > 22:
        for side in board:
            tot = sum(side)
            if tot <= 6:
                return "Crashed"
            if side[0] > 1:
                if tot <= 6 + side[0] or (side[1] > 1 and 1 + tot - (side[0] + side[1]) <= 6):
                    return "Crashed"
            elif tot <= 6 + side[1] - 1:
                return "Crashed"
        return "Contact"
    if max(backs) >= 6:
        return "Race"
    return None


def choose(found):
    seen = set()
    pool = {k: [] for k, _ in QUOTAS}
    for pos_id, match_no, game_no, move_no in found:
        if pos_id in seen:
            continue
        seen.add(pos_id)
        board = gnubg.positionfromid(pos_id)
        cls = classify(board) or gnubg_class(pos_id)
        if cls == "Over":
            continue
        if move_no < 4:
            kind = "opening"
        elif cls == "Contact" and backgame(board):
            kind = "backgame"
        else:
            kind = CLASS_NAME[cls]
        pool[kind].append(dict(id=pos_id, kind=kind, gnubg_class=cls, source=[match_no, game_no, move_no]))
    rng = random.Random(SEED)
    chosen = []
    spare = 0
    for kind, quota in QUOTAS:
        cands = pool[kind]
        quota += spare
        if kind == "race":
            # spread over pip counts of the player on roll
            per = -(-quota // len(RACE_BINS))
            picked = []
            for lo, hi in RACE_BINS:
                b = [c for c in cands if lo <= pips(gnubg.positionfromid(c["id"])[1]) < hi]
                picked += rng.sample(b, min(per, len(b)))
            rest = [c for c in cands if c not in picked]
            if len(picked) < quota:
                picked += rng.sample(rest, min(quota - len(picked), len(rest)))
            picked = picked[:quota]
        else:
            picked = rng.sample(cands, min(quota, len(cands)))
        spare = quota - len(picked)
        chosen += picked
    counts = {k: len(v) for k, v in pool.items()}
    return chosen, counts


CUBE_COLUMNS = ["no_double", "double_take", "double_pass", "action", "cubeless_equity",
                "mwc_no_double", "mwc_double_take", "mwc_double_pass"]


def evaluate_states(board, plies, states):
    """gnubg's cube decision under each state: (probabilities, {state: row of CUBE_COLUMNS})."""
    out = {}
    probs = {}
    for name in states:
        state = STATES[name]
        ci = cubeinfo(state)
        p = gnubg.evaluate(board, ci, ec(plies))
        probs[name] = [f9(x) for x in p[:5]]
        _opt, nd, dt, dp, _code, text = gnubg.cfevaluate(board, ci, ec(plies))
        row = [f9(nd), f9(dt), f9(dp), text, f9(p[5])]
        if state["match_length"]:
            row += [f9(gnubg.eq2mwc(v, ci)) for v in (nd, dt, dp)]
        out[name] = row
    return probs, out


# --------------------------------------------------------------------------
# The same decisions through gnubg's commands, as `hint` prints them.
HINT_LINE = re.compile(r"^\d\. (No double|Double, take|Double, pass|No redouble|Redouble, take|Redouble, pass)"
                       r"\s+([-+]?\d+\.\d+)", re.M)
HINT_KEY = {"No double": "no_double", "No redouble": "no_double", "Double, take": "double_take",
            "Redouble, take": "double_take", "Double, pass": "double_pass", "Redouble, pass": "double_pass"}


def hint(pos_id, state, plies):
    run(f"set evaluation cubedecision eval plies {plies}")
    run(f"set evaluation chequerplay eval plies {plies}")
    if state["match_length"]:
        run(f"new match {state['match_length']}")
        r, o = state["score"]
        if state["crawford"]:
            run(f"set score {r}* {o}" if r == state["match_length"] - 1 else f"set score {r} {o}*")
        elif state["match_length"] - 1 in (r, o) and r != o:
            run(f"set score {r}p {o}" if r == state["match_length"] - 1 else f"set score {r} {o}p")
        else:
            run(f"set score {r} {o}")
    else:
        run("set jacoby " + ("on" if state["jacoby"] else "off"))
        run("set beavers " + ("3" if state["beavers"] else "0"))
        run("new session")
    run("set turn 0")
    run("set board " + pos_id)
    if state["owner"] == "centred":
        run("set cube centre")
    else:
        run(f"set cube value {state['cube']}")
        run("set cube owner " + ("0" if state["owner"] == "roller" else "1"))
    text = run("hint")
    if "Cube analysis" not in text:
        # gnubg prints "You cannot double." (on stderr) when the roller has no cube access
        run("set evaluation cubedecision eval plies 0")
        run("set evaluation chequerplay eval plies 0")
        return None
    run("set evaluation cubedecision eval plies 0")
    run("set evaluation chequerplay eval plies 0")
    got = {HINT_KEY[m.group(1)]: float(m.group(2)) for m in HINT_LINE.finditer(text)}
    m = re.search(r"Proper cube action: (.*?)(?: \(\d+\.\d%\))?$", text, re.M)
    probs = re.search(r"cubeless equity.*\n\s+([\d.]+) ([\d.]+) ([\d.]+) - [\d.]+ ([\d.]+) ([\d.]+)", text)
    if len(got) != 3 or not m:
        raise RuntimeError(f"cannot read hint for {pos_id} {state}:\n{text}")
    got["action"] = m.group(1)
    if probs:
        got["probabilities"] = [float(x) for x in probs.groups()]
    return got


def main():
    t0, c0 = time.time(), time.process_time()
    setup()
    run("new session")
    found = self_play_positions()
    run("new session")
    chosen, pool_counts = choose(found)
    positions = []
    for c in chosen:
        board = gnubg.positionfromid(c["id"])
        if gnubg.positionid(board) != c["id"]:
            raise RuntimeError("Position ID does not round-trip")
        if gnubg_class(c["id"]) != c["gnubg_class"]:
            raise RuntimeError("classify() differs from gnubg for " + c["id"])
        probs, evals = evaluate_states(board, 0, STATES)
        first = next(iter(probs.values()))
        if any(abs(a - b) > 1e-7 for p in probs.values() for a, b in zip(p, first)):
            raise RuntimeError("0-ply probabilities depend on the cube state")
        positions.append({
            "id": c["id"], "kind": c["kind"], "gnubg_class": c["gnubg_class"],
            "class": CLASS_NAME[c["gnubg_class"]],
            "cube_efficiency": f9(efficiency(c["gnubg_class"], board)),
            "pips": [pips(board[1]), pips(board[0])],
            "probabilities": first, "source": c["source"], "cube": evals,
        })

    # Check (4): the printed hint agrees with cfevaluate.
    checked = no_access = 0
    for pos in positions[::10]:
        for name, state in STATES.items():
            got = hint(pos["id"], state, 0)
            want = dict(zip(CUBE_COLUMNS, pos["cube"][name]))
            if got is None:
                # no cube access: gnubg prints no cube analysis, cfevaluate still answers
                if want["action"] not in ("Never double, take (dead cube)", "Never redouble, take (dead cube)",
                                          "Unknown cube decision"):
                    raise RuntimeError(f"hint has no cube analysis but cfevaluate does: {pos['id']} {name}")
                no_access += 1
                continue
            for key in ("no_double", "double_take", "double_pass"):
                if abs(got[key] - want[key]) > 1.5e-6:
                    raise RuntimeError(f"hint differs: {pos['id']} {name} {key} {got[key]} {want[key]}")
            if got["action"] != want["action"]:
                raise RuntimeError(f"hint action differs: {pos['id']} {name} {got['action']} {want['action']}")
            checked += 1

    # Deeper plies for 40 positions.
    deep_states = ["money_centred_jacoby_beavers", "m7_2-4"]
    rng = random.Random(SEED + 1)
    deep = []
    hint_differs = []
    for pos in rng.sample(positions, 40):
        board = gnubg.positionfromid(pos["id"])
        entry = {"id": pos["id"], "kind": pos["kind"], "plies": {}}
        for plies in (1, 2):
            probs, evals = evaluate_states(board, plies, deep_states)
            entry["plies"][str(plies)] = {name: {"probabilities": probs[name], "cube": evals[name]}
                                          for name in deep_states}
            for name in deep_states:
                h = hint(pos["id"], STATES[name], plies)
                want = dict(zip(CUBE_COLUMNS, evals[name]))
                if h is None:
                    continue
                if (h["action"] != want["action"]
                        or any(abs(h[k] - want[k]) > 1.5e-6 for k in ("no_double", "double_take", "double_pass"))):
                    entry["plies"][str(plies)][name]["hint"] = h
                    hint_differs.append([pos["id"], plies, name])
        deep.append(entry)

    header = {
        "gnubg": run("show version").strip().splitlines()[0],
        "command": "cd tests/data/gnubg && /usr/games/gnubg -t -q -p make_cube_reference.py",
        "made_by": "make_cube_reference.py (its docstring says how gnubg was driven)",
        "met": "Kazaross XG2 (gnubg default)",
        "evalcontext": {"cubeful": 1, "plies": 0, "deterministic": 1, "noise": 0.0},
        "roller": "the player on roll, before its roll; Position IDs are from its side (gnubg's anBoard[1])",
        "probabilities": "gnubg's 0-ply cubeless outputs for the roller: P(win), P(win g+), P(win bg), "
                         "P(lose g+), P(lose bg) (the same under every cube state at 0 ply)",
        "cube_columns": CUBE_COLUMNS,
        "cube": "per state, a row of cube_columns: gnubg.cfevaluate's cubeful equities per 1-cube as 'hint' "
                "prints them (match play: normalised EMG, gnubg's mwc2eq), its proper action text, the cubeless "
                "equity gnubg.evaluate()[5] under that state (money with Jacoby and a centred cube counts "
                "gammons as 0), and at match play the three equities as MWC (gnubg.eq2mwc); 'Unknown cube "
                "decision' is what gnubg answers when the cube is the opponent's (hint prints nothing then)",
        "cube_efficiency": "gnubg's EvalEfficiency (eval.c) recomputed, gnubg does not print it: contact and "
                           "crashed 0.68, bear-off 0.6, race 0.55 + 0.00125 * roller pips clamped to [0.6, 0.7]",
        "pips": "[roller, opponent]",
        "source": "[self-play match, game, move index within game] the position came from",
        "hint_checked": {"agreeing": checked, "no_cube_access": no_access,
                         "tolerance": 1.5e-6, "positions": "every tenth, all states"},
        "candidate_counts": pool_counts,
        "deeper": "1 and 2 plies for 40 positions: gnubg.evaluate/cfevaluate at that ply (no pruning nets: the "
                  "Python API cannot switch them on); 'hint' with gnubg's default cube settings (pruning nets on) "
                  "is stored only where it differs beyond 1.5e-6",
        "deeper_hint_differs": hint_differs,
        "seconds": round(time.time() - t0, 1),
        "cpu_seconds": round(time.process_time() - c0, 1),
    }
    states_out = {k: {"cube": s["cube"], "owner": s["owner"], "match_length": s["match_length"],
                      "score": list(s["score"]), "crawford": s["crawford"], "jacoby": s["jacoby"],
                      "beavers": s["beavers"]} for k, s in STATES.items()}
    data = {"header": header, "states": states_out, "positions": positions,
            "deeper": {"states": deep_states, "positions": deep}}
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT}: {len(positions)} positions, {checked} hint checks, {header['seconds']} s")


main()
