"""The MCP server adapter: the tools, resources and prompts of json-contracts over the engine.

In the order a request travels: :mod:`.settings` (environment and options), :mod:`.run` (start
and serve), :mod:`.transports` and :mod:`.stdio` (stdio and streamable HTTP; :mod:`.lines` answers
request lines the SDK's parser refuses), :mod:`.server` (the SDK's low-level server), :mod:`.tools`
(each tool and prompt declared once), :mod:`.handlers` (what they answer, as data),
:mod:`.outputs` (output schemas from this project's own contracts), :mod:`.watch` (live reload)
and :mod:`.log` (stderr lines). Importing the package imports nothing; :mod:`.run` and
:mod:`.server` import the SDK.
"""
