"""KenKen's two engines (native and CP-SAT) and their cross-check: verdicts, held entries,
a budget's cross-check, node counts, the layout tables, and a property over random
valid puzzles (both engines agree, and every solution keeps every rule)."""

from __future__ import annotations

import itertools
import sys
import threading

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import cpsat_runner
from numgrid.server import engines
from numgrid.server.core import Budget
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.kenken import arith
from numgrid.server.kinds.kenken import cpsat
from numgrid.server.kinds.kenken import native
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from support.engines import searches
from support.kenken import KENKEN
from support.kenken import corpus_puzzle
from support.kenken import puzzle
from support.kenken import random_puzzle
from support.kenken import rule_violations

run_native, run_cpsat, BOTH = searches(KENKEN)

# 2x2: each row adds up to 3, so both latin squares of 1 and 2 do
TWO_WAYS = puzzle(2, ("3+", [(0, 0), (0, 1)]), ("3+", [(1, 0), (1, 1)]))
# 2x2: r1c0 = 1 makes r1c1 = 2, yet its cage says 1 (every cage can be met on its own)
NO_WAY = puzzle(2, ("2x", [(0, 0), (0, 1)]), ("1", [(1, 0)]), ("1", [(1, 1)]))
# 9x9, each row one 45+ cage: every 9x9 latin square is a solution
OPEN_9 = puzzle(9, *(("45+", [(r, c) for c in range(9)]) for r in range(9)))


def grid(rows: str):
    return tuple(tuple(int(d) for d in row) for row in rows.split())


# ---------------------------------------------------------------- verdicts


@BOTH
def test_a_corpus_puzzle_is_unique_with_the_published_solution(search):
    p, published = corpus_puzzle("02_4x4")
    result = search(p)
    assert result.complete
    assert result.verdict() is Verdict.UNIQUE
    assert result.solutions == (published,)


@BOTH
def test_two_solutions_are_found_and_differ(search):
    result = search(TWO_WAYS)
    assert result.verdict() is Verdict.MULTIPLE
    assert set(result.solutions) == {grid("12 21"), grid("21 12")}
    for solution in result.solutions:
        assert rule_violations(TWO_WAYS, solution) == []


@BOTH
def test_a_larger_limit_finds_every_solution_and_stops_there(search):
    four = puzzle(3, *(("6+", [(r, c) for c in range(3)]) for r in range(3)))
    result = search(four, limit=100)
    assert result.complete
    assert len(set(result.solutions)) == len(result.solutions) == 12  # 3x3 latin squares
    assert len(search(four, limit=5).solutions) == 5


@BOTH
def test_no_solution(search):
    result = search(NO_WAY)
    assert result.complete
    assert result.verdict() is Verdict.NO_SOLUTION
    assert result.solutions == ()


@BOTH
def test_a_cage_with_no_layout_is_no_solution(search):
    p = puzzle(2, ("3x", [(0, 0), (0, 1)]), ("3+", [(1, 0), (1, 1)]))
    assert search(p).verdict() is Verdict.NO_SOLUTION


@BOTH
def test_a_cage_without_operation_takes_any(search):
    # "2" over two cells: 1 and 2 (2-1 is 1, 2/1 is 2, 1x2 is 2): any operation that works
    p = puzzle(2, ("2", [(0, 0), (0, 1)]), ("1", [(1, 0)]), ("2", [(1, 1)]))
    assert p.cages[0].operation == ""
    result = search(p)
    assert result.verdict() is Verdict.UNIQUE
    assert result.solutions == (grid("21 12"),)


# ---------------------------------------------------------------- held entries


@BOTH
def test_held_entries_are_kept(search):
    fixed = grid("2000 0000 0000 0000")
    open_4 = puzzle(4, *(("10+", [(r, c) for c in range(4)]) for r in range(4)))
    result = search(open_4, limit=50, fixed=fixed)
    assert len(result.solutions) == 50
    assert all(s[0][0] == 2 for s in result.solutions)


@BOTH
def test_held_entries_from_the_solution_keep_it(search):
    p, published = corpus_puzzle("02_4x4")
    fixed = tuple(tuple(d if (r + c) % 3 == 0 else 0 for c, d in enumerate(row))
                  for r, row in enumerate(published))  # fmt: skip
    assert search(p, fixed=fixed).solutions == (published,)


