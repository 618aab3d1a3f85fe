"""One pytest run shared by several processes, so that a run keeps every core busy.

A run of one process keeps about one core busy: its tests compute in turn, and wait in turn on
the servers they start. So a run of at least ``MIN_TESTS`` tests is shared by one pytest process
more than the machine has cores (three on two cores: while one waits, the others compute; on
two idle cores the third made a run 25-26 s instead of 27-29 s, measured in turn): the first
one, which pytest started, starts the others (peers) with the same arguments, hence the same
collection. They share the work by test file: each file goes to whichever process asks for it
first (an exclusive create of the file's name in a shared folder), so no process idles while
files are left, however the load falls.

Each peer sends every report it makes (setup, call, teardown, and warnings) to the first
process down a pipe, and the first replays them through pytest's own hooks, one finished file
at a time, between its own files. So the terminal, ``--junitxml``, ``--durations``, ``-x``,
``--lf`` and the exit status all see one run of every test. Tests the first process must keep
(``pinned``: conftest's tests that take the results of its background jobs) run only there.

A file a peer took and did not finish (it died: a crash, its hard time limit) fails its
unreported tests in the first process, with what that peer printed; a peer that ends in any
other unexpected way fails the run. Nothing is lost silently.

``MINIMCP_TEST_PROCESSES=N`` sets the number of processes for any run, however short (1:
pytest's own single process, as for ``--pdb``, ``--trace``, ``-s`` and ``--collect-only``).
"""

import builtins
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from urllib.parse import quote

import pytest

#: In a peer: "folder:descriptor", where files are claimed and where its reports go.
PEER = "MINIMCP_TEST_PEER"
#: A run of fewer tests stays in one process: starting peers would cost more than they save.
MIN_TESTS = 200


def _asked() -> str:
    return os.environ.get("MINIMCP_TEST_PROCESSES", "")


def _processes(config) -> int:
    """How many processes may share this run, as its options and the machine allow: 1 for
    pytest's own loop. (Whether the run is long enough is known only once it is collected.)"""
    option = config.option
    if option.collectonly:
        return 1
    if getattr(option, "usepdb", False) or getattr(option, "trace", False) or option.capture == "no":
        return 1                             # a debugger, or -s, wants the test in front of it
    if _asked():
        return max(1, int(_asked()))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


