"""pytest plugin: every contract file becomes test items, and app tests get contract helpers.

Registered under the ``pytest11`` entry point, so pytest loads it in every run of an environment
with pytest-json-contracts installed. It does nothing until ``--json-contracts DIR`` or the ini key
``json_contracts_dir`` names a folder, and loading it imports neither the engine, jsonschema,
Hypothesis nor mcp: the hooks import what they need once the plugin is enabled.

For app tests (importable from here): the ``json_contracts`` fixture (a
:class:`~pytest_json_contracts.registry.ContractRegistry`), :func:`assert_valid_json`,
:func:`contract_documents` (a Hypothesis strategy for ``@given``) and the marker
``@pytest.mark.json_contract_examples("name")``, which runs a test once per example of a contract
with the example in its ``example`` argument.

With ``--json-contracts-base REF``, each contract that changed since the Git revision REF also gets a
``::compat`` item that fails, as ``json-contracts diff --base REF`` does, on a change that breaks its
compatibility mode (:mod:`pytest_json_contracts.baseline`).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_json_contracts import _active
from pytest_json_contracts._off import off_hint
from pytest_json_contracts.helpers import (
    NOT_CONFIGURED,
    assert_valid_json,
    contract_documents,
    session_registry,
)
from pytest_json_contracts.options import SEED_KEY, add_options, enabled

if TYPE_CHECKING:
    from pytest_json_contracts.items import ContractFile
    from pytest_json_contracts.registry import ContractExample, ContractRegistry
    from pytest_json_contracts.session import PluginState

__all__ = ["ContractExample", "ContractRegistry", "assert_valid_json", "contract_documents"]

_STATE: pytest.StashKey[PluginState] = pytest.StashKey()
_OFF_HINT: pytest.StashKey[str] = pytest.StashKey()  # how to turn the plugin on, for a run that needs it
EXAMPLES_MARKER = "json_contract_examples"


def __getattr__(name: str) -> Any:
    if name in ("ContractExample", "ContractRegistry"):  # the engine loads only when they are used
        from pytest_json_contracts import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'pytest_json_contracts' has no attribute {name!r}")


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{EXAMPLES_MARKER}(contract, argname='example'): run the test once per example of the contract, "
        "passing a pytest_json_contracts.ContractExample",
    )
    if not enabled(config):
        _active.push(config, None)  # helpers called in this session must not use an outer one's folder
        hint = off_hint(config)
        if hint is not None:
            config.stash[_OFF_HINT] = hint
        return
    from pytest_json_contracts.session import PluginState, read_options

    state = PluginState(read_options(config))
    state.load_baseline()  # a revision Git does not know is a usage error now, not a failure per item
    config.stash[_STATE] = state
    _active.push(config, state)
    _add_folder_to_default_run(config, state.options.directory)


def pytest_unconfigure(config: pytest.Config) -> None:
    _active.pop(config)


def _add_folder_to_default_run(config: pytest.Config, directory: Path) -> None:
    """A run that names no paths tests the contracts too: the folder joins what pytest walks.

    pytest walks ``testpaths``, or without them the current folder; a contracts folder outside
    those (``--json-contracts=../contracts``) would otherwise be left out without a word. Paths
    named on the command line are left alone (``pytest tests/test_app.py`` runs just that), and
    so is a run started in a sub-folder of the project with the folder from the ini key: the
    user chose to run that sub-folder only.
    """
    source = config.args_source
    if source == pytest.Config.ArgsSource.ARGS:
        return
    from_option = bool(config.getoption("json_contracts_dir"))
    base = config.invocation_params.dir
    if source == pytest.Config.ArgsSource.INVOCATION_DIR and base != config.rootpath and not from_option:
        return
    if not any(directory.is_relative_to(Path(base, arg).absolute()) for arg in config.args):
        config.args.append(str(directory))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: workers draw with the controller's seed (None: derandomised), so runs repeat."""
    state = node.config.stash.get(_STATE, None)
    if state is not None:
        node.workerinput[SEED_KEY] = state.options.seed


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return None
    options = state.options
    if not options.hypothesis:
        checks = "property checks off"
    elif options.derandomize:
        checks = f"{options.max_examples} examples per check, derandomised (CI)"
    else:
        checks = f"{options.max_examples} examples per check, --json-contracts-seed {options.seed}"
    strict = ", strict" if options.strict else ""
    base = f", compatibility against {options.base}" if options.base is not None else ""
    folder = options.directory
    shown = folder.relative_to(config.rootpath) if folder.is_relative_to(config.rootpath) else folder
    return f"json-contracts: {shown} ({checks}{strict}{base})"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Off, but the run named a contracts folder: say how to turn the plugin on, above "no tests ran"."""
    hint = config.stash.get(_OFF_HINT, None)
    if hint is not None:
        terminalreporter.write_line(hint, yellow=True)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """With ``--json-contracts-base``, the contracts folder also collects the contracts it no longer has.

    A removed contract has no file for :func:`pytest_collect_file`, so its ``::compat`` item joins
    what the folder's own collector (pytest's, left as it is) found, under the file name it had
    (``json-contracts/gone.json::compat``).
    """
    report = yield
    state = collector.config.stash.get(_STATE, None)
    if (
        state is not None
        and state.baseline is not None
        and isinstance(collector, pytest.Directory)
        and collector.path == state.options.directory
        and report.passed
    ):
        from pytest_json_contracts.items import removed_contracts

        report.result.extend(removed_contracts(collector, state))
    return report


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ContractFile | None:
    state = parent.config.stash.get(_STATE, None)
    if state is None or file_path.suffix != ".json" or file_path.parent != state.options.directory:
        return None
    from pytest_json_contracts.items import ContractFile

    file: ContractFile = ContractFile.from_parent(parent, path=file_path, state=state)
    return file


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(EXAMPLES_MARKER)
    if marker is None:
        return
    if len(marker.args) != 1 or not isinstance(marker.args[0], str) or set(marker.kwargs) - {"argname"}:
        raise pytest.Collector.CollectError(
            f"{EXAMPLES_MARKER} takes one contract name and optionally argname=..., "
            f'e.g. @pytest.mark.{EXAMPLES_MARKER}("support-ticket")'
        )
    name, argname = marker.args[0], str(marker.kwargs.get("argname", "example"))
    state = metafunc.config.stash.get(_STATE, None)
    if state is None:
        raise pytest.Collector.CollectError(f"{EXAMPLES_MARKER}: {NOT_CONFIGURED}")
    if argname not in metafunc.fixturenames:
        raise pytest.Collector.CollectError(
            f"{EXAMPLES_MARKER}({name!r}): {metafunc.function.__name__} needs an argument named {argname!r}"
        )
    try:
        examples = state.registry().examples(name)
    except KeyError as exc:
        raise pytest.Collector.CollectError(f"{EXAMPLES_MARKER}: {exc.args[0]}") from None
    metafunc.parametrize(argname, examples, ids=[example.id for example in examples])


@pytest.fixture(scope="session")
def json_contracts() -> ContractRegistry:
    """The session's loaded contracts folder: ``json_contracts["support-ticket"]``, ``.names``, ``.directory``."""
    return session_registry()
