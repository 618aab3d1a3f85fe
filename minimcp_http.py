"""minimcp_http: Streamable HTTP as a WSGI app, and a server for it on http.server.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported; the core imports it on first use of a name it
provides. ``python3 minimcp.py bundle -o FILE`` writes the core and its components as one
file, leaving out this header (everything above the first section banner).
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
import io
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
    ALL_VERSIONS,
    HANDSHAKE,
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    MCPError,
    MCPServer,
    META_VERSION,
    METHOD_NOT_FOUND,
    MISSING_CLIENT_CAPABILITY,
    MODERN,
    PARSE_ERROR,
    PROTOCOL_VERSIONS,
    REVISIONS,
    UNSUPPORTED_PROTOCOL_VERSION,
    _Admission,
    _Call,
    _Peer,
    _Session,
    _Task,
    _Terminated,
    _b64url,
    _decode_line,
    _error,
    _logger,
    _part,
    _plug,
    _unb64url,
    _version_refusal,
    encode_message,
)


# Transport: Streamable HTTP as a WSGI app (its modules imported only when used) ####

# The MCP-* headers: what they must say of the body and the session (SEP-2243, SEP-2663) -----

# Where Mcp-Name comes from in the body (SEP-2663 routing headers).
_NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
             "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}


def _mirrored_arguments(schema: dict, arguments, depth: int = 0):
    """(header name, argument value or None) for every property marked ``x-mcp-header``; arguments may be any JSON."""
    for name, prop in (schema.get("properties") or {}).items() if isinstance(schema, dict) else ():
        if not isinstance(prop, dict):
            continue
        value = arguments.get(name) if isinstance(arguments, dict) else None
        if isinstance(prop.get("x-mcp-header"), str):
            yield prop["x-mcp-header"], value
        elif "properties" in prop and depth < 8:
            yield from _mirrored_arguments(prop, value, depth + 1)


def _same_header_value(sent, value) -> bool:
    if sent is None or value is None:
        return sent is None and value is None
    if isinstance(value, bool):
        return sent == ("true" if value else "false")
    if isinstance(value, int):
        try:
            return float(sent) == value
        except ValueError:
            return False
    return sent == value


def _header_value(raw):
    """A header as sent, with the ``=?base64?...?=`` sentinel decoded (None if undecodable)."""
    if raw is None or not (raw.startswith("=?base64?") and raw.endswith("?=")):
        return raw
    import base64
    import binascii
    try:
        return base64.b64decode(raw[9:-2], validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _refuses_headers(session: _Session, headers: dict):
    """(code, message, data, malformed) if a transport's headers do not fit this session, else None.

    For what carries no message (HTTP GET and DELETE): only the revision is checked.
    """
    return _check_headers(session, None, None, headers)

def _check_headers(session: _Session, method, params, headers: dict, request: dict = None):
    """HTTP: the ``mcp-*`` headers agree with this session and the body; else (code, message, data, malformed).

    ``method`` is None for a batch (only the version header is checked for one);
    ``request`` is the message if it is a request. A session opened by
    ``initialize`` takes any handshake revision in MCP-Protocol-Version. Outside
    one, ``initialize`` opens one; otherwise the header (or, without it, the
    body's ``_meta``) must say 2026-07-28, whose requests mirror their method and
    name in Mcp-Method and Mcp-Name (SEP-2243, SEP-2663).
    """
    version = headers.get("mcp-protocol-version")
    if session.lasting:
        if version is not None and version not in HANDSHAKE:
            return (INVALID_REQUEST, "Bad Request: MCP-Protocol-Version %s is not a revision of this "
                    "session's era (it speaks %s)" % (version, session.peer.rev.version), None, True)
        return None
    meta = params.get("_meta") if isinstance(params, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    if method == "initialize" and version not in MODERN:
        return None                              # opens a session: _admit and the handler decide the rest
    if version in MODERN or (version is None and META_VERSION in meta):
        return _check_modern_headers(session, method, params, meta, headers, request)
    if version is not None and version not in ALL_VERSIONS:
        refusal = _version_refusal(version)
        return refusal.code, refusal.message, refusal.data, True
    return (INVALID_REQUEST, "Bad Request: no Mcp-Session-Id; send initialize first (protocol 2025-11-25 "
            "and older) or the 2026-07-28 _meta envelope and MCP-Protocol-Version header", None, True)

def _check_modern_headers(session: _Session, method, params, meta: dict, headers: dict, request):
    version = headers.get("mcp-protocol-version")
    if method is None:
        return (INVALID_REQUEST, "Invalid Request: one JSON-RPC message per POST (no batches in protocol "
                "2026-07-28)", None, True)
    if version is None:
        return HEADER_MISMATCH, "Header mismatch: the MCP-Protocol-Version header is missing", None, True
    if META_VERSION in meta and meta[META_VERSION] != version:
        return (HEADER_MISMATCH, "Header mismatch: MCP-Protocol-Version %r does not match _meta %r"
                % (version, meta[META_VERSION]), None, True)
    if request is None:
        return None                              # notifications: no header rules in this revision
    try:        # server/discover too: RequestParams requires _meta. The session keeps the peer it
        session._peer_for_envelope(params.get("_meta") if isinstance(params, dict) else None)  # makes:
    except MCPError as exc:     # _admit reads it, not checks again. A malformed envelope is a bad request
        return exc.code, exc.message, exc.data, True
    sent = _header_value(headers.get("mcp-method"))
    if sent != method:
        return (HEADER_MISMATCH, "Header mismatch: Mcp-Method %r does not match the body's method %r"
                % (sent, method), None, True)
    if method == "initialize":                   # the header chose 2026-07-28, which has no initialize
        return (METHOD_NOT_FOUND, "Method not found: initialize is not part of protocol 2026-07-28; to open "
                "a 2025-11-25 session, send it without the 2026-07-28 MCP-Protocol-Version header and _meta "
                "envelope", None, False)
    field = _NAMED_BY.get(method)
    if field is not None:
        name = _header_value(headers.get("mcp-name"))
        if name != params.get(field):
            return (HEADER_MISMATCH, "Header mismatch: Mcp-Name %r does not match the body's %s %r"
                    % (name, field, params.get(field)), None, True)
    if method == "tools/call":
        tool = session.server._tools.get(params.get("name"))
        for header, value in _mirrored_arguments(tool.input_schema if tool else {}, params.get("arguments")):
            sent = headers.get("mcp-param-" + header.lower())
            decoded = _header_value(sent)       # None for None: both absent is a match
            if sent is not None and (decoded is None or any(ord(c) < 32 and c != "\t" for c in sent)):
                return (HEADER_MISMATCH, "Header mismatch: Mcp-Param-%s has invalid characters" % header,
                        None, True)
            if not _same_header_value(decoded, value):
                return (HEADER_MISMATCH, "Header mismatch: Mcp-Param-%s %r does not match the argument %r"
                        % (header, decoded, value), None, True)
    return None


class _Exchange:
    """The messages one HTTP request is waiting for: its answer, and what comes before it.

    Items are (data, final): ``final`` is the answer itself (as the session wrote it)
    for the last one, else None; ``(None, None)`` says the stream is shut (its session
    ended, or a newer GET replaced it) and must end now; ``(None, CANCELLED)``, that the
    client cancelled the request, which is never answered, so its stream ends unanswered.
    """
    __slots__ = ("queue", "waker")
    CANCELLED = "cancelled"

    def __init__(self) -> None:
        import queue
        self.queue = queue.SimpleQueue()
        self.waker = None                # an event loop waiting on the queue: told of each item (ASGI)

    LIMIT = 1024                         # notifications queued for a client that does not read

    def push(self, data: bytes, final) -> None:
        if final or self.queue.qsize() < self.LIMIT:   # bounded memory: drop progress, never the answer
            self.put((data, final))

    def shut(self) -> None:
        self.put((None, None))

    def put(self, item: tuple) -> None:
        self.queue.put(item)
        waker = self.waker
        if waker is not None:
            waker()


class _HTTPOut:
    """A session's writer over HTTP: each message goes to the stream of the request it belongs to.

    A request's answer and its progress, logs and questions go on that POST's
    exchange and nowhere else: once that stream is gone they are dropped (the
    spec: never on the GET stream). Messages of no request (list changes,
    resource updates, task status) go on the session's GET stream, if one is
    open, and are dropped otherwise, as the handshake-era transport allows.
    """
    closed = False

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.exchanges = {}              # id key -> _Exchange of the POST that carried that request; None -> GET's

    def put(self, data: bytes, route=None, final=None) -> bool:
        with self.lock:
            target = self.exchanges.get(route)
            if final and target is not None and route is not None:   # the answer closes the exchange
                del self.exchanges[route]
        if target is not None:
            target.push(data, final)
        return False                     # nobody has to drain: delivery is the queue

    def open(self, key) -> _Exchange:
        """A new stream for ``key``; a stream it replaces (an older GET) is shut."""
        exchange = _Exchange()
        with self.lock:
            older, self.exchanges[key] = self.exchanges.get(key), exchange
        if older is not None:
            older.shut()
        return exchange

    def close(self, key, exchange: _Exchange) -> None:
        with self.lock:
            if self.exchanges.get(key) is exchange:
                del self.exchanges[key]

    def cancel(self, key, exchange: _Exchange) -> None:
        """``key``'s request was cancelled: its stream, if it is still ``exchange``, ends unanswered."""
        with self.lock:
            if self.exchanges.get(key) is not exchange:
                return                   # answered already (its answer closed it), or another request's now
            del self.exchanges[key]
        exchange.put((None, _Exchange.CANCELLED))

    def shut_stream(self, key) -> None:
        with self.lock:
            exchange = self.exchanges.pop(key, None)
        if exchange is not None:
            exchange.shut()

    def shut(self) -> None:
        """The session ended: every stream of it ends now, whatever it was waiting for."""
        with self.lock:
            exchanges, self.exchanges = list(self.exchanges.values()), {}
            self.closed = True
        for exchange in exchanges:
            exchange.shut()

    def wait_idle(self, deadline: float) -> None:
        return None


def _client_gone(environ: dict):
    """A check that the client of this request has closed its connection, if the server shows its socket.

    WSGI learns of a disconnect only when a write fails; a stream with nothing to
    say would hold its thread until the next keep-alive. The stdlib server
    (``minimcp.socket``) and gunicorn (``gunicorn.socket``) show the socket: a
    readable socket with nothing to read is a closed one.
    """
    sock = environ.get("minimcp.socket") or environ.get("gunicorn.socket")
    if sock is None or not hasattr(sock, "fileno"):
        return None
    import select
    import socket

    def gone() -> bool:
        try:
            if not select.select([sock], [], [], 0)[0]:
                return False
            return sock.recv(1, socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)) == b""
        except BlockingIOError:
            return False
        except (OSError, ValueError):
            return True
    return gone


def _host_stopping():
    """A check that the WSGI server running this process is stopping, where that can be seen; else None.

    gunicorn's worker answers SIGTERM by setting its ``alive`` to False, then waits
    up to ``--graceful-timeout`` for the requests it runs; a GET stream never ends on
    its own, so it held the worker that long. The worker is the owner of the SIGTERM
    handler it installed (``signal.getsignal`` may be read from any thread): read
    only, nothing is installed or chained. The stdlib server ends its streams itself.
    """
    import signal
    try:
        handler = signal.getsignal(signal.SIGTERM)
    except (AttributeError, ValueError):
        return None
    worker = getattr(handler, "__self__", None)
    module = type(worker).__module__ if worker is not None else ""
    if module.startswith("gunicorn.") and hasattr(worker, "alive"):
        return lambda: not worker.alive
    if module.startswith("uvicorn.") and hasattr(worker, "should_exit"):    # its Server; it waits for streams too
        return lambda: bool(worker.should_exit)
    return None


