"""A stdio MCP server written without minimcp, shaped like the third-party ones (issue 18).

It speaks only the handshake revisions (``server/discover`` is ``Method not found``),
like the official everything server and most servers in the wild, and has their habits:

* ``--late-roots``: 0.3 s after ``notifications/initialized``, when the client declared
  roots, it asks ``roots/list``; at stdin EOF it will not exit while that is unanswered.
* ``--ask-at-eof``: at stdin EOF it pings the client and waits for an answer forever.
* ``--answer-cancelled``: a cancelled ``long-op`` still answers (with an error), which
  the specification says a server should not do.
* ``--traceback-on-cancel``: a cancelled ``long-op`` writes a Python traceback on stderr,
  as a server whose handler lets an exception escape does.
* ``--in-turn``: ``long-op`` calls run one after another, on the thread that reads stdin,
  as in a server without threads.
* ``--runs-on-cancel``: a cancelled ``long-op`` runs on to its end, reporting progress, and
  only leaves out its answer.

Tools: ``long-op(duration, steps)`` sleeps ``duration`` seconds (on a thread, so calls
overlap, and cancellable), with progress; ``greet(name: string, formal?: boolean|null)``
logs a ``notifications/message`` and greets; ``roots`` asks ``roots/list`` in-band.
"""

import json
import sys
import threading
import time

LATE_ROOTS = "--late-roots" in sys.argv
ASK_AT_EOF = "--ask-at-eof" in sys.argv
ANSWER_CANCELLED = "--answer-cancelled" in sys.argv
TRACEBACK_ON_CANCEL = "--traceback-on-cancel" in sys.argv
IN_TURN = "--in-turn" in sys.argv
RUNS_ON_CANCEL = "--runs-on-cancel" in sys.argv

TOOLS = [
    {"name": "long-op", "description": "A long operation",
     "inputSchema": {"type": "object", "properties": {
         "duration": {"type": "number", "default": 10, "description": "Duration of the operation in seconds"},
         "steps": {"type": "number", "default": 5}}}},
    {"name": "greet", "description": "Greet someone",
     "inputSchema": {"type": "object", "properties": {
         "name": {"type": "string"},
         "formal": {"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": None}},
         "required": ["name"]}},
    {"name": "roots", "description": "List the client's roots",
     "inputSchema": {"type": "object", "properties": {}}},
]

lock = threading.Lock()
waiting = {}                 # our request id -> Event, set when the client answers
answers = {}
cancelled = set()
client_caps = {}
next_id = [0]


def write(message):
    with lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def ask(method, params=None):
    """Send a request to the client; return (id, event set on its answer)."""
    with lock:
        next_id[0] += 1
        request_id = "s%d" % next_id[0]
        event = waiting[request_id] = threading.Event()
    write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
    return request_id, event


def long_op(request_id, arguments, token):
    duration, steps = float(arguments.get("duration", 10)), int(arguments.get("steps", 5))
    for step in range(steps):
        deadline = time.monotonic() + duration / steps
        while time.monotonic() < deadline:
            if request_id in cancelled and not RUNS_ON_CANCEL:
                if TRACEBACK_ON_CANCEL:
                    import traceback
                    try:
                        raise RuntimeError("long-op %s was cancelled" % request_id)
                    except RuntimeError:
                        traceback.print_exc()
                        sys.stderr.flush()
                if ANSWER_CANCELLED:
                    write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32800, "message": "cancelled"}})
                return
            time.sleep(0.01)
        if token is not None:
            write({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": token, "progress": step + 1, "total": steps}})
    if request_id in cancelled:
        return
    write({"jsonrpc": "2.0", "id": request_id,
           "result": {"content": [{"type": "text", "text": "finished %s s" % duration}]}})


def call(request_id, params):
    name, arguments = params.get("name"), params.get("arguments") or {}
    token = (params.get("_meta") or {}).get("progressToken")
    if name == "long-op" and IN_TURN:
        long_op(request_id, arguments, token)
        return
    if name == "long-op":
        threading.Thread(target=long_op, args=(request_id, arguments, token), daemon=True).start()
        return
    if name == "greet":
        if not isinstance(arguments.get("name"), str):
            write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "name must be a string"}})
            return
        write({"jsonrpc": "2.0", "method": "notifications/message",
               "params": {"level": "info", "logger": "greeter", "data": "greeting " + arguments["name"]}})
        greeting = ("Good day, %s." if arguments.get("formal") else "Hi %s!") % arguments["name"]
        write({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": greeting}]}})
        return
    if name == "roots":
        def wait():
            asked, event = ask("roots/list")
            event.wait(10)
            roots = (answers.get(asked) or {}).get("result", {}).get("roots", [])
            write({"jsonrpc": "2.0", "id": request_id,
                   "result": {"content": [{"type": "text", "text": " ".join(r["uri"] for r in roots)}]}})
        threading.Thread(target=wait, daemon=True).start()
        return
    write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "Unknown tool: %s" % name}})


late = []
late_timers = []


def main():
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method is None:                                  # an answer to one of our requests
            with lock:
                answers[request_id] = message
                event = waiting.pop(request_id, None)
            if event:
                event.set()
            continue
        if method == "initialize":
            client_caps.update(message["params"].get("capabilities") or {})
            write({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}, "logging": {}}, "serverInfo": {"name": "handshake-only", "version": "1"}}})
        elif method == "notifications/initialized":
            if LATE_ROOTS and "roots" in client_caps:
                def later():
                    time.sleep(0.3)                             # like a timer in the server
                    late.append(ask("roots/list")[1])
                timer = threading.Thread(target=later, daemon=True)
                timer.start()
                late_timers.append(timer)
        elif method == "notifications/cancelled":
            cancelled.add(message["params"]["requestId"])
        elif method == "tools/list":
            write({"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            call(request_id, message["params"])
        elif method == "ping":
            write({"jsonrpc": "2.0", "id": request_id, "result": {}})
        elif request_id is not None:
            write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}})
    if ASK_AT_EOF:
        ask("ping")[1].wait()                                   # forever: the answer can't come
    for timer in late_timers:                                   # a pending timer keeps it alive
        timer.join()
    for event in late:
        event.wait()                                            # the everything server's habit


if __name__ == "__main__":
    main()
