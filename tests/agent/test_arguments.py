"""Tool and prompt argument checks: the TypeScript server's zod 3 issue text, byte for byte.

The expected texts below were produced by zod 3.25.76 running the TypeScript server's schemas.
"""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts._json.text import dumps
from json_contracts.agent.arguments import ArgumentsError
from json_contracts.errors import JsonContractsError
from json_contracts.mcp.tools import PROMPT_NAMES, TOOL_NAMES, argument_names, check_arguments
from tests.support.golden import golden_json

TOOLS_LIST = golden_json("mcp-tools-list.json")
INPUT_SCHEMAS: dict[str, dict[str, Any]] = {tool["name"]: tool["inputSchema"] for tool in TOOLS_LIST["tools"]}
NO_ARGUMENT_TOOLS = ["list_contracts", "status", "reload_contracts"]
JSON_VALUE_FIELDS = [
    ("validate_json", "json"),
    ("get_edit_contract", "currentJson"),
    ("get_repair_contract", "invalidJson"),
]
PROMPT_TOOLS = [
    ("json_contract_prompt", "get_json_contract"),
    ("edit_contract_prompt", "get_edit_contract"),
    ("repair_contract_prompt", "get_repair_contract"),
]
# A valid argument object per tool, used to isolate one broken field at a time.
VALID: dict[str, dict[str, Any]] = {
    "list_contracts": {},
    "read_contract": {"contract": "support-ticket"},
    "get_json_contract": {"contract": "support-ticket", "input": "SSO is broken"},
    "get_edit_contract": {"contract": "support-ticket", "currentJson": {"a": 1}, "input": "make it high"},
    "validate_json": {"contract": "support-ticket", "json": {"a": 1}},
    "get_repair_contract": {"contract": "support-ticket", "invalidJson": {"a": 1}},
    "status": {},
    "reload_contracts": {},
}

MISSING_CONTRACT = """\
[
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "undefined",
    "path": [
      "contract"
    ],
    "message": "Required"
  }
]"""

NUMBER_CONTRACT = """\
[
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "number",
    "path": [
      "contract"
    ],
    "message": "Expected string, received number"
  }
]"""

EMPTY_CONTRACT = """\
[
  {
    "code": "too_small",
    "minimum": 1,
    "type": "string",
    "inclusive": true,
    "exact": false,
    "message": "String must contain at least 1 character(s)",
    "path": [
      "contract"
    ]
  },
  {
    "code": "custom",
    "message": "contract must be a safe contract name",
    "path": [
      "contract"
    ]
  }
]"""

UNSAFE_CONTRACT = """\
[
  {
    "code": "custom",
    "message": "contract must be a safe contract name",
    "path": [
      "contract"
    ]
  }
]"""

CONTEXT_ARRAY = """\
[
  {
    "code": "invalid_type",
    "expected": "object",
    "received": "array",
    "path": [
      "context"
    ],
    "message": "Expected object, received array"
  }
]"""

ONE_UNKNOWN_KEY = """\
[
  {
    "code": "unrecognized_keys",
    "keys": [
      "x"
    ],
    "path": [],
    "message": "Unrecognized key(s) in object: 'x'"
  }
]"""

SEVERAL_UNKNOWN_KEYS = """\
[
  {
    "code": "unrecognized_keys",
    "keys": [
      "2",
      "10",
      "y",
      "x"
    ],
    "path": [],
    "message": "Unrecognized key(s) in object: '2', '10', 'y', 'x'"
  }
]"""

VALUE_REQUIRED = """\
[
  {
    "code": "custom",
    "message": "value is required",
    "fatal": true,
    "path": [
      "%s"
    ]
  }
]"""

ERRORS_NOT_ARRAY = """\
[
  {
    "code": "invalid_type",
    "expected": "array",
    "received": "object",
    "path": [
      "validationErrors"
    ],
    "message": "Expected array, received object"
  }
]"""

ERROR_ITEMS_NOT_OBJECTS = """\
[
  {
    "code": "invalid_type",
    "expected": "object",
    "received": "string",
    "path": [
      "validationErrors",
      1
    ],
    "message": "Expected object, received string"
  },
  {
    "code": "invalid_type",
    "expected": "object",
    "received": "null",
    "path": [
      "validationErrors",
      2
    ],
    "message": "Expected object, received null"
  }
]"""

