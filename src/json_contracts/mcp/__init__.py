"""The MCP server adapter: the tools, resources and prompts of json-contracts over the engine.

In the order a request travels: :mod:`.settings` (environment and options), :mod:`.run` (start
and serve), :mod:`.stdio` (stdin and stdout lines) and :mod:`.frontdesk` (answers the handshake,
``ping``, ``tools/list`` and ``tools/call`` itself and hands the rest to the SDK), :mod:`.transports`
(the SDK's server on a stream; :mod:`.lines` answers request lines the SDK's parser refuses),
:mod:`.http` (streamable HTTP and its gates), :mod:`.server` (the SDK's low-level server),
:mod:`.tools` (each tool and prompt declared once), :mod:`.handlers` (what they answer, as data),
:mod:`.outputs` (output schemas from this project's own contracts), :mod:`.watch` (live reload)
and :mod:`.log` (stderr lines). Importing the package imports nothing; :mod:`.server`,
:mod:`.transports` and :mod:`.http` import the SDK, :mod:`.run` and :mod:`.frontdesk` do not.
"""
