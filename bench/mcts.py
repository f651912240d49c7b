"""The search bot against the greedy bot, in both seatings: prints figures, asserts nothing.

Run: python bench/mcts.py PACK [--bot mcts:100] [--against greedy] [--games N] [--seed S]
     [--workers W] [--max-decisions M] [--sides SIDE,...]

For each seating (the search bot on each side in turn, or on the `--sides` named, the other
sides greedy) it plays N
games (game i with seed S + i, bots seeded as `engine simulate` seeds them, so a game
replays with `engine play PACK --seed S+i --bots mcts:100,greedy`) on W worker processes
and prints the search bot's share of wins with its 95% Wilson interval, draws, unfinished
games and faults, and how the games it lost ended; the seconds a decision the search bot
took (over the decisions it searched, and over all it answered: one with a single sensible
answer is not searched); and its rollouts' speed: rollouts and their decisions a second of
rollout time.

Measured at the commit after e7c33df (implicit minimax backups in the search, weighted by
pack.yaml `search_minimax:`, Hannibal's 40%, RULINGS.md H-bot-4; rules compiled; nice, this
2-core machine, two runs side by side), mcts:100, on seeds not played before:
  hannibal --sides carthage, --seed 150 --games 60 --workers 2, then --seed 210 --games 30,
    --seed 240 --games 30 and --seed 270 --games 15 with one worker each: 45/60, 24/30,
    18/30 and 13/15, 100/135, 74.1% (66.1-80.7%), against 104/150, 69.3% (61.5-76.2%)
    without them on seeds 0-149: better by 5 points, within chance (the 13 points below),
    and a game short of 75%. 0.132-0.156 s a searched decision (920-950 decisions a game),
    rollouts 6,500-8,000/s; all 35 losses on political points after the last turn (Rome
    8-11, Carthage 5-8). A search costs 1.5 times as much (a second reading of the
    heuristic an iteration: 0.088 against 0.132 s of CPU, on 28 positions of random games)
  hannibal --sides rome --games 30 --workers 1: 30/30 (88.6-100%), as before; 0.140 s a
    searched decision (323 decisions a game), rollouts 8,033/s; 758 s wall
  ante_portas --games 100 --workers 1 at 40% (tried; Ante Portas keeps 0): as Carthage
    86/100 (77.9-91.5%), as Rome 31/100 (22.8-40.6%), of Rome's 69 games not won 68
    "Hannibal takes Rome" and 1 a fault; at 0, as the pack ships, the same run: 100/100
    (96.3-100%) and 79/100 (70.0-85.8%), as at 604575c; 0.034 s a searched decision, 233 s
    wall. Its heuristic is blind to the siege (below), and a search that trusts its best
    line more is misled more. One game a seating faulted at 40% (OverflowError in
    math.exp: a large loss read while the scale was still small); the squash is guarded
    since, which changes no reward where it did not overflow
Measured at 8066214 (search.rules as at 4e1a79b, the same values; rules compiled; nice, this
2-core machine, two runs side by side), mcts:100:
  hannibal --sides carthage --workers 1, --seed 90 --games 30 and --seed 120 --games 30:
    16/30 and 22/30, 38/60, 63.3% (50.7-74.4%); 0.170 s a searched decision (828-862
    decisions a game), rollouts 5,131-5,213/s; 2,705 and 2,521 s wall; all 22 losses on
    political points after the last turn (Rome 8-10, Carthage 6-8). With seeds 0-89 (66/90):
    104/150, 69.3% (61.5-76.2%). Short of 75%
Tried at 8066214 as Carthage in Hannibal, mcts:100, rules compiled, nice, this machine (two
runs side by side), not kept (its code in no commit):
  the isolation phase's own result, exact, in the search heuristic: each side's lines traced
    back from all their ends in one search (a `reachable` from many starts), so that the PCs
    isolation.rules would remove now (none missed, none too many on 4,552 PCs of random
    games) count for nothing, in `pcs` and in the provinces held, one and two short (seed 002
    §5.5: the phase comes before the victory check). Of the 24 seeds of 0-89 lost as the
    search stands it won 13; of 37 of the 66 won it lost 12: 38/61, which weighted back to
    24 and 66 seeds is 64.0%, against 73.3%; 0.166 s a searched decision (0.170 as the
    search stands, above)
  What the same seeds are worth: another search gives another game from the same seed, near
    enough a game of its own (of the seeds lost it won 54%, of those won it kept 68%, both
    about its share overall). A comparison on the same seeds is no tighter than one on
    others, and two shares of 90 games differ by 13 points (twice the standard error of the
    difference) by chance alone: the search.rules changes of 60-90 games recorded below
    moved the share by 6-8 points, and cannot be told from chance on one 2-core machine
Measured at the commit after d2d86b0 (search.rules' provinces_two_short: a province two PCs
short 8, RULINGS.md H-bot-2; rules compiled; nice, this 2-core machine, runs side by side),
mcts:100:
  hannibal --sides carthage, seeds 0-89 in four runs of one worker (--seed 0 --games 30,
    --seed 30 --games 30, --seed 60 --games 15, --seed 75 --games 15): 66/90, 73.3%
    (63.4-81.4%), against 60/90 without it: seeds 0-29 20/30 (was 22), 30-59 24/30 (was
    17), 60-89 22/30 (was 21); 0.195 s a searched decision under that load (a score 0.31 ms
    as compiled rules, was 0.25); lost on political points after the last turn 23 (Rome
    8-10, Carthage 5-8), Hannibal displaced 1. Better by 6 games, within the noise, and
    still short of 75%
  hannibal --games 30 --workers 2 --sides rome: 30/30 (88.6-100%), as before; 0.156 s a
    searched decision (300 decisions a game), rollouts 6,627/s; 375 s wall
Tried at d2d86b0 as Carthage in Hannibal, mcts:100, rules compiled, nice, this 2-core
machine (runs side by side, so the seconds are high), against 39/60 on seeds 0-59 as
search.rules stood (below); none kept, the code of none kept:
  alpine_march counting the CUs he leads, movement points times CUs (up to 10), 1 a unit:
    two games read turn by turn (seeds 37, 100): he leaves Saguntum with 8-10 CUs in turn
    1-5, not the 5 of the floor, and then stays at the Volcae to the end, since the passes'
    attrition (seed 002 §8.3.2) takes more of the term than the Alps' movement points
    give; not run further
  alpine_march as 8 a movement point plus 4 a CU he leads (up to 10), from 3 CUs: 38/60,
    63.3% (50.7-74.4%); 0.198 s a searched decision
  the root's answers tried in the order the search heuristic puts them one answer on, and
    the answer chosen among those tried at least half as often as the most tried, the best
    by that order (so that near ties go as the greedy bot would take them): seeds 0-13
    5/14 (16.3-61.2%), against 10/14; 0.235 s a searched decision; stopped
  What they were after, from a game read move by move (seed 41, `engine play hannibal
  --seed 41 --bots mcts:100,greedy`, lost 6-9): 26 of Carthage's PCs removed by the
  isolation phase in 9 turns (Rome's: 24), 5 of them in turn 1 (Arpi, Grumentum, Illiberis,
  Henna, Cornus). At each of Carthage's PC placements in turn 1 (18-24 spaces) the search
  heuristic one answer on is the same for every space but the two that bring Idubeda
  within one PC (20 more) and the exposed ones (1 less): so 100 playouts, 4-5 a space,
  choose among them by the rollouts' noise, where the greedy bot takes the safe space by
  that 1. Rome's political points stay at 9 all game; Carthage's fall from 8 to 6 as
  Rome takes Carthaginia and Western Numidia while Hannibal marches (Taurini, turn 7)
Measured at the commit after e3b8e6d (search.rules' alpine_march: Hannibal's march to the
Insubres, 8 a movement point while he leads 5 CUs, RULINGS.md H-bot-3; rules compiled; this
2-core machine, about half as fast as the quiet one below), mcts:100:
  hannibal --games 60 --seed 0 --workers 2 --sides carthage, then --games 30 --seed 60:
    60/90, 66.7% (56.4-75.5%), against 53/90 (58.9%) without it: seeds 0-29 22/30 (was
    21), 30-59 17/30 (was 15), 60-89 21/30 (was 17); 0.148 s a searched decision (781-817
    decisions a game), rollouts 5,444-5,489/s; 2,138 + 1,030 s wall; all 30 losses on
    political points after the last turn (Rome 8-10, Carthage 6-8), none by Hannibal
    displaced. Seed 100 read turn by turn: Hannibal reaches Cremona in Gallia Cisalpina in
    turn 6 (he never left Hispania before). Better by 7 games, within the noise, and still
    short of 75%
  hannibal --games 30 --workers 2 --sides rome: 30/30 (88.6-100%), as before; 0.147 s a
    searched decision (320 decisions a game), rollouts 6,334/s; 375 s wall
  (Those runs read the distance to the Insubres twice a score, a search of the land graph
  each time: 0.45 ms a score as Python, against 0.29 without the term. The commit after
  keeps it per space (`to_insubres`, a static value): 0.30 ms, the term 8 us, and the same
  values on 10,174 states of 20 random games, so the same games.)
Measured at ff8b681 (search.rules as at 9c23caa; rules compiled; quiet machine), mcts:100:
  hannibal --games 30 --seed 60 --workers 2 --sides carthage: 17/30 (39.2-72.6%); 0.063 s a
    searched decision (914 decisions a game), rollouts 11,671/s; 572 s wall; all 13 losses
    on political points after the last turn (Rome 8-10, Carthage 6-8). Over seeds 0-89:
    53/90, 58.9% (48.6-68.5%): short of 75%
Tried at 1e8e421 as Carthage in Hannibal, mcts:100, rules compiled, nice, this 2-core
machine (about half as fast as the one above), not kept: UCT explore 1.4 for 0.7 (about
UCB1's sqrt(2) for rewards in 0..1; OpenSpiel's ISMCTS in tests/test_openspiel.py takes 2):
seeds 30-59 22/30 (55.6-85.8%), seeds 60-89 13/30 (27.4-60.8%): 35/60, 58.3% (45.7-69.9%),
against 32/60 with 0.7 at ff8b681 on the same seeds (15 and 17). 0.153 s a searched decision,
rollouts 4,840-4,914/s; lost on political points after the last turn 23 of 25 (Rome 8-11,
Carthage 5-8), Hannibal displaced 2. A first range of 30 seeds said 73%, the next 43%: a
share of 30 games swings by that much, so a change needs 60 games or more before it is kept.
A game read move by move (seed 32 with the default search, `engine play hannibal --seed 32
--bots mcts:100,greedy`; Carthage won it on the 8-8 tie, §18.3) shows what remains: 1-3 of
Carthage's PCs placed each turn where the isolation phase removes them again (Arpi, Henna,
Cannae, Faesulae, Bovianum, Narbo, Tarracina; the same spaces turn after turn), although
search.rules counts each as exposed: such a PC scores 0 (its `pcs` point taken back), a safe
one 1, a fortieth of a political point, which 100 playouts of three random answers do not
tell apart. Both sides discard about 20 cards a game (20 and 19), and Hannibal never leaves
Hispania. Tried on that finding, not kept: an exposed PC weighted minus 4 for minus 1 in
search.rules (so it scores -3 against a safe one's 1), explore 0.7, seeds 30-39: 3/10
(stopped; the explore-1.4 run above won 8 of those 10).
Tried at ac29239 as Carthage in Hannibal, mcts:100, seeds 30-59, rules compiled, this machine,
not kept: search.rules' exposed_pc is a one-step reading that flags 12 safe PCs for each
isolated one (bench/hannibal_exposure.py: 279 safe and all 24 isolated of 970); looking 4
movement points along the line (6 safe flagged) and counting the political points after the
flagged PCs are gone (the isolation phase comes before the victory check, §5.5), so that a PC
that takes a province only until the isolation phase no longer scores its point: 11/30
(21.9-54.5%), against 15/30 (default) and 22/30 (explore 1.4) on the same seeds; 0.275 s a
searched decision (the heuristic twice as dear), rollouts 4,160/s; lost on political points
after the last turn 17 (Rome 8-10, Carthage 5-8), Hannibal displaced 2; the range 60-89
stopped. Scoring the isolation phase better does not win more games
Tried at d1f3785 as Carthage in Hannibal, mcts:100, seeds 0-47, rules compiled, load 3
(a copy of the bot, not kept): 8 times the playouts (800) at each decision that names a
strategy card (which card to play; its event, ops or discard), the probe below having shown
ops winning over discard only at 1,600: 26/48 = 54.2% (40.3-67.4%), seeds 0-29 14/30
(30.2-63.9%, against 21/30), 30-47 12/18; 0.277 s a searched decision; stopped at 48 of
90 games. More search where the cards are played won no more games
Tried at 182102c as Carthage in Hannibal, mcts:100, seeds 0-29 (21/30 with search.rules as
it is), rules compiled, quiet machine; neither kept:
  the weights bench/fit_weights.py fitted on 60 games of the search bot itself (as Carthage
    against greedy, seeds 2000-2059; a province in reach 30, a PC 3, a leader on the map 15,
    an exposed PC -3, the rest as they are): 12/30 (24.6-57.7%), 0.081 s a searched
    decision; lost on political points after the last turn 17 (Rome 9-10, Carthage 5-8),
    Hannibal displaced 1. A fit on 60 games is too noisy to move the weights by
  a province in reach weighted by the turn, 44 - 3 * turn_no (41 in turn 1 down to 17 in
    turn 9: early a province in reach is worth more, late a point held, as a --by-turn fit
    shows): 20/30 (48.8-80.8%), 0.066 s a searched decision; lost on political points
    after the last turn 8 (Rome 9, Carthage 7-8), Hannibal displaced 2
Measured at the commit after 0be756c (search.rules' weights fitted by bench/fit_weights.py,
RULINGS.md H-bot-2; the rules compiled; quiet machine), mcts:100:
  hannibal --games 30 --workers 2 --sides carthage, seeds 0-29: 21/30 (52.1-83.3%), was
    20/30; seeds 30-59: 15/30 (33.2-66.8%), was 11/30; both: 36/60, 60.0% (47.4-71.4%), was
    31/60 (51.7%). 0.061-0.062 s a searched decision (873-948 decisions a game), was 0.076;
    rollouts 11,700-12,300/s; 510 and 579 s wall; all 24 losses on political points after
    the last turn (Rome 8-11, Carthage 6-8). Still short of 75%
  hannibal --games 30 --workers 2 --sides rome: 30/30 (88.6-100%), as before; 0.052 s a
    searched decision (320 decisions a game), rollouts 17,558/s; 132 s wall
Measured at commit edab45a (the same search and search.rules; the rules compiled to C by
`engine compile`, which plays the same games; nice, quiet machine), mcts:100, seeds 30-59:
  hannibal --games 30 --seed 30 --workers 2 --sides carthage: 11/30 (21.9-54.5%), against
    20/30 on seeds 0-29: 31/60 over both, 51.7% (39.3-63.8%). So the 20/30 was a kind
    range of seeds, and Carthage's share is nearer a half. 0.076 s a searched decision (949
    decisions a game), rollouts 10,547/s, 30,917 decisions/s; 711 s wall; lost on political
    points after the last turn 18 (Rome 9-11, Carthage 6-8), Hannibal displaced 1.
    cProfile of 15 searches (seed 3, after 120 random answers): the pack's search heuristic
    (search.rules, read twice an iteration) takes 60% of a search, the rollouts 7%,
    determinizing 15%: a faster search is the heuristic's to gain, not the rollouts'
Measured at commit a6fe947 (the same search and search.rules; nice, quiet machine), mcts:100:
  hannibal --games 30 --workers 2 --sides rome: 30/30 (88.6-100%); 0.083 s a searched
    decision (422 decisions a game), rollouts 11,510/s, 34,386 decisions/s; 267 s wall
  hannibal --games 30 --workers 2 --sides carthage --bot mcts:400: 21/30 (52.1-83.3%),
    against 20/30 at mcts:100; 0.369 s a searched decision (1,021 decisions a game),
    rollouts 10,201/s; 3,656 s wall; lost when Hannibal was displaced 4, on political points
    after the last turn 5 (Rome 9-10, Carthage 6-8). Four times the playouts fix the
    discards (the probe below) but not the political economy: 75% is not reached
Tried as Carthage in Hannibal at mcts:100 and not kept (the code of neither was kept):
  on seeds 30-59 (11/30 as the search stands), rules compiled, at 3de0bdb:
    UCT explore 0.35 (half the default): 9/30 (16.7-47.9%), 0.127 s a searched decision
      (load 3-4), lost on political points after the last turn 20, Hannibal displaced 1
    search.rules' one_short and one_over weighted 4 (half a political point) for 2: 6/30
      (9.5-37.3%), 0.081 s a searched decision; all 24 losses on political points after
      the last turn. A province in reach is not worth more than the quarter point it has
    a replay of seeds 30-37 at the baseline, turn by turn (political points and provinces
      held at each turn's start; 5 of the 8 won): in the games won Carthage adds Idubeda,
      then Syracuse, Sicilia or Gallia Cisalpina, and Rome falls from 9 to 7-8 in the last
      turns; in those lost Rome reaches 10-11 by turn 3-6 while Carthage holds its own 7 at
      best, losing Idubeda, Carthaginia or a Numidia back. So the games turn on the
      contested provinces, which the search sees only as one_short and one_over
  what it does wrong: it discards cards it could play for ops (13 of 44 plays in seed 1).
    A probe of one such decision (seed 1, turn 1, a 1-op card): at 100 playouts discard
    got 78-85 of 100 visits (ops 0.39-0.49 against 0.61-0.64), at 400 ops won 1 time of 3,
    at 1,600 ops won 3 of 3 (0.61-0.62 against 0.54-0.56). Ops leads to its own answers,
    played at random in a rollout, and after discard the three random answers are Rome's.
  a node's value mixed halfway towards its best child's where the side answers again
    (mix-max backup of its own chain of answers): 4/10 on seeds 0-9, stopped
  rollouts stopped at the first answer of another side (no random blunder of the enemy
    scored), at most 3 answers: 9/22 (seeds 0-21), stopped; against 20/30 without
  progressive widening trying first the answer the search heuristic puts best one answer
    on (each untried answer given on a copy, scored once a node), at every node of either
    side (at e1d65fa): 6/13 (seeds 0-12; 23.2-70.9%), stopped; 0.19 s a searched decision
  search.rules given Hannibal's march on Rome (1 a step nearer Roma by land, at most 20;
    at 3867f4c): 13/30 (27.4-60.8%), lost when Hannibal was displaced 6 (seed 002 §8.9),
    on political points after the last turn 11; not kept. A first run without a guard for
    no land path faulted 14 times (none in `min`: the fault message now says so, 2f21baf)
Measured at commit 9f2dba8 (search.rules counts a PC with no line end in its space or next
door as lost, seed 002 §15.4: as Carthage the search had placed its ops' PCs where the
isolation phase removed them every turn, 4-9 a turn in seed 1; nice, load 2-3), mcts:100:
  hannibal --games 30 --workers 2 --sides carthage: 20/30 (48.8-80.8%), was 10/30
    (19.2-51.2%); 0.097 s a searched decision (882 decisions a game), rollouts 8,268/s,
    24,447 decisions/s; 803 s wall; lost on political points after the last turn in 9 of 10
    (Rome 9-12, Carthage 6-8), Hannibal displaced in 1. Seeds 10-15 alone: 5/6
  hannibal --sides rome (its search reads the term too), run beside it at nice 19 with one
    worker: 8/8 (67.6-100%, seeds 0-7), 8 games only for the deadline
Measured at commit 604575c (each pack's `search_heuristic:`, content/*/search.rules, scores
the cut-off rollouts; greedy reads `heuristic:` as before; nice, load 4-6), mcts:100:
  ante_portas --games 100 --workers 1: as Carthage 100/100 (96.3-100%), as Rome 79/100
    (70.0-85.8%), was 51/100; 0.17 s a searched decision, rollouts 3,800-3,900/s, 11,200
    decisions/s; lost as Rome: Hannibal takes Rome 20, the Senate's morale broken 1
  hannibal --games 30 --workers 2 --sides carthage: 10/30 (19.2-51.2%), unchanged; 0.125 s
    a searched decision (1,088 decisions a game), rollouts 4,400/s, 13,000 decisions/s; 1,457
    s wall; lost on political points after the last turn in 18 of 20 (by 1-2 in 16; e.g.
    Rome 9, Carthage 8), Hannibal displaced in 2
  hannibal --games 30 --workers 1 --sides rome (at 1c5dfd6, quiet machine): 30/30
    (88.6-100%); 0.060 s a searched decision (407 decisions a game), rollouts 12,472/s,
    37,227 decisions/s; 373 s wall
  hannibal --games 10 --seed 10 --workers 2 --sides carthage --bot mcts:300 (at a4c4cbc):
    3/10 (10.8-60.3%), against 2/10 for mcts:100 on the same seeds; 0.286 s a searched
    decision, rollouts 6,560/s; lost on political points after the last turn in 6 of 7,
    so three times the playouts do not make Carthage's search see the political economy
Measured at commit ef40142 (rollouts cut off after 3 decisions; nice, on the shared 2-core
machine under a load of 4-6, so the seconds are about four times a quiet machine's),
mcts:100 against greedy, with greedy against greedy for comparison (`engine simulate PACK
--bots greedy,greedy`: Ante Portas Carthage 91% of 200, Hannibal Rome 87% of 30):
  ante_portas --games 100 --workers 1: as Carthage 100/100 (96.3-100%), as Rome 51/100
    (41.3-60.6%); 0.11 s a searched decision, rollouts 5,500/s, 15,800 decisions/s
  hannibal --games 30 --workers 2: as Carthage 10/30 (19.2-51.2%), as Rome 30/30
    (88.6-100%); 0.18 s a searched decision as Carthage (1,103 decisions a game), 0.14 s as
    Rome (455), rollouts 2,500-4,000/s, 7,300-12,100 decisions/s; 2,618 s wall for the run
At commit 35dcf87 (cut off after 10): Ante Portas as Carthage 100/100, as Rome 42/100
(32.8-51.8%), mcts:1000 as Rome 12/40; Hannibal as Carthage 8/30 (14.2-44.4%), as Rome 30/30
(88.6-100%); 0.025 s a searched decision in Ante Portas, 0.07-0.09 s in Hannibal, quiet.

The goal of issue 32, >= 75% on each side, is met on both sides of Ante Portas since the
search heuristic (604575c), and as Rome only in Hannibal. Before it, as Rome in Ante
Portas every game the search lost was "Hannibal takes Rome"
(the siege, RULINGS.md R13: all 13 it lost of seeds 0-29, "how it lost"); the siege decided
24 of those 30 games. Its
outcome is set by the cards Rome keeps in hand and names at Rome rounds before it, which a
search of 100 playouts and a heuristic blind to the siege do not see.
Tried as Rome in Ante Portas, mcts:100, seeds 0-39 (`--sides rome`), each against the same
games; the options were set by hand and the code of those that did not help was not kept:
  cut off after 10 random decisions (the old default) 14/40 (22.1-50.5%); after 0 (the
    heuristic read straight after the new node) 6/40 (7.1-29.1%); after 3: 51/100 above
  rollouts played to the end of the other side's turn (cut off when the side asked changes
    back), at most 40 decisions: 12/30 (24.6-57.7%), stopped
  progressive widening trying first the answer the heuristic puts best one step on (the
    greedy answer), cut off after 3: 24/40 (44.6-73.7%)
  rollouts guided by the heuristic (each answer the best of 8 by the heuristic one step on,
    at random with chance 0.1): cut off after 10: 25/40 (47.0-75.8%), four times the time;
    after 3: 18/40 (30.7-60.2%); after 30: 7/20 (18.1-56.7%), stopped
  cut off after 3 with mcts:300: 22/40 (39.8-69.3%); UCT explore 0.3: 15/30, 1.4: 13/30
  the pack's heuristic given a siege term (how far Carthage's hand pays the losses Rome's
    hand and its army named at Rome inflict, while Rome is a target): 9/40 cut off after 10;
    a pending-battle term (the losses at the chosen target): 17/40 after 3, 11/40 after 10;
    Rome's hand counted only up to its limit: 7/20 after 3, stopped. Each lost more games
    as Rome: the greedy Carthage reads the same heuristic, so what tells Rome where it stands
    tells Carthage too (greedy against greedy: 93-95% for Carthage).
  the search alone reading the pending-battle term (added to the pack's heuristic in its
    imagined copies only; the greedy Carthage on the pack's own), cut off after 3: 28/40
    (54.6-81.9%), 0.53 s a searched decision under load, all 12 losses the siege; as
    Carthage so 38/40 (83.5-98.6%). So the heuristic is what holds the search back as Rome,
    and a better one helps its greedy opponent more; the pack's heuristic was left as it
    was. What would reach 75% as Rome: that term and more playouts (a search of its own
    evaluation), or a heuristic that scores the siege for Rome without teaching Carthage
    when to march on Rome, which a shared heuristic cannot.
As Carthage in Hannibal the shorter cut-off changed nothing (10/30 against 8/30); there the
greedy Rome wins 87% against the greedy Carthage too. Every game it lost of seeds 0-7 (4 of
8, the same games as above) went the full length and was lost on political points (Rome 9-12,
Carthage 5-7; they start at 9 and 7): whether the pack leans to Rome is issue 32 part 3 (its
balance), left open.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def one_game(pack_ref: str, seed: int, specs: list[str], max_decisions: int) -> dict:
    """Play one game; the search bot's side, the result and what its decisions cost."""
    from engine.core.loader import load_pack
    from engine.dsl.places import resolve_pack
    from engine.frontends.simulate import make_seats
    pack = _PACKS.get(pack_ref)
    if pack is None:
        pack = _PACKS[pack_ref] = load_pack(resolve_pack(pack_ref))
    seats = make_seats(pack, specs, seed)
    game = pack.new_game(seed, log=False, undo=False)
    answered = 0
    answering = 0.0
    out = {"seed": seed, "status": "over"}
    try:
        while not game.over and len(game.actions) < max_decisions:
            d = game.decision
            bot = seats[d.side]
            start = time.perf_counter()
            action = bot.choose(game, d.side)
            if bot.name == "mcts":
                answering += time.perf_counter() - start
                answered += 1
            game.apply(action)
    except Exception as err:  # a fault is counted and shown, the run goes on
        out["status"] = "fault"
        out["error"] = f"{type(err).__name__}: {err}"
    if out["status"] == "over" and not game.over:
        out["status"] = "unfinished"
    search = next(b for b in seats.values() if b.name == "mcts")
    st = search.stats
    out.update(side=next(s for s, b in seats.items() if b is search),
               winner=game.result.winner if game.over else None,
               reason=str(game.result.reason) if game.over else None,
               decisions=len(game.actions), answered=answered, answering=answering,
               searched=st.searches, searching=st.search_seconds,
               iterations=st.iterations, rollouts=st.rollouts,
               rollout_decisions=st.rollout_decisions, rollout_seconds=st.rollout_seconds)
    return out


