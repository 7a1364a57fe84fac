"""Fuzzing at the library level (no server): text in every kind's formats, structured
messages, whole requests and raw request bytes, random or mutated from the real puzzles
(:mod:`fuzzing`), go through what the servicer does with them. Nothing raises but the
documented errors (PuzzleError from the readers, InvalidRequest from convert), every
error says what is wrong in a short sentence, and every search ends within its budget.

``benchmarks/fuzz.py`` sends the same inputs to a real server, by the hundred thousand.
"""

from __future__ import annotations

import json
import time

import fuzzing
import pytest
from google.rpc import code_pb2
from google.rpc import status_pb2
from hypothesis import HealthCheck
from hypothesis import event
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import batch
from numgrid.server import convert
from numgrid.server import generate
from numgrid.server import operations
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Verdict
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.links import fpuzzles
from numgrid.server.kinds.links.lzstring import compress_to_base64
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.facts import sample

MAX_CELLS = 20_000  # the server's default
BUDGET = 0.5  # seconds a search of the pipeline test may take
# How far past its budget a call may end: reading and checking are not budgeted, and the
# native Kakuro engine looks at the budget once per node (a node of the 30x30 in
# tests/data takes 0.25 s, twice that while CP-SAT builds its model beside it).
BUDGET_SLACK = 1.0
MESSAGE_CHARS = 500  # a finding is a sentence, never the input echoed back
# What a default gRPC client accepts in trailers (beyond it the call ends RESOURCE_EXHAUSTED
# "received metadata size exceeds soft limit"), less what :status, content-type and
# grpc-status take.
TRAILER_BYTES = 8 * 1024 - 256

randoms = st.randoms(use_true_random=False)


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.fixture(scope="module", autouse=True)
def _cpsat_loaded():
    """The server loads OR-Tools at start; here too, so no budget pays for the import."""
    import numgrid.server.cpsat_runner  # noqa: F401


# ---------------------------------------------------------------- what a good error is


def assert_clear(findings) -> None:
    assert findings, "an error without a finding"
    for f in findings:
        assert isinstance(f.code, str) and f.code.strip(), f
        assert isinstance(f.message, str) and f.message.strip(), f
        assert len(f.message) <= MESSAGE_CHARS, f.message[:200]
        assert all(isinstance(r, int) and isinstance(c, int) for r, c in f.cells), f


def _percent_encoded_length(message: str) -> int:
    """The length of grpc-message on the wire: bytes outside printable ASCII, and %, are
    sent as %XX."""
    return sum(1 if 0x20 <= b < 0x7F and b != 0x25 else 3 for b in message.encode())


def assert_invalid_request(error: convert.InvalidRequest) -> None:
    """A request refused: a summary and a description per violation, and a status a
    default client can receive (INVALID_ARGUMENT, details within the trailer limit)."""
    assert str(error).strip()
    assert error.violations
    assert all(v.description.strip() for v in error.violations), error.violations
    assert all(len(v.description) <= MESSAGE_CHARS for v in error.violations)
    if error.findings:
        assert_clear(error.findings)
    status = error.status()
    details = dict(status.trailing_metadata)["grpc-status-details-bin"]
    assert len(details) + _percent_encoded_length(status.details) <= TRAILER_BYTES
    parsed = status_pb2.Status.FromString(details)
    assert parsed.code == code_pb2.INVALID_ARGUMENT
    assert parsed.message == status.details


def read_every_way(text: str, max_cells: int = MAX_CELLS) -> int:
    """Detect ``text``, then read and check it as every kind in every format and as
    detected; PuzzleError alone may come out, with clear findings. How many reads worked."""
    try:
        kind, fmt = detect_format(text)
    except PuzzleError as e:
        assert_clear(e.findings)
    else:
        assert kind.name in KINDS and (fmt is None or fmt in kind.formats.FORMATS)
    worked = 0
    for kind in KINDS.values():
        for fmt in (None, *kind.formats.FORMATS):
            try:
                board, warnings = operations.read_board(kind, text, fmt, max_cells)
            except PuzzleError as e:
                assert_clear(e.findings)
                continue
            worked += 1
            assert board.puzzle.rows * board.puzzle.cols <= max_cells
            assert len(board.entries) == board.puzzle.rows
            assert all(not f.is_error for f in warnings)
            if warnings:
                assert_clear(warnings)
    return worked


