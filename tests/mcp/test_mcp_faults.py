"""Contracts edited, deleted and renamed on disk while clients call the server (in-memory clients,
the real watcher on real files, the edits made by another process).

"Consistent" here means: every answer comes from one version of one contract (see
``tests.support.mcp_faults``: each version states its number four ways, and the test knows every version's
hashes), a client that asks again never sees an older version than it saw before, no call fails
because a reload was running, and once the edits stop, what is served is what a fresh load of the
folder gives.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

import json_contracts.contracts.store as store_module
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.mcp.log import Logger
from json_contracts.mcp.watch import watch_contracts
from tests.support import mcp_faults
from tests.support.mcp import Served, ServeFactory
from tests.support.mcp_faults import CHURN, STABLE, Versions, contract_text, seed_files, versioned

pytestmark = pytest.mark.anyio

STEPS = 120  # edits in the burst; a step takes a few milliseconds, a broken save up to 0.2 s


def error_answer(result: Any) -> Any:
    """What a failed call answered: the JSON of its text, which is all it carries (an error has no
    structured content: it would not match the tool's outputSchema). Structured content found
    beside it is returned too, so that no expected error compares equal."""
    data = json.loads(result.content[0].text)
    if result.structured_content is not None:
        return {"text": data, "structuredContent": result.structured_content}
    return data


class Checker:
    """Checks each answer against the versions written; collects every problem found."""

    def __init__(self, versions: Versions) -> None:
        self.editor = versions
        self.problems: list[str] = []
        self.answers = 0
        self.broken_seen = 0  # reloads that met a file mid-write: the case under test did happen

    def version_of(self, name: str, version: int, label: str) -> int:
        if (name, version) not in self.editor.known:
            self.problems.append(f"{label}: {name} version {version} was never written")
        return version

    def contract_answer(self, name: str, result: Any) -> int | None:
        """A ``get_json_contract`` answer: one version throughout; its number (None for churn)."""
        self.answers += 1
        if result.is_error:
            error = error_answer(result)
            if name in CHURN and error == {"error": f"Contract not found: {name}"}:
                return None
            self.problems.append(f"get_json_contract {name} failed: {error}")
            return None
        data = result.structured_content
        hashes = (data["contractHash"], data["schemaHash"])
        if name in CHURN:
            if hashes != self.editor.churn_hashes[name]:
                self.problems.append(f"{name}: hashes {hashes} do not match its body")
            return None
        version = int(data["rules"][0].split()[1])
        seen = (
            data["description"],
            data["schema"]["properties"]["n"]["maximum"],
            data["examples"][0]["output"]["n"],
            hashes,
        )
        expected = (f"{name} version {version}", version, version, self.editor.known.get((name, version)))
        if seen != expected:
            self.problems.append(f"{name}: a mixed answer {seen} for version {version}")
        return self.version_of(name, version, "get_json_contract")

    def validation_answer(self, name: str, result: Any) -> int | None:
        """A ``validate_json`` answer for ``{"n": 10**9}``: the error names the version's maximum."""
        self.answers += 1
        if result.is_error:
            error = error_answer(result)
            if not (name in CHURN and error == {"error": f"Contract not found: {name}"}):
                self.problems.append(f"validate_json {name} failed: {error}")
            return None
        data = result.structured_content
        if name in CHURN:
            if data != {"valid": True, "contract": name, "json": {"n": 10**9}, "errors": []}:
                self.problems.append(f"validate_json {name}: {data}")
            return None
        errors = data["errors"]
        if data["valid"] or len(errors) != 1 or not errors[0]["message"].startswith("must be <= "):
            self.problems.append(f"validate_json {name}: {data}")
            return None
        return self.version_of(name, int(errors[0]["message"].rsplit(" ", 1)[1]), "validate_json")

    def status_answer(self, result: Any) -> None:
        self.answers += 1
        if result.is_error:
            self.problems.append(f"status failed: {error_answer(result)}")
            return
        data = result.structured_content
        names = [c["name"] for c in data["contracts"]]
        if data["loaded"] != len(names) or not set(STABLE) <= set(names):
            self.problems.append(f"status: {data}")
            return
        for contract in data["contracts"]:
            name = contract["name"]
            hashes = (contract["contractHash"], contract["schemaHash"])
            if name in CHURN:
                if hashes != self.editor.churn_hashes[name]:
                    self.problems.append(f"status: {name} {hashes}")
            elif hashes not in {h for (n, _), h in self.editor.known.items() if n == name}:
                self.problems.append(f"status: {name} is served at a version never written")

    def reload_answer(self, result: Any) -> None:
        self.answers += 1
        # A reload that found a file mid-write says so (the TypeScript server's message); that is its answer,
        # not a failure caused by the reload. Anything else is.
        if result.is_error:
            error = error_answer(result)
            if list(error) == ["error"] and error["error"].startswith("Failed to load JSON contracts: "):
                self.broken_seen += 1
            else:
                self.problems.append(f"reload_contracts: {error}")


async def _client_loop(client: Client, checker: Checker, done: anyio.Event, seed: int) -> None:
    """One agent: mixed calls, each contract's version never going backwards for this client."""
    chooser = random.Random(seed)
    last_seen: dict[str, int] = {}
    while not done.is_set():
        name = chooser.choice(STABLE + CHURN)
        if chooser.random() < 0.5:
            result = await client.call_tool("get_json_contract", {"contract": name, "input": "x"})
            version = checker.contract_answer(name, result)
        else:
            result = await client.call_tool("validate_json", {"contract": name, "json": {"n": 10**9}})
            version = checker.validation_answer(name, result)
        if version is not None:
            if version < last_seen.get(name, 0):
                checker.problems.append(f"{name}: version {version} after version {last_seen[name]}")
            last_seen[name] = version
        if chooser.random() < 0.2:
            checker.status_answer(await client.call_tool("status", {}))


async def _reloader_loop(client: Client, checker: Checker, done: anyio.Event) -> None:
    while not done.is_set():
        checker.reload_answer(await client.call_tool("reload_contracts", {}))
        await anyio.sleep(0.03)


async def _served_set(client: Client) -> dict[str, str]:
    listed = await client.call_tool("list_contracts", {})
    return {c["name"]: c["contractHash"] for c in listed.structured_content["contracts"]}


def _folder_set(folder: Path) -> dict[str, str]:
    result = load_contracts(folder)
    assert result.ok, result.failures
    return {name: contract.contract_hash for name, contract in result.contracts.items()}


async def _until(check: Callable[[], Any], seconds: float = 15.0) -> None:
    with anyio.fail_after(seconds):
        while not await check():
            await anyio.sleep(0.05)


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads often, so a reload thread interleaves with answers on the loop's thread."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.parametrize("watching", [True, False], ids=["watcher-and-tool", "tool-only"])
async def test_a_burst_of_edits_never_yields_a_mixed_or_failed_answer(
    serve: ServeFactory, watching: bool, busy_switching: None
) -> None:
    served = serve(seed_files(), watch=watching)
    versions = Versions(served.folder, STEPS)
    checker = Checker(versions)
    done = anyio.Event()

    with anyio.fail_after(120):
        async with AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(served.client()) for _ in range(6)]
            async with anyio.create_task_group() as group:
                if watching:
                    group.start_soon(watch_contracts, served.server, served.service.settings, Logger())
                    await anyio.sleep(0.3)  # let the OS watch arm
                for seed, client in enumerate(clients[:5]):
                    group.start_soon(_client_loop, client, checker, done, seed)
                group.start_soon(_reloader_loop, clients[5], checker, done)
                # -P: tests/support (with its mcp.py) must not shadow the MCP SDK on the script's sys.path
                editor = [sys.executable, "-P", mcp_faults.__file__, str(served.folder), str(STEPS), "8"]
                await anyio.run_process(editor, stdout=None, stderr=None)
                done.set()

                if watching:  # no explicit reload: the watcher alone must reach the folder's state
                    expected = _folder_set(served.folder)

                    async def settled() -> bool:
                        return await _served_set(clients[0]) == expected

                    await _until(settled)
                else:
                    checker.reload_answer(await clients[0].call_tool("reload_contracts", {}))
                    assert await _served_set(clients[0]) == _folder_set(served.folder)
                final = await clients[0].call_tool("status", {})
                group.cancel_scope.cancel()

    assert checker.problems == []
    assert checker.answers > 200
    assert checker.broken_seen > 0
    assert final.structured_content is not None
    assert final.structured_content["failures"] == []
    assert {c["name"] for c in final.structured_content["contracts"]} >= set(STABLE)


