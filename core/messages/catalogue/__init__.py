"""The French text of every message code, one module per area, each a ``FRENCH`` dict
(code → text with ``{param}`` placeholders). Found by :func:`core.messages.french_catalogue`."""