class _HTTPError(Exception):
    """An HTTP refusal: status, a JSON-RPC error body, and extra headers."""

    def __init__(self, status: str, code: int, message: str, headers=(), request_id=None, data=None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, list(headers)
        self.request_id, self.data = request_id, data


_LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
_METADATA_PATH = "/.well-known/oauth-protected-resource"      # RFC 9728
# The JSON-RPC errors that 2026-07-28 answers with an HTTP status other than 200.
_MODERN_ERROR_STATUS = {METHOD_NOT_FOUND: "404 Not Found", UNSUPPORTED_PROTOCOL_VERSION: "400 Bad Request",
                        MISSING_CLIENT_CAPABILITY: "400 Bad Request", HEADER_MISMATCH: "400 Bad Request",
                        INVALID_REQUEST: "400 Bad Request", PARSE_ERROR: "400 Bad Request"}
_SSE_HEADERS = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no")]
def _host_name(host: str) -> str:
    """The host part of a Host header or an Origin's netloc, without the port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class _HTTPSession:
    """A handshake-era HTTP session: one _Session of the app, its streams, and when it was last used."""
    __slots__ = ("id", "session", "used", "streams", "owner", "expiry")

    def __init__(self, session_id: str, session: _Session, owner: bytes, expiry: int) -> None:
        self.id, self.session, self.owner = session_id, session, owner     # owner: the identity's digest
        self.expiry = expiry             # Unix seconds, as its id says: every replica ends it then
        self.used = time.monotonic()
        self.streams = 0                 # responses still streaming (a busy session never expires)


class SQLiteSessionStore:
    """Deleted HTTP session ids, in an sqlite3 file that every worker and replica on a host shares.

    A session id is signed, so any replica with the state key can serve it; only a
    store they share can tell them it was deleted. This is the default when
    ``$MINIMCP_SESSION_DIR`` names a directory, and, under a private directory of the
    temporary directory named after the key, whenever the state key is shared
    (``_default_session_store``). For replicas on several hosts, pass any object with
    the same two methods (Redis, a database) as ``session_store=``; with ``cancel`` and
    ``cancelled`` as well, it also carries a handshake-era cancel to the worker running its call.

    Args:
        directory: where ``minimcp-sessions.sqlite3`` lives (made if missing).
        keep: seconds a deletion is remembered: a session id expires by then anyway.
    """

    def __init__(self, directory: str, keep: float = 86400.0) -> None:
        import sqlite3
        os.makedirs(directory, exist_ok=True)
        self.path, self.keep = os.path.join(directory, "minimcp-sessions.sqlite3"), keep
        # One connection for the process, used under a lock (each query takes microseconds):
        # one per thread cost a file descriptor per connection thread of the stdlib server.
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False)
        with self.lock, self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS revoked (id TEXT PRIMARY KEY, at REAL NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS cancelled (session TEXT NOT NULL, request TEXT NOT NULL, "
                            "reason TEXT, at REAL NOT NULL, PRIMARY KEY (session, request))")

    def revoke(self, session_id: str) -> None:
        """Remember that ``session_id`` was deleted (and forget deletions older than ``keep``)."""
        now = time.time()
        with self.lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO revoked VALUES (?, ?)", (session_id, now))
            self.db.execute("DELETE FROM revoked WHERE at < ?", (now - self.keep,))

    def is_revoked(self, session_id: str) -> bool:
        """Whether any worker sharing the directory deleted ``session_id``."""
        with self.lock:
            return self.db.execute("SELECT 1 FROM revoked WHERE id = ?", (session_id,)).fetchone() is not None

    # A cancel waits this long for its call: one that reached this worker before the call reached
    # another is found there once admitted. (A session never reuses a request id, the spec says.)
    CANCEL_KEEP = 60.0

    def cancel(self, session_id: str, request_id: str, reason: str = None) -> None:
        """Leave a handshake-era ``notifications/cancelled`` for the worker running the call
        (``request_id``: its id as JSON), and forget those older than ``CANCEL_KEEP``."""
        now = time.time()
        with self.lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO cancelled VALUES (?, ?, ?, ?)",
                            (session_id, request_id, reason, now))
            self.db.execute("DELETE FROM cancelled WHERE at < ?", (now - self.CANCEL_KEEP,))

    def cancelled(self, session_id: str, request_id: str):
        """The reason a worker was given to cancel that call of that session ("" if none), or None."""
        with self.lock:
            row = self.db.execute("SELECT reason FROM cancelled WHERE session = ? AND request = ? AND at >= ?",
                                  (session_id, request_id, time.time() - self.CANCEL_KEEP)).fetchone()
        return None if row is None else (row[0] or "")


def _default_session_store(server: "MCPServer", keep: float):
    """Where deleted session ids go when the app is given no ``session_store``.

    ``$MINIMCP_SESSION_DIR``, if set. Else, if the state key is shared (``state_key=`` or
    ``$MINIMCP_STATE_KEY``), other processes may serve this app's sessions (gunicorn's
    workers, replicas on this host, this server after a restart), and each would serve a
    session another had deleted: the processes holding the key share a store in a directory
    of the temporary directory named after a digest of the key, which only this user may
    use. A process with a key of its own is the only one that can serve its sessions, so
    its memory is enough.
    """
    directory = os.environ.get("MINIMCP_SESSION_DIR")
    if directory:
        return SQLiteSessionStore(directory, keep)
    if server._shared_key is None:
        return _MemorySessionStore(keep)
    import hashlib
    import stat
    import tempfile
    name = "minimcp-sessions-" + hashlib.sha256(b"minimcp-session-store:" + server._signing_key()).hexdigest()[:20]
    directory = os.path.join(tempfile.gettempdir(), name)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as problem:
        raise RuntimeError("minimcp: cannot make %s for deleted HTTP session ids (%s): set MINIMCP_SESSION_DIR "
                           "to a directory every worker shares" % (directory, problem.strerror or problem)) from None
    found = os.lstat(directory)
    private = stat.S_ISDIR(found.st_mode)
    if hasattr(os, "getuid"):            # POSIX, where every user may write to /tmp (Windows': the user's own)
        private = private and found.st_uid == os.getuid() and not found.st_mode & 0o077
    if not private:
        raise RuntimeError("minimcp: %s, where deleted HTTP session ids go, is not a directory only this user may "
                           "use: set MINIMCP_SESSION_DIR to a directory every worker shares" % directory)
    return SQLiteSessionStore(directory, keep)


class _MemorySessionStore:
    """Deleted session ids in this process only: another worker or replica may serve one until it expires."""

    def __init__(self, keep: float) -> None:
        self.keep, self.revoked, self.lock = keep, {}, threading.Lock()

    def revoke(self, session_id: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.revoked[session_id] = now
            for old in [k for k, when in self.revoked.items() if now - when > self.keep]:
                del self.revoked[old]

    def is_revoked(self, session_id: str) -> bool:
        return session_id in self.revoked


# A session id (a handshake-era Mcp-Session-Id) is this, then 16 bytes of its HMAC-SHA256, in
# base64url: 64 characters whatever the client sent. format, revision (an index of
# PROTOCOL_VERSIONS), the client's capabilities (bits of _CAPABILITY_BITS), expiry (Unix
# seconds), a nonce, and 8-byte digests of the client's info and of the auth hook's identity.
_SESSION_TOKEN = ">BBHI8s8s8s"
_CAPABILITY_BITS = (("roots",), ("roots", "listChanged"), ("sampling",), ("sampling", "context"),
                    ("sampling", "tools"), ("elicitation",), ("elicitation", "form"), ("elicitation", "url"),
                    ("tasks",), ("tasks", "list"), ("tasks", "cancel"),
                    ("tasks", "requests", "sampling", "createMessage"),
                    ("tasks", "requests", "elicitation", "create"), ("experimental",))


_SESSION_ID_LENGTH = 64                  # the token and its MAC, 48 bytes: base64url needs no padding
_BASE64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _session_key(session_id: str):
    """The one spelling of the session id ``session_id`` decodes to, or None if it is spelled otherwise.

    base64 decoders are lenient: they skip characters outside the alphabet (``<id>.``,
    ``~<id>``), take padding (``<id>==``) and the standard alphabet's ``+/`` for ``-_``, and each
    such spelling decoded to a session that DELETE had revoked under the other. 64 characters of
    the base64url alphabet encode 48 bytes one way only, so anything else is no session id;
    the tables and the store are keyed by the decoded bytes re-encoded.
    """
    if len(session_id) != _SESSION_ID_LENGTH or not _BASE64URL.issuperset(session_id):
        return None
    key = _b64url(_unb64url(session_id))
    return key if key == session_id else None


def _capability_bits(capabilities: dict) -> int:
    bits = 0
    for bit, path in enumerate(_CAPABILITY_BITS):
        node = capabilities
        for name in path:
            node = node.get(name) if isinstance(node, dict) else None
        if node is not None and node is not False:
            bits |= 1 << bit
    return bits


def _capabilities_from_bits(bits: int) -> dict:
    """The capabilities a session id names, as the client declared them (flags True, the rest objects)."""
    capabilities = {}
    for bit, path in enumerate(_CAPABILITY_BITS):
        if bits >> bit & 1:
            node = capabilities
            for name in path[:-1]:
                node = node.setdefault(name, {})
            node.setdefault(path[-1], True if path[-1] == "listChanged" else {})
    return capabilities


def _digest(value) -> bytes:
    """8 bytes that tell two clients' info, or two identities, apart (None has one too)."""
    import hashlib
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).digest()[:8]


class _PostSession(_Session):
    """The session of one POST without Mcp-Session-Id: a 2026-07-28 request, or the ``initialize`` opening one.

    A 2026-07-28 request's tasks are the app's, shared by its POSTs (a task outlives
    the request that made it, SEP-2663), and so are their listeners; a session that
    ``initialize`` opens keeps tasks of its own.
    """

    def __init__(self, server: "MCPServer", out: _HTTPOut, shared_tasks: dict, auth=None) -> None:
        self.shared_tasks = shared_tasks
        super().__init__(server, out, auth, one_of_many=True)

    @property
    def tasks(self) -> dict:
        return self.own_tasks if self.lasting else self.shared_tasks

    @tasks.setter
    def tasks(self, table: dict) -> None:
        self.own_tasks = table

    def stop(self) -> None:
        self.shared_tasks = {}          # stop() cancels its session's tasks; the app's outlive this POST
        super().stop()

    forward_cancel = None               # a kept session whose store every worker shares: _HTTPApp._route_cancels

    def cancel_request(self, request_id, reason) -> None:
        """As a session's; for a call not running here, left in the shared store too (another worker may run it)."""
        forward = self.forward_cancel
        if forward is not None and not any(call.id == request_id and type(call.id) is type(request_id)
                                           for call in list(self.inflight.values())):
            forward(request_id, reason)
        super().cancel_request(request_id, reason)

    def _announce_task(self, task: _Task) -> None:
        if self.lasting:
            super()._announce_task(task)
            return
        # The subscriptions/listen stream naming this task is another POST, so another session.
        for session in self.server._live_sessions():
            for call, wanted in list(session.listens.values()):
                if task.id in (wanted.get("taskIds") or ()):
                    session.notify_listener(call, "notifications/tasks", task.detailed())


def _accepts(request: "_HTTPRequest") -> tuple:
    """(JSON, SSE): which of the two answers the request's Accept header takes."""
    types = [part.split(";", 1)[0].strip().lower() for part in request.headers.get("accept", "").split(",")]
    anything = "*/*" in types
    return (anything or "application/json" in types or "application/*" in types,
            anything or "text/event-stream" in types or "text/*" in types)


