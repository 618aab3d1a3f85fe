#!/usr/bin/env python3
"""Serve an example over minimcp's Streamable HTTP for the HTTP interop stages, recording the wire.

Usage (stdlib only, any Python minimcp supports; --asgi needs uvicorn):

    python3 http_server.py --port-file FILE [--logs DIR] [--asgi] [SCRIPT]

SCRIPT (default examples/everything.py) is imported as a module and its
``MCPServer`` object ``app`` is served with ``app.run(transport="http",
host="127.0.0.1", port=0)``, exactly as a user would; the kernel picks a free
port, which is written to FILE (atomically, once the socket listens), so the
caller never races another process for a port.

With ``--logs DIR`` the WSGI app is wrapped in a recorder that writes every
JSON-RPC message of each exchange, in the format of the stdio tee in
python_sdk_client.py ({"d": "c2s"|"s2c", "t", "raw", "utf8", "nl"}), plus an
``http`` member with the request method, the response status and the
Content-Type (for answers to a POST, "for": the id of the request it carried; for requests, the Mcp-Session-Id, MCP-Protocol-Version,
Mcp-Method and Mcp-Name headers the client sent), so schema_check.py and the client checks can read it unchanged.
Messages go to DIR/<name>.jsonl, where <name> is the value of the client's
``X-Interop-Log`` header (one file per client connection, as the stdio stages
have); requests without it are passed on unrecorded. The recorder only
observes: bodies and response chunks are passed on unchanged, and the
response iterable's close() is forwarded, so a client that goes away still
cancels its request. Each response ends with a record {"d": "end", "id": the request's id,
"complete": bool}: false when the server closed the response before its iterable ran out,
i.e. the client went away.

With ``--asgi`` the script's ``app.asgi`` is served by uvicorn instead (the port likewise
picked by the kernel), behind ``ASGIRecorder``, which writes the same records ("complete":
false when the client went away before the response's last byte).
"""

import json
import os
import re
import sys
import threading
import time