ERROR_ITEM_FIELDS = """\
[
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "number",
    "path": [
      "validationErrors",
      0,
      "path"
    ],
    "message": "Expected string, received number"
  },
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "undefined",
    "path": [
      "validationErrors",
      0,
      "message"
    ],
    "message": "Required"
  },
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "boolean",
    "path": [
      "validationErrors",
      0,
      "keyword"
    ],
    "message": "Expected string, received boolean"
  }
]"""

ARGUMENTS_ARRAY = """\
[
  {
    "code": "invalid_type",
    "expected": "object",
    "received": "array",
    "path": [],
    "message": "Expected object, received array"
  }
]"""

EDIT_EVERYTHING_WRONG = """\
[
  {
    "code": "too_small",
    "minimum": 1,
    "type": "string",
    "inclusive": true,
    "exact": false,
    "message": "String must contain at least 1 character(s)",
    "path": [
      "contract"
    ]
  },
  {
    "code": "custom",
    "message": "contract must be a safe contract name",
    "path": [
      "contract"
    ]
  },
  {
    "code": "custom",
    "message": "value is required",
    "fatal": true,
    "path": [
      "currentJson"
    ]
  },
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "number",
    "path": [
      "input"
    ],
    "message": "Expected string, received number"
  },
  {
    "code": "invalid_type",
    "expected": "object",
    "received": "string",
    "path": [
      "context"
    ],
    "message": "Expected object, received string"
  },
  {
    "code": "unrecognized_keys",
    "keys": [
      "extra",
      "zzz"
    ],
    "path": [],
    "message": "Unrecognized key(s) in object: 'extra', 'zzz'"
  }
]"""


def message_of(name: str, arguments: Any) -> str:
    with pytest.raises(ArgumentsError) as caught:
        check_arguments(name, arguments)
    return str(caught.value)


def issues_of(name: str, arguments: Any) -> list[dict[str, Any]]:
    with pytest.raises(ArgumentsError) as caught:
        check_arguments(name, arguments)
    return caught.value.issues


# --- names and schemas ---------------------------------------------------------------------


def test_tool_names_are_the_published_tools_in_order() -> None:
    assert [tool["name"] for tool in TOOLS_LIST["tools"]] == list(TOOL_NAMES)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_accepted_keys_are_the_input_schema_properties_in_order(name: str) -> None:
    properties = list(INPUT_SCHEMAS[name]["properties"])
    assert list(argument_names(name)) == properties
    complete = {key: "support-ticket" if key == "contract" else "text" for key in properties}
    complete |= {key: {} for key in properties if key == "context"}
    complete |= {key: [] for key in properties if key == "validationErrors"}
    assert list(check_arguments(name, complete)) == properties


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_empty_arguments_report_exactly_the_required_properties(name: str) -> None:
    required = INPUT_SCHEMAS[name].get("required", [])
    if not required:
        assert check_arguments(name, {}) == {}
        return
    assert [issue["path"][0] for issue in issues_of(name, {})] == required


@pytest.mark.parametrize(("prompt", "tool"), PROMPT_TOOLS)
def test_prompts_accept_the_keys_of_the_tool_they_mirror(prompt: str, tool: str) -> None:
    assert prompt in PROMPT_NAMES
    assert argument_names(prompt) == argument_names(tool)


def test_an_unknown_name_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="Unknown tool or prompt: nope"):
        check_arguments("nope", {})


# --- issue shapes ----------------------------------------------------------------------------


def test_missing_contract_is_required() -> None:
    assert message_of("read_contract", {}) == MISSING_CONTRACT


def test_contract_of_the_wrong_type_gets_no_safe_name_issue() -> None:
    assert message_of("read_contract", {"contract": 7}) == NUMBER_CONTRACT


def test_empty_contract_is_too_small_and_unsafe() -> None:
    assert message_of("read_contract", {"contract": ""}) == EMPTY_CONTRACT


@pytest.mark.parametrize("contract", ["../x", "a..b", "a/b", "a\\b", ".hidden", "bad name", "abc\n", "café"])
def test_unsafe_contract_name_gets_the_custom_issue_only(contract: str) -> None:
    assert message_of("validate_json", {"contract": contract, "json": 1}) == UNSAFE_CONTRACT


