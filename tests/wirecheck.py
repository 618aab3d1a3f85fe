"""What a valid server output line is: shared by the pytest harness and the stand-alone fuzzer
(which must run without pytest installed)."""

import json


def check_line(line: bytes):
    """Assert a server line is one well-formed JSON-RPC message; return it parsed."""
    assert line.endswith(b"\n"), "line without a final newline: %r" % line[:200]
    assert not line.endswith(b"\r\n"), "CRLF line ending"
    assert b"\n" not in line[:-1]
    text = line.decode("utf-8")
    message = json.loads(text)
    for item in message if isinstance(message, list) else [message]:
        assert isinstance(item, dict), item
        assert item.get("jsonrpc") == "2.0", item
        if "method" not in item:
            assert ("result" in item) != ("error" in item), item
            assert "id" in item, item
            if "error" in item:
                assert isinstance(item["error"].get("code"), int) and isinstance(item["error"].get("message"), str)
    return message
