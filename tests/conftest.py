"""Test harness: drive a server in-process through real OS pipes, bytes in, JSON lines out."""

import gc
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import minimcp  # noqa: E402
# The wire harness, shared with tests/core/ (which runs minimcp.py alone): re-exported for the tests.
from harness import *  # noqa: E402,F401,F403


# -- compiled once for every server the tests start -------------------------------------------
#
# Where PYTHONDONTWRITEBYTECODE is set (as on the machines this suite runs on), every server
# process a test starts would compile minimcp.py's ~8,000 lines, and whatever else it imports
# that has no .pyc, before it answers: about 0.19 s of CPU per start against 0.08 s from
# cached code, a few hundred times a run. So the children get a PYTHONPYCACHEPREFIX of their
# own, a temporary directory they may write to (and only there: the sources stay untouched,
# which is what the variable asked for), and the first child that compiles a module leaves
# it for the others; Python checks each cached file against its source, as always. The
# prefix is removed at the end. Nothing changes where bytecode may be written anyway, or
# where the caller chose a prefix.

_pycache_prefix = None
_dont_write_bytecode = None        # the caller's PYTHONDONTWRITEBYTECODE, put back at the end


def _cache_for_children() -> None:
    global _pycache_prefix, _dont_write_bytecode
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    _pycache_prefix = tempfile.mkdtemp(prefix="minimcp-tests-pyc-")
    os.environ["PYTHONPYCACHEPREFIX"] = _pycache_prefix
    _dont_write_bytecode = os.environ.pop("PYTHONDONTWRITEBYTECODE")


def _interruptible_children() -> None:
    """A shell starts a background job (``pytest &``, a CI step run that way) with SIGINT
    ignored, and an ignored signal stays ignored across exec: the servers and clients that
    the Ctrl-C tests start would never see their SIGINT, and those tests would wait out
    their deadlines and fail. A handled signal is reset to the default in a child, so
    handling it here gives every child what a terminal gives it."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    _interruptible_children()
    _cache_for_children()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): twice as many workers as cores, and one more. A test
    mostly waits on the server it started: two workers kept two idle cores half busy (load
    average 1.0), and the whole run took 57-61 s with 2 workers, 42-43 s with 3, 35-41 s
    with 4, 32-33 s with 5 and no less with 6 or 8 (measured in turn, 2026-12-05). xdist's own
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores + 1


def pytest_unconfigure(config):
    if _pycache_prefix is not None:
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = _dont_write_bytecode
        shutil.rmtree(_pycache_prefix, ignore_errors=True)


def pytest_collection_finish(session):
    # What collection built (modules, items, their parameters) lives until the end: the
    # collector need not walk it again at every collection of the run's own garbage
    # (about 2 CPU-s of a whole run).
    gc.freeze()


def run_command(words, cwd=ROOT, timeout=120, **popen):
    """``subprocess.run(words)`` from ``cwd`` with stdin closed and the output captured."""
    return subprocess.run(list(words), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout, **popen)
