"""minimcp_testclient: TestClient for your tests, and the client the command line uses.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported; the core imports it on first use of a name it
provides. ``python3 minimcp.py bundle -o FILE`` writes the core and its components as one
file, leaving out this header (everything above the first section banner).
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
import json
import os
import sys
import threading
import time

import minimcp

__version__ = "0.1.0"
if minimcp.__version__ != __version__:
    raise ImportError("%s is minimcp %s's, but %s is minimcp %s: copy both from one release"
                      % (os.path.basename(__file__), __version__, minimcp.__file__, minimcp.__version__))

from minimcp import (  # noqa: E402
    INTERNAL_ERROR,
    LATEST_HANDSHAKE_VERSION,
    MCPError,
    MCPServer,
    META_CLIENT_CAPS,
    META_CLIENT_INFO,
    META_LOG_LEVEL,
    META_SERVER_INFO,
    META_VERSION,
    METHOD_NOT_FOUND,
    MODERN,
    PROTOCOL_VERSIONS,
    _error,
    _id_key,
    _notification,
    _plug,
    _request,
    _response,
    encode_message,
)


# Clients: TestClient for your tests, and the client the command line uses #####

class _ClientBase:
    """A synchronous MCP client over a pair of byte streams, in either era.

    A reader thread routes responses to waiting requests, answers the server's own
    requests (handshake era) with the callbacks, and records notifications. In the
    2026-07-28 era the same callbacks answer input-required results, and the
    request is retried until it completes.
    """

    def __init__(self, protocol: str = LATEST_HANDSHAKE_VERSION, sampling=None, roots=None,
                 elicitation=None, log_level: str = None, timeout: float = 30.0,
                 client_info: dict = None) -> None:
        if protocol not in PROTOCOL_VERSIONS:
            raise ValueError("unknown protocol %r; use one of %s" % (protocol, ", ".join(PROTOCOL_VERSIONS)))
        self.protocol = protocol
        self.modern = protocol in MODERN
        self.sampling, self.roots, self.elicitation = sampling, roots, elicitation
        self.log_level = log_level
        self.timeout = timeout
        self.client_info = client_info or {"name": "minimcp-client", "version": __version__}
        self.capabilities = {}
        if sampling is not None:
            self.capabilities["sampling"] = {}
        if roots is not None:
            self.capabilities["roots"] = {} if self.modern else {"listChanged": True}
        if elicitation is not None:
            self.capabilities["elicitation"] = {"form": {}, "url": {}}
        self.notifications = []
        self.progress = []
        self.logs = []
        self.server_info = {}
        self._answers = {}
        self._next_id = 0
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._closed = False
        self._answering = 0              # answers to the server's requests still being worked out
        self._closing = False            # our end of its stdin is closing: no more answers
        self.late_requests = []          # methods the server asked once we could no longer answer
        self._progress_at = {}           # progress token -> when its last notification came
        self.lines_read = 0              # lines the server wrote, JSON-RPC or not

    # -- plumbing ---------------------------------------------------------------------
    def _start(self, reader, writer) -> None:
        self._reader_stream, self._writer_stream = reader, writer
        self._thread = threading.Thread(target=self._read, name="minimcp-client", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._reader_stream:
            self.lines_read += 1
            try:
                message = json.loads(line.decode("utf-8"))
            except ValueError:
                self._on_impure(line)
                continue
            for item in message if isinstance(message, list) else [message]:
                self._route(item)
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _route(self, message) -> None:
        if not isinstance(message, dict):
            return
        if "method" in message and "id" in message:
            with self._cond:
                if self._closing:        # too late to answer: say so in close()'s report
                    self.late_requests.append(message["method"])
                    return
                self._answering += 1
            threading.Thread(target=self._answer_server, args=(message,), daemon=True).start()
            return
        with self._cond:
            if "method" in message:
                self.notifications.append(message)
                params = message.get("params") or {}
                if message["method"] == "notifications/progress":
                    self.progress.append(params)
                    self._progress_at[_id_key(params.get("progressToken"))] = time.monotonic()
                    self._on_progress(params)
                elif message["method"] == "notifications/message":
                    self.logs.append(params)
                    self._on_log(params)
            else:
                self._answers[_id_key(message.get("id"))] = message
            self._cond.notify_all()

    def _on_impure(self, line: bytes) -> None:
        """A stdout line that is not JSON: said on stderr (the command line adds the usual cause)."""
        sys.stderr.write("minimcp: the server wrote a line that is not JSON-RPC: %r\n" % line[:200])

    def _on_progress(self, params: dict) -> None:
        """Hook for the command line, which shows progress as it arrives."""

    def _on_log(self, params: dict) -> None:
        """Hook for the command line, which shows log messages as they arrive."""

    def _answer_question(self, method: str, params: dict) -> dict:
        """Answer a sampling / roots / elicitation / ping question with the callbacks."""
        if method == "ping":
            return {}
        if method == "roots/list" and self.roots is not None:
            roots = self.roots() if callable(self.roots) else self.roots
            return {"roots": [r if isinstance(r, dict) else {"uri": r} for r in roots]}
        if method == "sampling/createMessage" and self.sampling is not None:
            answer = self.sampling(params)
            if isinstance(answer, str):
                answer = {"role": "assistant", "content": {"type": "text", "text": answer}, "model": "test"}
            return answer
        if method == "elicitation/create" and self.elicitation is not None:
            return self.elicitation(params)
        raise MCPError(METHOD_NOT_FOUND, "this client does not answer %s" % method)

    def _answer_server(self, message: dict) -> None:
        try:
            try:
                result = self._answer_question(message["method"], message.get("params") or {})
                reply = _response(message["id"], result)
            except MCPError as exc:
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": exc.to_error()}
            except Exception as exc:
                reply = _error(message["id"], INTERNAL_ERROR, "client callback failed: %s" % exc)
            try:
                self._send(reply)
            except MCPError:                 # the server's stdin is closed: nobody to tell
                with self._cond:
                    self.late_requests.append(message["method"])
        finally:
            with self._cond:
                self._answering -= 1
                self._cond.notify_all()

    def _close_input(self, timeout: float) -> None:
        """Let answers being worked out go out, refuse new questions, then close the server's stdin."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._answering and time.monotonic() < deadline:
                self._cond.wait(max(0.0, deadline - time.monotonic()))
            self._closing = True
        try:
            self._writer_stream.close()
        except OSError:
            pass

    def _send(self, message) -> None:
        with self._write_lock:
            try:
                self._writer_stream.write(encode_message(message))
                self._writer_stream.flush()
            except (OSError, ValueError):
                raise MCPError(INTERNAL_ERROR, "the server is gone (its stdin is closed)") from None

    def _envelope(self, params: dict) -> dict:
        params = dict(params or {})
        meta = dict(params.get("_meta") or {})
        if self.modern:
            meta.update({META_VERSION: self.protocol, META_CLIENT_CAPS: self.capabilities,
                         META_CLIENT_INFO: self.client_info})
            if self.log_level:
                meta[META_LOG_LEVEL] = self.log_level
        if meta:
            params["_meta"] = meta
        return params

    def notify(self, method: str, params: dict = None) -> None:
        """Send a notification."""
        self._send(_notification(method, params))

    #: What a timeout message adds: how to wait longer (the command line names --timeout).
    TIMEOUT_HINT = "the server may still be working on it; give the client a longer timeout"

    def wait_for_progress(self, token, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a progress notification with ``token``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while _id_key(token) not in self._progress_at and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return _id_key(token) in self._progress_at

    def send_request(self, method: str, params: dict = None, on_id=None) -> dict:
        """Send one request and wait for its response message (result or error), raw.

        The wait is ``timeout`` seconds from the request, or from the request's last
        progress notification: a long call that keeps reporting progress is not given up
        on (the TypeScript SDK's ``resetTimeoutOnProgress``).
        """
        with self._cond:
            self._next_id += 1
            request_id = self._next_id
        if on_id is not None:
            on_id(request_id)
        params = self._envelope(params)
        token = ((params or {}).get("_meta") or {}).get("progressToken")
        token = _id_key(token) if token is not None else None
        self._send(_request(request_id, method, params))
        sent = time.monotonic()
        with self._cond:
            while _id_key(request_id) not in self._answers:
                last = max(sent, self._progress_at.get(token, sent))
                left = last + self.timeout - time.monotonic()
                if self._closed:
                    raise MCPError(INTERNAL_ERROR, "the server closed the connection before answering %s" % method)
                if left <= 0:
                    self._send(_notification("notifications/cancelled", {"requestId": request_id,
                                                                         "reason": "timed out"}))
                    raise MCPError(INTERNAL_ERROR, "no answer to %s within %s seconds%s (%s)"
                                   % (method, self.timeout, " of its last progress" if last > sent else "",
                                      self.TIMEOUT_HINT))
                self._cond.wait(min(left, 0.25))
            return self._answers.pop(_id_key(request_id))

    def request(self, method: str, params: dict = None, on_id=None) -> dict:
        """Send a request and return its result; raises MCPError for an error response.

        In the 2026-07-28 era input-required results are answered with the callbacks
        and the request is retried until it completes.
        """
        params = dict(params or {})
        for _ in range(16):
            answer = self.send_request(method, params, on_id)
            if "error" in answer:
                error = answer["error"] if isinstance(answer["error"], dict) else {}
                raise MCPError(error.get("code", INTERNAL_ERROR), error.get("message", ""), error.get("data"))
            result = answer.get("result") or {}
            if result.get("resultType") != "input_required":
                return result
            responses = {key: self._answer_question(question.get("method"), question.get("params") or {})
                         for key, question in (result.get("inputRequests") or {}).items()}
            params = dict(params, inputResponses=responses)
            if "requestState" in result:
                params["requestState"] = result["requestState"]
        raise MCPError(INTERNAL_ERROR, "%s still needed input after 16 rounds" % method)

    # -- the session ------------------------------------------------------------------
    def connect(self) -> dict:
        """Open the session: ``initialize`` (handshake era) or ``server/discover`` (2026-07-28)."""
        if self.modern:
            result = self.request("server/discover")
            self.server_info = (result.get("_meta") or {}).get(META_SERVER_INFO, {})
            return result
        result = self.request("initialize", {"protocolVersion": self.protocol, "capabilities": self.capabilities,
                                             "clientInfo": self.client_info})
        self.server_info = result.get("serverInfo", {})
        self.notify("notifications/initialized")
        if self.log_level:
            self.request("logging/setLevel", {"level": self.log_level})
        return result

    def _list(self, method: str, field: str) -> list:
        items, cursor, seen = [], None, set()
        while True:
            result = self.request(method, {"cursor": cursor} if cursor else {})
            items.extend(result.get(field, []))
            cursor = result.get("nextCursor")
            if not cursor:
                return items
            if not isinstance(cursor, str) or cursor in seen:   # a server that pages for ever
                raise MCPError(INTERNAL_ERROR, "%s: the server sent the cursor %r again; its pages "
                                               "never end" % (method, cursor))
            seen.add(cursor)

    def list_tools(self) -> list:
        """All tools (every page)."""
        return self._list("tools/list", "tools")

    def list_resources(self) -> list:
        """All fixed resources (every page)."""
        return self._list("resources/list", "resources")

    def list_resource_templates(self) -> list:
        """All resource templates (every page)."""
        return self._list("resources/templates/list", "resourceTemplates")

    def list_prompts(self) -> list:
        """All prompts (every page)."""
        return self._list("prompts/list", "prompts")

    def call_tool(self, name: str, arguments: dict = None, on_id=None) -> dict:
        """Call a tool; progress and log notifications are collected in ``progress`` / ``logs``."""
        with self._cond:                 # calls made from several threads at once get tokens of their own
            self._next_token = getattr(self, "_next_token", 0) + 1
            token = self._next_token
        params = {"name": name, "arguments": arguments or {}, "_meta": {"progressToken": token}}
        return self.request("tools/call", params, on_id)

    def read_resource(self, uri: str) -> dict:
        """Read a resource; returns the result (``contents``)."""
        return self.request("resources/read", {"uri": uri})

    def get_prompt(self, name: str, arguments: dict = None) -> dict:
        """Get a prompt; returns the result (``messages``)."""
        return self.request("prompts/get", {"name": name, "arguments": arguments or {}})

    def complete(self, ref: str, argument: str, value: str = "", context: dict = None) -> dict:
        """Complete an argument of a prompt (``ref`` = its name) or template (``ref`` = its URI)."""
        reference = {"type": "ref/resource", "uri": ref} if "{" in ref or "://" in ref else \
            {"type": "ref/prompt", "name": ref}
        params = {"ref": reference, "argument": {"name": argument, "value": value}}
        if context:
            params["context"] = {"arguments": context}
        return self.request("completion/complete", params)["completion"]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False


class TestClient(_ClientBase):
    """A synchronous in-memory client for testing your server with pytest or unittest.

    The server runs ``serve()`` on a thread, connected by OS pipes, so the test goes
    through the same bytes a host would send::

        def test_add():
            with TestClient(app) as client:
                assert client.call_tool("add", {"a": 2, "b": 3})["structuredContent"] == {"result": 5}

    Args:
        app: the MCPServer to test.
        protocol: the revision to speak ("2025-11-25" by default, or "2026-07-28", ...).
        sampling: ``fn(params) -> CreateMessageResult`` (or a string) to answer sampling.
        roots: a list of URIs / Root dicts, or a function returning one.
        elicitation: ``fn(params) -> ElicitResult``.
        log_level: ask for log notifications at or above this level (collected in ``logs``).
    """

    __test__ = False          # not a test class, whatever pytest thinks of its name

    def __init__(self, app: "MCPServer", protocol: str = LATEST_HANDSHAKE_VERSION, **options) -> None:
        super().__init__(protocol, **options)
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        server_in, server_out = os.fdopen(in_read, "rb"), os.fdopen(out_write, "wb")
        self.app = app

        def serve():
            with server_in, server_out:              # closing its output is the client's end of input
                app.serve(server_in, server_out)
        self._server = threading.Thread(target=serve, name="minimcp-testserver", daemon=True)
        self._server.start()
        self._start(os.fdopen(out_read, "rb"), os.fdopen(in_write, "wb"))
        self.connect()

    def close(self) -> None:
        """Close the server's input and wait for it to stop."""
        self._close_input(5.0)
        self._server.join(self.app.shutdown_grace + 5)
        self._thread.join(5)


class _ProcessClient(_ClientBase):
    """The command line's client: drives a server process over its stdin/stdout."""

    #: The server's stderr is ours, unless this is true: then it is a pipe that
    #: ``_read_stderr`` reads (the selftest looks in it for tracebacks).
    PIPE_STDERR = False

    def __init__(self, command: list, protocol: str = LATEST_HANDSHAKE_VERSION, **options) -> None:
        import subprocess
        super().__init__(protocol, **options)
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE if self.PIPE_STDERR else None)
        except OSError as exc:
            raise SystemExit("minimcp: cannot start %s: %s (a host would say `spawn ... ENOENT`: give the "
                             "command's absolute path; see %s)" % (" ".join(command), exc, self.TROUBLESHOOTING))
        if self.PIPE_STDERR:
            self._stderr_thread = threading.Thread(target=self._read_stderr, name="minimcp-stderr", daemon=True)
            self._stderr_thread.start()
        self._start(self.process.stdout, self.process.stdin)

    def _read_stderr(self) -> None:
        """Hook: read the server's stderr pipe (only with ``PIPE_STDERR``)."""

    def _on_impure(self, line: bytes) -> None:
        first = not getattr(self, "_told_impure", False)
        self._told_impure = True
        sys.stderr.write("minimcp: the server wrote a line that is not JSON-RPC: %r%s\n"
                         % (line[:200], " (a print() before app.run(), or to stdout from a library? Write to "
                            "stderr instead; see %s)" % self.TROUBLESHOOTING if first else ""))

    def _on_progress(self, params: dict) -> None:
        sys.stderr.write("progress: %s/%s %s\n" % (params.get("progress"), params.get("total", "?"),
                                                   params.get("message", "")))

    def _on_log(self, params: dict) -> None:
        data = params.get("data")
        sys.stderr.write("log [%s]%s %s\n" % (params.get("level", "?"),
                                              " %s:" % params["logger"] if params.get("logger") else "",
                                              data if isinstance(data, str) else json.dumps(data)))

    #: How long a server gets to exit after its stdin closes, and again after SIGTERM.
    EXIT_GRACE = 2.0

    TIMEOUT_HINT = ("minimcp's own --timeout, not the server's: it may still be working on it; "
                    "give --timeout SECONDS to wait longer")

    def close(self) -> int:
        """Close the server's stdin and return its exit status.

        As the MCP stdio transport says: close stdin, wait; then SIGTERM, wait; then
        SIGKILL. ``ended_by`` says which step ended it (None: it exited by itself).
        """
        import subprocess
        self.ended_by = None
        self._close_input(self.EXIT_GRACE)
        for signal_name, stop in (("SIGTERM", self.process.terminate), ("SIGKILL", self.process.kill), (None, None)):
            try:
                status = self.process.wait(self.EXIT_GRACE if stop is not None else None)
                break
            except subprocess.TimeoutExpired:
                self.ended_by = signal_name
                stop()
        if self.PIPE_STDERR:                 # its last lines (a child may hold the pipe: not for ever)
            self._stderr_thread.join(self.EXIT_GRACE)
        return status

    #: Where the README explains what the command line detects.
    TROUBLESHOOTING = "README.md, \"Troubleshooting\""

    def diagnose(self) -> str:
        """Why the server went away before answering, when its exit says so ("" if not).

        Called after a request failed because the connection closed: a server that
        exits 0 having written nothing is a script that defines a server and never
        runs it (no ``app.run()``), which is the usual way to get here.
        """
        import subprocess
        try:
            status = self.process.wait(self.EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return ""
        if status == 0 and self.lines_read == 0:
            return ("the server exited with status 0 having written nothing: does the script call app.run() "
                    "(under `if __name__ == \"__main__\":`)? A file that only defines the server runs with "
                    "`minimcp.py serve FILE`. See %s" % self.TROUBLESHOOTING)
        if status != 0:
            return ("the server exited with status %s before answering: its stderr, above, says why. See %s"
                    % (status, self.TROUBLESHOOTING))
        return ""

    def exit_report(self, status: int) -> str:
        """How the server ended, in words, for the command line."""
        if self.ended_by is None:
            text = "server exited with status %s after its stdin closed" % status
        else:
            text = ("server was still running %.0f s after its stdin closed; minimcp stopped it with %s"
                    % (self.EXIT_GRACE, self.ended_by))
        if self.late_requests:
            text += " (it asked %s after minimcp had closed its stdin, and may have waited for the answer)" \
                % ", ".join(sorted(set(self.late_requests)))
        return text


_plug("testclient", "TestClient for your tests, and the client the command line uses", public=("TestClient",))
