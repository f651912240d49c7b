"""Playing games out with seats (bots or people), one at a time or many in parallel.

`simulate(pack_ref, games, seed, bots)` plays `games` independent games: game i uses seed
`seed + i` and its bots are seeded from that (see `engine.frontends.bots.bot_seed`), so any
single game can be played again with `engine play PACK --seed <seed+i> --bots <same>`, and
the results are the same whatever the number of workers. Win and draw shares come with their
95% Wilson score interval (`wilson`); `Progress` draws a progress bar for long runs.

- `playing`: one game with its seats (`make_seats`, `play_out`, `run_one`, `count_turns`);
- `simulation`: `simulate`, many games and their summary; `workers`: its worker processes;
- `shares`: the shares and their intervals; `progress`: the progress bar.
"""
from engine.frontends.simulate.playing import (
    DEFAULT_MAX_DECISIONS,
    InvariantFailed,
    count_turns,
    fault_record,
    make_seats,
    play_out,
    run_one,
)
from engine.frontends.simulate.progress import Progress
from engine.frontends.simulate.shares import format_share, share, wilson
from engine.frontends.simulate.simulation import simulate

__all__ = ["DEFAULT_MAX_DECISIONS", "InvariantFailed", "Progress", "count_turns", "fault_record",
           "format_share", "make_seats", "play_out", "run_one", "share", "simulate", "wilson"]
