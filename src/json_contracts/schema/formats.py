"""The ``format`` checks contracts get: the TypeScript server's (Ajv "full" formats), made real.

jsonschema's own checkers cover most names once ``jsonschema[format-nongpl]`` is installed;
here ``email`` and ``duration`` use ajv-formats' own patterns (jsonschema's email check only
looks for ``@``; its duration check needs ``isoduration`` and ``arrow``, 27 ms of imports), ``regex``
uses ECMA-262 (``regress``), and Ajv's extra names (``url``, ``int32``, ``byte``, …) are added.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

import regress
from jsonschema import FormatChecker
from jsonschema import _format as _jsonschema_formats

from json_contracts.schema.patterns import IN_PROCESS_LIMIT, regex_problem

__all__ = ["FORMAT_CHECKER", "FORMAT_EXAMPLES", "KNOWN_FORMATS", "ecma_regex"]


@lru_cache(maxsize=128)
def ecma_regex(pattern: str) -> regress.Regex:
    """A compiled ECMA-262 regex (Unicode mode), the last 128 kept.

    A pattern too long to trust ``regress`` with in process is first compiled in the worker of
    :mod:`~json_contracts.schema.patterns`, so one that would crash the engine raises instead.
    Matching contract values goes through :func:`~json_contracts.schema.patterns.search`, not this.

    Raises:
        regress.RegressError: the pattern is not a valid ECMA-262 regex.
    """
    if len(pattern) > IN_PROCESS_LIMIT and (problem := regex_problem(pattern)) is not None:
        raise regress.RegressError(problem)
    return regress.Regex(pattern, "u")


_BASE = _jsonschema_formats.draft202012_format_checker
FORMAT_CHECKER = FormatChecker(formats=())
for _name in _BASE.checkers:
    FORMAT_CHECKER.checkers[_name] = _BASE.checkers[_name]


_Check = TypeVar("_Check", bound=Callable[[object], bool])


def _checks(name: str, raises: type[Exception] | tuple[type[Exception], ...] = ()) -> Callable[[_Check], _Check]:
    """Register a format check (a typed wrapper around ``FormatChecker.checks``)."""
    return FORMAT_CHECKER.checks(name, raises=raises)


@_checks("regex")
def _is_regex(instance: object) -> bool:
    # Compiled without being kept: every distinct string a document sends would otherwise stay in
    # memory (80 strings of 600 KB held 680 MB).
    return not isinstance(instance, str) or regex_problem(instance) is None


# The TypeScript server's patterns (ajv-formats 3, "full" mode), read the way JavaScript reads them: ASCII
# classes, ASCII-only case folding, ``$`` only at the very end (\Z, never before a final newline).
_EMAIL = re.compile(
    r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\Z",
    re.ASCII | re.IGNORECASE,
)
_DURATION = re.compile(r"P(?!\Z)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)\Z", re.ASCII)


@_checks("email")
def _is_email(instance: object) -> bool:
    return not isinstance(instance, str) or _EMAIL.match(instance) is not None


@_checks("duration")
def _is_duration(instance: object) -> bool:
    return not isinstance(instance, str) or _DURATION.match(instance) is not None


def _conforms(name: str, instance: object) -> bool:
    return bool(FORMAT_CHECKER.conforms(instance, name))


@_checks("url")
def _is_url(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return bool(re.match(r"(?i)(https?|ftp)://[^\s/?#]+", instance)) and _conforms("uri", instance)


_TZ = re.compile(r"(?i)(z|[+-]\d\d(:?\d\d)?)$")


@_checks("iso-time")
def _is_iso_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return _conforms("time", instance if _TZ.search(instance) else instance + "Z")


@_checks("iso-date-time")
def _is_iso_date_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return _conforms("date-time", instance if _TZ.search(instance) else instance + "Z")


@_checks("byte", raises=(binascii.Error, ValueError))
def _is_byte(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    if len(instance) % 4:
        return False
    base64.b64decode(instance, validate=True)
    return True


def _int_range(bits: int) -> Any:
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1

    def check(instance: object) -> bool:
        if isinstance(instance, bool) or not isinstance(instance, (int, float)):
            return True
        return float(instance).is_integer() and low <= instance <= high

    return check


FORMAT_CHECKER.checks("int32")(_int_range(32))
FORMAT_CHECKER.checks("int64")(_int_range(64))
for _name in ("float", "double", "password", "binary"):
    FORMAT_CHECKER.checks(_name)(lambda instance: True)

_URI_FRAGMENT_POINTER = re.compile(r"(?i)#(?:/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*")


@_checks("json-pointer-uri-fragment")
def _is_pointer_fragment(instance: object) -> bool:
    return not isinstance(instance, str) or _URI_FRAGMENT_POINTER.fullmatch(instance) is not None


# --- uri-template: the verdicts of the ``uri_template`` package jsonschema uses, in linear time ---
# That package builds each variable name one character at a time and splits the text with a
# regex that rescans to the end from every "{" without a "}": a 1 MiB value took from 38 s to
# hours. The rules below are its rules, read once from left to right.

_SIMPLE_EXPRESSION = re.compile(r"^([a-zA-Z0-9_]|%[0-9a-fA-F][0-9a-fA-F]).*$")  # its test for "{name...}"
_VARIABLE_NAME = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9_./])*")
_VARIABLE_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def _template_variable(spec: str) -> bool:
    """One ``varspec``: a name, then ``:length`` (1 to 3 digits, not 0), ``*`` or ``[]``, then
    ``=default`` (anything)."""
    if spec[:1] not in _VARIABLE_START:  # a substring test there: "" passes, and fails below
        return False
    spec = spec.split("=", 1)[0]
    if ":" in spec:
        spec, length = spec.split(":", 1)
        if not (0 < len(length) < 4 and length.isascii() and length.isdigit() and int(length)):
            return False
    elif not spec:
        return False
    elif spec.endswith("*"):
        spec = spec[:-1]
    elif spec.endswith("[]"):
        spec = spec[:-2]
    return _VARIABLE_NAME.fullmatch(spec) is not None


def _template_expression(inside: str) -> bool:
    """The text between ``{`` and ``}``: an optional operator, then variables joined by commas
    (one trailing ``,``, ``.``, ``/``, ``;`` or ``&`` allowed)."""
    if _SIMPLE_EXPRESSION.match(inside) is None:
        operator = inside[:1]
        if not operator or operator not in "+#./;?&,":  # "=", "!", "@" and "|" are reserved
            return False
        inside = inside[2:] if inside.startswith(",+") else inside[1:]
    if inside and inside[-1] in ",./;&":
        inside = inside[:-1]
    return all(_template_variable(spec) for spec in inside.split(","))


@_checks("uri-template")
def _is_uri_template(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    start = 0
    while start < len(instance):
        opening = instance.find("{", start)
        closing = instance.find("}", opening) if opening >= 0 else -1
        if closing < 0:  # no expression left: the rest is literal text, without braces
            return "{" not in instance[start:] and "}" not in instance[start:]
        if instance.find("}", start, opening) >= 0 or not _template_expression(instance[opening + 1 : closing]):
            return False
        start = closing + 1
    return True


KNOWN_FORMATS: frozenset[str] = frozenset(FORMAT_CHECKER.checkers)

#: What to write for each format that can fail, and one value that passes its check: the repair
#: hint of ``check`` says "write /due as a date in the form YYYY-MM-DD, e.g. 2026-03-03", since
#: Ajv's 'must match format "date"' names the rule but not the shape. ``float``, ``double``,
#: ``password`` and ``binary`` accept every value, so they need none (a test holds both lists to
#: :data:`KNOWN_FORMATS`, and every example to its own check).
FORMAT_EXAMPLES: dict[str, tuple[str, str | int]] = {
    "date": ("a date in the form YYYY-MM-DD", "2026-03-03"),
    "time": ("a time in the form HH:MM:SS with a time zone (Z or +HH:MM)", "09:30:00Z"),
    "date-time": (
        "a date and time in the form YYYY-MM-DDTHH:MM:SS with a time zone (Z or +HH:MM)",
        "2026-03-03T09:30:00Z",
    ),
    "iso-time": ("a time in the form HH:MM:SS, with or without a time zone", "09:30:00"),
    "iso-date-time": (
        "a date and time in the form YYYY-MM-DDTHH:MM:SS, with or without a time zone",
        "2026-03-03T09:30:00",
    ),
    "duration": ("an ISO 8601 duration: P, then amounts of Y, M, D and, after T, of H, M, S (or PnW)", "P3DT12H"),
    "email": ("an email address in the form name@domain", "ada@example.com"),
    "idn-email": ("an email address in the form name@domain (letters outside ASCII allowed)", "ada@example.com"),
    "hostname": ("a host name: labels of letters, digits and hyphens joined by dots", "api.example.com"),
    "idn-hostname": ("a host name: labels joined by dots (letters outside ASCII allowed)", "api.example.com"),
    "ipv4": ("an IPv4 address: four numbers from 0 to 255 joined by dots", "192.0.2.10"),
    "ipv6": ("an IPv6 address: groups of hex digits joined by colons", "2001:db8::1"),
    "uri": ("an absolute URI, starting with a scheme such as https:", "https://example.com/path"),
    "uri-reference": ("a URI or a relative reference, without spaces", "/path?query=1"),
    "uri-template": ("a URI template (RFC 6570), variables in braces", "https://example.com/items/{id}"),
    "url": ("a URL starting with http://, https:// or ftp://", "https://example.com/"),
    "uuid": ("a UUID: 32 hex digits in groups of 8-4-4-4-12", "123e4567-e89b-12d3-a456-426614174000"),
    "json-pointer": ("a JSON pointer: empty, or names each after a /", "/items/0/name"),
    "json-pointer-uri-fragment": ("a JSON pointer written as a URI fragment, after #", "#/items/0"),
    "relative-json-pointer": ("a relative JSON pointer: how many levels up, then a pointer or #", "1/name"),
    "regex": ("a regular expression JavaScript accepts (ECMA-262)", "^[a-z]+$"),
    "byte": ("base64 text: A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4 characters", "aGVsbG8="),
    "int32": ("a whole number from -2147483648 to 2147483647", 42),
    "int64": ("a whole number from -9223372036854775808 to 9223372036854775807", 42),
}
