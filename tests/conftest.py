"""Test harness: drive a server in-process through real OS pipes, bytes in, JSON lines out."""

import faulthandler
import gc
import importlib.util
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import minimcp  # noqa: E402
import split_run  # noqa: E402
from wirecheck import check_line  # noqa: E402,F401 - re-exported for the tests
from fuzz import environ_snapshot  # noqa: E402 - a copy of os.environ safe on the background threads

EVERYTHING = os.path.join(ROOT, "examples", "everything.py")
HANDSHAKE_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"
_module_ids = itertools.count()


# -- a time limit on every test ------------------------------------------------------------
#
# No test may hang CI or eat the machine's memory (a pagination cursor that never ends, a
# server that never answers). Each test gets TEST_TIMEOUT seconds for its setup and call,
# and as long again for its teardown. On overrun the watchdog thread signals the main
# thread (pthread_kill: the signal wakes the main thread's own blocking wait, which a
# process-wide alarm caught by another thread would not), and the handler fails the test
# with every thread's stack. If Python code cannot run at all (the main thread stuck in C,
# or no signals: Windows), faulthandler's own C thread dumps all stacks and ends pytest.
# The slowest tests take about 5 s on a busy 2-core machine (load 10), a twelfth of the limit;
# on a slower one set MINIMCP_TEST_TIMEOUT (in seconds, 0 for no limit).

TEST_TIMEOUT = float(os.environ.get("MINIMCP_TEST_TIMEOUT", "60"))
_HARD_MARGIN = 30.0             # faulthandler's hard stop comes this much after all phases' limits


_HARNESS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, "<frozen runpy>")


