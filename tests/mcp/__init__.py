"""Tests of json_contracts.mcp: the MCP server in memory, on the wire, and as a real process."""