class _HTTPRequest:
    """One HTTP request as the endpoint reads it, whichever interface brought it (WSGI, ASGI).

    ``headers``: lower-case names; a header sent more than once has its values joined
    by commas, as WSGI servers do; names with ``_`` are left out (``X_Token`` must not
    pass for ``X-Token``). ``sees_disconnect``: the server tells when the client leaves
    (ASGI always; WSGI only where its socket shows, ``_client_gone``).
    """
    __slots__ = ("method", "path", "headers", "version", "scheme", "server", "remote", "sees_disconnect", "auth")

    def __init__(self, method: str, path: str, headers: dict, version: str, scheme: str, server: str,
                 remote: str, sees_disconnect: bool) -> None:
        self.method, self.path, self.headers, self.version = method, path, headers, version
        self.scheme, self.server, self.remote, self.sees_disconnect = scheme, server, remote, sees_disconnect
        self.auth = None                 # who the auth hook says the client is, once checked

    @classmethod
    def from_environ(cls, environ: dict) -> "_HTTPRequest":
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            if environ.get(key):
                headers[key.replace("_", "-").lower()] = environ[key]
        return cls(environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", ""), headers,
                   environ.get("SERVER_PROTOCOL", ""), environ.get("wsgi.url_scheme", "http"),
                   "%s:%s" % (environ.get("SERVER_NAME", ""), environ.get("SERVER_PORT", "")),
                   environ.get("REMOTE_ADDR", ""), _client_gone(environ) is not None)

    @classmethod
    def from_scope(cls, scope: dict) -> "_HTTPRequest":
        headers = {}
        for name, value in scope.get("headers", ()):
            name = name.decode("latin-1").lower()
            if "_" in name:
                continue
            value = value.decode("latin-1").strip()
            headers[name] = headers[name] + "," + value if name in headers else value
        server, client = scope.get("server") or ("", ""), scope.get("client") or ("", 0)
        path, root = scope.get("path", ""), scope.get("root_path", "")
        # Mounted under a prefix (Starlette's Mount, uvicorn --root-path), the path the ASGI
        # spec hands over includes the prefix, given again as root_path: the app's own path is
        # what follows it. (Older Starlette handed the rest alone: it does not start so.)
        if root and path.startswith(root) and path[len(root):][:1] in ("", "/"):
            path = path[len(root):] or "/"
        return cls(scope.get("method", "GET"), path, headers,
                   "HTTP/" + scope.get("http_version", "1.1"), scope.get("scheme", "http"),
                   "%s:%s" % (server[0], server[1] if len(server) > 1 else ""), str(client[0]), True)


