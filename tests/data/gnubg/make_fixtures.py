"""Produce the GNU Backgammon fixtures of this folder (not run by the tests).

Run with Debian's gnubg (``apt-get install gnubg``), from this folder:

    gnubg -t -q -p make_fixtures.py

It writes ``auto5.mat`` (a 5-point match gnubg plays against itself at 0 ply:
doubles, takes, drops, a Crawford game, dances, hits, bear-offs),
``resign3.mat`` (a 3-point match ending on an accepted gammon resignation,
the second player starting) and ``match_ids.txt``: one line per state,
``label position-id match-id``, as gnubg's own ``gnubgid()`` reports them.
The labels say which state each is; tests/test_match_id.py reasons the
expected fields from those labels.
"""
import gnubg

c = gnubg.command
lines = []


def record(label):
    position_id, match_id = gnubg.gnubgid().split(":")
    lines.append(f"{label} {position_id} {match_id}\n")


def play_best():
    move = gnubg.findbestmove()
    if move:
        c("move " + gnubg.movetupletostring(move, gnubg.board()))


def computer_players(on):
    kind = "gnubg" if on else "human"
    for player in (0, 1):
        c(f"set player {player} {kind}")
        if on:
            c(f"set player {player} chequerplay evaluation plies 0")
            c(f"set player {player} cubedecision evaluation plies 0")


# A whole match played by gnubg against itself.
c("set seed 11")
computer_players(True)
c("set automatic game on")
c("set automatic roll on")
c("new match 5")
c("export match mat auto5.mat")

# States played by hand, one command at a time.
computer_players(False)
c("set automatic roll off")
c("set automatic game off")
c("set seed 7")
c("new match 3")
record("opening-rolled")
play_best()
record("after-first-play")
c("roll")
record("rolled")
play_best()
c("double")
record("doubled-centred")
c("take")
record("taken")
c("roll")
play_best()
record("cube-owned")
for _ in range(6):
    c("roll")
    play_best()
c("resign gammon")
record("resign-gammon-offered")
c("accept")
record("resigned")
c("export match mat resign3.mat")

c("new match 5")
c("set score 4 2")
c("set crawford on")
record("crawford")
c("new session")
record("money-opening")
play_best()
c("roll")
play_best()
c("double")
c("drop")
record("money-dropped")

with open("match_ids.txt", "w") as out:
    out.writelines(lines)
