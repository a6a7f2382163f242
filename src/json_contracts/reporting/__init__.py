"""Rendering findings and reports, as data or text every adapter prints as it is.

:mod:`.text` (``file:line:col: CODE severity message`` lines and their order), :mod:`.reports`
(the ``--json`` reports of ``validate`` and ``lint``), :mod:`.markdown` (the job summary),
:mod:`.github` (workflow-command annotations and ``$GITHUB_OUTPUT`` counts) and :mod:`.sarif`
(a SARIF 2.1.0 log for code scanning).
"""
