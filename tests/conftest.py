"""Shared fixtures. `write_pack` makes a small pack in a temporary directory for a test."""
from __future__ import annotations

import os
import textwrap
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

REPO = Path(__file__).resolve().parent.parent
# Packs run as the Python text the compiler writes, whatever `engine compile` has put in the
# user's cache (engine.dsl.native): tests trace and patch that code. tests/test_native.py
# turns it on in the processes it starts.
os.environ["ENGINE_NATIVE"] = "off"


def write_pack_files(root: Path, rules: str, records: str | dict[str, str] | None = None,
                     sides: tuple[str, ...] = ("red", "blue"), pack_id: str = "inline") -> Path:
    """Write pack.yaml, rules.rules and record files (text, dedented) into `root`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(
        f"id: {pack_id}\nname: Inline test pack\nversion: 0.0.1\n"
        f"sides: [{', '.join(sides)}]\n", encoding="utf-8")
    (root / "rules.rules").write_text(textwrap.dedent(rules).lstrip("\n"), encoding="utf-8")
    if isinstance(records, str):
        records = {"records.yaml": records}
    for name, text in (records or {}).items():
        (root / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def write_pack(tmp_path: Path) -> Callable[..., Path]:
    """write_pack(rules, records=None, sides=(...), name="p") -> the pack directory."""
    count = [0]

    def make(rules: str, records: str | dict[str, str] | None = None,
             sides: tuple[str, ...] = ("red", "blue"), name: str | None = None) -> Path:
        count[0] += 1
        d = tmp_path / (name or f"pack{count[0]}")
        return write_pack_files(d, rules, records, sides)

    return make


@pytest.fixture
def inline_pack(write_pack: Callable[..., Path]) -> Callable[..., Any]:
    """inline_pack(rules, records=None, ...) -> a loaded CompiledPack."""
    from engine.core.loader import load_pack

    def make(rules: str, records: str | dict[str, str] | None = None, **kw: Any) -> Any:
        return load_pack(write_pack(rules, records, **kw))

    return make


@pytest.fixture(scope="session")
def testgame() -> Any:
    from engine.core.loader import load_pack
    return load_pack(REPO / "tests" / "packs" / "testgame")


# The tests that take longest (over ~15 s each on 2 cores, `pytest --durations=40`): marked
# slow here in one place, so `pytest -m "not slow"` is the quick run (README, "Tests").
SLOW = (
    "test_properties.py::test_random_play_keeps_invariants[hannibal",
    "test_properties.py::test_undo_shows_nothing_new[hannibal",
    "test_properties.py::test_views_do_not_leak[hannibal",
    "test_properties.py::test_save_load_in_fresh_process_continues_identically[hannibal",
    "test_leaks.py::test_views_and_rendered_logs_do_not_leak[hannibal",
    "test_fuzz.py::test_fuzzed_packs_neither_crash_nor_hang",
    "test_lang_fmt.py::test_comments_in_wrapped_code_survive_and_stay_put",
    "test_formatter.py::test_comments_survive_and_formatting_is_idempotent",
    "test_web_map.py::test_a_whole_hannibal_game_by_clicks_on_the_map",
    "test_native.py::test_the_compiled_runtime_wheel",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.partition("/")[2].startswith(SLOW):
            item.add_marker(pytest.mark.slow)


# ---- the server's databases (engine.frontends.serve.store) --------------------------------------
# The PostgreSQL tests run against the server named by ENGINE_TEST_POSTGRES (a URL whose user
# may create databases; .ci/run starts one with .ci/postgres), each in a database of its own.
# Without it they skip, saying so, unless ENGINE_POSTGRES_TESTS=required (set by .ci/run).
POSTGRES_URL = os.environ.get("ENGINE_TEST_POSTGRES")
POSTGRES_REQUIRED = os.environ.get("ENGINE_POSTGRES_TESTS") == "required"


def _postgres_database() -> Any:
    """A fresh PostgreSQL database for one test: its URL, dropped afterwards."""
    if not POSTGRES_URL:
        why = "no PostgreSQL server: set ENGINE_TEST_POSTGRES=postgresql://… (.ci/postgres)"
        if POSTGRES_REQUIRED:
            pytest.fail(f"PostgreSQL tests are required here: {why}", pytrace=False)
        pytest.skip(why)
    psycopg = pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    name = f"engine_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(POSTGRES_URL)
    url = urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))
    try:
        yield url
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_database() -> Any:
    """The URL of a fresh PostgreSQL database (see above)."""
    yield from _postgres_database()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: Any, tmp_path: Path) -> Any:
    """Where a server keeps its games, for each backend: a SQLite file's path, or the URL
    of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
    else:
        yield from _postgres_database()


# ---- the web page's tests (tests/browser.py; imported here only when such a test runs, so
# the other tests need neither Playwright nor Chromium) -----------------------------------
@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """`engine serve`'s app on a free port of this machine, for a module's tests."""
    from browser import Server
    with Server(tmp_path_factory.mktemp("games") / "games.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Any:
    """Debian's headless Chromium, driven by Playwright, for a module's tests."""
    from browser import ARGS, CHROMIUM
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Any:
    """A new page at 1280 x 900, waiting up to browser.WAIT_MS for anything."""
    from browser import WAIT_MS
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.set_default_timeout(WAIT_MS)
    yield p
    context.close()
