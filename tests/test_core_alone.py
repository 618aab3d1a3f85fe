"""The core's tests (tests/core/), each file a pytest of its own over minimcp.py alone.

A component, once imported, adds to the core's tables for the rest of the process, so the
core's tests cannot share this process (or an xdist worker) with the others. Each file
below is a parametrized test here, so the main run spreads them as it spreads any test:
it runs ``python -m pytest tests/core/FILE`` in a folder that holds a copy of minimcp.py
and nothing else, and fails with that run's report if it does.
"""

import glob
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

CORE_TESTS = os.path.join(ROOT, "tests", "core")
FILES = sorted(os.path.basename(path) for path in glob.glob(os.path.join(CORE_TESTS, "test_*.py")))


@pytest.fixture(scope="session")
def core_alone(tmp_path_factory):
    """A folder holding minimcp.py and nothing else (the runs below share it, and its .pyc)."""
    folder = tmp_path_factory.mktemp("core_alone")
    shutil.copy(os.path.join(ROOT, "minimcp.py"), str(folder / "minimcp.py"))
    return str(folder)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.timeout(900)       # a whole file of tests: the per-test limit applies inside its run
def test_core_alone(name, core_alone, request):
    environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    environment["MINIMCP_CORE_ALONE"] = core_alone
    words = [sys.executable, "-m", "pytest", "-c", os.path.join(CORE_TESTS, "pytest.ini"), "--rootdir", CORE_TESTS,
             "-q", "-p", "no:cacheprovider", "--tb=short", "-rfE", os.path.join(CORE_TESTS, name)]
    if request.config.pluginmanager.hasplugin("timeout"):      # pytest-timeout's limit, per test there too
        words.insert(3, "--timeout=%s" % (request.config.getoption("timeout", None) or 60))
    done = subprocess.run(words, cwd=core_alone, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=900)
    report = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0, "tests/core/%s on minimcp.py alone:\n%s" % (name, report[-6000:])


def test_every_core_file_is_run_here_and_nowhere_else():
    assert len(FILES) >= 10, FILES
    pyproject = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert '"core"' in pyproject.split("norecursedirs", 1)[1].split("\n", 1)[0]     # the main run skips them
