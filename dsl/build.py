"""Pack directory -> checked model + generated Python source, cached by content hash."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

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
    code_object: Any = None  # `code` compiled by Python, done once here

    @property
    def ok(self) -> bool:
        return self.code is not None and not any(d.severity == "error" for d in self.diagnostics)


def _cache_dir() -> Path | None:
    """Where generated modules are kept; None (no cache) when ENGINE_DSL_CACHE=off, which
    fuzzing uses so that a hundred thousand mutated packs leave no files behind."""
    if os.environ.get("ENGINE_DSL_CACHE", "").lower() in ("off", "0", "no"):
        return None
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
    for name in ("grammar.lark", "parser.py", "checker.py", "compiler.py", "pack.py",
                 "model.py", "types.py", "build.py", "yamlload.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:12]


def build_pack(root: Path) -> Build:
    src = read_pack(root)
    diags = list(src.diagnostics)
    # The rules are checked even when some files are broken, so that one run reports every
    # problem; names defined in the broken parts are "poisoned" and their uses not reported.
    try:
        result = check(src.model, src.sources)
    except RecursionError:
        diags.append(_too_big(src, "checked"))
        return Build(src, None, None, sorted(diags, key=sort_key))
    diags.extend(result.diagnostics)
    if any(d.severity == "error" for d in diags):
        return Build(src, result, None, sorted(diags, key=sort_key))
    try:
        code = _cached_code(src, result)
        code_object = compile(code, module_filename(src), "exec")
    except (RecursionError, SyntaxError, MemoryError, ValueError) as err:
        # the parser's nesting limits should make this unreachable: a last line of defence,
        # so that a pack Python cannot compile is a located error, never a traceback
        diags.append(_too_big(src, "compiled", err))
        return Build(src, result, None, sorted(diags, key=sort_key))
    return Build(src, result, code, sorted(diags, key=sort_key), code_object)


def module_filename(src: PackSource) -> str:
    """The file name generated code runs under (run-time faults look for it)."""
    return f"<pack {src.model.id} {src.hash}>"


def _too_big(src: PackSource, stage: str, err: BaseException | None = None) -> Diagnostic:
    detail = f" ({type(err).__name__}: {err})" if err is not None else ""
    return Diagnostic("E390", f"the rules could not be {stage}: they are nested too deeply or "
                      f"are too large{detail}; split long rules into procedures",
                      str(src.root / "pack.yaml"), 0, 0)


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
