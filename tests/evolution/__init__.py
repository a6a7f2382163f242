"""Tests of contract evolution (``json_contracts.evolution``): static rules, focus, witness search, corpus."""
