"""The floor: a bare standard-library MCP echo server (no framework).

Reads newline-delimited JSON-RPC on stdin and answers just enough for the
benchmark: initialize, ping, tools/list, tools/call echo, server/discover, and
the 2026-07-28 per-request envelope (resultType / cache hints).  Single
threaded, no validation beyond what the benchmark needs.  Not a usable server;
it exists so every other figure can be expressed as a ratio against it.

Environment: MCPBENCH_TOOLS=N registers N extra filler tools (tools/list sweep).
"""
import json
import os
import sys

MODERN = "2026-07-28"
LEGACY = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
INFO = {"name": "bare-echo", "version": "0"}

TOOLS = [{
    "name": "echo",
    "description": "Echo the text back.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                    "required": ["text"]},
}]
for _i in range(int(os.environ.get("MCPBENCH_TOOLS", "0") or 0)):
    TOOLS.append({
        "name": "filler_%05d" % _i,
        "description": "Filler tool number %d." % _i,
        "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}},
                        "required": ["x"]},
    })


def main():
    out = sys.stdout.buffer
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            out.write(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n')
            out.flush()
            continue
        if "id" not in msg or "method" not in msg:
            continue                      # notifications and stray responses
        method = msg["method"]
        params = msg.get("params") or {}
        meta = params.get("_meta") or {}
        modern = meta.get("io.modelcontextprotocol/protocolVersion") == MODERN
        error = None
        result = None
        if method == "initialize":
            want = params.get("protocolVersion")
            result = {"protocolVersion": want if want in LEGACY else LEGACY[0],
                      "capabilities": {"tools": {}}, "serverInfo": INFO}
        elif method == "server/discover":
            result = {"supportedVersions": [MODERN] + list(LEGACY),
                      "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": TOOLS}
            if modern:
                result["ttlMs"] = 0
                result["cacheScope"] = "public"
        elif method == "tools/call":
            if params.get("name") == "echo":
                text = (params.get("arguments") or {}).get("text")
                result = {"content": [{"type": "text", "text": text}], "isError": False}
            else:
                error = {"code": -32602, "message": "Unknown tool"}
        else:
            error = {"code": -32601, "message": "Method not found"}
        if result is not None and modern:
            result["resultType"] = "complete"
            result["_meta"] = {"io.modelcontextprotocol/serverInfo": INFO}
        reply = {"jsonrpc": "2.0", "id": msg["id"]}
        if error is None:
            reply["result"] = result
        else:
            reply["error"] = error
        out.write(dumps(reply).encode("utf-8") + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
