"""Tests of the pytest plugin distribution (pytest_plugin/src/pytest_json_contracts)."""
