"""Text of a `.rules` file (or of an effect field) into the syntax tree of `engine.dsl.ast`.

Syntax errors become located diagnostics. After an error the parser resumes at the next
top-level declaration, so one run reports every broken declaration of a file.

The parts, in the order the text goes through them:
  - `lark_front`: the grammar built into lark's LALR parser, and the indenter;
  - `reductions`: lark's tables and lexer driven so that each rule becomes its node of the
    syntax tree as it is read (no parse tree in between);
  - `transform`: the node of each rule, by area: `declarations`, `statements`,
    `expressions` (types included); `templates` reads the `{placeholders}` of prompts;
    `tokens`: positions and string literals, and `Located`, a rule's own error;
  - `limits`: how deep a tree may nest, and the walk that checks it;
  - `syntax_errors`: lark's exceptions as diagnostics;
  - `entry`: the entry points, with the recovery after an error, and a file's comments.
"""
from engine.dsl.parser.entry import (
    BROKEN_SETUP,
    extract_comments,
    parse_effect,
    parse_module,
    parse_module_partial,
    parse_record_decls,
)
from engine.dsl.parser.lark_front import lark_parser
from engine.dsl.parser.limits import (
    MAX_BLOCK_DEPTH,
    MAX_BRACKET_DEPTH,
    MAX_BRANCHES,
    MAX_EXPR_DEPTH,
    MAX_INT,
    MAX_LOOP_DEPTH,
)
from engine.dsl.parser.templates import (
    choice_problem,
    counted,
    numbered_template,
    plural_choice,
    plural_forms,
    split_template,
)

__all__ = [
    "BROKEN_SETUP",
    "MAX_BLOCK_DEPTH",
    "MAX_BRACKET_DEPTH",
    "MAX_BRANCHES",
    "MAX_EXPR_DEPTH",
    "MAX_INT",
    "MAX_LOOP_DEPTH",
    "choice_problem",
    "counted",
    "extract_comments",
    "lark_parser",
    "numbered_template",
    "parse_effect",
    "parse_module",
    "parse_module_partial",
    "parse_record_decls",
    "plural_choice",
    "plural_forms",
    "split_template",
]
