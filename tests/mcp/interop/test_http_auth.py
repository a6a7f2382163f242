"""The bearer-token gate as the TypeScript SDK client meets it: refused without the token, served
with it whatever the scheme's case, and no OAuth discovery document to send a host down that path."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.mcp.interop.support import HttpServer, drive, http_scenario
from tests.support.mcp import TOKEN

STATUS = [{"op": "callTool", "name": "status", "arguments": {}}]


def test_the_ts_client_without_the_token_gets_401(node_modules: Path, http: HttpServer) -> None:
    report = drive(node_modules, http_scenario(http.url, STATUS, token=None))

    assert report["connected"] is False
    assert report["error"]["code"] == 401


def test_the_ts_client_with_a_wrong_token_gets_401(node_modules: Path, http: HttpServer) -> None:
    report = drive(node_modules, http_scenario(http.url, STATUS, token=TOKEN + "x"))

    assert report["connected"] is False
    assert report["error"]["code"] == 401


@pytest.mark.parametrize("scheme", ["Bearer", "bearer"])
def test_the_ts_client_with_the_token_is_served(node_modules: Path, http: HttpServer, scheme: str) -> None:
    report = drive(node_modules, http_scenario(http.url, STATUS, scheme=scheme))

    assert report["connected"], report.get("error")
    [status] = report["steps"]
    assert status["ok"], status
    assert status["value"]["structuredContent"]["server"] == "json-contracts"


@pytest.mark.parametrize("token", [None, TOKEN])
@pytest.mark.parametrize("path", ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"])
def test_there_is_no_oauth_protected_resource_document(http: HttpServer, path: str, token: str | None) -> None:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    request = urllib.request.Request(f"http://127.0.0.1:{http.port}{path}", headers=headers)
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=20)
    caught.value.close()  # the error holds the open response
    assert caught.value.code == 404
