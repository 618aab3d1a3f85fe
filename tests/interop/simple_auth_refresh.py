"""The SDK's simple-auth demo authorization server, with refresh tokens and short-lived access tokens.

    python simple_auth_refresh.py PORT SECONDS

The demo (``examples/servers/simple-auth`` of the mcp sdist, installed by run_bridge_oauth.sh)
issues no refresh tokens: its ``load_refresh_token`` returns None ("not supported in this
example"). To prove that the bridge refreshes an expired access token without a browser,
this runs the demo's own authorization server (its routes, its login page, the SDK's token
endpoint and client authentication) with its provider taught refresh tokens: access tokens
that live SECONDS, refresh tokens rotated on each use. Nothing else changes.
"""

import asyncio
import secrets
import sys
import time

from pydantic import AnyHttpUrl

import mcp_simple_auth.auth_server as demo
from mcp.server.auth.provider import AccessToken, RefreshToken
from mcp.shared.auth import OAuthToken


def refreshing_provider(lifetime: int):
    class RefreshingProvider(demo.SimpleAuthProvider):
        """The demo's provider, plus refresh tokens (rotated) and access tokens of ``lifetime`` seconds."""

        refresh_tokens = {}

        def _issue(self, client_id: str, scopes: list, resource, subject) -> OAuthToken:
            access, refresh = "mcp_" + secrets.token_hex(32), "mcp_refresh_" + secrets.token_hex(32)
            self.tokens[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                              expires_at=int(time.time()) + lifetime, resource=resource,
                                              subject=subject)
            self.refresh_tokens[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                                        resource=resource, subject=subject)
            return OAuthToken(access_token=access, token_type="Bearer", expires_in=lifetime,
                              scope=" ".join(scopes), refresh_token=refresh)

        async def exchange_authorization_code(self, client, authorization_code) -> OAuthToken:
            issued = await super().exchange_authorization_code(client, authorization_code)   # the demo's checks
            self.tokens.pop(issued.access_token, None)                              # replaced by ours
            return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource,
                               authorization_code.subject)

        async def load_refresh_token(self, client, refresh_token: str):
            return self.refresh_tokens.get(refresh_token)

        async def exchange_refresh_token(self, client, refresh_token, scopes) -> OAuthToken:
            del self.refresh_tokens[refresh_token.token]                            # rotated: single use
            return self._issue(client.client_id, scopes, refresh_token.resource, refresh_token.subject)
    return RefreshingProvider


def main(port: int, lifetime: int) -> None:
    demo.SimpleAuthProvider = refreshing_provider(lifetime)        # what create_authorization_server builds
    url = "http://localhost:%d" % port
    settings = demo.AuthServerSettings(host="localhost", port=port, server_url=AnyHttpUrl(url),
                                       auth_callback_path=url + "/login")
    asyncio.run(demo.run_server(settings, demo.SimpleAuthSettings()))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