def _stacks() -> str:
    """Every thread's stack, most recent call last, as a traceback prints it."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    parts = []
    for ident, frame in sys._current_frames().items():
        frames = [entry for entry in traceback.extract_stack(frame)          # pytest's own frames
                  if not any(part in entry.filename for part in _HARNESS)]   # say nothing here
        parts.append("--- thread %s (%#x) ---\n%s" % (names.get(ident, "?"), ident,
                                                    "".join(traceback.format_list(frames))))
    return "\n".join(parts)


class _Watchdog:
    """One thread that fails the running test phase once its deadline passes."""

    def __init__(self) -> None:
        self.usable = hasattr(signal, "pthread_kill") and hasattr(signal, "SIGALRM")
        self.cond = threading.Condition()
        self.deadline = None         # monotonic time the armed phase must end by
        self.armed = None            # what is armed: (test id, limit), or None
        self.fired = None            # what the watchdog fired for (read by the handler)
        if self.usable:
            signal.signal(signal.SIGALRM, self._on_alarm)
            threading.Thread(target=self._watch, name="test-watchdog", daemon=True).start()

    def arm(self, what, deadline: float) -> None:
        with self.cond:
            self.armed, self.deadline, self.fired = what, deadline, None
            self.cond.notify()

    def disarm(self) -> None:
        with self.cond:
            self.armed = self.deadline = self.fired = None
            self.cond.notify()

    def _watch(self) -> None:
        main = threading.main_thread().ident
        with self.cond:
            while True:
                if self.deadline is None:
                    self.cond.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.cond.wait(left)
                    continue
                self.fired, self.deadline = self.armed, None
                signal.pthread_kill(main, signal.SIGALRM)

    def _on_alarm(self, signum, frame) -> None:
        # Runs on the main thread. Only the phase that is still armed is failed: a signal that
        # arrives after its phase was disarmed (or from anywhere else) is ignored.
        with self.cond:
            fired = self.fired if self.fired is not None and self.fired == self.armed else None
            self.fired = None
        if fired is not None:
            pytest.fail("%s ran over its time limit of %.0f s (MINIMCP_TEST_TIMEOUT); every thread's stack:\n%s"
                        % (fired[0], fired[1], _stacks()), pytrace=True)


_watchdog = None
_hard_stop_fd = None


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
    global _watchdog, _hard_stop_fd
    _interruptible_children()
    if TEST_TIMEOUT > 0:
        _watchdog = _Watchdog()
        # Capture is suspended while plugins are configured: descriptor 2 is the real stderr
        # here, and stays so for faulthandler even while a test's output is captured.
        _hard_stop_fd = os.dup(2)
    _cache_for_children()
    # A long run is shared with peer pytest processes (split_run.py); the tests that take a
    # background job's result stay in this one, which runs the jobs.
    config.pluginmanager.register(split_run.SplitRun(pinned=lambda item: bool(_background_jobs(item))),
                                  "minimcp-split-run")


def pytest_unconfigure(config):
    _background.stop()
    if _pycache_prefix is not None:
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = _dont_write_bytecode
        shutil.rmtree(_pycache_prefix, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _watchdog is None:
        yield
        return
    item._time_limit = time.monotonic() + TEST_TIMEOUT
    faulthandler.dump_traceback_later(3 * TEST_TIMEOUT + _HARD_MARGIN, exit=True, file=_hard_stop_fd)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _limited(item, teardown=False):
    if _watchdog is not None and _watchdog.usable:
        deadline = time.monotonic() + TEST_TIMEOUT if teardown else item._time_limit
        _watchdog.arm((item.nodeid + (" (teardown)" if teardown else ""), TEST_TIMEOUT), deadline)


def _unlimited():
    if _watchdog is not None and _watchdog.usable:
        _watchdog.disarm()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _limited(item)
    try:
        yield
    finally:
        _unlimited()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _limited(item)
    try:
        yield
    finally:
        _unlimited()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    _limited(item, teardown=True)
    try:
        yield
    finally:
        _unlimited()


def load_example(name="everything"):
    """Import an example as a fresh module (so each test gets its own server object)."""
    path = os.path.join(ROOT, "examples", name + ".py")
    spec = importlib.util.spec_from_file_location("example_%s_%d" % (name, next(_module_ids)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def envelope(capabilities=None, version=MODERN, **extra):
    """The 2026-07-28 per-request _meta."""
    meta = {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}}
    meta.update(extra)
    return meta


class Wire:
    """One client connection to ``app.serve`` over two OS pipes.

    Every line the server writes is checked: it must end in a single ``\\n`` (no
    ``\\r``), be UTF-8, and parse as one JSON-RPC 2.0 message (or a batch).
    """

    def __init__(self, app):
        self.app = app
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        self.to_server = os.fdopen(in_w, "wb", buffering=0)
        self._server_in = os.fdopen(in_r, "rb")
        self._server_out = os.fdopen(out_w, "wb")
        self._from_server = os.fdopen(out_r, "rb")
        self.raw_lines = []            # every byte line the server wrote, in order
        self.inbox = queue.Queue()
        self.notifications = []
        self.stash = {}
        self._ids = itertools.count(1)
        self.server_error = None
        self.server_thread = threading.Thread(target=self._serve, daemon=True)
        self.reader_thread = threading.Thread(target=self._read, daemon=True)
        self.server_thread.start()
        self.reader_thread.start()

    def _serve(self):
        try:
            self.app.serve(self._server_in, self._server_out)
        except BaseException as exc:    # surfaced by close()
            self.server_error = exc
        finally:
            self._server_out.close()

    def _read(self):
        for line in self._from_server:
            self.raw_lines.append(line)
            self.inbox.put(line)
        self.inbox.put(None)

    # -- sending ------------------------------------------------------------
    def send_raw(self, data: bytes):
        self.to_server.write(data)

    def send(self, message):
        self.send_raw(json.dumps(message).encode("utf-8") + b"\n")

    def request(self, method, params=None, id=None):
        request_id = next(self._ids) if id is None else id
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- receiving ----------------------------------------------------------
    def recv(self, timeout=5.0):
        """The next message the server writes (parsed), checking the line format."""
        try:
            line = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no message from the server within %.1fs" % timeout)
        if line is None:
            raise AssertionError("the server closed its output")
        return check_line(line)

    def response(self, request_id, timeout=5.0):
        """Wait for the response to ``request_id``; notifications seen meanwhile are kept."""
        if request_id in self.stash:
            return self.stash.pop(request_id)
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if isinstance(message, dict) and "method" in message and "id" not in message:
                self.notifications.append(message)
            elif isinstance(message, dict) and "method" in message:
                self.stash[("server", message["id"])] = message
            elif isinstance(message, dict) and message.get("id") == request_id:
                return message
            else:
                key = message.get("id") if isinstance(message, dict) else json.dumps(message)
                self.stash[key] = message

    def server_request(self, timeout=5.0):
        """Wait for a request the server sends to us."""
        for key in list(self.stash):
            if isinstance(key, tuple) and key[0] == "server":
                return self.stash.pop(key)
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if isinstance(message, dict) and "method" in message and "id" in message:
                return message
            if isinstance(message, dict) and "method" in message:
                self.notifications.append(message)
            else:
                self.stash[message.get("id")] = message

    def call(self, method, params=None, timeout=5.0):
        return self.response(self.request(method, params), timeout)

    def result(self, method, params=None, timeout=5.0):
        message = self.call(method, params, timeout)
        assert "result" in message, message
        return message["result"]

    def error(self, method, params=None, timeout=5.0):
        message = self.call(method, params, timeout)
        assert "error" in message, message
        return message["error"]

    def initialize(self, version="2025-11-25", capabilities=None):
        result = self.result("initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                            "clientInfo": {"name": "pytest", "version": "1"}})
        self.notify("notifications/initialized")
        self.result("ping")        # a round trip: the notification has been processed
        return result

    def silent(self, timeout=0.3):
        """Assert the server writes nothing for ``timeout`` seconds."""
        try:
            line = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return
        raise AssertionError("unexpected message: %r" % line)

    def close(self, timeout=10.0):
        """Close the server's stdin; wait for serve() to return; return what it wrote after."""
        self.to_server.close()
        self.server_thread.join(timeout)
        assert not self.server_thread.is_alive(), "serve() did not return after stdin closed"
        self.reader_thread.join(timeout)
        rest = []
        while True:
            line = self.inbox.get_nowait() if not self.inbox.empty() else None
            if line is None:
                break
            rest.append(check_line(line))
        if self.server_error is not None:
            raise self.server_error
        return rest


