"""Tests of json_contracts.schema: dialects, schema checks, patterns and validation errors."""