class _HTTPApp:
    """The MCP endpoint as a PEP 3333 WSGI application (see ``MCPServer.wsgi_app``).

    POST carries one JSON-RPC message. A 2026-07-28 request (its ``_meta``
    envelope and ``MCP-Protocol-Version`` header) stands alone: it is served by
    a session of its own that ends with the answer. In the handshake era,
    ``initialize`` opens an HTTP session whose ``Mcp-Session-Id`` (64 bytes,
    ``_SESSION_TOKEN``) is signed with the server's state key and names the
    negotiated revision, the client's capabilities and digests of its info and of
    the identity the ``auth`` hook returned, so any replica sharing the key can
    serve the session's later requests, to that identity only (404 to others);
    GET opens its stream for server-initiated messages and DELETE ends it, for
    every worker sharing the ``session_store`` (``SQLiteSessionStore`` under
    ``$MINIMCP_SESSION_DIR``). Answers are JSON, or SSE when notifications or
    questions to the client come first.

    What a request does is written once, in ``respond``: a generator that asks its
    server interface for what takes waiting (the body, the next message of a stream) by
    yielding steps, and yields the response's head and bytes. ``__call__`` drives it as
    WSGI does, on the request's thread; ``_ASGIApp`` drives it on an event loop.
    """

    def __init__(self, server: "MCPServer", path: str = "/mcp", allowed_hosts=None, allowed_origins=None,
                 auth=None, max_body: int = 4 * 1024 * 1024, max_sessions: int = 1000,
                 session_idle: float = 1800.0, session_lifetime: float = 86400.0, keepalive: float = 15.0,
                 disconnect_probe: float = 0.5, session_store=None, resource_metadata: dict = None,
                 revocation_probe: float = 0.25, session_share: float = 0.25) -> None:
        self.server, self.path, self.auth, self.max_body = server, path, auth, max_body
        # The most worker threads one session (or one 2026-07-28 client) holds: its other calls wait their turn.
        self.most_workers = max(1, int(server.workers * session_share))
        self.allowed_hosts = _env_list("MINIMCP_ALLOWED_HOSTS", allowed_hosts)
        self.allowed_origins = _env_list("MINIMCP_ALLOWED_ORIGINS", allowed_origins)
        self.token = os.environ.get("MINIMCP_HTTP_TOKEN") or None
        self.max_sessions, self.session_idle, self.session_lifetime = max_sessions, session_idle, session_lifetime
        self.keepalive, self.disconnect_probe = keepalive, disconnect_probe      # a quiet stream's two intervals
        self.revocation_probe = revocation_probe     # a GET stream asks a shared store this often
        self.sessions = {}               # session id -> _HTTPSession (this process's)
        self.store = session_store if session_store is not None else \
            _default_session_store(server, session_lifetime)       # where deleted session ids go
        self.unshared = server._shared_key is None       # a key of this process's own: said once, if it matters
        if resource_metadata is None:    # RFC 9728, served at /.well-known/oauth-protected-resource
            resource_metadata = getattr(server, "resource_metadata", None)
        self.resource_metadata = resource_metadata
        self.stopping = False            # the server's drain time is over: what still waits is answered 503
        self.tasks = {}                  # 2026-07-28 task id -> _Task, shared by this process's requests
        self.lock = threading.Lock()

    # -- the WSGI callable ----------------------------------------------------------
    def __call__(self, environ: dict, start_response):
        if self.unshared and environ.get("wsgi.multiprocess"):
            self.unshared = False
            _logger().warning("minimcp: several processes serve this app, each with a state key of its own: a "
                              "session id or requestState one issues is refused by the others. Set "
                              "MINIMCP_STATE_KEY to one secret for all of them")
        flow, gone = self.respond(_HTTPRequest.from_environ(environ)), _client_gone(environ)
        value, refusal = None, None
        while True:                      # up to the head: start_response is called before returning
            action = flow.throw(refusal) if refusal is not None else flow.send(value)
            value, refusal = None, None
            if action[0] == "start":
                start_response(action[1], action[2])
                return self._wsgi_body(flow, environ, gone)
            try:
                value = self._wsgi_step(action, environ, gone)
            except _HTTPError as problem:            # the body refused: the flow answers it
                refusal = problem

    def _wsgi_body(self, flow, environ: dict, gone):
        """The rest of the flow, as the WSGI response's iterable; closed, it ends the flow."""
        value = None
        try:
            while True:
                try:
                    action = flow.send(value)
                except StopIteration:
                    return
                value = None
                if action[0] == "send":
                    yield action[1]
                else:
                    value = self._wsgi_step(action, environ, gone)
        finally:
            flow.close()

    def _wsgi_step(self, action: tuple, environ: dict, gone):
        """What the flow asked for, done on this thread: it may wait."""
        if action[0] == "body":
            return self._read_body(environ)
        if action[0] == "call":
            return action[1](*action[2])
        _, exchange, timeout, check, probe = action              # "wait"
        watch = gone if check is None else check if gone is None else (lambda: check() or gone())
        return self._wait(exchange, timeout, watch, probe)

    # -- one request, whatever the interface ------------------------------------------
    def respond(self, request: _HTTPRequest):
        """What ``request`` does, as a generator of steps its server interface carries out.

        Yields ``("start", status, headers)`` then ``("send", bytes)`` for the response, and
        for what takes waiting: ``("body",)`` (sent the body, or thrown its ``_HTTPError``),
        ``("wait", exchange, timeout, check, probe)`` (sent the exchange's next item, None
        after ``timeout``, or False once the client left or ``check()``, asked every
        ``probe`` seconds, is true) and ``("call", fn, args)`` (sent ``fn(*args)``, which may
        block: an event loop runs it on a thread). Closing it mid-stream releases the request.
        """
        try:
            path = request.path
            if self.resource_metadata is not None and path in (_METADATA_PATH, _METADATA_PATH + self.path):
                self._check_access(request, authenticate=False)     # what a client reads to learn how to log in
                yield from self._metadata(request)
                return
            request.auth = self._check_access(request)
            if path not in (self.path, self.path + "/"):
                raise _HTTPError("404 Not Found", INVALID_REQUEST, "Not Found: the MCP endpoint is %s" % self.path)
            if request.method == "OPTIONS":
                yield from self._reply("204 No Content", b"", self._cors(request))
                return
            handler = {"POST": self._post, "GET": self._get, "DELETE": self._delete}.get(request.method)
            if handler is None:
                raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed",
                                 [("Allow", "GET, POST, DELETE, OPTIONS")])
            yield from handler(request)
        except _HTTPError as refusal:
            body = encode_message(_error(refusal.request_id, refusal.code, refusal.message, refusal.data))
            yield from self._reply(refusal.status, body, refusal.headers + self._cors(request))

    def _reply(self, status: str, body: bytes, headers=()):
        headers = list(headers)
        if body:
            headers.append(("Content-Type", "application/json"))
        headers.append(("Content-Length", str(len(body))))
        yield "start", status, headers
        if body:
            yield "send", body

    # -- security -------------------------------------------------------------------
    def _check_access(self, request: _HTTPRequest, authenticate: bool = True):
        """One Host (400), DNS rebinding (Host 421, Origin 403) and authentication (401), before anything is read.

        Returns who the client is: what the ``auth`` hook returned, or None if it
        returned True (or there is no hook); sessions are bound to it.
        """
        host = request.headers.get("host")
        if host is None and request.version != "HTTP/1.0":      # RFC 9112 section 3.2
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: an HTTP/1.1 request has one Host "
                             "header; this one has none")
        if host is not None and "," in host:     # servers join repeated headers with commas (gunicorn, ours)
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: a request has one Host header; "
                             "this one has several")
        host = host or request.server.rsplit(":", 1)[0]
        hosts = _LOOPBACK_HOSTS if self.allowed_hosts is None else self.allowed_hosts
        if "*" not in hosts and _host_name(host) not in hosts:
            raise _HTTPError("421 Misdirected Request", INVALID_REQUEST, "Misdirected Request: host %r is not "
                             "served here (see allowed_hosts)" % host[:100])
        origin = request.headers.get("origin")
        if origin is not None and not self._origin_allowed(origin):
            raise _HTTPError("403 Forbidden", INVALID_REQUEST, "Forbidden: origin %r is not allowed "
                             "(see allowed_origins)" % origin[:100])
        if not authenticate or request.method == "OPTIONS" or (self.auth is None and self.token is None):
            return None
        headers = {name: value for name, value in request.headers.items()
                   if name not in ("content-type", "content-length")}
        if self.auth is not None:
            allowed = self.auth(headers)
        else:
            import hmac
            # RFC 9110: the scheme is case-insensitive ("bearer" is "Bearer"); the token is not.
            scheme, _, credentials = headers.get("authorization", "").partition(" ")
            token_matches = hmac.compare_digest(credentials.strip().encode("utf-8"), self.token.encode("utf-8"))
            allowed = scheme.lower() == "bearer" and token_matches
        if not allowed:                  # the token itself is never logged nor echoed
            challenge = 'Bearer realm="mcp"'
            if self.resource_metadata is not None:           # MCP authorization: where to learn how to log in
                challenge += ', resource_metadata="%s"' % (self._base_url(request) + _METADATA_PATH)
            raise _HTTPError("401 Unauthorized", INVALID_REQUEST, "Unauthorized: a valid bearer token is required",
                             [("WWW-Authenticate", challenge)])
        return None if allowed is True else allowed

    def _base_url(self, request: _HTTPRequest) -> str:
        return "%s://%s" % (request.scheme, request.headers.get("host") or request.server)

    def _metadata(self, request: _HTTPRequest):
        """RFC 9728 protected-resource metadata: the resource is this endpoint unless it says otherwise."""
        if request.method not in ("GET", "HEAD"):
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed", [("Allow", "GET")])
        document = dict(self.resource_metadata)
        document.setdefault("resource", self._base_url(request) + self.path)
        body = json.dumps(document).encode("utf-8")
        yield from self._reply("200 OK", body, self._cors(request) + [("Cache-Control", "max-age=3600")])

    def _origin_allowed(self, origin: str) -> bool:
        if self.allowed_origins is not None:
            return "*" in self.allowed_origins or origin in self.allowed_origins
        scheme, _, rest = origin.partition("://")
        return scheme in ("http", "https") and _host_name(rest.split("/")[0]) in _LOOPBACK_HOSTS

    def _cors(self, request: _HTTPRequest) -> list:
        """CORS headers for a browser page on an allowed origin (checked already)."""
        origin = request.headers.get("origin")
        if origin is None or not self._origin_allowed(origin):     # a refused origin's 403 is not for its page
            return []
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                ("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
                ("Access-Control-Allow-Headers", "content-type, accept, authorization, mcp-protocol-version, "
                                                 "mcp-session-id, mcp-method, mcp-name, last-event-id"),
                ("Access-Control-Expose-Headers", "mcp-session-id")]

    # -- POST -----------------------------------------------------------------------
    def _read_body(self, environ: dict) -> bytes:
        """The POST body, never more than ``max_body`` bytes of it read, the same under any WSGI server.

        Content-Length must be plain ASCII digits: ``int()`` would also take ``-1`` (and
        ``read(-1)`` reads the whole stream), ``+5``, ``1_0`` and `` 7``. A chunked body has no
        length; it is read piece by piece, and only where the server says the stream ends
        with the body (``wsgi.input_terminated``): elsewhere ``read()`` would wait on the
        connection.
        """
        stream = environ["wsgi.input"]
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            if not environ.get("wsgi.input_terminated"):
                raise _HTTPError("411 Length Required", INVALID_REQUEST, "Length Required: this WSGI server "
                                 "passes chunked bodies undecoded; send a Content-Length")
            return self._read_to_end(stream)
        size = self._body_length(environ.get("CONTENT_LENGTH") or "0")
        body = stream.read(size) if size else b""
        if len(body) < size:
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the body ended early")
        return body

    def _body_length(self, length: str) -> int:
        """A Content-Length as bytes to read: plain digits, at most ``max_body`` (else 400 or 413)."""
        if not (length.isascii() and length.isdigit()):
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Content-Length must be a "
                             "number of bytes, not %r" % length[:40])
        # int() of a header of thousands of digits raises on 3.11+; no body that long is served anyway.
        if len(length.lstrip("0")) > 18 or int(length) > self.max_body:
            raise _HTTPError("413 Content Too Large", INVALID_REQUEST, "Invalid Request: the body has %s bytes; "
                             "the limit is %d" % (length[:40], self.max_body))
        return int(length)

    def _read_to_end(self, stream) -> bytes:
        """A body of unknown length, read in pieces until it ends or passes ``max_body``."""
        pieces, size = [], 0
        try:
            while True:
                piece = stream.read(min(65536, self.max_body + 1 - size))
                if not piece:
                    return b"".join(pieces)
                pieces.append(piece)
                size += len(piece)
                if size > self.max_body:
                    raise _HTTPError("413 Content Too Large", INVALID_REQUEST, "Invalid Request: the body has "
                                     "more than %d bytes, the limit" % self.max_body)
        except (ValueError, OSError) as problem:            # a malformed chunk, or the client went away
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the chunked body could not be "
                             "read (%s)" % problem)

    def _post(self, request: _HTTPRequest):
        """One POSTed message: the session admits it; this maps the outcome to a status and a stream."""
        kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise _HTTPError("415 Unsupported Media Type", INVALID_REQUEST, "Unsupported Media Type: POST a "
                             "JSON-RPC message as application/json, not %r" % kind[:60])
        if not any(_accepts(request)):
            raise _HTTPError("406 Not Acceptable", INVALID_REQUEST, "Not Acceptable: the answer is "
                             "application/json or text/event-stream; Accept must list them")
        message, problem = _decode_line((yield ("body",)))
        if problem is not None:
            raise _HTTPError("400 Bad Request", problem["error"]["code"], problem["error"]["message"])
        headers = _mcp_headers(request)
        session_id = headers.pop("mcp-session-id", None)
        if session_id is not None:
            held = self._find_session(session_id, request.auth)
            session = held.session
        else:
            held, session = None, _PostSession(self.server, _HTTPOut(), self.tasks, request.auth)
            self._share_pool(session, request.remote)
            with self.server._lock:
                self.server._sessions.add(session)
        if held is not None:
            with self.lock:                          # busy while it admits: never expired under a request
                held.streams += 1
        try:
            admission = session.take(message, lambda *about: _check_headers(*about[:3], headers, about[3]))
        except BaseException:
            self._done(session, held, None, None)
            raise
        if admission.refusal is not None or admission.stream is None:
            self._done(session, held, admission, None)
            if admission.refusal is None:            # notifications, or the client's answers to us
                yield from self._reply("202 Accepted", b"", self._cors(request))
                return
            status = self._status(admission, admission.refusal)
            yield from self._reply(status, encode_message(admission.refusal), self._cors(request))
            return
        yield from self._answer(session, held, admission, request)

    def _share_pool(self, session: _Session, remote: str) -> None:
        """``session``'s calls hold at most ``most_workers`` of the pool, with those of its client.

        Whose calls they are: the handshake-era session's, or, for a 2026-07-28 request (a
        session of its own), its client's: the identity the auth hook gave, the address it
        came from and the clientInfo it names.
        """
        server, most = self.server, self.most_workers

        identity = None if session.auth is None else _digest(session.auth)

        def dispatch(call: _Call, job) -> None:
            info = call.peer.info
            owner = session if session.lasting else (identity, remote, repr(info.get("name")), repr(info.get("version")))
            server._submit(job, owner, most)
        session.dispatch = dispatch

    def _status(self, admission: _Admission, answer) -> str:
        """The HTTP status of a JSON answer: 400 for a message refused as such; a stateless error's own."""
        if admission.malformed:
            return "400 Bad Request"
        if admission.stateless and isinstance(answer, dict) and isinstance(answer.get("error"), dict):
            return _MODERN_ERROR_STATUS.get(answer["error"].get("code"), "200 OK")
        return "200 OK"

    def _answer(self, session: _Session, held, admission: _Admission, request: _HTTPRequest):
        exchange = admission.stream
        if held is not None:
            self._end_when_cancelled(session, admission)
        takes_json, streams = _accepts(request)
        interval, check = self._quiet_interval(admission, request), self._post_watch(session, held, admission)
        try:
            item = yield "wait", exchange, interval, check, self.disconnect_probe
            while not streams and item is None:    # a client that takes no SSE gets the answer only
                item = yield "wait", exchange, self.keepalive, check, self.disconnect_probe
        except GeneratorExit:                      # the interface gave up on the request (ASGI: cancelled)
            if admission.stateless:
                session.cancel_request(admission.request_id, "the client closed the connection")
            self._done(session, held, admission, exchange)
            raise
        data, final = item or (None, None)
        if item is False:                          # the client left: nobody to answer (2026-07-28: cancelled)
            if admission.stateless:
                session.cancel_request(admission.request_id, "the client closed the connection")
            self._done(session, held, admission, exchange)
            yield "start", "200 OK", self._cors(request) + _SSE_HEADERS
            return
        if item is not None and final == _Exchange.CANCELLED:     # cancelled by the client: never answered
            self._done(session, held, admission, exchange)
            if streams:                            # a request is answered with a stream: this one, empty
                yield "start", "200 OK", self._cors(request) + _SSE_HEADERS
                return
            yield from self._reply("204 No Content", b"", self._cors(request))
            return
        if item is not None and data is None:      # the session ended, or the server stops
            self._done(session, held, admission, exchange)
            status, text = ("503 Service Unavailable", "Service Unavailable: the server is shutting down") \
                if self.stopping else ("404 Not Found", "Session not found: it ended")
            yield from self._reply(status, encode_message(_error(
                admission.request_id, INTERNAL_ERROR if self.stopping else INVALID_REQUEST, text)),
                self._cors(request))
            return
        headers = self._cors(request)
        if held is None and session.lasting:       # initialize opened a session: it gets its id
            held = self._keep(session)
            headers.append(("Mcp-Session-Id", held.id))
        if final and takes_json:                   # the answer came first: plain JSON
            self._done(session, held, admission, exchange, finished=True)
            yield from self._reply(self._status(admission, final), data, headers)
            return
        yield "start", "200 OK", headers + _SSE_HEADERS
        yield from self._stream(session, held, admission, data, final, check, interval)

    def _end_when_cancelled(self, session: _Session, admission: _Admission) -> None:
        """Handshake era: a ``notifications/cancelled`` for this request ends its stream at once.

        The session claims a call the client cancels and never answers it, so the stream
        waiting for that answer sent keep-alives for as long as the client stayed. A call
        cancelled otherwise (a timeout answers first; the server stopping still answers)
        is not claimed when its cancellation runs, and its stream waits for that answer.
        """
        call = session.inflight.get(admission.route)
        if call is None:                 # answered already
            return
        route, exchange, out = admission.route, admission.stream, session.out

        def cancelled() -> None:
            if call.done:
                out.cancel(route, exchange)
        call.on_cancel.append(cancelled)
        if call.cancelled:               # the client's cancellation came before the line above
            cancelled()

    def _post_watch(self, session: _Session, held, admission: _Admission):
        """What a POST stream watches while it waits, besides its client leaving (None: nothing).

        Where it shows (``_host_stopping``), the WSGI server stopping: a ``subscriptions/listen``,
        which never finishes, is answered at once (other calls may still finish in the server's
        graceful time). In a handshake-era session, with a shared store, a DELETE that another
        worker answered: the session ends here too, and with it this stream; and a
        ``notifications/cancelled`` for this call that another worker was sent (``_route_cancels``).
        """
        stopping = _host_stopping()
        shared = held is not None and not isinstance(self.store, _MemorySessionStore)
        if stopping is None and not shared:
            return None
        cancels = shared and hasattr(self.store, "cancelled")

        def watch() -> bool:
            if stopping is not None and stopping():
                session.end_listens()
            if shared and not self._deleted_elsewhere(held) and cancels:    # (a deletion shuts its streams)
                self._cancelled_elsewhere(held, admission)
            return False
        return watch

    def _route_cancels(self, held: _HTTPSession) -> None:
        """With a store every worker shares, a handshake-era cancel is left there too.

        Several workers (uvicorn's or gunicorn's ``--workers``, replicas) may each serve a
        session's POSTs, and a cancel may land in a worker other than the one running its
        call. The worker running it looks in the store while the call's stream waits.
        """
        store = self.store
        if isinstance(store, _MemorySessionStore) or not hasattr(store, "cancel"):
            return

        def forward(request_id, reason) -> None:
            try:
                store.cancel(held.id, json.dumps(request_id), reason if isinstance(reason, str) else None)
            except Exception:            # the cancel still holds here; the log says why not elsewhere
                _logger().warning("minimcp: the session store could not take a cancel", exc_info=True)
        held.session.forward_cancel = forward

    def _cancelled_elsewhere(self, held: _HTTPSession, admission: _Admission) -> None:
        """Cancel this POST's call if another worker was told to (its stream then ends)."""
        try:
            reason = self.store.cancelled(held.id, json.dumps(admission.request_id))
        except Exception:                # a store that fails for a moment must not cut a stream
            _logger().warning("minimcp: the session store could not be read", exc_info=True)
            return
        if reason is not None:           # (the session's own: forwarding it again would be no news)
            _Session.cancel_request(held.session, admission.request_id, reason or "cancelled by the client")

    def _wait(self, exchange: _Exchange, timeout: float, gone, probe: float = None):
        """The exchange's next (data, final); None after ``timeout`` of silence; False once ``gone()`` is true.

        ``gone`` (None: nothing to watch) is asked every ``probe`` seconds (``disconnect_probe``).
        """
        import queue
        deadline = time.monotonic() + timeout
        probe = self.disconnect_probe if probe is None else probe
        while True:
            left = deadline - time.monotonic()
            try:
                return exchange.queue.get(timeout=max(0.0, min(left, probe) if gone else left))
            except queue.Empty:
                if gone is not None and gone():
                    return False
                if time.monotonic() >= deadline:
                    return None

    def _stream(self, session: _Session, held, admission: _Admission, first, finished, check, interval: float):
        """SSE events until the answer; a client that goes away cancels a stateless request."""
        exchange = admission.stream
        try:
            if first is not None:
                yield "send", b"event: message\ndata: " + first.rstrip(b"\n") + b"\n\n"
            else:
                yield "send", b": waiting\n\n"
            while not finished:
                item = yield "wait", exchange, interval, check, self.disconnect_probe
                if item is None:
                    yield "send", b": keep-alive\n\n"  # without a socket to watch, a closed one shows up here
                    continue
                if item is False or item[0] is None:  # the client left or cancelled, or the session ended
                    if item is not False and item[1] is None and self.stopping:   # the server stops: an answer
                        yield "send", b"event: message\ndata: " + encode_message(_error(
                            admission.request_id, INTERNAL_ERROR, "the server is shutting down")).rstrip(b"\n") + \
                            b"\n\n"
                        finished = True
                    return
                data, finished = item
                yield "send", b"event: message\ndata: " + data.rstrip(b"\n") + b"\n\n"
        finally:
            if not finished and admission.stateless:
                session.cancel_request(admission.request_id, "the client closed the stream")
            self._done(session, held, admission, exchange, bool(finished))

    def _quiet_interval(self, admission: _Admission, request: _HTTPRequest) -> float:
        """How long a stream may stay silent: short where a disconnect cancels the request.

        WSGI tells a server that its client went away only when a write fails, so
        where the socket cannot be watched (``_client_gone``) a stateless (2026-07-28)
        request, which the client cancels by closing the connection, is probed with a
        comment this often; others only get the keepalive.
        """
        if admission.stateless and not request.sees_disconnect:
            return min(self.keepalive, self.disconnect_probe)
        return self.keepalive

    def _done(self, session: _Session, held, admission, exchange, finished: bool = False) -> None:
        """One POST is over: release its stream; a session that does not last ends with it."""
        if exchange is not None:
            session.out.close(admission.route, exchange)
        if held is not None:
            with self.lock:
                held.streams -= 1
                held.used = time.monotonic()
        elif not (finished and session.lasting):   # kept by _keep: initialize's answer went out
            self._end(session)

    def _end(self, session: _Session) -> None:
        with self.server._lock:
            self.server._sessions.discard(session)
        session.out.shut()                           # its streams end now, not at their next keep-alive
        if not session.stopped:                      # shutdown() stopped it already: its grace is spent
            session.stop()

    # -- the server stops ------------------------------------------------------------
    def close_streams(self) -> None:
        """End every GET stream, and answer every ``subscriptions/listen``: a drain waits for
        requests that finish, and these never do."""
        with self.lock:
            sessions = [held.session for held in self.sessions.values()]
        for session in sessions:
            session.out.shut_stream(None)
        with self.server._lock:
            listening = [s for s in self.server._sessions if isinstance(s.out, _HTTPOut)]
        for session in listening:
            session.end_listens()

    def shutdown(self) -> None:
        """The drain time is over: cancel what runs, give it ``shutdown_grace``, then end every stream.

        A POST still waiting for its answer then gets 503; every request started is answered.
        """
        self.stopping = True
        with self.server._lock:
            sessions = [s for s in self.server._sessions if isinstance(s.out, _HTTPOut)]
        stoppers = [threading.Thread(target=session.stop, daemon=True) for session in sessions]
        for stopper in stoppers:         # each waits shutdown_grace for its calls: all at once
            stopper.start()
        for stopper in stoppers:
            stopper.join(self.server.shutdown_grace + 1.0)
        for session in sessions:
            session.out.shut()

    # -- handshake-era sessions ----------------------------------------------------------
    def _keep(self, session: _Session) -> _HTTPSession:
        """Give an initialized session its id and a place in the table (bounded; idle ones expire)."""
        import hmac
        import hashlib
        import struct
        owner = _digest(session.auth)
        expiry = int(time.time() + self.session_lifetime)
        token = struct.pack(_SESSION_TOKEN, 1, PROTOCOL_VERSIONS.index(session.peer.rev.version),
                            _capability_bits(session.peer.capabilities), expiry,
                            os.urandom(8), _digest(session.peer.info), owner)
        mac = hmac.new(self.server._signing_key(), b"session:" + token, hashlib.sha256).digest()[:16]
        held = _HTTPSession(_b64url(token + mac), session, owner, expiry)
        self._route_cancels(held)
        self._sweep(room_for=1)
        with self.lock:
            self.sessions[held.id] = held
            held.streams = 1                         # the initialize exchange itself, released by _done
        return held

    def _find_session(self, session_id: str, identity) -> _HTTPSession:
        """This process's session, or one another replica opened (its signed id says who the client is).

        Spelled otherwise than it was issued, deleted (by any worker sharing the store),
        expired (here too, where it was opened), forged, or opened by another identity:
        404, as for a session that never was.
        """
        not_found = _HTTPError("404 Not Found", INVALID_REQUEST, "Session not found: initialize again")
        key = _session_key(session_id)
        if key is None:
            raise not_found
        if self.store.is_revoked(key):
            self._forget(key)
            raise not_found
        with self.lock:
            held = self.sessions.get(key)
            if held is not None:
                held.used = time.monotonic()
        if held is None:
            held = self._revive(key, identity, not_found)
        if time.time() >= held.expiry:
            self._forget(key)
            raise not_found
        import hmac
        if not hmac.compare_digest(held.owner, _digest(identity)):
            raise not_found
        return held

    def _forget(self, key: str) -> None:
        """A session deleted elsewhere, or expired: it ends here too, if it lives here."""
        with self.lock:
            held = self.sessions.pop(key, None)
        if held is not None:
            self._end(held.session)

    def _check_session_headers(self, held: _HTTPSession, request: _HTTPRequest) -> None:
        """GET and DELETE: the session decides whether their headers fit it (MCP-Protocol-Version)."""
        refusal = _refuses_headers(held.session, _mcp_headers(request))
        if refusal is not None:
            raise _HTTPError("400 Bad Request", *refusal[:2], data=refusal[2])

    def _revive(self, key: str, identity, not_found: _HTTPError) -> _HTTPSession:
        """A session another replica opened, from its id (``key``, spelled as issued), if it is valid."""
        import hmac
        import hashlib
        import struct
        size = struct.calcsize(_SESSION_TOKEN)
        raw = _unb64url(key)
        token, mac = raw[:size], raw[size:]
        expected = hmac.new(self.server._signing_key(), b"session:" + token, hashlib.sha256).digest()[:16]
        if len(raw) != size + 16 or not hmac.compare_digest(mac, expected):
            raise not_found
        form, revision, bits, expiry, _, _, owner = struct.unpack(_SESSION_TOKEN, token)
        if form != 1 or revision >= len(PROTOCOL_VERSIONS) or time.time() >= expiry or \
                not hmac.compare_digest(owner, _digest(identity)):
            raise not_found
        session = _PostSession(self.server, _HTTPOut(), self.tasks, identity)
        self._share_pool(session, "")
        try:                             # the client's info stays with the replica it sent it to
            session.resume(_Peer(REVISIONS[PROTOCOL_VERSIONS[revision]], _capabilities_from_bits(bits), None,
                                 "debug"))
        except ValueError:
            raise not_found from None
        self._sweep(room_for=1)
        with self.lock:
            held = self.sessions.setdefault(key, _HTTPSession(key, session, owner, expiry))
        if held.session is not session:  # another request revived it first: this one never served
            session.stop()
            return held
        self._route_cancels(held)
        with self.server._lock:
            self.server._sessions.add(held.session)
        return held

    def _sweep(self, room_for: int = 0) -> None:
        """Expire idle sessions; make room for new ones by ending the least recently used idle ones."""
        now = time.monotonic()
        with self.lock:
            idle = sorted((h for h in self.sessions.values() if h.streams == 0), key=lambda h: h.used)
            stale = sum(1 for h in idle if now - h.used > self.session_idle)      # the oldest: a prefix of idle
            expired = idle[:max(stale, len(self.sessions) + room_for - self.max_sessions)]
            if len(self.sessions) - len(expired) + room_for > self.max_sessions:
                raise _HTTPError("503 Service Unavailable", INTERNAL_ERROR, "Service Unavailable: too many "
                                 "open sessions (%d)" % self.max_sessions)
            for held in expired:
                del self.sessions[held.id]
        for held in expired:
            self._end(held.session)

    def _get(self, request: _HTTPRequest):
        """The handshake-era stream for messages that belong to no request."""
        session_id = request.headers.get("mcp-session-id")
        if session_id is None:
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed: GET opens a session's "
                             "stream (send Mcp-Session-Id); protocol 2026-07-28 has none", [("Allow", "POST")])
        if not _accepts(request)[1]:
            raise _HTTPError("406 Not Acceptable", INVALID_REQUEST, "Not Acceptable: GET opens an event stream; "
                             "Accept must list text/event-stream")
        held = self._find_session(session_id, request.auth)
        self._check_session_headers(held, request)
        exchange = held.session.out.open(None)              # a newer GET stream replaces an older one
        with self.lock:
            held.streams += 1
        yield from self._standalone(held, exchange, *self._standalone_ends(held), self._cors(request))

    def _standalone_ends(self, held: _HTTPSession) -> tuple:
        """(check, interval): what ends a quiet GET stream besides its own queue, and how often to look.

        A GET stream never finishes on its own, so three things are watched: its client
        leaving (the interface's, every ``disconnect_probe``); a DELETE that another worker or
        replica answered, which only a shared ``session_store`` tells (every
        ``revocation_probe``: one cheap read; an in-process store needs no probe, its
        DELETE shuts the stream itself); and the WSGI server stopping (gunicorn's
        SIGTERM, which would otherwise wait its graceful timeout on this stream).
        """
        checks = [check for check in (_host_stopping(),) if check is not None]
        interval = self.disconnect_probe
        if not isinstance(self.store, _MemorySessionStore):
            checks.append(lambda: self._deleted_elsewhere(held))
            interval = min(interval, self.revocation_probe)
        if not checks:
            return None, interval
        return (lambda: any(check() for check in checks)), interval

    def _deleted_elsewhere(self, held: _HTTPSession) -> bool:
        """Whether another worker deleted this session: if so it ends here too, streams and calls."""
        try:
            revoked = self.store.is_revoked(held.id)
        except Exception:                # a store that fails for a moment must not cut a stream
            _logger().warning("minimcp: the session store could not be read", exc_info=True)
            return False
        if revoked:
            with self.lock:
                ours = self.sessions.pop(held.id, None) is held
            if ours:                     # its streams end now; stop() may wait shutdown_grace for calls
                held.session.out.shut()
                threading.Thread(target=self._end, args=(held.session,), daemon=True).start()
        return revoked

    def _standalone(self, held: _HTTPSession, exchange: _Exchange, ends, interval: float, headers: list):
        try:
            yield "start", "200 OK", headers + _SSE_HEADERS
            yield "send", b": stream open\n\n"
            while held.id in self.sessions and time.time() < held.expiry:    # it ends with its session
                quiet = max(0.0, min(self.keepalive, held.expiry - time.time()))
                item = yield "wait", exchange, quiet, ends, interval
                if item is None:
                    yield "send", b": keep-alive\n\n"
                    continue
                if item is False or item[0] is None:  # the client left, a DELETE, a newer GET, the server stops
                    return
                yield "send", b"event: message\ndata: " + item[0].rstrip(b"\n") + b"\n\n"
        finally:
            held.session.out.close(None, exchange)
            with self.lock:
                held.streams -= 1
                held.used = time.monotonic()

    def _delete(self, request: _HTTPRequest):
        session_id = request.headers.get("mcp-session-id")
        if session_id is None:
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed: DELETE ends a session "
                             "(send Mcp-Session-Id)", [("Allow", "POST")])
        held = self._find_session(session_id, request.auth)
        self.store.revoke(held.id)                   # every worker sharing the store refuses it from now on
        with self.lock:
            self.sessions.pop(held.id, None)
        yield "call", self._end, (held.session,)     # waits shutdown_grace for its calls
        yield from self._reply("204 No Content", b"", self._cors(request))