def _claim(folder, name) -> bool:
    """True for the one process whose exclusive create of ``name`` in ``folder`` succeeds; the
    claim holds its process id, for the message if it dies."""
    try:
        claim = os.open(os.path.join(folder, quote(name, safe="")), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(claim, str(os.getpid()).encode())
    os.close(claim)
    return True


def _claimant(folder, name) -> int:
    with open(os.path.join(folder, quote(name, safe=""))) as claim:
        return int(claim.read() or 0)


def _file_of(item) -> str:
    return item.nodeid.split("::", 1)[0]


class SplitRun:
    """The plugin: registered by conftest with the predicate of the tests the first process keeps."""

    def __init__(self, pinned) -> None:
        self.pinned = pinned
        self.config = None
        self.pipe = None                     # in a peer: its end of the report pipe
        self.first = None                    # in the first process: its _First, while peers run

    def pytest_configure(self, config) -> None:
        self.config = config

    def shares(self, session):
        """The tests any process may run, by file in the run's order; and the pinned ones."""
        files, pinned = {}, []
        for item in session.items:
            if self.pinned(item):
                pinned.append(item)
            else:
                files.setdefault(_file_of(item), []).append(item)
        return list(files.items()), pinned

    @staticmethod
    def run(session, items, after_file) -> None:
        """pytest's own loop over ``items`` (an iterator, claimed as it is read), with
        ``after_file()`` called each time a file's last test has run (its teardown included)."""
        item = next(items, None)
        while item is not None:
            following = next(items, None)
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=following)
            if session.shouldfail:
                raise session.Failed(session.shouldfail)
            if session.shouldstop:
                raise session.Interrupted(session.shouldstop)
            if following is None or _file_of(following) != _file_of(item):
                after_file(_file_of(item))
            item = following

    def pytest_sessionstart(self, session) -> None:
        # A run of whole folders (the usual one) starts its peers now, so that they collect
        # while this process does; a run of named files first shows it is long enough.
        folders = all(os.path.isdir(os.path.join(str(self.config.invocation_params.dir), argument))
                      for argument in self.config.args)
        if not os.environ.get(PEER) and _processes(self.config) > 1 and folders:
            self.first = _First(self, self.config, _processes(self.config) - 1)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        peer = os.environ.get(PEER)
        if peer:
            return self._peer(session, peer)
        if session.testsfailed or _processes(self.config) < 2 or (len(session.items) < MIN_TESTS and not _asked()):
            if self.first is not None:       # collection errors, or too short a run to share
                self.first.stop()
                self.first = None
            return None                      # pytest's own loop
        if self.first is None:
            self.first = _First(self, self.config, _processes(self.config) - 1)
        return self.first.run(session)

    def pytest_sessionfinish(self) -> None:
        if self.first is not None:           # an interrupted collection: the peers still run
            self.first.stop()

    # -- in a peer --------------------------------------------------------------------------

    def _peer(self, session, peer) -> bool:
        folder, descriptor = peer.rsplit(":", 1)
        os.set_inheritable(int(descriptor), False)      # not into the servers the tests start
        self.pipe = os.fdopen(int(descriptor), "w", buffering=1, encoding="utf-8")
        files, _ = self.shares(session)

        def claimed():
            for name, items in files:
                if _claim(folder, name):
                    yield from items

        self.run(session, claimed(), lambda name: self._send({"done": name}))
        # Every report is sent and every fixture torn down (the last test's teardown is the
        # session's); what is left of a pytest session, its summary, cache and files, is the
        # first process's. So the peer ends here, and the first need not wait for it.
        self._send({"end": True})
        self.pipe.close()
        os._exit(0)

    def _send(self, message) -> None:
        try:
            self.pipe.write(json.dumps(message) + "\n")
        except (BrokenPipeError, ValueError):           # the first process is gone: so is the run
            os._exit(3)

    def pytest_runtest_logreport(self, report) -> None:
        if self.pipe is not None:
            data = self.config.hook.pytest_report_to_serializable(config=self.config, report=report)
            self._send({"report": data})

    def pytest_warning_recorded(self, warning_message, when, nodeid, location) -> None:
        if self.pipe is not None:
            self._send({"warning": {"category": warning_message.category.__name__,
                                    "message": str(warning_message.message),
                                    "filename": warning_message.filename, "lineno": warning_message.lineno,
                                    "when": when, "nodeid": nodeid}})


