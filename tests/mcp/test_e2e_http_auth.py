"""Who gets in over HTTP: the token only in the ``Authorization`` header, and no DNS rebinding.

A real server process on loopback. A token anywhere else (the query string, under any of the
usual names) is not a token; a request naming another host, or sent from another origin, is
refused even with the right token, so a web page that rebinds its name to 127.0.0.1 cannot
reach the tools.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests.support.mcp import INITIALIZE, TOKEN, free_port, http_env


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("auth") / "json-contracts"
    folder.mkdir()
    (folder / "note.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    chosen = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(chosen)],
        env=http_env(folder, API_AUTH_TOKEN=TOKEN),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _status(chosen, "", {}) is None:
        time.sleep(0.05)
    try:
        yield chosen
    finally:
        process.terminate()
        process.wait(timeout=10)


def _status(port: int, query: str, headers: dict[str, str]) -> int | None:
    """The HTTP status of an ``initialize`` POST (None if nothing listens yet)."""
    sent = {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp{query}", data=json.dumps(INITIALIZE).encode(), headers=sent, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


BEARER = {"authorization": f"Bearer {TOKEN}"}


@pytest.mark.parametrize("name", ["token", "access_token", "api_key", "API_AUTH_TOKEN", "authorization"])
def test_a_token_in_the_query_string_is_not_accepted(port: int, name: str) -> None:
    assert _status(port, f"?{name}={TOKEN}", {}) == 401
    assert _status(port, f"?{name}=Bearer%20{TOKEN}", {"authorization": "Bearer wrong"}) == 401


@pytest.mark.parametrize("header", ["x-api-key", "api-key", "cookie", "proxy-authorization"])
def test_a_token_in_another_header_is_not_accepted(port: int, header: str) -> None:
    assert _status(port, "", {header: TOKEN}) == 401


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{}", "127.0.0.1.evil.example", "localhost.evil.example:80"]
)
def test_a_rebound_host_name_is_refused_even_with_the_token(port: int, host: str) -> None:
    assert _status(port, "", {**BEARER, "host": host.format(port)}) == 421


@pytest.mark.parametrize("origin", ["http://evil.example", "https://127.0.0.1.evil.example", "null"])
def test_a_foreign_origin_is_refused_even_with_the_token(port: int, origin: str) -> None:
    assert _status(port, "", {**BEARER, "origin": origin}) == 403


def test_the_token_with_a_loopback_host_and_origin_gets_in(port: int) -> None:
    assert _status(port, "", {**BEARER, "host": f"localhost:{port}", "origin": f"http://127.0.0.1:{port}"}) == 200


# --- the scheme is case-insensitive; one or more spaces before the token --------------------------


@pytest.mark.parametrize(
    "value", [f"bearer {TOKEN}", f"BEARER {TOKEN}", f"BeArEr {TOKEN}", f"Bearer  {TOKEN}", f"bearer    {TOKEN}"]
)
def test_the_scheme_is_matched_without_regard_to_case(port: int, value: str) -> None:
    assert _status(port, "", {"authorization": value}) == 200


@pytest.mark.parametrize(
    "value",
    [
        f"Bearer\t{TOKEN}",  # the grammar separates scheme and token with spaces only
        f"Bearer{TOKEN}",
        f"Bearer {TOKEN} {TOKEN}",
        f"Bearer {TOKEN.upper()}",  # the token itself is compared exactly
        f"Basic {TOKEN}",
        f"Bearers {TOKEN}",
        "Bearer",
        TOKEN,
    ],
)
def test_anything_else_is_still_refused(port: int, value: str) -> None:
    assert _status(port, "", {"authorization": value}) == 401


# --- no OAuth here: discovery finds nothing, with or without the token ----------------------------

WELL_KNOWN = [
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-authorization-server/mcp",
    "/.well-known/openid-configuration",
    "/mcp/.well-known/openid-configuration",
    "/.well-known/anything/else",
]


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers, method="GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("path", WELL_KNOWN)
@pytest.mark.parametrize("headers", [{}, BEARER, {"authorization": "Bearer wrong"}], ids=["none", "token", "wrong"])
def test_oauth_discovery_answers_404(port: int, path: str, headers: dict[str, str]) -> None:
    status, answered, body = _get(port, path, headers)

    assert status == 404
    assert "www-authenticate" not in {k.lower() for k in answered}
    assert json.loads(body) == {
        "error": "Not found: this server does not use OAuth; send Authorization: Bearer <API_AUTH_TOKEN>."
    }


def test_the_endpoint_itself_still_needs_the_token(port: int) -> None:
    assert _get(port, "/mcp", {"accept": "text/event-stream"})[0] == 401
    assert _status(port, "", {}) == 401
