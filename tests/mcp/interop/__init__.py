"""The MCP server driven by third-party clients: the TypeScript SDK, the MCP Inspector, the Python SDK."""
