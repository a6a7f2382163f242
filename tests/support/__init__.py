"""Helpers shared by the test folders, imported as ``tests.support.<module>`` (nothing edits ``sys.path``).

- ``samples``: sample contracts and documents used by more than one test module.
- ``golden``: the golden data in tests/data.
- ``findings``: findings made up for the reporting tests.
- ``cli``, ``lint``, ``mcp``, ``mcp_faults``, ``hardening``, ``plugin``, ``action``, ``gha_runner``:
  helpers and fixture types for one folder each (``gha_runner`` is the simulated GitHub runner).
- ``init_kill_harness`` and ``mcp_faults`` are also run as scripts, by their file path, in a
  process of their own (tests/cli/test_cli_init_kill.py, tests/mcp/test_mcp_faults.py).

Fixtures stay in the ``conftest.py`` next to the tests that use them.
"""