@BOTH
@pytest.mark.parametrize(
    "change",
    [
        {(0, 0): 1},  # the solution has 3 there
        {(0, 0): 1, (0, 1): 1},  # two 1s in a row
        {(2, 2): 9},  # no such digit on a 4x4
    ],
    ids=["wrong-digit", "repeated-digit", "out-of-range"],
)
def test_contradicting_entries_have_no_solution(search, change):
    p, published = corpus_puzzle("02_4x4")
    assert published[0][0] == 3
    fixed = [[0] * 4 for _ in range(4)]
    for (r, c), d in change.items():
        fixed[r][c] = d
    result = search(p, fixed=tuple(map(tuple, fixed)))
    assert result.complete
    assert result.verdict() is Verdict.NO_SOLUTION


# ---------------------------------------------------------------- budgets


def test_cross_check_under_a_budget_reports_timeout_not_disagreement():
    answer = engines.find(
        KENKEN, NO_WAY, engine=Engine.CROSS_CHECK, limit=2, budget=Budget.seconds(5)
    )
    assert answer.verdict is Verdict.NO_SOLUTION
    answer = engines.find(
        KENKEN, OPEN_9, engine=Engine.CROSS_CHECK, limit=10**6, budget=Budget.seconds(0.2)
    )
    assert answer.verdict is Verdict.MULTIPLE
    assert [s.engine for s in answer.stats] == ["cpsat", "native"]


# ---------------------------------------------------------------- statistics


def test_native_counts_its_nodes():
    p, _ = corpus_puzzle("02_4x4")
    easy = run_native(p)
    assert easy.stats.engine == "native"
    assert easy.stats.nodes == 1  # propagation alone solves it and proves it unique
    assert easy.stats.seconds >= 0
    two = run_native(TWO_WAYS)
    assert two.stats.nodes == 3  # the root, then one branch per digit of its first cell


def test_cpsat_reports_its_engine():
    result = run_cpsat(TWO_WAYS)
    assert result.stats.engine == "cpsat"
    assert result.stats.seconds > 0


def test_a_deep_search_needs_no_recursion():
    # 16x16 with one sum cage per row: hundreds of branch points deep, no recursion
    open_16 = puzzle(16, *(("136+", [(r, c) for c in range(16)]) for r in range(16)))
    result = run_native(open_16, limit=1, budget=Budget.seconds(20))
    assert result.complete and len(result.solutions) == 1
    assert rule_violations(open_16, result.solutions[0]) == []


# ---------------------------------------------------------------- the layout tables


SHAPES = [
    ((0, 0), (0, 1)),
    ((0, 0), (1, 0)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (0, 1), (1, 0)),
    ((0, 0), (1, 0), (1, 1), (2, 1)),
    ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{len(s)}cells")
def test_the_layout_listing_matches_brute_force(shape):
    # arith lists + and x layouts by growing prefixes; every digit tuple, sorted by what
    # it gives, must say the same (lexicographic order included)
    clashes = [
        (a, b)
        for b in range(len(shape))
        for a in range(b)
        if shape[a][0] == shape[b][0] or shape[a][1] == shape[b][1]
    ]
    for size, op in itertools.product((4, 6, 9), ("+", "x")):
        by_target: dict[int, list] = {}
        for digits in itertools.product(range(1, size + 1), repeat=len(shape)):
            if all(digits[a] != digits[b] for a, b in clashes):
                by_target.setdefault(arith.value(op, digits), []).append(digits)
        top = len(shape) * size if op == "+" else size ** len(shape)
        for target in range(0, min(top, 400) + 2):
            expected = tuple(by_target.get(target, ()))
            assert arith.layouts(Cage(target, op, shape), size) == expected, (size, op, target)


def test_a_digit_the_rest_of_the_line_lacks_goes_in_the_cage():
    # 8x8, a two-cell "2" in a row, operation not given: 2 apart or one twice the other.
    # If no other cell of the row can hold 4, one of these holds it: the other is 2, 6 or 8
    rule = native._layouts_of(2, "", ((0, 0), (0, 1)), 8)
    anything = (1 << 8) - 1
    two_four_six_eight = 0b10101010
    assert rule.revise((anything, anything))[0] != (two_four_six_eight,) * 2
    new, claimed = rule.revise((anything, anything), (1 << 3,))
    assert new == (two_four_six_eight,) * 2
    assert claimed == (1 << 3,)  # and 4 leaves the rest of the row
    assert rule.revise((anything, 1 << 0), (1 << 3,)) is None  # 1 cannot go with 4


def test_the_sum_propagator_agrees_with_the_layouts():
    # a 5-cell sum cage goes to partial sums; with entries it must still judge exactly
    shape = ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2))
    p = Puzzle(5, (Cage(15, "+", shape),))
    for layout in arith.layouts(p.cages[0], 5)[:40]:
        masks = tuple(1 << (d - 1) for d in layout)
        assert native._Sum(15).revise(masks) == (masks, ())
    assert native._Sum(15).revise((1, 1, 1, 1, 1)) is None  # 1+1+1+1+1 is not 15


