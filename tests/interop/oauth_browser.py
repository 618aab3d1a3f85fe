#!/usr/bin/env python3
"""A stand-in for a person at a browser, for the bridge's sign-in: ``BROWSER=.../oauth_browser.py``.

The bridge opens its sign-in URL with Python's ``webbrowser``, which runs ``$BROWSER URL`` and
waits for it. This script does what the person would: it follows the authorization server's
redirects and, where a page is a login form (the SDK's simple-auth demo shows one, filled in
with its demo account), submits it as it is, until the redirect reaches the bridge's loopback
callback. Standard library only.

Environment:
    OAUTH_BROWSER_LOG   a file to which each URL opened is appended (one line each): tests
                        count the browser tabs from it.
    OAUTH_BROWSER_MODE  ``follow`` (the default): sign in; ``record``: only log the URL (a
                        person who has not finished yet; the test finishes it later with
                        ``follow(url)``).
"""

import html.parser
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


class _Forms(html.parser.HTMLParser):
    """The first form of a page: its action, method and input values."""

    def __init__(self) -> None:
        super().__init__()
        self.form = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.form is None:
            self.form = {"action": attrs.get("action") or "", "method": (attrs.get("method") or "get").lower(),
                         "fields": {}}
        elif tag == "input" and self.form is not None and attrs.get("name"):
            self.form["fields"][attrs["name"]] = attrs.get("value") or ""


def _no_proxy_opener():
    """Every URL here is on loopback: no proxy (the sandbox's or CI's) in the way."""
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _open(opener, request) -> tuple:
    """(page, its URL): an error status is a page too, as a browser shows it."""
    try:
        response = opener.open(request, timeout=30)
    except urllib.error.HTTPError as exc:
        response = exc
    with response:
        return response.read().decode("utf-8", "replace"), response.geturl()


def follow(url: str) -> str:
    """Open ``url`` as a browser would: redirects followed, a login form submitted; the last page."""
    opener = _no_proxy_opener()
    page, where = _open(opener, url)
    for _ in range(3):                   # a login form, then perhaps a consent form
        forms = _Forms()
        forms.feed(page)
        if forms.form is None:
            return page
        form = forms.form
        target = urllib.parse.urljoin(where, form["action"])
        data = urllib.parse.urlencode(form["fields"]).encode("ascii")
        if form["method"] == "post":
            request = urllib.request.Request(target, data=data)
        else:
            request = urllib.request.Request(target + ("&" if "?" in target else "?") + data.decode("ascii"))
        page, where = _open(opener, request)
    return page


def main(argv: list) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: oauth_browser.py URL\n")
        return 2
    url = argv[0]
    log = os.environ.get("OAUTH_BROWSER_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(url + "\n")
    if os.environ.get("OAUTH_BROWSER_MODE", "follow") == "record":
        return 0
    try:
        follow(url)
    except Exception as exc:             # noqa: BLE001 - a browser shows an error page, it does not crash
        sys.stderr.write("oauth_browser: %s: %s\n" % (url, exc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
