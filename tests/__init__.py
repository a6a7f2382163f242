"""The test suite: a folder per package of src/json_contracts, the Action, the pytest plugin, hardening."""
