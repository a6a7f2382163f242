"""JSON Schema as json-contracts reads it: dialects, Ajv-compatible validation, formats, patterns.

In data-flow order: :mod:`.vocabulary` (keywords per dialect, where sub-schemas are),
:mod:`.dialects` (draft-07 or 2020-12 for contracts, five dialects for the library, the
meta-schema check), :mod:`.checking` (depth, ``$ref``
targets and loops), :mod:`.ajv` (validators that behave and word their errors as Ajv does),
:mod:`.formats` and :mod:`.patterns` (``format`` and ECMA-262 ``pattern``, with
:mod:`.regex_safety` spotting patterns that backtrack catastrophically), :mod:`.compiled`
(cached validators, no network), :mod:`.validation` (error records) and :mod:`.authoring` (valid
schemas that are still mistakes: what lint reports and the loader cites when an example fails).
"""
