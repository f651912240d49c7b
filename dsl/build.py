"""Pack directory -> checked model + generated Python source, cached by content hash."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import attrs

from dsl.checker import CheckResult, check
from dsl.compiler import compile_pack
from dsl.errors import Diagnostic, sort_key
from dsl.pack import PackSource, read_pack



@attrs.define
class Build:
    source: PackSource
    check: CheckResult | None
    code: str | None
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.code is not None and not any(d.severity == "error" for d in self.diagnostics)


def _cache_dir() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = Path(base) / "engine-dsl" / "packs"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d


def _compiler_hash() -> str:
    """Generated code depends on the language's own sources: any change there is a new key."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("grammar.lark", "parser.py", "checker.py", "compiler.py", "pack.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:12]


def build_pack(root: Path) -> Build:
    src = read_pack(root)
    diags = list(src.diagnostics)
    # The rules are checked even when some files are broken, so that one run reports every
    # problem; names defined in the broken parts are "poisoned" and their uses not reported.
    result = check(src.model, src.sources)
    diags.extend(result.diagnostics)
    if any(d.severity == "error" for d in diags):
        return Build(src, result, None, sorted(diags, key=sort_key))
    code = _cached_code(src, result)
    return Build(src, result, code, sorted(diags, key=sort_key))


def _cached_code(src: PackSource, result: CheckResult) -> str:
    """The generated module, reused from the cache when the pack's files are unchanged."""
    cache = _cache_dir()
    name = f"{src.model.id}-{src.hash}-{_compiler_hash()}.py"
    if cache is not None and (cache / name).is_file():
        return (cache / name).read_text(encoding="utf-8")
    code = compile_pack(src.model, result)
    if cache is not None:
        tmp = cache / (name + f".{os.getpid()}.tmp")
        try:
            tmp.write_text(code, encoding="utf-8")
            os.replace(tmp, cache / name)
        except OSError:
            pass
    return code
