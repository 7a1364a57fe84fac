"""``numgrid play``: a puzzle of any kind played in the terminal.

- :mod:`.game`: the game state (board, entries, pencil marks, undo/redo, the game
  file), pure and without a screen or a server;
- :mod:`.referee`: the server's judgement (Validate, Hint, CheckUniqueness);
- :mod:`.board`: the board drawn from the kind's layout;
- :mod:`.app`: the textual app; :mod:`.command`: the CLI command.
"""
