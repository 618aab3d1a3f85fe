"""The small things of issue 30, point 9: arrays from key=value, images and blobs shown by
type and size (or saved with --save), inspect --json writing JSON only, and plurals.
The CLI runs in-process (``minimcp.main``); each server is a real process."""

import base64
import json
import sys

import minimcp
import minimcp_cli
from conftest import SERVE
from forms import ENUMS

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
SERVER = '''import json
from typing import List
from minimcp import MCPServer, Image

app = MCPServer("small")

@app.tool()
def picture() -> Image:
    return Image(%r, "image/png")

@app.tool()
def tags(tags: List[str], nums: List[int] = None) -> str:
    return json.dumps({"tags": tags, "nums": nums})

@app.resource("blob://data", mime_type="application/octet-stream")
def data() -> bytes:
    return b"\\x00\\x01\\x02"
''' % (PNG,)


def cli(capsys, *words):
    status = minimcp.main(list(words))
    out, err = capsys.readouterr()
    return status, out, err


def server(tmp_path):
    path = tmp_path / "small.py"
    path.write_text(SERVER)
    return SERVE + [str(path)]                  # minimcp.py serve, from cached bytecode


def test_key_value_makes_a_list_for_an_array_parameter(tmp_path, capsys):
    status, out, err = cli(capsys, "call", "tags", "tags=red,green", "tags=blue", "nums=1,2", "--", *server(tmp_path))
    assert status == 0, err
    assert json.loads(out.splitlines()[0]) == {"tags": ["red", "green", "blue"], "nums": [1, 2]}


def test_an_image_is_shown_by_type_and_size_and_saved_with_save(tmp_path, capsys):
    saved = tmp_path / "out"
    status, out, err = cli(capsys, "call", "picture", "--save", str(saved), "--", *server(tmp_path))
    assert status == 0, err
    path = saved / "image-1.png"
    assert out.splitlines()[0] == "[image image/png, %d bytes, saved to %s]" % (len(PNG), path)
    assert path.read_bytes() == PNG
    assert base64.b64encode(PNG).decode()[:20] not in out        # no base64 on the terminal


def test_results_without_save_say_type_and_size(capsys):
    minimcp_cli._print_result({"content": [{"type": "image", "mimeType": "image/png",
                                        "data": base64.b64encode(b"x" * 1500).decode()}],
                           "contents": [{"uri": "blob://d", "mimeType": "application/pdf",
                                         "blob": base64.b64encode(b"%PDF").decode()}]}, sys.stdout)
    out = capsys.readouterr().out
    assert out == "[image image/png, 1,500 bytes]\n[blob application/pdf, 4 bytes]\n"


def test_inspect_json_writes_only_the_json(tmp_path, capsys):
    status, out, err = cli(capsys, "inspect", "--json", "--", *server(tmp_path))
    assert status == 0
    assert [t["name"] for t in json.loads(out)["tools"]] == ["picture", "tags"]
    assert "tool      " not in err and "capabilities:" not in err, err


def test_counts_are_plural_only_when_they_should_be():
    assert minimcp_cli._plural(1, "tool") == "1 tool" and minimcp_cli._plural(2, "tool") == "2 tools"
    assert minimcp_cli._plural(0, "warning") == "0 warnings" and minimcp_cli._plural(3, "passed") == "3 passed"
    assert "is an object (convert it first" in minimcp._unsendable({"x": object()}, "result")


class _Terminal:
    """A stdin that is a terminal and types the given lines."""

    def __init__(self, lines):
        self.lines = list(lines)

    def isatty(self):
        return True

    def readline(self):
        return self.lines.pop(0) + "\n"


def test_the_terminal_client_answers_a_multi_select_and_skips_empty_optional_fields(monkeypatch):
    import minimcp
    import minimcp_cli

    class Fake:
        capabilities, modern = {}, False
    client = Fake()
    monkeypatch.setattr(sys, "stdin", _Terminal(["M", "", "", "x, z", ""]))
    minimcp_cli._terminal_answers(client)
    answer = client.elicitation({"message": "Fill in", "requestedSchema": ENUMS})
    assert answer == {"action": "accept", "content": {"single": "M", "multi": ["x", "z"]}}
    minimcp._check_elicited(answer, minimcp._elicitation_form(ENUMS))     # and the server takes it
