"""HTTP request framing on the stdlib server (issue 26): raw bytes on a real socket, responses out.

``serve --http`` runs in a process of its own, so that its peak memory (``VmHWM``) says
whether a request made it read what it should not have. Issue 41: no framing makes a body's
bytes a request (each case hides one there), and chunk sizes are hex digits only.
"""

import json
import os
import socket
import subprocess
import threading

import pytest

from conftest import ROOT, SERVE

MODERN = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "framing-test", "version": "1"}}
MiB = 1024 * 1024


class Served:
    """``python3 minimcp.py serve --http 127.0.0.1:0 examples/everything.py`` (conftest.SERVE), until closed."""

    def __init__(self, env=None):
        self.process = subprocess.Popen(
            SERVE + ["--http", "127.0.0.1:0", "examples/everything.py"],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=dict(os.environ, **(env or {})))
        line = ""
        while "serving" not in line:                     # printed once the socket is bound
            line = self.process.stderr.readline().decode()
            assert line, "the server exited before serving"
        self.port = int(line.rsplit(":", 1)[1].split("/")[0])

    def peak_memory(self) -> int:
        """The server's peak resident memory so far, in bytes."""
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM in /proc")

    def exchange(self, head: bytes, body_pieces=(), timeout=20):
        """Send a request head, then the body pieces while the answer is read; returns (status, JSON body).

        The body is sent from another thread, so a server that answers without reading the body
        is heard at once, and one that reads it all is heard only after it has.
        """
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        connection.sendall(head)
        sender = send_in_background(connection, body_pieces, end=True)
        received = b""
        try:
            while True:
                data = connection.recv(65536)
                if not data:
                    break
                received += data
                if complete(received):
                    break
        except ConnectionResetError:                     # after the answer, when the body was left unread
            pass
        finally:
            sender.join(timeout)
            connection.close()
        assert complete(received), received[:300]
        header, _, payload = received.partition(b"\r\n\r\n")
        return int(header.split()[1]), json.loads(payload) if payload else None


def complete(received: bytes) -> bool:
    header, separator, payload = received.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in header.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(payload) >= int(value)
    return False


def request_head(extra_headers: str, token=None) -> bytes:
    head = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: %s\r\n"
            "Mcp-Method: tools/call\r\nMcp-Name: echo\r\n" % MODERN)
    if token is not None:
        head += "Authorization: %s\r\n" % token
    return (head + extra_headers + "\r\n").encode("latin-1")


def echo_call(text="framed") -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": text}, "_meta": ENVELOPE}}).encode()


def chunked(body: bytes, size: int) -> list:
    pieces = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size)]
    return pieces + [b"0\r\n\r\n"]


@pytest.fixture(scope="module")
def served():
    server = Served()
    yield server
    server.process.terminate()
    server.process.wait(10)
    server.process.stderr.close()


def test_a_plain_content_length_is_served(served):
    body = echo_call()
    status, answer = served.exchange(request_head("Content-Length: %d\r\n" % len(body)), [body])
    assert status == 200 and answer["result"]["content"][0]["text"] == "framed", answer


@pytest.mark.parametrize("length", ["-1", "-100", "abc", "1e3", "0x10", "12 34", "+12", "1_0", "1\xb2"])
def test_a_malformed_content_length_is_refused_before_the_body_is_read(served, length):
    before = served.peak_memory()
    megabyte = b"x" * MiB
    status, answer = served.exchange(request_head("Content-Length: %s\r\n" % length), [megabyte] * 64)
    assert status == 400 and answer["error"]["code"] == -32600, (status, answer)
    assert "Content-Length" in answer["error"]["message"]
    assert served.peak_memory() - before < 16 * MiB       # the 64 MiB behind it was never read


def test_a_content_length_over_the_limit_is_413_unread(served):
    before = served.peak_memory()
    for length in ("%d" % (4 * MiB + 1), "9" * 5000):      # over max_body; more digits than int() takes
        status, answer = served.exchange(request_head("Content-Length: %s\r\n" % length), [b"x" * MiB] * 8)
        assert status == 413 and "limit is %d" % (4 * MiB) in answer["error"]["message"], (status, answer)
    assert served.peak_memory() - before < 16 * MiB


def test_a_chunked_request_is_answered(served):
    status, answer = served.exchange(request_head("Transfer-Encoding: chunked\r\n"),
                                     chunked(echo_call("in chunks"), 9))
    assert status == 200 and answer["result"]["content"][0]["text"] == "in chunks", answer


