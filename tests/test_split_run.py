"""The harness's run shared by several processes (split_run.py): every test reported once,
failures and a peer that dies included. Each case runs pytest on a small suite of its own."""

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import ROOT, background_result, environ_snapshot

# The first process's first test waits at a FIFO until a peer's first test opens its other end,
# so a peer surely gets a file of its own however fast the first process is.
SUITE_CONFTEST = """
import os
import sys
sys.path.insert(0, %r)
import split_run

PEER = bool(os.environ.get("MINIMCP_TEST_PEER"))
met = []

def pytest_configure(config):
    config.pluginmanager.register(
        split_run.SplitRun(pinned=lambda item: item.name == "test_pinned"), "split-run")

def meet():
    if not met:
        met.append(os.open(os.path.join(os.path.dirname(__file__), "meet"), os.O_WRONLY if PEER else os.O_RDONLY))
""" % os.path.join(ROOT, "tests")

SUITE_FILE = """
import os
import pytest
from conftest import PEER, meet

@pytest.mark.parametrize("n", range(4))
def test_case(n):
    meet()
    if PEER and os.environ["PLANT"] == "failure":
        assert n != 2, "planted in a peer"
    if PEER and os.environ["PLANT"] == "death" and n == 1:
        os._exit(9)

def test_pinned():
    assert not PEER
"""

NAMES = ["test_a.py", "test_b.py", "test_c.py"]


def run_suite(plant):
    """pytest's status, output and ``{test: [failure text or None, ...]}`` for the small suite."""
    folder = tempfile.mkdtemp(prefix="minimcp-two-processes-")
    try:
        return run_suite_in(folder, plant)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# The death of a peer is planted with one peer, so that one file is lost; the other cases use three processes.
PROCESSES = {"nothing": "3", "failure": "3", "death": "2"}


# A run of a folder starts its peers with the session; a run of named files once collected.
WHAT = {"nothing": lambda folder: [os.path.join(folder, name) for name in NAMES],
        "failure": lambda folder: [folder], "death": lambda folder: [folder]}


def run_suite_in(folder, plant):
    for name in NAMES:
        with open(os.path.join(folder, name), "w") as f:
            f.write(SUITE_FILE)
    with open(os.path.join(folder, "conftest.py"), "w") as f:
        f.write(SUITE_CONFTEST)
    os.mkfifo(os.path.join(folder, "meet"))
    environment = {key: value for key, value in environ_snapshot().items() if not key.startswith("MINIMCP_TEST_")}
    environment.update(MINIMCP_TEST_PROCESSES=PROCESSES[plant], PLANT=plant)
    report = os.path.join(folder, "report.xml")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf",
                           "--junitxml", report] + WHAT[plant](folder), cwd=folder, env=environment,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    cases = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        key = "%s.py::%s" % (case.get("classname"), case.get("name"))
        failure = case.find("failure")
        cases.setdefault(key, []).append(None if failure is None else failure.get("message") + (failure.text or ""))
    return done.returncode, done.stdout.decode("utf-8", "replace"), cases


def background(item):
    """conftest's background jobs: each case's pytest run, started with the run."""
    if item.originalname == "test_every_test_is_reported_once_with_its_outcome":
        plant = item.callspec.params["plant"]
        return {("two processes", plant): lambda: run_suite(plant)}
    return {}


@pytest.mark.parametrize("plant", ["nothing", "failure", "death"])
def test_every_test_is_reported_once_with_its_outcome(plant):
    status, output, cases = background_result(("two processes", plant), lambda: run_suite(plant))
    every = ["%s::%s" % (name, case) for name in NAMES
             for case in ["test_case[0]", "test_case[1]", "test_case[2]", "test_case[3]", "test_pinned"]]
    assert sorted(cases) == sorted(every), output
    assert all(len(outcomes) == 1 for outcomes in cases.values()), output
    failed = {key: outcomes[0] for key, outcomes in cases.items() if outcomes[0] is not None}
    if plant == "nothing":
        assert status == 0 and not failed, output
    elif plant == "failure":
        # Only peers fail a test, one in each of their files: they had at least one.
        assert status == 1 and failed, output
        assert all(key.endswith("test_case[2]") and "planted in a peer" in why
                   for key, why in failed.items()), output
        assert "planted in a peer" in output
    else:
        # The peer dies in its first file's second test: that test fails with what it
        # printed, the file's other two with a pointer to it, and nothing else is lost.
        lost = sorted(failed)
        assert status == 1 and len(lost) == 3, output
        assert "a peer pytest process took this test's file and ended (status 9)" in failed[lost[0]], output
        assert all("not run: a peer pytest process ended" in failed[key] for key in lost[1:]), output
