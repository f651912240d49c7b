"""Soak of `engine serve` on 127.0.0.1: load, SIGKILLs, a check of the store, idle memory.

Throughput and latency under many players, the server killed (SIGKILL) and restarted
meanwhile, then a check of what it stored, and its memory as idle games pile up. Prints
figures; exits 1 only when the check fails (an acknowledged move lost, or a stored game
whose save is not the replay of its moves). Bounded in time and count; it stops by itself
and leaves no server running (Ctrl-C included).

Run: python bench/serve_soak.py [--quick] [--clients 50] [--seconds 60] [--kills 10]
                                [--idle-games 1000] [--pack ante_portas] [--json FILE]

1. Soak: `--clients` threads (one keep-alive http.client connection each: the server has
   one core, this process the other) for `--seconds`, each creating two-person games
   (POST /api/games joining the first side, POST .../join the second) and playing them
   out with random legal answers (POST .../act, GET .../game when the other side decides),
   a new game when one ends. Every 200 of /act is an acknowledged move, noted. Latency is
   wall time per request, response body read, JSON not yet parsed.
2. `--kills` times at random moments the server gets SIGKILL and is started again on the
   same store and port; the clients retry while it is down (every `--retry-sleep` s, at
   most `--retries` times). Downtime: from the kill to the first 200 of GET /api/packs.
3. Check (the server killed once more, so nothing is flushed at a graceful exit): read the
   store directly (the SQLite file of --db, with sqlite3, or the old --dir of JSON files):
   every acknowledged (game, decision, side, action) is a stored move, and every game as
   the server reads it back (its signed snapshot and the signed moves since, played again:
   engine.frontends.serve.tables.Tables.get) equals a replay of all its stored moves from its seed
   (numbered 0.. and as many as its row's `moves`, over when its row says `finished`); for
   the old --dir files, the save loaded (verify="digest") equals the replay of its actions.
4. Idle games: a fresh server, `--idle-games` games created one by one, no moves; the
   server's RSS (VmRSS) after 0, 10%, 25%, 50% and 100% of them and `--settle` s later.

The server's options are read from `engine serve --help`: --db when it has it (else
--dir), and --max-open-games, --create-rate, --max-loaded only when offered.
"""
from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"  # loopback only, always
ROUTES = ("packs", "create", "join", "show", "act")
DEFAULTS = {"clients": 50, "seconds": 60.0, "kills": 10, "idle_games": 1000}
QUICK = {"clients": 10, "seconds": 10.0, "kills": 2, "idle_games": 100}
UNEXPECTED = (400, 401, 403, 404, 413, 422)  # refusals a correct client never gets
MAX_SAMPLES = 5  # unexpected replies kept, per kind, to show in the report


# ---- the server -----------------------------------------------------------------------------
def serve_options(root: Path) -> set[str]:
    """The options `engine serve --help` lists (the server is being rewritten: --db or --dir,
    limits or none)."""
    out = subprocess.run([sys.executable, "-m", "engine", "serve", "--help"], cwd=root,
                         capture_output=True, text=True, timeout=60).stdout
    return {word.strip("[],") for word in out.split() if word.startswith("--")}


def interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM too: the same clean-up as Ctrl-C


