"""What the tests share: the corpus of every kind (:mod:`.corpus`), raw gRPC calls to a
real server (:mod:`.rpc`), and each kind's own builders and independent checker of
solutions (:mod:`.kakuro`, :mod:`.kenken`, ... named as the kind)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
PUZZLES = REPO / "puzzles"  # the sample files
DATA = TESTS / "data"  # the tests' own data files
