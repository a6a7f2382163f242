"""Tests of json_contracts.testing: the property checks and the strategies behind them."""