@contextlib.contextmanager
def interrupts_deferred() -> Any:
    """Ctrl-C or SIGTERM held back until the block is done (a server started but not yet
    noted would be left running)."""
    held: list[int] = []
    signals = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.signal(s, lambda signum, frame: held.append(signum)) for s in signals}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        if held:
            raise KeyboardInterrupt


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """`engine serve` as a subprocess on HOST:`port`, over `store` (a SQLite file with --db,
    else a directory), its output appended to `log`. Restarts keep the store and port."""

    def __init__(self, store: Path, port: int, options: set[str], args: argparse.Namespace,
                 log: Path):
        self.store, self.port, self.log = store, port, log
        self.command = [sys.executable, "-m", "engine", "serve", "--host", HOST,
                        "--port", str(port), "--db" if "--db" in options else "--dir",
                        str(store)]
        limits = {"--max-open-games": "100000", "--create-rate": "100000/1",
                  "--max-loaded": str(args.max_loaded)}
        for flag, value in limits.items():
            if flag in options:
                self.command += [flag, value]
        self.proc: subprocess.Popen | None = None
        self.cpu = 0.0  # CPU seconds of the processes killed so far
        self.start_timeout = args.start_timeout
        self.root = Path(args.server_root)

    def start(self) -> float:
        """Start it and wait for GET /api/packs to answer 200: the seconds that took."""
        begin = time.monotonic()
        with open(self.log, "ab") as out, interrupts_deferred():
            self.proc = subprocess.Popen(self.command, cwd=self.root, stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)  # Ctrl-C is ours to pass on
        while time.monotonic() - begin < self.start_timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"engine serve exited with {self.proc.returncode} at "
                                   f"start; see {self.log}:\n{tail(self.log)}")
            conn = http.client.HTTPConnection(HOST, self.port, timeout=self.start_timeout)
            try:
                conn.request("GET", "/api/packs")
                reply = conn.getresponse()
                reply.read()
                if reply.status == 200:
                    return time.monotonic() - begin
            except OSError:
                pass  # not listening yet
            finally:
                conn.close()
            time.sleep(0.02)
        raise RuntimeError(f"engine serve did not answer within {self.start_timeout} s")

    def cpu_now(self) -> float:
        """CPU seconds (user + system) of the running process."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def kill(self) -> None:
        """SIGKILL, and wait for it to be gone (safe to call when not running)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.cpu += self.cpu_now()
            self.proc.kill()
        self.proc.wait(timeout=30)
        self.proc = None


def tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def pack_sides(port: int, pack: str) -> list[str]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", "/api/packs")
        packs = json.loads(conn.getresponse().read())["packs"]
    finally:
        conn.close()
    for p in packs:
        if p["pack"] == pack:
            return [s["side"] for s in p["sides"]]
    raise SystemExit(f"the server offers no pack {pack!r} (it has: "
                     f"{', '.join(p['pack'] for p in packs)})")


