"""What the conformance suite knows of Jigsaw Sudoku: its sample, its corpus (4x4 to 9x9,
eleven 6x6 puzzles published with an X rule the data does not mark) and an independent
checker of solutions (rows, columns, regions and givens, counted here)."""

from __future__ import annotations

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS

from support.facts import Facts
from support.facts import latin_violations
from support.facts import no_trials

JIGSAW = KINDS["jigsaw"]
BOXES_4X4 = "1 1 2 2\n1 1 2 2\n3 3 4 4\n3 3 4 4\n"
BOXES_9X9 = "\n".join(" ".join(str(1 + r // 3 * 3 + c // 3) for c in range(9)) for r in range(9))
OPEN_9X9 = "9 9\n" + "\n".join([" ".join("-" * 9)] * 9) + "\n" + BOXES_9X9  # no given


def rule_violations(p, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    regions: dict[str, list[Cell]] = {}
    for r, row in enumerate(p.regions):
        for c, region in enumerate(row):
            regions.setdefault(f"region {region}", []).append((r, c))
    return latin_violations(p, grid, regions)


FACTS = Facts(
    sample="jigsaw-9x9.jigsaw",
    corpus_key="100_6x6",
    # regions as boxes; the top-right 2x2 of each half swaps: a unique rectangle left open
    two_solutions="4 4\n- 2 - 4\n- 4 - 2\n2 1 4 3\n4 3 2 1\n" + BOXES_4X4,
    differing=frozenset({(0, 0), (0, 2), (1, 0), (1, 2)}),
    broken="4 4\n1 - - -\n- 1 - -\n- - - -\n- - - -\n" + BOXES_4X4,  # two 1s in region 1
    broken_findings=(("duplicate_given", ((0, 0), (1, 1)), "region at r0c0"),),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: JIGSAW.formats.read(OPEN_9X9, None, 100).puzzle,
    corpus_size=510,
    trials=no_trials,
    formats_without_entries=frozenset({"janko", "tatham", "penpa"}),  # penpa: an m=solve link
    corpus_step=5,
    unmarked_x=frozenset(
        f"{n}_6x6" for n in (651, 652, 654, 655, 662, 663, 664, 671, 672, 674, 675)
    ),
)
