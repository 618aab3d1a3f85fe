"""minimcp_bridge: a host that speaks only stdio reaches a remote MCP server over Streamable HTTP.

    python3 minimcp.py bridge https://example.com/mcp --header "Authorization: Bearer ${TOKEN}"

The host starts the bridge as it starts any stdio server; the bridge speaks Streamable HTTP
to the server at URL. Standard library only, Python 3.8-3.13, nothing to install.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported: ``python3 minimcp.py bridge URL`` imports it through
the command line, and ``python3 minimcp_bridge.py URL`` runs it as well. ``python3 minimcp.py
bundle -o FILE`` writes the core and its components as one file, leaving out this header
(everything above the first section banner) and the main block at its end.

What owns what, top to bottom:

- **Headers** (``HeaderProvider``): what every upstream request carries besides the
  protocol's own headers: ``headers()`` before each request, ``unauthorized()`` on a 401
  and ``forbidden()`` on a 403, which may get fresh credentials and ask for a retry.
  ``StaticHeaders`` holds ``--header`` / ``--header-file``.
- **The upstream** (``Upstream``): HTTP and nothing else. The endpoint, the OS proxy
  settings, TLS with the system's CA store (``--ca-file`` adds one), keep-alive
  connections with TCP keep-alive, the connect and idle timeouts, refused connections
  retried for a bounded time, and a sentence for each failure naming its likely fix.
- **Sign-in** (``OAuth``, the provider when no ``Authorization`` header is given): OAuth 2.1
  as MCP's authorization spec says. Discovery (``discover``: RFC 9728, RFC 8414 and OpenID
  metadata, the issuer checked, the 2025-03-26 defaults), the client (pre-registered, a
  client ID metadata document, RFC 7591 registration), the authorization code flow with
  PKCE in the user's browser and its redirect on a loopback port, or client credentials;
  tokens in a 0600 file per server (``TokenStore``), refreshed before they expire and on a
  401; a 403 ``insufficient_scope`` steps up. A file lock per server (``FileLock``) makes
  one bridge sign in while the others wait for what it stores; a sign-in whose bridge was
  killed is finished by the next, in the tab already open.
- **The bridge** (``Bridge``): the MCP side. It reads the host's messages, keeps the
  table of requests in flight (each gets exactly one answer), and hands each to the era
  the two ends agreed on:
    * ``_Mirror``: both ends speak the handshake era. The host's ``initialize`` goes up,
      the session id is kept, the GET stream is opened when the server offers one, and a
      dropped stream is resumed with ``Last-Event-ID``. A 404 for a stale session opens a
      new one by replaying the host's ``initialize``, and the request is sent once more.
    * ``_Stateless``: the host speaks 2026-07-28 itself; every request goes up as it is,
      with the headers the HTTP transport mirrors from the body.
    * ``_Translated``: a handshake-era host and a 2026-07-28 server. ``initialize`` is
      answered from ``server/discover``, each request is sent in the 2026-07-28
      envelope, ``input_required`` results become sampling, elicitation and roots
      requests to the host (the request is retried with the answers and its
      ``requestState``), and a ``subscriptions/listen`` stream carries list changes and
      resource updates.

Only JSON-RPC goes to stdout; everything else goes to stderr, and logs name headers,
never their values.
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
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
    DEFAULT_MAX_MESSAGE_SIZE,
    HANDSHAKE_VERSIONS,
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATEST_HANDSHAKE_VERSION,
    LOG_LEVELS,
    META_CLIENT_CAPS,
    META_CLIENT_INFO,
    META_LOG_LEVEL,
    META_SERVER_INFO,
    META_SUBSCRIPTION,
    META_VERSION,
    METHOD_NOT_FOUND,
    MISSING_CLIENT_CAPABILITY,
    MODERN_VERSIONS,
    REVISIONS,
    UNSUPPORTED_PROTOCOL_VERSION,
    _LineReader,
    _Oversized,
    _OwnedStdio,
    _Terminated,
    _decode_line,
    _error,
    _id_key,
    _notification,
    _plug,
    _request,
    _response,
    _shape_prompt,
    _shape_resource,
    _shape_tool,
    _shape_tool_result,
    _trim,
    _trim_block,
    _valid_id,
    encode_message,
)


# Bridge: a stdio host, a remote Streamable HTTP server (python3 minimcp.py bridge URL) ####

#: The 2026-07-28 revision the bridge speaks upstream for a handshake-era host.
STATELESS_VERSION = MODERN_VERSIONS[-1]
#: The errors only a 2026-07-28 server sends: one of them means the server speaks that era.
_MODERN_ERRORS = frozenset([HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION])
#: Headers the bridge sets itself; a --header may not replace them.
_OWN_HEADERS = frozenset(["accept", "content-type", "content-length", "host", "mcp-session-id",
                          "mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id", "connection",
                          "transfer-encoding"])
#: A request id of the bridge's own never collides with a host's (hosts use numbers or their own strings).
_OWN_ID_PREFIX = "minimcp-bridge:"
#: Seconds the answers still on their way get after stdin's end, when --idle-timeout is 0 (no limit).
DRAIN_TIMEOUT = 300.0
_ROUNDS_LIMIT = 16                       # input_required rounds for one request before giving up



class _Stderr:
    """The bridge's log: ``minimcp bridge: MESSAGE`` lines on stderr, at or above its level (``-v``
    debug, ``-q`` warning, else info). Not the logging module, whose import alone (traceback,
    string, weakref...) is a tenth of the bridge's start; the same four calls."""
    LEVELS = {"debug": 10, "info": 20, "warning": 30}

    def __init__(self) -> None:
        self.level = 30                  # until the command line sets it: warnings (a library's use)
        self.lock = threading.Lock()

    def _say(self, level: int, message: str, args: tuple, trace: bool = False) -> None:
        if level < self.level:
            return
        text = "minimcp bridge: " + (message % args if args else message) + "\n"
        if trace:
            import traceback
            text += traceback.format_exc()
        with self.lock:
            try:
                sys.stderr.write(text)
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):    # no stderr (a host that closed it): nothing to say
                pass

    def debug(self, message: str, *args) -> None:
        self._say(10, message, args)

    def info(self, message: str, *args) -> None:
        self._say(20, message, args)

    def warning(self, message: str, *args) -> None:
        self._say(30, message, args)

    def exception(self, message: str, *args) -> None:
        self._say(40, message, args, trace=True)


_STDERR = _Stderr()


def _log() -> _Stderr:
    return _STDERR


# Headers: --header, --header-file, ${ENV}, and the hook for tokens ###########

def expand_environment(text: str, environ=None) -> str:
    """``text`` with each ``${NAME}`` replaced by that environment variable.

    Raises:
        ValueError: a variable is not set (the message names it, never a value).
    """
    import re
    environ = os.environ if environ is None else environ

    def value(match) -> str:
        name = match.group(1)
        if name not in environ:
            raise ValueError("the environment variable %s is not set" % name)
        return environ[name]
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", value, text)


def parse_header(text: str, environ=None) -> tuple:
    """``"Name: value"`` -> ``(name, value)``, the value's ``${ENV}`` expanded.

    Raises:
        ValueError: not ``Name: value``, a name that is not an HTTP token, a value with a
            line break (a header injection), or a header the bridge sets itself.
    """
    import re
    name, sep, value = text.partition(":")
    name = name.strip()
    if not sep or not re.match(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", name):
        raise ValueError("a header is 'Name: value', not %r" % _redact(text))
    if name.lower() in _OWN_HEADERS:
        raise ValueError("the bridge sets %s itself" % name)
    try:
        value = expand_environment(value.strip(), environ)
    except ValueError as exc:
        raise ValueError("header %s: %s" % (name, exc))
    if any(char in value for char in "\r\n\0"):
        raise ValueError("header %s: its value has a line break" % name)
    return name, value


def _redact(text: str) -> str:
    """A header line as logs may show it: its name only."""
    name, sep, _ = text.partition(":")
    return name.strip() + (": ..." if sep else "")


def read_header_file(path: str, environ=None) -> list:
    """The ``Name: value`` lines of a file (``#`` comments and blank lines skipped), ``${ENV}`` expanded.

    A file others can read is allowed, with a warning: it holds secrets.
    """
    headers = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                headers.append(parse_header(line, environ))
            except ValueError as exc:
                raise ValueError("%s line %d: %s" % (path, number, exc))
    if os.name == "posix" and os.stat(path).st_mode & 0o077:
        _log().warning("%s can be read by other users; it holds secrets: chmod 600 %s", path, path)
    return headers


class HeaderProvider:
    """What every upstream request carries besides the protocol's headers.

    The bridge calls ``headers()`` before each request, ``unauthorized()`` when the server
    answers 401 and ``forbidden()`` when it answers 403: a provider that can get fresh
    credentials (an OAuth refresh, a new sign-in, a step-up to more scopes) does so and
    returns True, and the request is sent again with the new ``headers()``. ``OAuth`` is
    the provider that signs in.
    """

    def bind(self, upstream: "Upstream") -> None:
        """The upstream this provider serves (its TLS settings, its timeouts, its closing)."""

    def headers(self) -> dict:
        """The headers to send now (name -> value)."""
        return {}

    def unauthorized(self, challenge: str, sent: dict, interactive: bool = True, retried: bool = False) -> bool:
        """The server answered 401 with ``challenge`` (its WWW-Authenticate, or "") to a request
        that carried ``sent`` (what ``headers()`` gave): try again? ``interactive``: the host
        waits for this request (a background one never opens a browser); ``retried``: ``sent``
        holds the credentials this provider just gave this very request."""
        return False

    def forbidden(self, challenge: str, sent: dict, interactive: bool = True, retried: bool = False) -> bool:
        """The server answered 403 with ``challenge``: try again (with more scopes)?"""
        return False

    def names(self) -> list:
        """The header names, for logs (never the values)."""
        return sorted(self.headers())


class StaticHeaders(HeaderProvider):
    """Fixed headers, from ``--header`` and ``--header-file``."""

    def __init__(self, pairs=()) -> None:
        self._headers = dict(pairs)

    def headers(self) -> dict:
        return self._headers


# The upstream: HTTP, proxies, TLS, timeouts, and what a failure means ########

class UpstreamError(Exception):
    """The server could not be reached or refused the request; the message names the likely fix.

    Attributes:
        status: the HTTP status, or None when no answer came.
        refused: the connection was refused (the server is down or restarting).
        late: an answer due by a deadline (``answer_within``) had not come by then.
    """

    def __init__(self, message: str, status: int = None, refused: bool = False, late: bool = False) -> None:
        super().__init__(message)
        self.status, self.refused, self.late = status, refused, late


def _status_hint(status: int, url: str) -> str:
    """What an HTTP error status from an MCP endpoint most likely means."""
    hints = {
        401: "the server wants credentials that are not OAuth's (or refused the ones given): pass --header "
             "'Authorization: Bearer ${TOKEN}' (or --header-file)",
        403: "forbidden: the credentials lack access to this server, or it refuses this client",
        404: "nothing answers at %s: check the URL's path (MCP endpoints are often /mcp)" % url,
        405: "%s does not take this method: is it a Streamable HTTP MCP endpoint? (the old HTTP+SSE "
             "transport's /sse URL is not supported)" % url,
        406: "the server refuses the Accept header the transport requires",
        407: "the proxy wants credentials: put them in the proxy URL (HTTPS_PROXY=http://user:password@proxy:port)",
        415: "the server refuses Content-Type application/json: is %s an MCP endpoint?" % url,
        421: "the server refuses this Host name: it allows other names (MINIMCP_ALLOWED_HOSTS on minimcp servers)",
        429: "the server is rate limiting: try again later",
    }
    if status in hints:
        return hints[status]
    if 500 <= status < 600:
        return "the server failed (its own logs say why)"
    return "an unexpected answer for an MCP endpoint"


def _connect_hint(exc: BaseException, where: str, proxy, connected: bool = False, seconds: float = None) -> str:
    """A connection failure as a sentence that names its likely fix.

    ``connected``: the TCP connection (to the server, or to the proxy) was made before it
    failed: a timeout then is the proxy's tunnel or the TLS handshake, not the network.
    """
    import socket
    import ssl
    via = " through the proxy %s" % proxy if proxy else ""
    if isinstance(exc, socket.timeout):
        within = "within the connect timeout (%s--connect-timeout)" % ("%g s, " % seconds if seconds else "")
        if proxy and connected:
            return ("no connection to %s through the proxy %s %s: the proxy took the connection but did not "
                    "open the tunnel (or %s did not answer TLS through it): check HTTPS_PROXY and NO_PROXY"
                    % (where, proxy, within, where))
        if proxy:
            return "the proxy %s did not take the connection %s: check HTTPS_PROXY and NO_PROXY" % (proxy, within)
        if connected:
            return ("%s took the connection but did not finish the TLS handshake %s: is the URL https on a "
                    "port that speaks plain http? (or a firewall holds the connection; a network that needs "
                    "a proxy: HTTPS_PROXY)" % (where, within))
        return "no connection to %s %s: a firewall, or a network that needs a proxy (HTTPS_PROXY)" % (where, within)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return ("the certificate of %s is not trusted (%s): if your network inspects TLS, pass its CA with "
                "--ca-file FILE or add it to the system's store; verification is never turned off"
                % (where, exc.verify_message or exc))
    if isinstance(exc, ssl.SSLError):
        return "the TLS handshake with %s failed (%s): is the URL https on a port that speaks plain http?" % (where, exc)
    if isinstance(exc, ConnectionRefusedError):
        return ("%s refused the connection%s: is the server running? (a network that needs a proxy: set "
                "HTTPS_PROXY; one that must not use it: NO_PROXY)" % (where, via))
    if isinstance(exc, socket.gaierror):
        return ("cannot resolve %s (%s): check the URL's host name and your DNS, or set HTTPS_PROXY if "
                "this network reaches the internet through a proxy" % (where, exc.strerror or exc))
    text = str(exc)
    if "Tunnel connection failed" in text:
        return "the proxy %s refused to open a tunnel to %s (%s): check HTTPS_PROXY and NO_PROXY" % (proxy, where, text)
    return "cannot connect to %s%s: %s" % (where, via, text or type(exc).__name__)


class _Deadline:
    """An answer due within ``seconds`` of its request (the era's probe): no read waits past it."""
    __slots__ = ("seconds", "at")

    def __init__(self, seconds: float) -> None:
        self.seconds, self.at = seconds, time.monotonic() + seconds

    def read_timeout(self, idle_timeout: float) -> float:
        """The next read's timeout: what is left (a moment at least), or the idle timeout when sooner."""
        left = max(self.at - time.monotonic(), 0.001)
        return min(left, idle_timeout) if idle_timeout else left

    def passed(self) -> bool:
        return time.monotonic() + 0.01 >= self.at


class _Connection:
    """One HTTP connection, and whether it came from the pool (a reused one may be stale)."""
    __slots__ = ("http", "reused")

    def __init__(self, http, reused: bool) -> None:
        self.http, self.reused = http, reused


class Reply:
    """One HTTP answer: its status and headers, then its JSON-RPC messages (JSON or SSE).

    ``abort()`` may be called from another thread: the reading thread then sees the
    stream end (a 2026-07-28 cancellation, the bridge closing).
    """

    def __init__(self, upstream: "Upstream", connection: _Connection, response, sock, deadline=None) -> None:
        self.upstream, self.connection, self.response = upstream, connection, response
        self.sock = sock                 # (http.client lets go of it when the answer ends with its connection)
        self.deadline = deadline         # a _Deadline for the whole answer, or None (--idle-timeout alone)
        self.status = response.status
        self.aborted = False
        self.last_event_id = None        # SSE: the last event id seen (for Last-Event-ID)
        self.retry_ms = None             # SSE: the server's retry field

    def header(self, name: str, default=None):
        return self.response.getheader(name, default)

    @property
    def is_stream(self) -> bool:
        return (self.header("Content-Type") or "").split(";")[0].strip().lower() == "text/event-stream"

    def messages(self):
        """Yield each JSON-RPC message of the answer, in order; the connection goes back to the
        pool once all is read. Raises UpstreamError if the stream breaks or goes quiet."""
        import json
        import socket
        try:
            if self.is_stream:
                for data in self._event_data():
                    try:
                        message = json.loads(data)
                    except ValueError:
                        _log().warning("the server sent an SSE event that is not JSON: %r", data[:200])
                        continue
                    yield from (message if isinstance(message, list) else [message])
            else:
                self._bound()
                body = self.response.read()
                try:
                    message = json.loads(body) if body.strip() else []
                except ValueError:
                    self.close()
                    raise UpstreamError("the server's answer is not JSON (Content-Type %s): is %s an MCP endpoint?"
                                        % (self.header("Content-Type"), self.upstream.url))
                yield from (message if isinstance(message, list) else [message])
        except socket.timeout:
            self.close()
            raise self.upstream.silence(self.deadline)
        except (OSError, ValueError) as exc:
            self.close()
            if self.aborted:
                return
            raise UpstreamError("the connection to %s broke: %s" % (self.upstream.where, exc))
        self.finish()

    def _event_data(self):
        """The data of each SSE event (comments and keep-alives skipped, ``id`` and ``retry`` kept)."""
        readline = self.response.readline
        data, kind = [], ""
        while True:
            self._bound()                # (keep-alive comments do not put a deadline off)
            line = readline()
            if not line:
                return
            line = line.decode("utf-8", "replace").rstrip("\r\n")
            if not line:
                if data and kind in ("", "message"):
                    text = "\n".join(data)
                    if text.strip():                       # a priming event carries no message
                        yield text
                data, kind = [], ""
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data.append(value)
            elif field == "id" and "\0" not in value:
                self.last_event_id = value
            elif field == "retry" and value.isdigit():
                self.retry_ms = int(value)
            elif field == "event":
                kind = value

    def _bound(self) -> None:
        if self.deadline is not None:
            self.sock.settimeout(self.deadline.read_timeout(self.upstream.idle_timeout))

    def json_error(self):
        """The JSON-RPC error member of an error answer's body, if it has one (then read whole)."""
        import json
        try:
            body = self.response.read(1 << 20)
            message = json.loads(body) if body.strip() else None
        except (OSError, ValueError):
            message = None
        finally:
            self.close()
        error = message.get("error") if isinstance(message, dict) else None
        if isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str):
            return error
        return None

    def finish(self) -> None:
        """All was read: a connection that may be kept goes back to the pool."""
        if self.aborted or self.response.will_close or not self.response.isclosed():
            self.close()
        else:
            self.upstream._release(self.connection)

    def close(self) -> None:
        self.connection.http.close()

    def abort(self) -> None:
        """End the answer from another thread; its reader sees the stream end."""
        import socket
        self.aborted = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass


