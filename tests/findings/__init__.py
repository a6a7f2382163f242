"""Tests of json_contracts.findings: the code table."""
