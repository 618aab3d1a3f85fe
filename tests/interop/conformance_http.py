"""Serve examples/conformance.py over minimcp's own Streamable HTTP transport, for run_conformance.sh.

    [CONFORMANCE_DIALECT=mcp2|none|...] [CONFORMANCE_SERVER=uvicorn] python3 tests/interop/conformance_http.py URL_FILE

The fixture is served in the dialect CONFORMANCE_DIALECT names (see its docstring), on the
stdlib server (``app.run(transport="http")``), or with CONFORMANCE_SERVER=uvicorn as
``app.asgi`` on uvicorn (which the interpreter running this must have).

Binds a free loopback port (port 0, so two runs never race for one), and once the socket
listens writes ``http://127.0.0.1:PORT/mcp`` to URL_FILE: the script waits for that file
instead of guessing when the server is up. Serves until it is killed.
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "examples"))

from conformance import app  # noqa: E402  (the fixture itself, unchanged)


def main(argv: list) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    url_file = argv[1]

    def announce(port: int) -> None:
        # Written whole under another name, then renamed: the waiting script never reads half a URL.
        with open(url_file + ".tmp", "w", encoding="utf-8") as handle:
            handle.write("http://127.0.0.1:%d/mcp\n" % port)
        os.replace(url_file + ".tmp", url_file)

    if os.environ.get("CONFORMANCE_SERVER") == "uvicorn":
        return serve_on_uvicorn(announce)
    app.run(transport="http", host="127.0.0.1", port=0, ready=lambda httpd: announce(httpd.server_address[1]))
    return 0


def serve_on_uvicorn(announce) -> int:
    """``app.asgi`` on uvicorn, port 0; the port it bound is announced once it listens."""
    import asyncio
    import uvicorn
    server = uvicorn.Server(uvicorn.Config(app.asgi, host="127.0.0.1", port=0, log_level="warning"))

    async def serve() -> None:
        serving = asyncio.ensure_future(server.serve())
        while not server.started:
            if serving.done():
                return serving.result()
            await asyncio.sleep(0.05)
        announce(server.servers[0].sockets[0].getsockname()[1])
        await serving
    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
