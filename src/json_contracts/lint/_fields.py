"""Operation and example fields that do nothing: unknown keys in an operation (JC124) or an example
(JC125), and operation fields no tool reads where they are (JC126).

The loader keeps any extra key in an operation or an example, as the TypeScript server does, so
these are lint findings, never load errors. Keys starting with ``x-`` are extensions and are never
reported (the convention of JC110).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts.contracts.model import Contract
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, suggest

#: The operations agents use; any other name is a custom operation, served as written.
AGENT_OPERATIONS = ("create", "edit")
#: What an operation may set (docs/reference/contract-format.md, "Operations").
OPERATION_FIELDS = ("enabled", "return", "rules", "examples")
CURRENT_JSON = "currentJson"
#: What every example may hold; an edit example also has the document before the change.
EXAMPLE_FIELDS = ("input", "output", "context")
EDIT_EXAMPLE_FIELDS = (*EXAMPLE_FIELDS, CURRENT_JSON)
#: The tools and prompts that refuse a disabled operation (agent/payloads.py, agent/prompts.py).
_REFUSED_BY = {
    "create": "get_json_contract and json_contract_prompt",
    "edit": "get_edit_contract and edit_contract_prompt",
}


def _extension(key: str) -> bool:
    return key.startswith("x-")


def _one_edit_apart(word: str, target: str) -> bool:
    """One letter added, dropped or swapped with its neighbour (or changed, in words of five or more)."""
    if word == target:
        return True
    if abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diffs = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        swapped = len(diffs) == 2 and diffs[1] == diffs[0] + 1 and word[diffs[0]] == target[diffs[1]]
        swapped = swapped and word[diffs[1]] == target[diffs[0]]
        return swapped or (len(diffs) == 1 and len(word) >= 5)
    short, long = sorted((word, target), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _misspelt_operation(name: str) -> str | None:
    """``create`` or ``edit`` when ``name`` is a typo of it.

    Stricter than :func:`suggest` alone: a custom operation is a legitimate name (``credit``,
    ``editor``, ``emit``), so only a one-letter slip or a different case counts.
    """
    meant = suggest(name.lower(), AGENT_OPERATIONS)  # Edti, Crate: a capital changes nothing
    return meant if meant and _one_edit_apart(name.lower(), meant) else None


def _operation_pointer(name: str) -> str:
    return "/operations/" + escape_pointer_segment(name)


def _raw_operations(contract: Contract) -> dict[str, Any]:
    operations = contract.raw.get("operations")
    return operations if isinstance(operations, dict) else {}


def misspelt_operations(contract: Contract) -> dict[str, str]:
    """``{name: "create" or "edit"}`` for each operation name JC124 reports as a typo of one.

    The rules after JC124 read such an operation as what it will be once renamed, so no finding
    gives advice the rename makes wrong (``"return"`` on ``Edit`` is edit's return, not a custom
    operation's).
    """
    found: dict[str, str] = {}
    for name in _raw_operations(contract):
        meant = None if name in AGENT_OPERATIONS or _extension(name) else _misspelt_operation(name)
        if meant:
            found[name] = meant
    return found


def current_json_typo(example: dict[str, Any]) -> str | None:
    """The key that misspells ``currentJson`` in an example without one (``currentJSON``), or None.

    JC134 (an edit example without ``currentJson``) names it in its fix, and JC125 then leaves the
    key alone: one typo, one finding.
    """
    if CURRENT_JSON in example:
        return None
    for key in example:
        if key not in EDIT_EXAMPLE_FIELDS and not _extension(key) and suggest(key, EDIT_EXAMPLE_FIELDS) == CURRENT_JSON:
            return key
    return None


def _typo_effect(operation: str, meant: str) -> str:
    """What the operation does because ``meant`` is misspelt: it keeps ``meant``'s default."""
    if meant == "enabled":
        return f"so {operation} stays enabled"
    if meant == "return":
        return "so edit returns full_object"
    return f"so {operation} has no {meant} of its own"


def _operation_field_message(operation: str, key: str, op: dict[str, Any], renamed: str) -> str:
    """The message for an unknown ``key`` of ``operation``; ``renamed`` is what the operation will be
    called once JC124's rename of a misspelt name is made (``Edit``: ``edit``), else ``operation``."""
    where = f'Unknown field "{key}" in operations.{operation} does nothing'
    if key.lower() == "disabled" and "enabled" not in op:
        if op[key] is False:  # the author wants it on, and it is: the key is only noise
            return f'{where}; {operation} is enabled already (the field is "enabled", true by default): remove it'
        return f'{where}, so {operation} stays enabled; write "enabled": false to turn it off'
    meant = suggest(key, OPERATION_FIELDS)
    if meant == "return" and renamed != "edit":
        return f'{where}, and so would "return" (only edit\'s return is read); remove it'
    if meant in op:
        return f'{where} beside "{meant}", which is the one read; remove it'
    if meant:
        return f'{where}, {_typo_effect(operation, meant)}; did you mean "{meant}"?'
    return f'{where} (no tool reads it); remove it, or prefix extensions with "x-"'


def rule_unknown_operation_fields(linter: Linter) -> Iterator[Finding]:
    """JC124: a key an operation does not have, and an operation name that misspells create or edit.

    Known keys are ``enabled``, ``return``, ``rules`` and ``examples``; a custom operation's keys
    are its own (it is served as written) and not checked. A misspelt key silently
    leaves its default in force (``"enabeld": false`` leaves the operation enabled); a misspelt
    name (``craete``) makes a custom operation no tool acts on, and leaves create as it was.
    """
    operations = _raw_operations(linter.contract)
    misspelt = misspelt_operations(linter.contract)
    for name, op in operations.items():
        pointer = _operation_pointer(name)
        meant = misspelt.get(name)
        if meant:
            meant_op = operations.get(meant)
            turned_off = isinstance(op, dict) and op.get("enabled") is False
            if turned_off and not (isinstance(meant_op, dict) and "enabled" in meant_op):
                effect = f"so {meant} stays enabled"
            else:
                effect = f"so none of its settings reach {meant}"
            yield linter.finding(
                Code.UNKNOWN_OPERATION_FIELD,
                f'Operation "{name}" is not "{meant}" but a custom operation, which no tool acts on, {effect}; '
                f'did you mean "{meant}"?',
                pointer,
                key=True,
            )
        if not isinstance(op, dict) or (meant is None and name not in AGENT_OPERATIONS):
            continue  # a custom operation is the project's own and served as written, extra keys included
        for key in op:
            if key not in OPERATION_FIELDS and not _extension(key):
                yield linter.finding(
                    Code.UNKNOWN_OPERATION_FIELD,
                    _operation_field_message(name, key, op, meant or name),
                    f"{pointer}/{escape_pointer_segment(key)}",
                    key=True,
                )


def example_groups(contract: Contract) -> Iterator[tuple[str | None, str, str, list[Any]]]:
    """``(operation or None for the top level, label, pointer, examples)`` as written, in file order."""
    examples = contract.raw.get("examples")
    if isinstance(examples, list):
        yield None, "examples", "/examples", examples
    for name, op in _raw_operations(contract).items():
        if isinstance(op, dict) and isinstance(op.get("examples"), list):
            yield name, f"operations.{name}.examples", _operation_pointer(name) + "/examples", op["examples"]


def _misplaced_current_json(operation: str | None, label: str) -> str:
    if operation is None:
        return (
            f"{CURRENT_JSON} in {label} is shown as written to every operation, create included, though only "
            "edit starts from a document; move this example to operations.edit.examples"
        )
    return (
        f"{CURRENT_JSON} in {label} is shown to the model as written, though create starts from no document; "
        "remove it, or move this example to operations.edit.examples"
    )


def _example_field_message(key: str, label: str, example: dict[str, Any], allowed: tuple[str, ...]) -> str:
    where = f'Unknown field "{key}" in {label} is shown to the model as written'
    meant = suggest(key, EDIT_EXAMPLE_FIELDS)
    if meant and meant not in allowed:
        move = "move this example to operations.edit.examples"
        return f'{where}, but no tool reads it; did you mean "{meant}"? Only edit examples have one: {move}'
    if meant in example:
        return f'{where} beside "{meant}", but no tool reads it; merge it into "{meant}" or remove it'
    if meant:
        return f'{where}, but no tool reads it, so the example has no {meant}; did you mean "{meant}"?'
    return f'{where}, but no tool reads it; remove it, or prefix it with "x-" to keep it on purpose'


def rule_unknown_example_fields(linter: Linter) -> Iterator[Finding]:
    """JC125: a key no example has, in the top-level examples and every operation's.

    Known keys are ``input``, ``output`` and ``context``, and ``currentJson`` in the examples of
    edit and of custom operations (whose meaning is the project's own, and may well start from a
    document). ``currentJson`` in a top-level or create example is reported: create starts from no
    document, and top-level examples go to create too. Examples reach the model verbatim, so a
    misspelt key is not just ignored: the model sees it. A misspelt ``currentJson`` in an edit
    example is left to JC134, whose fix renames it (:func:`current_json_typo`).
    """
    for operation, group_label, pointer, examples in example_groups(linter.contract):
        allowed = EXAMPLE_FIELDS if operation in (None, "create") else EDIT_EXAMPLE_FIELDS
        for i, example in enumerate(examples):
            if not isinstance(example, dict):
                continue
            label = f"{group_label}[{i}]"
            current_json_slip = current_json_typo(example) if operation == "edit" else None
            for key in example:
                if key in allowed or _extension(key) or key == current_json_slip:
                    continue
                if key == CURRENT_JSON:
                    message = _misplaced_current_json(operation, label)
                else:
                    message = _example_field_message(key, label, example, allowed)
                yield linter.finding(
                    Code.UNKNOWN_EXAMPLE_FIELD,
                    message,
                    f"{pointer}/{i}/{escape_pointer_segment(key)}",
                    key=True,
                )


def _return_kind(name: str, meant: str | None) -> str:
    if meant == "create":
        return f'create, which "{name}" misspells'
    if name == "create":
        return "create"
    return f'custom operation "{name}" (no tool acts on one)'


def rule_ignored_operation_fields(linter: Linter) -> Iterator[Finding]:
    """JC126: operation fields no tool reads where they are.

    - ``return`` on create or a custom operation: only edit's is read.
    - ``return: "json_patch"`` on an enabled edit: ``get_edit_contract`` and ``edit_contract_prompt``
      refuse it, so edit cannot be used at all. A disabled edit's ``return`` is harmless.
    - non-empty ``rules`` or ``examples`` of a disabled create or edit: the payloads and prompts that
      would show them refuse the operation; only ``read_contract`` and the resource list them, as
      data. A custom operation's are served as written, like the rest of it, and not reported.

    An operation whose name JC124 reports as a typo of create or edit (``Edit``) is read as what
    it will be once renamed, so the advice stays right after the fix JC124 gives: ``return`` on
    ``Edit`` is edit's. When the real one exists too, the rename would clash, and it stays custom.
    """
    operations = _raw_operations(linter.contract)
    misspelt = {name: meant for name, meant in misspelt_operations(linter.contract).items() if meant not in operations}
    for name, op in operations.items():
        if not isinstance(op, dict):
            continue
        pointer = _operation_pointer(name)
        meant = misspelt.get(name)
        role = meant or name
        subject = f"operations.{name} misspells {meant}, and once renamed" if meant else f"operations.{name}"
        enabled = op.get("enabled") is not False if meant else linter.contract.operations["edit"]["enabled"]
        if "return" in op and role != "edit":
            yield linter.finding(
                Code.IGNORED_OPERATION_FIELD,
                f'"return" has no effect on {_return_kind(name, meant)}: only edit\'s return is read; remove it',
                f"{pointer}/return",
                key=True,
            )
        elif role == "edit" and op.get("return") == "json_patch" and enabled:
            could = "could" if meant else "can"
            yield linter.finding(
                Code.IGNORED_OPERATION_FIELD,
                f'{subject} returns "json_patch", which get_edit_contract and edit_contract_prompt refuse '
                f"(they return the full object), so no agent {could} edit with this contract; set return to "
                '"full_object", or set enabled to false',
                f"{pointer}/return",
            )
        if role in _REFUSED_BY and op.get("enabled") is False:
            reach = "would reach" if meant else "reach"
            for field in ("rules", "examples"):
                if isinstance(op.get(field), list) and op[field]:
                    yield linter.finding(
                        Code.IGNORED_OPERATION_FIELD,
                        f"{subject} is disabled, so its {field} {reach} no agent: {_REFUSED_BY[role]} "
                        f"refuse a disabled {role}, and only read_contract lists them; remove them, or set "
                        "enabled to true",
                        f"{pointer}/{field}",
                        key=True,
                    )
