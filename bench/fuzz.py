"""Mutation fuzzer over every pack: a test (no input may crash or hang) and a benchmark.

Run: python bench/fuzz.py --inputs N [--workers W] [--seed S] [--packs a,b] [--timeout T]
     python bench/fuzz.py [--seed S] --replay PACK:INPUT      (one input, in-process)
     python bench/fuzz.py [--seed S] --dump PACK:INPUT DIR    (write the mutated pack)

Each input is a pack (shipped under content/, or a test pack under tests/packs/ and
bench/packs/) with one to a few seeded edits to its text files, or, for the target
`rules-text`, rules text drawn from the grammar strategies of tests/dsl_strategies.py. It
goes through build (read, check, compile), instantiate, the pack's checks and, for a
playable pack, a new game, up to 40 random moves, every side's view and a save/load round
trip. Outcomes:
  built-ok     everything ran
  diagnostics  the build reported errors (or PackError): what a broken pack should give
  fault        EngineFault while running rules: a located run-time fault of a broken rule
  crash        any other exception: a bug
  hang         the input took longer than the timeout (its worker is killed and replaced)
Input k of pack P with seed S is always the same mutated pack. The exit code is 1 when any
crash or hang was seen.
"""
from __future__ import annotations

import argparse
import faulthandler
import linecache
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUTCOMES = ("built-ok", "diagnostics", "fault", "crash", "hang")
RULES_TEXT = "rules-text"  # the target fed from the grammar strategies, not from a pack
MAX_MOVES = 40
WORKER_MEMORY = 4 << 30  # bytes of address space per worker: a blow-up is a MemoryError
WALL_FACTOR = 5  # a hang in wall-clock time, whatever the CPU time says
WORKER_INPUTS = 300  # a worker is replaced after this many inputs, to bound leaks

# ---- targets -------------------------------------------------------------------------------


@dataclass
class Target:
    """One thing to mutate: a pack's text files (relative path -> text), or the rules-text
    generator (no files)."""

    name: str
    files: dict[str, str]
    names: list[str] = field(default_factory=list)  # record ids and declared names

    @property
    def is_pack(self) -> bool:
        return self.name != RULES_TEXT


def pack_roots() -> list[Path]:
    """Every shipped pack, then the test packs and the benchmark packs."""
    from engine.dsl.places import content_root, find_packs
    return (find_packs(content_root()) + find_packs(ROOT / "tests" / "packs")
            + find_packs(ROOT / "bench" / "packs"))


def read_target(root: Path, name: str | None = None) -> Target:
    """The files a pack build reads (pack.yaml, *.yaml, *.rules), and the names they define."""
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".yaml", ".rules")}
    return Target(name or root.name, files, sorted(_defined_names(files)))


_ID = re.compile(r"\bid:\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)")
_DECL = re.compile(r"^(?:type|var|zone|event|procedure|value|graph)\s+([A-Za-z_][A-Za-z0-9_]*)",
                   re.M)


def _defined_names(files: dict[str, str]) -> set[str]:
    found: set[str] = set()
    for text in files.values():
        found.update(_ID.findall(text))
        found.update(_DECL.findall(text))
    return found


def all_targets(only: list[str] | None = None) -> list[Target]:
    """The packs (and rules-text) to fuzz, all of them or those named in `only`."""
    roots = pack_roots()
    seen = Counter(root.name for root in roots)
    # a pack named like another one elsewhere goes by parent/name
    targets = [read_target(root, root.name if seen[root.name] == 1
                           else f"{root.parent.name}/{root.name}") for root in roots]
    if rules_text_available():
        targets.append(Target(RULES_TEXT, {}))
    if only:
        known = {t.name: t for t in targets}
        missing = [n for n in only if n not in known]
        if missing:
            raise SystemExit(f"fuzz: no pack {', '.join(missing)} (packs: {', '.join(known)})")
        targets = [known[n] for n in only]
    return targets


# ---- mutations ---------------------------------------------------------------------------