# ---------------------------------------------------------------- cross-check, corpus sample


@pytest.mark.parametrize("key", ["02_4x4", "30_4x4", "07_5x5", "107_7x7", "419_9x9"])
def test_cross_check_on_corpus_puzzles(key):
    p, published = corpus_puzzle(key)
    answer = engines.find(KENKEN, p, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.UNIQUE
    assert answer.solutions == (published,)


@pytest.mark.parametrize("mode", [cpsat.TABLES, cpsat.ARITHMETIC, cpsat.SUMS])
def test_every_cpsat_variant_solves(mode):
    class Variant:
        def cpsat_model(self, p, fixed):
            return cpsat.build(p, fixed, cages=mode)

    for key in ("02_4x4", "07_5x5", "30_4x4", "100_9x9"):
        p, published = corpus_puzzle(key)
        result = cpsat_runner.search(Variant(), p, limit=2, fixed=None, budget=Budget())
        assert result.solutions == (published,), key
    assert cpsat_runner.search(Variant(), TWO_WAYS, limit=2, fixed=None, budget=Budget())
    nothing = cpsat_runner.search(Variant(), NO_WAY, limit=2, fixed=None, budget=Budget())
    assert nothing.verdict() is Verdict.NO_SOLUTION


# ---------------------------------------------------------------- random puzzles


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    hold=st.floats(0, 0.3),
)
def test_random_puzzles_both_engines_agree_and_keep_every_rule(size, seed, hold):
    p, planted = random_puzzle(size, seed)
    cells = sorted(p.cells)
    held = set(cells[:: max(1, int(1 / hold))] if hold > 0.05 else [])
    fixed = tuple(
        tuple(planted[r][c] if (r, c) in held else 0 for c in range(size)) for r in range(size)
    )
    budget = Budget.seconds(30)
    mine, theirs = run_native(p, fixed=fixed, budget=budget), run_cpsat(p, fixed=fixed)
    assert mine.complete and theirs.complete
    assert mine.verdict() is theirs.verdict()
    assert mine.verdict() in (Verdict.UNIQUE, Verdict.MULTIPLE)  # the planted one exists
    for result in (mine, theirs):
        assert len(set(result.solutions)) == len(result.solutions)
        for solution in result.solutions:
            assert rule_violations(p, solution) == []
            assert all(solution[r][c] == planted[r][c] for r, c in held)
    if mine.verdict() is Verdict.UNIQUE:
        assert mine.solutions == theirs.solutions == (planted,)


