"""The links people paste (puzz.link, penpa-edit, f-puzzles, SudokuWiki): the codecs
each site defines, shared by the kinds that site holds. Each kind maps a decoded link to
its own puzzle in its own folder (``<kind>/<format>.py``, one :class:`Format` each);
the spec of every link, read from the programs that define them, is
docs/links-formats.md."""
