"""Bad resource URIs are refused at registration, blaming the URI (issue 30, point 8).

(A test_cli_* file because that is where this task's tests live; the check is the
registry's.) ``notes://{title`` was blamed on the function's parameters, and
``"just some words"`` was accepted as a URI that no client could ever read.
"""

import pytest

from minimcp import MCPServer, TestClient


def note(title: str) -> str:
    return "note " + title


@pytest.mark.parametrize("uri,message", [
    ("notes://{title", "resource 'notes://{title': the URI template's '{' at position 8 is never closed"),
    ("notes://title}", "resource 'notes://title}': the URI template has a '}' at position 13 that no '{' opens"),
    ("notes://{a{title}}", "a '{' inside the expression opened at position 8"),
    ("just some words", "resource 'just some words' is not a URI: it needs a scheme (like notes://, file:///)"),
    ("notes", "is not a URI"),
    ("file:///my notes/{title}", "no spaces (RFC 3986; percent-encode them as %20)"),
])
def test_a_uri_no_client_could_read_is_refused_with_what_is_wrong_with_it(uri, message):
    app = MCPServer("uris")
    with pytest.raises(ValueError) as info:
        app.add_resource(note, uri)
    assert message in str(info.value)
    assert "parameters" not in str(info.value)                 # the URI is at fault, not the function


def test_good_uris_and_templates_still_register_and_read():
    app = MCPServer("uris")
    app.add_resource(note, "notes://{title}")
    app.add_resource(lambda: "x", "file:///srv/my%20notes/index.txt")
    app.add_resource(lambda: "y", "urn:example:constant")
    with TestClient(app) as client:
        assert client.read_resource("notes://hi")["contents"][0]["text"] == "note hi"
        assert client.read_resource("urn:example:constant")["contents"][0]["text"] == "y"
