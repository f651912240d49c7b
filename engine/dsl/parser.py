"""Text of a `.rules` file (or of an effect field) into the syntax tree of `engine.dsl.ast`.

Syntax errors become located diagnostics. After an error the parser resumes at the next
top-level declaration, so one run reports every broken declaration of a file.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from typing import Any, get_args

import attrs
from lark import Lark, Token, UnexpectedInput, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter
from lark.visitors import Transformer_NonRecursive

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic, DslError, source_line

# ---- limits -----------------------------------------------------------------------------
# Rules compile to Python source (engine.dsl.compile), and Python refuses source nested too
# deeply: 100 levels of indentation, 20 loops inside each other, 200 open brackets; the checker,
# compiler and formatter walk the tree recursively on Python's stack too. The limits are far
# beyond any real rule and leave room for the compiler's own wrapping: code that may ask a
# player sits 3 levels deep (def / while True / if pc ==) inside one loop, a `while` adds a
# guard one level deeper than its body, and one level of an expression can become up to 3
# brackets of Python (`list(xs[:max(n, 0)])`).
MAX_INT = 2**63 - 1  # a signed 64-bit integer: what saved games, JSON tools and databases hold
MAX_BLOCK_DEPTH = 24  # blocks inside each other; a rule's own body is the first
MAX_LOOP_DEPTH = 16  # for / while / repeat inside each other (Python: 20 loop blocks)
MAX_EXPR_DEPTH = 64  # operators, calls, indexes and list brackets inside each other
MAX_BRACKET_DEPTH = 100  # brackets inside each other, even those that only group
MAX_BRANCHES = 200  # `if` and `elif` clauses of one `if` (Python compiles elifs recursively)


class RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token) -> Iterator[Token]:
        # lark's DedentError says nothing of where: keep the line break to locate it
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise _BadDedent(token, levels) from None


class _BadDedent(DedentError):
    """A line indented to a column that no enclosing block uses. `token` is the line break
    before it: the line's first token starts where that token ends."""

    def __init__(self, token: Token, levels: list[int]):
        spaces = token.rsplit("\n", 1)[1]
        indent = spaces.count(" ") + spaces.count("\t") * RulesIndenter.tab_len  # as lark counts
        super().__init__(f"inconsistent indentation: this line is indented {indent} columns, "
                         f"but the enclosing blocks are indented "
                         f"{', '.join(str(n) for n in levels)}")
        self.line, self.col = token.end_line or 1, token.end_column or 1


@functools.cache
def _lark() -> Lark:
    return Lark.open_from_package(
        "dsl", "grammar.lark", ("",), parser="lalr", postlex=RulesIndenter(),
        propagate_positions=True, maybe_placeholders=True,
        start=["start", "effect", "expression"],
        cache=_cache_path(),
    )


def _cache_path() -> str | bool:
    """A private cache file for the built parser (3 ms to load instead of ~50 ms to build),
    in the build cache's folder (lark pickles it: see engine.dsl.cache on why that folder is safe);
    False (no cache) when that cache is off."""
    from engine.dsl.cache import cache_dir
    d = cache_dir()
    return str(d / "grammar.lark.cache") if d is not None else False


def _pos(meta: Any) -> A.Pos:
    if getattr(meta, "empty", True):
        return A.NOPOS
    return A.Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def _tpos(tok: Token) -> A.Pos:
    return A.Pos(tok.line or 0, tok.column or 0, tok.end_line or 0, tok.end_column or 0)


def _unquote(tok: Token) -> str:
    body = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _opt(x: Any) -> tuple:
    return tuple(x) if x is not None else ()