async def test_a_reload_through_the_tool_never_stalls_other_calls(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reload reads and compiles every changed file; run on the event loop it would hold up
    # every other client until it finished (with 1,000 contracts, for seconds).
    reading = threading.Event()
    others_answered = threading.Event()
    held: list[bool] = []

    def slow_load(*args: Any, **kwargs: Any) -> LoadResult:
        reading.set()
        held.append(others_answered.wait(10))  # False if nothing else could be answered meanwhile
        return load_contracts(*args, **kwargs)

    monkeypatch.setattr(store_module, "load_contracts", slow_load)
    async with served.client() as reloading, served.client() as other:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(reloading.call_tool, "reload_contracts", {})
                while not reading.is_set():
                    await anyio.sleep(0.01)
                answer = await other.call_tool("validate_json", {"contract": "no-ops", "json": {"n": 1}})
                others_answered.set()

    assert answer.structured_content == {"valid": True, "contract": "no-ops", "json": {"n": 1}, "errors": []}
    assert held == [True]


# --- the folder itself, with the real watcher -------------------------------------------------------


async def _status(client: Client) -> dict[str, Any]:
    status: dict[str, Any] = (await client.call_tool("status", {})).structured_content
    return status


async def _wait_for_status(client: Client, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    with anyio.fail_after(15):
        while not check(status := await _status(client)):
            await anyio.sleep(0.05)
    return status


def _codes(status: dict[str, Any]) -> list[str]:
    return [failure["code"] for failure in status["failures"]]


async def test_a_folder_deleted_before_the_watcher_starts_is_seen_at_once(serve: ServeFactory) -> None:
    """The folder can go between the load at start-up and the watcher's first look (a busy machine);
    the watcher then serves what is there, nothing, instead of the load's contracts until it returns."""
    served = serve({"ticket.json": versioned("ticket", 1)}, watch=True)
    shutil.rmtree(served.folder)
    async with anyio.create_task_group() as group, served.client() as client:
        group.start_soon(watch_contracts, served.server, served.service.settings, Logger())
        status = await _wait_for_status(client, lambda s: _codes(s) == ["JC002"])
        assert status["loaded"] == 0
        group.cancel_scope.cancel()


async def test_the_folder_deleted_replaced_and_restored_under_the_watcher(serve: ServeFactory) -> None:
    served = serve({"ticket.json": versioned("ticket", 1)}, watch=True)
    folder = served.folder
    async with anyio.create_task_group() as group, served.client() as client:
        group.start_soon(watch_contracts, served.server, served.service.settings, Logger())
        await anyio.sleep(0.3)

        # Deleted: nothing served, and status says why.
        shutil.rmtree(folder)
        status = await _wait_for_status(client, lambda s: _codes(s) == ["JC002"])
        assert status["loaded"] == 0
        missing = await client.call_tool("validate_json", {"contract": "ticket", "json": {"n": 1}})
        assert missing.is_error is True
        assert error_answer(missing) == {"error": "Contract not found: ticket"}

        # Back again: picked up without any call from the client.
        folder.mkdir()
        (folder / "ticket.json").write_text(contract_text(versioned("ticket", 2)), encoding="utf-8")
        status = await _wait_for_status(client, lambda s: s["loaded"] == 1 and s["failures"] == [])

        # Replaced by a file: still serving version 2, status says the folder cannot be read. (The
        # swap is made while no reload can run, so none sees the instant with no folder at all.)
        with served.store._reload_lock:
            shutil.rmtree(folder)
            folder.write_text("a file now", encoding="utf-8")
        status = await _wait_for_status(client, lambda s: _codes(s) == ["JC003"])
        assert "Not a directory" in status["failures"][0]["message"]
        assert status["loaded"] == 1

        # A folder again, swapped in by rename (the old one moved aside): the new one is watched.
        folder.unlink()
        staging = folder.with_name("staging")
        staging.mkdir()
        (staging / "ticket.json").write_text(contract_text(versioned("ticket", 3)), encoding="utf-8")
        os.rename(staging, folder)
        await _wait_for_status(client, lambda s: s["failures"] == [] and "version 3" in json.dumps(s))

        (folder / "extra.json").write_text(contract_text(versioned("extra", 1)), encoding="utf-8")
        status = await _wait_for_status(client, lambda s: s["loaded"] == 2)
        valid = await client.call_tool("validate_json", {"contract": "ticket", "json": {"n": 3}})
        assert valid.structured_content["valid"] is True
        group.cancel_scope.cancel()


async def test_the_watcher_outlives_a_reload_that_raises(serve: ServeFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    served = serve({"ticket.json": versioned("ticket", 1)}, watch=True)
    failures = iter([OSError(5, "Input/output error")])

    def flaky_load(*args: Any, **kwargs: Any) -> LoadResult:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return load_contracts(*args, **kwargs)

    monkeypatch.setattr(store_module, "load_contracts", flaky_load)
    with anyio.fail_after(30):
        async with anyio.create_task_group() as group, served.client() as client:
            group.start_soon(watch_contracts, served.server, served.service.settings, Logger())
            await anyio.sleep(0.3)
            (served.folder / "ticket.json").write_text(contract_text(versioned("ticket", 2)), encoding="utf-8")
            await anyio.sleep(0.6)  # the failing reload has run (and the catch-up reload may have too)
            (served.folder / "extra.json").write_text(contract_text(versioned("extra", 1)), encoding="utf-8")
            await _wait_for_status(client, lambda s: s["loaded"] == 2)
            group.cancel_scope.cancel()