# ---- the clients ----------------------------------------------------------------------------
class Client(threading.Thread):
    """One player at a time for both seats of its games, on one keep-alive connection. All
    it measures stays its own until the end (no locks on the way)."""

    def __init__(self, index: int, port: int, pack: str, sides: list[str], deadline: float,
                 stop: threading.Event, args: argparse.Namespace):
        super().__init__(name=f"client-{index}", daemon=True)
        self.port, self.pack, self.sides = port, pack, sides
        self.deadline, self.stop_event, self.args = deadline, stop, args
        self.rnd = random.Random(f"{args.seed}/{index}")
        self.conn = http.client.HTTPConnection(HOST, port, timeout=args.timeout)
        self.latency: dict[str, list[float]] = {r: [] for r in ROUTES}
        self.status: dict[str, Counter] = {r: Counter() for r in ROUTES}
        self.acks: list[tuple[str, int, str, Any]] = []
        self.samples: dict[str, list[str]] = {}
        self.games = self.finished = self.abandoned = self.retries = self.gave_up = 0
        # a program asks for the view alone; --screens: the screen too, as the page does
        self.query = "" if args.screens else "?screen=0"

    def running(self) -> bool:
        return not self.stop_event.is_set() and time.monotonic() < self.deadline

    def note(self, kind: str, text: str) -> None:
        kept = self.samples.setdefault(kind, [])
        if len(kept) < MAX_SAMPLES:
            kept.append(text)

    def once(self, route: str, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int | None, Any]:
        """One request: (status, JSON reply), or (None, None) for a connection error."""
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        start = time.perf_counter()
        try:
            self.conn.request(method, path, data, headers)
            reply = self.conn.getresponse()
            raw = reply.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()  # the next request connects again
            self.status[route]["conn"] += 1
            return None, None
        self.latency[route].append(time.perf_counter() - start)
        self.status[route][reply.status] += 1
        if reply.will_close:
            self.conn.close()
        try:
            out = json.loads(raw) if raw else None
        except ValueError:
            out = None
        if reply.status in UNEXPECTED or reply.status >= 500 and reply.status != 503:
            self.note(f"{route} {reply.status}", f"{method} {path} {json.dumps(body)[:200]} "
                      f"-> {raw[:300].decode(errors='replace')}")
        return reply.status, out

    def call(self, route: str, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int | None, Any]:
        """`once`, tried again after a connection error, a 503 or a 429 (the server down or
        busy), at most --retries times and not past the run."""
        for _ in range(self.args.retries):
            status, out = self.once(route, method, path, body, token)
            if status not in (None, 503, 429) or not self.running():
                return status, out
            self.retries += 1
            time.sleep(self.args.retry_sleep * (0.5 + self.rnd.random()))
        self.gave_up += 1
        return None, None

    def new_game(self) -> tuple[str, dict[str, str]] | None:
        """A new game with both seats taken: (id, side -> token), or None."""
        first, second = self.sides[0], self.sides[1]
        status, out = self.call("create", "POST", "/api/games",
                                {"pack": self.pack, "seed": self.rnd.randrange(1 << 31),
                                 "join": first})
        if status != 201:
            return None
        game, tokens = out["game"], {first: out["token"]}
        status, out = self.call("join", "POST", f"/api/games/{game}/join", {"side": second})
        if status != 201:  # e.g. 409 "taken" after a join whose reply was lost
            return None
        tokens[second] = out["token"]
        self.games += 1
        return game, tokens

    def play(self, game: str, tokens: dict[str, str]) -> None:
        """Random legal answers until the game ends (or the run does)."""
        side = next(iter(tokens))
        got: Any = None  # the last {"screen", "view"} of `side`, None: ask for it
        refused = 0
        for _ in range(self.args.max_requests):
            if not self.running():
                return
            if got is None:
                status, got = self.call("show", "GET", f"/api/games/{game}{self.query}",
                                        token=tokens[side])
                if status != 200:
                    self.abandoned += self.running()  # not at the end of the run
                    return
            decision = got["view"]["decision"]
            if decision is None:
                self.finished += 1
                return
            if decision["side"] != side:  # the other side's turn: its own screen
                side, got = decision["side"], None
                if side not in tokens:
                    self.note("not a seat", f"game {game} waits for {side!r}")
                    self.abandoned += 1
                    return
                continue
            if self.args.screens:
                asked = got["screen"]["decision"]
                action = choose(asked, self.rnd)
            else:
                asked = decision
                action = choose_from_view(got["view"], self.rnd)
            status, reply = self.once("act", "POST", f"/api/games/{game}/act{self.query}",
                                      {"decision": asked["id"], "action": action},
                                      tokens[side])
            if status == 200:
                self.acks.append((game, asked["id"], side, action))
                got, refused = reply, 0
                continue
            # 409 stale, 503 not stored, a lost connection: not acknowledged; look again
            got, refused = None, refused + 1
            if status is None:
                time.sleep(self.args.retry_sleep)
            if refused > self.args.retries:
                self.abandoned += 1
                return
        self.abandoned += 1

    def run(self) -> None:
        while self.running():
            made = self.new_game()
            if made is not None:
                self.play(*made)
        self.conn.close()


def choose_from_view(view: dict[str, Any], rnd: random.Random) -> Any:
    """A random legal answer to a view's decision, as a program that reads no screen."""
    d, legal = view["decision"], view["legal_actions"]
    if d["kind"] == "order":
        order = list(d["options"])
        rnd.shuffle(order)
        return order
    if legal:
        return rnd.choice(legal)
    options = d["options"]
    count = rnd.randint(d["min"], min(d["max"], len(options)))
    return [options[i] for i in sorted(rnd.sample(range(len(options)), count))]


def choose(asked: dict[str, Any], rnd: random.Random) -> Any:
    """A random legal answer to a screen's decision, the options' actions sent as given."""
    options = asked["options"]
    if asked["mode"] == "pick":
        return rnd.choice(options)["action"] if options else None
    actions = [o["action"] for o in options]
    if asked["mode"] == "order":
        rnd.shuffle(actions)
        return actions
    count = rnd.randint(asked["min"], min(asked["max"], len(actions)))
    return [actions[i] for i in sorted(rnd.sample(range(len(actions)), count))]


