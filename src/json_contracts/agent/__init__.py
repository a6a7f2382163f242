"""What an agent receives: the contract, create, edit and repair payloads, prompts and argument checks.

:mod:`.payloads` builds the answers of the MCP tools (and the Python API), :mod:`.repair` turns
validation errors into hints and machine-readable repairs, :mod:`.documents` checks one received
document (``json-contracts check``), :mod:`.prompts` renders the three MCP prompts, and
:mod:`.arguments` checks tool and prompt arguments with the TypeScript server's error lists.
"""
