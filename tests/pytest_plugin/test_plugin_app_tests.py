"""What app tests get: the json_contracts fixture, assert_valid_json, strategies and per-example runs."""

from __future__ import annotations

import pytest

from tests.support.plugin import FAST, ContractsWriter
from tests.support.samples import tiny

RUN = ("--json-contracts", "json-contracts", "--json-contracts-no-hypothesis", "-p", "no:cacheprovider")


@pytest.fixture
def project(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> pytest.Pytester:
    write_contracts({"tiny.json": tiny(), "broken.json": "{"})
    return pytester


def _run_tests(project: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    """Run one app test module (and not the contract items)."""
    project.makepyfile(test_app=source)
    return project.runpytest(*RUN, "test_app.py", *args)


def test_the_fixture_is_the_loaded_folder(project: pytest.Pytester) -> None:
    result = _run_tests(
        project,
        """
        import pytest
        from json_contracts.contracts.model import Contract

        def test_registry(json_contracts):
            assert json_contracts.names == ["tiny"]
            assert list(json_contracts) == ["tiny"] and len(json_contracts) == 1 and "tiny" in json_contracts
            assert json_contracts.directory.name == "json-contracts"
            assert isinstance(json_contracts["tiny"], Contract)
            assert json_contracts["tiny"].schema["required"] == ["title", "priority"]
            assert [f.code for f in json_contracts.failures] == ["JC014"]

        def test_unknown_and_broken_names(json_contracts):
            with pytest.raises(KeyError, match="no contract 'nope' in .*json-contracts .loaded: tiny."):
                json_contracts["nope"]
            with pytest.raises(KeyError, match="contract 'broken' did not load: .*broken.json:1:2: JC014"):
                json_contracts["broken"]

        def test_same_object_for_the_session(json_contracts, request):
            assert request.getfixturevalue("json_contracts") is json_contracts
        """,
    )

    result.assert_outcomes(passed=3)


def test_the_fixture_without_a_folder_fails_the_test_with_how_to_set_one(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_app="def test_registry(json_contracts):\n    pass\n")

    result = pytester.runpytest("-p", "no:cacheprovider")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*json-contracts: no contracts folder for this run; pass --json-contracts DIR*"])


def test_assert_valid_json_passes_valid_documents_and_explains_invalid_ones(project: pytest.Pytester) -> None:
    result = _run_tests(
        project,
        """
        from pytest_json_contracts import assert_valid_json

        def test_valid_by_name():
            assert_valid_json("tiny", {"title": "Printer down", "priority": "high"})

        def test_valid_by_contract(json_contracts):
            assert_valid_json(json_contracts["tiny"], {"title": "Printer down", "priority": "low"})

        def test_invalid():
            assert_valid_json("tiny", {"title": "x", "priority": "urgent", "extra": 1})
        """,
    )

    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            ">       assert_valid_json(*",
            "E       AssertionError: document does not validate against tiny: 3 error(s)",
            "E         /extra must NOT have additional properties (additionalProperties)",
            "E         /title must NOT have fewer than 3 characters (minLength)",
            "E         /priority must be equal to one of the allowed values (enum)",
            "E       How to repair:",
            "E         - Remove extra field /extra.",
            "E         - Lengthen /title to satisfy the minimum length.",
            "E         - Set /priority to one of: low, high.",
            "E       document:",
            "E         {",
            'E           "title": "x",',
        ]
    )
    assert "helpers.py" not in result.stdout.str()  # the traceback stops at the test's own line


def test_strategies_draw_valid_documents_for_given(project: pytest.Pytester) -> None:
    result = _run_tests(
        project,
        """
        from hypothesis import given, settings, strategies as st
        from pytest_json_contracts import assert_valid_json, contract_documents
        from json_contracts.testing.strategies import from_contract

        seen = set()

        @settings(max_examples=30, database=None)
        @given(contract_documents("tiny"))
        def test_by_name(ticket):
            assert_valid_json("tiny", ticket)
            seen.add(ticket["priority"])

        def test_both_priorities_were_drawn():
            assert seen == {"low", "high"}

        @settings(max_examples=10, database=None)
        @given(data=st.data())
        def test_from_the_fixture(json_contracts, data):
            ticket = data.draw(from_contract(json_contracts["tiny"]))
            assert len(ticket["title"]) >= 3

        @settings(max_examples=30, database=None)
        @given(contract_documents("tiny"))
        def test_a_wrong_belief_is_found(ticket):
            assert ticket["priority"] == "low"
        """,
        "-p",
        "no:randomly",
    )

    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        ["*_ test_a_wrong_belief_is_found _*", "E       AssertionError: assert 'high' == 'low'"]
    )


def test_the_marker_runs_a_test_once_per_example(project: pytest.Pytester) -> None:
    result = _run_tests(
        project,
        """
        import pytest
        from pytest_json_contracts import assert_valid_json

        @pytest.mark.json_contract_examples("tiny")
        def test_each(example):
            assert example.contract == "tiny"
            assert_valid_json("tiny", example.output)
            if example.id.startswith("edit."):
                assert example.group == "operations.edit.examples" and example.current_json["priority"] == "low"
            else:
                assert example.group == "examples" and example.current_json is None
            example.output["title"] = "changed"  # a copy: the next example and the registry are unaffected

        @pytest.mark.json_contract_examples("tiny", argname="case")
        @pytest.mark.parametrize("twice", [1, 2])
        def test_composes(case, twice, json_contracts):
            assert json_contracts["tiny"].examples[0]["output"]["title"] == "Printer down"
        """,
        "-v",
    )

    result.assert_outcomes(passed=3 + 6)
    result.stdout.fnmatch_lines(
        [
            "test_app.py::test_each?example?0?? PASSED*",
            "test_app.py::test_each?example?1?? PASSED*",
            "test_app.py::test_each?edit.example?0?? PASSED*",
            "test_app.py::test_composes?example?0?-1? PASSED*",
        ]
    )


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ('json_contract_examples("nope")', "*json_contract_examples: no contract 'nope' in *"),
        ('json_contract_examples("tiny", argname="doc")', "*test_each needs an argument named 'doc'"),
        ("json_contract_examples()", "*json_contract_examples takes one contract name*"),
    ],
)
def test_a_misused_marker_is_a_collection_error(project: pytest.Pytester, marker: str, message: str) -> None:
    result = _run_tests(project, f"import pytest\n\n@pytest.mark.{marker}\ndef test_each(example):\n    pass\n")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([message])


def test_the_marker_without_a_folder_says_how_to_set_one(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_app="import pytest\n\n@pytest.mark.json_contract_examples('tiny')\ndef test_each(example):\n    pass\n"
    )

    result = pytester.runpytest(*FAST[:2], "--strict-markers")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*json_contract_examples: json-contracts: no contracts folder for this run*"])