def test_a_chunked_body_over_max_body_is_413_and_read_no_further(served):
    before = served.peak_memory()
    status, answer = served.exchange(request_head("Transfer-Encoding: chunked\r\n"),
                                     chunked(b" " * (64 * MiB), MiB))
    assert status == 413 and answer["error"]["code"] == -32600, (status, answer)
    assert served.peak_memory() - before < 24 * MiB       # the 4 MiB limit and its pieces, not 64 MiB


@pytest.mark.parametrize("framing", [b"zz\r\nhello\r\n0\r\n\r\n", b"3\r\nhello\r\n0\r\n\r\n",
                                     b"5\r\nhel"])
def test_a_malformed_chunked_body_is_400(served, framing):
    status, answer = served.exchange(request_head("Transfer-Encoding: chunked\r\n"), [framing])
    assert status == 400 and "chunked body" in answer["error"]["message"], (status, answer)


def test_the_bearer_scheme_is_case_insensitive_and_the_token_is_not():
    server = Served(env={"MINIMCP_HTTP_TOKEN": "s3cret"})
    try:
        body = echo_call()
        length = "Content-Length: %d\r\n" % len(body)
        for authorization, expected in [("bearer s3cret", 200), ("BEARER s3cret", 200), ("Bearer s3cret", 200),
                                        ("bearer S3CRET", 401), ("Basic s3cret", 401), ("s3cret", 401),
                                        ("bearers3cret", 401)]:
            status, answer = server.exchange(request_head(length, token=authorization), [body])
            assert status == expected, (authorization, status, answer)
    finally:
        server.process.terminate()
        server.process.wait(10)
        server.process.stderr.close()


def test_a_wsgi_server_that_passes_chunked_bodies_undecoded_gets_411_not_a_hang():
    import io
    from conftest import load_example
    app = load_example("everything").app.wsgi_app()
    started = []
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/mcp", "HTTP_HOST": "127.0.0.1",
               "HTTP_TRANSFER_ENCODING": "chunked", "CONTENT_TYPE": "application/json",
               "HTTP_ACCEPT": "application/json, text/event-stream", "HTTP_MCP_PROTOCOL_VERSION": MODERN,
               "wsgi.input": io.BytesIO(b"5\r\nhello\r\n0\r\n\r\n")}    # no wsgi.input_terminated
    body = b"".join(app(environ, lambda status, headers: started.append(status)))
    assert started == ["411 Length Required"] and b"Content-Length" in body


# -- issue 41: nothing in a body is ever read as a request ----------------------------------------

def hidden_request() -> bytes:
    """A whole request, to hide in a body: if a server reads it as the next one, it answers "HIDDEN"."""
    body = echo_call("HIDDEN")
    return request_head("Content-Length: %d\r\n" % len(body)) + body


def send_in_background(connection, pieces, end=False) -> threading.Thread:
    """Send ``pieces`` from another thread, so a server that answers before reading them all is heard;
    ``end``: then say there is no more (shut the connection's sending side)."""
    def send():
        try:
            for piece in pieces:
                connection.sendall(piece)
            if end:
                connection.shutdown(socket.SHUT_WR)
        except OSError:                              # the server answered and closed: expected
            pass
    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    return sender


def read_until_closed(sock, timeout) -> bytes:
    """What the server sends until it closes the connection; AssertionError if it does not in ``timeout``."""
    sock.settimeout(timeout)
    received = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return received
            received += data
    except socket.timeout:
        raise AssertionError("the connection was still open after %g s: %r" % (timeout, received[:200])) from None
    except ConnectionResetError:                     # closed with what it was sent unread: never read
        return received


def until_closed(served, data: bytes, timeout=10) -> bytes:
    """Send ``data`` on a connection of its own; everything the server answers, up to its closing it."""
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=timeout)
    sender = send_in_background(connection, [data])
    try:
        return read_until_closed(connection, timeout)
    finally:
        connection.close()
        sender.join(timeout)


CHUNKED = b"".join(chunked(echo_call(), 64))        # a chunked body a server would serve, if it took it


