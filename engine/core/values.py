"""A pack's `value` declarations called from Python with plain data: the arguments bound
(by position or name, defaults filled in) and checked against the parameters' types, records
and sides by id. `CompiledPack.call_value` calls them on the pack's state before set-up,
`Game.value` on a game's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.core.packdata import PackData
    from engine.core.runtime import Runtime
    from engine.dsl.ast import ValueDecl


def value_call(pack: PackData, rt: Runtime, name: str, args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The generated function of the `value` declaration `name` and its arguments bound
    and checked on `rt` (as `CompiledPack.call_value` takes them; `Game.value` calls it
    on a game's runtime): KeyError for an unknown name, TypeError for wrong arguments."""
    from engine.dsl.errors import did_you_mean
    decl = pack.model.values.get(name)
    if decl is None:
        hint = did_you_mean(name, pack.model.values)
        known = ", ".join(sorted(pack.model.values)) or "none"
        raise KeyError(f"pack '{pack.id}' has no value '{name}'"
                       + (f"; {hint}" if hint else f" (values: {known})"))
    bound = _bind_value_args(pack, rt, name, decl, args, kwargs)
    _check_value_args(pack, name, decl, bound)
    return pack.ns["VALUES"][name], bound


def _bind_value_args(pack: PackData, rt: Runtime, name: str, decl: ValueDecl,
                     args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """`args` and `kwargs` in parameter order, defaults filled in (TypeError for a name that
    is no parameter, one given twice, or one left out that has no default)."""
    fill = pack.ns["VALUE_DEFAULTS"].get(name)
    if not kwargs and (len(args) >= len(decl.params) or fill is None):
        return args  # nothing to fill in: a count that is wrong is told by _check_value_args
    from engine.dsl.errors import did_you_mean
    names = [p.name for p in decl.params]
    slots: dict[str, Any] = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            hint = did_you_mean(key, names)
            raise TypeError(f"value '{name}' has no parameter '{key}'" + (f"; {hint}" if hint
                            else f" (parameters: {', '.join(names)})"))
        if key in slots:
            raise TypeError(f"value '{name}': '{key}' is given twice")
        slots[key] = value
    defaults = rt.call_rule(fill) if fill is not None else {}
    missing = [n for n in names if n not in slots and n not in defaults]
    if missing:
        raise TypeError(f"value '{name}' needs {', '.join(map(repr, missing))}")
    return tuple(slots[n] if n in slots else defaults[n] for n in names)


def _check_value_args(pack: PackData, name: str, decl: ValueDecl,
                      args: tuple[Any, ...]) -> None:
    """TypeError unless `args` fit the parameters of value `name` (count; records and sides
    by id, whole numbers, true/false, text)."""
    from engine.dsl.ast import TOptional
    from engine.dsl.types import from_ast, show
    params = [(p.name, from_ast(p.type), isinstance(p.type, TOptional)) for p in decl.params]
    shown = ", ".join(f"{n}: {show(t)}{'?' * opt}" for n, t, opt in params)
    if len(args) != len(params):
        raise TypeError(f"value '{name}' takes {len(params)} argument"
                        f"{'s' * (len(params) != 1)} ({shown}), got {len(args)}")
    for (pname, t, optional), arg in zip(params, args):
        if not (optional and arg is None or _fits(pack, t, arg)):
            article = "an" if show(t)[0] in "aeiou" else "a"
            raise TypeError(f"value '{name}': argument '{pname}' is {article} {show(t)}, not "
                            f"{arg!r}")


def _fits(pack: PackData, t: Any, arg: Any) -> bool:
    """Does `arg` (plain data, records and sides by id) fit the checker type `t`?"""
    if isinstance(t, tuple):  # list of X
        return isinstance(arg, list) and all(_fits(pack, t[1], a) for a in arg)
    if t == "int":
        return isinstance(arg, int) and not isinstance(arg, bool)
    if t == "bool":
        return isinstance(arg, bool)
    if t == "text":
        return isinstance(arg, str)
    if t == "side":
        return isinstance(arg, str) and arg in pack.side_set
    if t in pack.model.enums:
        return isinstance(arg, str) and arg in pack.model.enum_values(t)
    if t in pack.by_type:
        return isinstance(arg, str) and arg in pack.by_type[t]
    return True
