"""The checker: name resolution, types and arity of every rule before anything runs.

It annotates expression nodes (by identity) with their type and what each name refers to;
the compiler reads those annotations (`CheckResult`). It also works out which procedures,
triggers and events may suspend for a player's decision, so that the compiler can turn
everything else into plain Python calls.

One module per concept, each a class building on those below it: state (the pack, the
annotations, diagnostics), events (event state), expressions, lambdas, graphs, builtins,
calls, actions, targets, modifiers, statements, rules; beside them constants and
declarations, and the suspension analysis; `checker` composes them and runs them in order.
After a clean check, `unread` finds the data nothing reads (engine.dsl.build runs it).
"""
from engine.dsl.check.builtins import BUILTINS
from engine.dsl.check.checker import Checker, check
from engine.dsl.check.graphs import graph_slots
from engine.dsl.check.result import BoundArgs, CheckResult, Resolution
from engine.dsl.check.scope import Scope

__all__ = ["BUILTINS", "BoundArgs", "CheckResult", "Checker", "Resolution", "Scope", "check",
           "graph_slots"]
