"""A tiny ASGI 3 server on asyncio's streams, for the tests: HTTP requests in, the app's responses out.

It speaks just enough HTTP/1.1 for ``http.client``: one request per connection (every
response says ``Connection: close``, so a stream without Content-Length ends with the
connection), a body of Content-Length bytes, and ``http.disconnect`` once the client
closes its side. It sends the app ``lifespan.startup`` before serving and
``lifespan.shutdown`` at ``close()``, and records what the app answered to each.
Nothing of uvicorn's: the interop stage (tests/interop/run_asgi.sh) runs the real servers.
"""

import asyncio
import threading


class ASGIServer:
    """``app`` served on a free port of 127.0.0.1 by an event loop on a thread of its own."""

    def __init__(self, app, lifespan: bool = True) -> None:
        self.app, self.lifespan = app, lifespan
        self.lifespan_events = []            # what the app sent back for lifespan
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.started.wait(10), "the ASGI test server did not start"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self.started.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        self.startup_failed = False
        self.lifespan_inbox = asyncio.Queue()
        if self.lifespan:
            self.lifespan_task = self.loop.create_task(self._lifespan())
            await self.lifespan_inbox.put({"type": "lifespan.startup"})
            answer = await self._lifespan_answer()
            self.startup_failed = answer["type"] != "lifespan.startup.complete"
            if self.startup_failed:              # a real server exits here: nothing listens
                self.server = None
                return
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _lifespan(self) -> None:
        self.lifespan_outbox = asyncio.Queue()

        async def receive():
            return await self.lifespan_inbox.get()

        async def send(message):
            self.lifespan_events.append(message)
            await self.lifespan_outbox.put(message)
        await self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)

    async def _lifespan_answer(self) -> dict:
        while not hasattr(self, "lifespan_outbox"):
            await asyncio.sleep(0)
        return await asyncio.wait_for(self.lifespan_outbox.get(), 30)

    async def _connection(self, reader, writer) -> None:
        try:
            await self._serve_one(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def _serve_one(self, reader, writer) -> None:
        line = await reader.readline()
        if not line:
            return
        method, target, version = line.decode("latin-1").split()
        headers = []
        while True:
            field = await reader.readline()
            if field in (b"\r\n", b"\n", b""):
                break
            name, _, value = field.decode("latin-1").partition(":")
            headers.append((name.strip().lower().encode("latin-1"), value.strip().encode("latin-1")))
        length = int(dict(headers).get(b"content-length", b"0") or 0)
        body = await reader.readexactly(length) if length else b""
        peer = writer.get_extra_info("peername")
        path, _, query = target.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": version.split("/")[1],
                 "method": method, "scheme": "http", "path": path, "raw_path": path.encode("latin-1"),
                 "query_string": query.encode("latin-1"), "root_path": "", "headers": headers,
                 "server": ("127.0.0.1", self.port), "client": (peer[0], peer[1])}
        delivered = False

        async def receive():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            while await reader.read(65536):      # anything more (none is expected), then the close
                pass
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                head = ["HTTP/1.1 %d X" % message["status"]]
                head += ["%s: %s" % (name.decode("latin-1"), value.decode("latin-1"))
                         for name, value in message.get("headers", [])]
                head.append("Connection: close")
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
            elif message["type"] == "http.response.body":
                writer.write(message.get("body", b""))
            await writer.drain()
        await self.app(scope, receive, send)

    def close(self) -> None:
        async def stop():
            if self.server is not None:
                self.server.close()
            if self.lifespan and not self.startup_failed:
                await self.lifespan_inbox.put({"type": "lifespan.shutdown"})
                await self._lifespan_answer()
            others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in others:          # connections a test left open: ended here, not at garbage collection
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
