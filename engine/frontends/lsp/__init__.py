"""`engine lsp`: a language server for a pack's files (pygls, the `lsp` extra), over stdio.

As a designer types, the pack of the file (the nearest folder above it with a pack.yaml) is
checked again (engine.dsl.workspace: only the changed file is parsed) and the diagnostics of
`engine validate` are shown in each file of the pack they are in, rules and record files
alike; hover shows a record's fields and names in each language, a procedure's signature
and the rule it cites, a built-in's signature; go to definition, find references,
completion of names, built-ins, keywords and, after `x.`, the fields of x's type, and
formatting as `engine fmt` does it.

The parts: `words` (the names of a line, outside comments and strings), `symbols` (what a
name stands for, where it is declared and used), `hover`, `completion`, `packs` (the open
packs and the diagnostics per file), and `server` (pygls: the requests, and the client's
positions). Only `server` imports pygls, and only `engine lsp` imports `server`.
"""
