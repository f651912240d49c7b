"""`engine balance`: many bot games of a pack, per bot pairing, and a page of what they show
(win shares with their intervals, end reasons, game lengths, cards played and how, the
first player's share, tracked values by turn), maybe beside a second version of the pack.

- `records`: what one game yields, as plain data, read from its log;
- `collect`: the games played on the simulate pool, kept as JSON lines, resumably;
- `report`: the aggregates; `plots`: their PNGs (matplotlib, the `balance` extra);
- `page`: the HTML page, every text of a pack escaped; `run`: a whole run, from the jobs to
  the page.
"""
