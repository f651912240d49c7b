"""The game runtime: state as plain data, the frame stack, events, triggers and decisions.

Generated pack code calls a `Runtime` as `G`. Everything in `G.s` is JSON-ready data:
frames hold a function name, a resume point and locals, never Python closures.

Order of execution (pinned by golden-trace tests; see README "Order of events"):
 1. `emit e(...)` runs e at once, nested: its `before` triggers in declaration order,
    then the first `instead of` trigger whose condition holds, or else its `on` handlers,
    then its `after` triggers.
 2. `enqueue e(...)` appends e to the queue of the innermost running event; the queue runs
    in order after that event's `after` triggers, each queued event nested in turn.
 3. When an event finishes, modifiers lasting `until end of` it expire (and temporary sets
    give their var its value back); those lasting `until e` expire when e starts (see
    engine.core.runtime.modifiers for the data). A trigger's `if` condition is read just
    before it runs.

One concept per module, each a mixin built on `state.RuntimeState` (the attributes) and
on the parts it uses, composed as `Runtime` in `runtime`:
  state       the attributes, and the short names generated code reads (G.s, G.v, ...)
  budget      the step budget and size caps
  loop        the run loop: frames run, decisions answered, rules run outside it
  events      the event queue: events, triggers, calls, effects
  decisions   asking a side: decisions, windows, one-at-a-time choices
  modifiers   vars written, modifiers and durations, and their expiry
  zones       where records lie: move, draw, shuffle, reveal
  records     records made in play: create, destroy
  fields      record fields, `having`, the pack's data
  chance      dice, shuffles and picks: seeded or supplied
  log         the log, the end of the game, the rules running at a fault
  undo        watching reads while a decision may be undone, barriers
  watchers    the watched views of zones, vars and fields
  faults      where a rule broke, in the designer's words
  signals     the run-loop codes, STOP and GameOver
"""
from engine.core.runtime.decisions import MAX_ENUMERATION, enumerate_many
from engine.core.runtime.faults import broke, describe_rule, rule_location, rule_site
from engine.core.runtime.runtime import Runtime
from engine.core.runtime.signals import DONE, PUSHED, STOP, SUSPEND, GameOver

__all__ = ["DONE", "MAX_ENUMERATION", "PUSHED", "STOP", "SUSPEND", "GameOver", "Runtime",
           "broke", "describe_rule", "enumerate_many", "rule_location", "rule_site"]