def transcript(app, lines, timeout=10.0):
    """Feed raw lines (bytes or JSON-able objects) then EOF; return every message written."""
    wire = Wire(app)
    for line in lines:
        wire.send_raw(line if isinstance(line, bytes) else json.dumps(line).encode("utf-8") + b"\n")
    wire.to_server.close()
    wire.server_thread.join(timeout)
    assert not wire.server_thread.is_alive()
    wire.reader_thread.join(timeout)
    return [check_line(line) for line in wire.raw_lines]


@pytest.fixture
def everything():
    """A fresh ``examples/everything.py`` server object."""
    return load_example("everything").app


@pytest.fixture
def wire(everything):
    """A connection to a fresh everything server (closed at the end of the test)."""
    connection = Wire(everything)
    yield connection
    if not connection.to_server.closed:
        connection.close()


@pytest.fixture
def legacy(wire):
    """A connection initialized at 2025-11-25 with sampling, roots and elicitation declared."""
    wire.initialize("2025-11-25", {"sampling": {}, "roots": {"listChanged": True},
                                   "elicitation": {"form": {}, "url": {}}})
    return wire


def spawn(script=EVERYTHING, env=None, args=()):
    """Start a real server process with pipes on stdin/stdout/stderr."""
    environment = environ_snapshot()
    environment.update(env or {})
    return subprocess.Popen([sys.executable, script] + list(args), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)


# -- the command line's processes ---------------------------------------------------------
#
# ``python3 minimcp.py ...`` compiles minimcp.py's ~11,000 lines at every start (a script's
# bytecode is never cached): about 0.15 s of CPU before it does anything, a few dozen
# times a run. ``CLI`` starts the same program the way ``python3 -m minimcp`` does (its
# ``__main__`` block, which makes the module its own ``minimcp``) from cached bytecode,
# with minimcp.py's folder first on sys.path and argv[0] its path, as the script form
# has them, whatever the cwd. A test whose point is not the script form uses it; the
# script form keeps tests of its own (test_readme's commands as written, test_cli's
# version, exit status and program name, "serve" in test_cli and test_readme).

#: ``python3 minimcp.py``, from cached bytecode: the command line, its words to follow.
CLI = [sys.executable, "-c", "import runpy, sys; sys.path[0] = %r; "
       "runpy.run_module('minimcp', run_name='__main__', alter_sys=True)" % ROOT]
#: ``python3 minimcp.py serve``, from cached bytecode.
SERVE = CLI + ["serve"]

