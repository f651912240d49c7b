"""The Lark front of the parser: the grammar (`engine/dsl/grammar.lark`) built once into an
LALR parser, with the indenter that turns indentation into _INDENT / _DEDENT tokens.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator

from lark import Lark, Token
from lark.indenter import DedentError, Indenter

from engine.dsl.cache import cache_dir


class RulesIndenter(Indenter):
    """Indentation as _INDENT / _DEDENT tokens (none inside brackets), tabs as 4 columns."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        # a count of brackets and blocks for each text: the placeholders of a prompt are
        # parsed while the rule around them still is (engine.dsl.parser.reductions)
        restart: Callable[..., Iterator[Token]] = Indenter.process
        return restart(copy.copy(self), stream)

    def handle_NL(self, token: Token) -> Iterator[Token]:
        # lark's DedentError says nothing of where: keep the line break to locate it
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise BadDedent(token, levels) from None


class BadDedent(DedentError):
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
def lark_parser() -> Lark:
    """The parser of the grammar, with three start rules: a file, an effect, an expression;
    from the tables shipped beside the grammar (engine.dsl.parser.tables) when they are its."""
    from engine.dsl.parser.tables import shipped
    tables = shipped()
    if tables is None:
        return built_parser()
    load: Callable[..., Lark] = Lark._load_from_dict  # as lark's own cache and standalone do
    return load(*tables, postlex=RulesIndenter())


def built_parser() -> Lark:
    """The parser built from the grammar (lark keeps what it built in the build cache)."""
    return Lark.open_from_package(
        "engine.dsl", "grammar.lark", ("",), parser="lalr", postlex=RulesIndenter(),
        propagate_positions=True, maybe_placeholders=True,
        start=["start", "effect", "expression"],
        cache=_cache_path(),
    )


def _cache_path() -> str | bool:
    """A private cache file for the built parser (3 ms to load instead of ~50 ms to build),
    in the build cache's folder (lark pickles it: see engine.dsl.cache on why that folder is safe);
    False (no cache) when that cache is off."""
    d = cache_dir()
    return str(d / "grammar.lark.cache") if d is not None else False


def with_newline(text: str) -> str:
    """`text` ending in a line break, as every rule of the grammar does."""
    return text if text.endswith("\n") else text + "\n"
