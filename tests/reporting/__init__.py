"""Tests of json_contracts.reporting: the text line, GitHub annotations, the Markdown summary and SARIF."""
