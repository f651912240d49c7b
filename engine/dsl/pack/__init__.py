"""Read a pack directory into a `PackModel`: pack.yaml, record files and rule files.

Every problem becomes a located diagnostic; loading goes on after an error so that one run
reports all of them.

The parts: `loader` (`read_pack`, the order of the reading, `PackSource`), and the areas it
combines, each a subclass of `reader.PackReader` (the files read, the diagnostics, which
pack a file belongs to): `imports` (the packs a pack imports), `meta` (pack.yaml),
`declarations` (the rule files' declarations), `provenance` (where the facts come from),
`records` and `disagreements` (the record files). Beside them: `words` (reserved words,
keywords, known keys), `values` (YAML values shown and compared, literal expressions),
`table_keys` (a table's row and column keys) and `windows` (the rule a window runs).
"""
from engine.dsl.files import printable_path, refused_file
from engine.dsl.pack.loader import PackSource, read_pack
from engine.dsl.pack.table_keys import key_matcher
from engine.dsl.pack.values import NOT_LITERAL, literal_value, show_value
from engine.dsl.pack.windows import window_body
from engine.dsl.pack.words import KEYWORDS

__all__ = [
    "KEYWORDS",
    "NOT_LITERAL",
    "PackSource",
    "key_matcher",
    "literal_value",
    "printable_path",
    "read_pack",
    "refused_file",
    "show_value",
    "window_body",
]