@pytest.mark.parametrize(
    ("value", "received"),
    [
        (True, "boolean"),
        (False, "boolean"),
        (1, "number"),
        (2**60, "number"),
        (1.5, "number"),
        (float("nan"), "nan"),
        (None, "null"),
        ([], "array"),
        ({}, "object"),
    ],
)
def test_wrong_type_names_the_zod_type_received(value: Any, received: str) -> None:
    assert issues_of("get_json_contract", {"contract": "a", "input": value}) == [
        {
            "code": "invalid_type",
            "expected": "string",
            "received": received,
            "path": ["input"],
            "message": f"Expected string, received {received}",
        }
    ]


def test_context_array_is_not_an_object() -> None:
    assert message_of("get_json_contract", {**VALID["get_json_contract"], "context": []}) == CONTEXT_ARRAY


@pytest.mark.parametrize(("context", "received"), [("{}", "string"), (None, "null"), (3, "number"), (True, "boolean")])
def test_context_must_be_an_object(context: Any, received: str) -> None:
    assert issues_of("get_edit_contract", {**VALID["get_edit_contract"], "context": context}) == [
        {
            "code": "invalid_type",
            "expected": "object",
            "received": received,
            "path": ["context"],
            "message": f"Expected object, received {received}",
        }
    ]


def test_one_unknown_key_is_unrecognized() -> None:
    assert message_of("read_contract", {"contract": "a", "x": 1}) == ONE_UNKNOWN_KEY


def test_several_unknown_keys_are_listed_in_javascript_key_order() -> None:
    arguments = {"contract": "a", "y": 1, "x": 2, "10": 3, "2": 4}
    assert message_of("read_contract", arguments) == SEVERAL_UNKNOWN_KEYS


@pytest.mark.parametrize(("name", "key"), JSON_VALUE_FIELDS)
def test_missing_json_value_is_required(name: str, key: str) -> None:
    arguments = {k: v for k, v in VALID[name].items() if k != key}
    assert message_of(name, arguments) == VALUE_REQUIRED % key


def test_validation_errors_must_be_an_array() -> None:
    arguments = {**VALID["get_repair_contract"], "validationErrors": {}}
    assert message_of("get_repair_contract", arguments) == ERRORS_NOT_ARRAY


def test_each_validation_error_must_be_an_object() -> None:
    errors = [{"path": "", "message": "m", "keyword": "k"}, "oops", None]
    arguments = {**VALID["get_repair_contract"], "validationErrors": errors}
    assert message_of("get_repair_contract", arguments) == ERROR_ITEMS_NOT_OBJECTS


def test_validation_error_fields_must_be_strings() -> None:
    arguments = {**VALID["get_repair_contract"], "validationErrors": [{"path": 1, "keyword": False}]}
    assert message_of("get_repair_contract", arguments) == ERROR_ITEM_FIELDS


@pytest.mark.parametrize(("arguments", "received"), [([1, 2], "array"), ("{}", "string"), (0, "number")])
def test_arguments_that_are_not_an_object(arguments: Any, received: str) -> None:
    text = message_of("validate_json", arguments)
    assert text == ARGUMENTS_ARRAY.replace("array", received)


def test_arguments_list_text_is_exact() -> None:
    assert message_of("list_contracts", [1, 2]) == ARGUMENTS_ARRAY


# --- ordering --------------------------------------------------------------------------------


def test_issues_follow_schema_order_with_unknown_keys_last() -> None:
    arguments = {"extra": True, "context": "{}", "input": 5, "contract": "", "zzz": None}
    assert message_of("get_edit_contract", arguments) == EDIT_EVERYTHING_WRONG


def test_every_bad_validation_error_is_reported_before_unknown_keys() -> None:
    errors = [{"path": "/a", "message": "m", "keyword": "k"}, 3, {"path": 1}]
    arguments = {"zz": 1, "contract": "ok", "1": 2, "validationErrors": errors}
    paths = [issue["path"] for issue in issues_of("get_repair_contract", arguments)]
    assert paths == [
        ["invalidJson"],
        ["validationErrors", 1],
        ["validationErrors", 2, "path"],
        ["validationErrors", 2, "message"],
        ["validationErrors", 2, "keyword"],
        [],
    ]
    assert issues_of("get_repair_contract", arguments)[-1]["keys"] == ["1", "zz"]


