"""Streamable HTTP (the http component): one app, on the standard library's server or a WSGI one.

    python3 examples/http_server.py                    # http://127.0.0.1:8000/mcp
    PORT=0 python3 examples/http_server.py             # any free port; stderr says which
    gunicorn --chdir examples --threads 8 'http_server:app'

Loopback only by default (the Host and Origin checks answer 421 and 403 otherwise); set
MINIMCP_HTTP_TOKEN, or pass auth= to wsgi_app(), before serving anyone else. Ctrl-C or
SIGTERM stops accepting, lets requests in flight finish, and answers them all.
"""

import os
import sys
import threading

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Context, MCPServer  # noqa: E402

app = MCPServer("http-demo", version="1.0.0",
                instructions="A counter shared by every client of this process.")
_lock = threading.Lock()
_count = [0]


@app.tool()
def count(ctx: Context, by: int = 1) -> str:
    """Add to the counter every HTTP client of this process shares, and say who asked.

    Args:
        by: how much to add
    """
    with _lock:
        _count[0] += by
        total = _count[0]
    who = ctx.client_info.get("name", "a client")
    return "%s made it %d (protocol %s)" % (who, total, ctx.protocol_version)


if __name__ == "__main__":
    app.run(transport="http", port=int(os.environ.get("PORT", "8000")))
