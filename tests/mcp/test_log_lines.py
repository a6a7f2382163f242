"""The stderr line format of :class:`json_contracts.mcp.log.Logger`, as the TypeScript server wrote it.

Its logger appended the detail after a space: an error's message, a string as it is, anything else
as ``JSON.stringify`` writes it (compact, non-ASCII raw), or ``[unserializable metadata]``.
"""

from __future__ import annotations

import pytest

from json_contracts.mcp.log import Logger


@pytest.mark.parametrize(
    ("meta", "tail"),
    [
        (None, ""),
        ("b.json", " b.json"),
        (OSError("disk gone"), " disk gone"),
        ({"files": ["a.json", "ü.json"], "n": 1.0}, ' {"files":["a.json","ü.json"],"n":1}'),
        ([1, {"2": 0, "a": None}], ' [1,{"2":0,"a":null}]'),
        ({1, 2}, " [unserializable metadata]"),
    ],
)
def test_the_detail_is_written_as_the_typescript_server_wrote_it(
    capsys: pytest.CaptureFixture[str], meta: object, tail: str
) -> None:
    Logger().warn("Something happened", meta)
    assert capsys.readouterr().err == f"[json-contracts] warn: Something happened{tail}\n"
