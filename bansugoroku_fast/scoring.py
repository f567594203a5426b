"""The numbers the built-in policies score with: the features' names, the
heuristic's weights and Tesauro's pubeval weights.

Plain data with no imports, so that the kernels (which copy these tables
when they load) and the oracle read the same values, and so that neither
pulls in the rest of the package.

>>> len(FEATURE_NAMES), FEATURE_NAMES[0], len(PUBEVAL_RACE_WEIGHTS)
(28, 'own_pips', 122)
"""
from __future__ import annotations

#: The features of one side, in order; :data:`FEATURE_NAMES` lists them for
#: row 0 (``own_``) then row 1 (``other_``). Each is an integer; see
#: :mod:`bansugoroku_fast.oracle.features` (``side_features``) for the exact
#: definitions.
SIDE_FEATURES = (
    "pips",          # pip count: sum of point x stones, the bar counting 25
    "off",           # stones borne off
    "bar",           # stones on the bar
    "home",          # stones on points 1..6
    "back",          # stones on points 19..24 (the other side's home) or the bar
    "blots",         # points 1..24 holding exactly one stone
    "points",        # points 1..24 holding two or more (made points)
    "home_points",   # points 1..6 holding two or more (closure progress)
    "prime",         # longest run of consecutive made points
    "anchors",       # made points among 19..24 (in the other side's home)
    "exposure",      # rolls (of 36) on which the other side could hit a blot, blocks ignored
    "stacking",      # stones beyond three on a point, summed over points 1..24
    "closure",       # 1 if this side's home is closed with the other side on the bar
    "won",           # the value of this side's win in the position, 0 if it has not won
)

#: Names of the columns of ``features(positions, rules)``: row 0's side
#: features (``own_*``), then row 1's (``other_*``).
FEATURE_NAMES = tuple(f"own_{name}" for name in SIDE_FEATURES) + tuple(
    f"other_{name}" for name in SIDE_FEATURES
)

def _side_weights(**weights: float) -> tuple[float, ...]:
    """Row 0's weights by name, row 1's the opposite (a symmetric evaluation)."""
    own = tuple(float(weights.get(name, 0.0)) for name in SIDE_FEATURES)
    return own + tuple(-w for w in own)


#: Weights of ``"heuristic"`` per variant (``FEATURE_NAMES`` order), tuned by
#: a hill climb on head-to-head results from hand-set starting weights:
#: ``python -m benchmarks.fit_heuristic --rules backgammon`` and ``python -m
#: benchmarks.fit_heuristic --rules ban-sugoroku --steps 40 --seed 2`` print
#: them. The tuned weights win 62% (backgammon) and 67% (Ban-sugoroku) of
#: games against the starting ones.
HEURISTIC_WEIGHTS: dict[str, tuple[float, ...]] = {
    "backgammon": _side_weights(
        pips=-0.1, off=0.3, bar=-0.6, home=0.05, back=-0.2, blots=-0.3, points=0.2,
        home_points=0.3, prime=0.2, anchors=0.2, exposure=-0.035, stacking=-0.05,
        closure=0.5, won=100.0,
    ),
    "ban-sugoroku": _side_weights(
        pips=-0.05, off=0.3, bar=-1.176, home=0.05, back=-0.1, blots=-0.15, points=0.1,
        home_points=0.3, prime=0.2, anchors=0.2, exposure=-0.035, stacking=-0.05,
        closure=0.5, won=100.0,
    ),
}

# Tesauro's pubeval weights as he published them (pub_eval.c, 1993): 122
# inputs, five per point from point 24 down to point 1, then the opponent's
# bar and the mover's borne-off stones (see oracle.games.pubeval_inputs).
PUBEVAL_RACE_WEIGHTS = (
    .00000, -.17160, .27010, .29906, -.08471, .00000, -1.40375,
    -1.05121, .07217, -.01351, .00000, -1.29506, -2.16183, .13246,
    -1.03508, .00000, -2.29847, -2.34631, .17253, .08302, .00000,
    -1.27266, -2.87401, -.07456, -.34240, .00000, -1.34640, -2.46556,
    -.13022, -.01591, .00000, .27448, .60015, .48302, .25236, .00000,
    .39521, .68178, .05281, .09266, .00000, .24855, -.06844, -.37646,
    .05685, .00000, .17405, .00430, .74427, .00576, .00000, .12392,
    .31202, -.91035, -.16270, .00000, .01418, -.10839, -.02781, -.88035,
    .00000, 1.07274, 2.00366, 1.16242, .22520, .00000, .85631, 1.06349,
    1.49549, .18966, .00000, .37183, -.50352, -.14818, .12039, .00000,
    .13681, .13978, 1.11245, -.12707, .00000, -.22082, .20178, -.06285,
    -.52728, .00000, -.13597, -.19412, -.09308, -1.26062, .00000, 3.05454,
    5.16874, 1.50680, 5.35000, .00000, 2.19605, 3.85390, .88296, 2.30052,
    .00000, .92321, 1.08744, -.11696, -.78560, .00000, -.09795, -.83050,
    -1.09167, -4.94251, .00000, -1.00316, -3.66465, -2.56906, -9.67677,
    .00000, -2.77982, -7.26713, -3.40177, -12.32252, .00000, 3.42040,
)
PUBEVAL_CONTACT_WEIGHTS = (
    .25696, -.66937, -1.66135, -2.02487, -2.53398, -.16092, -1.11725,
    -1.06654, -.92830, -1.99558, -1.10388, -.80802, .09856, -.62086,
    -1.27999, -.59220, -.73667, .89032, -.38933, -1.59847, -1.50197,
    -.60966, 1.56166, -.47389, -1.80390, -.83425, -.97741, -1.41371,
    .24500, .10970, -1.36476, -1.05572, 1.15420, .11069, -.38319, -.74816,
    -.59244, .81116, -.39511, .11424, -.73169, -.56074, 1.09792, .15977,
    .13786, -1.18435, -.43363, 1.06169, -.21329, .04798, -.94373, -.22982,
    1.22737, -.13099, -.06295, -.75882, -.13658, 1.78389, .30416, .36797,
    -.69851, .13003, 1.23070, .40868, -.21081, -.64073, .31061, 1.59554,
    .65718, .25429, -.80789, .08240, 1.78964, .54304, .41174, -1.06161,
    .07851, 2.01451, .49786, .91936, -.90750, .05941, 1.83120, .58722,
    1.28777, -.83711, -.33248, 2.64983, .52698, .82132, -.58897, -1.18223,
    3.35809, .62017, .57353, -.07276, -.36214, 4.37655, .45481, .21746,
    .10504, -.61977, 3.54001, .04612, -.18108, .63211, -.87046, 2.47673,
    -.48016, -1.27157, .86505, -1.11342, 1.24612, -.82385, -2.77082,
    1.23606, -1.59529, .10438, -1.30206, -4.11520, 5.62596, -2.75800,
)
#: pubeval's score of a play that bears off the last stone (the best there is).
PUBEVAL_WIN_SCORE = 99999999.0