def run_command(words, cwd=ROOT, timeout=120, **popen):
    """``subprocess.run(words)`` from ``cwd`` with stdin closed and the output captured; a
    process still running when the run ends (a background job's) is killed then."""
    with subprocess.Popen(list(words), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **popen) as process:
        _running.add(process)
        try:
            out, err = process.communicate(timeout=timeout)
        except BaseException:
            process.kill()
            process.communicate()
            raise
        finally:
            _running.discard(process)
    return subprocess.CompletedProcess(list(words), process.returncode, out, err)


# -- background jobs ------------------------------------------------------------------------
#
# The tests run one at a time and mostly keep one core busy; the machines this runs on have
# two or more. Some cases are a process of their own whose output the test then checks (the
# README's commands, selftest runs, the fuzzer's servers): they read nothing another test
# changes. A test module lists them in a function ``background(item)`` that returns
# ``{key: job}`` (a job: a function without arguments) for one of its tests. Those tests
# run last; once the run's tests are collected, two worker threads run the jobs of the
# selected tests, in the tests' order, while the other tests run; a test takes its job's result with
# ``background_result(key, job)``: at once when it is done, else when it is (within the
# test's time limit). The same key in two tests is one job (the README's selftest line and
# test_cli's selftest case). A job's exception is raised in the test that takes its
# result, and a job nothing started runs in its test. MINIMCP_TEST_BACKGROUND=0 runs every
# job in its test, one at a time, as a debugger wants.

_running = set()                # Popen objects of run_command() still running


class _Job:
    def __init__(self, job) -> None:
        self.job, self.done = job, threading.Event()
        self.result = self.error = None

    def run(self) -> None:
        try:
            self.result = self.job()
        except BaseException as exc:            # raised again in the test that takes the result
            self.error = exc
        finally:
            self.done.set()


class _Background:
    # Two workers: most jobs wait (on a server's timers, a selftest's checks), and the first
    # tests' jobs have little else to overlap with; two keep them from queueing behind one another.
    WORKERS = 2

    def __init__(self) -> None:
        self.jobs = {}                           # key -> _Job, started or queued
        self.queue = queue.Queue()
        self.stopped = False
        self.workers = []

    def submit(self, key, job) -> None:
        if key in self.jobs or self.stopped:
            return
        self.jobs[key] = _Job(job)
        self.queue.put(key)
        while len(self.workers) < self.WORKERS:
            self.workers.append(threading.Thread(target=self._work, name="test-background", daemon=True))
            self.workers[-1].start()

    def _work(self) -> None:
        while not self.stopped:
            self.jobs[self.queue.get()].run()

    def result(self, key, job):
        entry = self.jobs.get(key)
        if entry is None:                        # not declared, or not selected: here and now
            entry = self.jobs[key] = _Job(job)
            entry.run()
        while not entry.done.wait(1.0):          # in slices: the time limit's signal gets through
            pass
        if entry.error is not None:
            raise entry.error
        return entry.result

    def stop(self) -> None:
        self.stopped = True
        for process in list(_running):           # only what run_command() started and still runs
            try:
                process.kill()
            except OSError:
                pass


_background = _Background()


def background_result(key, job):
    """The result of ``job()``, run in the background if its test declared it (see above)."""
    return _background.result(key, job)


def _background_jobs(item) -> dict:
    declare = getattr(getattr(item, "module", None), "background", None)
    return declare(item) if callable(declare) else {}


def _background_on(config) -> bool:
    return not config.option.collectonly and os.environ.get("MINIMCP_TEST_BACKGROUND", "1") != "0"


def pytest_collection_modifyitems(session, config, items):
    # The tests that take a job's result run last, in their order: their jobs then have the
    # whole run to finish in, and none of them waits for one.
    if _background_on(config):
        waiting = set(id(item) for item in items if _background_jobs(item))
        items[:] = [item for item in items if id(item) not in waiting] + \
                   [item for item in items if id(item) in waiting]


def pytest_collection_finish(session):
    # What collection built (modules, items, their parameters) lives until the end: the
    # collector need not walk it again at every collection of the run's own garbage
    # (about 2 CPU-s of a whole run).
    gc.freeze()
    if _background_on(session.config):
        for item in session.items:
            for key, job in _background_jobs(item).items():
                _background.submit(key, job)


def command_job(words, **options):
    """``(key, job)`` for ``run_command(words, **options)``: the same words and options in
    two tests are one job."""
    words = tuple(words)
    return ("command", words, tuple(sorted(options.items()))), lambda: run_command(words, **options)