# ---------------------------------------------------------------- text


@fuzz(300)
@given(randoms, st.sampled_from([MAX_CELLS, MAX_CELLS, 60]))
def test_mutated_puzzle_text_is_read_or_refused_with_findings(rng, max_cells):
    seed = fuzzing.any_seed(rng)
    text = fuzzing.mutate_text(rng, seed.text)
    event(f"{seed.kind} {seed.fmt}")
    worked = read_every_way(text, max_cells)
    event("read by some reader" if worked else "refused by every reader")


@fuzz(60)
@given(randoms)
def test_garbage_text_is_refused_with_findings(rng):
    read_every_way(fuzzing.garbage_text(rng))


@fuzz(60)
@given(st.text(max_size=300) | st.lists(st.sampled_from(fuzzing.TOKENS), max_size=50).map("".join))
def test_any_text_is_read_or_refused_with_findings(text):
    read_every_way(text)


@pytest.mark.parametrize("seed", fuzzing.seeds(), ids=lambda s: s.name)
def test_every_seed_is_detected_as_what_it_was_made_as(seed):
    """The mutations start from real puzzles, mostly valid (some samples are broken on
    purpose, and kept as written)."""
    kind, fmt = detect_format(seed.text)
    assert (kind.name, fmt) == (seed.kind, seed.fmt)
    if seed.valid:
        KINDS[seed.kind].formats.read(seed.text, seed.fmt, MAX_CELLS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_there_are_valid_seeds_of_every_kind_in_every_format(kind):
    formats = {s.fmt for s in fuzzing.seeds() if s.kind == kind and s.valid}
    assert formats == set(KINDS[kind].formats.FORMATS)
    assert kind in fuzzing.structured_seeds()


# ---------------------------------------------------------------- requests: convert


def _read(source: pb.PuzzleInput, max_cells: int = MAX_CELLS) -> convert.Read | None:
    try:
        read = convert.read_input(source, max_cells)
    except convert.InvalidRequest as e:
        assert_invalid_request(e)
        event("refused")
        return None
    event(f"read: {read.kind.name}")
    rows, cols = (int(n) for n in read.size.split("x"))
    assert 0 < rows * cols <= max_cells
    return read


def assert_echo_reads_back(read: convert.Read) -> None:
    """The structured puzzle a response carries reads back to the same board."""
    again = convert.read_input(pb.PuzzleInput(puzzle=convert.puzzle(read)), MAX_CELLS)
    assert again.kind is read.kind
    assert again.board == read.board


@fuzz(300)
@given(randoms)
def test_any_puzzle_input_is_read_or_refused_as_an_invalid_request(rng):
    read = _read(fuzzing.puzzle_input(rng))
    if read is not None:
        assert_echo_reads_back(read)


@fuzz(200)
@given(randoms)
def test_mutated_structured_puzzles_are_read_or_refused(rng):
    read = _read(pb.PuzzleInput(puzzle=fuzzing.structured_puzzle(rng)), rng.choice((MAX_CELLS, 60)))
    if read is not None:
        assert_echo_reads_back(read)


@fuzz(60)
@given(
    st.builds(
        pb.PuzzleText,
        content=st.text(max_size=200),
        format=st.sampled_from(fuzzing.FORMAT_VALUES),
        kind=st.sampled_from(fuzzing.KIND_VALUES),
    )
)
def test_any_text_message_is_read_or_refused(text):
    _read(pb.PuzzleInput(text=text))


def test_text_longer_than_any_grid_is_refused_before_it_is_read():
    seed = next(s for s in fuzzing.seeds() if s.kind == "kakuro" and s.fmt == "janko")
    text = seed.text + " " * (MAX_CELLS * convert.TEXT_BYTES_PER_CELL)
    start = time.perf_counter()
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(pb.PuzzleInput(text=pb.PuzzleText(content=text)), MAX_CELLS)
    assert time.perf_counter() - start < 0.5
    assert_invalid_request(caught.value)


@fuzz(200)
@given(randoms)
def test_any_generate_request_makes_puzzles_or_is_refused_with_a_sentence(rng):
    """Odd sizes, counts, seeds, grades and densities are INVALID_ARGUMENT naming the
    field; whatever is accepted makes a puzzle or runs out of its time, nothing else."""
    message = fuzzing.generate_request(rng)
    try:
        params = convert.generate_request(message, MAX_CELLS)
    except convert.InvalidRequest as e:
        event("refused")
        assert_invalid_request(e)
        return
    event("accepted")
    try:
        made = generate.generate_one(params.kind, params.spec, params.seed, Budget.seconds(0.3))
    except SearchTimeout:
        return
    assert made.difficulty.grade is not None
    if params.spec.grade is not None:
        assert made.difficulty.grade == params.spec.grade


# ---------------------------------------------------------------- raw bytes


@fuzz(200)
@given(randoms, st.sampled_from([*fuzzing.METHODS, "BatchCheckUniqueness", "Generate"]))
def test_request_bytes_decode_or_are_undecodable(rng, method):
    _decodes_or_is_undecodable(method, fuzzing.raw_payload(rng, method))


@fuzz(60)
@given(
    st.binary(max_size=200),
    st.sampled_from([*fuzzing.METHODS, "BatchCheckUniqueness", "Generate"]),
)
def test_random_bytes_decode_or_are_undecodable(data, method):
    _decodes_or_is_undecodable(method, data)


def _decodes_or_is_undecodable(method: str, data: bytes) -> None:
    message_class = getattr(service_pb2, f"{method}Request")
    decoded = convert.lenient(message_class)(data)
    if isinstance(decoded, convert.Undecodable):
        event("undecodable")
        error = decoded.invalid()
        assert f"not a valid numgrid.v1.{method}Request" in str(error)
        assert_invalid_request(error)
    else:
        event("decoded")
        assert isinstance(decoded, message_class)


# ---------------------------------------------------------------- the whole pipeline


def answer(method: str, request, seconds: float):
    """What the servicer does with a request (server/service.py), without gRPC, the
    search bounded by ``seconds`` or the request's time limit if nearer: the response,
    or the InvalidRequest it answers with."""
    options = convert.options(request.options) if method != "Explain" else None
    read = convert.read_input(request.puzzle, MAX_CELLS)
    if options is not None and options.time_limit is not None:
        seconds = min(seconds, options.time_limit)
    budget = Budget.seconds(seconds)
    kind, board = read.kind, read.board
    # What every search of the request is given (Explain has no options)
    bounded = {"engine": options.engine, "budget": budget} if options is not None else {}
    held = {**bounded, "hold_entries": options.hold_entries} if options is not None else {}
    if method == "Validate":
        result = operations.validate(kind, board, compare=request.compare_with_solution, **bounded)
        return convert.validate_response(read, result)
    if method in ("Solve", "CheckUniqueness"):
        found = operations.check_uniqueness(kind, board, **held)
        grade = operations.difficulty(
            kind, board, found, budget=budget, hold_entries=options.hold_entries
        )
        if method == "Solve":
            return convert.solve_response(read, found, grade)
        return convert.uniqueness_response(read, found, grade)
    if method == "Render":
        highlights = convert.highlights(request.highlights, read)
        convert.picture_format(request.format)
        shown = {"show_entries": request.show_entries, "show_solution": request.show_solution}
        rendered = operations.render(kind, board, **shown, highlights=highlights, **held)
        if rendered.verdict is Verdict.TIMEOUT:
            return None  # the servicer: DEADLINE_EXCEEDED, no picture
        if rendered.picture is None:
            raise convert.no_unique_solution(rendered.verdict)
        assert rendered.picture.svg.startswith("<svg")
        return convert.render_response(read, rendered)
    technique = convert.technique_of(read.kind, request.max_technique, "max_technique")
    if method == "Hint":
        only = request.placements_only
        hint = operations.hint(
            kind, board, **bounded, max_technique=technique, placements_only=only
        )
        assert hint.explanation.strip()
        return convert.hint_response(read, hint)
    try:
        explained = operations.explain(kind, board, max_technique=technique, budget=budget)
    except PuzzleError as e:  # entries that break a rule: the servicer refuses them
        assert_clear(e.findings)
        raise convert.entries_rejected(e) from None
    except SearchTimeout:
        return None  # DEADLINE_EXCEEDED
    return convert.explain_response(read, explained)


@fuzz(150)
@given(randoms, st.sampled_from(fuzzing.METHODS))
def test_every_request_is_answered_or_refused_within_its_budget(rng, method):
    request = fuzzing.request(rng, method, intact=0.5)
    start = time.monotonic()
    try:
        response = answer(method, request, BUDGET)
    except convert.InvalidRequest as e:
        assert_invalid_request(e)
        event(f"{method}: refused")
    else:
        event(f"{method}: answered")
        if response is not None:
            assert response.ByteSize() < 16 * 1024 * 1024  # the server's message limit
    took = time.monotonic() - start
    assert took < BUDGET + BUDGET_SLACK, f"{method} took {took:.2f}s on a {BUDGET}s budget"


@fuzz(80)
@given(randoms)
def test_every_puzzle_of_a_batch_gets_a_result_or_a_rejection_within_its_budget(rng):
    """What a BatchCheckUniqueness stream does with each puzzle (server/batch.py): never
    raises, never fails (a failure is the server's fault), and keeps to the time cap."""
    limits = batch.Limits(MAX_CELLS, BUDGET)
    for message in fuzzing.batch_messages(rng, intact=0.5):
        for puzzle in message.puzzles:
            start = time.monotonic()
            result = batch.check_one(puzzle, limits)
            took = time.monotonic() - start
            assert result.id == puzzle.id
            outcome = result.WhichOneof("outcome")
            event(f"batch: {outcome}")
            assert outcome in ("result", "rejection"), result.failure.message
            if outcome == "rejection":
                assert result.rejection.message.strip()
                assert all(f.message.strip() for f in result.rejection.findings)
            assert took < BUDGET + BUDGET_SLACK, f"{took:.2f}s on a {BUDGET}s time cap"


# ---------------------------------------------------------------- found by fuzzing

LONG = "k" * 9_000
MANY = ", ".join(f'"f{i}": 1' for i in range(2_000))


@pytest.mark.parametrize(
    "text",
    [
        '{"' + LONG + '": {}}',  # a kind not served, named
        '{"kenken": {"size": 4, "' + LONG + '": 1}}',
        '{"kenken": {"size": 4, "cages": [{"' + LONG + '": 1}]}}',
        '{"kakuro": {"rows": [{"cells": [{"' + LONG + '": 1}]}]}}',
        '{"kakurasu": {"rows": 2, "columns": 2, "' + LONG + '": 1}}',
        '{"kenken": {"size": 4, ' + MANY + "}}",
        '{"kakuro": {"rows": [{"cells": [{' + MANY + "}]}]}}",
    ],
    ids=["kind", "kenken", "cage", "kakuro-cell", "kakurasu", "kenken-many", "kakuro-many"],
)
def test_unknown_names_in_json_are_not_echoed_whole(text):
    """A JSON name the reader does not know is quoted in its finding: quoted whole, a long
    one made trailers no client reads (RESOURCE_EXHAUSTED "received metadata size
    exceeds ..." instead of INVALID_ARGUMENT)."""
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(pb.PuzzleInput(text=pb.PuzzleText(content=text)), MAX_CELLS)
    assert_invalid_request(caught.value)


@pytest.mark.parametrize("digits", [4_301, 50_000])
def test_a_towers_clue_past_the_int_limit_is_a_finding(digits):
    """int() refuses more than 4,300 digits: the ValueError was an INTERNAL error (and
    ended a whole batch stream, batch.check_one reading outside its catch-all)."""
    text = "5:" + "1" * digits + "/3/2/2/3/3/2/2/1/2/1/3/3/2/3/3/2/1/3/2"
    source = pb.PuzzleInput(text=pb.PuzzleText(content=text))
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(source, MAX_CELLS)
    assert_invalid_request(caught.value)
    result = batch.check_one(service_pb2.BatchPuzzle(id="x", puzzle=source), batch.Limits(400, 1))
    assert result.WhichOneof("outcome") == "rejection"


def test_a_cell_in_thousands_of_cages_is_refused_in_a_status_a_client_reads():
    """The finding listed every cage holding the cell: 2,000 one-cell cages on r0c0 made a
    32 KB message and 64 KB of trailers."""
    cage = pb.Cage(target=3, cells=[pb.CellRef()])
    puzzle = pb.Puzzle(kenken=pb.KenKenPuzzle(size=4, cages=[cage] * 2_000))
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(pb.PuzzleInput(puzzle=puzzle), MAX_CELLS)
    assert_invalid_request(caught.value)


def _one_cell_cage(kind: str, times: int) -> tuple[str, str]:
    """A puzzle text of ``kind`` whose first cage lists r0c0 ``times`` times, and its format."""
    if kind == "fpuzzles":
        grid = [[{} for _ in range(9)] for _ in range(9)]
        cage = {"cells": ["R1C1"] * times, "value": "5"}
        data = {"size": 9, "grid": grid, "killercage": [cage]}
        return fpuzzles.LINK + compress_to_base64(json.dumps(data)), kind
    board, _ = sample(KINDS[kind])
    data = json.loads(KINDS[kind].formats.write(board, "json"))
    data[kind]["cages"][0]["cells"] = [{}] * times
    return json.dumps(data), "json"


@pytest.mark.parametrize("kind", ["kenken", "killer", "fpuzzles"])
def test_a_cage_listing_one_cell_thousands_of_times_is_refused_in_one_pass(kind):
    """The cells listed twice were found cell by cell, each counted over the whole list:
    60,000 references to r0c0 took a KenKen or Killer reader 48 s, past any deadline
    (reading does not poll). A complexity guard, not a speed figure: ten times slack."""
    text, fmt = _one_cell_cage(kind, 60_000)
    name = "killer" if kind == "fpuzzles" else kind
    start = time.perf_counter()
    with pytest.raises(PuzzleError, match=r"r0c0 (more than once|twice)"):
        KINDS[name].formats.read(text, fmt, MAX_CELLS)
    assert time.perf_counter() - start < 5


def test_a_long_run_of_spaces_before_no_sums_is_refused_in_one_pass():
    """Found by the mutations above: a puzz.link URL, 50,000 spaces and a slashed tail.
    The Killer cage-map line's pattern tried every split of the spaces between its
    separator's parts (quadratic): detecting the text took 22 s, reading it as every
    kind 68 s, past any deadline (reading does not poll). A complexity guard, not a
    speed figure: four times the length, and under a second where it took minutes."""
    text = "https//puzz.link/p?sudoku" + " " * 200_000 + "/4/4/3412234112344123:"
    start = time.perf_counter()
    with pytest.raises(PuzzleError) as caught:
        KINDS["killer"].formats.read(text, "line", MAX_CELLS)
    assert [f.code for f in caught.value.findings] == ["bad_line"]
    with pytest.raises(PuzzleError):
        detect_format(text)
    assert time.perf_counter() - start < 5
