"""Tests of json_contracts._json: reading JSON text with positions, writing it as JavaScript does, hashing."""