def test_the_error_message_is_the_issue_list_as_javascript_json() -> None:
    with pytest.raises(JsonContractsError) as caught:
        check_arguments("read_contract", {"contract": "", "x": 1})
    assert isinstance(caught.value, ArgumentsError)
    assert str(caught.value) == dumps(caught.value.issues)
    assert [issue["code"] for issue in caught.value.issues] == ["too_small", "custom", "unrecognized_keys"]


# --- parsed arguments ------------------------------------------------------------------------


def test_missing_context_defaults_to_an_empty_object() -> None:
    assert check_arguments("get_json_contract", {"input": "x", "contract": "support-ticket"}) == {
        "contract": "support-ticket",
        "input": "x",
        "context": {},
    }


def test_context_is_kept_as_given_except_a_proto_key() -> None:
    context = {"b": [1, {"c": None}], "1": True, "__proto__": {"polluted": 1}}
    parsed = check_arguments("get_json_contract", {**VALID["get_json_contract"], "context": context})
    assert parsed["context"] == {"b": [1, {"c": None}], "1": True}


def test_missing_validation_errors_default_to_an_empty_list() -> None:
    parsed = check_arguments("get_repair_contract", {"invalidJson": None, "contract": "a"})
    assert parsed == {"contract": "a", "invalidJson": None, "validationErrors": []}
    assert list(parsed) == ["contract", "invalidJson", "validationErrors"]


def test_validation_errors_lose_extra_keys_and_keep_path_message_keyword_order() -> None:
    supplied = [{"keyword": "type", "extra": 1, "message": "must be object", "path": "", "params": {}}]
    parsed = check_arguments("get_repair_contract", {**VALID["get_repair_contract"], "validationErrors": supplied})
    assert parsed["validationErrors"] == [{"path": "", "message": "must be object", "keyword": "type"}]
    assert list(parsed["validationErrors"][0]) == ["path", "message", "keyword"]
    assert "extra" in supplied[0]  # the caller's object is not modified


@pytest.mark.parametrize(("name", "key"), JSON_VALUE_FIELDS)
@pytest.mark.parametrize("value", [None, False, 0, "", [], {}, "not json {"])
def test_any_json_value_is_accepted_where_json_is_expected(name: str, key: str, value: Any) -> None:
    parsed = check_arguments(name, {**VALID[name], key: value})
    assert key in parsed
    assert parsed[key] == value
    assert type(parsed[key]) is type(value)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_none_arguments_count_as_an_empty_object(name: str) -> None:
    if name in NO_ARGUMENT_TOOLS:
        assert check_arguments(name, None) == {}
    else:
        assert message_of(name, None) == message_of(name, {})


@pytest.mark.parametrize("name", NO_ARGUMENT_TOOLS)
@pytest.mark.parametrize("key", ["contract", "x", "__proto__"])
def test_tools_without_arguments_reject_any_key(name: str, key: str) -> None:
    assert issues_of(name, {key: "a"}) == [
        {"code": "unrecognized_keys", "keys": [key], "path": [], "message": f"Unrecognized key(s) in object: '{key}'"}
    ]


def test_parsed_arguments_are_in_schema_order() -> None:
    arguments = {"context": {"k": 1}, "input": "x", "currentJson": [1], "contract": "a"}
    assert list(check_arguments("get_edit_contract", arguments)) == ["contract", "currentJson", "input", "context"]


# --- prompts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("prompt", "tool"), PROMPT_TOOLS)
def test_prompts_report_what_their_tool_reports(prompt: str, tool: str) -> None:
    assert message_of(prompt, {"contract": "", "q": 1}) == message_of(tool, {"contract": "", "q": 1})
    assert check_arguments(prompt, VALID[tool]) == check_arguments(tool, VALID[tool])


def test_edit_prompt_without_current_json_needs_a_value() -> None:
    # An empty currentJson string is removed by prompt pre-processing, so the key is missing here.
    assert message_of("edit_contract_prompt", {"contract": "a", "input": "x"}) == VALUE_REQUIRED % "currentJson"


def test_repair_prompt_with_unparsed_validation_errors_needs_an_array() -> None:
    issues = issues_of("repair_contract_prompt", {"contract": "a", "invalidJson": 1, "validationErrors": "[oops"})
    assert issues == [
        {
            "code": "invalid_type",
            "expected": "array",
            "received": "string",
            "path": ["validationErrors"],
            "message": "Expected array, received string",
        }
    ]
