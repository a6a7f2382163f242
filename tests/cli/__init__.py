"""Tests of json_contracts.cli: every command, in-process and as the installed script."""
