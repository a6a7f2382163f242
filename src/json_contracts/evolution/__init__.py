"""Contract evolution: what changed between two versions of a contracts folder, and whom it breaks.

:mod:`.model` holds the data (changes, witnesses, modes), :mod:`.rules` the static rules,
:mod:`.focus` narrows a schema to a change, :mod:`.compare` matches contracts and proves changes
with the witness search of :mod:`json_contracts.testing.witness`, :mod:`.revisions` reads a folder
as a Git revision has it, and :mod:`.report` turns a comparison into findings and JSON.
"""
