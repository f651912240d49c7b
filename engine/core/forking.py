"""`in_processes`: one function over groups of work at once, the first group in this process
and each other in a process forked from it, the results coming back pickled.

A fork starts with everything this process has imported and built (the parser's tables
above all), so a child costs milliseconds. Only on Linux (forking without exec is unsafe on
macOS, impossible on Windows) and only while this process runs one thread (a thread that
holds a lock at the fork would leave it held in the child); elsewhere every group runs
here, one after the other. A child that fails or dies has its group run here again.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def workers() -> int:
    """How many processes may work at once: the CPUs this process may use (1: no forking)."""
    if not (sys.platform.startswith("linux") and hasattr(os, "fork")):
        return 1
    if threading.active_count() > 1:
        return 1
    return len(os.sched_getaffinity(0))


def in_processes(fn: Callable[[_Item], _Result], groups: Sequence[_Item]) -> list[_Result]:
    """`[fn(g) for g in groups]`, the groups after the first each in a forked process
    (when `workers()` allows as many); `fn`'s results must pickle."""
    if len(groups) < 2 or workers() < len(groups):
        return [fn(g) for g in groups]
    children = [_fork(fn, g) for g in groups[1:]]
    results: list[_Result] = []
    try:
        results.append(fn(groups[0]))
        for (_pid, fd), group in zip(children, groups[1:]):
            got: tuple[bool, _Result] | None = _collect(fd)
            results.append(got[1] if got is not None else fn(group))
    finally:
        unfinished = len(results) < len(groups)  # an error or Ctrl-C here: stop them
        for pid, fd in children:
            _reap(pid, fd, unfinished)
    return results


def _fork(fn: Callable[[_Item], _Result], group: _Item) -> tuple[int, int]:
    """A child working on `group`: (its pid, the end of the pipe its result comes by)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(read)
            data = pickle.dumps((True, fn(group)), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(data)
        except BaseException:  # noqa: BLE001 - the parent does the work again
            code = 1
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers
    os.close(write)
    return pid, read


def _collect(fd: int) -> tuple[bool, _Result] | None:
    """What the child sent, or None when it sent nothing whole (it failed or died)."""
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    try:
        got: tuple[bool, _Result] = pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 - a child cut short: its group is done here
        return None
    return got


def _reap(pid: int, fd: int, stop: bool) -> None:
    """Close the pipe and wait for the child to end (ending it first when `stop`)."""
    try:
        os.close(fd)
    except OSError:
        pass
    try:
        if stop:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
