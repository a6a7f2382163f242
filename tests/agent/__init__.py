"""Tests of json_contracts.agent: the payloads, prompts, repair hints and argument checks agents receive."""