_PACKS: dict = {}


def seating(pack, bot: str, against: str, index: int) -> list[str]:
    return [bot if i == index else against for i in range(len(pack.sides))]


def report(side: str, spec: str, results: list[dict], seconds: float) -> None:
    from engine.frontends.simulate.shares import format_share
    n = len(results)
    won = sum(r["winner"] == side for r in results)
    draws = sum(r["status"] == "over" and r["winner"] is None for r in results)
    unfinished = sum(r["status"] == "unfinished" for r in results)
    faults = [r for r in results if r["status"] == "fault"]
    total = {k: sum(r[k] for r in results) for k in (
        "decisions", "answered", "answering", "searched", "searching", "iterations",
        "rollouts", "rollout_decisions", "rollout_seconds")}
    rs = total["rollout_seconds"] or 1e-9
    print(f"{spec} as {side}: won {won}/{n} = {format_share(won, n)}; draws {draws}, "
          f"unfinished {unfinished}, faults {len(faults)}")
    print(f"  mean decisions a game {total['decisions'] / max(n, 1):.0f}; the search bot "
          f"answered {total['answered']}, searched {total['searched']}: "
          f"{total['searching'] / max(total['searched'], 1):.3f} s a searched decision, "
          f"{total['answering'] / max(total['answered'], 1):.3f} s an answered one; "
          f"{total['iterations'] / max(total['searched'], 1):.0f} iterations a search")
    print(f"  rollouts (cut off, not whole games): {total['rollouts'] / rs:.0f}/s, "
          f"{total['rollout_decisions'] / rs:.0f} decisions/s of rollout time "
          f"({total['rollout_decisions'] / max(total['rollouts'], 1):.1f} decisions a "
          f"rollout); {seconds:.0f} s wall for the run")
    lost = Counter(r["reason"] for r in results if r["status"] == "over"
                   and r["winner"] not in (side, None))
    if lost:
        print("  how it lost: " + "; ".join(f"{k} ({v})" for k, v in lost.most_common()))
    for r in faults[:3]:
        print(f"  fault, seed {r['seed']}: {r['error']}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("--bot", default="mcts:100")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=100, help="games per seating")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=20_000)
    parser.add_argument("--sides", help="the search bot's sides, comma-separated (all)")
    args = parser.parse_args(argv)
    from engine.core.loader import load_pack
    from engine.dsl.places import resolve_pack
    from engine.frontends.bots import split_spec
    split_spec(args.bot)
    split_spec(args.against)
    pack = load_pack(resolve_pack(args.pack))
    print(f"{args.pack}: {args.bot} against {args.against}, {args.games} games a seating "
          f"(seeds {args.seed}..{args.seed + args.games - 1}), {args.workers} worker(s)")
    # the seatings interleaved, so figures read before the end cover both
    start = time.perf_counter()
    # with the same bot in every seat the seatings are the same games: play them once
    seated = pack.sides[:1] if args.bot == args.against else pack.sides
    if args.sides:
        seated = [s for s in pack.sides if s in args.sides.split(",")]
    jobs = [(side, seating(pack, args.bot, args.against, pack.sides.index(side)), args.seed + i)
            for i in range(args.games) for side in seated]
    results: dict[str, list[dict]] = {side: [] for side in seated}
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [(side, pool.submit(one_game, args.pack, seed, specs, args.max_decisions))
                   for side, specs, seed in jobs]
        for done, (side, future) in enumerate(futures, 1):
            r = future.result()
            results[side].append(r)
            print(f"  game seed {r['seed']}, {args.bot} as {side}: {r['status']}, winner "
                  f"{r['winner']}, {r['decisions']} decisions, searched {r['searched']} in "
                  f"{r['searching']:.1f} s, {r['rollout_decisions']} rollout decisions in "
                  f"{r['rollout_seconds']:.1f} s", flush=True)
            if done % 10 == 0 and done < len(futures):  # partial figures as it goes
                print(f"  ... after {time.perf_counter() - start:.0f} s: " + "; ".join(
                    f"as {s} won {sum(r['winner'] == s for r in rs)}/{len(rs)}"
                    for s, rs in results.items()), flush=True)
    seconds = time.perf_counter() - start
    for side in seated:
        report(side, args.bot, results[side], seconds)

if __name__ == "__main__":
    main()