def tls_context(ca_file: str = None):
    """TLS as the bridge speaks it: the system's CA store (Windows' too), verified, and the CAs
    of ``ca_file`` besides."""
    import ssl
    context = ssl.create_default_context()
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


class Upstream:
    """The server's endpoint over HTTP(S): connections, proxies, TLS, timeouts, credentials.

    Knows HTTP and nothing of MCP. Each request takes a kept-alive connection or opens
    one; a refused connection is retried with backoff for ``retry_for`` seconds (a
    server that restarts comes back), every other failure is an ``UpstreamError`` whose
    message names the likely fix.

    Args:
        url: the MCP endpoint (http or https).
        headers: the ``HeaderProvider`` for credentials and other headers.
        ca_file: a PEM file of CAs to trust besides the system's store.
        connect_timeout: seconds for TCP, the proxy tunnel and TLS.
        idle_timeout: seconds an answer may send nothing (0: wait for ever); keep-alive
            comments and progress count as something.
        retry_for: seconds a refused connection is retried.
    """

    POOL_SIZE = 8

    def __init__(self, url: str, headers: HeaderProvider = None, ca_file: str = None, connect_timeout: float = 10.0,
                 idle_timeout: float = 300.0, retry_for: float = 10.0) -> None:
        from urllib.parse import urlsplit
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("the URL must be http:// or https:// with a host, not %r" % url)
        self.url = url
        self.secure = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.secure else 80)
        self.where = "%s:%d" % (self.host, self.port)
        self.target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        self.headers = headers or HeaderProvider()
        self.connect_timeout, self.idle_timeout, self.retry_for = connect_timeout, idle_timeout, retry_for
        if ca_file and not self.secure:
            raise ValueError("--ca-file is for https URLs")
        self.ca_file = ca_file
        self.context = tls_context(ca_file) if self.secure else None
        self.proxy, self.proxy_headers = self._proxy()
        self.closing = threading.Event()
        self._idle = []
        self._lock = threading.Lock()
        self._told_refused = False
        self.headers.bind(self)

    def _proxy(self) -> tuple:
        """The proxy for this URL from the OS settings (environment, Windows registry, macOS), or None."""
        if self.host in ("localhost", "127.0.0.1", "::1") or self.host.startswith("127."):
            return None, {}                       # loopback: a proxy cannot reach our own machine
        import urllib.request
        from urllib.parse import unquote, urlsplit
        proxy = urllib.request.getproxies().get("https" if self.secure else "http")
        if not proxy or urllib.request.proxy_bypass(self.host):
            return None, {}
        parts = urlsplit(proxy if "://" in proxy else "http://" + proxy)
        headers = {}
        if parts.username is not None:
            import base64
            pair = "%s:%s" % (unquote(parts.username), unquote(parts.password or ""))
            headers["Proxy-Authorization"] = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
        _log().info("using the proxy %s:%s for %s", parts.hostname, parts.port or 8080, self.host)
        return (parts.hostname, parts.port or 8080), headers

    def _new_connection(self):
        import http.client
        timeout = self.connect_timeout or None
        if self.proxy is None:
            if self.secure:
                return http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self.context)
            return http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        if self.secure:                            # CONNECT through the proxy, TLS to the server
            connection = http.client.HTTPSConnection(self.proxy[0], self.proxy[1], timeout=timeout,
                                                     context=self.context)
            connection.set_tunnel(self.host, self.port, headers=self.proxy_headers)
            return connection
        return http.client.HTTPConnection(self.proxy[0], self.proxy[1], timeout=timeout)

    def _connect(self, should_stop=None) -> _Connection:
        """A kept-alive connection that is still open, or a new one (refusals retried with backoff)."""
        while True:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                break
            if _still_open(conn):
                return _Connection(conn, True)
            conn.close()
        started, delay = time.monotonic(), 0.1
        while True:
            conn = self._new_connection()
            try:
                conn.connect()
                _tune(conn.sock, self.idle_timeout)
                if self._told_refused:
                    self._told_refused = False
                    _log().info("%s accepts connections again", self.where)
                return _Connection(conn, False)
            except ConnectionRefusedError as exc:
                conn.close()
                waited = time.monotonic() - started
                stop = self.closing.is_set() or (should_stop is not None and should_stop())
                if stop or waited + delay > self.retry_for:
                    raise UpstreamError(_connect_hint(exc, self.where, self._proxy_name()) + "; retried for %.0f s"
                                        % waited, refused=True)
                if not self._told_refused:
                    self._told_refused = True
                    _log().warning("%s refused the connection; retrying for up to %.0f s", self.where,
                                   self.retry_for)
                self.closing.wait(delay)
                delay = min(delay * 2, 2.0)
            except (OSError, ValueError) as exc:
                connected = conn.sock is not None             # (http.client sets it once TCP is up)
                conn.close()
                raise UpstreamError(_connect_hint(exc, self.where, self._proxy_name(), connected,
                                                  self.connect_timeout))

    def _proxy_name(self):
        return "%s:%s" % self.proxy if self.proxy else None

    def _release(self, connection: _Connection) -> None:
        with self._lock:
            if len(self._idle) < self.POOL_SIZE and not self.closing.is_set():
                self._idle.append(connection.http)
                return
        connection.http.close()

    def request(self, method: str, headers: dict, body: bytes = None, should_stop=None, sent=None,
                interactive: bool = True, answer_within: float = None) -> Reply:
        """Send one HTTP request and return its answer once the status line is in.

        ``sent()`` is called once the request's bytes are written (the bridge keeps the
        host's order up to there). A 401 or 403 asks the ``HeaderProvider`` whether to try
        again (a few times at most: a sign-in, then a step-up); ``interactive``: the host
        waits for this request, so the provider may open a browser for it. ``answer_within``:
        seconds from the request's bytes to the end of its answer (a sign-in's wait not
        counted), past which it is an ``UpstreamError`` with ``late`` set.
        """
        retried_stale, auth_retries = False, 0
        target = self.target if self.proxy is None or self.secure else self.url
        while True:
            connection = self._connect(should_stop)
            all_headers = {"User-Agent": "minimcp-bridge/%s" % __version__}
            credentials = self.headers.headers()
            all_headers.update(credentials)
            if self.proxy is not None and not self.secure:
                all_headers.update(self.proxy_headers)
            all_headers.update(headers)
            deadline = _Deadline(answer_within) if answer_within else None
            try:
                # Each request sets its own: a kept-alive connection may come from one with a deadline.
                connection.http.sock.settimeout(deadline.read_timeout(self.idle_timeout) if deadline
                                                else self.idle_timeout or None)
                connection.http.request(method, target, body=body, headers=all_headers)
                sock = connection.http.sock
                if sent is not None:
                    sent()
                    sent = None
                response = connection.http.getresponse()
            except Exception as exc:                   # noqa: BLE001 - each kind is told apart below
                connection.http.close()
                if connection.reused and not retried_stale and _stale(exc):
                    retried_stale = True               # the server closed a kept-alive connection meanwhile
                    continue
                if sent is not None:
                    sent()
                raise self._failure(exc, deadline)
            reply = Reply(self, connection, response, sock, deadline)
            if reply.status in (401, 403) and auth_retries < 3:
                ask = self.headers.unauthorized if reply.status == 401 else self.headers.forbidden
                try:
                    again = ask(reply.header("WWW-Authenticate") or "", credentials, interactive, auth_retries > 0)
                except BaseException:
                    reply.close()
                    raise
                if again:                              # fresh credentials: once more
                    auth_retries += 1
                    reply.close()
                    continue
            return reply

    def silence(self, deadline: _Deadline = None) -> UpstreamError:
        """The error for a read that timed out: past the answer's deadline, or silent for --idle-timeout."""
        if deadline is not None and deadline.passed():
            return UpstreamError("no answer within %g s" % deadline.seconds, late=True)
        return UpstreamError("the server sent nothing for %s s (--idle-timeout)" % self.idle_timeout)

    def _failure(self, exc: BaseException, deadline: _Deadline = None) -> UpstreamError:
        import socket
        if isinstance(exc, socket.timeout):
            return self.silence(deadline)
        if isinstance(exc, UpstreamError):
            return exc
        return UpstreamError("the connection to %s broke before an answer: %s" % (self.where, exc or type(exc).__name__))

    def close(self) -> None:
        """Close every kept connection; requests still waiting to connect give up."""
        self.closing.set()
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


def _stale(exc: BaseException) -> bool:
    """A failure that a kept-alive connection closed by the server meanwhile explains."""
    import http.client
    return isinstance(exc, (http.client.RemoteDisconnected, http.client.BadStatusLine, BrokenPipeError,
                            ConnectionResetError, ConnectionAbortedError))


def _still_open(conn) -> bool:
    """Whether a kept-alive connection is still open: readable while idle means the server closed it."""
    import select
    sock = conn.sock
    if sock is None:
        return False
    try:
        return not select.select([sock], [], [], 0)[0]
    except (OSError, ValueError):
        return False


def _tune(sock, idle_timeout: float) -> None:
    """TCP keep-alive (a dead peer is noticed without cutting a quiet call), then the idle timeout."""
    import socket
    sock.settimeout(idle_timeout or None)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPALIVE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass


# Sign-in: OAuth 2.1 as the MCP authorization spec describes it ###############
#
# A 401 from the server starts the sign-in: discovery (the challenge's resource_metadata,
# RFC 9728's well-known URLs, RFC 8414 / OpenID metadata with its issuer checked, or the
# 2025-03-26 defaults), a client identity (pre-registered, a client ID metadata document, or
# RFC 7591 registration, bound to the issuer), then the authorization code flow with PKCE in
# the user's browser, its redirect taken on a loopback port. Tokens are kept per server in a
# file of the user's (0600); a file lock lets one bridge sign in while the others wait and
# then use what it stored, and a sign-in whose bridge was killed is taken over, not started
# again in a second tab.

#: The token files' format: it changes only when their meaning does, never with minimcp's version.
TOKEN_FORMAT = "minimcp-oauth-1"
#: Seconds a sign-in waits for the browser's redirect (--login-timeout).
LOGIN_TIMEOUT = 300.0
_CALLBACK_PATH = "/callback"
_CLIENT_NAME = "minimcp bridge"
_STEP_UPS = 1                            # re-authorizations for one scope set before a 403 is final
_SKEW_WARNING = 120                      # seconds between our clock and the server's worth a warning


class SignInError(UpstreamError):
    """The sign-in failed; the message says why and names the likely fix."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status=401)


def parse_challenge(header: str) -> dict:
    """The parameters of a ``WWW-Authenticate: Bearer ...`` challenge (RFC 6750), keys lower-cased.

    Other schemes in the same header are skipped (with their parameters or token68);
    quoted values are unescaped. No Bearer challenge gives ``{}``.
    """
    import re
    token = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
    pair = re.compile(r'\s*(%s)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,"]*)\s*(?:,|$)' % token)
    token68 = re.compile(r"\s*[A-Za-z0-9._~+/-]+=*\s*(?:,|$)")
    scheme_word = re.compile(r"\s*,?\s*(%s)(?=\s|,|$)" % token)
    params, scheme, position = {}, None, 0
    while position < len(header):
        match = pair.match(header, position) if scheme else None
        if match is not None:
            value = match.group(2)
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            if scheme == "bearer":
                params.setdefault(match.group(1).lower(), value)
            position = match.end()
            continue
        match = token68.match(header, position) if scheme else None
        if match is None:
            match = scheme_word.match(header, position)
            if match is None:
                break
            scheme = match.group(1).lower()
        position = match.end()
    return params


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def _split_url(url: str) -> tuple:
    """(scheme, host, port, path) of an http(s) URL, scheme and host lower-cased, the port explicit."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80), parts.path


def _origin(url: str) -> str:
    """``scheme://host[:port]`` of a URL, as an issuer identifier spells it (no default port)."""
    scheme, host, port, _ = _split_url(url)
    default = 443 if scheme == "https" else 80
    host = "[%s]" % host if ":" in host else host
    return "%s://%s%s" % (scheme, host, "" if port == default else ":%d" % port)


def _same_origin(url: str, origin: str) -> bool:
    try:
        return _origin(url) == origin and url.startswith(("http://", "https://"))
    except ValueError:
        return False


def canonical_resource(url: str) -> str:
    """The server's canonical URI (RFC 8707): lower-case scheme and host, no fragment, no trailing slash."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    return _origin(url) + path + ("?" + parts.query if parts.query else "")


def resource_matches(resource: str, server_url: str) -> bool:
    """Whether protected-resource metadata's ``resource`` names the server at ``server_url``:
    the same origin, and a path that is the server's or one of its parents."""
    try:
        mine, theirs = _split_url(server_url), _split_url(resource)
    except ValueError:
        return False
    if mine[:3] != theirs[:3]:
        return False
    prefix = theirs[3].rstrip("/")
    return mine[3] == prefix or mine[3].startswith(prefix + "/") or not prefix


def _resource_metadata_urls(server_url: str, challenge: dict) -> list:
    """Where RFC 9728 metadata may be: the challenge's, then the path's well-known URL, then the root's."""
    path = _split_url(server_url)[3].rstrip("/")
    urls = [challenge["resource_metadata"]] if challenge.get("resource_metadata") else []
    base = _origin(server_url) + "/.well-known/oauth-protected-resource"
    return urls + ([base + path] if path else []) + [base]


