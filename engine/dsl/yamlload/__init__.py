"""Safe, located YAML loading for pack record files.

Why not `yaml.safe_load`: it follows YAML 1.1 (`no` is False, `0777` is 511),
keeps no positions, and lets a duplicate key silently win. Pack authors need
`file:line:col` for every value, and game files are full of values that
YAML 1.1 quietly misreads, so we resolve scalars with YAML 1.2 core rules and
turn the ambiguous spellings into errors.

We build values from the parser's event stream rather than from
`yaml.compose()`: events carry the same marks, say directly whether a tag was
written, and walking them needs no recursion (composing with the C loader
crashes the interpreter on very deep nesting).

Codes reported here:
  E001  not readable YAML: syntax, bad character, several documents, unknown alias
  E002  duplicate key in a mapping
  E003  ambiguous unquoted value yes/no/on/off/y/n
  E004  number in a refused form: leading zero, underscore, 0x/0o/0b, 1e3
  E005  unsupported tag, or a value that does not fit its standard tag
  E006  unsupported structure: recursive alias, non-scalar key, bad merge, too deep
  E007  aliases expand the document past MAX_ALIAS_NODES values (a "billion laughs")
  E008  number too long (over MAX_NUMBER_LENGTH characters) or too large for a float

Values are returned alongside non-fatal errors (E002-E006, E008) so callers can
report more than one problem per run; E001, E007 and "too deep" (E006) lose the
data. Callers must treat the data as unusable whenever an error-severity
diagnostic came back.

The parts: `located` (`Loc`, and the mappings and lists that remember where their items
were written), `scalars` (YAML 1.2 core resolution of scalars, the refused forms), and
`builder` (the event stream into located values, with the limits on depth and aliases:
`load_yaml`).
"""
from engine.dsl.yamlload.builder import MAX_ALIAS_NODES, MAX_DEPTH, TEXT_PER_NODE, load_yaml
from engine.dsl.yamlload.located import Loc, YList, YMap, loc_of
from engine.dsl.yamlload.scalars import MAX_NUMBER_LENGTH, Problem, resolve_plain, resolve_tagged

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_NUMBER_LENGTH",
    "TEXT_PER_NODE",
    "Loc",
    "Problem",
    "YList",
    "YMap",
    "load_yaml",
    "loc_of",
    "resolve_plain",
    "resolve_tagged",
]