def _mcp_headers(request: _HTTPRequest) -> dict:
    """The request's ``mcp-*`` headers, which the session checks against the body and itself."""
    return {name: value for name, value in request.headers.items() if name.startswith("mcp-")}


class _ASGIApp:
    """The MCP endpoint as an ASGI 3 application (``app.asgi``): ``uvicorn 'server:app.asgi'``.

    The protocol is the WSGI app's own (``_HTTPApp.respond``, with its sessions, store and
    options): this carries its steps out on the server's event loop. A stream waits there
    and holds no thread, so thousands stay open; a request's handler runs on the worker
    pool, as under WSGI; the steps that may block (a DELETE waiting for its calls, entering
    the lifespan) run on the loop's default executor. ``lifespan.startup`` enters the app's
    lifespan and ``lifespan.shutdown`` ends its streams, cancels what still runs and exits it.
    """

    def __init__(self, http: _HTTPApp) -> None:
        self.http = http
        self.entered = False             # the process's lifespan (ASGI servers without lifespan events: at first use)
        self.probes = None               # _ASGIProbes of the loop serving this app

    async def __call__(self, scope: dict, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":      # a websocket: not served here
            await send({"type": "websocket.close", "code": 1003})
            return
        import asyncio
        loop = asyncio.get_running_loop()
        if not self.entered:
            await loop.run_in_executor(None, self._enter)
        if self.probes is None or self.probes.loop is not loop:
            self.probes = _ASGIProbes(loop)
        await _ASGIRequest(self.http, self.probes, receive, send).run(_HTTPRequest.from_scope(scope))

    def _enter(self) -> None:
        server = self.http.server
        if not server.dialect.lifespan_per_session:       # (mcp 1.x: each session enters its own)
            server._enter_lifespan()
        self.entered = True

    async def startup(self) -> None:
        """What ``lifespan.startup`` does: enter the app's lifespan (its error raised, chained)."""
        import asyncio
        await asyncio.get_running_loop().run_in_executor(None, self._enter)

    async def shutdown(self) -> None:
        """What ``lifespan.shutdown`` does: end the streams, cancel what still runs, exit the lifespan."""
        import asyncio
        loop, server = asyncio.get_running_loop(), self.http.server
        self.http.close_streams()
        await loop.run_in_executor(None, self.http.shutdown)     # cancels, waits shutdown_grace
        if server._lifespan is not None:
            await loop.run_in_executor(None, server._lifespan.exit)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.startup()
                except Exception as failure:     # the lifespan's own error, chained
                    cause = failure.__cause__
                    await send({"type": "lifespan.startup.failed",
                                "message": "minimcp: %s: %s" % (failure, cause if cause is not None else "")})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return


class _ASGIRequest:
    """One request under ASGI: ``_HTTPApp.respond``'s steps carried out with awaits.

    A stream waits for its exchange's next item without a thread: the exchange wakes the
    loop (``call_soon_threadsafe``) as a worker writes to it. The client leaving
    (``http.disconnect``) ends the wait, which for a 2026-07-28 request cancels its call.
    Where a per-session lifespan may be entered (mcp 1.x), every step runs on the executor:
    an async one cannot run its own loop on this loop's thread.
    """

    def __init__(self, http: _HTTPApp, probes: "_ASGIProbes", receive, send) -> None:
        self.http, self.probes, self.receive, self.send = http, probes, receive, send
        self.loop = probes.loop
        self.woken = None                # the future a wait is parked on, until an item or a timeout
        self.gone = False
        self.ended_by_check = False      # the probes found the wait's check true
        self.listener = None             # the task that waits for http.disconnect, once the body is read
        server = http.server
        self.threaded = server.dialect.lifespan_per_session and server._lifespan is not None

    async def run(self, request: _HTTPRequest) -> None:
        flow = self.http.respond(request)
        value, refusal = None, None
        try:
            while True:
                try:
                    if self.threaded:
                        action = await self.loop.run_in_executor(None, self._advance, flow, value, refusal)
                    else:
                        action = self._advance(flow, value, refusal)
                except StopIteration:
                    break
                value, refusal = None, None
                if action[0] == "start":
                    await self.send({"type": "http.response.start", "status": int(action[1][:3]),
                                     "headers": [(name.lower().encode("latin-1"), value.encode("latin-1"))
                                                 for name, value in action[2]]})
                elif action[0] == "send":
                    await self.send({"type": "http.response.body", "body": action[1], "more_body": True})
                elif action[0] == "body":
                    try:
                        value = await self._body(request)
                    except _HTTPError as problem:
                        refusal = problem
                elif action[0] == "call":
                    value = await self.loop.run_in_executor(None, action[1], *action[2])
                else:
                    value = await self._wait(*action[1:])
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            flow.close()                 # cancelled by the server, or the client gone mid-send: released
            if self.listener is not None:
                self.listener.cancel()

    @staticmethod
    def _advance(flow, value, refusal) -> tuple:
        return flow.throw(refusal) if refusal is not None else flow.send(value)

    async def _body(self, request: _HTTPRequest) -> bytes:
        """The body (the server has undone any chunking), never more than ``max_body`` bytes of it kept."""
        declared = request.headers.get("content-length")
        expected = self.http._body_length(declared) if declared is not None else None
        pieces, size = [], 0
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.gone = True
                raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the body ended early")
            piece = message.get("body", b"")
            size += len(piece)
            if size > self.http.max_body:
                raise _HTTPError("413 Content Too Large", INVALID_REQUEST, "Invalid Request: the body has "
                                 "more than %d bytes, the limit" % self.http.max_body)
            pieces.append(piece)
            if not message.get("more_body", False):
                break
        if expected is not None and size < expected:
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the body ended early")
        return b"".join(pieces)

    async def _listen(self) -> None:
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.gone = True
                self._wake()
                return

    def _wake(self) -> None:
        """(On the loop.) Whatever waits, look again."""
        if self.woken is not None and not self.woken.done():
            self.woken.set_result(None)

    async def _wait(self, exchange: _Exchange, timeout: float, check, probe: float):
        """As ``_HTTPApp._wait``, awaited: the next item, None after ``timeout``, False once gone or ``check()``."""
        import queue
        loop = self.loop
        try:
            return exchange.queue.get_nowait()       # answered already (a quick method): nothing to wait for
        except queue.Empty:
            pass
        if self.listener is None and not self.gone:
            self.listener = loop.create_task(self._listen())

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:         # the loop has closed: nobody waits any more
                pass
        deadline = loop.time() + timeout
        if check is not None:
            self.probes.add(self, check, probe)
        try:
            while True:
                self.woken = loop.create_future()     # before looking: an item put after the look wakes it
                exchange.waker = wake
                try:
                    return exchange.queue.get_nowait()
                except queue.Empty:
                    pass
                if self.gone or self.ended_by_check:
                    return False
                left = deadline - loop.time()
                if left <= 0:
                    return None
                timer = loop.call_later(left, self._wake)
                try:
                    await self.woken
                finally:
                    timer.cancel()
        finally:
            exchange.waker = None
            self.woken = None
            if check is not None:
                self.probes.discard(self)


class _ASGIProbes:
    """The checks of every stream waiting on one loop (its WSGI server stopping, its session
    deleted by another worker), made by one ticker rather than by a timer per stream.

    300 GET streams, each woken every ``disconnect_probe`` to ask, woke together in bursts
    (opened together, they stay in step) that held the loop for tens of milliseconds at
    load, and pings answered behind a burst waited as long: a tick asks every check in one
    pass and wakes only the streams whose check is true.
    """

    def __init__(self, loop) -> None:
        self.loop = loop
        self.waiting = {}                # _ASGIRequest -> (check, probe seconds)
        self.ticker = None               # the task that asks, while anything waits

    def add(self, request: _ASGIRequest, check, probe: float) -> None:
        self.waiting[request] = (check, probe)
        if self.ticker is None:
            self.ticker = self.loop.create_task(self._tick())

    def discard(self, request: _ASGIRequest) -> None:
        self.waiting.pop(request, None)

    async def _tick(self) -> None:
        import asyncio
        try:
            while self.waiting:
                await asyncio.sleep(min(probe for _, probe in self.waiting.values()))
                for request, (check, _) in list(self.waiting.items()):
                    if request in self.waiting and check():
                        self.waiting.pop(request, None)
                        request.ended_by_check = True
                        request._wake()
        finally:
            self.ticker = None


def _env_list(name: str, given):
    """An allowlist from the argument, else from a comma-separated environment variable, else None."""
    if given is not None:
        return [given] if isinstance(given, str) else list(given)
    value = os.environ.get(name)
    return [item.strip().lower() for item in value.split(",") if item.strip()] if value else None


def _run_http(app: "MCPServer", host: str, port: int, options: dict) -> None:
    """``app.run(transport="http")``: serve until SIGTERM or Ctrl-C, drain, then close the socket.

    The address goes to stderr once bound (unless the caller passes its own ``ready``);
    a port that is taken is a message and exit status 1, not a traceback.
    """
    import signal
    if "ready" not in options:
        path = options.get("path", "/mcp")

        def announce(httpd):
            bound = httpd.server_address
            shown = "[%s]" % bound[0] if ":" in bound[0] else bound[0]
            sys.stderr.write("minimcp: serving %s at http://%s:%d%s\n" % (app.name, shown, bound[1], path))
            sys.stderr.flush()
        options = dict(options, ready=announce)
    serving, ready = [], options["ready"]

    def bound(httpd) -> None:
        serving.append(httpd)
        ready(httpd)

    def on_sigterm(signum, frame) -> None:
        # The first SIGTERM asks the server to stop at its next safe point (service_actions,
        # within poll_interval); raised wherever it landed, socketserver shut the connection
        # it was handing to a thread, and that thread's reply failed (EPIPE). A second one,
        # while draining, stops now.
        if serving and not serving[0].stop_asked:
            serving[0].stop_asked = True
            return
        raise _Terminated()
    options = dict(options, ready=bound)
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_sigterm) if on_main else None
    try:
        _serve_http(app, host, port, **options)
    except (KeyboardInterrupt, _Terminated):
        pass                             # a second signal while draining: stop now
    finally:
        if on_main:
            signal.signal(signal.SIGTERM, previous)


