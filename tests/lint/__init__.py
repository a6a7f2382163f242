"""Tests of json_contracts.lint: every rule, the library API and the pyproject settings."""
