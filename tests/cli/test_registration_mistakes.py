"""Registration and serving mistakes a new user makes (issue 18, item 6): each one fails
loudly, at once, with a message that says what to do, instead of passing silently."""

import datetime
import json
import os
import subprocess
import sys
import threading

import pytest

from conftest import CLI, ROOT, SERVE, Wire
from minimcp import MCPServer, TestClient



def test_a_bare_resource_decorator_fails_instead_of_registering_nothing():
    app = MCPServer("r", dialect="minimcp")
    with pytest.raises(TypeError, match=r"@app.resource needs the resource's URI"):
        @app.resource
        def settings() -> str:
            return "{}"


@pytest.mark.parametrize("annotations,message", [
    ({"readOnly": True}, "unknown annotation 'readOnly'; did you mean 'readOnlyHint'?"),
    ({"destructive": False}, "did you mean 'destructiveHint'?"),
    ({"readOnlyHint": "yes"}, "annotation readOnlyHint must be a bool"),
])
def test_misspelled_or_mistyped_annotations_fail_at_registration(annotations, message):
    app = MCPServer("a", dialect="minimcp")
    with pytest.raises(ValueError) as info:
        app.add_tool(lambda: "x", name="t", annotations=annotations)
    assert message in str(info.value)


def test_the_documented_annotations_still_register():
    app = MCPServer("a", dialect="minimcp")
    app.add_tool(lambda: "x", name="t", annotations={"title": "T", "readOnlyHint": True, "destructiveHint": False,
                                                     "idempotentHint": True, "openWorldHint": False})


def test_an_unserialisable_return_value_names_where_it_is_and_is_not_called_a_raise(caplog):
    app = MCPServer("s", dialect="minimcp")

    class Opaque:
        """Nothing JSON (or pydantic) knows how to write."""

    @app.tool()
    def stamp() -> dict:
        return {"when": Opaque(), "ok": 1}

    @app.tool()
    def nested():
        return {"rows": [1, {"at": Opaque()}]}

    with caplog.at_level("ERROR", logger="minimcp"), TestClient(app) as client:
        first = client.call_tool("stamp")
        second = client.call_tool("nested")
    assert first["isError"] and first["content"][0]["text"].startswith(
        "the return value cannot be sent as JSON: result['when'] is an Opaque"), first
    assert "result['rows'][1]['at'] is an Opaque" in second["content"][0]["text"], second
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "tool stamp returned, but the return value cannot be sent as JSON" in logged
    assert "tool stamp raised" not in logged


def test_serve_functions_without_names_does_not_expose_main(tmp_path):
    script = tmp_path / "tool_script.py"
    script.write_text("import argparse\n\ndef word_count(text: str) -> int:\n    return len(text.split())\n\n"
                      "def main():\n    argparse.ArgumentParser().parse_args()\n\n"
                      "if __name__ == '__main__':\n    main()\n")
    done = subprocess.run(CLI + ["inspect", "--json", "--"] + SERVE + [                 # from cached bytecode
                           "--functions", str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()
    assert [t["name"] for t in json.loads(done.stdout.decode())["tools"]] == ["word_count"]
    assert "serving word_count from" in done.stderr.decode()


def test_run_from_a_second_thread_is_refused_before_touching_stdio(tmp_path):
    script = tmp_path / "twice.py"
    script.write_text("import sys, threading\nsys.path.insert(0, %r)\nfrom minimcp import MCPServer\n"
                      "app = MCPServer('twice')\nerrors = []\n"
                      "def again():\n    try:\n        app.run()\n    except RuntimeError as exc:\n"
                      "        sys.stderr.write('refused: %%s\\n' %% exc)\n"
                      "threading.Timer(0.2, again).start()\napp.run()\n" % ROOT)
    process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        line = process.stderr.readline()      # the refusal, while the first run() still serves
        assert b"refused: this MCPServer is already serving" in line, line
        process.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        process.stdin.close()
        assert json.loads(process.stdout.readline()) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert process.wait(10) == 0
        assert b"AttributeError" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
        process.stdout.close()
        process.stderr.close()
