"""ContractStore under faults: reloads racing readers and each other, and a folder that goes away.

A reader on one thread and reloads on another (as the server runs them) must never see a
half-applied reload, a reload that started later must never be undone by one that read the
folder earlier, and a folder that cannot be listed must not take served contracts away.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import json_contracts.contracts.store as store_module
import json_contracts.schema.compiled as schema_module
from json_contracts._json.hashing import sha256_of
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.contracts.store import ContractStore
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect


def _write(folder: Path, name: str, maximum: int = 1) -> None:
    body = {"schema": {"type": "object", "properties": {"n": {"type": "integer", "maximum": maximum}}}}
    (folder / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads as often as the interpreter allows, so races show within a few hundred rounds."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_readers_never_see_a_half_applied_reload(tmp_path: Path, busy_switching: None) -> None:
    for i in range(30):
        _write(tmp_path, f"c{i:02}")
    store = ContractStore.open(tmp_path)
    done = threading.Event()

    def churn() -> None:
        try:
            for round_ in range(300):
                path = tmp_path / f"c{round_ % 30:02}.json"
                if path.exists():
                    path.unlink()
                else:
                    _write(tmp_path, path.stem)
                store.reload()
        finally:
            done.set()

    problems: list[str] = []
    reloader = threading.Thread(target=churn)
    reloader.start()
    while not done.is_set():
        try:
            listed = store.sorted_contracts()  # a name from one set must never be looked up in the next
            if len(listed) > 30:
                problems.append(f"{len(listed)} contracts listed from a folder of at most 30")
        except KeyError as exc:  # a name from one set looked up in the next
            problems.append(f"KeyError {exc}")
    reloader.join()

    assert problems == []
    assert store.names() == sorted(p.stem for p in tmp_path.glob("*.json"))


def test_a_reload_that_started_later_is_never_undone_by_an_earlier_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "first")
    store = ContractStore.open(tmp_path)
    first_has_read = threading.Event()
    release_first = threading.Event()
    calls = iter(range(100))

    def slow_first_load(*args: Any, **kwargs: Any) -> LoadResult:
        result = load_contracts(*args, **kwargs)
        if next(calls) == 0:  # the first reload has read the folder; hold it before it applies
            first_has_read.set()
            release_first.wait(10)
        return result

    monkeypatch.setattr(store_module, "load_contracts", slow_first_load)
    early = threading.Thread(target=store.reload)
    early.start()
    assert first_has_read.wait(10)
    _write(tmp_path, "second")  # the folder changes after the first reload read it
    late = threading.Thread(target=store.reload)
    late.start()
    late.join(0.5)  # without serialised reloads, the later one finishes here with both files
    release_first.set()
    early.join(10)
    late.join(10)

    assert store.names() == ["first", "second"]


def test_the_compile_cache_survives_threads_evicting_each_others_entries(
    monkeypatch: pytest.MonkeyPatch, busy_switching: None
) -> None:
    monkeypatch.setattr(schema_module, "_CACHE", {})
    monkeypatch.setattr(schema_module, "_CACHE_LIMIT", 4)
    errors: list[str] = []

    def compile_many(offset: int) -> None:
        for i in range(1500):
            schema: dict[str, Any] = {"type": "object", "maxProperties": (i * 7 + offset) % 12}
            try:
                compiled = compile_schema(schema, str(detect_dialect(schema)), cache_key=sha256_of(schema))
                assert cast("dict[str, Any]", compiled.validator.schema)["maxProperties"] == schema["maxProperties"]
            except Exception as exc:  # a KeyError from an entry evicted between check and read
                errors.append(repr(exc))

    workers = [threading.Thread(target=compile_many, args=(k,)) for k in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert errors == []
    assert len(schema_module._CACHE) <= 4 + len(workers)


# --- the folder itself -----------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> tuple[Path, ContractStore]:
    folder = tmp_path / "contracts"
    folder.mkdir()
    _write(folder, "alpha")
    _write(folder, "beta")
    return folder, ContractStore.open(folder)


def _codes(store: ContractStore) -> list[str]:
    return [record["code"] for record in store.failure_records()]


def test_a_deleted_folder_serves_nothing_says_so_and_recovers(served: tuple[Path, ContractStore]) -> None:
    folder, store = served
    shutil.rmtree(folder)

    gone = store.reload()
    assert gone.changed is True
    assert store.names() == []
    assert _codes(store) == ["JC002"]
    record = store.failure_records()[0]
    assert record["file"] == str(folder)
    assert "does not exist" in record["message"]

    folder.mkdir()
    _write(folder, "gamma")
    back = store.reload()
    assert back.changed is True
    assert store.names() == ["gamma"]
    assert store.failure_records() == []


def test_a_folder_replaced_by_a_file_keeps_serving_and_recovers(served: tuple[Path, ContractStore]) -> None:
    folder, store = served
    before = dict(store.contracts)
    shutil.rmtree(folder)
    folder.write_text("not a folder", encoding="utf-8")

    outcome = store.reload()
    assert outcome.changed is False
    assert "Not a directory" in str(outcome.message)
    assert dict(store.contracts) == before  # the same contract objects: nothing taken away
    assert _codes(store) == ["JC003"]

    folder.unlink()
    folder.mkdir()
    _write(folder, "alpha", maximum=2)
    store.reload()
    assert store.names() == ["alpha"]
    assert store.contracts["alpha"].schema["properties"]["n"]["maximum"] == 2
    assert store.failure_records() == []


def test_an_unreadable_folder_keeps_serving_and_recovers(
    served: tuple[Path, ContractStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Root reads any folder whatever its mode, so the denial is injected where the loader lists
    # it; tests/mcp/test_e2e_folder_faults.py uses a real chmod 000 when not running as root.
    folder, store = served
    before = dict(store.contracts)
    real_scandir = os.scandir

    def denied(path: Any) -> Any:
        if Path(path) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", denied)
    outcome = store.reload()
    assert outcome.changed is False
    assert dict(store.contracts) == before
    assert _codes(store) == ["JC003"]
    assert "Permission denied" in store.failure_records()[0]["message"]

    monkeypatch.setattr(os, "scandir", real_scandir)
    _write(folder, "gamma")
    store.reload()
    assert store.names() == ["alpha", "beta", "gamma"]
    assert store.failure_records() == []


def test_a_folder_filled_with_a_thousand_files_loads_them_all(served: tuple[Path, ContractStore]) -> None:
    folder, store = served
    for i in range(1000):
        _write(folder, f"bulk-{i:04}", maximum=i)
    (folder / "notes.txt").write_text("ignored", encoding="utf-8")

    outcome = store.reload()

    assert outcome.changed is True
    assert len(store.contracts) == 1002
    assert store.get("bulk-0999").schema["properties"]["n"]["maximum"] == 999
    assert store.failure_records() == []


def test_an_io_error_while_reading_one_file_fails_that_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "fine")
    _write(tmp_path, "flaky")
    real_fdopen = os.fdopen

    class FailingRead:
        """A file whose read fails as a dying disk or a vanished network share does."""

        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> FailingRead:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return int(self.handle.fileno())

        def read(self, size: int = -1) -> bytes:
            if os.readlink(f"/proc/self/fd/{self.fileno()}").endswith("flaky.json"):
                raise OSError(5, "Input/output error")
            return bytes(self.handle.read(size))

    monkeypatch.setattr(os, "fdopen", lambda fd, *args, **kwargs: FailingRead(real_fdopen(fd, *args, **kwargs)))
    result = load_contracts(tmp_path)

    assert list(result.contracts) == ["fine"]
    assert [(f.code, f.file, f.message) for f in result.failures] == [
        ("JC021", "flaky.json", "Cannot read contract file: Input/output error")
    ]