# ---- the soak -------------------------------------------------------------------------------
def soak(server: Server, args: argparse.Namespace, stop: threading.Event) -> dict[str, Any]:
    sides = pack_sides(server.port, args.pack)
    rnd = random.Random(args.seed)
    # kills within the run's middle 90%: each after the restart before it has answered
    kills = sorted(rnd.uniform(0.05, 0.95) * args.seconds for _ in range(args.kills))
    cpu0, start = time.process_time(), time.monotonic()
    deadline = start + args.seconds
    clients = [Client(i, server.port, args.pack, sides, deadline, stop, args)
               for i in range(args.clients)]
    for c in clients:
        c.start()
    downtimes: list[float] = []
    exits: list[int] = []
    for at in [*kills, None]:  # None: watch it till the end of the run
        while time.monotonic() < (deadline if at is None else start + at):
            time.sleep(0.05)
            if server.proc is not None and server.proc.poll() is not None:
                exits.append(server.proc.returncode)  # died by itself: start it again
                server.proc = None
                server.start()
        if at is None:
            break
        killed = time.monotonic()
        server.kill()
        server.start()
        downtimes.append(time.monotonic() - killed)
    for c in clients:
        c.join(timeout=max(0.0, deadline - time.monotonic()) + args.timeout + 5)
    elapsed = time.monotonic() - start
    stop.set()  # any client still in a request: stop at its next look
    return {"clients": clients, "elapsed": elapsed, "downtimes": downtimes, "exits": exits,
            "load_cpu": time.process_time() - cpu0, "server_cpu": server.cpu + server.cpu_now(),
            "alive": sum(c.is_alive() for c in clients)}


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def soak_figures(run: dict[str, Any]) -> dict[str, Any]:
    clients, elapsed = run["clients"], run["elapsed"]
    routes = {}
    for r in ROUTES:
        lat = sorted(x for c in clients for x in c.latency[r])
        status: Counter = sum((c.status[r] for c in clients), Counter())
        routes[r] = {"requests": len(lat), "per_s": len(lat) / elapsed,
                     "p50_ms": percentile(lat, 0.5) * 1000,
                     "p90_ms": percentile(lat, 0.9) * 1000,
                     "p99_ms": percentile(lat, 0.99) * 1000,
                     "max_ms": (lat[-1] * 1000) if lat else float("nan"),
                     "status": {str(k): v for k, v in sorted(status.items(), key=str)}}
    samples: dict[str, list[str]] = {}
    for c in clients:
        for kind, texts in c.samples.items():
            samples.setdefault(kind, []).extend(texts)
    total = sum(f["requests"] for f in routes.values())
    down = run["downtimes"]
    return {"seconds": elapsed, "requests": total, "per_s": total / elapsed,
            "routes": routes,
            "games_created": sum(c.games for c in clients),
            "games_finished": sum(c.finished for c in clients),
            "games_abandoned": sum(c.abandoned for c in clients),
            "acknowledged": sum(len(c.acks) for c in clients),
            "retries": sum(c.retries for c in clients),
            "gave_up": sum(c.gave_up for c in clients),
            "kills": len(down), "downtime_s": sum(down),
            "downtime_mean_s": sum(down) / len(down) if down else 0.0,
            "downtime_max_s": max(down, default=0.0),
            "server_exits_unasked": run["exits"], "clients_still_running": run["alive"],
            "server_cpu_share": run["server_cpu"] / elapsed,
            "load_cpu_share": run["load_cpu"] / elapsed,
            "samples": {k: v[:MAX_SAMPLES] for k, v in samples.items()}}


