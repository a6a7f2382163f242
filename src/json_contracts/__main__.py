"""``python -m json_contracts`` runs the command line."""

from json_contracts.cli import main

main()
