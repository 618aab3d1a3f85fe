"""The command line against servers nobody here wrote (issue 18), as real processes.

``handshake_only_server.py`` stands in for the third-party servers: no server/discover,
its own argument names, requests of its own at awkward moments.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from conftest import EVERYTHING, ROOT

MINIMCP = os.path.join(ROOT, "minimcp.py")
OTHER = [sys.executable, os.path.join(ROOT, "tests", "handshake_only_server.py")]


def run(*args, timeout=60, argv0=None):
    command = [sys.executable, MINIMCP] + list(args)
    started = time.monotonic()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, cwd=ROOT)
    done.seconds = time.monotonic() - started
    done.out, done.err = done.stdout.decode(), done.stderr.decode()
    return done


# -- item 1: a server that asks us something late ---------------------------------------

def test_inspect_is_quick_and_clean_against_a_server_that_asks_for_roots_late():
    """The everything server asks roots/list 0.3 s after initialized and won't exit unanswered."""
    done = run("inspect", "--", *OTHER, "--late-roots")
    assert done.returncode == 0, done.err
    assert "server exited with status 0 after its stdin closed" in done.out
    assert "Exception in thread" not in done.err and "Traceback" not in done.err
    assert done.seconds < 2.5, "inspect took %.1fs" % done.seconds


def test_roots_are_offered_only_when_asked_for_and_then_answered(tmp_path):
    done = run("call", "roots", "--root", str(tmp_path), "--", *OTHER)
    assert done.returncode == 0, done.err
    assert done.out.strip() == "file://" + str(tmp_path).replace(os.sep, "/")


def test_a_server_that_waits_for_an_answer_after_stdin_closed_is_stopped_and_the_report_says_why():
    done = run("inspect", "--", *OTHER, "--ask-at-eof")
    assert "Traceback" not in done.err and "Exception in thread" not in done.err, done.err
    assert "-9" not in done.out
    assert ("server was still running 2 s after its stdin closed; minimcp stopped it with SIGTERM "
            "(it asked ping after minimcp had closed its stdin" in done.out), done.out
    assert done.seconds < 4.5
