"""Tests of json_contracts.contracts: names, the file shape, loading a folder and the contract store."""