@pytest.mark.parametrize("key", ["39_8x8", "107_7x7", "210_9x9", "70_8x8"])
def test_cages_sharing_tables_by_their_conflicts_still_solve_each_way(key):
    # A row of cells and a column, an L and its transpose, share one table and memo:
    # the puzzle, its transpose and its mirror image, solved in turn, each get theirs
    p, published = corpus_puzzle(key)
    n = p.size
    moves = {
        "as is": lambda r, c: (r, c),
        "transposed": lambda r, c: (c, r),
        "mirrored": lambda r, c: (r, n - 1 - c),
    }
    for name, move in moves.items():
        cages = tuple(
            Cage(cage.target, cage.operation, tuple(sorted(move(r, c) for r, c in cage.cells)))
            for cage in p.cages
        )
        expected = [[0] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                rr, cc = move(r, c)
                expected[rr][cc] = published[r][c]
        result = run_native(Puzzle(n, cages), limit=2)
        assert result.verdict() is Verdict.UNIQUE, name
        assert result.solutions == (tuple(map(tuple, expected)),), name


def test_cages_with_the_same_conflicts_share_their_layouts():
    row, column = ((0, 0), (0, 1)), ((0, 0), (1, 0))
    ell, transposed = ((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1))
    assert arith.conflicts_of(row) == arith.conflicts_of(column)
    assert native._layouts_of(3, "-", row, 6) is native._layouts_of(3, "-", column, 6)
    assert native._layouts_of(12, "x", ell, 6) is native._layouts_of(12, "x", transposed, 6)
    mirrored = ((0, 0), (0, 1), (1, 0))  # the last cell meets the first, not the second
    assert arith.conflicts_of(mirrored) != arith.conflicts_of(ell)
    assert native._layouts_of(12, "x", mirrored, 6) is not native._layouts_of(12, "x", ell, 6)


def test_what_the_engine_remembers_is_bounded(monkeypatch):
    # a server meets ever new cage kinds: past the budget memos are forgotten, past
    # TABLES the oldest tables; answers stay right all the while
    monkeypatch.setattr(native, "MEMO_BUDGET", 200)
    monkeypatch.setattr(native, "TABLES", 40)
    monkeypatch.setattr(native, "_tables", {})
    for key in ("39_8x8", "107_7x7", "210_9x9", "02_4x4", "100_9x9"):
        p, published = corpus_puzzle(key)
        assert run_native(p).solutions == (published,), key
        remembered = sum(len(t.memo) for t in native._tables.values())
        remembered += sum(
            len(s) for t in native._tables.values() if hasattr(t, "support") for s in t.support
        )
        assert remembered <= 200
        assert len(native._tables) <= 40


def test_searches_in_many_threads_share_the_tables_safely(monkeypatch):
    # a server runs searches in several threads: forgetting memos and dropping tables
    # while others add theirs must not break any (it raised "dictionary changed size
    # during iteration" once); thread switches are made very frequent to provoke it
    monkeypatch.setattr(native, "MEMO_BUDGET", 50)
    monkeypatch.setattr(native, "TABLES", 20)
    monkeypatch.setattr(native, "_tables", {})
    keys = ["39_8x8", "107_7x7", "210_9x9", "02_4x4", "100_9x9", "70_8x8", "07_5x5", "30_4x4"]
    puzzles = [corpus_puzzle(key) for key in keys]
    failures = []

    def solve_all(offset: int) -> None:
        try:
            for k in range(len(puzzles)):
                p, published = puzzles[(k + offset) % len(puzzles)]
                native.compiled.cache_clear()
                assert run_native(p).solutions == (published,)
        except Exception as e:  # reported below with its thread
            failures.append(f"thread {offset}: {type(e).__name__}: {e}")

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=solve_all, args=(k,)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(before)
    assert failures == []


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(
        [
            (6, "x", ((0, 0), (0, 1), (1, 0)), 6),
            (2, "", ((0, 0), (0, 1)), 8),
            (15, "+", ((0, 0), (1, 0), (1, 1)), 9),
            (13, "+", ((0, 0), (0, 1), (0, 2), (1, 2)), 7),
            (240, "x", ((0, 0), (1, 0), (1, 1), (2, 1)), 9),
        ]
    ),
    data=st.data(),
)
def test_few_layouts_revise_as_the_tables_do(kind, data):
    # a kind of few layouts is revised by a loop, a larger one by big-int tables: on the
    # same masks and required digits both give the same revision
    target, op, shape, size = kind
    packed = arith.packed(Cage(target, op, shape), size)
    parts = native._structure(shape)[1]
    loop = native._Few(packed, len(shape), parts, size)
    tables = native._Layouts(packed, len(shape), parts, size)
    masks = tuple(data.draw(st.integers(1, (1 << size) - 1)) for _ in shape)
    required = data.draw(
        st.one_of(st.just(()), st.tuples(*[st.integers(0, (1 << size) - 1) for _ in parts]))
    )
    assert loop.revise(masks, required) == tables.revise(masks, required)
    alive = tables.alive(masks)
    assert loop.alive(masks) == alive
    if alive:  # kept is asked only of live layouts
        assert loop.kept(masks, alive) == tables.kept(masks, alive)


def test_part_sums_match_the_layouts_by_either_table_build():
    # per line of a band, the sum a cage puts there, in fields of their own: what
    # brute force over the layouts gives, whether built from layouts or from bit tables
    target, op, shape, size = 20, "", ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2), (3, 2)), 8
    layouts = arith.layouts(Cage(target, op, shape), size)
    rule = native._layouts_of(target, op, shape, size)
    positions, weights = (0, 1, 2), (1, 37, 37)  # rows 0 and 1 of the cage
    expected = tuple(
        sorted(
            {sum(lay[j] * w for j, w in zip(positions, weights, strict=True)) for lay in layouts}
        )
    )
    anything = (1 << size) - 1
    for built in (
        native._PartSums(rule, positions, weights, arith.packed(Cage(target, op, shape), size)),
        native._PartSums(rule, positions, weights),
    ):
        assert built.sums((anything,) * len(shape)) == expected