def _issuer_metadata_urls(issuer: str) -> list:
    """Where an issuer's metadata may be, in the order the spec gives (RFC 8414, then OpenID)."""
    path = _split_url(issuer)[3].rstrip("/")
    origin = _origin(issuer)
    if not path:
        return [origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"]
    return [origin + "/.well-known/oauth-authorization-server" + path,
            origin + "/.well-known/openid-configuration" + path,
            origin + path + "/.well-known/openid-configuration"]


def default_oauth_dir(environ=None) -> str:
    """Where sign-ins are kept: ``MINIMCP_OAUTH_DIR``, else the user's config folder
    (``%LOCALAPPDATA%`` on Windows, ``~/Library/Application Support`` on macOS,
    ``$XDG_CONFIG_HOME`` or ``~/.config`` elsewhere) + ``minimcp/oauth``."""
    environ = os.environ if environ is None else environ
    if environ.get("MINIMCP_OAUTH_DIR"):
        return environ["MINIMCP_OAUTH_DIR"]
    home = os.path.expanduser("~")
    if os.name == "nt":
        base = environ.get("LOCALAPPDATA") or environ.get("APPDATA") or home
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return os.path.join(base, "minimcp", "oauth")


# -- one file lock per server, across processes -----------------------------------------------

def _lock_calls(windows: bool) -> tuple:
    """(try_lock(fd) -> bool, unlock(fd)): an OS lock the OS drops when its holder dies."""
    if windows:
        import msvcrt                    # a one-byte lock at offset 0 (Windows frees it with the process)

        def try_lock(fd) -> bool:
            os.lseek(fd, 0, os.SEEK_SET)
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            except OSError:
                return False
            return True

        def unlock(fd) -> None:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return try_lock, unlock
    import fcntl

    def try_lock(fd) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:                  # BlockingIOError: another process holds it
            return False
        return True

    def unlock(fd) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    return try_lock, unlock


class FileLock:
    """An exclusive lock on ``path`` between processes (``fcntl.flock``; ``msvcrt.locking`` on Windows).

    The OS drops it when its holder dies, however it died: a killed holder never leaves a
    stale lock behind (what it left half done is the caller's to judge). The lock file is
    never deleted, which would let two processes lock two different files.
    """

    POLL = 0.1

    def __init__(self, path: str, windows: bool = None) -> None:
        self.path = path
        self.windows = os.name == "nt" if windows is None else windows
        self.fd = None

    def acquire(self, timeout: float, should_stop=None, on_wait=None) -> bool:
        """Take the lock within ``timeout`` seconds; False if not (or ``should_stop()``).
        ``on_wait()`` is called once if another process holds it."""
        try_lock, _ = _lock_calls(self.windows)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline, told = time.monotonic() + timeout, False
        while not try_lock(fd):
            if time.monotonic() > deadline or (should_stop is not None and should_stop()):
                os.close(fd)
                return False
            if not told and on_wait is not None:
                told = True
                on_wait()
            time.sleep(self.POLL)
        self.fd = fd
        return True

    def release(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            try:
                _lock_calls(self.windows)[1](fd)
            finally:
                os.close(fd)


# -- the token file: one per server and client, 0600, replaced whole -----------------------------

class TokenStore:
    """The sign-in of one server and client choice: a JSON file of the user's, mode 0600.

    Its content (``TOKEN_FORMAT``): ``server``, ``client`` (how the client identifies
    itself), ``clients`` (client registrations, by issuer), ``token`` (the tokens, with the
    issuer and token endpoint that issued them), ``pending`` (a sign-in under way, which
    another bridge may take over) and ``failure`` (the last sign-in that failed). It is
    written to a new file and renamed over the old, so a reader never sees half of it.
    """

    def __init__(self, folder: str, server_url: str, client_key: str) -> None:
        import hashlib
        self.folder, self.server, self.client_key = folder, server_url, client_key
        _, host, port, _ = _split_url(server_url)
        digest = hashlib.sha256(("%s\n%s" % (canonical_resource(server_url), client_key)).encode("utf-8"))
        name = "%s-%d-%s" % ("".join(c if c.isalnum() or c in ".-" else "_" for c in host), port,
                             digest.hexdigest()[:16])
        self.path = os.path.join(folder, name + ".json")
        self.lock = FileLock(os.path.join(folder, name + ".lock"))

    def ensure_folder(self) -> None:
        """Create the folder (0700); warn when others may read it."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        if os.name == "posix" and os.stat(self.folder).st_mode & 0o077:
            _log().warning("%s can be read by other users, and holds tokens: chmod 700 %s", self.folder, self.folder)

    def load(self) -> dict:
        """The stored record ({} when there is none, or one this version cannot read)."""
        import json
        try:
            with open(self.path, encoding="utf-8") as handle:
                record = json.load(handle)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            _log().warning("cannot read %s (%s): signing in anew", self.path, exc)
            return {}
        if not isinstance(record, dict) or record.get("format") != TOKEN_FORMAT:
            raise SignInError("%s is not a minimcp token file of format %s (a newer minimcp's?): sign in with "
                              "that version, or pass another --oauth-dir" % (self.path, TOKEN_FORMAT))
        return record

    def save(self, record: dict) -> None:
        """Write ``record`` whole, 0600 from its first byte."""
        import json
        self.ensure_folder()
        record = dict(record, format=TOKEN_FORMAT, server=self.server, client=self.client_key)
        data = json.dumps(record, indent=1, sort_keys=True).encode("utf-8")
        temporary = "%s.%d.%d.tmp" % (self.path, os.getpid(), threading.get_ident())
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        for attempt in range(20):        # Windows refuses the rename while a reader has the file open
            try:
                os.replace(temporary, self.path)
                return
            except PermissionError:
                if os.name != "nt" or attempt == 19:
                    os.unlink(temporary)
                    raise
                time.sleep(0.05)

    def remove(self) -> bool:
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            return False
        return True


# -- HTTP for the sign-in: the bridge's TLS and proxies, JSON in, forms and JSON out -------------

class _OAuthHttp:
    """HTTP to the resource's metadata and the authorization server, with the upstream's
    TLS context, the OS proxy settings (none for loopback) and its timeout."""

    LIMIT = 1 << 20

    def __init__(self, context=None, timeout: float = 30.0, ca_file: str = None) -> None:
        self.context, self.timeout, self.ca_file = context, timeout, ca_file

    def _opener(self, url: str):
        import urllib.request

        class GetOnlyRedirects(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, req, fp, code, msg, headers, newurl):
                if req.get_method() != "GET" or not newurl.lower().startswith(("https://", "http://")):
                    return None                 # a token request is never sent on elsewhere, nor to ftp:
                return super().redirect_request(req, fp, code, msg, headers, newurl)
        handlers = [GetOnlyRedirects(), urllib.request.HTTPSHandler(context=self._tls())]
        if _is_loopback(_split_url(url)[1]):
            handlers.append(urllib.request.ProxyHandler({}))
        return urllib.request.build_opener(*handlers)

    def _tls(self):
        """The TLS context, made on first use: loading the CA store is a fifth of the bridge's start,
        and most bridges never sign in (or share the upstream's context)."""
        if self.context is None:
            self.context = tls_context(self.ca_file)
        return self.context

    def call(self, url: str, data: bytes = None, headers: dict = None) -> tuple:
        """(status, parsed JSON or None, response headers); HTTP error statuses are answers too.

        Raises:
            SignInError: no answer (the message names the likely fix: proxy, CA, DNS...).
        """
        import http.client
        import json
        import urllib.error
        import urllib.request
        try:
            scheme, host, port, _ = _split_url(url)
        except ValueError:
            scheme = None
        if scheme not in ("http", "https") or not host:
            raise SignInError("%r is not an http(s) URL: the server's metadata points where the bridge does not go"
                              % url)
        where = "%s:%d" % (host, port)
        request = urllib.request.Request(url, data=data, headers=dict({"Accept": "application/json",
                                         "User-Agent": "minimcp-bridge/%s" % __version__}, **(headers or {})))
        try:
            response = self._opener(url).open(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            response = exc
        except urllib.error.URLError as exc:
            reason = exc.reason if isinstance(exc.reason, BaseException) else OSError(str(exc.reason))
            raise SignInError(_connect_hint(reason, where, None))
        except (OSError, ValueError, http.client.HTTPException) as exc:
            raise SignInError(_connect_hint(exc, where, None))
        try:
            body = response.read(self.LIMIT)
        except (OSError, http.client.HTTPException) as exc:
            raise SignInError("the connection to %s broke: %s" % (url, exc))
        finally:
            response.close()
        try:
            parsed = json.loads(body) if body.strip() else None
        except ValueError:
            parsed = None
        return response.getcode(), parsed, response.headers

    def get_json(self, url: str) -> dict:
        """A metadata document, or None when there is none at ``url`` (any status but 200, or not JSON)."""
        status, document, _ = self.call(url)
        return document if status == 200 and isinstance(document, dict) else None

    def post_form(self, url: str, fields: dict, headers: dict = None) -> tuple:
        from urllib.parse import urlencode
        fields = {key: value for key, value in fields.items() if value is not None}
        return self.call(url, urlencode(fields).encode("ascii"),
                         dict({"Content-Type": "application/x-www-form-urlencoded"}, **(headers or {})))

    def post_json(self, url: str, document: dict) -> tuple:
        import json
        return self.call(url, json.dumps(document).encode("utf-8"), {"Content-Type": "application/json"})


def _oauth_error(document, status: int) -> str:
    """An OAuth error answer as text: ``error: description`` (or the bare status)."""
    if isinstance(document, dict) and isinstance(document.get("error"), str):
        description = document.get("error_description")
        return document["error"] + (": %s" % description if isinstance(description, str) else "")
    return "HTTP %d" % status


def _require_secure(url: str, what: str) -> None:
    """Authorization servers are https, but on loopback (OAuth 2.1 section 1.5)."""
    scheme, host = _split_url(url)[:2]
    if scheme != "https" and not (scheme == "http" and _is_loopback(host)):
        raise SignInError("the %s %s is not https: refusing to send credentials to it (a misconfigured "
                          "server, or a proxy that rewrites its metadata)" % (what, url))


# -- discovery: which authorization server, and what it offers -----------------------------------

class Discovery:
    """What discovery found for one server.

    Attributes:
        resource: the ``resource`` to ask tokens for (RFC 8707), or None (a 2025-03-26 server).
        issuer: the authorization server's issuer identifier (None: no metadata, the defaults).
        metadata: its RFC 8414 metadata (the 2025-03-26 default endpoints when it has none).
        scopes: the scopes the resource names (``scopes_supported``), or None.
    """

    def __init__(self, resource, issuer, metadata: dict, scopes) -> None:
        self.resource, self.issuer, self.metadata, self.scopes = resource, issuer, metadata, scopes


def discover(http: _OAuthHttp, server_url: str, challenge: dict) -> Discovery:
    """Find the server's authorization server as the spec says (and 2025-03-26 did).

    Raises:
        SignInError: metadata that names another resource or issuer, no usable server,
            an authorization server that cannot do PKCE with S256.
    """
    for url in _resource_metadata_urls(server_url, challenge):
        document = http.get_json(url)
        if document is None or not isinstance(document.get("authorization_servers"), list):
            continue
        resource = document.get("resource")
        if isinstance(resource, str) and not resource_matches(resource, server_url):
            raise SignInError("the server's metadata (%s) is for the resource %s, not for %s: refusing to sign in "
                              "(a misconfigured server, or one that asks for another server's tokens)"
                              % (url, resource, server_url))
        scopes = _strings(document.get("scopes_supported")) if "scopes_supported" in document else None
        resource = resource if isinstance(resource, str) else canonical_resource(server_url)
        problems = []
        for issuer in document["authorization_servers"]:
            if not isinstance(issuer, str):
                continue
            try:
                return Discovery(resource, issuer, _issuer_metadata(http, issuer), scopes)
            except SignInError as exc:
                problems.append(str(exc))
        raise SignInError("no authorization server named by %s answers: %s" % (url, "; ".join(problems) or "none"))
    return _legacy_discovery(http, server_url)


def _issuer_metadata(http: _OAuthHttp, issuer: str, legacy: bool = False) -> dict:
    """The metadata of ``issuer``, its ``issuer`` checked (RFC 8414 section 3.3), PKCE S256 required.

    ``legacy``: a 2025-03-26 server's own origin, an identifier no one named but the bridge,
    which derived it from the server's URL: metadata there may name any issuer of that same
    origin (``https://host/`` or ``https://host/oauth``), as such servers do; another origin is
    still refused."""
    _require_secure(issuer, "authorization server")
    for url in _issuer_metadata_urls(issuer):
        metadata = http.get_json(url)
        if metadata is None:
            continue
        named = metadata.get("issuer")
        if named != issuer and not (legacy and isinstance(named, str) and _same_origin(named, issuer)):
            raise SignInError("the authorization server metadata at %s names the issuer %r, not %s: refusing to use "
                              "it (RFC 8414 3.3: a misconfigured or impersonated authorization server)"
                              % (url, named, issuer))
        for field in ("authorization_endpoint", "token_endpoint"):
            if not isinstance(metadata.get(field), str):
                raise SignInError("the authorization server metadata at %s has no %s" % (url, field))
        if "S256" not in _strings(metadata.get("code_challenge_methods_supported")):
            raise SignInError("the authorization server %s does not offer PKCE with S256 (its metadata's "
                              "code_challenge_methods_supported), which MCP requires: refusing to sign in" % issuer)
        return metadata
    raise SignInError("the authorization server %s publishes no metadata (tried %s)"
                      % (issuer, ", ".join(_issuer_metadata_urls(issuer))))


def _legacy_discovery(http: _OAuthHttp, server_url: str) -> Discovery:
    """No protected-resource metadata: a 2025-03-26 server, its own authorization server at its
    origin, with RFC 8414 metadata or else the default endpoints."""
    origin = _origin(server_url)
    _log().info("%s publishes no protected-resource metadata: signing in as 2025-03-26 servers expect", server_url)
    try:
        metadata = _issuer_metadata(http, origin, legacy=True)
    except SignInError as exc:
        if "publishes no metadata" not in str(exc):
            raise
        _require_secure(origin, "authorization server")
        return Discovery(None, None, {"authorization_endpoint": origin + "/authorize", "token_endpoint":
                                      origin + "/token", "registration_endpoint": origin + "/register"}, None)
    return Discovery(None, metadata["issuer"], metadata, None)


# -- the browser's redirect, on a loopback port ---------------------------------------------------

class _Callback:
    """A one-page HTTP server on 127.0.0.1 that takes the authorization response.

    ``judge(params)`` says whether a redirect is the one awaited: None (it is), a text to
    show and go on waiting (another attempt's), or a SignInError (the answer, refused).
    """

    def __init__(self, port: int) -> None:
        import http.server
        import socketserver

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            allow_reuse_address = os.name != "nt"     # Windows' SO_REUSEADDR would let another take the port
            daemon_threads = True                      # a browser's idle preconnection holds no one up
        self.answer = None
        self.judge = None
        self.lock = threading.Lock()
        callback = self

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = 10.0

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                callback._on_request(self)
        self.server = Server(("127.0.0.1", port), Handler)
        self.server.timeout = 0.25
        self.port = self.server.server_address[1]
        self.redirect_uri = "http://127.0.0.1:%d%s" % (self.port, _CALLBACK_PATH)

    def _on_request(self, handler) -> None:
        from urllib.parse import parse_qsl, urlsplit
        parts = urlsplit(handler.path)
        if parts.path != _CALLBACK_PATH:
            return self._page(handler, 404, "Not found", "This is minimcp's sign-in callback.")
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        verdict = self.judge(params)
        if isinstance(verdict, str):
            return self._page(handler, 400, "Not this sign-in", verdict)
        with self.lock:
            if self.answer is None:
                self.answer = verdict if verdict is not None else params
        if verdict is not None:
            return self._page(handler, 400, "Sign-in refused", str(verdict))
        self._page(handler, 200, "Signed in", "minimcp's bridge is signed in. You can close this tab.")

    @staticmethod
    def _page(handler, status: int, title: str, text: str) -> None:
        import html
        body = ("<!doctype html><meta charset=utf-8><title>%s</title><h1>%s</h1><p>%s</p>"
                % (html.escape(title), html.escape(title), html.escape(text))).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("Cache-Control", "no-store")
        handler.end_headers()
        handler.wfile.write(body)

    def wait(self, judge, deadline: float, should_stop) -> object:
        """The judged answer (the redirect's parameters, or a SignInError); None at the deadline."""
        self.judge = judge
        while self.answer is None and time.time() < deadline and not should_stop():
            self.server.handle_request()
        return self.answer

    def close(self) -> None:
        self.server.server_close()


def _pkce() -> tuple:
    """(verifier, S256 challenge) per RFC 7636."""
    import base64
    import hashlib
    import secrets
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _with_query(url: str, params: dict) -> str:
    from urllib.parse import urlencode
    query = urlencode([(key, value) for key, value in params.items() if value is not None])
    return url + ("&" if "?" in url else "?") + query


def _strings(value) -> list:
    """The strings of a metadata list (anything else in it, or a value that is no list, is no string)."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _auth_methods(metadata: dict) -> list:
    """The token endpoint's authentication methods; RFC 8414's default is client_secret_basic."""
    return _strings(metadata.get("token_endpoint_auth_methods_supported")) or ["client_secret_basic"]


def _number(value):
    """A JSON number, or a numeric string (some servers send ``"expires_in": "3600"``); else None."""
    if isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _scope_list(text) -> list:
    return [s for s in text.split() if s] if isinstance(text, str) else []


def _union(*scope_lists) -> list:
    seen = []
    for scopes in scope_lists:
        for scope in scopes or ():
            if scope not in seen:
                seen.append(scope)
    return seen


# -- the provider: tokens on every request, a sign-in on a 401, a step-up on a 403 ---------------

class OAuth(HeaderProvider):
    """Signs the bridge in to the server at ``server_url`` with OAuth 2.1, as MCP's authorization spec says.

    Every request carries the stored access token (refreshed shortly before it expires). A
    401 refreshes it, or signs in anew: the browser opens once, whatever the number of
    bridges waiting for the same server (the others wait for the file lock, then use what
    was stored). A 403 ``insufficient_scope`` signs in again for the scopes it names plus
    those asked before, once per scope set.

    Args:
        server_url: the MCP endpoint (its canonical URI is the token's ``resource``).
        base: the other headers (``--header``); an ``Authorization`` there turns OAuth off
            (``build()`` does not make an OAuth then).
        folder: where sign-ins are kept (``default_oauth_dir()``).
        client_id, client_secret: a pre-registered client (the secret: None for a public one).
        client_metadata_url: an https URL whose document describes this client (used as its
            ``client_id`` where the authorization server supports client ID metadata documents).
        client_credentials: sign in as the client itself (machine to machine), no browser.
        callback_port: the loopback port for the redirect (0: any free one, remembered).
        login_timeout: seconds a sign-in waits for the browser.
        open_browser: ``fn(url) -> bool`` (``webbrowser.open``, which honours ``BROWSER``).
    """

    def __init__(self, server_url: str, base: HeaderProvider = None, folder: str = None, client_id: str = None,
                 client_secret: str = None, client_metadata_url: str = None, client_credentials: bool = False,
                 callback_port: int = 0, login_timeout: float = LOGIN_TIMEOUT, open_browser=None) -> None:
        self.server_url = server_url
        self.base = base or HeaderProvider()
        self.client_id, self.client_secret = client_id, client_secret
        self.client_metadata_url, self.client_credentials = client_metadata_url, client_credentials
        self.callback_port, self.login_timeout = callback_port, login_timeout
        self.open_browser = open_browser
        self.store = TokenStore(folder or default_oauth_dir(), server_url, self.client_key())
        self.http = _OAuthHttp()
        self.closing = threading.Event()
        self._lock = threading.Lock()            # one renewal at a time in this process
        self._token = None
        self._loaded = False
        self._renewals = 0                       # renewals done in this process (a waiter's yardstick)
        self._failure = None                     # (renewal number, SignInError) of the last that failed
        self._step_ups = {}                      # frozenset of scopes -> re-authorizations asked for them
        self._skew = None
        self._pending_lock = threading.Lock()    # the browser's thread and the flow's, on the pending record

    def client_key(self) -> str:
        """How this client identifies itself: the part of the token file's key that is not the server."""
        if self.client_id:
            key = "client-id:" + self.client_id
        elif self.client_metadata_url:
            key = "client-metadata-url:" + self.client_metadata_url
        else:
            key = "registered"
        return key + (" client-credentials" if self.client_credentials else "")

    def bind(self, upstream: "Upstream") -> None:
        self.http = _OAuthHttp(upstream.context, max(upstream.connect_timeout or 30.0, 30.0), upstream.ca_file)
        self.closing = upstream.closing

    # -- the hook ---------------------------------------------------------------------------------
    def headers(self) -> dict:
        headers = dict(self.base.headers())
        token = self._current()
        if token is not None and self._expiring(token):
            token = self._renew_early(token)
        if token is not None:
            headers["Authorization"] = "Bearer " + token["access_token"]
        return headers

    def unauthorized(self, challenge: str, sent: dict, interactive: bool = True, retried: bool = False) -> bool:
        params = parse_challenge(challenge)
        if challenge.strip() and not params and "bearer" not in challenge.lower():
            return False                 # another scheme (Basic, a key of its own): not OAuth's to answer
        return self._renew(_bearer(sent), params, interactive, retried)

    def forbidden(self, challenge: str, sent: dict, interactive: bool = True, retried: bool = False) -> bool:
        params = parse_challenge(challenge)
        if params.get("error") != "insufficient_scope":
            return False
        token = self._current() or {}
        wanted = _union(token.get("scope_requested"), _scope_list(params.get("scope")))
        return self._renew(_bearer(sent), params, interactive, retried, wanted)

    # -- tokens in memory and on disk ---------------------------------------------------------------
    def _current(self):
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    self._token = self.store.load().get("token")
                    self._loaded = True
        return self._token

    def _expiring(self, token: dict) -> bool:
        """Whether to renew before sending: expiry near, and a way to renew without the user."""
        expires_at = token.get("expires_at")
        if not isinstance(expires_at, (int, float)) or not (token.get("refresh_token") or self.client_credentials):
            return False
        lifetime = expires_at - token.get("obtained_at", expires_at - 3600)
        return time.time() >= expires_at - min(60.0, max(1.0, lifetime / 4.0))

    def _renew_early(self, token: dict):
        """Refresh a token about to expire, before sending it; on failure send it as it is (a 401 follows)."""
        expired = time.time() >= token["expires_at"]
        with self._lock:
            if self._token is not token:
                return self._token
            if not self.store.lock.acquire(self.login_timeout + 30.0 if expired else 0.0, self.closing.is_set):
                return token             # another bridge renews it now; this one is still good
            try:
                record = self.store.load()
                stored = record.get("token")
                if stored and stored.get("access_token") != token["access_token"] and not self._expiring(stored):
                    self._token = stored         # another bridge renewed it meanwhile
                    return stored
                _log().info("the access token for %s expires %s: renewing it", self.server_url,
                            "now" if expired else "in %.0f s" % (token["expires_at"] - time.time()))
                self._token = (self._client_credentials_grant(record, None, token.get("scope_requested"), token)
                               if self.client_credentials else self._refresh(record, token))
                return self._token
            except SignInError as exc:
                _log().warning("could not renew the access token for %s: %s", self.server_url, exc)
                return token
            finally:
                self.store.lock.release()

    def _renew(self, sent, challenge: dict, interactive: bool, retried: bool, scopes: list = None) -> bool:
        """New credentials after a 401 (``scopes`` None) or a 403 asking for ``scopes``: True to retry."""
        seen, since = self._renewals, time.time()
        with self._lock:
            token = self._token
            if token is not None and token.get("access_token") != sent and _covers(token, scopes):
                return True              # renewed by another request of this process meanwhile
            if self._failure is not None and self._failure[0] > seen:
                raise self._failure[1]   # the renewal this request waited for failed: one attempt per wave
            try:
                self._renew_locked(sent, challenge, interactive, retried, scopes, since)
            except SignInError as exc:
                failure = SignInError("sign-in failed: %s" % exc)
                if interactive:          # a background request's "not now" is no answer to the host's
                    self._renewals += 1
                    self._failure = (self._renewals, failure)
                raise failure
            self._renewals += 1
            self._failure = None
            return True

    def _renew_locked(self, sent, challenge: dict, interactive: bool, retried: bool, scopes, since: float) -> None:
        store = self.store
        store.ensure_folder()

        def waiting() -> None:
            pending = _pending_of(store)
            _log().info("another bridge%s is signing in to %s: waiting for it", " (process %s)"
                        % pending["pid"] if pending.get("pid") else "", self.server_url)
        if not store.lock.acquire(self.login_timeout + 30.0, self.closing.is_set, waiting):
            if self.closing.is_set():
                raise SignInError("the host left during the sign-in")
            raise SignInError("another bridge has been signing in to %s for over %.0f s: finish its sign-in in "
                              "the browser, or stop it" % (self.server_url, self.login_timeout + 30.0))
        try:
            record = store.load()
            stored = record.get("token")
            if stored and stored.get("access_token") != sent and _covers(stored, scopes) and not _expired(stored):
                self._token = stored     # another bridge signed in (or refreshed) meanwhile: no browser
                _log().info("using the sign-in to %s that another bridge stored", self.server_url)
                return
            failure = record.get("failure") or {}
            if failure.get("at", 0) > since and failure.get("message"):
                raise SignInError("%s (in the sign-in another bridge ran meanwhile)" % failure["message"])
            self._token = self._obtain(record, sent, challenge, interactive, retried, scopes)
        finally:
            store.lock.release()

    def _obtain(self, record: dict, sent, challenge: dict, interactive: bool, retried: bool, scopes) -> dict:
        """Under the lock, nothing newer stored: refresh, or sign in (browser or client credentials).

        A token refused right after this request got it (``retried``) is not renewed the same
        way again: a refreshed one gives way to a sign-in, a signed-in one to an error, never
        to a loop of browser tabs."""
        stored = record.get("token") or {}
        if scopes is not None:
            times = self._step_ups.get(frozenset(scopes), 0)
            if times >= _STEP_UPS:
                raise SignInError("the server still refuses this request after a sign-in with the scopes %s (403 "
                                  "insufficient_scope): the account lacks that permission" % " ".join(scopes))
            self._step_ups[frozenset(scopes)] = times + 1
        if not interactive and not (stored.get("refresh_token") or self.client_credentials):
            raise SignInError("not signed in to %s: the host's next request signs in" % self.server_url)
        discovery = discover(self.http, self.server_url, challenge)
        same = scopes is None and stored.get("issuer") == discovery.issuer
        refused = retried and stored.get("access_token") == sent      # just got for this request, and refused
        if same and refused and stored.get("obtained_by") in ("authorization_code", "client_credentials"):
            raise SignInError(self._refused_fresh(discovery))
        if same and stored.get("refresh_token") and not (refused and stored.get("obtained_by") == "refresh_token"):
            try:
                return self._refresh(record, stored)
            except SignInError as exc:
                _log().info("%s: signing in again", exc)
        if scopes is None:
            scopes = _scope_list(challenge.get("scope")) or list(discovery.scopes or ())
        if self.client_credentials:
            return self._client_credentials_grant(record, discovery, scopes)
        if not interactive:
            raise SignInError("not signed in to %s: the host's next request signs in" % self.server_url)
        return self._authorize(record, discovery, scopes)

    def _refused_fresh(self, discovery: Discovery) -> str:
        text = ("the server refused the token %s just issued: it may be for another resource (the bridge asked "
                "for %s)" % (discovery.issuer or "the authorization server", discovery.resource or "none"))
        if self._skew is not None and abs(self._skew) > _SKEW_WARNING:
            text += ", or the clocks differ (this machine's is %.0f s off the authorization server's)" % self._skew
        return text + "; `--logout` forgets this sign-in"

    # -- the authorization code flow, in the user's browser --------------------------------------------
    def _authorize(self, record: dict, discovery: Discovery, scopes: list) -> dict:
        """Sign in through the browser (or finish the sign-in a killed bridge left open)."""
        flow, callback = self._adopt(record, scopes), None
        if flow is not None:
            callback = self._bind(flow["port"], fixed=True, quiet=True)
            if callback is None:
                flow = None
            else:
                _log().warning("a sign-in to %s that process %s started is still open in the browser: finish it "
                               "there (or open %s again)", self.server_url, flow.get("pid"), flow["url"])
        if flow is None:
            flow, callback = self._start_flow(record, discovery, scopes)
        try:
            answer = callback.wait(lambda params: _judge(flow, params), flow["started_at"] + self.login_timeout,
                                   self.closing.is_set)
        finally:
            callback.close()
        if answer is None and self.closing.is_set():
            raise SignInError("the host left during the sign-in (the next bridge takes it over)")
        with self._pending_lock:                   # the flow is over: nobody may take it over now
            flow["done"] = True
            record = self.store.load()
            record.pop("pending", None)
            self.store.save(record)
        try:
            if answer is None:
                raise SignInError("no answer from the browser within %.0f s (--login-timeout): finish the sign-in "
                                  "there; if the authorization server showed an error about the redirect URI, it does "
                                  "not accept %s (register it, or pass --callback-port with the port it knows)"
                                  % (self.login_timeout, flow["redirect_uri"]))
            if isinstance(answer, SignInError):
                raise answer
            token = self._token_request(record, flow, {
                "grant_type": "authorization_code", "code": answer["code"], "redirect_uri": flow["redirect_uri"],
                "code_verifier": flow["verifier"], "resource": flow["resource"]})
        except SignInError as exc:
            record["failure"] = {"at": time.time(), "message": str(exc), "pid": os.getpid()}
            self.store.save(record)
            raise
        record["token"] = token
        record.pop("failure", None)
        self.store.save(record)
        _log().info("signed in to %s (the tokens are kept in %s)", self.server_url, self.store.path)
        return token

    def _adopt(self, record: dict, scopes: list):
        """The sign-in a bridge left when it died, if its browser tab may still finish it."""
        flow = record.get("pending")
        if not isinstance(flow, dict) or not flow.get("opened") or flow.get("client_key") != self.client_key():
            return None
        if time.time() - flow.get("started_at", 0) >= self.login_timeout or not set(scopes) <= set(flow["scopes"]):
            return None
        return flow

    def _start_flow(self, record: dict, discovery: Discovery, scopes: list) -> tuple:
        """A new sign-in: the client and its listener, the flow recorded (for a bridge that may take it
        over), the browser opened on its URL. (flow, listener)"""
        metadata = discovery.metadata
        for field in ("authorization_endpoint", "token_endpoint"):
            _require_secure(metadata[field], field.replace("_", " "))
        offered = _strings(metadata.get("scopes_supported"))
        if scopes and "offline_access" in offered and "offline_access" not in scopes:
            scopes = scopes + ["offline_access"]            # a refresh token, where the server offers one
        client, callback = self._client(record, discovery)
        try:
            return self._open_flow(record, discovery, scopes, client, callback)
        except BaseException:
            callback.close()
            raise

    def _open_flow(self, record: dict, discovery: Discovery, scopes: list, client: dict, callback) -> tuple:
        import secrets
        metadata = discovery.metadata
        verifier, challenge = _pkce()
        state = secrets.token_urlsafe(24)
        url = _with_query(metadata["authorization_endpoint"], {
            "response_type": "code", "client_id": client["client_id"], "redirect_uri": callback.redirect_uri,
            "scope": " ".join(scopes) or None, "state": state, "code_challenge": challenge,
            "code_challenge_method": "S256", "resource": discovery.resource})
        flow = {"pid": os.getpid(), "started_at": time.time(), "opened": False, "url": url, "state": state,
                "verifier": verifier, "redirect_uri": callback.redirect_uri, "port": callback.port,
                "issuer": discovery.issuer, "iss_supported": metadata.get("authorization_response_iss_parameter_supported")
                is True, "token_endpoint": metadata["token_endpoint"], "revocation_endpoint":
                metadata.get("revocation_endpoint"), "resource": discovery.resource, "scopes": scopes,
                "client": client, "client_key": self.client_key()}
        record["pending"] = flow
        self.store.save(record)
        _log().warning("signing in to %s: opening the browser (if none opens, open %s)", self.server_url, url)
        threading.Thread(target=self._open, args=(flow,), name="minimcp-bridge-browser", daemon=True).start()
        return flow, callback

    def _open(self, flow: dict) -> None:
        """Open the browser (``BROWSER`` chooses it), then note in the store that the tab is open."""
        opener = self.open_browser
        if opener is None:
            if sys.platform.startswith("linux") and not any(os.environ.get(name) for name in
                                                            ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")):
                _log().warning("no display here to open a browser on (and no BROWSER): open %s where there is one"
                               " (the redirect to 127.0.0.1:%d must reach this machine)", flow["url"], flow["port"])
                return                   # not a console browser on the host's stderr
            import webbrowser
            opener = webbrowser.open
        try:
            opened = opener(flow["url"])
        except Exception as exc:         # noqa: BLE001 - a browser that cannot start is told, not fatal
            _log().warning("the browser did not start (%s): open %s yourself", exc, flow["url"])
            return
        if not opened:
            _log().warning("no browser could be opened (set BROWSER to one): open %s to sign in", flow["url"])
            return
        with self._pending_lock:
            try:
                record = self.store.load()
                pending = record.get("pending")
                if not flow.get("done") and isinstance(pending, dict) and pending.get("state") == flow["state"]:
                    pending["opened"] = True
                    self.store.save(record)
            except (OSError, SignInError) as exc:
                _log().warning("cannot note the open sign-in in %s: %s", self.store.path, exc)

    def _bind(self, port: int, fixed: bool, quiet: bool = False):
        """The redirect's listener on ``port`` (0: any); None if the port is taken and another may do."""
        try:
            return _Callback(port)
        except OSError as exc:
            if fixed and not quiet:
                raise SignInError("cannot take the loopback port %d for the sign-in's redirect (%s): pass another "
                                  "--callback-port (one the authorization server accepts)" % (port, exc))
            return None

    # -- who the client is ---------------------------------------------------------------------------
    def _client(self, record: dict, discovery: Discovery) -> tuple:
        """(client, callback): the client identity for this authorization server, and the listener whose
        redirect URI it was registered with (pre-registered, metadata document, or RFC 7591)."""
        metadata = discovery.metadata
        supported = _auth_methods(metadata)
        if self.client_id:
            return self._secretless(self.client_id, "pre-registered", supported), self._listener(None)
        if self.client_metadata_url and metadata.get("client_id_metadata_document_supported") is True:
            return {"client_id": self.client_metadata_url, "method": "none", "kind": "metadata document"}, \
                self._listener(None)
        key = discovery.issuer or metadata["token_endpoint"]
        registered = (record.get("clients") or {}).get(key)
        if isinstance(registered, dict) and _still_valid(registered):
            callback = self._listener(registered.get("redirect_uri"))
            if callback.redirect_uri == registered.get("redirect_uri"):
                return _client_of(registered), callback
        else:
            callback = self._listener(None)
        try:
            return self._register(record, discovery, key, supported, callback), callback
        except BaseException:
            callback.close()
            raise

    def _secretless(self, client_id: str, kind: str, supported) -> dict:
        if not self.client_secret:
            method = "none"
        elif "client_secret_basic" in supported or "client_secret_post" not in supported:
            method = "client_secret_basic"
        else:
            method = "client_secret_post"
        return {"client_id": client_id, "method": method, "kind": kind}

    def _listener(self, registered_uri):
        """The loopback listener: --callback-port, else the port a registration names, else any."""
        if self.callback_port:
            return self._bind(self.callback_port, fixed=True)
        if registered_uri:
            port = _split_url(registered_uri)[2]
            callback = self._bind(port, fixed=False)
            if callback is not None:
                return callback
            _log().info("the port %d of this client's redirect URI is taken: registering anew", port)
        return self._bind(0, fixed=True)

    def _register(self, record: dict, discovery: Discovery, key: str, supported, callback) -> dict:
        """RFC 7591 registration with this authorization server, kept under its issuer."""
        endpoint = discovery.metadata.get("registration_endpoint")
        if not isinstance(endpoint, str):
            raise SignInError("the authorization server %s offers neither client registration (RFC 7591) nor client "
                              "ID metadata documents%s: register a client there with the redirect URI "
                              "http://127.0.0.1:PORT%s and pass --client-id ID (--client-secret-file FILE if it has "
                              "a secret) and --callback-port PORT" % (key, "" if self.client_metadata_url else
                                                                       " (--client-metadata-url)", _CALLBACK_PATH))
        _require_secure(endpoint, "registration endpoint")
        method = next((m for m in ("none", "client_secret_basic", "client_secret_post") if m in supported), "none")
        status, answer, _ = self.http.post_json(endpoint, {
            "client_name": _CLIENT_NAME, "redirect_uris": [callback.redirect_uri], "application_type": "native",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": method, "software_id": "minimcp-bridge", "software_version": __version__})
        if status not in (200, 201) or not isinstance(answer, dict) or not isinstance(answer.get("client_id"), str):
            raise SignInError("the authorization server refused to register this client (%s): if it wants "
                              "clients registered beforehand, register one with the redirect URI %s and pass "
                              "--client-id ID and --callback-port %d" % (_oauth_error(answer, status),
                                                                         callback.redirect_uri, callback.port))
        registered = {"client_id": answer["client_id"], "client_secret": answer.get("client_secret"),
                      "method": answer.get("token_endpoint_auth_method") or method, "kind": "registered",
                      "redirect_uri": callback.redirect_uri, "registered_at": time.time(),
                      "secret_expires_at": answer.get("client_secret_expires_at") or 0}
        record.setdefault("clients", {})[key] = registered
        self.store.save(record)
        _log().info("registered as client %s with %s", registered["client_id"], key)
        return _client_of(registered)

    def _secret_of(self, record: dict, client: dict, issuer_key: str):
        if client.get("kind") == "pre-registered":
            return self.client_secret
        registered = (record.get("clients") or {}).get(issuer_key) or {}
        return registered.get("client_secret") if registered.get("client_id") == client["client_id"] else None

    # -- the token endpoint ---------------------------------------------------------------------------
    def _token_request(self, record: dict, flow: dict, fields: dict) -> dict:
        """POST to the token endpoint with the client's authentication; the new token record."""
        client = flow["client"]
        secret = self._secret_of(record, client, flow["issuer"] or flow["token_endpoint"])
        fields, headers = _client_authentication(client, secret, fields)
        status, answer, response_headers = self.http.post_form(flow["token_endpoint"], fields, headers)
        self._note_clock(response_headers)
        if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            raise SignInError(_token_hint(fields["grant_type"], _oauth_error(answer, status), flow))
        token_type = answer.get("token_type") or "Bearer"
        if str(token_type).lower() != "bearer":
            raise SignInError("the authorization server issued a %s token; the bridge sends Bearer tokens only "
                              "(DPoP needs signing keys the standard library lacks)" % token_type)
        now = time.time()
        expires_in = _number(answer.get("expires_in"))
        return {"access_token": answer["access_token"], "token_type": "Bearer",
                "refresh_token": answer.get("refresh_token") or fields.get("refresh_token"),
                "expires_at": now + expires_in if expires_in is not None else None,
                "obtained_at": now, "obtained_by": fields["grant_type"],
                "scope": answer.get("scope") if isinstance(answer.get("scope"), str) else " ".join(flow["scopes"]),
                "scope_requested": flow["scopes"], "issuer": flow["issuer"], "token_endpoint": flow["token_endpoint"],
                "revocation_endpoint": flow.get("revocation_endpoint"), "resource": flow["resource"],
                "client": client}

    def _refresh(self, record: dict, token: dict) -> dict:
        """Trade the refresh token for new tokens (under the lock); stored."""
        fresh = self._token_request(record, _flow_of(token), {
            "grant_type": "refresh_token", "refresh_token": token["refresh_token"], "resource": token.get("resource")})
        record["token"] = fresh
        record.pop("failure", None)
        self.store.save(record)
        _log().info("refreshed the access token for %s", self.server_url)
        return fresh

    def _client_credentials_grant(self, record: dict, discovery, scopes, token: dict = None) -> dict:
        """The client's own token (machine to machine): no browser, no refresh token needed."""
        if token is not None:
            flow = _flow_of(token)
        else:
            _require_secure(discovery.metadata["token_endpoint"], "token endpoint")
            supported = _auth_methods(discovery.metadata)
            flow = {"client": self._secretless(self.client_id, "pre-registered", supported), "issuer":
                    discovery.issuer, "token_endpoint": discovery.metadata["token_endpoint"], "revocation_endpoint":
                    discovery.metadata.get("revocation_endpoint"), "resource": discovery.resource,
                    "scopes": list(scopes or ())}
        fresh = self._token_request(record, flow, {"grant_type": "client_credentials",
                                                   "scope": " ".join(flow["scopes"]) or None,
                                                   "resource": flow["resource"]})
        record["token"] = fresh
        self.store.save(record)
        _log().info("obtained a client-credentials token for %s", self.server_url)
        return fresh

    def _note_clock(self, headers) -> None:
        """Compare our clock with the authorization server's Date header; warn once when far apart."""
        from email.utils import parsedate_to_datetime
        try:
            theirs = parsedate_to_datetime(headers.get("Date")).timestamp()
        except (AttributeError, TypeError, ValueError, IndexError):
            return
        skew = time.time() - theirs
        if abs(skew) > _SKEW_WARNING and (self._skew is None or abs(self._skew) <= _SKEW_WARNING):
            _log().warning("this machine's clock is %.0f s %s the authorization server's: tokens may look expired "
                           "too early or too late; set the clock (NTP)", abs(skew), "ahead of" if skew > 0 else "behind")
        self._skew = skew


def _client_authentication(client: dict, secret, fields: dict) -> tuple:
    """(fields, headers) of a request to the token endpoint, as the client authenticates there:
    ``client_id`` always in the form (public clients need it, and some servers want it besides
    Basic), the secret in Basic (RFC 6749 2.3.1: each part form-encoded) or in the form."""
    import base64
    from urllib.parse import quote_plus
    fields, headers = dict(fields, client_id=client["client_id"]), {}
    if secret and client.get("method") == "client_secret_basic":
        pair = "%s:%s" % (quote_plus(client["client_id"]), quote_plus(secret))
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
    elif secret and client.get("method") == "client_secret_post":
        fields["client_secret"] = secret
    return fields, headers


def logout(server_url: str, folder: str = None, http: _OAuthHttp = None, client_secret: str = None) -> list:
    """Forget every sign-in to ``server_url`` kept in ``folder``: each token is revoked where the
    authorization server offers revocation (RFC 7009), then its file is removed. The files removed."""
    import json
    folder = folder or default_oauth_dir()
    http = http or _OAuthHttp(timeout=10.0)
    removed = []
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return removed
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as handle:
                record = json.load(handle)
        except (OSError, ValueError):
            continue
        if not (name.endswith(".json") and isinstance(record, dict) and record.get("format") == TOKEN_FORMAT
                and isinstance(record.get("server"), str)
                and canonical_resource(record["server"]) == canonical_resource(server_url)):
            continue
        token = record.get("token") if isinstance(record.get("token"), dict) else {}
        endpoint = token.get("revocation_endpoint")
        if isinstance(endpoint, str) and (token.get("refresh_token") or token.get("access_token")):
            client = token.get("client") or {}
            registered = [c for c in (record.get("clients") or {}).values()
                          if isinstance(c, dict) and c.get("client_id") == client.get("client_id")]
            secret = registered[0].get("client_secret") if registered else client_secret
            kind = "refresh_token" if token.get("refresh_token") else "access_token"
            fields, headers = _client_authentication(client, secret, {"token": token[kind], "token_type_hint": kind})
            try:
                status, answer, _ = http.post_form(endpoint, fields, headers)
                if status != 200:
                    _log().warning("%s did not revoke the token (%s)", endpoint, _oauth_error(answer, status))
            except SignInError as exc:
                _log().warning("could not revoke the token at %s: %s", endpoint, exc)
        os.unlink(path)
        removed.append(path)
    return removed


def _bearer(sent: dict):
    value = (sent or {}).get("Authorization") or ""
    return value[7:] if value[:7].lower() == "bearer " else None


def _expired(token: dict) -> bool:
    expires_at = token.get("expires_at")
    return isinstance(expires_at, (int, float)) and time.time() >= expires_at


def _covers(token: dict, scopes) -> bool:
    """Whether ``token`` was asked with every scope of ``scopes`` (None: any token will do)."""
    return scopes is None or set(scopes) <= set(token.get("scope_requested") or ())


def _pending_of(store: TokenStore) -> dict:
    try:
        pending = store.load().get("pending")
    except SignInError:
        return {}
    return pending if isinstance(pending, dict) else {}


def _still_valid(registered: dict) -> bool:
    expires = registered.get("secret_expires_at") or 0
    return isinstance(registered.get("client_id"), str) and not (expires and expires < time.time() + 60)


def _client_of(registered: dict) -> dict:
    return {"client_id": registered["client_id"], "method": registered.get("method") or "none", "kind": "registered"}


def _flow_of(token: dict) -> dict:
    """What a token's renewal needs: the endpoint, client and resource it was issued with."""
    return {"client": token.get("client") or {}, "issuer": token.get("issuer"), "token_endpoint":
            token["token_endpoint"], "revocation_endpoint": token.get("revocation_endpoint"),
            "resource": token.get("resource"), "scopes": list(token.get("scope_requested") or ())}


def _judge(flow: dict, params: dict):
    """The authorization response, checked (RFC 9207's iss before anything else in it is used)."""
    if params.get("state") != flow["state"]:
        return "This page belongs to another sign-in attempt: close it (the bridge waits for the one it opened)."
    iss = params.get("iss")
    if flow["issuer"] is not None and (iss is not None or flow["iss_supported"]):
        if iss is None:
            return SignInError("the authorization server says it names itself in its answers (RFC 9207 iss), but "
                               "this answer does not: refused (a mix-up attack, or a misconfigured server)")
        if iss != flow["issuer"]:
            return SignInError("the authorization answer comes from the issuer %r, not from %s, where the sign-in "
                               "was sent: refused (a mix-up attack, or a misconfigured server)" % (iss, flow["issuer"]))
    if "error" in params:
        return SignInError(_authorization_hint(params, flow))
    if not params.get("code"):
        return SignInError("the authorization server redirected back without a code")
    return None


def _authorization_hint(params: dict, flow: dict) -> str:
    error, description = params.get("error"), params.get("error_description")
    text = "the authorization server answered %s%s" % (error, ": %s" % description if description else "")
    hints = {"access_denied": "the sign-in was denied or cancelled in the browser; the next request signs in again",
             "invalid_scope": "it does not grant the scopes %s" % " ".join(flow["scopes"]),
             "unauthorized_client": "this client may not sign in there (--client-id)",
             "invalid_request": "it may not accept the redirect URI %s (--callback-port)" % flow["redirect_uri"],
             "invalid_target": "it does not serve the resource %s" % flow["resource"]}
    return text + ("; " + hints[error] if error in hints else "")


def _token_hint(grant: str, error: str, flow: dict) -> str:
    """A token endpoint's refusal, and its likely fix."""
    what = {"authorization_code": "the sign-in's code", "refresh_token": "the refresh token",
            "client_credentials": "the client's credentials"}.get(grant, grant)
    text = "the token endpoint %s refused %s (%s)" % (flow["token_endpoint"], what, error)
    if error.startswith("invalid_client"):
        return text + ": it does not accept this client's id or secret (--client-id, --client-secret-file); " \
                      "`--logout` forgets a registration it no longer knows"
    if error.startswith("invalid_grant") and grant == "refresh_token":
        return text + ": the refresh token expired or was revoked"
    if error.startswith("invalid_grant"):
        return text + ": the code expired or was used already, or the redirect URI differs"
    if error.startswith("invalid_target"):
        return text + ": it does not issue tokens for the resource %s" % flow["resource"]
    return text


# 2026-07-28 request headers: Mcp-Method, Mcp-Name, Mcp-Param-* ###############

_SENTINEL = ("=?base64?", "?=")


def _mcp_header_value(value) -> str:
    """A value as a header carries it: plain visible ASCII, else the spec's base64 sentinel form."""
    import base64
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = str(value)
    else:
        text = str(value)
    plain = (text == text.strip() and all(" " <= char <= "~" for char in text)
             and not (text.startswith(_SENTINEL[0]) and text.endswith(_SENTINEL[1])))
    if plain:
        return text
    return _SENTINEL[0] + base64.b64encode(text.encode("utf-8")).decode("ascii") + _SENTINEL[1]


def header_parameters(schema) -> list:
    """The ``x-mcp-header`` annotations of a tool's input schema: [(header name, property path)].

    Raises:
        ValueError: an annotation breaks the spec's rules (the tool must then not be listed):
            empty or not an HTTP token, repeated (case-insensitively), on a type other than
            string, integer or boolean, or reachable other than through ``properties`` alone.
    """
    import re
    found = []

    def visit(node, path: tuple, reachable: bool) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, path + ("[]",), False)
            return
        if not isinstance(node, dict):
            return
        for key, child in node.items():
            if key == "x-mcp-header":
                if not reachable or not path:
                    raise ValueError("x-mcp-header on %s, which is not reached through properties alone"
                                     % ("/".join(path) or "the schema root"))
                found.append((child, path[1::2], node))
            elif key == "properties" and isinstance(child, dict):
                for name, sub in child.items():       # still reachable only along properties from the root
                    visit(sub, path + ("properties", name), reachable)
            else:
                visit(child, path + (key,), False)
    visit(schema, (), True)
    seen = set()
    pairs = []
    for name, path, node in found:
        if not isinstance(name, str) or not re.match(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", name):
            raise ValueError("x-mcp-header %r is not an HTTP header name" % (name,))
        if name.lower() in seen:
            raise ValueError("x-mcp-header %r is repeated" % name)
        seen.add(name.lower())
        if node.get("type") not in ("string", "integer", "boolean"):
            raise ValueError("x-mcp-header %r is on a %s, not a string, integer or boolean" % (name, node.get("type")))
        pairs.append((name, path))
    return pairs


def _argument_at(arguments, path: tuple):
    for name in path:
        if not isinstance(arguments, dict) or name not in arguments:
            return None
        arguments = arguments[name]
    return arguments


def _request_headers(message: dict, version, tool_headers: dict) -> dict:
    """The headers a POST mirrors from its body (2026-07-28 requires them; earlier servers ignore them)."""
    method = message.get("method")
    headers = {"Mcp-Method": method}
    if version is not None:
        headers["MCP-Protocol-Version"] = version
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    name = params.get("uri") if method == "resources/read" else params.get("name")
    if method in ("tools/call", "resources/read", "prompts/get") and name is not None:
        headers["Mcp-Name"] = _mcp_header_value(name)
    if method == "tools/call":
        for header, path in tool_headers.get(name, ()):
            value = _argument_at(params.get("arguments"), path)
            if value is not None:
                headers["Mcp-Param-" + header] = _mcp_header_value(value)
    return headers


# The bridge: the host's messages, the requests in flight, who answers them ###

class _Cancelled(Exception):
    """The host cancelled the request (or went away): it gets no answer."""


class _Refused(Exception):
    """The server answered an HTTP error status; ``error`` is the JSON-RPC error to give the host."""

    def __init__(self, status: int, error: dict) -> None:
        super().__init__(error["message"])
        self.status, self.error = status, error


class _Slot:
    """Where the server's answer to one upstream request id lands, from whichever stream carries it."""
    __slots__ = ("answer", "arrived")

    def __init__(self) -> None:
        self.answer = None
        self.arrived = threading.Event()


class _Pending:
    """One request of the host's, in flight until it has its one answer (or was cancelled)."""
    __slots__ = ("host_id", "method", "message", "answered", "cancelled", "reply", "ticket", "asked", "batch",
                 "holds")

    def __init__(self, message: dict, ticket: int, batch: "_HostBatch" = None) -> None:
        self.host_id, self.method, self.message = message.get("id"), message.get("method"), message
        self.answered = self.cancelled = False
        self.reply = None                # the HTTP answer being read (aborted on cancellation)
        self.ticket = ticket             # its place in the host's order, until its bytes are sent
        self.asked = []                  # questions to the host it waits for (2026-07-28 upstream)
        self.batch = batch               # the host's batch it came in, whose one reply carries its answer
        self.holds = False               # an initialize the host's next messages wait for


class _HostBatch:
    """A host's JSON-RPC batch (2025-03-26): its messages go up one by one, as no later
    revision takes batches, and their answers go back to the host as one array, once all
    are in (a cancelled request owes none). A batch of notifications gets no reply."""

    def __init__(self, write) -> None:
        self.write = write
        self.lock = threading.Lock()
        self.owed = 0
        self.sealed = False
        self.answers = []

    def expect(self) -> None:
        with self.lock:
            self.owed += 1

    def settle(self, answer: dict = None) -> None:
        """One owed answer (None: none is owed after all)."""
        with self.lock:
            self.owed -= 1
            if answer is not None:
                self.answers.append(answer)
        self._flush()

    def seal(self) -> None:
        """Every message of the batch was handed on: the reply goes once the last answer is in."""
        with self.lock:
            self.sealed = True
        self._flush()

    def _flush(self) -> None:
        with self.lock:
            if not self.sealed or self.owed or self.answers is None:
                return
            answers, self.answers = self.answers, None
        if answers:
            self.write(answers)


class _Turns:
    """Keeps the host's order on the wire: message N's bytes go out after message N-1's.

    Each message sent upstream takes a ticket on the reader thread; its own thread
    waits for its turn before writing the request, and hands the turn on once the
    bytes are written (not when the answer comes: requests still run side by side).
    """

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.issued = 0
        self.serving = 0
        self.done = set()

    def take(self) -> int:
        with self.cond:
            self.issued += 1
            return self.issued - 1

    def wait(self, ticket: int) -> None:
        with self.cond:
            while self.serving < ticket:
                self.cond.wait()

    def release(self, ticket: int) -> None:
        with self.cond:
            self.done.add(ticket)
            while self.serving in self.done:
                self.done.discard(self.serving)
                self.serving += 1
            self.cond.notify_all()


class Bridge:
    """Carries one host's stdio session to the server behind ``upstream``.

    The reader thread hands every host message to ``handle()``, which never waits on
    the network: each request runs on a thread of its own, in the era the two ends
    agreed on (``_Mirror``, ``_Stateless`` or ``_Translated``), and gets exactly one
    answer (none once the host cancelled it, as the spec asks).

    Args:
        upstream: the server's endpoint.
        write: writes one JSON-RPC message to the host (thread-safe).
        protocol: ``auto`` (mirror a handshake-era server, translate for a 2026-07-28-only
            one), ``handshake`` (always mirror), or ``2026-07-28`` (a handshake-era host is
            bridged to the server's 2026-07-28).
    """

    PROTOCOLS = ("auto", "handshake", STATELESS_VERSION)

    def __init__(self, upstream: Upstream, write, protocol: str = "auto") -> None:
        if protocol not in self.PROTOCOLS:
            raise ValueError("--protocol is one of %s, not %r" % (", ".join(self.PROTOCOLS), protocol))
        self.upstream, self.write, self.protocol = upstream, write, protocol
        self.era = None                  # how requests go up, once the first exchange decided it
        self.lock = threading.Lock()
        self.turns = _Turns()
        self.closing = threading.Event()
        self.in_flight = {}              # host id key -> _Pending
        self.settled = threading.Condition(self.lock)    # notified as requests leave in_flight
        self.held = None                 # the host's messages waiting for its initialize's answer: [(message, batch)]
        self.input_closed = False        # stdin ended: the host answers no more questions
        self.waiting = {}                # upstream id key -> _Slot
        self.questions = {}              # our question id key -> _Slot (answered by the host)
        self.tool_headers = {}           # tool name -> its x-mcp-header annotations (2026-07-28)
        self._own = 0

    # -- the host's messages (the reader thread) -----------------------------------------
    def handle(self, message, batch: _HostBatch = None, replayed: bool = False) -> None:
        """One message from the host: dispatch it without waiting on the network.

        While the host's ``initialize`` waits for its answer, what the host sends next waits
        with it (a host may write its first messages at once): they go up, in order, once
        the session exists. ``replayed``: one of those, now handed on.
        """
        if isinstance(message, list) and batch is None:
            return self._on_batch(message)
        if batch is not None and not replayed and _owed_answer(message):
            batch.expect()
        with self.lock:
            if self.held is not None and not replayed:
                self.held.append((message, batch))
                return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            request_id = message.get("id") if isinstance(message, dict) else None
            self._reply(batch, _error(request_id if _valid_id(request_id) else None, INVALID_REQUEST,
                                      "Invalid Request: not a JSON-RPC 2.0 message"))
            return
        if "method" not in message:
            self._on_answer(message)
        elif "id" in message:
            self._on_request(message, batch)
        else:
            self._on_notification(message)

    def _on_batch(self, messages: list) -> None:
        if not messages:
            self.write(_error(None, INVALID_REQUEST, "Invalid Request: an empty batch"))
            return
        batch = _HostBatch(self.write)
        for item in messages:
            self.handle(item, batch)
        batch.seal()

    def _reply(self, batch: _HostBatch, message: dict) -> None:
        """An answer to the host: on its own line, or in its batch's reply."""
        if batch is not None:
            batch.settle(message)
        else:
            self.write(message)

    def _on_request(self, message: dict, batch: _HostBatch = None) -> None:
        method, key = message.get("method"), _id_key(message.get("id"))
        if not isinstance(method, str) or not _valid_id(message.get("id")):
            self._reply(batch, _error(message.get("id") if _valid_id(message.get("id")) else None, INVALID_REQUEST,
                                      "Invalid Request: a request needs a string method and a string or integer id"))
            return
        with self.lock:
            if key in self.in_flight:
                error = _error(message["id"], INVALID_REQUEST, "Invalid Request: id %r is already in flight"
                               % (message["id"],))
                pending = None
            else:
                pending = self.in_flight[key] = _Pending(message, self.turns.take(), batch)
                if method == "initialize" and self.era is None and self.held is None:
                    pending.holds, self.held = True, []
        if pending is None:
            self._reply(batch, error)
            return
        self._start(self._run, pending)

    def _release_held(self) -> None:
        """The host's initialize has its answer: hand on, in order, what the host sent meanwhile
        (and what it sends while they are handed on), then stop holding."""
        while True:
            with self.lock:
                waiting = self.held or []
                self.held = [] if waiting else None
                if not waiting:
                    self.settled.notify_all()
                    return
            for message, batch in waiting:
                self.handle(message, batch, replayed=True)

    def _on_notification(self, message: dict) -> None:
        if message.get("method") == "notifications/cancelled":
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            with self.lock:
                pending = self.in_flight.get(_id_key(params.get("requestId")))
            if pending is not None:
                self._cancel(pending)
        era = self.era
        if era is not None:
            era.notify(message, self.turns.take())

    def _on_answer(self, message: dict) -> None:
        """The host's answer to a question: ours (2026-07-28 upstream), or the server's to pass on."""
        with self.lock:
            slot = self.questions.pop(_id_key(message.get("id")), None)
        if slot is not None:
            slot.answer = message
            slot.arrived.set()
        elif self.era is not None:
            self.era.notify(message, self.turns.take())

    def _cancel(self, pending: _Pending) -> None:
        """The host cancelled: 2026-07-28 over HTTP cancels by closing the request's stream; the
        handshake era by the notification (posted by the era), and the stream is closed too, as
        nothing more of it may reach the host (and a server may keep it open with keep-alives)."""
        pending.cancelled = True
        reply = pending.reply
        if reply is not None:
            reply.abort()
        for slot in pending.asked:
            slot.arrived.set()           # stop waiting for the host's answers to our questions

    def _start(self, target, *args) -> None:
        threading.Thread(target=target, args=args, name="minimcp-bridge", daemon=True).start()

    # -- one request, on its own thread ----------------------------------------------------
    def _run(self, pending: _Pending) -> None:
        try:
            self._dispatch(pending)
        except _Cancelled:
            pass
        except _Refused as exc:
            self.fail(pending, exc.error)
        except UpstreamError as exc:
            self.fail(pending, {"code": INTERNAL_ERROR, "message": "%s: %s" % (self.upstream.url, exc)})
        except Exception as exc:            # noqa: BLE001 - a bug of ours still answers the host
            _log().exception("the bridge failed on %s", pending.method)
            self.fail(pending, {"code": INTERNAL_ERROR, "message": "the bridge failed: %s" % exc})
        finally:
            self._handed_on(pending)
            if pending.batch is not None and not pending.answered:
                pending.batch.settle(None)          # cancelled (or the bridge is closing): it owes none
            with self.lock:
                if self.in_flight.get(_id_key(pending.host_id)) is pending:
                    del self.in_flight[_id_key(pending.host_id)]
                    self.settled.notify_all()
            if pending.holds:                       # (after: a message held may reuse its id)
                self._release_held()

    def _dispatch(self, pending: _Pending) -> None:
        method, era = pending.method, self.era
        if method == "server/discover":
            return self._discover(pending)
        if method == "initialize" and not isinstance(era, (_Mirror, _Translated)):
            return self._initialize(pending)
        if era is None:
            if _enveloped(pending.message):
                with self.lock:
                    self.era = era = self.era or _Stateless(self)
            elif method == "ping":
                return self.answer(pending, _response(pending.host_id, {}))
            else:
                raise _Refused(0, {"code": INVALID_REQUEST, "message": "Invalid Request: send initialize first "
                                   "(or a 2026-07-28 request with its _meta envelope)"})
        era.request(pending)

    def _initialize(self, pending: _Pending) -> None:
        """The host's initialize decides the era: mirror a handshake-era server, else translate.

        The era is in place before the host reads the answer: its next request may follow at once.
        """
        refusal = None
        if self.protocol != STATELESS_VERSION:
            mirror = _Mirror(self)
            try:
                answer = mirror.initialize(pending)
            except _Refused as exc:
                if self.protocol == "handshake":
                    raise
                refusal = exc
            else:
                self.era = mirror
                self.answer(pending, answer)
                return
        translated = _Translated(self)
        answer = translated.initialize(pending, refusal)
        self.era = translated
        self.answer(pending, answer)

    def _discover(self, pending: _Pending) -> None:
        """A 2026-07-28 host's probe: the server's own answer if it speaks 2026-07-28, else -32601."""
        if self.protocol == "handshake" or isinstance(self.era, (_Mirror, _Translated)):
            raise _Refused(0, _no_discover())
        message = pending.message
        version = _meta(message).get(META_VERSION, STATELESS_VERSION)
        try:                             # (once the era is 2026-07-28's, it is a request like any other)
            answer, _ = self.exchange(message, _request_headers(message, version, {}), pending,
                                      probe=self.era is None)
        except _Refused as exc:
            if exc.error.get("code") in _MODERN_ERRORS:
                raise                    # a 2026-07-28 server refusing this request: the host adapts and retries
            _log().info("the server does not answer server/discover (%s): it speaks the handshake era only",
                        exc.error.get("message"))
            raise _Refused(exc.status, _no_discover())
        except UpstreamError as exc:
            if not exc.late:
                raise
            _log().warning("%s: the server is taken to speak the handshake era only (--protocol handshake skips "
                           "this probe)", exc)
            raise _Refused(0, _no_discover("%s: the server is taken to speak the handshake revisions only, so "
                                           "use initialize; --protocol handshake skips this wait" % exc))
        if "error" in answer and answer["error"].get("code") not in _MODERN_ERRORS:
            raise _Refused(0, _no_discover())
        self.answer(pending, answer)

    def _handed_on(self, pending: _Pending) -> None:
        """Hand the host's order on if this request never got as far as sending."""
        if pending.ticket is not None:
            ticket, pending.ticket = pending.ticket, None
            self.turns.release(ticket)

    # -- answers to the host: exactly one per request ----------------------------------------
    def answer(self, pending: _Pending, message: dict) -> bool:
        """Write the answer to ``pending``, under the host's id; False if it already has one."""
        with self.lock:
            if pending.answered or pending.cancelled or self.closing.is_set():
                return False
            pending.answered = True
            # Out of the table before the host reads the answer: it may reuse the id at once.
            if self.in_flight.get(_id_key(pending.host_id)) is pending:
                del self.in_flight[_id_key(pending.host_id)]
                self.settled.notify_all()
        if message.get("id") != pending.host_id or type(message.get("id")) is not type(pending.host_id):
            message = dict(message, id=pending.host_id)
        self._reply(pending.batch, message)
        return True

    def fail(self, pending: _Pending, error: dict) -> bool:
        """Answer ``pending`` with a JSON-RPC error member."""
        if error.get("code") == INTERNAL_ERROR and pending.method:
            _log().warning("%s failed: %s", pending.method, error.get("message"))
        return self.answer(pending, {"jsonrpc": "2.0", "id": pending.host_id, "error": error})

    # -- the upstream side -------------------------------------------------------------------
    def own_id(self) -> str:
        """A fresh id for a request of the bridge's own (its questions, retries, a re-initialize)."""
        with self.lock:
            self._own += 1
            return "%s%d" % (_OWN_ID_PREFIX, self._own)

    def post(self, message: dict, headers: dict, pending: _Pending = None, answer_within: float = None) -> Reply:
        """POST one message; a message of the host's waits for its turn in the host's order."""
        ticket = pending.ticket if pending is not None else None
        if ticket is not None:
            self.turns.wait(ticket)
        if pending is not None and pending.cancelled:
            raise _Cancelled()
        headers = dict(headers, **_POST_HEADERS)
        should_stop = (lambda: pending.cancelled or self.closing.is_set()) if pending is not None else None
        sent = (lambda: self._handed_on(pending)) if ticket is not None else None
        return self.upstream.request("POST", headers, encode_message(message), should_stop, sent,
                                     answer_within=answer_within)

    def send(self, message: dict, headers: dict, ticket: int, keep_turn: bool = False) -> Reply:
        """POST a notification or an answer of the host's, in the host's order.

        The turn passes on once the server said it took it (202), not when its bytes are
        written: on another connection, a message sent after it could otherwise reach the
        server first (``notifications/initialized`` overtaken by the first request).
        ``keep_turn``: the caller passes it on (after more of its own).
        """
        self.turns.wait(ticket)
        try:
            headers = dict(headers, **_POST_HEADERS)
            return self.upstream.request("POST", headers, encode_message(message))
        except BaseException:
            keep_turn = False
            raise
        finally:
            if not keep_turn:
                self.turns.release(ticket)

    def exchange(self, message: dict, headers: dict, pending: _Pending = None, resume=None,
                 probe: bool = False) -> tuple:
        """POST a request; return the server's answer to it (a response message) and the HTTP reply.

        Whatever else the answer's stream carries (progress, logs, the server's own
        requests) is routed on as it comes. A stream that breaks off before the answer is
        resumed with ``resume(last_event_id)`` when the server gave event ids. ``probe``:
        the request asks which era the server speaks (``server/discover``), and its answer
        is due within ``--connect-timeout`` (``_probe_within``).

        Raises:
            _Refused: an HTTP error status (with the JSON-RPC error to pass on).
            _Cancelled: the host cancelled ``pending`` meanwhile.
            UpstreamError: the server could not be reached, or never answered (``late``: a
                probe's answer did not come in time).
        """
        key, slot = _id_key(message.get("id")), _Slot()
        within = _probe_within(self.upstream) if probe else None
        with self.lock:
            self.waiting[key] = slot
        try:
            reply = first = self.post(message, headers, pending, within)
            if reply.status == 202:                  # answered on another stream, if at all
                reply.close()
                self._wait_elsewhere(slot, pending, within)
            elif reply.status != 200:
                raise _Refused(reply.status, self.http_error(reply))
            else:
                self.read(reply, slot, pending)
                self._resume(reply, slot, pending, resume)
            if pending is not None and pending.cancelled:
                raise _Cancelled()
            if slot.answer is None:
                raise UpstreamError("the server ended its answer to %s without answering it" % message.get("method"),
                                    late=within is not None and reply.status == 202)
            return slot.answer, first
        except UpstreamError as exc:
            if exc.late:
                raise UpstreamError("%s sent no answer to %s within %g s (--connect-timeout)"
                                    % (self.upstream.where, message.get("method"), within), late=True)
            raise
        finally:
            with self.lock:
                self.waiting.pop(key, None)

    def _wait_elsewhere(self, slot: _Slot, pending: _Pending, within: float = None) -> None:
        deadline = time.monotonic() + (within or self.upstream.idle_timeout or 1e9)
        while not slot.arrived.wait(0.5):
            if (pending is not None and pending.cancelled) or self.closing.is_set() or time.monotonic() > deadline:
                return

    def _resume(self, reply: Reply, slot: _Slot, pending: _Pending, resume) -> None:
        """The stream ended with no answer: reconnect with Last-Event-ID, waiting what the server's retry says."""
        attempts = 0
        while slot.answer is None and resume is not None and reply.last_event_id is not None and attempts < 5:
            if (pending is not None and pending.cancelled) or self.closing.is_set():
                return
            attempts += 1
            delay = reply.retry_ms / 1000.0 if reply.retry_ms is not None else min(0.5 * attempts, 2.0)
            if slot.arrived.wait(delay):
                return
            last = reply.last_event_id
            _log().debug("resuming a stream after event %s", last)
            resumed = resume(last)
            if resumed.status != 200 or not resumed.is_stream:
                resumed.close()
                return
            resumed.last_event_id = resumed.last_event_id or last
            if resumed.retry_ms is None:
                resumed.retry_ms = reply.retry_ms
            self.read(resumed, slot, pending, until_answered=True)
            reply = resumed

    def read(self, reply: Reply, slot: _Slot, pending: _Pending = None, until_answered: bool = False) -> None:
        """Route every message of ``reply``; ``until_answered``: stop at the answer (a resumed GET
        stream goes on after it)."""
        if pending is not None:
            pending.reply = reply
            if pending.cancelled:
                reply.abort()
        try:
            for message in reply.messages():
                if pending is not None and pending.cancelled:
                    reply.abort()            # nothing more of a cancelled request reaches the host
                    continue
                self.route(message)
                if until_answered and slot.answer is not None:
                    reply.abort()
        except UpstreamError as exc:
            if slot.answer is None and (reply.last_event_id is None or exc.late):
                raise                        # (a late answer is not waited for again on a resumed stream)
        finally:
            if pending is not None:
                pending.reply = None

    def route(self, message) -> None:
        """A message from the server: an answer to whoever waits for it, anything else to the era."""
        if not isinstance(message, dict):
            return
        if "method" not in message:
            with self.lock:
                slot = self.waiting.get(_id_key(message.get("id")))
            if slot is None:
                _log().debug("an answer to id %r, which nobody waits for, is dropped", message.get("id"))
                return
            if slot.answer is None:
                slot.answer = message
                slot.arrived.set()
            return
        era = self.era
        if era is not None:
            era.from_server(message)
        elif "id" not in message:
            self.write(message)

    def http_error(self, reply: Reply) -> dict:
        """The JSON-RPC error for an HTTP error status: the server's own, unchanged, when its body has one."""
        error = reply.json_error()
        if error is not None:
            return error
        hint = _status_hint(reply.status, self.upstream.url)
        challenge = reply.header("WWW-Authenticate") if reply.status == 401 else None
        text = "HTTP %d from %s: %s" % (reply.status, self.upstream.url, hint)
        if challenge:
            text += " (the server asks: WWW-Authenticate: %s)" % challenge.split(",")[0][:120]
        return {"code": INTERNAL_ERROR, "message": text, "data": {"httpStatus": reply.status}}

    # -- questions to the host (a 2026-07-28 server's input requests) ---------------------
    def ask(self, method: str, params: dict, pending: _Pending) -> tuple:
        """Send the host a request of the bridge's own: (its id, the slot its answer lands in)."""
        question_id = self.own_id()
        slot = _Slot()
        with self.lock:
            if self.input_closed:
                slot.answer = _INPUT_CLOSED
                slot.arrived.set()
            self.questions[_id_key(question_id)] = slot
        pending.asked.append(slot)
        self.write(_request(question_id, method, params))
        return question_id, slot

    def forget_question(self, question_id) -> None:
        with self.lock:
            self.questions.pop(_id_key(question_id), None)

    # -- the end ---------------------------------------------------------------------------
    def drain(self, seconds: float, host_alive=None) -> None:
        """The host closed its input: every request it sent still gets its answer, for up to
        ``seconds`` (while ``host_alive()``, when given); then each left gets a JSON-RPC error.
        Questions to the host (the bridge's own, the server's) can no longer be answered: refused at once."""
        with self.lock:
            self.input_closed = True
            questions, self.questions = list(self.questions.values()), {}
        for slot in questions:
            slot.answer = _INPUT_CLOSED
            slot.arrived.set()
        if isinstance(self.era, _Mirror):
            self.era.input_closed()
        deadline = time.monotonic() + seconds
        with self.lock:
            while (self.in_flight or self.held is not None) and time.monotonic() < deadline:
                self.settled.wait(min(1.0, max(0.0, deadline - time.monotonic())))
                if host_alive is not None and not host_alive():
                    break
            left = [pending for pending in self.in_flight.values() if not pending.answered]
        for pending in left:
            self.fail(pending, {"code": INTERNAL_ERROR, "message": "%s had no answer from %s %.0f s after the host "
                                "closed the bridge's input: the bridge stopped waiting"
                                % (pending.method, self.upstream.url, seconds)})

    def close(self) -> None:
        """The host is gone: end the streams, close the session (DELETE), close connections."""
        self.closing.set()
        era = self.era
        if era is not None:
            era.close()
        self.upstream.close()


_INPUT_CLOSED = {"jsonrpc": "2.0", "error": {"code": INTERNAL_ERROR, "message": "the host closed its input"}}


def _owed_answer(message) -> bool:
    """Whether the host is owed an answer to ``message``: a request, or anything that is not
    JSON-RPC (an error); not a notification, nor the host's answer to a question."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return True
    return "method" in message and "id" in message


def _no_discover(why: str = "the server speaks the handshake revisions only: use initialize") -> dict:
    return {"code": METHOD_NOT_FOUND, "message": "Method not found: server/discover (%s)" % why}


def _probe_within(upstream: Upstream):
    """Seconds a server gets to answer server/discover when it tells the era (None: --idle-timeout's).

    The connect timeout, as the probe is part of reaching the server: a server answers it from
    what it knows, in a round trip, while the host's initialize waits on it against the host's
    own deadline (tens of seconds). One that takes the request and says nothing (a server that
    drops methods it does not know; a stream that never carries the answer) would hold the host
    for --idle-timeout (300 s) instead. --connect-timeout already says how long reaching the
    server may take here; an option of its own would say it twice.
    """
    return upstream.connect_timeout or None


def _meta(message: dict) -> dict:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def _enveloped(message: dict) -> bool:
    """A 2026-07-28 request: it carries its protocol version in its _meta."""
    return META_VERSION in _meta(message)


def _learn_tools(bridge: Bridge, answer: dict) -> dict:
    """A tools/list answer, learnt from (x-mcp-header annotations) and without the tools whose
    annotations break the rules, as the HTTP transport requires of a client."""
    result = answer.get("result")
    tools = result.get("tools") if isinstance(result, dict) else None
    if not isinstance(tools, list):
        return answer
    kept = []
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        try:
            pairs = header_parameters(tool.get("inputSchema") or {})
        except ValueError as exc:
            _log().warning("the tool %r is left out of tools/list: %s", tool.get("name"), exc)
            bridge.tool_headers.pop(tool.get("name"), None)
            continue
        bridge.tool_headers[tool.get("name")] = pairs
        kept.append(tool)
    if len(kept) == len(tools):
        return answer
    return dict(answer, result=dict(result, tools=kept))


def _call_stateless(bridge: Bridge, message: dict, version: str, pending: _Pending = None) -> dict:
    """One 2026-07-28 request: its headers mirror the body; a HeaderMismatch for a tool the
    bridge has not listed yet lists the tools (for their x-mcp-header) and sends it once more."""
    name = (message.get("params") or {}).get("name")
    for attempt in (0, 1):
        try:
            answer, _ = bridge.exchange(message, _request_headers(message, version, bridge.tool_headers), pending)
        except _Refused as exc:
            if exc.error.get("code") != HEADER_MISMATCH or message.get("method") != "tools/call" or attempt:
                raise
            _log().info("the server wants Mcp-Param headers for %r: listing the tools", name)
            _list_tools(bridge, message, version)
            continue
        if message.get("method") == "tools/list":
            answer = _learn_tools(bridge, answer)
        return answer


def _list_tools(bridge: Bridge, like: dict, version: str) -> None:
    """Every page of tools/list, in the envelope of ``like``, to learn the tools' headers."""
    meta = {key: value for key, value in _meta(like).items() if key != "progressToken"}
    cursor = None
    for _ in range(100):
        params = {"_meta": meta} if meta else {}
        if cursor is not None:
            params["cursor"] = cursor
        message = _request(bridge.own_id(), "tools/list", params)
        answer, _ = bridge.exchange(message, _request_headers(message, version, {}))
        _learn_tools(bridge, answer)
        cursor = (answer.get("result") or {}).get("nextCursor")
        if not cursor:
            return


# The eras ###################################################################

class _Mirror:
    """Both ends speak the handshake era: the host's session, carried over HTTP as it is.

    The server's session id and protocol version go on every request. Once the host
    said ``notifications/initialized``, the GET stream carries what the server says
    outside requests; it is reopened when it drops (with ``Last-Event-ID`` when the
    server gave event ids, after the ``retry`` it asked for). A 404 for the session
    means the server forgot it (a restart, an expiry): the host's own ``initialize`` is
    sent again, its log level and subscriptions are replayed, and the request goes once more.
    """

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.session_id = self.version = None
        self.generation = 0              # one more each time the session is reopened
        self.initialize_message = None
        self.reopen_lock = threading.Lock()
        self.level = None
        self.subscriptions = set()
        self.get_reply = None
        self.listening = False
        self.asked = {}                  # the server's requests the host has yet to answer: id key -> id

    def headers(self, message: dict = None) -> dict:
        headers = _request_headers(message, self.version, {}) if message and "method" in message else {}
        if self.version is not None:
            headers["MCP-Protocol-Version"] = self.version
        if self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        return headers

    def initialize(self, pending: _Pending) -> dict:
        """Send the host's initialize and return the answer to give it.

        Raises:
            _Refused: the server refused it (``auto`` then tries 2026-07-28).
        """
        message = pending.message
        answer, reply = self.bridge.exchange(message, _request_headers(message, None, {}), pending)
        if "error" in answer:
            raise _Refused(0, answer["error"])
        result = answer.get("result") if isinstance(answer.get("result"), dict) else {}
        if result.get("protocolVersion") in MODERN_VERSIONS:   # not a handshake: a 2026-07-28 server's
            raise _Refused(0, {"code": INVALID_REQUEST, "message": "the server answered initialize with protocol "
                               "%s, which has no initialize" % result["protocolVersion"]})
        self.session_id = reply.header("Mcp-Session-Id")
        self.version = result.get("protocolVersion")
        self.initialize_message = message
        _log().info("connected to %s: protocol %s, %s", self.bridge.upstream.url, self.version,
                    "a session" if self.session_id else "no session")
        return answer

    def request(self, pending: _Pending) -> None:
        message = pending.message
        if pending.method == "initialize":          # the host starts over
            return self.bridge.answer(pending, self.initialize(pending))
        for attempt in (0, 1):
            generation = self.generation
            try:
                answer, _ = self.bridge.exchange(message, self.headers(message), pending, self.resume)
                break
            except _Refused as exc:
                if exc.status != 404 or self.session_id is None or attempt:
                    raise
                self.reopen(generation)
        self._remember(message, answer)
        self.bridge.answer(pending, answer)

    def _remember(self, message: dict, answer: dict) -> None:
        """What a new session must be told again: the log level, the subscriptions."""
        if "result" not in answer:
            return
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        method = message.get("method")
        if method == "logging/setLevel":
            self.level = params.get("level")
        elif method == "resources/subscribe":
            self.subscriptions.add(params.get("uri"))
        elif method == "resources/unsubscribe":
            self.subscriptions.discard(params.get("uri"))

    def reopen(self, generation: int) -> None:
        """The server forgot the session (404): open a new one as the host opened the first."""
        with self.reopen_lock:
            if self.generation != generation or self.bridge.closing.is_set():
                return                                # another request reopened it meanwhile
            _log().warning("the server no longer knows the session (HTTP 404): opening a new one")
            message = dict(self.initialize_message, id=self.bridge.own_id())
            try:
                answer, reply = self.bridge.exchange(message, _request_headers(message, None, {}))
            except _Refused as exc:
                raise UpstreamError("the session expired and the server refused a new one: %s"
                                    % exc.error.get("message"))
            if "error" in answer:
                raise UpstreamError("the session expired and the server refused a new one: %s"
                                    % answer["error"].get("message"))
            version = (answer.get("result") or {}).get("protocolVersion")
            if version != self.version:
                _log().warning("the new session speaks %s, the host's %s", version, self.version)
            self.session_id, self.version = reply.header("Mcp-Session-Id"), version
            self.generation += 1
            self._replay()

    def _replay(self) -> None:
        initialized = _notification("notifications/initialized")
        self.bridge.upstream.request("POST", dict(self.headers(initialized), **_POST_HEADERS),
                                     encode_message(initialized)).close()
        again = []
        if self.level is not None:
            again.append(("logging/setLevel", {"level": self.level}))
        again += [("resources/subscribe", {"uri": uri}) for uri in sorted(self.subscriptions)]
        for method, params in again:
            message = _request(self.bridge.own_id(), method, params)
            try:
                self.bridge.exchange(message, self.headers(message))
            except (_Refused, UpstreamError) as exc:
                _log().warning("could not repeat %s on the new session: %s", method, exc)

    def resume(self, last_event_id: str) -> Reply:
        """GET the rest of a stream that broke off, from the event after ``last_event_id``."""
        headers = dict(self.headers(), **{"Accept": "text/event-stream", "Last-Event-ID": last_event_id})
        return self.bridge.upstream.request("GET", headers)

    def notify(self, message: dict, ticket: int) -> None:
        if "method" not in message:
            with self.bridge.lock:
                self.asked.pop(_id_key(message.get("id")), None)
        self.bridge._start(self._send, message, ticket)

    def _send(self, message: dict, ticket: int) -> None:
        """A notification or an answer of the host's, posted in the host's order.

        After ``notifications/initialized`` the GET stream opens before the host's next
        message goes up (for at most 2 s): what the server sends on it from the start, or
        a stream it resumes there, is not raced by the host's first requests.
        """
        initialized = message.get("method") == "notifications/initialized" and not self.listening
        try:
            reply = self.bridge.send(message, self.headers(message), ticket, keep_turn=initialized)
        except UpstreamError as exc:
            _log().warning("could not pass on %s: %s", message.get("method") or "an answer", exc)
            return
        try:
            if reply.status not in (200, 202):
                _log().warning("the server refused %s: %s", message.get("method") or "an answer",
                               self.bridge.http_error(reply).get("message"))
                return
            reply.close()
            if initialized:
                self.listening = True
                opened = threading.Event()
                self.bridge._start(self.listen, opened)
                opened.wait(2.0)
        finally:
            if initialized:
                self.bridge.turns.release(ticket)

    def listen(self, opened: threading.Event) -> None:
        """The GET stream: what the server says outside requests, reopened until the bridge ends.
        ``opened`` is set once the server first answered the GET (or could not)."""
        try:
            self._listen(opened)
        finally:
            opened.set()

    def _listen(self, opened: threading.Event) -> None:
        bridge, last_id, delay = self.bridge, None, 0.5
        while not bridge.closing.is_set():
            generation = self.generation
            headers = dict(self.headers(), Accept="text/event-stream")
            if last_id is not None:
                headers["Last-Event-ID"] = last_id
            try:
                reply = bridge.upstream.request("GET", headers, interactive=False)
            except UpstreamError as exc:
                opened.set()
                _log().debug("the GET stream cannot reconnect yet: %s", exc)
                bridge.closing.wait(delay)
                delay = min(delay * 2, 30.0)
                continue
            opened.set()
            if reply.status == 404 and self.session_id is not None:
                reply.close()
                try:
                    self.reopen(generation)
                except UpstreamError as exc:
                    _log().warning("%s", exc)
                    bridge.closing.wait(delay)
                    delay = min(delay * 2, 30.0)
                last_id = None
                continue
            if reply.status in (401, 403):       # not signed in (yet): the host's next request signs in
                reply.close()
                _log().debug("the GET stream waits for credentials (HTTP %d)", reply.status)
                bridge.closing.wait(delay)
                delay = min(delay * 2, 30.0)
                continue
            if reply.status != 200 or not reply.is_stream:
                _log().debug("the server offers no GET stream (HTTP %d)", reply.status)
                reply.close()
                return
            self.get_reply = reply
            try:
                for message in reply.messages():
                    bridge.route(message)
                    delay = 0.5
            except UpstreamError as exc:
                _log().debug("the GET stream broke: %s", exc)
            self.get_reply = None
            last_id = reply.last_event_id if self.generation == generation else None
            pause = reply.retry_ms / 1000.0 if reply.retry_ms is not None else delay
            bridge.closing.wait(pause)
            delay = min(delay * 2, 30.0)

    def from_server(self, message: dict) -> None:
        """The server's notifications and requests, as they are; a request the host can no longer
        answer (its input ended) is refused at once, as the server would wait for it."""
        if "id" in message:
            with self.bridge.lock:
                gone = self.bridge.input_closed
                if not gone:
                    self.asked[_id_key(message["id"])] = message["id"]
            if gone:
                return self._refuse(message["id"])
        self.bridge.write(message)

    def input_closed(self) -> None:
        """The host's input ended: refuse the server's requests it has not answered."""
        with self.bridge.lock:
            asked, self.asked = list(self.asked.values()), {}
        for request_id in asked:
            self._refuse(request_id)

    def _refuse(self, request_id) -> None:
        self.notify(_error(request_id, INTERNAL_ERROR, "the host closed its input: it answers no more requests"),
                    self.bridge.turns.take())

    def close(self) -> None:
        reply = self.get_reply
        if reply is not None:
            reply.abort()
        if self.session_id is None:
            return
        done = threading.Event()

        def delete() -> None:            # the spec's goodbye; a server that is gone is not waited for
            try:
                self.bridge.upstream.request("DELETE", self.headers(), interactive=False).close()
            except UpstreamError:
                pass
            done.set()
        self.bridge._start(delete)
        done.wait(2.0)


_POST_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


class _Stateless:
    """The host speaks 2026-07-28 itself: every request goes up as it is, with the headers the
    HTTP transport mirrors from its body; a cancellation closes the request's stream."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge

    def request(self, pending: _Pending) -> None:
        version = _meta(pending.message).get(META_VERSION, STATELESS_VERSION)
        self.bridge.answer(pending, _call_stateless(self.bridge, pending.message, version, pending))

    def notify(self, message: dict, ticket: int) -> None:
        self.bridge.turns.release(ticket)    # 2026-07-28 over HTTP has no client notifications to post
        if message.get("method") != "notifications/cancelled":
            _log().debug("%s is not passed on: 2026-07-28 over HTTP has no such notification",
                         message.get("method") or "an answer")

    def from_server(self, message: dict) -> None:
        if "id" in message:
            _log().warning("the server sent a %s request, which 2026-07-28 does not allow; dropped", message["method"])
            return
        self.bridge.write(message)

    def close(self) -> None:
        pass


def _host_capabilities(capabilities) -> dict:
    """A handshake-era host's capabilities as 2026-07-28 says them (roots lost listChanged; no tasks)."""
    capabilities = dict(capabilities) if isinstance(capabilities, dict) else {}
    capabilities.pop("tasks", None)
    if "roots" in capabilities:
        capabilities["roots"] = {}
    return capabilities


class _Translated:
    """A handshake-era host, a 2026-07-28 server: the bridge speaks each era to its side.

    ``initialize`` is answered from ``server/discover``; each request goes up in the
    2026-07-28 envelope (the host's capabilities and info, its log level); an
    ``input_required`` result becomes the host's sampling, elicitation and roots
    requests, and the request is retried with the answers and the ``requestState``. What
    the handshake era keeps in its session is kept here: the log level (``logging/
    setLevel`` is answered by the bridge), the subscriptions (a ``subscriptions/listen``
    stream stands in for ``resources/subscribe`` and unsolicited list changes), ``ping``.
    Results are shaped for the host's revision; a missing resource's -32602 becomes that
    revision's code.
    """

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.version = LATEST_HANDSHAKE_VERSION
        self.capabilities, self.client_info, self.server = {}, None, {}
        self.level = None
        self.subscriptions = set()
        self.init_result = None
        self.listener = _Listener(self)

    def envelope(self, params) -> dict:
        params = dict(params) if isinstance(params, dict) else {}
        meta = dict(params.get("_meta") or {}) if isinstance(params.get("_meta"), dict) else {}
        meta[META_VERSION] = STATELESS_VERSION
        meta[META_CLIENT_CAPS] = self.capabilities
        if self.client_info is not None:
            meta[META_CLIENT_INFO] = self.client_info
        if self.level is not None:
            meta[META_LOG_LEVEL] = self.level
        params["_meta"] = meta
        return params

    def initialize(self, pending: _Pending, refusal) -> dict:
        """The answer to the host's initialize, made from server/discover."""
        params = pending.message.get("params") if isinstance(pending.message.get("params"), dict) else {}
        requested = params.get("protocolVersion")
        self.version = requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE_VERSION
        self.capabilities = _host_capabilities(params.get("capabilities"))
        self.client_info = params.get("clientInfo") if isinstance(params.get("clientInfo"), dict) else None
        try:
            answer = self._discover(pending)
        except SignInError:
            raise                        # credentials, not the era: the host is told why as it is
        except (_Refused, UpstreamError) as exc:
            if refusal is not None:
                if getattr(exc, "late", False):
                    _log().warning("the server refused initialize, and %s", exc)
                raise refusal            # neither era: the server's answer to initialize is the one to show
            raise _Refused(0, {"code": INTERNAL_ERROR, "message": "the server at %s does not speak %s (%s): drop "
                               "--protocol %s" % (self.bridge.upstream.url, STATELESS_VERSION, exc,
                                                  STATELESS_VERSION)})
        result = answer.get("result")
        if not isinstance(result, dict) or STATELESS_VERSION not in (result.get("supportedVersions") or ()):
            if refusal is not None:
                raise refusal
            raise _Refused(0, answer.get("error") or {"code": INTERNAL_ERROR, "message": "server/discover "
                                                       "does not list %s" % STATELESS_VERSION})
        self.server = result.get("capabilities") if isinstance(result.get("capabilities"), dict) else {}
        self.init_result = self._init_result(result)
        _log().info("connected to %s: it speaks %s, bridged for a host at %s", self.bridge.upstream.url,
                    STATELESS_VERSION, self.version)
        return _response(pending.host_id, self.init_result)

    def _discover(self, pending: _Pending) -> dict:
        """server/discover; refused as an unsupported version that the server itself lists, it is
        asked once more (a server may refuse a first request, as the conformance suite's does)."""
        for attempt in (0, 1):
            discover = _request(self.bridge.own_id(), "server/discover", self.envelope({}))
            try:
                answer, _ = self.bridge.exchange(discover, _request_headers(discover, STATELESS_VERSION, {}), pending,
                                                 probe=True)
                return answer
            except _Refused as exc:
                data = exc.error.get("data") if isinstance(exc.error.get("data"), dict) else {}
                if (attempt or exc.error.get("code") != UNSUPPORTED_PROTOCOL_VERSION
                        or STATELESS_VERSION not in (data.get("supported") or ())):
                    raise

    def _init_result(self, discovered: dict) -> dict:
        rules = REVISIONS[self.version]
        capabilities = {key: value for key, value in self.server.items() if key not in ("extensions", "tasks")}
        if not rules.completions:
            capabilities.pop("completions", None)
        info = (discovered.get("_meta") or {}).get(META_SERVER_INFO) or discovered.get("serverInfo")
        info = _trim("implementation", info, self.version) if isinstance(info, dict) else {
            "name": self.bridge.upstream.host, "version": "unknown"}
        result = {"protocolVersion": self.version, "capabilities": capabilities, "serverInfo": info}
        if isinstance(discovered.get("instructions"), str):
            result["instructions"] = discovered["instructions"]
        return result

    def request(self, pending: _Pending) -> None:
        local = self.LOCAL.get(pending.method)
        if local is not None:
            self.bridge._handed_on(pending)
            return self.bridge.answer(pending, _response(pending.host_id, local(self, pending)))
        method = pending.method
        params = self.envelope(pending.message.get("params"))
        message = _request(pending.host_id, method, params)
        for _ in range(_ROUNDS_LIMIT):
            answer = _call_stateless(self.bridge, message, STATELESS_VERSION, pending)
            result = answer.get("result")
            if not (isinstance(result, dict) and result.get("resultType") == "input_required"):
                return self.bridge.answer(pending, self._shaped(method, answer))
            params = {key: value for key, value in params.items() if key not in ("inputResponses", "requestState")}
            if result.get("inputRequests"):
                params["inputResponses"] = self._ask_host(result["inputRequests"], pending)
            if "requestState" in result:
                params["requestState"] = result["requestState"]
            message = _request(self.bridge.own_id(), method, params)      # a retry is a new request
        raise _Refused(0, {"code": INTERNAL_ERROR, "message": "the server asked for input %d times in a row for one "
                           "%s; the bridge gave up" % (_ROUNDS_LIMIT, method)})

    def _ask_host(self, requests: dict, pending: _Pending) -> dict:
        """Ask the host what the server asks (all at once, as the handshake era's server would), wait."""
        asked = {}
        for key, question in requests.items():
            question = question if isinstance(question, dict) else {}
            asked[key] = self.bridge.ask(question.get("method"), self._question_params(question), pending)
        answers = {}
        try:
            for key, (question_id, slot) in asked.items():
                while not slot.arrived.wait(0.5) and not self.bridge.closing.is_set():
                    pass
                if pending.cancelled or self.bridge.closing.is_set():
                    raise _Cancelled()
                if "error" in slot.answer:
                    error = dict(slot.answer["error"])
                    error["message"] = "the host refused %s: %s" % (requests[key].get("method"), error.get("message"))
                    raise _Refused(0, error)
                answers[key] = slot.answer.get("result")
        except _Cancelled:
            for question_id, slot in asked.values():
                if slot.answer is None:   # the host need not answer what nobody waits for any more
                    self.bridge.forget_question(question_id)
                    self.bridge.write(_notification("notifications/cancelled", {"requestId": question_id}))
            raise
        return answers

    def _question_params(self, question: dict) -> dict:
        params = question.get("params") if isinstance(question.get("params"), dict) else {}
        if (question.get("method") == "elicitation/create" and not REVISIONS[self.version].elicitation_modes
                and params.get("mode") == "form"):
            params = {key: value for key, value in params.items() if key != "mode"}
        return params

    def _shaped(self, method: str, answer: dict) -> dict:
        """A 2026-07-28 answer as the host's revision has it."""
        if "error" in answer:
            error = answer["error"]
            data = error.get("data") if isinstance(error, dict) else None
            if method == "resources/read" and error.get("code") == INVALID_PARAMS and isinstance(data, dict) \
                    and "uri" in data:
                return dict(answer, error=dict(error, code=REVISIONS[self.version].missing_resource))
            return answer
        result = answer.get("result")
        if not isinstance(result, dict):
            return answer
        result = {key: value for key, value in result.items() if key not in ("resultType", "ttlMs", "cacheScope")}
        meta = result.get("_meta")
        if isinstance(meta, dict) and META_SERVER_INFO in meta:
            meta = {key: value for key, value in meta.items() if key != META_SERVER_INFO}
            if meta:
                result["_meta"] = meta
            else:
                del result["_meta"]
        shape = _SHAPES.get(method)
        if shape is not None:
            result = shape(result, self.version)
        return dict(answer, result=result)

    # What the handshake era keeps in its session, answered here.
    def _ping(self, pending: _Pending) -> dict:
        return {}

    def _set_level(self, pending: _Pending) -> dict:
        level = (pending.message.get("params") or {}).get("level")
        if level not in LOG_LEVELS:
            raise _Refused(0, {"code": INVALID_PARAMS, "message": "Invalid params: level must be one of %s"
                               % ", ".join(LOG_LEVELS)})
        self.level = level
        return {}

    def _subscribe(self, pending: _Pending) -> dict:
        uri = (pending.message.get("params") or {}).get("uri")
        if not isinstance(uri, str):
            raise _Refused(0, {"code": INVALID_PARAMS, "message": "Invalid params: uri must be a string"})
        if pending.method == "resources/subscribe":
            self.subscriptions.add(uri)
        else:
            self.subscriptions.discard(uri)
        self.listener.update(wait=pending.method == "resources/subscribe")
        return {}

    def _initialize_again(self, pending: _Pending) -> dict:
        return self.init_result

    LOCAL = {"ping": _ping, "logging/setLevel": _set_level, "resources/subscribe": _subscribe,
             "resources/unsubscribe": _subscribe, "initialize": _initialize_again}

    def notify(self, message: dict, ticket: int) -> None:
        self.bridge.turns.release(ticket)
        if message.get("method") == "notifications/initialized":
            self.listener.update()

    def from_server(self, message: dict) -> None:
        if "id" in message:
            _log().warning("the server sent a %s request, which 2026-07-28 does not allow; dropped", message["method"])
            return
        self.bridge.write(message)       # progress and logs of a request, on its own stream

    def close(self) -> None:
        self.listener.stop()


def _shape_list(key: str, shape):
    def shaped(result: dict, version: str) -> dict:
        items = result.get(key)
        if isinstance(items, list):
            result = dict(result, **{key: [shape(item, version) if isinstance(item, dict) else item
                                           for item in items]})
        return result
    return shaped


def _shape_messages(result: dict, version: str) -> dict:
    messages = result.get("messages")
    if isinstance(messages, list):
        result = dict(result, messages=[dict(m, content=_trim_block(m.get("content"), version))
                                        if isinstance(m, dict) else m for m in messages])
    return result


def _shape_contents(result: dict, version: str) -> dict:
    contents = result.get("contents")
    if isinstance(contents, list):
        result = dict(result, contents=[_trim("contents", c, version) if isinstance(c, dict) else c
                                        for c in contents])
    return result


# Each 2026-07-28 result as a handshake-era revision has it: the core's own shaping, per method.
_SHAPES = {
    "tools/list": _shape_list("tools", _shape_tool),
    "resources/list": _shape_list("resources", _shape_resource),
    "resources/templates/list": _shape_list("resourceTemplates", _shape_resource),
    "prompts/list": _shape_list("prompts", _shape_prompt),
    "tools/call": _shape_tool_result,
    "prompts/get": _shape_messages,
    "resources/read": _shape_contents,
}


class _Listener:
    """The ``subscriptions/listen`` stream that stands in for a handshake-era session's
    unsolicited notifications: list changes the server offers, and the host's subscriptions.

    A change of filter opens a new stream and ends the old one once the new one is
    acknowledged, so nothing falls between them; a stream that drops is reopened, and the
    host is then told the lists may have changed meanwhile.
    """

    def __init__(self, translated: _Translated) -> None:
        self.translated = translated
        self.lock = threading.Lock()
        self.generation = 0              # the newest stream asked for
        self.active = 0                  # the newest stream the server acknowledged
        self.filter = None
        self.replies = {}                # generation -> its Reply

    def wanted(self) -> dict:
        server, wanted = self.translated.server, {}
        for kind, flag in (("tools", "toolsListChanged"), ("prompts", "promptsListChanged"),
                           ("resources", "resourcesListChanged")):
            if isinstance(server.get(kind), dict) and server[kind].get("listChanged"):
                wanted[flag] = True
        resources = server.get("resources") if isinstance(server.get("resources"), dict) else {}
        if self.translated.subscriptions and resources.get("subscribe"):
            wanted["resourceSubscriptions"] = sorted(self.translated.subscriptions)
        return wanted

    def update(self, wait: bool = False) -> None:
        """Listen for what is wanted now; ``wait``: until the server acknowledged it (at most 10 s)."""
        wanted = self.wanted()
        with self.lock:
            if wanted == self.filter:
                return
            self.filter = wanted
            self.generation += 1
            generation = self.generation
            if not wanted:
                self._end_older(generation + 1)
                return
        acknowledged = threading.Event()
        self.translated.bridge._start(self._run, generation, wanted, acknowledged)
        if wait:
            acknowledged.wait(10.0)

    def _end_older(self, generation: int) -> None:
        for older in [g for g in self.replies if g < generation]:
            self.replies.pop(older).abort()

    def _run(self, generation: int, wanted: dict, acknowledged: threading.Event) -> None:
        bridge, delay, reopened = self.translated.bridge, 0.5, False
        while not bridge.closing.is_set() and self.generation == generation:
            message = _request(bridge.own_id(), "subscriptions/listen",
                               self.translated.envelope({"notifications": wanted}))
            try:
                reply = bridge.post(message, _request_headers(message, STATELESS_VERSION, {}))
                if reply.status != 200:
                    _log().warning("the server refused subscriptions/listen: %s", bridge.http_error(reply).get("message"))
                    acknowledged.set()
                    return
                with self.lock:
                    self.replies[generation] = reply
                for item in reply.messages():
                    if self._on_message(item, generation, acknowledged, reopened):
                        delay = 0.5
            except UpstreamError as exc:
                _log().debug("the subscriptions/listen stream broke: %s", exc)
            with self.lock:
                self.replies.pop(generation, None)
            reopened = True
            bridge.closing.wait(delay)
            delay = min(delay * 2, 30.0)

    def _on_message(self, message: dict, generation: int, acknowledged: threading.Event, reopened: bool) -> bool:
        if not isinstance(message, dict) or "method" not in message:
            return False                 # the listen's own result: the server ended it
        method = message["method"]
        if method == "notifications/subscriptions/acknowledged":
            with self.lock:
                self.active = max(self.active, generation)
                self._end_older(generation)
            acknowledged.set()
            if reopened:                  # what changed while no stream was open is unknown
                for flag, kind in (("toolsListChanged", "tools"), ("promptsListChanged", "prompts"),
                                   ("resourcesListChanged", "resources")):
                    if self.filter and self.filter.get(flag):
                        self.translated.bridge.write(_notification("notifications/%s/list_changed" % kind))
            return True
        if generation < self.active:
            return True                   # a newer stream speaks now
        params = message.get("params") if isinstance(message.get("params"), dict) else None
        if method == "notifications/resources/updated" and (params or {}).get("uri") not in self.translated.subscriptions:
            return True                   # unsubscribed meanwhile
        if params is not None and isinstance(params.get("_meta"), dict) and META_SUBSCRIPTION in params["_meta"]:
            meta = {key: value for key, value in params["_meta"].items() if key != META_SUBSCRIPTION}
            params = dict(params, _meta=meta) if meta else {k: v for k, v in params.items() if k != "_meta"}
            message = dict(message, params=params) if params else {"jsonrpc": "2.0", "method": method}
        self.translated.bridge.write(message)
        return True

    def stop(self) -> None:
        with self.lock:
            self.generation += 1
            self._end_older(self.generation + 1)


# The host's side: stdin and stdout ##########################################

class _HostWriter:
    """Writes whole JSON-RPC lines to the host, one at a time; a host that left turns it off."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.lock = threading.Lock()
        self.closed = False

    def __call__(self, message: dict) -> None:
        data = encode_message(message)
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write(data)
                self.stream.flush()
            except (OSError, ValueError):
                self.closed = True


def serve(bridge: Bridge, instream) -> None:
    """Read the host's lines until its end (EOF, SIGTERM, its death), handing each to ``bridge``."""
    reader = _LineReader(instream, DEFAULT_MAX_MESSAGE_SIZE)
    while True:
        line = reader.readline()
        if line is None:
            return
        if isinstance(line, _Oversized):
            bridge.write(_error(line.request_id, INVALID_REQUEST, "Invalid Request: the message is longer than %d "
                                "bytes" % DEFAULT_MAX_MESSAGE_SIZE))
            continue
        if not line.strip():
            continue
        message, error = _decode_line(line)
        if error is not None:
            bridge.write(error)
            continue
        bridge.handle(message)


# The bridge's command line: python3 minimcp.py bridge URL [options] ##########

_BRIDGE_USAGE = """\
usage: python3 minimcp.py bridge URL [options]   (or: python3 minimcp_bridge.py URL [options])

A stdio MCP server that is the remote Streamable HTTP server at URL: give it to a host
as you would any stdio server.

options:
  --header "Name: value"   a header on every request (repeatable); ${NAME} is replaced by
                           that environment variable, so secrets stay out of the command line
  --header-file FILE       headers, one "Name: value" a line (# comments), ${NAME} expanded
  --protocol P             auto (default): mirror a handshake-era server, translate for a
                           2026-07-28-only one; handshake; 2026-07-28 (bridge a
                           handshake-era host to the server's 2026-07-28)
  --ca-file FILE           trust these CAs (PEM) besides the system's store
  --connect-timeout S      seconds to connect: TCP, the proxy's tunnel, TLS (default 10; 0: no
                           limit). Also how long server/discover may go unanswered when it tells
                           which era the server speaks (--protocol auto or 2026-07-28)
  --idle-timeout S         seconds an answer or stream may stay silent (default 300; 0: no limit);
                           progress and keep-alives count, so a long call that reports is never cut.
                           Also how long the answers still due get once stdin ends (0: 300)
  --retry-for S            seconds to retry a refused connection (default 10)
  -v, --verbose            log each exchange on stderr (header names, never values)
  -q, --quiet              log only failures

Signing in (OAuth 2.1, when the server answers 401 and no Authorization header is given):
  --client-id ID           a client registered with the authorization server beforehand
  --client-secret '${NAME}'  its secret, from that environment variable (never in argv)
  --client-secret-file FILE  its secret, from the file's first line
  --client-metadata-url URL  an https URL of this client's metadata document, used as its
                           client_id where the authorization server accepts them
  --client-credentials     sign in as the client itself (machine to machine, no browser;
                           needs --client-id and a secret)
  --callback-port N        the loopback port the browser is sent back to (default: any
                           free port, remembered with the client's registration)
  --login-timeout S        seconds to wait for the sign-in in the browser (default 300)
  --oauth-dir DIR          where sign-ins are kept (default: MINIMCP_OAUTH_DIR, else
                           minimcp/oauth in the user's config folder: ~/.config, or
                           ~/Library/Application Support, or %LOCALAPPDATA%)
  --logout                 forget (and revoke) the sign-ins to URL, then exit

The proxy comes from the OS (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; the Windows and macOS
settings). TLS certificates are always verified. The browser is the system's; BROWSER
chooses another.
"""

_VALUED = ("--header", "--header-file", "--protocol", "--ca-file", "--connect-timeout", "--idle-timeout",
           "--retry-for", "--client-id", "--client-secret", "--client-secret-file", "--client-metadata-url",
           "--callback-port", "--login-timeout", "--oauth-dir")
_FLAGS = ("--client-credentials", "--logout")


def _bridge_arguments(argv: list) -> tuple:
    """(url, options) from the command line; SystemExit with the usage on a mistake."""
    url, options = None, {"--header": []}
    index = 0
    while index < len(argv):
        word = argv[index]
        name, sep, inline = word.partition("=")
        if name in _VALUED:
            if sep:
                value = inline
            elif index + 1 < len(argv):
                index += 1
                value = argv[index]
            else:
                raise SystemExit("minimcp bridge: %s needs a value\n\n%s" % (name, _BRIDGE_USAGE))
            if name == "--header":
                options["--header"].append(value)
            else:
                options[name] = value
        elif word in ("-v", "--verbose", "-q", "--quiet"):
            options["level"] = "debug" if word in ("-v", "--verbose") else "warning"
        elif word in _FLAGS:
            options[word] = True
        elif word.startswith("-") and word != "-":
            raise SystemExit("minimcp bridge: unknown option %s\n\n%s" % (word, _BRIDGE_USAGE))
        elif url is None:
            url = word
        else:
            raise SystemExit("minimcp bridge: one URL only (got %s and %s)" % (url, word))
        index += 1
    if url is None:
        raise SystemExit(_BRIDGE_USAGE)
    return url, options


def _seconds(options: dict, name: str, default: float) -> float:
    try:
        value = float(options.get(name, default))
    except ValueError:
        raise SystemExit("minimcp bridge: %s takes seconds, not %r" % (name, options[name]))
    if value < 0:
        raise SystemExit("minimcp bridge: %s takes seconds >= 0" % name)
    return value


def _setup_logging(level: str) -> None:
    _log().level = _Stderr.LEVELS.get(level, _Stderr.LEVELS["info"])


def build(argv: list) -> tuple:
    """The bridge's parts from the command line: (Upstream, protocol)."""
    url, options = _bridge_arguments(argv)
    _setup_logging(options.get("level", "info"))
    pairs = []
    try:
        for text in options["--header"]:
            pairs.append(parse_header(text))
        if "--header-file" in options:
            pairs += read_header_file(options["--header-file"])
        provider = StaticHeaders(pairs)
        if any(name.lower() == "authorization" for name, _ in pairs):
            if any(name in options for name in _OAUTH_OPTIONS):
                raise ValueError("an Authorization header and OAuth's options exclude each other")
        else:
            provider = _oauth_from(url, options, provider)
        upstream = Upstream(url, provider, ca_file=options.get("--ca-file"),
                            connect_timeout=_seconds(options, "--connect-timeout", 10.0),
                            idle_timeout=_seconds(options, "--idle-timeout", 300.0),
                            retry_for=_seconds(options, "--retry-for", 10.0))
    except (ValueError, OSError) as exc:
        raise SystemExit("minimcp bridge: %s" % exc)
    protocol = options.get("--protocol", "auto")
    if protocol not in Bridge.PROTOCOLS:
        raise SystemExit("minimcp bridge: --protocol is one of %s, not %r" % (", ".join(Bridge.PROTOCOLS), protocol))
    if pairs:
        _log().info("sending the headers %s (values not shown)", ", ".join(name for name, _ in pairs))
    return upstream, protocol


_OAUTH_OPTIONS = ("--client-id", "--client-secret", "--client-secret-file", "--client-metadata-url",
                  "--client-credentials", "--callback-port", "--login-timeout")


def _client_secret(options: dict, environ=None):
    """The client secret from --client-secret '${NAME}' or --client-secret-file, never argv itself."""
    if "--client-secret" in options and "--client-secret-file" in options:
        raise ValueError("--client-secret and --client-secret-file exclude each other")
    if "--client-secret" in options:
        text = options["--client-secret"]
        if "${" not in text:
            raise ValueError("--client-secret takes '${NAME}', the environment variable that holds the secret: a "
                             "secret in the command line is visible to every user of the machine")
        return expand_environment(text, environ)
    if "--client-secret-file" in options:
        path = options["--client-secret-file"]
        with open(path, encoding="utf-8") as handle:
            secret = handle.readline().strip()
        if not secret:
            raise ValueError("%s is empty: it should hold the client secret" % path)
        if os.name == "posix" and os.stat(path).st_mode & 0o077:
            _log().warning("%s can be read by other users; it holds a secret: chmod 600 %s", path, path)
        return secret
    return None


def _oauth_from(url: str, options: dict, base: HeaderProvider) -> "OAuth":
    """The OAuth provider the command line asks for (checked before anything is sent)."""
    from urllib.parse import urlsplit
    client_id, secret = options.get("--client-id"), _client_secret(options)
    if secret is not None and not client_id:
        raise ValueError("a client secret needs its --client-id")
    if options.get("--client-credentials") and not (client_id and secret):
        raise ValueError("--client-credentials needs --client-id and a secret (--client-secret-file)")
    metadata_url = options.get("--client-metadata-url")
    if metadata_url is not None:
        parts = urlsplit(metadata_url)
        if parts.scheme != "https" or parts.path in ("", "/") or parts.fragment:
            raise ValueError("--client-metadata-url must be an https URL with a path (where the client's metadata "
                             "document is), not %r" % metadata_url)
    port = options.get("--callback-port", "0")
    if not port.isdigit() or int(port) > 65535:
        raise ValueError("--callback-port takes a port number, not %r" % port)
    return OAuth(url, base, folder=options.get("--oauth-dir"), client_id=client_id, client_secret=secret,
                 client_metadata_url=metadata_url, client_credentials=bool(options.get("--client-credentials")),
                 callback_port=int(port), login_timeout=_seconds(options, "--login-timeout", LOGIN_TIMEOUT))


def _sign_out(argv: list) -> int:
    """``URL --logout``: forget the sign-ins to URL (revoked where the server allows)."""
    url, options = _bridge_arguments(argv)
    _setup_logging(options.get("level", "info"))
    try:
        secret = _client_secret(options)
        context = tls_context(options.get("--ca-file"))
    except (ValueError, OSError) as exc:
        raise SystemExit("minimcp bridge: %s" % exc)
    folder = options.get("--oauth-dir") or default_oauth_dir()
    removed = logout(url, folder, _OAuthHttp(context, 10.0), secret)
    for path in removed:
        _log().warning("signed out of %s: removed %s", url, path)
    if not removed:
        _log().warning("no sign-in to %s is kept in %s", url, folder)
    return 0


def bridge_main(argv: list = None) -> int:
    """``python3 minimcp.py bridge URL [options]`` (or ``python3 minimcp_bridge.py URL``): bridge this
    process's stdio to URL until the host leaves; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(word in ("-h", "--help") for word in argv):
        sys.stdout.write(_BRIDGE_USAGE)
        return 0
    if "--logout" in argv:
        return _sign_out(argv)
    upstream, protocol = build(argv)
    parent = os.getppid()
    with _OwnedStdio() as (instream, outstream):
        bridge = Bridge(upstream, _HostWriter(outstream), protocol)
        try:
            serve(bridge, instream)
            # The host closed stdin (it may still read stdout): the answers on their way are its.
            bridge.drain(upstream.idle_timeout or DRAIN_TIMEOUT, lambda: os.getppid() == parent)
        except _Terminated:
            pass                         # SIGTERM: the host wants the bridge gone now
        finally:
            bridge.close()
    return 0


_plug("bridge", "a stdio bridge to a remote Streamable HTTP server: python3 minimcp.py bridge URL")

if __name__ == "__main__":
    sys.exit(bridge_main())
