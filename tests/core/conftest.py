"""The core's tests: minimcp.py alone, in a process no component file reaches.

Importing a component (minimcp_http.py, ...) adds to the core's tables for the rest of the
process, so these tests never share a process with the others: the main run starts one
pytest per file here (tests/test_core_alone.py), over a folder that holds a copy of
minimcp.py and nothing else ($MINIMCP_CORE_ALONE); ``python -m pytest tests/core/FILE``
makes such a folder itself. That folder comes first on sys.path, and any import of a
``minimcp_*`` module fails as if its file were missing, wherever it is (an example
that puts the repository on sys.path, a test that reaches for a component): the core
then says which file to copy, and the test that needed it fails saying so. At the end,
the run fails if any component was plugged in all the same.
"""

import atexit
import os
import shutil
import sys
import tempfile

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)

if "minimcp" in sys.modules or "conftest" in sys.modules and sys.modules["conftest"].__file__ != __file__:
    raise pytest.UsageError("tests/core/ runs minimcp.py alone, in a pytest of its own: run "
                            "`python -m pytest tests/core/FILE` by itself (the main run starts one per file)")

_FOLDER = os.environ.get("MINIMCP_CORE_ALONE")
if not _FOLDER:
    _FOLDER = tempfile.mkdtemp(prefix="minimcp-core-alone-")
    shutil.copy(os.path.join(ROOT, "minimcp.py"), os.path.join(_FOLDER, "minimcp.py"))
    atexit.register(shutil.rmtree, _FOLDER, True)
if sorted(os.listdir(_FOLDER)) not in (["minimcp.py"], ["__pycache__", "minimcp.py"]):
    raise pytest.UsageError("MINIMCP_CORE_ALONE must be a folder holding minimcp.py alone: %s holds %s"
                            % (_FOLDER, sorted(os.listdir(_FOLDER))))


class _NoComponents:
    """First on sys.meta_path: a component file's module is never found, wherever it is."""

    def find_spec(self, name, path=None, target=None):
        if name.startswith("minimcp_"):
            raise ModuleNotFoundError("tests/core runs minimcp.py alone: no %s" % name, name=name)
        return None


sys.meta_path.insert(0, _NoComponents())
sys.path[:0] = [_FOLDER, TESTS]          # this minimcp.py; the harness's modules (not the repository)

import minimcp  # noqa: E402

assert os.path.dirname(os.path.abspath(minimcp.__file__)) == os.path.abspath(_FOLDER), minimcp.__file__

from harness import *  # noqa: E402,F401,F403 - the wire harness, as tests/conftest.py has it
from harness import load_example  # noqa: E402


@pytest.fixture
def everything():
    """examples/everything.py as the core alone serves it: all of it but its last line, the Agent
    Skills, which are minimcp_skills.py's (and the core says which file to copy)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("everything_core", os.path.join(ROOT, "examples", "everything.py"))
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(AttributeError, match=r"MCPServer\.add_skills is in minimcp_skills\.py, which is not beside"):
        spec.loader.exec_module(module)
    return module.app


def pytest_sessionfinish(session, exitstatus):
    reached = sorted(name for name in sys.modules if name.startswith("minimcp_"))
    if minimcp._COMPONENTS or reached:
        session.exitstatus = 1
        sys.stderr.write("\ntests/core: a component reached the core alone: %s (plugged: %s)\n"
                         % (", ".join(reached) or "-", ", ".join(minimcp._COMPONENTS) or "-"))