class Recorder:
    """WSGI middleware that logs the JSON-RPC messages of every POST body and every response."""

    def __init__(self, app, logdir: str) -> None:
        self.app, self.logdir = app, logdir
        self.lock = threading.Lock()
        os.makedirs(logdir, exist_ok=True)

    def write(self, name: str, direction: str, raw: bytes, http: dict) -> None:
        text = raw.decode("utf-8", "replace")
        try:
            raw.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            utf8 = False
        # "nl": HTTP has no line framing; a message is a body or an SSE event, always complete
        rec = {"d": direction, "t": time.monotonic(), "raw": text, "utf8": utf8, "nl": True, "http": http}
        self.write_record(name, rec)

    def write_record(self, name: str, rec: dict) -> None:
        with self.lock:
            with open(os.path.join(self.logdir, name + ".jsonl"), "a", encoding="utf-8") as log:
                log.write(json.dumps(rec, ensure_ascii=True) + "\n")

    def __call__(self, environ, start_response):
        import io
        if "HTTP_X_INTEROP_LOG" not in environ:        # a probe of the harness itself: not a client's wire
            return self.app(environ, start_response)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", environ["HTTP_X_INTEROP_LOG"])[:80] or "unnamed"
        method = environ.get("REQUEST_METHOD", "")
        if method == "POST":
            try:
                length = int(environ.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            body = environ["wsgi.input"].read(length) if length else b""
            environ["wsgi.input"] = io.BytesIO(body)
            try:
                rid = json.loads(body).get("id")
            except (ValueError, AttributeError):
                rid = None
            if body.strip():
                sent = {"method": method}
                for key, header in (("HTTP_MCP_SESSION_ID", "session"), ("HTTP_MCP_PROTOCOL_VERSION", "version"),
                                    ("HTTP_MCP_METHOD", "mcp-method"), ("HTTP_MCP_NAME", "mcp-name")):
                    if key in environ:
                        sent[header] = environ[key]
                self.write(name, "c2s", body.strip(), sent)
        seen = {"id": rid} if method == "POST" else {}

        def recording_start_response(status, headers, exc_info=None):
            seen["status"] = status
            seen["type"] = next((v for k, v in headers if k.lower() == "content-type"), None)
            seen["session"] = next((v for k, v in headers if k.lower() == "mcp-session-id"), None)
            return start_response(status, headers) if exc_info is None else start_response(status, headers, exc_info)

        result = self.app(environ, recording_start_response)
        return self._relay(result, name, method, seen)

    def _relay(self, result, name: str, method: str, seen: dict):
        buffer = b""
        complete = False
        try:
            for chunk in result:
                http = {"method": method, "status": seen.get("status"), "type": seen.get("type")}
                if "id" in seen:
                    http["for"] = seen["id"]          # the id of the request this POST carried
                if seen.get("session"):
                    http["session"] = seen["session"]
                if (seen.get("type") or "").startswith("text/event-stream"):
                    buffer += chunk
                    while b"\n\n" in buffer:
                        event, buffer = buffer.split(b"\n\n", 1)
                        data = [line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:")]
                        if data:
                            self.write(name, "s2c", b"\n".join(data), dict(http, sse=True))
                elif chunk.strip():
                    self.write(name, "s2c", chunk.strip(), http)
                yield chunk
            complete = True
        finally:
            # "end": whether the app's iterable ran out (complete) or the server closed it early,
            # as it does when the client goes away (the 2026-07-28 cancellation signal)
            self.write_record(name, {"d": "end", "t": time.monotonic(), "complete": complete,
                                     "id": seen.get("id"), "http": {"method": method, "status": seen.get("status")}})
            close = getattr(result, "close", None)
            if close is not None:
                close()


class ASGIRecorder(Recorder):
    """The same records, as ASGI middleware: the body is read whole, logged, and handed on."""

    async def __call__(self, scope, receive, send):
        import http
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
        if scope["type"] != "http" or "x-interop-log" not in headers:
            return await self.app(scope, receive, send)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", headers["x-interop-log"])[:80] or "unnamed"
        method, body, seen, gone = scope["method"], b"", {}, []
        if method == "POST":
            while True:
                message = await receive()
                body += message.get("body", b"")
                if message["type"] != "http.request" or not message.get("more_body"):
                    break
            try:
                seen["id"] = json.loads(body).get("id")
            except (ValueError, AttributeError):
                seen["id"] = None
            if body.strip():
                sent = {"method": method}
                for header, key in (("mcp-session-id", "session"), ("mcp-protocol-version", "version"),
                                    ("mcp-method", "mcp-method"), ("mcp-name", "mcp-name")):
                    if header in headers:
                        sent[key] = headers[header]
                self.write(name, "c2s", body.strip(), sent)
        delivered = [method != "POST"]

        async def replay():
            if not delivered[0]:
                delivered[0] = True
                return {"type": "http.request", "body": body, "more_body": False}
            message = await receive()
            if message["type"] == "http.disconnect":
                gone.append(True)
            return message
        buffer = [b""]
        finished = [False]

        async def recording_send(message):
            if message["type"] == "http.response.start":
                found = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in message.get("headers", [])}
                seen["status"] = "%d %s" % (message["status"], http.HTTPStatus(message["status"]).phrase)   # as WSGI says it
                seen["type"], seen["session"] = found.get("content-type"), found.get("mcp-session-id")
            elif message["type"] == "http.response.body":
                self.relay_chunk(name, method, seen, buffer, message.get("body", b""))
                finished[0] = not message.get("more_body", False)
            await send(message)
        try:
            await self.app(scope, replay, recording_send)
        finally:
            self.write_record(name, {"d": "end", "t": time.monotonic(), "complete": finished[0] and not gone,
                                     "id": seen.get("id"), "http": {"method": method, "status": seen.get("status")}})

    def relay_chunk(self, name: str, method: str, seen: dict, buffer: list, chunk: bytes) -> None:
        http = {"method": method, "status": seen.get("status"), "type": seen.get("type")}
        if "id" in seen:
            http["for"] = seen["id"]
        if seen.get("session"):
            http["session"] = seen["session"]
        if (seen.get("type") or "").startswith("text/event-stream"):
            buffer[0] += chunk
            while b"\n\n" in buffer[0]:
                event, buffer[0] = buffer[0].split(b"\n\n", 1)
                data = [line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:")]
                if data:
                    self.write(name, "s2c", b"\n".join(data), dict(http, sse=True))
        elif chunk.strip():
            self.write(name, "s2c", chunk.strip(), http)


def serve_asgi(app, logs, port_file: str) -> int:
    """``app.asgi`` (behind ASGIRecorder with ``logs``) on uvicorn, on a port the kernel picks."""
    import asyncio
    import uvicorn
    served = ASGIRecorder(app.asgi, logs) if logs else app.asgi
    server = uvicorn.Server(uvicorn.Config(served, host="127.0.0.1", port=0, log_level="warning"))

    async def serve():
        serving = asyncio.ensure_future(server.serve())
        while not server.started:
            if serving.done():
                return serving.result()
            await asyncio.sleep(0.05)
        tmp = port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % server.servers[0].sockets[0].getsockname()[1])
        os.replace(tmp, port_file)
        await serving
    asyncio.run(serve())
    return 0


def main(argv: list) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--logs")
    parser.add_argument("--asgi", action="store_true", help="serve app.asgi on uvicorn")
    parser.add_argument("script", nargs="?", default="examples/everything.py")
    args = parser.parse_args(argv)

    import importlib.util
    spec = importlib.util.spec_from_file_location("interop_fixture", os.path.abspath(args.script))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    app = module.app

    if args.asgi:
        return serve_asgi(app, args.logs, args.port_file)
    if args.logs:
        plain = app.wsgi_app
        app.wsgi_app = lambda **options: Recorder(plain(**options), args.logs)

    def ready(httpd) -> None:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % httpd.server_address[1])
        os.replace(tmp, args.port_file)

    import signal
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    app.run(transport="http", host="127.0.0.1", port=0, ready=ready)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