class _ChunkedBody:
    """A chunked request body (RFC 9112 section 7.1) read as the plain bytes it carries.

    Reads are bounded by the caller's size; malformed framing raises ValueError. The framing
    is read strictly, as a proxy in front may read it: every line ends in CRLF, a chunk size
    is hex digits only (``int(size, 16)`` also takes ``0x10``, ``+10`` and ``1_0``).
    """

    def __init__(self, raw) -> None:
        self.raw = raw
        self.left = 0                    # bytes of the current chunk not read yet
        self.done = False                # the last chunk and the trailers are read

    def read(self, size: int = -1) -> bytes:
        pieces = []
        while not self.done and size != 0:
            if self.left == 0:
                self._start_chunk()
                continue
            piece = self.raw.read(self.left if size < 0 else min(self.left, size))
            if not piece:
                raise ValueError("the body ended inside a chunk")
            pieces.append(piece)
            self.left -= len(piece)
            size = size - len(piece) if size > 0 else size
            if self.left == 0 and self.raw.read(2) != b"\r\n":
                raise ValueError("a chunk is longer than its size says")
        return b"".join(pieces)

    def _line(self, limit: int) -> bytes:
        line = self.raw.readline(limit)
        if not line.endswith(b"\r\n") or b"\r" in line[:-2]:
            raise ValueError("a line of the chunked framing does not end in CRLF" if line else
                             "the body ended inside the chunked framing")
        return line[:-2]

    def _start_chunk(self) -> None:
        size, extension, _ = self._line(1026).partition(b";")    # chunk extensions are allowed and ignored
        if extension:
            size = size.rstrip(b" \t")                           # whitespace before ";" (BWS)
        if not size or len(size) > 16 or not _HEX_DIGITS.issuperset(size):
            raise ValueError("a chunk size line is malformed")
        self.left = int(size, 16)
        if self.left == 0:                                      # the last chunk: skip the trailer fields
            for _ in range(64):
                if not self._line(8194):
                    self.done = True
                    return
            raise ValueError("too many trailer fields")

    def close(self) -> None:
        self.raw.close()