class _Peer:
    """A peer as the first process sees it: its process, and the file its output goes to."""

    def __init__(self, room, number, claims, config, inbox) -> None:
        self.number = number
        read_end, write_end = os.pipe()
        invocation = config.invocation_params
        environment = dict(os.environ)
        environment[PEER] = "%s:%d" % (claims, write_end)
        environment["MINIMCP_TEST_BACKGROUND"] = "0"     # the background jobs are the first's
        arguments = list(invocation.args) + ["--basetemp", os.path.join(room, "tmp%d" % number)]
        self.output = open(os.path.join(room, "output%d" % number), "w+b")
        self.process = subprocess.Popen([sys.executable, "-m", "pytest"] + arguments, cwd=str(invocation.dir),
                                        env=environment, stdin=subprocess.DEVNULL, stdout=self.output,
                                        stderr=subprocess.STDOUT, pass_fds=(write_end,))
        os.close(write_end)
        threading.Thread(target=self._listen, args=(read_end, inbox), name="peer", daemon=True).start()

    def _listen(self, read_end, inbox) -> None:
        with os.fdopen(read_end, "rb") as pipe:
            for line in pipe:
                inbox.put((self.number, json.loads(line)))
        inbox.put((self.number, None))

    def printed(self) -> str:
        self.output.seek(0)
        return self.output.read().decode("utf-8", "replace")[-20000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


class _First:
    """The first process's side of one run: starts the peers, runs its share, replays theirs."""

    def __init__(self, plugin, config, peers) -> None:
        self.plugin, self.config = plugin, config
        self.session = self.files = self.pinned = None           # known once the run is collected
        self.room = tempfile.mkdtemp(prefix="minimcp-tests-split-")
        self.claims = os.path.join(self.room, "claims")
        os.mkdir(self.claims)
        self.inbox = queue.Queue()
        self.peers = [_Peer(self.room, number, self.claims, self.config, self.inbox) for number in range(peers)]
        self.open_pipes = peers              # each peer's pipe ends in a None in the inbox
        self.ended = set()                   # the peers that said they ended, all sent
        self.pending = {}                    # file -> the peers' messages about it, not yet replayed
        self.finished = []                   # files a peer has finished, in order
        self.reported = set()                # node ids whose teardown report came back
        self.mine = set()                    # node ids this process ran

    def run(self, session) -> bool:
        self.session = session
        self.files, self.pinned = self.plugin.shares(session)
        try:
            self.plugin.run(session, self._mine(), lambda name: self._replay())
            self._end()
        finally:
            self.stop()
        return True

    def stop(self) -> None:
        for peer in self.peers:
            peer.stop()
        self.peers = []
        shutil.rmtree(self.room, ignore_errors=True)

    def _mine(self):
        for name, items in self.files:
            if _claim(self.claims, name):
                for item in items:
                    self.mine.add(item.nodeid)
                    yield item
        yield from self.pinned

    def _replay(self, to_the_end=False) -> None:
        """Replay the files the peers have finished; with ``to_the_end``, wait for every peer
        to close its pipe, then replay everything they sent, finished or not."""
        while self.open_pipes:
            try:
                number, message = self.inbox.get(block=to_the_end)
            except queue.Empty:
                break
            if message is None:
                self.open_pipes -= 1
            elif "end" in message:
                self.ended.add(number)
            elif "done" in message:
                self.finished.append(message["done"])
            else:
                self.pending.setdefault(self._file(message), []).append(message)
        for name in self.finished + (list(self.pending) if not self.open_pipes else []):
            for message in self.pending.pop(name, []):
                self._replay_one(message)
        self.finished = []

    @staticmethod
    def _file(message) -> str:
        body = message.get("report") or message["warning"]
        return body["nodeid"].split("::", 1)[0]

    def _replay_one(self, message) -> None:
        hook = self.config.hook
        if "warning" in message:
            w = message["warning"]
            category = getattr(builtins, w["category"], None)
            if not (isinstance(category, type) and issubclass(category, Warning)):
                category = UserWarning           # a warning class of the tests' own: its text stays
            record = warnings.WarningMessage(category(w["message"]), category, w["filename"], w["lineno"])
            hook.pytest_warning_recorded.call_historic(kwargs=dict(        # as pytest's own call is
                warning_message=record, when=w["when"], nodeid=w["nodeid"], location=None))
            return
        report = hook.pytest_report_from_serializable(config=self.config, data=message["report"])
        if report.when == "setup":
            hook.pytest_runtest_logstart(nodeid=report.nodeid, location=report.location)
        hook.pytest_runtest_logreport(report=report)
        if report.when == "teardown":
            hook.pytest_runtest_logfinish(nodeid=report.nodeid, location=report.location)
            self.reported.add(report.nodeid)

    def _end(self) -> None:
        self._replay(to_the_end=True)
        lost = {}                            # peer's pid -> its claimed tests that never came back
        came_back = self.mine | self.reported
        for name, items in self.files:
            missing = [item for item in items if item.nodeid not in came_back]
            if missing:
                lost.setdefault(_claimant(self.claims, name), []).extend(missing)
        for peer in self.peers:
            status = peer.process.wait()     # at once for a peer that ended (it exits then)
            if peer.process.pid in lost:
                first, rest = lost[peer.process.pid][0], lost[peer.process.pid][1:]
                self._fail(first.nodeid, first.location,
                           "a peer pytest process took this test's file and ended (status %d) without "
                           "reporting this test or the %d after it; what it printed:\n%s"
                           % (status, len(rest), peer.printed()))
                for item in rest:
                    self._fail(item.nodeid, item.location, "not run: a peer pytest process ended; see %s"
                               % first.nodeid)
            elif peer.number not in self.ended and status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
                self._fail("tests/split_run.py::peer-%d" % peer.process.pid, ("tests/split_run.py", None, "peer"),
                           "a peer pytest process ended with status %d; what it printed:\n%s"
                           % (status, peer.printed()))

    def _fail(self, nodeid, location, why) -> None:
        hook = self.config.hook
        hook.pytest_runtest_logstart(nodeid=nodeid, location=location)
        report = pytest.TestReport(nodeid, location, {}, "failed", why, "call")
        hook.pytest_runtest_logreport(report=report)
        hook.pytest_runtest_logfinish(nodeid=nodeid, location=location)
