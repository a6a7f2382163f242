"""The problem model every layer reports with: :class:`Finding` and the catalogue of codes.

Pure data that imports nothing else of json-contracts, so reading a finding or a code costs no
JSON Schema machinery.
"""

from json_contracts.findings.catalogue import CATALOGUE, CHECK_CODES, Code, CodeInfo, Family
from json_contracts.findings.finding import SEVERITY_RANK, Finding, Severity

__all__ = ["CATALOGUE", "CHECK_CODES", "SEVERITY_RANK", "Code", "CodeInfo", "Family", "Finding", "Severity"]