def _grammar_words() -> tuple[list[str], list[str]]:
    text = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    keywords = sorted(set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', text)))
    symbols = sorted(set(re.findall(r'"([^A-Za-z0-9_"\s][^"\s]*)"', text)) - {"([^"})
    return keywords, symbols


KEYWORDS, SYMBOLS = _grammar_words()
YAML_TOKENS = ["&a ", "*a", "- ", "-", "{", "}", "[", "]", "!!str ", "!!int ", "!!map ", "? ",
               ": ", "|", ">", "---\n", "...\n", "~", "null", "'", '"', "<<: *a", "%YAML 1.1\n",
               "@", "`", "yes", "no", ".inf", "0x1F", "1e400", "2001-12-14", ","]
LAYOUT_TOKENS = [":", "(", ")", "[", "]", "    ", "\t", "\n", "\n    ", "\n        ", "\\\n",
                 "#", "=", ".", ",", "..", "->", "=>", '"', "\r\n", "\ufeff"]
NUMBERS = ["0", "-1", "1", "99999999999999999999", str(2**63), "-" + str(2**31), "1000000",
           "007", "1_000", "3.5", "-0"]
HUGE_NUMBER = "9" * 5000  # past int('...')'s 4,300-digit limit
CHARS = ("abcxyz_019 :-#\"'\\[](){}&*!|>%@`,.=\t\n\x00\x7f\u00e9\u200b\ufeff\U0001f600"
         "\ud7ff\u2028")


def _random_token(rnd: random.Random, target: Target) -> str:
    pool = rnd.choice(["keyword", "keyword", "symbol", "layout", "yaml", "yaml", "number",
                       "name", "name"])
    if pool == "keyword":
        return rnd.choice(KEYWORDS)
    if pool == "symbol":
        return rnd.choice(SYMBOLS)
    if pool == "layout":
        return rnd.choice(LAYOUT_TOKENS)
    if pool == "yaml":
        return rnd.choice(YAML_TOKENS)
    if pool == "number":
        return HUGE_NUMBER if rnd.random() < 0.05 else rnd.choice(NUMBERS)
    return rnd.choice(target.names) if target.names else rnd.choice(KEYWORDS)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _delete_line(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    lines = _lines(text)
    i = rnd.randrange(len(lines))
    return "".join(lines[:i] + lines[i + 1:]), f"delete line {i + 1}"


def _duplicate_line(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    lines = _lines(text)
    i = rnd.randrange(len(lines))
    j = rnd.randrange(len(lines) + 1)
    return "".join(lines[:j] + [lines[i]] + lines[j:]), f"copy line {i + 1} before line {j + 1}"


def _duplicate_block(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    # a whole record or declaration twice: duplicate ids and names, repeated keys
    lines = _lines(text)
    i = rnd.randrange(len(lines))
    j = min(len(lines), i + rnd.randint(2, 12))
    return "".join(lines[:j] + lines[i:j] + lines[j:]), f"copy lines {i + 1}-{j} after {j}"


def _reindent(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    # nesting changes: a YAML value under another key, a statement out of its block
    lines = _lines(text)
    i = rnd.randrange(len(lines))
    if rnd.random() < 0.5 and lines[i][:1] in (" ", "\t"):
        lines[i] = lines[i][rnd.choice([1, 2, 4]):]
        return "".join(lines), f"dedent line {i + 1}"
    pad = rnd.choice(["  ", "    ", " ", "\t"])
    lines[i] = pad + lines[i]
    return "".join(lines), f"indent line {i + 1} by {pad!r}"


def _swap_lines(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    lines = _lines(text)
    i = rnd.randrange(len(lines))
    # mostly neighbours (keeps the structure nearly right), sometimes any two lines
    j = (i + 1 if i + 1 < len(lines) else max(i - 1, 0)) if rnd.random() < 0.6 \
        else rnd.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines), f"swap lines {i + 1} and {j + 1}"


def _flip_char(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    if not text:
        return text, "flip nothing (empty file)"
    i = rnd.randrange(len(text))
    c = rnd.choice(CHARS)
    return text[:i] + c + text[i + 1:], f"replace char {i} by {c!r}"


def _insert_char(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    i = rnd.randrange(len(text) + 1)
    c = rnd.choice(CHARS)
    return text[:i] + c + text[i:], f"insert {c!r} at char {i}"


def _insert_token(text: str, rnd: random.Random, target: Target) -> tuple[str, str]:
    # at a word boundary half the time, so that tokens land where a parser looks for them
    i = rnd.randrange(len(text) + 1)
    if rnd.random() < 0.5:
        bounds = [m.start() for m in re.finditer(r"\b|\n", text)] or [i]
        i = rnd.choice(bounds)
    tok = _random_token(rnd, target)
    sep = rnd.choice(["", " ", " "])
    shown = tok if len(tok) < 40 else f"{tok[:8]}...({len(tok)} chars)"
    return text[:i] + tok + sep + text[i:], f"insert {shown!r} at char {i}"


def _replace_word(text: str, rnd: random.Random, target: Target) -> tuple[str, str]:
    words = list(re.finditer(r"[A-Za-z_][A-Za-z0-9_]*|\d+", text))
    if not words:
        return _insert_token(text, rnd, target)
    m = rnd.choice(words)
    tok = _random_token(rnd, target)
    shown = tok if len(tok) < 40 else f"{tok[:8]}...({len(tok)} chars)"
    return text[:m.start()] + tok + text[m.end():], f"replace {m.group()!r} by {shown!r}"


def _change_number(text: str, rnd: random.Random, target: Target) -> tuple[str, str]:
    # keeps the syntax: reaches the checks and the play of a pack that still builds
    nums = list(re.finditer(r"(?<![A-Za-z_0-9])\d+(?![A-Za-z_0-9])", text))
    if not nums:
        return _insert_token(text, rnd, target)
    m = rnd.choice(nums)
    n = int(m.group())
    new = rnd.choice([str(n + 1), str(max(n - 1, 0)), "0", "1", "2", str(n * 10), "-1",
                      "99999999999999999999", "100000"])
    return text[:m.start()] + new + text[m.end():], f"number {m.group()} -> {new} at {m.start()}"


OPERATORS = ["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "and", "or", "in",
             "not in"]


def _change_operator(text: str, rnd: random.Random, target: Target) -> tuple[str, str]:
    ops = list(re.finditer(r"(?<=\s)(<=|>=|==|!=|[-+*/%<>]|and|or|not in|in)(?=\s)", text))
    if not ops:
        return _insert_token(text, rnd, target)
    m = rnd.choice(ops)
    new = rnd.choice(OPERATORS)
    return text[:m.start()] + new + text[m.end():], f"{m.group()!r} -> {new!r} at {m.start()}"


def _swap_name(text: str, rnd: random.Random, target: Target) -> tuple[str, str]:
    # another name the pack defines: often still well-typed, a wrong record or a wrong kind
    known = set(target.names)
    uses = [m for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text) if m.group() in known]
    if not uses or len(known) < 2:
        return _replace_word(text, rnd, target)
    m = rnd.choice(uses)
    new = rnd.choice(target.names)
    return text[:m.start()] + new + text[m.end():], f"name {m.group()!r} -> {new!r} at {m.start()}"


def _truncate(text: str, rnd: random.Random, _t: Target) -> tuple[str, str]:
    i = rnd.randrange(len(text) + 1)
    return text[:i], f"truncate at char {i} of {len(text)}"


MUTATIONS: list[tuple[Callable[[str, random.Random, Target], tuple[str, str]], int]] = [
    (_delete_line, 3), (_duplicate_line, 3), (_duplicate_block, 2), (_swap_lines, 3),
    (_reindent, 2), (_flip_char, 3),
    (_insert_char, 3), (_insert_token, 6), (_replace_word, 4), (_truncate, 1),
    (_change_number, 4), (_change_operator, 3), (_swap_name, 3),
]


def input_rng(seed: int, pack: str, number: int) -> random.Random:
    """The random source of one input: the same (seed, pack, input) -> the same edits.
    A string seed is hashed with SHA-512, independent of PYTHONHASHSEED."""
    return random.Random(f"fuzz:{seed}:{pack}:{number}")


def _pick_file(files: dict[str, str], rnd: random.Random) -> str:
    """A file to edit, larger ones more often (but pack.yaml, small, still often)."""
    paths = sorted(files)
    return rnd.choices(paths, [len(files[p]) ** 0.5 + 10 for p in paths])[0]


def mutate(target: Target, seed: int, number: int) -> tuple[dict[str, str], list[str]]:
    """The files of input `number` of `target` and a description of each edit."""
    if not target.is_pack:
        return rules_text_pack(seed, number)
    rnd = input_rng(seed, target.name, number)
    files = dict(target.files)
    edits = []
    fns, weights = zip(*MUTATIONS)
    for _ in range(rnd.choice([1, 1, 1, 2, 2, 3, 4])):
        path = _pick_file(files, rnd)
        fn = rnd.choices(fns, weights)[0]
        files[path], what = fn(files[path], rnd, target)
        edits.append(f"{path}: {what}")
    return files, edits


# ---- rules text from the grammar strategies ------------------------------------------------

MINIMAL_PACK_YAML = "id: fuzz\nname: Fuzzed rules\nversion: 0.0.1\nsides: [red, blue]\n"


def _strategies() -> Any:
    """tests/dsl_strategies.py (needs Hypothesis, a test dependency), or None."""
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        import dsl_strategies
        from hypothesis.control import BuildContext  # noqa: F401
        from hypothesis.internal.conjecture.data import ConjectureData  # noqa: F401
        return dsl_strategies
    except ImportError:
        return None
    finally:
        sys.path.remove(str(ROOT / "tests"))


def rules_text_available() -> bool:
    return (ROOT / "tests" / "dsl_strategies.py").is_file() and _strategies() is not None


def _draw(strategy: Any, rnd: random.Random) -> Any:
    """One value of a Hypothesis strategy from a seeded random source, outside a test.
    Uses Hypothesis internals (ConjectureData + BuildContext), seeded and reproducible."""
    from hypothesis.control import BuildContext
    from hypothesis.internal.conjecture.data import ConjectureData
    data = ConjectureData(random=rnd)
    with BuildContext(data, is_final=True, wrapped_test=None):
        return data.draw(strategy)


def rules_text(seed: int, number: int) -> tuple[str, str]:
    """Rules text for input `number`: a formatted random module (checker and compiler see
    well-formed trees), a few edits of one, or token soup (the parser's error paths)."""
    from hypothesis.errors import StopTest

    from engine.dsl.formatter import format_module
    S = _strategies()
    rnd = input_rng(seed, RULES_TEXT, number)
    kind = ("module", "mutated module", "token soup")[number % 3]
    try:
        if kind == "token soup":
            return kind, _draw(S.rule_text(), rnd)
        text = format_module(_draw(S.modules(), rnd))
        if kind == "mutated module":
            text = _draw(S.mutated_rules(text), rnd)
        return kind, text
    except (Exception, StopTest):  # a draw that overran Hypothesis' budget
        toks = [rnd.choice(S._TEXT_TOKENS) for _ in range(rnd.randrange(40))]
        return "token soup (fallback)", " ".join(toks)


def rules_text_pack(seed: int, number: int) -> tuple[dict[str, str], list[str]]:
    kind, text = rules_text(seed, number)
    return ({"pack.yaml": MINIMAL_PACK_YAML, "rules.rules": text},
            [f"rules.rules: {kind}, {len(text)} chars"])


# ---- running one input ---------------------------------------------------------------------

@dataclass
class Outcome:
    pack: str
    number: int
    kind: str  # one of OUTCOMES
    stage: str = ""
    signature: str = ""  # crash and hang: exception type @ innermost repo frame
    message: str = ""
    frames: list[str] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)
    seconds: float = 0.0


class FuzzFinding(Exception):
    """Something the fuzzer checks itself went wrong (a save that does not load back the
    same): a bug like a crash."""


def write_files(root: Path, files: dict[str, str]) -> None:
    if root.exists():
        shutil.rmtree(root)
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


STAGES = ("write", "build", "instantiate", "checks", "new game", "play", "view", "save/load")


class Progress:
    """How far an input got; in a worker also written to memory the parent reads, so that a
    hang says where it hung."""

    def __init__(self, shared: Any = None):
        self.stage = STAGES[0]
        self.shared = shared  # a multiprocessing Value('i'): the index in STAGES

    def at(self, stage: str) -> None:
        self.stage = stage
        if self.shared is not None:
            self.shared.value = STAGES.index(stage)


def play(pack: Any, number: int, progress: Progress) -> None:
    """A new game, up to MAX_MOVES random moves, every view, a save/load round trip."""
    from engine.core.game import Game
    progress.at("new game")
    game = pack.new_game(number)
    rnd = random.Random(number)
    progress.at("play")
    for _ in range(MAX_MOVES):
        if game.over:
            break
        game.apply(game.random_action(rnd))
    progress.at("view")
    for side in [*pack.sides, None]:
        game.view(side)
    progress.at("save/load")
    text = game.save()
    again = Game.load(pack, text).save()
    if again != text:
        raise FuzzFinding(f"a saved game loads back different ({len(text)} -> "
                          f"{len(again)} chars)")


def drive(root: Path, number: int, progress: Progress) -> str:
    """Build and run the pack at `root`; 'built-ok' or 'diagnostics'. Raises what the
    engine raises (EngineFault and anything else). `progress` tells how far it got."""
    from engine.core.loader import instantiate
    from engine.dsl.build import build_pack, module_filename
    progress.at("build")
    build = build_pack(root)
    if not build.ok:
        return "diagnostics"
    progress.at("instantiate")
    pack = instantiate(build)
    try:
        progress.at("checks")
        pack.run_checks()
        if pack.playable:
            play(pack, number, progress)
    finally:
        linecache.cache.pop(module_filename(build.source, build.code), None)  # bounded memory
    return "built-ok"


def run_input(target: Target, seed: int, number: int, workdir: Path,
              progress: Progress | None = None) -> Outcome:
    """Input `number` of `target`, classified (never raises but for KeyboardInterrupt)."""
    from engine.core.errors import EngineFault, PackError
    start = time.perf_counter()
    files, edits = mutate(target, seed, number)
    out = Outcome(target.name, number, "crash", edits=edits)
    progress = progress or Progress()
    progress.at("write")
    try:
        root = workdir / (target.name.replace("/", "_") if target.is_pack else "fuzz")
        write_files(root, files)
        out.kind = drive(root, number, progress)
    except PackError:
        out.kind = "diagnostics"
    except EngineFault as err:
        out.kind, out.message = "fault", str(err)[:300]
    except Exception as err:  # RecursionError and MemoryError too
        out.kind = "crash"
        out.signature, out.frames = crash_signature(err)
        out.message = f"{type(err).__name__}: {str(err)[:300]}"
    out.stage = progress.stage
    out.seconds = time.perf_counter() - start
    return out


def _code_roots() -> list[Path]:
    """Where the engine's own packages were imported from: the work tree, or an install."""
    import engine
    return [Path(engine.__file__).resolve().parent.parent]


def _repo_frame(filename: str, name: str, lineno: int | None) -> str | None:
    """'dsl/parser.py:123 in parse' for a frame of the engine's own code (dsl/, engine/),
    else None (the standard library, Lark, PyYAML, generated rules, this fuzzer)."""
    rel = _short(filename)
    if not rel.startswith(("dsl/", "engine/")):
        return None
    return f"{rel}:{lineno} in {name}"


def crash_signature(err: BaseException) -> tuple[str, list[str]]:
    """(type @ innermost engine file:function, the last frames) of an exception; marked
    `<generated>` when it was raised in the code compiled from a pack's rules."""
    tb = traceback.extract_tb(err.__traceback__)
    frames = [f"{_short(f.filename)}:{f.lineno} in {f.name}" for f in tb[-6:]]
    where = "?"
    for f in reversed(tb):
        repo = _repo_frame(f.filename, f.name, f.lineno)
        if repo is not None:
            where = re.sub(r":\d+ in ", ":", repo)
            break
    generated = " <generated>" if tb and tb[-1].filename.startswith("<pack ") else ""
    return f"{type(err).__name__}@{where}{generated}", frames


def _short(filename: str) -> str:
    """A frame's file relative to the tree it came from: 'engine/runtime.py'."""
    if filename.startswith("<"):
        return filename
    path = Path(filename).resolve()
    for root in [ROOT, *_code_roots()]:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    parts = path.parts
    return "/".join(parts[-2:]) if len(parts) > 1 else filename


# ---- workers -------------------------------------------------------------------------------

def _limit_memory() -> None:
    """At most WORKER_MEMORY more address space than the forked worker already has (the
    parent's, e.g. a test session's), so that a blow-up is a MemoryError, not the machine's."""
    try:
        import resource
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = _address_space() + WORKER_MEMORY
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def _address_space() -> int:
    """This process's virtual memory size in bytes (Linux /proc), or 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _memoize_parsing() -> None:
    """Parse each unchanged rules text once per worker: an input edits one to four files of
    a pack, and parsing the untouched rest again (lark) took most of a big pack's time. The
    parser is a pure function of (text, path, position) and its results are never changed
    by the pack reader, so the outcome of an input is the same."""
    import functools

    import engine.dsl.pack.reader
    import engine.dsl.pack.records
    for module, name in ((engine.dsl.pack.reader, "parse_module_partial"),
                         (engine.dsl.pack.reader, "parse_effect"),
                         (engine.dsl.pack.records, "parse_record_decls")):
        memo = functools.lru_cache(maxsize=4096)(getattr(module, name))
        setattr(module, name, memo)


def _worker_main(conn: Connection, targets: dict[str, Target], seed: int, workdir: str,
                 stack_file: str, stage: Any) -> None:
    """Run the inputs sent on `conn` until None; SIGUSR1 dumps the stack (for hangs)."""
    os.environ["ENGINE_DSL_CACHE"] = "off"
    _memoize_parsing()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _limit_memory()
    parent = os.getppid()
    with open(stack_file, "w") as dump:
        faulthandler.register(signal.SIGUSR1, file=dump, all_threads=False)
        while True:
            while not conn.poll(1.0):
                if os.getppid() != parent:
                    return  # the parent is gone (killed): nobody wants the results
            job = conn.recv()
            if job is None:
                return
            name, number = job
            conn.send(run_input(targets[name], seed, number, Path(workdir), Progress(stage)))


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    workdir: str
    stack_file: str
    stage: Any  # shared Value('i'): the STAGES index of the running input
    job: tuple[str, int] | None = None
    started: float = 0.0  # wall clock (time.monotonic) when the job was sent
    cpu_start: float = 0.0  # the worker's CPU seconds then
    done: int = 0

    def cpu_seconds(self) -> float | None:
        """CPU time the worker has used (Linux /proc), or None where that is unknown."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def overdue(self, timeout: float) -> bool:
        """Past the timeout: in CPU time where it can be read, so that a busy machine (other
        processes, both cores taken) does not turn slow inputs into hangs; in wall-clock
        time past WALL_FACTOR * timeout in any case."""
        wall = time.monotonic() - self.started
        if wall >= WALL_FACTOR * timeout:
            return True
        cpu = self.cpu_seconds()
        return wall >= timeout if cpu is None else cpu - self.cpu_start >= timeout


class Pool:
    """Worker processes with a per-input timeout: a stuck worker is killed and replaced."""

    def __init__(self, targets: list[Target], seed: int, workers: int, timeout: float):
        self.ctx = get_context("fork" if sys.platform != "win32" else "spawn")
        self.targets = {t.name: t for t in targets}
        self.seed, self.timeout = seed, timeout
        self.tmp = tempfile.mkdtemp(prefix="engine-fuzz-")
        self.count = 0
        self.workers = [self._start() for _ in range(workers)]

    def _start(self) -> _Worker:
        self.count += 1
        workdir = os.path.join(self.tmp, f"w{self.count}")
        os.makedirs(workdir)
        stack_file = os.path.join(self.tmp, f"w{self.count}.stack")
        parent, child = self.ctx.Pipe()
        stage = self.ctx.Value("i", 0, lock=False)
        proc = self.ctx.Process(target=_worker_main, daemon=True,
                                args=(child, self.targets, self.seed, workdir, stack_file, stage))
        proc.start()
        child.close()
        return _Worker(proc, parent, workdir, stack_file, stage)

    def _stop(self, w: _Worker, kill: bool) -> None:
        if kill:
            w.proc.kill()
        else:
            try:
                w.conn.send(None)
            except OSError:
                pass
        w.proc.join(5)
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join()
        w.conn.close()
        shutil.rmtree(w.workdir, ignore_errors=True)

    def _replace(self, w: _Worker, kill: bool) -> None:
        self._stop(w, kill)
        self.workers[self.workers.index(w)] = self._start()

    def run(self, jobs: Iterator[tuple[str, int]], deadline: float | None = None
            ) -> Iterator[Outcome]:
        """Outcomes of `jobs` as they finish; no new job starts after `deadline`."""
        pending = iter(jobs)
        exhausted = False
        while True:
            for w in self.workers:
                if w.job is None and not exhausted:
                    if deadline is not None and time.monotonic() > deadline:
                        exhausted = True
                        break
                    job = next(pending, None)
                    if job is None:
                        exhausted = True
                        break
                    w.job, w.started = job, time.monotonic()
                    w.cpu_start = w.cpu_seconds() or 0.0
                    w.conn.send(job)
            busy = [w for w in self.workers if w.job is not None]
            if not busy:
                return
            first_due = min(w.started for w in busy) + self.timeout
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy],
                         timeout=min(1.0, max(0.0, first_due - time.monotonic())))
            for w in list(busy):
                outcome = self._collect(w, ready)
                if outcome is not None:
                    yield outcome

    def _collect(self, w: _Worker, ready: list[Any]) -> Outcome | None:
        """The outcome of `w`'s job if it has one now (result, death or timeout)."""
        assert w.job is not None
        name, number = w.job
        if w.conn in ready:
            try:
                outcome = w.conn.recv()
            except (EOFError, OSError):
                outcome = None
            if outcome is not None:
                w.job, w.done = None, w.done + 1
                if w.done >= WORKER_INPUTS:
                    self._replace(w, kill=False)
                return outcome
        if not w.proc.is_alive() or w.conn in ready:
            w.proc.join()
            out = Outcome(name, number, "crash", stage=STAGES[w.stage.value],
                          signature=f"WorkerDied(exit {w.proc.exitcode})",
                          message=f"the worker process died (exit code {w.proc.exitcode}: "
                                  "a negative one is the signal that killed it)",
                          edits=self._edits(name, number))
            self._replace(w, kill=True)
            return out
        if w.overdue(self.timeout):
            return self._hang(w, name, number)
        return None

    def _hang(self, w: _Worker, name: str, number: int) -> Outcome:
        os.kill(w.proc.pid, signal.SIGUSR1)  # the stack where it is stuck, then kill it
        time.sleep(0.3)
        try:
            stack = Path(w.stack_file).read_text(errors="replace")
        except OSError:
            stack = ""
        frames = re.findall(r'File "([^"]+)", line (\d+) in (\S+)', stack)
        where = "?"
        for filename, line, func in frames:  # faulthandler lists innermost first
            if _repo_frame(filename, func, int(line)) is not None:
                where = f"{_short(filename)}:{func}"
                break
        shown = [f"{_short(f)}:{ln} in {fn}" for f, ln, fn in reversed(frames[:6])]
        self._replace(w, kill=True)
        return Outcome(name, number, "hang", stage=STAGES[w.stage.value],
                       signature=f"hang@{where}", edits=self._edits(name, number),
                       message=f"no result within {self.timeout:g} s of CPU time",
                       frames=shown, seconds=time.monotonic() - w.started)

    def _edits(self, name: str, number: int) -> list[str]:
        """The edits of an input whose worker could not report them (cheap to redo)."""
        return mutate(self.targets[name], self.seed, number)[1]

    def close(self) -> None:
        for w in self.workers:
            self._stop(w, kill=w.job is not None)
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---- a whole run ---------------------------------------------------------------------------

@dataclass
class Report:
    seed: int
    timeout: float = 10.0
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> dict[str, Counter]:
        by_pack: dict[str, Counter] = {}
        for o in sorted(self.outcomes, key=lambda o: o.pack):
            by_pack.setdefault(o.pack, Counter())[o.kind] += 1
        return by_pack

    @property
    def bad(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind in ("crash", "hang")]

    def signatures(self) -> dict[str, list[Outcome]]:
        """Crashes and hangs grouped by signature, in order of pack and input number."""
        groups: dict[str, list[Outcome]] = {}
        for o in sorted(self.bad, key=lambda o: (o.pack, o.number)):
            groups.setdefault(o.signature, []).append(o)
        return groups


def jobs_for(targets: list[Target], inputs: int, first: int = 0) -> Iterator[tuple[str, int]]:
    """`inputs` jobs spread round-robin over the targets: input numbers first, first+1, ..."""
    for i in range(inputs):
        yield targets[i % len(targets)].name, first + i // len(targets)


def fuzz(targets: list[Target], inputs: int, *, seed: int = 0, workers: int = 2,
         timeout: float = 10.0, seconds: float | None = None, first: int = 0,
         progress: Callable[[Outcome], None] | None = None) -> Report:
    """Run `inputs` inputs (stopping early after `seconds`) in worker processes."""
    _warm_up()
    report = Report(seed, timeout)
    start = time.monotonic()
    pool = Pool(targets, seed, workers, timeout)
    try:
        deadline = start + seconds if seconds is not None else None
        for outcome in pool.run(jobs_for(targets, inputs, first), deadline):
            report.outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    finally:
        pool.close()
    report.seconds = time.monotonic() - start
    return report


def _warm_up() -> None:
    """Import and build the parser once, before the workers fork, so each need not."""
    import engine.core.game  # noqa: F401
    import engine.core.loader  # noqa: F401
    import engine.core.views  # noqa: F401
    import engine.dsl.build  # noqa: F401
    from engine.dsl.parser import lark_parser
    lark_parser()
    if rules_text_available():
        _strategies()
        import engine.dsl.formatter  # noqa: F401


def format_report(report: Report) -> str:
    """The counts per pack and outcome, the speed, and one reproducer per crash signature."""
    counts = report.counts()
    lines = [f"{'pack':<16}" + "".join(f"{k:>13}" for k in OUTCOMES) + f"{'total':>8}"]
    total: Counter = Counter()
    for pack, c in counts.items():
        total.update(c)
        lines.append(f"{pack:<16}" + "".join(f"{c[k]:>13}" for k in OUTCOMES)
                     + f"{sum(c.values()):>8}")
    lines.append(f"{'all':<16}" + "".join(f"{total[k]:>13}" for k in OUTCOMES)
                 + f"{sum(total.values()):>8}")
    n = len(report.outcomes)
    rate = n / report.seconds if report.seconds else 0.0
    lines.append(f"{n} inputs in {report.seconds:.1f} s: {rate:.1f} inputs/s (seed {report.seed})")
    groups = report.signatures()
    if groups:
        lines.append(f"\n{len(groups)} distinct crash/hang signature(s):")
    for sig, outs in groups.items():
        o = outs[0]
        lines.append(f"- {sig}  x{len(outs)} (stage {o.stage}): {o.message}")
        for f in o.frames[-3:]:
            lines.append(f"    at {f}")
        lines.append(f"    edits: {'; '.join(o.edits)}")
        timeout = f" --timeout {report.timeout:g}" if report.timeout != 10.0 else ""
        lines.append(f"    replay: python bench/fuzz.py --seed {report.seed}{timeout} "
                     f"--replay {o.pack}:{o.number}")
    return "\n".join(lines)


# ---- replay and dump -----------------------------------------------------------------------

def _parse_ref(ref: str) -> tuple[str, int]:
    pack, sep, number = ref.rpartition(":")
    if not sep or not number.isdigit():
        raise SystemExit(f"fuzz: give PACK:INPUT, e.g. testgame:17, not {ref!r}")
    return pack, int(number)


def replay(ref: str, seed: int, timeout: float) -> int:
    """Run one input in this process, showing its edits and any traceback; 1 on a crash."""
    from engine.core.errors import EngineFault, PackError
    name, number = _parse_ref(ref)
    target = all_targets([name])[0]
    files, edits = mutate(target, seed, number)
    print(f"{name}:{number} (seed {seed}):")
    for e in edits:
        print(f"  {e}")
    os.environ["ENGINE_DSL_CACHE"] = "off"
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(max(1, int(timeout)))
    progress = Progress()
    with tempfile.TemporaryDirectory(prefix="engine-fuzz-") as tmp:
        root = Path(tmp) / (name.replace("/", "_") if target.is_pack else "fuzz")
        write_files(root, files)
        try:
            kind = drive(root, number, progress)
        except PackError as err:
            print(err)
            kind = "diagnostics"
        except EngineFault as err:
            print(f"EngineFault: {err}")
            kind = "fault"
        except Exception:
            traceback.print_exc()
            kind = "crash"
        except ReplayTimeout:
            traceback.print_exc()
            kind = "hang"
        finally:
            signal.alarm(0)
        if kind == "diagnostics":
            from engine.dsl.build import build_pack
            for d in build_pack(root).diagnostics[:10]:
                print(d.render())
    print(f"outcome: {kind} (stage {progress.stage})")
    return 1 if kind in ("crash", "hang") else 0


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


class ReplayTimeout(BaseException):
    """The replayed input ran past the timeout. Not an Exception, so that code catching
    Exception (a pack check that fails) does not swallow it."""


def _alarm(signum: int, frame: Any) -> None:
    raise ReplayTimeout("the input ran past the timeout (a hang): the traceback shows where")


def dump(ref: str, seed: int, out_dir: str) -> None:
    name, number = _parse_ref(ref)
    target = all_targets([name])[0]
    files, edits = mutate(target, seed, number)
    write_files(Path(out_dir), files)
    print(f"wrote {name}:{number} (seed {seed}) to {out_dir}:")
    for e in edits:
        print(f"  {e}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=200, help="inputs in all (round-robin)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--packs", default="", help="comma-separated pack names (default: all, "
                    f"and {RULES_TEXT})")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    ap.add_argument("--seconds", type=float, default=None, help="stop starting inputs after")
    ap.add_argument("--first", type=int, default=0, help="first input number")
    ap.add_argument("--replay", metavar="PACK:INPUT")
    ap.add_argument("--dump", nargs=2, metavar=("PACK:INPUT", "DIR"))
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per crash or hang")
    args = ap.parse_args(argv)
    # `kill PID` stops a run cleanly (workers and temporary files too), as Ctrl-C does
    signal.signal(signal.SIGTERM, _interrupted)
    if args.replay:
        return replay(args.replay, args.seed, args.timeout)
    if args.dump:
        dump(args.dump[0], args.seed, args.dump[1])
        return 0
    targets = all_targets([p for p in args.packs.split(",") if p] or None)
    if not rules_text_available():
        print(f"note: {RULES_TEXT} skipped (tests/dsl_strategies.py or Hypothesis missing)")

    def show(o: Outcome) -> None:
        if args.verbose and o.kind in ("crash", "hang"):
            print(f"{o.kind}: {o.pack}:{o.number} {o.signature} {o.message[:120]}", flush=True)

    report = fuzz(targets, args.inputs, seed=args.seed, workers=args.workers,
                  timeout=args.timeout, seconds=args.seconds, first=args.first, progress=show)
    print(format_report(report))
    return 1 if report.bad else 0


if __name__ == "__main__":
    sys.exit(main())
