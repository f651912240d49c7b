"""Checked rules into Python source (engine.dsl.compile.module): the lowering of
expressions and statements, the resumable-state transform of rules that may wait for a
player (machine), the optimisation passes, each in its module (loops, hoist, inline,
static, memo, recursion, index, tables, uncharged, visibility, compare), and the tables
of the generated module (registry)."""
from engine.dsl.compile.module import compile_pack

__all__ = ["compile_pack"]
