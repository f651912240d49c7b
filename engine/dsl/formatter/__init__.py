"""Canonical text of a rules file (`engine fmt`): the syntax tree printed back, comments kept.

Style: 4-space indentation, spaces around binary operators, the fewest parentheses the
precedence allows, `choose` options in a fixed order (by, where, require, optional, prompt).

Width: no line passes WIDTH (99) columns where a break can help. Statements and declarations
are documents (`Doc`: `Text`, `Seq`, `Brackets`, `Chain`) built by a plain dispatch on the
node type (`simple_stmt_doc`, `one_line_decl_doc`, `header_doc`, `expr_doc`); the layout
engine breaks any of them inside brackets (where the parser joins lines): items on one line
of their own or one per line, names filling lines; one operand of a chain per line, in
parentheses of its own if it has no bracket, a first operand that is a name keeping the
next on its line; a comprehension's clauses, `if`/`else` branches. Outside brackets a
statement breaks only at its joints (`JOINT`, a `choose`'s options), the line ending in a
backslash. A word (a name, `a.b`, `f(x)`, `a[i]`) never breaks unless it is longer than a
line. A new statement plugs in as a branch of `simple_stmt_doc` returning
`S("keyword ", expr, " to ", expr)` (expressions break where they can; `S("a", JOINT,
" by ", e)` may go on after a backslash before ` by`) or a plain string (never broken).
The layout depends on the tree only, never on positions or comments; so printing is
idempotent.

Blank lines: a block declaration (type, procedure, trigger) always has one blank line
before and after it; between one-line declarations, between statements and between
comments, one blank line is kept where the source had at least one; never at the start of
a block, nor right before `elif`/`else:` unless comments stand there.

Comments (`Module.comments`, placed by line number):
  - a comment on a line of a statement or declaration is printed at the end of the printed
    line where the code before it went (two spaces away; a statement printed on one line
    takes all of them); a comment on a line of its own inside a statement broken over
    several lines stays on a line of its own, before the code that followed it; neither
    may follow a line ending in a backslash: it goes after the last line joined to it;
  - a comment on a line of its own between statements is printed before the next statement
    or declaration, at its indentation; after the last statement of a block it stays at the
    end of that block if it was indented at least as deep as the block, else it moves
    outwards;
  - comments after the last declaration stay at the end of the file.

The tree does not record the line of an `else:` or `elif`, nor the closing brackets of
parentheses it drops; `format_source` finds them in the text. Without the text
(`format_module(m)`), comments between the last statement of the branch before and the first
of the else block go before `else:` (or, indented as deep as that branch, to its end).

A name that is a keyword (the contextual lexer allows `(order).x`) keeps its parentheses
where the keyword could stand. `parse_module(format_module(m)) == m` for every module the
parser can produce, and `format_source` is idempotent.

The parts: `documents` (the documents and the page's measures), `expressions` (expressions
and types as documents, `S`, `listing`), `statements` and `declarations` (theirs),
`layout` (the layout engine), `source_lines` (where a node stands in the source),
`printer` (lines, comments and blank lines: `format_module`, `format_source`).
"""
from engine.dsl.formatter.documents import JOINT, WIDTH
from engine.dsl.formatter.expressions import S, expr_doc, format_expr, format_type, listing, quote
from engine.dsl.formatter.layout import layout
from engine.dsl.formatter.printer import format_module, format_source

__all__ = [
    "JOINT",
    "WIDTH",
    "S",
    "expr_doc",
    "format_expr",
    "format_module",
    "format_source",
    "format_type",
    "layout",
    "listing",
    "quote",
]