def _count(tok: Token | None) -> int:
    """How many times a duration's event must happen (`2 times`); 1 when not said."""
    if tok is None:
        return 1
    digits = str(tok).lstrip("0") or "0"
    if len(digits) > len(str(MAX_INT)) or int(digits) > MAX_INT:
        raise _Located(f"number too large: the largest is {MAX_INT} (2**63 - 1)", _tpos(tok),
                       "E105")
    return int(digits)


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    # Non-recursive: absurdly deep input (10,000 brackets or `not`s) must reach the nesting
    # limits below as a tree, not end in a RecursionError somewhere inside lark.
    # -- module and declarations
    def start(self, meta, items):
        return [i for i in items if i is not None]

    def effect(self, meta, items):
        return tuple(i for i in items if i is not None)

    def expression(self, meta, c):
        return c[0]

    def t_name(self, meta, c):
        return A.TName(str(c[0]), at=_pos(meta))

    def t_list(self, meta, c):
        return A.TList(c[0], at=_pos(meta))

    def t_optional(self, meta, c):
        return A.TOptional(str(c[0]), at=_pos(meta))

    def param(self, meta, c):
        return A.Param(str(c[0]), c[1], c[2], at=_pos(meta))

    def params(self, meta, c):
        return tuple(c)

    def params_br(self, meta, c):
        return c[0]

    def names(self, meta, c):
        return tuple(str(n) for n in c)

    def field_decl(self, meta, c):
        return A.FieldDecl(str(c[0]), c[1], c[2], at=_pos(meta))

    def var_field(self, meta, c):
        name, typ, bounds, default = c
        return A.FieldDecl(str(name), typ, default, True, bounds, at=_pos(meta))

    def created(self, meta, c):
        return True

    def type_decl(self, meta, c):
        return A.TypeDecl(str(c[0]), tuple(c[2:]), created=bool(c[1]), at=_pos(meta))

    def extend_decl(self, meta, c):
        return A.TypeDecl(str(c[0]), tuple(c[1:]), extend=True, at=_pos(meta))

    def bounds(self, meta, c):
        return (c[0], c[1])

    def visibility(self, meta, c):
        return str(c[0])

    zone_flag = trigger_kind = place = w_when = visibility

    def var_decl(self, meta, c):
        name, params, typ, bounds, default, vis = c
        return A.VarDecl(str(name), _opt(params), typ, bounds, default,
                         str(vis) if vis else "public", at=_pos(meta))

    def zone_decl(self, meta, c):
        name, params, of, *flags = c
        return A.ZoneDecl(str(name), _opt(params), str(of) if of else None,
                          tuple(str(f) for f in flags), at=_pos(meta))

    def event_decl(self, meta, c):
        return A.EventDecl(str(c[0]), _opt(c[1]), _opt(c[2]), at=_pos(meta))

    def event_block(self, meta, c):
        return A.EventDecl(str(c[0]), _opt(c[1]), tuple(c[2:]), at=_pos(meta))

    def ev_fields(self, meta, c):
        return tuple(c)

    def ev_field_line(self, meta, c):
        return c[0]

    def ev_field(self, meta, c):
        return A.FieldDecl(str(c[0]), c[1], c[2], at=_pos(meta))

    def proc_decl(self, meta, c):
        return A.ProcDecl(str(c[0]), _opt(c[1]), c[2], c[3], at=_pos(meta))

    def value_decl(self, meta, c):
        return A.ValueDecl(str(c[0]), _opt(c[1]), c[2], c[3], at=_pos(meta))

    def check_decl(self, meta, c):
        return A.CheckDecl(_unquote(c[0]), c[1], False, at=_pos(meta))

    def invariant_decl(self, meta, c):
        return A.CheckDecl(_unquote(c[0]), c[1], True, at=_pos(meta))

    def enum_value(self, meta, c):
        return A.EnumValue(str(c[0]), at=_pos(meta))

    def enum_values(self, meta, c):
        return tuple(c)

    def enum_decl(self, meta, c):
        return A.EnumDecl(str(c[0]), c[1], at=_pos(meta))

    def enum_block(self, meta, c):
        return A.EnumDecl(str(c[0]), tuple(v for line in c[1:] for v in line), at=_pos(meta))

    def const_decl(self, meta, c):
        return A.ConstDecl(str(c[0]), c[1], c[2], at=_pos(meta))

    def graph_decl(self, meta, c):
        return A.GraphDecl(str(c[0]), str(c[1]), str(c[2]), c[3], at=_pos(meta))

    # -- response windows: each clause is (keyword, value, where it is written)
    def w_by(self, meta, c):
        return ("by", c[0], _pos(meta))

    def w_from(self, meta, c):
        return ("from", (str(c[0]), c[1], c[2]), _pos(meta))

    def w_to(self, meta, c):
        return ("to", c[0], _pos(meta))

    def w_effect(self, meta, c):
        return ("effect", A.Name(str(c[0]), at=_tpos(c[0])), _pos(meta))

    def w_prompt(self, meta, c):
        return ("prompt", A.Str(_unquote(c[0]), at=_tpos(c[0])), _pos(meta))

    def w_opens(self, meta, c):
        return ("opens", A.WindowOpening(str(c[0]), str(c[1]), at=_pos(meta)), _pos(meta))

    def window_decl(self, meta, c):
        name, params, *clauses = c
        kw: dict[str, Any] = {}
        opens = []
        for key, value, at in clauses:
            if key == "opens":
                opens.append(value)
            elif key in kw:
                raise _Located(f"'{key}' given twice in window '{name}'", at, "E265")
            else:
                kw[key] = value
        for key in ("by", "from", "to"):
            if key not in kw:
                raise _Located(f"window '{name}' needs a '{key}' clause (a window says who is "
                               "asked: by, what answers it: from x in ..., and where a played "
                               "card goes: to)", _pos(meta), "E265")
        var, source, where = kw["from"]
        return A.WindowDecl(str(name), _opt(params), kw["by"], var, source, where, kw["to"],
                            kw.get("effect"), kw.get("prompt"), tuple(opens),
                            clauses=tuple((key, at) for key, _v, at in clauses), at=_pos(meta))

    def trigger_decl(self, meta, c):
        kind, event, names, cond, body = c
        return A.TriggerDecl(str(kind), str(event), names, cond, body, at=_pos(meta))

    def instead_decl(self, meta, c):
        event, names, cond, body = c
        return A.TriggerDecl("instead", str(event), names, cond, body, at=_pos(meta))

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return A.Let(str(c[0]), c[2], c[1], at=_pos(meta))

    def assign_stmt(self, meta, c):
        return A.Assign(c[0], c[1], at=_pos(meta))

    def aug_stmt(self, meta, c):
        return A.AugAssign(c[0], str(c[1]), c[2], at=_pos(meta))

    def expr_stmt(self, meta, c):
        return A.ExprStmt(c[0], at=_pos(meta))

    def action_stmt(self, meta, c):
        return A.ActionStmt(c[0], at=_pos(meta))

    def count_exact(self, meta, c):
        return A.Count("exact", None, c[0], at=_pos(meta))

    def count_up_to(self, meta, c):
        return A.Count("up_to", None, c[0], at=_pos(meta))

    def count_range(self, meta, c):
        return A.Count("range", c[0], c[1], at=_pos(meta))

    def opt_by(self, meta, c):
        return ("by", c[0])

    def opt_where(self, meta, c):
        return ("where", c[0])

    def opt_require(self, meta, c):
        return ("require", c[0])

    def opt_optional(self, meta, c):
        return ("optional", True)

    def opt_prompt(self, meta, c):
        return ("prompt", (_unquote(c[0]), _placeholders(c[0])))

    def opt_each(self, meta, c):
        return ("each", True)

    def choose(self, meta, c):
        count, var, source, *opts = c
        kw: dict[str, Any] = {}
        for key, value in opts:
            if key in kw:
                raise _Located(f"'{key}' given twice in one choice", _pos(meta), "E103")
            kw[key] = value
        if "prompt" in kw:
            kw["prompt"], kw["prompt_args"] = kw["prompt"]
        return A.Choose(count, str(var), source, at=_pos(meta), **kw)

    def ask(self, meta, c):
        return A.Ask(c[0], _unquote(c[1]), _placeholders(c[1]), at=_pos(meta))

    def order(self, meta, c):
        return A.Order(c[0], c[1], at=_pos(meta))

    def draw(self, meta, c):
        return A.Draw(c[0], c[1], c[2], at=_pos(meta))

    def open_window(self, meta, c):
        return A.Open(str(c[0]), _opt(c[1]), at=_pos(meta))

    def field_init(self, meta, c):
        return A.FieldInit(str(c[0]), c[1], at=_pos(meta))

    def field_inits(self, meta, c):
        names = [f.name for f in c]
        for i, f in enumerate(c):
            if f.name in names[:i]:
                raise _Located(f"field '{f.name}' given twice", f.at, "E103")
        return tuple(c)

    def create(self, meta, c):
        typ, inits, place, dest = c
        return A.Create(str(typ), _opt(inits), dest, str(place) if place else None,
                        at=_pos(meta))

    def destroy_stmt(self, meta, c):
        return A.Destroy(c[0], at=_pos(meta))

    def emit_stmt(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Emit(str(c[0]), args, False, kwargs, at=_pos(meta))

    def enqueue_stmt(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Emit(str(c[0]), args, True, kwargs, at=_pos(meta))

    def move_stmt(self, meta, c):
        what, place, dest = c
        return A.Move(what, dest, str(place) if place else None, at=_pos(meta))

    def shuffle_stmt(self, meta, c):
        return A.Shuffle(c[0], at=_pos(meta))

    def reveal_stmt(self, meta, c):
        return A.Reveal(c[0], c[1], at=_pos(meta))

    def until_end(self, meta, c):
        outermost, event, count, _times = c
        return A.Duration("end_of", str(event), count=_count(count),
                          outermost=outermost is not None, at=_pos(meta))

    def until_start(self, meta, c):
        event, count, _times = c
        return A.Duration("start_of", str(event), count=_count(count), at=_pos(meta))

    def until(self, meta, c):
        if len(c) == 1:
            return c[0]
        return A.Duration("any", items=tuple(c), at=_pos(meta))

    def while_holds(self, meta, c):
        return A.Duration("while", None, c[0], at=_pos(meta))

    def op_by(self, meta, c):
        return "by"

    def op_to(self, meta, c):
        return "to"

    def op_least(self, meta, c):
        return "least"

    def op_most(self, meta, c):
        return "most"

    def modify_stmt(self, meta, c):
        key, args, op, amount, duration = c
        args, kwargs = _split_args(args)
        return A.Modify(str(key), args, amount, duration, op, kwargs, at=_pos(meta))

    def set_stmt(self, meta, c):
        return A.SetUntil(c[0], c[1], c[2], at=_pos(meta))

    def win_stmt(self, meta, c):
        reason = c[1] if len(c) > 1 else None
        if reason is None:
            return A.Win(c[0], at=_pos(meta))
        args = _placeholders(reason, "reason")
        return A.Win(c[0], _unquote(reason), args, at=_pos(meta))

    def end_stmt(self, meta, c):
        reason = c[0] if c else None
        if reason is None:
            return A.EndGame(at=_pos(meta))
        return A.EndGame(_unquote(reason), _placeholders(reason, "reason"), at=_pos(meta))

    def return_stmt(self, meta, c):
        return A.Return(c[0], at=_pos(meta))

    def log_stmt(self, meta, c):
        # values after the text: a positional template ("{} takes {}") or a label; none: the
        # text's own {placeholders}, as in a prompt
        if len(c) > 1:
            return A.Log(_unquote(c[0]), tuple(c[1:]), at=_pos(meta))
        inline = _placeholders(c[0], "log text")
        return A.Log(_unquote(c[0]), inline, inline=bool(inline), at=_pos(meta))

    def pass_stmt(self, meta, c):
        return A.Pass(at=_pos(meta))

    def break_stmt(self, meta, c):
        return A.Break(at=_pos(meta))

    def continue_stmt(self, meta, c):
        return A.Continue(at=_pos(meta))

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def if_stmt(self, meta, c):
        cond, body, *rest = c
        orelse = rest.pop() if rest else None
        branches = ((cond, body),) + tuple(rest)
        return A.If(branches, orelse, at=_pos(meta))

    def for_stmt(self, meta, c):
        return A.For(str(c[0]), c[1], c[2], c[3], at=_pos(meta))

    def while_stmt(self, meta, c):
        return A.While(c[0], c[1], at=_pos(meta))

    def repeat_stmt(self, meta, c):
        return A.Repeat(c[0], c[1], at=_pos(meta))

    # -- expressions
    def or_(self, meta, c):
        return c[0] if len(c) == 1 else A.BoolOp("or", tuple(c), at=_pos(meta))

    def and_(self, meta, c):
        return c[0] if len(c) == 1 else A.BoolOp("and", tuple(c), at=_pos(meta))

    def if_expr(self, meta, c):
        return A.IfExp(c[1], c[0], c[2], at=_pos(meta))

    def not_(self, meta, c):
        return A.Not(c[0], at=_pos(meta))

    def compare(self, meta, c):
        return A.Compare(str(c[1]), c[0], c[2], at=_pos(meta))

    def in_(self, meta, c):
        return A.Compare("in", c[0], c[1], at=_pos(meta))

    def not_in(self, meta, c):
        return A.Compare("not in", c[0], c[1], at=_pos(meta))

    def binop(self, meta, c):
        return A.BinOp(str(c[1]), c[0], c[2], at=_pos(meta))

    def neg(self, meta, c):
        if isinstance(c[0], A.Int):  # keep -3 a literal so fmt round-trips
            return A.Int(-c[0].value, at=_pos(meta))
        return A.Neg(c[0], at=_pos(meta))

    def attr(self, meta, c):
        return A.Attr(c[0], str(c[1]), at=_pos(meta))

    def index(self, meta, c):
        return A.Index(c[0], c[1], at=_pos(meta))

    def int_lit(self, meta, c):
        digits = str(c[0]).lstrip("0") or "0"
        # Checked before int(): Python refuses to convert more than 4,300 digits.
        if len(digits) > len(str(MAX_INT)) or int(digits) > MAX_INT:
            raise _Located(f"number too large: the largest is {MAX_INT} (2**63 - 1)",
                           _pos(meta), "E105")
        return A.Int(int(digits), at=_pos(meta))

    def str_lit(self, meta, c):
        return A.Str(_unquote(c[0]), at=_pos(meta))

    def true_lit(self, meta, c):
        return A.Bool(True, at=_pos(meta))

    def false_lit(self, meta, c):
        return A.Bool(False, at=_pos(meta))

    def none_lit(self, meta, c):
        return A.NoneLit(at=_pos(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), at=_pos(meta))

    def call(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Call(str(c[0]), args, kwargs, at=_pos(meta))

    def list_lit(self, meta, c):
        return A.ListLit(_opt(c[0]), at=_pos(meta))

    def filter_lit(self, meta, c):
        return self._filter(meta, c[0], c[1])

    def map_lit(self, meta, c):
        return A.Comprehension(c[0], str(c[1]), c[2], c[3], at=_pos(meta))

    def args(self, meta, c):
        return tuple(c)

    def callargs(self, meta, c):
        return tuple(c)

    def gen_arg(self, meta, c):
        return (A.Comprehension(c[0], str(c[1]), c[2], c[3], at=_pos(meta)),)

    def filter_arg(self, meta, c):
        return (self._filter(meta, c[0], c[1]),)

    def lambda_(self, meta, c):
        if len(c) == 3:  # (x: T) => body
            return A.Lambda(str(c[0]), c[2], c[1], at=_pos(meta))
        return A.Lambda(str(c[0]), c[1], at=_pos(meta))

    def kwarg(self, meta, c):
        return A.KwArg(str(c[0]), c[1], at=_pos(meta))

    def _filter(self, meta, head, cond):
        # `x in source where cond`: the head must be a membership test on a plain name
        if not (isinstance(head, A.Compare) and head.op == "in" and isinstance(head.left, A.Name)):
            raise _Located("a filter reads `[x in source where condition]`", _pos(meta), "E104")
        return A.Comprehension(head.left, head.left.id, head.right, cond, at=_pos(meta))


class _Located(Exception):
    def __init__(self, message: str, at: A.Pos, code: str):
        super().__init__(message)
        self.message, self.at, self.code = message, at, code


def _split_args(items: Any) -> tuple[tuple, tuple]:
    """Positional and keyword arguments of a call; a positional one after a keyword one is
    an error (E283), as the parameter it would fill is unclear."""
    args, kwargs = [], []
    for a in _opt(items):
        if isinstance(a, A.KwArg):
            kwargs.append(a)
        elif kwargs:
            raise _Located("a positional argument after a keyword argument: give it by name "
                           "too, or put it first", a.at, "E283")
        else:
            args.append(a)
    return tuple(args), tuple(kwargs)


# ---- prompt templates -------------------------------------------------------------------
def split_template(text: str) -> list[tuple[str, str, int]]:
    """The parts of a prompt: ("text", literal, index) and ("arg", expression text, index of
    its first character), where `{expr}` is a placeholder and `{{` / `}}` are braces.
    ValueError(message, index) for a brace that is not closed or not doubled."""
    parts: list[tuple[str, str, int]] = []
    buf, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "{}" and text[i + 1:i + 2] == ch:
            buf.append(ch)
            i += 2
        elif ch == "}":
            raise ValueError("a '}' that closes no placeholder: write '}}' for a brace", i)
        elif ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise ValueError("a '{' whose placeholder is never closed: end it with '}', or "
                                 "write '{{' for a brace", i)
            if not text[i + 1:end].strip():
                raise ValueError("an empty placeholder: write an expression in it, like {x}", i)
            if buf:
                parts.append(("text", "".join(buf), i))
                buf = []
            parts.append(("arg", text[i + 1:end], i + 1))
            i = end + 1
        else:
            buf.append(ch)
            i += 1
    if buf:
        parts.append(("text", "".join(buf), n))
    return parts


def numbered_template(parts: list[tuple[str, str, int]]) -> str:
    """A split template (`split_template`) as the game keeps it: its placeholders numbered
    in order, literal braces doubled ("{l} marches to {dest}" -> "{0} marches to {1}")."""
    out, n = [], 0
    for kind, t, _i in parts:
        if kind == "arg":
            out.append(f"{{{n}}}")
            n += 1
        else:
            out.append(t.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def _raw_columns(tok: Token) -> list[int]:
    """For each character of the string token's text, its column in the source."""
    raw, cols, i = str(tok), [], 1
    while i < len(raw) - 1:
        cols.append((tok.column or 1) + i)
        i += 2 if raw[i] == "\\" else 1
    cols.append((tok.column or 1) + len(raw) - 1)  # the closing quote
    return cols


def _placeholders(tok: Token, what: str = "prompt") -> tuple[A.Expr, ...]:
    """The expressions of the `{placeholders}` of a prompt or log text, placed where they are
    written."""
    text = _unquote(tok)
    if "{" not in text and "}" not in text:
        return ()
    cols = _raw_columns(tok)
    line = tok.line or 1
    try:
        parts = split_template(text)
    except ValueError as err:
        message, index = err.args
        col = cols[min(index, len(cols) - 1)]
        raise _Located(f"bad {what}: {message}", A.Pos(line, col, line, col + 1),
                       "E285") from None
    out = []
    for kind, body, index in parts:
        if kind != "arg":
            continue
        col = cols[index]
        try:
            tree = _lark().parse(body + "\n", start="expression")
            expr = _ToAst().transform(tree)
        except (UnexpectedInput, VisitError, _BadDedent):
            end = col + len(body)
            raise _Located(f"bad placeholder {{{body}}}: not an expression", A.Pos(
                line, col, line, end), "E285") from None
        out.append(_shift(expr, line - 1, col - 1))
    return tuple(out)


# ---- nesting limits ---------------------------------------------------------------------
_STMTS = get_args(A.Stmt)
_LOOPS = (A.For, A.While, A.Repeat)
_NOT_EXPRS = (*_STMTS, *get_args(A.Decl), A.FieldDecl, A.Param, A.Module)


@functools.cache
def _shape(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """The fields of an AST class, each with whether it holds a block of statements; None
    for what is no AST node (names, numbers, positions)."""
    if not attrs.has(cls) or cls is A.Pos:
        return None
    has_body = issubclass(cls, (*_LOOPS, A.ProcDecl, A.TriggerDecl))
    return tuple((f.name, has_body and f.name == "body")
                 for f in attrs.fields(cls) if f.name != "at")


def _parts(node: Any, shape: tuple[tuple[str, bool], ...]) -> list[tuple[Any, bool]]:
    """The children of an AST node, each with whether it is a block of statements."""
    if isinstance(node, A.If):
        parts = [p for cond, body in node.branches for p in ((cond, False), (body, True))]
        return parts + [(node.orelse, True)]
    return [(getattr(node, name), is_block) for name, is_block in shape]


def _nesting_problem(nodes: Iterable[Any], blocks: int) -> _Located | None:
    """The first place, in source order, where `nodes` (declarations, or the statements of a
    block `blocks` deep) nest deeper than the limits above allow."""
    # An explicit stack: the tree may be 10,000 levels deep, and this walk is what makes the
    # recursive passes after it safe. Items: (node, blocks, loops, expression depth).
    todo: list[tuple[Any, int, int, int]] = [(n, blocks, 0, 0) for n in reversed(list(nodes))]
    while todo:
        node, blocks, loops, exprs = todo.pop()
        if isinstance(node, (tuple, list)):
            todo.extend((n, blocks, loops, exprs) for n in reversed(node))
            continue
        shape = _shape(type(node))
        if shape is None:
            continue
        if isinstance(node, _NOT_EXPRS):
            exprs = 0
        else:
            exprs += 1
            if exprs > MAX_EXPR_DEPTH and isinstance(node, A.TList):
                return _Located(f"type nested too deeply: more than {MAX_EXPR_DEPTH} 'list of' "
                                "inside each other", node.at, "E106")
            if exprs > MAX_EXPR_DEPTH:
                return _Located(f"expression nested too deeply: more than {MAX_EXPR_DEPTH} "
                                "operators, calls or brackets inside each other; split it "
                                "with 'let'", node.at, "E106")
        if isinstance(node, _STMTS) and blocks > MAX_BLOCK_DEPTH:
            return _Located(f"blocks nested too deeply: more than {MAX_BLOCK_DEPTH} levels; "
                            "move the inner blocks into a procedure", node.at, "E106")
        if isinstance(node, _LOOPS):
            loops += 1
            if loops > MAX_LOOP_DEPTH:
                return _Located(f"loops nested too deeply: more than {MAX_LOOP_DEPTH} loops "
                                "inside each other; move the inner loops into a procedure",
                                node.at, "E106")
        if isinstance(node, A.If) and len(node.branches) > MAX_BRANCHES:
            extra = node.branches[MAX_BRANCHES][0].at
            return _Located(f"too many branches: more than {MAX_BRANCHES} conditions ('if' and "
                            "'elif') in one 'if'; split it, or look the answer up in a table",
                            extra if extra.line else node.at, "E106")
        for child, is_block in reversed(_parts(node, shape)):
            if child is not None and not isinstance(child, (str, int)):
                todo.append((child, blocks + 1 if is_block else blocks, loops, exprs))
    return None


_BRACKET_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]]')


def _deep_brackets(text: str) -> list[_Located]:
    """Each bracket that opens more than MAX_BRACKET_DEPTH deep, where the depth first gets
    there (strings and comments skipped)."""
    depth, found = 0, []
    for m in _BRACKET_TOKENS.finditer(text):
        tok = m.group()
        if tok in ("(", "["):
            depth += 1
            if depth == MAX_BRACKET_DEPTH + 1:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - text.rfind("\n", 0, m.start())
                found.append(_Located(f"brackets nested too deeply: more than "
                                      f"{MAX_BRACKET_DEPTH} inside each other",
                                      A.Pos(line, col, line, col + 1), "E106"))
        elif tok in (")", "]"):
            depth = max(depth - 1, 0)
    return found


def _limit_problems(nodes: list[Any], blocks: int, text: str) -> list[_Located | None]:
    """For each of `nodes` (the declarations of `text`, or the statements of an effect), the
    first nesting limit it breaks, if any."""
    problems = [_nesting_problem([n], blocks) for n in nodes]
    for bracket in _deep_brackets(text):
        # the bracket belongs to the last node that starts before it
        owner = max((i for i, n in enumerate(nodes) if n.at.line <= bracket.at.line), default=0)
        if nodes and problems[owner] is None:
            problems[owner] = bracket
    return problems


# ---- error messages ---------------------------------------------------------------------
_TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of file",
    "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
    "AUG_OP": "'+=' or '-='", "AT_LEAST": "'at least'", "AT_MOST": "'at most'",
    "TIMES": "'times'", "ONE_AT_A_TIME": "'one at a time'",
}


def _describe(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pattern = _lark().get_terminal(term).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return term.lower()


def _expected_list(expected: set[str]) -> str:
    words = sorted({_describe(t) for t in expected if not t.startswith("__")})
    if len(words) > 8:
        return ", ".join(words[:8]) + ", ..."
    return ", ".join(words)


def _syntax_diag(err: UnexpectedInput, path: str, text: str, line_offset: int) -> Diagnostic:
    line, col = err.line or 1, err.column or 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        at_eof = tok.type == "_DEDENT" and not text[tok.end_pos or 0:].strip()
        if tok.type == "$END" or at_eof:
            what = "unexpected end of file"
        elif tok.type == "_NL":
            what = "unexpected end of line"
        elif tok.type == "_INDENT":
            what = "unexpected indentation"
        elif tok.type == "_DEDENT":
            what = "unexpected end of block"
        else:
            what = f"unexpected {str(tok)!r}"
        message = f"{what}; expected {_expected_list(err.expected)}"
        end_col = (tok.end_column or col + 1) if tok.type not in ("_NL", "$END") else col + 1
        if tok.type == "_NL" or at_eof:  # point at the end of the line, not the next one
            line, col = tok.line or line, tok.column or col
            end_col = col + 1
        elif tok.type in ("_INDENT", "_DEDENT"):
            # The token borrows the place of the line break before it, which can be lines
            # above (blank lines and comments): point at the first token of the indented line.
            line, col = tok.end_line or line, tok.end_column or col
            end_col = col + _first_token_length(source_line(text, line), col)
    elif isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        message = f"unexpected character {ch!r}"
        if ch == "'":
            message += "; strings use double quotes"
        end_col = col + 1
    elif isinstance(err, UnexpectedEOF):
        message, end_col = "unexpected end of file", col + 1
    else:  # pragma: no cover - lark raises only the three above
        message, end_col = str(err), col + 1
    if "DedentError" in type(err).__name__:
        message = "inconsistent indentation"
    pos = getattr(err, "pos_in_stream", None)
    if isinstance(err, UnexpectedToken) and err.token.start_pos is not None:
        pos = err.token.start_pos
    opened = _unclosed_bracket(text, pos if pos is not None else len(text))
    at_end = isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type in ("$END", "_DEDENT", "_INDENT"))
    if opened is not None and (opened[0] < line or at_end):  # the real mistake is further up
        bline, bcol, ch = opened
        return Diagnostic("E100", f"'{ch}' is never closed", path, bline + line_offset, bcol,
                          source_line(text, bline), bcol + 1,
                          f"close it with '{_CLOSE[ch]}' before the end of line "
                          f"{bline + line_offset}")
    return Diagnostic("E100", message, path, line + line_offset, col,
                      source_line(text, line), end_col)


_CLOSE = {"(": ")", "[": "]"}
_FIRST_TOKEN = re.compile(r"\w+|\S")


def _first_token_length(line_text: str, col: int) -> int:
    m = _FIRST_TOKEN.match(line_text, col - 1)
    return len(m.group()) if m else 1


def _unclosed_bracket(text: str, upto: int) -> tuple[int, int, str] | None:
    """The innermost bracket still open at `upto`: (line, col, char), skipping strings and
    comments."""
    stack: list[tuple[int, int, str]] = []
    line, col, i = 1, 1, 0
    in_str = in_comment = False
    while i < min(upto, len(text)):
        ch = text[i]
        if ch == "\n":
            line, col, in_comment, in_str = line + 1, 0, False, False
        elif in_comment:
            pass
        elif in_str:
            if ch == "\\":
                i, col = i + 1, col + 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#":
            in_comment = True
        elif ch in "([":
            stack.append((line, col, ch))
        elif ch in ")]" and stack:
            stack.pop()
        i, col = i + 1, col + 1
    return stack[-1] if stack else None


# ---- entry points -----------------------------------------------------------------------
def parse_module(text: str, path: str = "<rules>") -> A.Module:
    """Parse a whole `.rules` file; raise DslError listing every syntax error."""
    module, diags, _broken = parse_module_partial(text, path)
    if diags:
        raise DslError(diags)
    return module


def parse_module_partial(text: str, path: str = "<rules>"
                         ) -> tuple[A.Module, list[Diagnostic], set[str]]:
    """The declarations that parse, a diagnostic for each one that does not, and the names
    the broken ones declare: one broken declaration must not hide the rest of the file from
    the checker, nor make every use of its name a second error."""
    decls, diags = _parse_with_recovery(text, path)
    broken: set[str] = set()
    if diags:
        bad_lines = {d.line for d in diags}
        for start, chunk in _top_level_chunks(text):
            end = start + chunk.count("\n") + 1
            if any(start < ln <= end for ln in bad_lines):
                m = _DECL_NAME.match(chunk)
                if m:
                    broken.add(m.group(1))
                elif _SETUP_HANDLER.match(chunk):
                    broken.add(BROKEN_SETUP)
    return A.Module(path, tuple(decls), extract_comments(text)), diags, broken


_DECL_NAME = re.compile(r"\s*(?:type|var|zone|event|procedure|value|graph|window|enum|const)\s+"
                        r"([A-Za-z_]\w*)")
_SETUP_HANDLER = re.compile(r"\s*on\s+setup\b")
# Among the broken names: an `on setup:` handler that does not parse. No name has a space, so
# this never hides a real one; the checker then does not also say the handler is missing.
BROKEN_SETUP = "on setup"


def parse_effect(text: str, path: str = "<effect>", line: int = 1, col: int = 1
                 ) -> tuple[A.Stmt, ...]:
    """Parse a statement block embedded in a record field starting at (line, col) of `path`."""
    try:
        tree = _lark().parse(_with_newline(text), start="effect")
        stmts = _ToAst().transform(tree)
    except UnexpectedInput as err:
        d = _syntax_diag(err, path, text, line - 1)
        raise DslError([_shift_diag(d, col - 1, text, err.line or 1)]) from None
    except VisitError as err:
        raise DslError([_visit_diag(err, path, text, line - 1, col - 1)]) from None
    except _BadDedent as err:
        raise DslError([_dedent_diag(err, path, text, line - 1, col - 1)]) from None
    problem = next((p for p in _limit_problems(list(stmts), 1, text) if p is not None), None)
    if problem is not None:
        raise DslError([_located_diag(problem, path, text, line - 1, col - 1)])
    return _shift(stmts, line - 1, col - 1)


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _parse_chunk(text: str, path: str, line_offset: int
                 ) -> tuple[list[A.Decl] | None, Diagnostic | None]:
    """The declarations of `text` (a file, or one declaration starting on line
    `line_offset + 1`), or None and the syntax error."""
    try:
        tree = _lark().parse(_with_newline(text), start="start")
        return _ToAst().transform(tree), None
    except UnexpectedInput as err:
        return None, _syntax_diag(err, path, text, line_offset)
    except VisitError as err:
        return None, _visit_diag(err, path, text, line_offset, 0)
    except _BadDedent as err:
        return None, _dedent_diag(err, path, text, line_offset, 0)


def _within_limits(decls: list[A.Decl], path: str, text: str, line_offset: int
                   ) -> tuple[list[A.Decl], list[Diagnostic]]:
    """The declarations that keep to the nesting limits (moved to their place in the file),
    and a diagnostic for each one that does not."""
    ok, diags = [], []
    for decl, problem in zip(decls, _limit_problems(decls, 0, text)):
        if problem is None:
            ok.append(_shift(decl, line_offset, 0))
        else:
            diags.append(_located_diag(problem, path, text, line_offset, 0))
    return ok, diags


def _dedent_diag(err: _BadDedent, path: str, text: str, line_offset: int, col_offset: int
                 ) -> Diagnostic:
    return Diagnostic("E101", str(err), path, err.line + line_offset, err.col + col_offset,
                      source_line(text, err.line), err.col + col_offset + 1,
                      "indent it like the block it belongs to")


def _visit_diag(err: VisitError, path: str, text: str, line_offset: int, col_offset: int
                ) -> Diagnostic:
    if isinstance(err.orig_exc, _Located):
        return _located_diag(err.orig_exc, path, text, line_offset, col_offset)
    raise err


def _located_diag(err: _Located, path: str, text: str, line_offset: int, col_offset: int
                  ) -> Diagnostic:
    at = err.at
    return Diagnostic(err.code, err.message, path, at.line + line_offset, at.col + col_offset,
                      source_line(text, at.line),
                      at.end_col + col_offset if at.end_line == at.line else None)


def _parse_with_recovery(text: str, path: str) -> tuple[list[A.Decl], list[Diagnostic]]:
    decls, diag = _parse_chunk(text, path, 0)
    if decls is not None:
        return _within_limits(decls, path, text, 0)
    # Parse each top-level declaration on its own to find every error in the file.
    decls, diags = [], []
    for start, chunk in _top_level_chunks(text):
        got, d = _parse_chunk(chunk, path, start)
        if got is None:
            diags.append(d)
            continue
        ok, bad = _within_limits(got, path, chunk, start)
        decls.extend(ok)
        diags.extend(bad)
    return decls, diags or [diag]


def _top_level_chunks(text: str) -> list[tuple[int, str]]:
    """Split a file at lines that start in column 1 (declarations), keeping line numbers."""
    # only "\n" ends a line, as for the lexer (str.splitlines also splits at \f, \x1c, ...)
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", text)
    # a closing bracket in column 1 ends a declaration's bracketed expression (the formatter
    # writes long ones so): it starts no declaration of its own
    starts = [i for i, ln in enumerate(lines)
              if ln[:1] not in ("", " ", "\t", "\n", "\r", "#", ")", "]", "}")]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    bounds = starts + [len(lines)]
    return [(a, "".join(lines[a:b])) for a, b in zip(bounds, bounds[1:]) if a < b]


def _shift(node: Any, dl: int, dc: int) -> Any:
    """Move every position by (dl, dc): for chunks and for effect text inside YAML."""
    if dl == 0 and dc == 0:
        return node
    if isinstance(node, (list, tuple)):
        return type(node)(_shift(n, dl, dc) for n in node)
    if attrs.has(type(node)):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if f.name == "at" and isinstance(v, A.Pos) and v.line:
                # only the first line of an effect is indented by the YAML column
                changes["at"] = A.Pos(v.line + dl, v.col + dc, v.end_line + dl, v.end_col + dc)
            elif isinstance(v, (list, tuple)) or attrs.has(type(v)):
                changes[f.name] = _shift(v, dl, dc)
        return attrs.evolve(node, **changes) if changes else node
    return node


def _shift_diag(d: Diagnostic, dc: int, text: str, line: int) -> Diagnostic:
    return attrs.evolve(d, col=d.col + dc, end_col=(d.end_col + dc) if d.end_col else None)


_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|(#[^\n]*)')


def extract_comments(text: str) -> tuple[tuple[int, int, str], ...]:
    """(line, col, text) of every comment; strings are skipped so '#' inside them is kept."""
    out = []
    for no, line in enumerate(text.split("\n"), 1):  # line numbers as the lexer counts them
        for m in _COMMENT.finditer(line):
            if m.group(1):
                out.append((no, m.start(1) + 1, m.group(1).rstrip("\r")))
                break
    return tuple(out)




def parse_record_decls(text: str, path: str, line: int, col: int
                       ) -> tuple[list[A.Decl], list[Diagnostic]]:
    """Declarations written in a record field that starts at (line, col) of `path`."""
    decls, diags = _parse_with_recovery(text, path)
    decls = [_shift(d, line - 1, col - 1) for d in decls]
    diags = [attrs.evolve(d, line=d.line + line - 1, col=d.col + col - 1,
                          end_col=d.end_col + col - 1 if d.end_col else None) for d in diags]
    return decls, diags