def test_a_band_finds_a_wrong_line_total():
    p, published = corpus_puzzle("02_4x4")
    comp = native.compiled(p)
    cand = [1 << (d - 1) for row in published for d in row] + [0] * (2 * p.size)
    assert all(native._band_changes(band, cand) == [] for band in comp.bands)
    cand[0] = 1 << (published[0][0] % p.size)  # another digit: row 0 and column 0 are off
    assert native._band_changes(comp.bands[0], cand) is None


@pytest.mark.slow
@given(st.data())
@settings(max_examples=60, deadline=None)
def test_completes_agrees_with_the_layouts_packed_or_not(data):
    # a 7-cell 34+ has 83,824 layouts (kept packed, searched by a regular expression),
    # a 3-cell 12x a few (kept as tuples): both answer as a look at every layout would
    cage, n = data.draw(
        st.sampled_from(
            [
                (Cage(34, "+", ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (2, 0))), 9),
                (Cage(12, "x", ((0, 0), (0, 1), (1, 0))), 6),
            ]
        )
    )
    digits = data.draw(
        st.lists(st.integers(0, n), min_size=len(cage.cells), max_size=len(cage.cells))
    )
    expected = any(
        all(d == 0 or d == want for d, want in zip(digits, layout, strict=True))
        for layout in arith.layouts(cage, n)
    )
    assert arith.completes(cage, n, digits) is expected


def test_layouts_as_maps_each_digit_of_each_layout():
    big = Cage(34, "+", ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (2, 0)))
    small = Cage(7, "+", ((0, 0), (0, 1), (1, 1)))
    for cage in (big, small):
        table = [None, *(1 << d for d in range(9))]
        mapped = arith.layouts_as(cage, 9, table)
        assert mapped == tuple(tuple(table[d] for d in lay) for lay in arith.layouts(cage, 9))
    assert arith.count(big, 9) > arith.PACK_OVER >= arith.count(small, 9)


def test_a_large_cage_kind_is_listed_once_for_every_puzzle_holding_it():
    # 419_9x9's 34+ was listed anew for each call (8.5 MB of tuples each time)
    from numgrid.server.kinds.kenken import techniques

    p, _ = corpus_puzzle("419_9x9")
    big = max(range(len(p.cages)), key=lambda k: arith.count(p.cages[k], p.size))
    first = techniques._compiled(p).cage_bits[big]
    assert len(first) > arith.PACK_OVER
    assert techniques._compiled(p).cage_bits[big] is first


def test_cage_kinds_are_kept_up_to_a_number_of_layouts_in_all(monkeypatch):
    # a kind's tables are shared by every puzzle, the least recently used going first
    # once the kinds kept hold more layouts than KIND_LAYOUTS (a 7-cell 34+: 83,824)
    from numgrid.server.kinds.kenken import techniques

    shape = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (2, 0))
    monkeypatch.setattr(techniques, "KIND_LAYOUTS", 100_000)
    big = techniques.cage_kind(34, "+", shape, 9)
    assert techniques.cage_kind(34, "+", shape, 9) is big
    techniques.cage_kind(33, "+", shape, 9)  # tens of thousands more: the 34+ goes
    assert techniques.cage_kind(34, "+", shape, 9) is not big


@pytest.mark.slow
@given(st.lists(st.integers(1, (1 << 9) - 1), min_size=7, max_size=7))
@settings(max_examples=25, deadline=None)
def test_a_large_kinds_live_layouts_are_those_a_filter_of_the_tuples_keeps(masks):
    # a large kind is kept packed and narrowed by bit sets: the same layouts, the same
    # order, the same digits per cell as filtering the tuples
    from numgrid.server.kinds.kenken import techniques

    cage = Cage(34, "+", ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (2, 0)))
    every = techniques._bit_layouts(cage, 9)
    assert isinstance(every, techniques.LiveLayouts)
    expected = tuple(
        lay
        for lay in arith.layouts_as(cage, 9, (0, *(1 << d for d in range(9))))
        if all(b & m for b, m in zip(lay, masks, strict=True))
    )
    live = every.narrowed(dict(enumerate(masks)))
    assert tuple(live) == expected and len(live) == len(expected)
    assert techniques.union_of(live, 7) == techniques.union_of(expected, 7)
    if expected:
        assert live[0] == expected[0] and live[len(expected) - 1] == expected[-1]