@pytest.mark.parametrize("framing, status, before", [
    ("Transfer-Encoding: gzip\r\n", 501, b""),
    ("Transfer-Encoding: identity\r\n", 501, b""),
    ("Transfer-Encoding: gzip, chunked\r\n", 501, CHUNKED),
    ("Transfer-Encoding: chunked, gzip\r\n", 400, CHUNKED),
    ("Transfer-Encoding: chunked, chunked\r\n", 400, CHUNKED),
    ("Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n", 400, CHUNKED),
    ("Transfer-Encoding: chu nked\r\n", 400, b""),
    ("Transfer-Encoding: \r\n", 400, b""),
    ("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", 400, CHUNKED),
    ("Content-Length: 0\r\nContent-Length: 0\r\n", 400, b""),
], ids=["gzip", "identity", "gzip-chunked", "chunked-gzip", "chunked-twice", "two-headers", "invalid", "empty",
        "with-content-length", "two-lengths"])
def test_a_body_is_never_read_as_a_request(served, framing, status, before):
    # The body is a whole request (after a chunked body where a chunked reader would read one): a
    # server that takes the wrong framing, or goes on after refusing one, answers it too.
    received = until_closed(served, request_head(framing) + before + hidden_request())
    assert received.startswith(b"HTTP/1.1 %d " % status), received[:300]
    assert received.count(b"HTTP/1.1 ") == 1 and b"HIDDEN" not in received, received
    assert b"Connection: close" in received and b'"code":-32' in received      # a JSON-RPC error, then closed


def test_transfer_encoding_in_http_1_0_is_refused():
    server = Served()
    try:
        head = request_head("Transfer-Encoding: chunked\r\n").replace(b"HTTP/1.1", b"HTTP/1.0", 1)
        received = until_closed(server, head + CHUNKED + hidden_request())
        assert received.startswith(b"HTTP/1.1 400 ") and b"HIDDEN" not in received, received
    finally:
        server.process.terminate()
        server.process.wait(10)
        server.process.stderr.close()


@pytest.mark.parametrize("spelling", ["0x%x", "0X%x", "+%x", " %x", "%x ", "-0"], ids=[
    "0x", "0X", "plus", "leading-space", "trailing-space", "minus"])
def test_a_chunk_size_is_hex_digits_only(served, spelling):
    body = echo_call("sized")
    size = (spelling % len(body)) if "%" in spelling else spelling
    framed = b"%s\r\n%s\r\n0\r\n\r\n" % (size.encode(), body)
    received = until_closed(served, request_head("Transfer-Encoding: chunked\r\n") + framed)
    assert received.startswith(b"HTTP/1.1 400 ") and b"chunked body" in received, (size, received[:300])


def test_an_underscore_in_a_chunk_size_and_bare_line_feeds_are_refused(served):
    body = echo_call("sized")
    digits = b"%x" % len(body)
    for framed in (b"%s_%s\r\n" % (digits[:1], digits[1:]) + body + b"\r\n0\r\n\r\n",   # int() reads 1_0
                   digits + b"\n" + body + b"\r\n0\r\n\r\n",                  # a size line ended by LF
                   digits + b"\r\n" + body + b"\r\n0\r\n\n",                  # the trailers ended by LF
                   digits + b"\r\n" + body + b"\r\n0\rx\r\n\r\n"):              # a bare CR inside a line
        received = until_closed(served, request_head("Transfer-Encoding: chunked\r\n") + framed)
        assert received.startswith(b"HTTP/1.1 400 "), (framed[:20], received[:300])
    framed = digits + b" ; name=value\r\n" + body + b"\r\n0\r\nTrailer: x\r\n\r\n"   # what RFC 9112 allows
    status, answer = served.exchange(request_head("Transfer-Encoding: chunked\r\n"), [framed])
    assert status == 200 and answer["result"]["content"][0]["text"] == "sized", answer


@pytest.mark.parametrize("hosts", [b"", b"Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n"], ids=["none", "two"])
def test_a_request_without_one_host_is_400(served, hosts):
    body = echo_call()
    head = request_head("Content-Length: %d\r\n" % len(body)).replace(b"Host: 127.0.0.1\r\n", hosts)
    status, answer = served.exchange(head, [body])
    assert status == 400 and "Host" in answer["error"]["message"], (status, answer)


def test_a_request_head_over_its_limit_is_431_and_read_no_further(served):
    # http.server alone takes up to 100 header lines of 64 KiB each: 6.4 MiB held per connection.
    before = served.peak_memory()
    fields = "".join("X-Filler-%d: %s\r\n" % (index, "f" * 8000) for index in range(60))   # 480 KB in 60 lines
    received = until_closed(served, request_head(fields) + b"x" * (32 << 20))
    assert received.startswith(b"HTTP/1.1 431 ") and b'"code":-32600' in received, received[:300]
    assert served.peak_memory() - before < 16 * MiB
