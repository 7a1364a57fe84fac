"""The ``numgrid`` commands, one module each: every module builds its
:class:`~.base.Command` as ``COMMAND``, and :data:`numgrid.client.cli.COMMANDS` lists them
once (the parser and the dispatch are built from that list)."""