# ---- the check ------------------------------------------------------------------------------
def stored_games(store: Path) -> list[tuple[str, str, int, str, Any, Any]]:
    """Every stored game: (id, pack, seed, save text, [(n, side, decision, action)], its
    row's (moves, finished)), as stored (SQLite) or, for the old --dir files, with None for
    the last two (the moves are read from the save)."""
    if store.is_dir():  # the old server: <id>.json with the table's data, the save inside
        out = []
        for path in sorted(store.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            out.append((path.stem, data["pack"], json.loads(data["save"])["seed"],
                        data["save"], None, None))
        return out
    db = sqlite3.connect(store)
    try:
        moves: dict[str, list[tuple[int, str, int, Any]]] = {}
        for game, n, side, decision, action in db.execute(
                "SELECT game, n, side, decision, action FROM moves ORDER BY game, n"):
            moves.setdefault(game, []).append((n, side, decision, json.loads(action)))
        return [(gid, pack, seed, save, moves.get(gid, []), (count, finished))
                for gid, pack, seed, save, count, finished in
                db.execute("SELECT id, pack, seed, save, moves, finished FROM games")]
    finally:
        db.close()


def replay_noting(pack: Any, seed: int, actions: list[Any]) -> tuple[Any, list[tuple]]:
    """engine.core.game.replay, step by step: the game and, per action, (n, side, decision id),
    for the old files, whose saves keep the actions but not the decisions they answered."""
    from engine.core.game import Game
    game = Game.new(pack, seed, undo=False)
    steps = []
    for n, action in enumerate(actions):
        d = game.decision
        steps.append((n, d.side if d else None, d.id if d else None, action))
        game.apply(action)
    return game, steps


def read_back(store: Path) -> Any:
    """A function giving a stored game as the server reads it back (SQLite: its snapshot
    and the moves since, signatures checked), or None for the old --dir files."""
    if store.is_dir():
        return None
    from engine.frontends.serve.signing import load_or_make_key
    from engine.frontends.serve.store import open_store
    from engine.frontends.serve.tables import Tables
    tables = Tables(open_store(store), load_or_make_key(f"{store}.key"))
    return lambda gid: tables.get(gid).game


def check(store: Path, acks: list[tuple[str, int, str, Any]]) -> dict[str, Any]:
    from engine.core.game import Game, replay
    from engine.core.loader import load_pack
    start = time.monotonic()
    reading = read_back(store)
    packs: dict[str, Any] = {}
    answered: dict[tuple[str, int], tuple[str, Any]] = {}  # (game, decision) -> stored move
    moves = 0
    bad: list[str] = []
    games = stored_games(store)
    for gid, ref, seed, save, stored, row in games:
        if ref not in packs:
            packs[ref] = load_pack(ref)
        pack = packs[ref]
        rows = stored or []
        try:
            if stored is None:
                replayed, rows = replay_noting(pack, seed, json.loads(save)["actions"])
            else:
                if [r[0] for r in rows] != list(range(len(rows))):
                    raise ValueError(f"move numbers {[r[0] for r in rows][:10]}... not 0..")
                replayed = replay(pack, seed, [r[3] for r in rows])
            loaded = Game.load(pack, save, verify="digest", undo=False) if reading is None \
                else reading(gid)
            if loaded.save() != replayed.save():
                raise ValueError(f"its save ({len(loaded.actions)} actions) is not the "
                                 f"replay of its {len(rows)} moves")
            if row is not None and row != (len(rows), int(replayed.over)):
                raise ValueError(f"its row says (moves, finished) = {row}, its moves "
                                 f"{(len(rows), int(replayed.over))}")
        except Exception as err:  # any failure is this game's inconsistency: go on
            bad.append(f"game {gid}: {type(err).__name__}: {err}"[:300])
        for _n, side, decision, action in rows:
            answered[(gid, decision)] = (side, action)
        moves += len(rows)
    lost = [a for a in acks if answered.get((a[0], a[1])) != (a[2], a[3])]
    return {"store": "dir" if store.is_dir() else "sqlite", "games": len(games),
            "moves": moves, "acknowledged": len(acks), "lost": len(lost),
            "inconsistent": len(bad), "check_s": time.monotonic() - start,
            "lost_samples": [repr(a)[:200] for a in lost[:MAX_SAMPLES]],
            "inconsistent_samples": bad[:MAX_SAMPLES]}


# ---- idle games -----------------------------------------------------------------------------
def idle(server: Server, args: argparse.Namespace, stop: threading.Event) -> dict[str, Any]:
    """RSS as games are created and left alone."""
    n = args.idle_games
    marks = sorted({0, n // 10, n // 4, n // 2, n})
    sides = pack_sides(server.port, args.pack)
    client = Client(0, server.port, args.pack, sides, time.monotonic() + args.idle_timeout,
                    stop, args)
    rss = {0: server.rss_mb()}
    made = 0
    for i in range(1, n + 1):
        if not client.running():
            break
        status, _ = client.call("create", "POST", "/api/games",
                                {"pack": args.pack, "seed": client.rnd.randrange(1 << 31),
                                 "join": sides[0]})
        made += status == 201
        if i in marks:
            rss[i] = server.rss_mb()
    time.sleep(args.settle)
    lat = sorted(client.latency["create"])
    return {"games": made, "rss_mb": {str(k): v for k, v in rss.items()},
            "rss_settled_mb": server.rss_mb(), "settle_s": args.settle,
            "create_p50_ms": percentile(lat, 0.5) * 1000,
            "create_p99_ms": percentile(lat, 0.99) * 1000,
            "status": {str(k): v for k, v in client.status["create"].items()},
            "samples": client.samples}


def server_log(log: Path) -> dict[str, Any]:
    """Tracebacks and 5xx lines in the server's output (uvicorn logs every request)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    lines = text.splitlines()
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    errors = [line for line in lines if '" 5' in line and "HTTP/1.1" in line]
    last = ""
    if tracebacks:
        i = tracebacks[0]
        block = lines[i:i + 60]
        end = next((k for k, line in enumerate(block[1:], 1) if not line.startswith(" ")),
                   len(block) - 1)
        last = "\n".join(block[max(0, end - 4):end + 1])
    return {"tracebacks": len(tracebacks), "http_5xx_lines": len(errors),
            "first_5xx": errors[:3], "first_traceback_end": last}


# ---- the report -----------------------------------------------------------------------------
def report(figures: dict[str, Any]) -> None:
    s = figures.get("soak")
    if s:
        print(f"soak: {figures['clients']} clients, {s['seconds']:.1f} s, pack "
              f"{figures['pack']}, store {figures['store']}, clients ask for "
              f"{figures['asked']}; server CPU "
              f"{s['server_cpu_share']:.0%} of a core, load generator {s['load_cpu_share']:.0%}")
        print(f"  {s['requests']} requests, {s['per_s']:.0f}/s")
        print(f"  {'route':<7}{'count':>8}{'/s':>8}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}"
              f"{'max ms':>9}  statuses")
        for r, f in s["routes"].items():
            if not f["status"]:
                continue  # a route the clients never asked (GET /api/packs: only at starts)
            print(f"  {r:<7}{f['requests']:>8}{f['per_s']:>8.1f}{f['p50_ms']:>9.1f}"
                  f"{f['p90_ms']:>9.1f}{f['p99_ms']:>9.1f}{f['max_ms']:>9.1f}  "
                  + " ".join(f"{k}:{v}" for k, v in f["status"].items()))
        print(f"  games created {s['games_created']}, finished {s['games_finished']}, "
              f"abandoned {s['games_abandoned']}; moves acknowledged {s['acknowledged']}; "
              f"retries {s['retries']}, given up {s['gave_up']}")
        print(f"  kills {s['kills']}: downtime {s['downtime_s']:.2f} s in all, mean "
              f"{s['downtime_mean_s']:.2f} s, max {s['downtime_max_s']:.2f} s"
              + (f"; the server exited by itself: {s['server_exits_unasked']}"
                 if s["server_exits_unasked"] else "")
              + (f"; {s['clients_still_running']} clients never stopped"
                 if s["clients_still_running"] else ""))
        for kind, texts in s["samples"].items():
            print(f"  unexpected {kind}: {len(texts)} shown, e.g. {texts[0]}")
    c = figures.get("check")
    if c:
        print(f"check ({c['store']}, {c['check_s']:.1f} s): games {c['games']}, moves "
              f"{c['moves']}, acknowledged {c['acknowledged']}, lost {c['lost']}, "
              f"inconsistent {c['inconsistent']}")
        for text in c["lost_samples"] + c["inconsistent_samples"]:
            print(f"  {text}")
    i = figures.get("idle")
    if i:
        print(f"idle games ({i['games']} created, p50 {i['create_p50_ms']:.1f} ms, p99 "
              f"{i['create_p99_ms']:.1f} ms; statuses {i['status']}): RSS "
              + ", ".join(f"{k}: {v:.0f} MB" for k, v in i["rss_mb"].items())
              + f"; {i['rss_settled_mb']:.0f} MB {i['settle_s']:g} s later")
        for kind, texts in i["samples"].items():
            print(f"  unexpected {kind}: e.g. {texts[0]}")
    for name, log in figures.get("server_log", {}).items():
        print(f"server log ({name}): {log['tracebacks']} tracebacks, {log['http_5xx_lines']} "
              "5xx replies logged")
        for line in log["first_5xx"]:
            print(f"  {line.strip()}")
        if log["first_traceback_end"]:
            print("  first traceback ends:\n    "
                  + log["first_traceback_end"].replace("\n", "\n    "))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10 clients, 10 s, 2 kills, "
                        "100 idle games (unless given)")
    parser.add_argument("--clients", type=int, help=f"default {DEFAULTS['clients']}")
    parser.add_argument("--seconds", type=float, help=f"default {DEFAULTS['seconds']}")
    parser.add_argument("--kills", type=int, help=f"default {DEFAULTS['kills']}")
    parser.add_argument("--idle-games", type=int, help=f"default {DEFAULTS['idle_games']}; "
                        "0: no idle phase")
    parser.add_argument("--pack", default="ante_portas")
    parser.add_argument("--screens", action="store_true",
                        help="clients ask for the screen with the view, as the web page does "
                        "(default: the view alone, ?screen=0, as a program does)")
    parser.add_argument("--max-loaded", type=int, default=64,
                        help="passed to the server when it has --max-loaded")
    parser.add_argument("--seed", type=int, default=1, help="of the kills and the games")
    parser.add_argument("--retries", type=int, default=300)
    parser.add_argument("--retry-sleep", type=float, default=0.1)
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, s")
    parser.add_argument("--max-requests", type=int, default=5000, help="per game")
    parser.add_argument("--start-timeout", type=float, default=60.0)
    parser.add_argument("--idle-timeout", type=float, default=300.0,
                        help="at most this long creating idle games, s")
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--server-root", default=str(ROOT), metavar="DIR",
                        help="run `python -m engine serve` in this checkout (default: this "
                        "one; e.g. an export of another commit, to compare)")
    parser.add_argument("--keep", metavar="DIR", help="keep the stores and logs in DIR "
                        "(default: a temporary directory, removed)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args()
    for key, value in (QUICK if args.quick else DEFAULTS).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    for sig in (signal.SIGINT, signal.SIGTERM):  # even when started with SIGINT ignored
        signal.signal(sig, interrupted)

    options = serve_options(Path(args.server_root))
    store_kind = "sqlite (--db)" if "--db" in options else "files (--dir)"
    figures: dict[str, Any] = {"clients": args.clients, "pack": args.pack, "store": store_kind,
                               "asked": "screen and view" if args.screens else "the view",
                               "server_options": sorted(options), "server_log": {}}
    stop = threading.Event()
    servers: list[Server] = []
    with tempfile.TemporaryDirectory(prefix="serve_soak.") as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        try:
            if args.seconds > 0:
                store = work / ("soak.sqlite" if "--db" in options else "soak-games")
                server = Server(store, free_port(), options, args, work / "soak.log")
                servers.append(server)
                print(f"engine serve: {' '.join(server.command[1:])}", flush=True)
                server.start()
                run = soak(server, args, stop)
                server.kill()  # no graceful exit: the acknowledged moves must be stored
                figures["soak"] = soak_figures(run)
                acks = [a for c in run["clients"] for a in c.acks]
                figures["check"] = check(store, acks)
                figures["server_log"]["soak"] = server_log(server.log)
            if args.idle_games > 0:
                store = work / ("idle.sqlite" if "--db" in options else "idle-games")
                server = Server(store, free_port(), options, args, work / "idle.log")
                servers.append(server)
                server.start()
                figures["idle"] = idle(server, args, threading.Event())
                server.kill()
                figures["server_log"]["idle"] = server_log(server.log)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except RuntimeError as err:  # the server would not start
            print(f"serve_soak: {err}", file=sys.stderr)
            return 2
        finally:
            stop.set()
            for server in servers:
                server.kill()
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str) + "\n")
    c = figures.get("check", {})
    return 1 if c.get("lost") or c.get("inconsistent") else 0


if __name__ == "__main__":
    sys.exit(main())
