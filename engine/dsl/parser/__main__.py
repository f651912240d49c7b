"""`python -m engine.dsl.parser [--check]`: write the parse tables shipped beside the grammar
(engine.dsl.parser.tables), or exit 1 if they are not the grammar's."""
from __future__ import annotations

import sys

import lark

from engine.dsl.parser.lark_front import built_parser
from engine.dsl.parser.tables import GRAMMAR, TABLES, shipped, tables_text


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        if shipped() is not None:
            return 0
        print(f"{TABLES} is not the tables of {GRAMMAR} for lark {lark.__version__}: run "
              "python -m engine.dsl.parser", file=sys.stderr)
        return 1
    TABLES.write_text(tables_text(built_parser()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