_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


class _BodyInput:
    """``wsgi.input`` for a body of Content-Length bytes: never reads into the next request."""

    def __init__(self, raw, length: int) -> None:
        self.raw, self.left = raw, length

    def read(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.raw.read(size) if size else b""
        self.left -= len(data)
        if len(data) < size:
            self.left = -1               # ended early: the connection cannot carry another request
        return data

    def readline(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.raw.readline(size) if size else b""
        self.left -= len(data)
        return data

    @property
    def done(self) -> bool:
        return self.left == 0


class _HeadTooLarge(Exception):
    """A request head ran past ``_ConnectionInput.HEAD_LIMIT``."""


class _ConnectionInput(io.RawIOBase):
    """A connection's bytes, as the request handler's ``rfile`` reads them: within the request's deadline.

    A socket timeout bounds one read, so a client that sends a byte every few seconds
    (slow loris) held its thread forever. Every read here waits at most ``per_read``
    (``read_timeout``), and never past ``deadline``, the time by which the whole request,
    head and body, must have arrived; ``late`` says it passed. While a head is read,
    ``budget`` bounds the bytes it may take (``HEAD_LIMIT``, then ``_HeadTooLarge``).
    """
    HEAD_LIMIT = 128 * 1024              # a request line (64 KiB at most) and its headers

    def __init__(self, sock, per_read: float) -> None:
        import socket
        super().__init__()
        self.sock, self.per_read, self.timeout = sock, per_read, socket.timeout
        self.deadline = None             # monotonic seconds; None: no whole-request bound
        self.budget = None
        self.late = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        wait = self.per_read
        if self.deadline is not None:
            wait = min(wait, self.deadline - time.monotonic())
            if wait <= 0:
                self.late = True
                raise self.timeout("the request did not arrive in time")
        view = memoryview(buffer)
        if self.budget is not None:
            if self.budget <= 0:
                raise _HeadTooLarge()
            view = view[:self.budget]
        self.sock.settimeout(wait)
        try:
            count = self.sock.recv_into(view)
        except self.timeout:
            self.late = self.deadline is not None and time.monotonic() >= self.deadline
            raise
        finally:
            self.sock.settimeout(self.per_read)          # what writes wait
        if self.budget is not None:
            self.budget -= count
        return count


class _StdlibHTTPServer:
    """What ``_serve_http`` adds to ``http.server``: HTTP/1.1 keep-alive, bounded threads, a drain.

    wsgiref answers one request per connection over HTTP/1.0, so every request of a
    client paid a TCP handshake (and, with Python's listen backlog of 5, SYN retries
    under load). Here each connection runs a loop of requests on its own thread, at
    most ``max_connections`` at once, with that many waiting in the listen backlog.
    Past that, a connection is answered 503 with Retry-After by a thread of its own that
    ends within seconds (at most ``max_connections // 4`` of them), never closed without a
    status. GET requests (the streams that never end on their own) hold at most
    ``max_streams`` of the connections, so streams never starve other requests. A
    request's head and body must arrive within ``request_timeout`` of its first byte
    (of the connection, for the first), and a connection waits ``idle_timeout`` for
    its next request. ``drain`` is the end: stop accepting, let started requests finish,
    then cancel the rest and answer them. A mixin: ``_bind_http`` puts it before
    ``ThreadingMixIn`` and ``HTTPServer``, which are imported only when serving.
    """
    daemon_threads = True
    allow_reuse_address = True
    application = None                   # the WSGI app served (wsgiref's name for it)

    def __init__(self, address, handler, max_connections: int, max_streams: int) -> None:
        self.draining = False
        self.stop_asked = False          # SIGTERM's: serve_forever ends at its next service_actions
        self.busy = 0                    # requests between their first line and their last byte
        self.idle = set()                # sockets waiting for a next request
        self.changed = threading.Condition()
        self.request_queue_size = max(5, max_connections)   # the listen backlog: a burst waits, not SYN retries
        self.max_connections, self.max_streams = max_connections, max_streams
        self.limit = threading.BoundedSemaphore(max_connections)
        self.streams = threading.BoundedSemaphore(max_streams)
        self.turning_away = threading.BoundedSemaphore(max(8, max_connections // 4))
        super().__init__(address, handler)

    def get_app(self):
        return self.application

    def service_actions(self) -> None:
        """serve_forever's point between requests: where a stop that SIGTERM asked for begins."""
        if self.stop_asked:
            raise _Terminated()

    def process_request(self, request, client_address) -> None:
        if self.draining:
            self.shutdown_request(request)
            return
        if not self.limit.acquire(blocking=False):          # bounded threads
            self.turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:            # no thread to serve it: the slot is free again
            self.limit.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.limit.release()

    def turn_away(self, request) -> None:
        """A connection past ``max_connections``: answered 503 on a short-lived thread of its own."""
        if not self.turning_away.acquire(blocking=False):   # as many as that at once: answered here, unread
            self.send_busy(request, linger=0.0)
            return
        try:
            threading.Thread(target=self.send_busy, args=(request, 2.0, True), daemon=True).start()
        except BaseException:
            self.turning_away.release()
            self.shutdown_request(request)
            raise

    def send_busy(self, request, linger: float, counted: bool = False) -> None:
        """503, Retry-After and a JSON-RPC error; then what the client sends is read for up to
        ``linger`` seconds, until it closes: a socket closed with bytes unread is reset, and a
        reset can cost the client the answer it has not read yet."""
        import socket
        message = "Service Unavailable: this server has its %d connections open; retry later" % self.max_connections
        body = encode_message(_error(None, INTERNAL_ERROR, message))
        head = ("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
        try:
            request.settimeout(1.0)
            request.sendall(head.encode("latin-1") + body)
            request.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + linger
            while time.monotonic() < deadline:
                request.settimeout(max(0.01, deadline - time.monotonic()))
                if not request.recv(65536):
                    break
        except OSError:
            pass
        finally:
            self.shutdown_request(request)
            if counted:
                self.turning_away.release()

    def waiting(self, sock, idle: bool, started: bool = False) -> bool:
        """A connection waits for a request's head (idle), or stops waiting: True if it may go on.

        ``started``: the head was read, so the request is served (and counted busy, which a
        drain waits for), unless the drain began while it was being read.
        """
        with self.changed:
            if idle:
                self.idle.add(sock)
                return not self.draining
            self.idle.discard(sock)
            if not started or self.draining:
                return False
            self.busy += 1
            return True

    def working(self, delta: int) -> None:
        with self.changed:
            self.busy += delta
            self.changed.notify_all()

    def wait_idle(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        with self.changed:
            while self.busy and time.monotonic() < deadline:
                self.changed.wait(max(0.0, min(0.5, deadline - time.monotonic())))
            return not self.busy

    def drain(self, wsgi: "_HTTPApp", drain_seconds: float, grace: float) -> None:
        """SIGTERM (or shutdown()): no new connections; started requests finish, then are cancelled and answered."""
        import socket
        with self.changed:
            self.draining = True
            idle = list(self.idle)
        self.socket.close()              # stop accepting: new connections are refused by the kernel
        for sock in idle:                # keep-alive connections between requests: closed now
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        wsgi.close_streams()             # GET streams never finish on their own
        if not self.wait_idle(drain_seconds):
            wsgi.shutdown()              # cancel, shutdown_grace, then every waiting request is answered
            self.wait_idle(grace + 5.0)


class _WSGIResponse:
    """One WSGI response on a ``_RequestLoop`` connection: ``start_response``, then the head with the first bytes."""

    def __init__(self, handler: "_RequestLoop") -> None:
        self.handler, self.status, self.headers, self.sent = handler, None, None, False
        self.head_only = handler.command == "HEAD"

    def start_response(self, status: str, headers, exc_info=None):
        if exc_info is not None and self.sent:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status, self.headers = status, list(headers)
        return self.write

    def send_head(self) -> None:
        handler = self.handler
        code = self.status.split(" ", 1)[0]
        names = {name.lower() for name, _ in self.headers}
        lines = ["%s %s\r\n" % (handler.protocol_version, self.status),
                 "Server: %s\r\n" % handler.version_string(), "Date: %s\r\n" % handler.date_time_string()]
        lines += ["%s: %s\r\n" % pair for pair in self.headers]
        if "content-length" not in names and code not in ("204", "304") and not self.head_only:
            handler.close_connection = True      # a stream (SSE) ends with its connection, as SSE readers expect
        if handler.close_connection:
            lines.append("Connection: close\r\n")
        elif handler.request_version == "HTTP/1.0":
            lines.append("Connection: keep-alive\r\n")
        handler.wfile.write(("".join(lines) + "\r\n").encode("latin-1"))
        self.sent = True

    def write(self, data: bytes) -> None:
        if not self.sent:
            self.send_head()
        if data and not self.head_only:
            self.handler.wfile.write(data)


_TOKEN_CHARACTERS = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _RequestLoop:
    """The request handler's own part (``_request_handler`` adds ``BaseHTTPRequestHandler``): requests
    one after another on a kept-alive connection, each run through the WSGI app.

    ``timeout`` (one read or write), ``request_timeout`` (a request's head and body) and
    ``idle_timeout`` (between requests) are set by ``_request_handler``. Whatever the
    server refuses itself (bad framing, a head too large or too slow, no room for a
    stream) is answered with a JSON-RPC error, and the connection closed.
    """
    protocol_version = "HTTP/1.1"
    server_version = "minimcp/" + __version__
    idle_timeout = 5.0
    request_timeout = 5.0
    # TCP_NODELAY: the head and the body go out in two writes, and on a kept-alive connection
    # Nagle held the body until the client's delayed ACK of the head, 40 ms per request.
    disable_nagle_algorithm = True

    def log_message(self, *args) -> None:    # no access log on stderr (tokens in URLs)
        return None

    def setup(self) -> None:
        super().setup()
        self.rfile.close()                   # socketserver's reader: this one keeps the request's deadline
        self.input = _ConnectionInput(self.connection, self.timeout)
        self.rfile = io.BufferedReader(self.input)

    def handle(self) -> None:
        """Requests, one after another, until the client or the server closes the connection."""
        first = True
        while True:
            # Until its head is read, a request has not started: a drain closes the connection.
            if not self.server.waiting(self.connection, True):
                return                               # draining
            head = self.read_head(first)
            if not self.server.waiting(self.connection, False, started=head):
                return
            first = False
            try:
                self.run_app()
            finally:
                self.server.working(-1)
            if self.close_connection:
                return

    def read_head(self, first: bool) -> bool:
        """Read a request line and headers; False if there is none to serve (answered if it was bad).

        The request's deadline starts at its first byte (for a connection's first request,
        when the connection was accepted: connecting is asking).
        """
        self.close_connection = True
        raw, arrived = self.input, False
        raw.late = False
        raw.deadline = time.monotonic() + (self.request_timeout if first else self.idle_timeout)
        try:
            if not self.rfile.peek(1):
                return False                         # closed: by the client, or by the drain
            arrived = True
            if not first:
                raw.deadline = time.monotonic() + self.request_timeout
            raw.budget = raw.HEAD_LIMIT
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline, self.request_version, self.command = "", "", ""
                self.send_error(414)
                return False
            return self.parse_request()              # it has answered 400/431/505 itself if not
        except _HeadTooLarge:
            self.send_error(431, "Request Header Fields Too Large: a request head has %d bytes at most"
                            % raw.HEAD_LIMIT)
        except OSError:                  # too slow, idle too long, or closed by the drain
            if arrived and raw.late:
                self.send_error(408, "Request Timeout: a request must arrive whole within %g s"
                                % self.request_timeout)
        finally:
            raw.budget = None
        return False

    def send_error(self, code: int, message: str = None, explain: str = None) -> None:
        """``http.server``'s refusals (and ours) as JSON-RPC errors; the connection closes after them."""
        reason = self.responses.get(code, ("Error",))[0]
        self.refuse("%d %s" % (code, reason), message or reason)

    def refuse(self, status: str, message: str, headers=()) -> None:
        self.close_connection = True
        body = encode_message(_error(None, INTERNAL_ERROR if status.startswith("5") else INVALID_REQUEST, message))
        lines = ["HTTP/1.1 %s\r\n" % status, "Server: %s\r\n" % self.version_string(),
                 "Date: %s\r\n" % self.date_time_string(), "Content-Type: application/json\r\n",
                 "Content-Length: %d\r\n" % len(body), "Connection: close\r\n"]
        lines += ["%s: %s\r\n" % pair for pair in headers]
        try:
            self.wfile.write(("".join(lines) + "\r\n").encode("latin-1") + body)
        except OSError:
            pass

    def body_input(self):
        """``wsgi.input``, framed as RFC 9112 section 6 says; _HTTPError for framing that is refused.

        Nothing of a body may ever be read as the next request: a Transfer-Encoding other
        than chunked (which a proxy in front may apply and this server would not undo) is
        501, an invalid one or one with Content-Length is 400, and either closes the
        connection, as any malformed framing does.
        """
        codings = self.headers.get_all("Transfer-Encoding")
        lengths = self.headers.get_all("Content-Length") or []
        if codings is not None:
            if self.request_version == "HTTP/1.0" or lengths:
                raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Transfer-Encoding is refused "
                                 "with Content-Length, and in HTTP/1.0")
            names = [name.strip().lower() for name in ",".join(codings).split(",") if name.strip()]
            if not names or not all(_TOKEN_CHARACTERS.issuperset(name) for name in names) or \
                    "chunked" in names[:-1]:
                raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Transfer-Encoding %r is "
                                 "invalid" % ",".join(codings)[:60])
            if names != ["chunked"]:
                raise _HTTPError("501 Not Implemented", INVALID_REQUEST, "Not Implemented: the only "
                                 "Transfer-Encoding served is chunked, not %r" % ",".join(codings)[:60])
            return _ChunkedBody(self.rfile)
        length = lengths[0] if lengths else "0"
        if len(lengths) > 1 or not (length.isascii() and length.isdigit()):
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Content-Length must be one "
                             "number of bytes, not %r" % ",".join(lengths)[:40])
        if len(length) > 18:
            self.close_connection = True                     # the app refuses it (413); the framing is lost
            return _BodyInput(self.rfile, 0)
        return _BodyInput(self.rfile, int(length))

    def environ(self, body) -> dict:
        from urllib.parse import unquote
        path, _, query = self.path.partition("?")
        environ = {"REQUEST_METHOD": self.command, "SCRIPT_NAME": "", "QUERY_STRING": query,
                   "PATH_INFO": unquote(path, "iso-8859-1"), "SERVER_NAME": self.server.server_name,
                   "SERVER_PORT": str(self.server.server_port), "SERVER_PROTOCOL": self.request_version,
                   "REMOTE_ADDR": self.client_address[0], "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
                   "wsgi.input": body, "wsgi.errors": sys.stderr, "wsgi.multithread": True,
                   "wsgi.multiprocess": False, "wsgi.run_once": False,
                   "wsgi.input_terminated": isinstance(body, _ChunkedBody),
                   "minimcp.socket": self.connection}               # so a stream sees its client leave
        for name, value in self.headers.items():
            if "_" in name:              # X_Token must not pass for X-Token
                continue
            key = name.upper().replace("-", "_")
            key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else "HTTP_" + key
            value = value.strip()        # RFC 9110: whitespace around a field value is not part of it
            environ[key] = environ[key] + "," + value if key in environ else value
        return environ

    def run_app(self) -> None:
        try:
            body = self.body_input()
        except _HTTPError as refusal:
            self.refuse(refusal.status, refusal.message)
            return
        stream = self.command == "GET"           # a stream may never end: held to max_streams
        if stream and not self.server.streams.acquire(blocking=False):
            self.refuse("503 Service Unavailable", "Service Unavailable: %d streams are open, the most this "
                        "server holds; retry later" % self.server.max_streams, [("Retry-After", "1")])
            return
        try:
            self.respond(body)
        finally:
            if stream:
                self.server.streams.release()
        if not body.done:                # unread body bytes would be taken for the next request
            self.close_connection = True

    def respond(self, body) -> None:
        response, result = _WSGIResponse(self), None
        try:
            result = self.server.application(self.environ(body), response.start_response)
            for data in result:
                if data:
                    response.write(data)
            if not response.sent:
                response.send_head()
        except OSError:                  # the client went away, or was too slow, mid-request
            self.close_connection = True
            if self.input.late and not response.sent:
                self.send_error(408, "Request Timeout: a request must arrive whole within %g s"
                                % self.request_timeout)
        except Exception:                # the app's own error boundary failed: answer, never hang
            _logger().exception("minimcp: the HTTP request failed")
            self.close_connection = True
            if not response.sent:
                self.send_error(500)
        finally:
            if hasattr(result, "close"):
                result.close()


def _request_handler(read_timeout: float, request_timeout: float, idle_timeout: float):
    """The request handler class: ``_RequestLoop`` on ``http.server``'s, imported only now."""
    from http.server import BaseHTTPRequestHandler
    return type("Handler", (_RequestLoop, BaseHTTPRequestHandler),
                {"timeout": read_timeout, "request_timeout": request_timeout, "idle_timeout": idle_timeout})


def _bind_http(host: str, port: int, handler, max_connections: int, max_streams: int) -> _StdlibHTTPServer:
    """The listening server; a port that is taken (or any bind error) is a message, not a traceback."""
    import socket
    from http.server import HTTPServer
    from socketserver import ThreadingMixIn

    class Server(_StdlibHTTPServer, ThreadingMixIn, HTTPServer):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET     # "::1" and "[::1]" alike
    try:
        return Server((host.strip("[]"), port), handler, max_connections, max_streams)
    except OSError as problem:
        import errno
        if problem.errno == errno.EADDRINUSE:
            raise SystemExit("minimcp: cannot serve on %s:%d: the port is taken (is another server running? "
                             "pick another port)" % (host, port)) from None
        raise SystemExit("minimcp: cannot serve on %s:%d: %s" % (host, port, problem.strerror or problem)) from None


def _default_max_connections() -> int:
    """1024 connections, or fewer where the process may open fewer files (each is a file descriptor)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 1024
    if soft == resource.RLIM_INFINITY:
        return 1024
    return max(16, min(1024, soft - 64))


def _serve_http(app: "MCPServer", host: str, port: int, ready=None, **options) -> None:
    """Run the WSGI app on the standard library's HTTP server until interrupted; then drain.

    Options of the server (the rest go to ``wsgi_app``): ``max_connections`` (1024, fewer if
    the open-files limit is lower), ``max_streams`` (a quarter of those: GET streams at once),
    ``request_timeout`` (5 s for a request's head and body to arrive), ``idle_timeout`` (5 s
    between requests on a kept-alive connection), ``read_timeout`` (30 s for one read or
    write), ``drain_seconds`` (10 s for started requests to finish on SIGTERM).
    """
    read_timeout = options.pop("read_timeout", 30.0)
    request_timeout = options.pop("request_timeout", 5.0)
    idle_timeout = options.pop("idle_timeout", 5.0)
    max_connections = options.pop("max_connections", None) or _default_max_connections()
    max_streams = options.pop("max_streams", None) or max(1, max_connections // 4)
    drain_seconds = options.pop("drain_seconds", 10.0)
    wsgi = app.wsgi_app(**options)
    handler = _request_handler(read_timeout, request_timeout, idle_timeout)
    httpd = _bind_http(host, port, handler, max_connections, max_streams)
    httpd.application = wsgi
    if ready is not None:                # tests and embedders: the bound server
        ready(httpd)
    try:
        # shutdown() (SIGTERM's drain, embedders, the tests' servers) waits until this loop
        # next looks at its flag: poll_interval at most. 50 ms is as quick as a person sees, at
        # 20 idle wake-ups a second; 0.2 s made every test server's end a fifth of a second.
        httpd.serve_forever(poll_interval=0.05)
    finally:
        try:
            httpd.drain(wsgi, drain_seconds, app.shutdown_grace)
        finally:
            httpd.server_close()

# The MCPServer attributes of HTTP ------------------------------------------------

def _wsgi_app(server: "MCPServer", **options) -> "_HTTPApp":
    """The Streamable HTTP endpoint as a WSGI application, for gunicorn, waitress, uWSGI, ...

    Options (README, "Serving over HTTP"): ``path`` ("/mcp"), ``allowed_hosts`` and
    ``allowed_origins`` (loopback; 421 and 403 otherwise), ``auth`` (``fn(headers)`` -> True
    or an identity, ``ctx.auth``; else $MINIMCP_HTTP_TOKEN), ``max_body`` (4 MiB),
    ``max_sessions``, ``session_idle``, ``session_lifetime``, ``keepalive``,
    ``disconnect_probe`` and ``revocation_probe`` (seconds), ``session_store``
    (``revoke``/``is_revoked``; default ``SQLiteSessionStore`` under $MINIMCP_SESSION_DIR),
    ``resource_metadata`` (RFC 9728) and ``session_share`` (0.25: the part of the worker
    pool one session, or one 2026-07-28 client, may hold while its other calls wait).
    """
    return _HTTPApp(server, **options)

def _default_wsgi(server: "MCPServer") -> "_HTTPApp":
    """The WSGI app with default options (``gunicorn 'server:app.wsgi'``)."""
    return _part(server, "http", lambda: _HTTPApp(server))

def _asgi_app(server: "MCPServer", **options) -> "_ASGIApp":
    """The Streamable HTTP endpoint as an ASGI 3 application, for uvicorn, hypercorn, granian, ...

    The options are ``wsgi_app``'s; it serves the same protocol, with streams on the event loop.
    """
    return _ASGIApp(_HTTPApp(server, **options))

def _default_asgi(server: "MCPServer") -> "_ASGIApp":
    """The ASGI app with default options (``uvicorn 'server:app.asgi'``): sessions and store are ``app.wsgi``'s."""
    return _part(server, "asgi", lambda: _ASGIApp(_default_wsgi(server)))


_plug("http", "Streamable HTTP as a WSGI app and an ASGI app, and a server for it on http.server",
      methods={"wsgi_app": _wsgi_app, "wsgi": property(_default_wsgi), "asgi_app": _asgi_app,
               "asgi": property(_default_asgi)},
      transports={"http": _run_http, "streamable-http": _run_http})
