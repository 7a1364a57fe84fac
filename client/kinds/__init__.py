"""Each puzzle kind's drawing: one module per kind, named as its ``Puzzle`` oneof field,
with ``draw``, ``entries``, ``with_entries`` and ``solution_text``
(see :class:`numgrid.client.render.Renderer`)."""
