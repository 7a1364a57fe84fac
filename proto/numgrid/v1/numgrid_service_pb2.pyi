import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from numgrid.v1 import puzzle_pb2 as _puzzle_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Technique(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TECHNIQUE_UNSPECIFIED: _ClassVar[Technique]
    TECHNIQUE_LAST_CELL: _ClassVar[Technique]
    TECHNIQUE_COMBINATIONS: _ClassVar[Technique]
    TECHNIQUE_CROSSING: _ClassVar[Technique]
    TECHNIQUE_REQUIRED_DIGIT: _ClassVar[Technique]
    TECHNIQUE_NAKED_SUBSET: _ClassVar[Technique]
    TECHNIQUE_COMBINATION_ELIMINATION: _ClassVar[Technique]
    TECHNIQUE_REGION_SUM: _ClassVar[Technique]
    TECHNIQUE_TRIAL: _ClassVar[Technique]
    TECHNIQUE_SINGLE_CELL_CAGE: _ClassVar[Technique]
    TECHNIQUE_NAKED_SINGLE: _ClassVar[Technique]
    TECHNIQUE_HIDDEN_SINGLE: _ClassVar[Technique]
    TECHNIQUE_CAGE_LINE: _ClassVar[Technique]
    TECHNIQUE_HIDDEN_SUBSET: _ClassVar[Technique]
    TECHNIQUE_LINE_TOTALS: _ClassVar[Technique]
    TECHNIQUE_EDGE_CLUE: _ClassVar[Technique]
    TECHNIQUE_CLUE_PAIR: _ClassVar[Technique]
    TECHNIQUE_VISIBILITY_BOUNDS: _ClassVar[Technique]
    TECHNIQUE_SEQUENCES: _ClassVar[Technique]
    TECHNIQUE_SUM_BOUNDS: _ClassVar[Technique]
    TECHNIQUE_FULL_HOUSE: _ClassVar[Technique]
    TECHNIQUE_POINTING: _ClassVar[Technique]
    TECHNIQUE_CLAIMING: _ClassVar[Technique]
    TECHNIQUE_NAKED_QUAD: _ClassVar[Technique]
    TECHNIQUE_HIDDEN_QUAD: _ClassVar[Technique]
    TECHNIQUE_X_WING: _ClassVar[Technique]
    TECHNIQUE_SWORDFISH: _ClassVar[Technique]
    TECHNIQUE_JELLYFISH: _ClassVar[Technique]
    TECHNIQUE_XY_WING: _ClassVar[Technique]
    TECHNIQUE_XYZ_WING: _ClassVar[Technique]
    TECHNIQUE_W_WING: _ClassVar[Technique]
    TECHNIQUE_SIMPLE_COLOURING: _ClassVar[Technique]
    TECHNIQUE_REMOTE_PAIRS: _ClassVar[Technique]
    TECHNIQUE_TURBOT_FISH: _ClassVar[Technique]
    TECHNIQUE_X_CHAIN: _ClassVar[Technique]
    TECHNIQUE_XY_CHAIN: _ClassVar[Technique]
    TECHNIQUE_AIC: _ClassVar[Technique]
    TECHNIQUE_UNIQUE_RECTANGLE: _ClassVar[Technique]
    TECHNIQUE_FORCING_CHAIN: _ClassVar[Technique]
    TECHNIQUE_CAGE_SPLITTING: _ClassVar[Technique]
    TECHNIQUE_CAGE_UNIT_OVERLAP: _ClassVar[Technique]

class Grade(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRADE_UNSPECIFIED: _ClassVar[Grade]
    GRADE_EASY: _ClassVar[Grade]
    GRADE_MEDIUM: _ClassVar[Grade]
    GRADE_HARD: _ClassVar[Grade]
    GRADE_EXPERT: _ClassVar[Grade]
    GRADE_EXTREME: _ClassVar[Grade]

class GroupState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GROUP_STATE_UNSPECIFIED: _ClassVar[GroupState]
    GROUP_STATE_INCOMPLETE: _ClassVar[GroupState]
    GROUP_STATE_DUPLICATE: _ClassVar[GroupState]
    GROUP_STATE_OVER: _ClassVar[GroupState]
    GROUP_STATE_WRONG: _ClassVar[GroupState]
    GROUP_STATE_CORRECT: _ClassVar[GroupState]

class GroupType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GROUP_TYPE_UNSPECIFIED: _ClassVar[GroupType]
    GROUP_TYPE_ACROSS: _ClassVar[GroupType]
    GROUP_TYPE_DOWN: _ClassVar[GroupType]
    GROUP_TYPE_ROW: _ClassVar[GroupType]
    GROUP_TYPE_COLUMN: _ClassVar[GroupType]
    GROUP_TYPE_CAGE: _ClassVar[GroupType]
    GROUP_TYPE_DIAGONAL: _ClassVar[GroupType]
    GROUP_TYPE_VIEW: _ClassVar[GroupType]
    GROUP_TYPE_BOX: _ClassVar[GroupType]
    GROUP_TYPE_REGION: _ClassVar[GroupType]

class CellStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CELL_STATUS_UNSPECIFIED: _ClassVar[CellStatus]
    CELL_STATUS_BLANK: _ClassVar[CellStatus]
    CELL_STATUS_DUPLICATE: _ClassVar[CellStatus]
    CELL_STATUS_GROUP_INCOMPLETE: _ClassVar[CellStatus]
    CELL_STATUS_GROUP_WRONG: _ClassVar[CellStatus]
    CELL_STATUS_GROUP_CORRECT: _ClassVar[CellStatus]

class HintKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINT_KIND_UNSPECIFIED: _ClassVar[HintKind]
    HINT_KIND_MISTAKE: _ClassVar[HintKind]
    HINT_KIND_REVEAL: _ClassVar[HintKind]
    HINT_KIND_SOLVED: _ClassVar[HintKind]
    HINT_KIND_NOT_UNIQUE: _ClassVar[HintKind]
    HINT_KIND_STEP: _ClassVar[HintKind]
    HINT_KIND_NO_STEP: _ClassVar[HintKind]

class Highlight(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HIGHLIGHT_UNSPECIFIED: _ClassVar[Highlight]
    HIGHLIGHT_HINT: _ClassVar[Highlight]
    HIGHLIGHT_MISTAKE: _ClassVar[Highlight]

class PictureFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PICTURE_FORMAT_UNSPECIFIED: _ClassVar[PictureFormat]
    PICTURE_FORMAT_SVG: _ClassVar[PictureFormat]
TECHNIQUE_UNSPECIFIED: Technique
TECHNIQUE_LAST_CELL: Technique
TECHNIQUE_COMBINATIONS: Technique
TECHNIQUE_CROSSING: Technique
TECHNIQUE_REQUIRED_DIGIT: Technique
TECHNIQUE_NAKED_SUBSET: Technique
TECHNIQUE_COMBINATION_ELIMINATION: Technique
TECHNIQUE_REGION_SUM: Technique
TECHNIQUE_TRIAL: Technique
TECHNIQUE_SINGLE_CELL_CAGE: Technique
TECHNIQUE_NAKED_SINGLE: Technique
TECHNIQUE_HIDDEN_SINGLE: Technique
TECHNIQUE_CAGE_LINE: Technique
TECHNIQUE_HIDDEN_SUBSET: Technique
TECHNIQUE_LINE_TOTALS: Technique
TECHNIQUE_EDGE_CLUE: Technique
TECHNIQUE_CLUE_PAIR: Technique
TECHNIQUE_VISIBILITY_BOUNDS: Technique
TECHNIQUE_SEQUENCES: Technique
TECHNIQUE_SUM_BOUNDS: Technique
TECHNIQUE_FULL_HOUSE: Technique
TECHNIQUE_POINTING: Technique
TECHNIQUE_CLAIMING: Technique
TECHNIQUE_NAKED_QUAD: Technique
TECHNIQUE_HIDDEN_QUAD: Technique
TECHNIQUE_X_WING: Technique
TECHNIQUE_SWORDFISH: Technique
TECHNIQUE_JELLYFISH: Technique
TECHNIQUE_XY_WING: Technique
TECHNIQUE_XYZ_WING: Technique
TECHNIQUE_W_WING: Technique
TECHNIQUE_SIMPLE_COLOURING: Technique
TECHNIQUE_REMOTE_PAIRS: Technique
TECHNIQUE_TURBOT_FISH: Technique
TECHNIQUE_X_CHAIN: Technique
TECHNIQUE_XY_CHAIN: Technique
TECHNIQUE_AIC: Technique
TECHNIQUE_UNIQUE_RECTANGLE: Technique
TECHNIQUE_FORCING_CHAIN: Technique
TECHNIQUE_CAGE_SPLITTING: Technique
TECHNIQUE_CAGE_UNIT_OVERLAP: Technique
GRADE_UNSPECIFIED: Grade
GRADE_EASY: Grade
GRADE_MEDIUM: Grade
GRADE_HARD: Grade
GRADE_EXPERT: Grade
GRADE_EXTREME: Grade
GROUP_STATE_UNSPECIFIED: GroupState
GROUP_STATE_INCOMPLETE: GroupState
GROUP_STATE_DUPLICATE: GroupState
GROUP_STATE_OVER: GroupState
GROUP_STATE_WRONG: GroupState
GROUP_STATE_CORRECT: GroupState
GROUP_TYPE_UNSPECIFIED: GroupType
GROUP_TYPE_ACROSS: GroupType
GROUP_TYPE_DOWN: GroupType
GROUP_TYPE_ROW: GroupType
GROUP_TYPE_COLUMN: GroupType
GROUP_TYPE_CAGE: GroupType
GROUP_TYPE_DIAGONAL: GroupType
GROUP_TYPE_VIEW: GroupType
GROUP_TYPE_BOX: GroupType
GROUP_TYPE_REGION: GroupType
CELL_STATUS_UNSPECIFIED: CellStatus
CELL_STATUS_BLANK: CellStatus
CELL_STATUS_DUPLICATE: CellStatus
CELL_STATUS_GROUP_INCOMPLETE: CellStatus
CELL_STATUS_GROUP_WRONG: CellStatus
CELL_STATUS_GROUP_CORRECT: CellStatus
HINT_KIND_UNSPECIFIED: HintKind
HINT_KIND_MISTAKE: HintKind
HINT_KIND_REVEAL: HintKind
HINT_KIND_SOLVED: HintKind
HINT_KIND_NOT_UNIQUE: HintKind
HINT_KIND_STEP: HintKind
HINT_KIND_NO_STEP: HintKind
HIGHLIGHT_UNSPECIFIED: Highlight
HIGHLIGHT_HINT: Highlight
HIGHLIGHT_MISTAKE: Highlight
PICTURE_FORMAT_UNSPECIFIED: PictureFormat
PICTURE_FORMAT_SVG: PictureFormat

class Elimination(_message.Message):
    __slots__ = ("cell", "digit")
    CELL_FIELD_NUMBER: _ClassVar[int]
    DIGIT_FIELD_NUMBER: _ClassVar[int]
    cell: _puzzle_pb2.CellRef
    digit: int
    def __init__(self, cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., digit: _Optional[int] = ...) -> None: ...

class GroupRef(_message.Message):
    __slots__ = ("type", "clue_cell", "clue", "operation", "index")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CLUE_CELL_FIELD_NUMBER: _ClassVar[int]
    CLUE_FIELD_NUMBER: _ClassVar[int]
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    type: GroupType
    clue_cell: _puzzle_pb2.CellRef
    clue: int
    operation: _puzzle_pb2.CageOperation
    index: int
    def __init__(self, type: _Optional[_Union[GroupType, str]] = ..., clue_cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., clue: _Optional[int] = ..., operation: _Optional[_Union[_puzzle_pb2.CageOperation, str]] = ..., index: _Optional[int] = ...) -> None: ...

class Step(_message.Message):
    __slots__ = ("technique", "placements", "eliminations", "groups", "cells", "explanation")
    TECHNIQUE_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATIONS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    technique: Technique
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    eliminations: _containers.RepeatedCompositeFieldContainer[Elimination]
    groups: _containers.RepeatedCompositeFieldContainer[GroupRef]
    cells: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    explanation: str
    def __init__(self, technique: _Optional[_Union[Technique, str]] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ..., eliminations: _Optional[_Iterable[_Union[Elimination, _Mapping]]] = ..., groups: _Optional[_Iterable[_Union[GroupRef, _Mapping]]] = ..., cells: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., explanation: _Optional[str] = ...) -> None: ...

class TechniqueCount(_message.Message):
    __slots__ = ("technique", "count")
    TECHNIQUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    technique: Technique
    count: int
    def __init__(self, technique: _Optional[_Union[Technique, str]] = ..., count: _Optional[int] = ...) -> None: ...

class Difficulty(_message.Message):
    __slots__ = ("grade", "hardest", "counts", "solved_by_logic", "score")
    GRADE_FIELD_NUMBER: _ClassVar[int]
    HARDEST_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    SOLVED_BY_LOGIC_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    grade: Grade
    hardest: Technique
    counts: _containers.RepeatedCompositeFieldContainer[TechniqueCount]
    solved_by_logic: bool
    score: int
    def __init__(self, grade: _Optional[_Union[Grade, str]] = ..., hardest: _Optional[_Union[Technique, str]] = ..., counts: _Optional[_Iterable[_Union[TechniqueCount, _Mapping]]] = ..., solved_by_logic: _Optional[bool] = ..., score: _Optional[int] = ...) -> None: ...

class SearchOptions(_message.Message):
    __slots__ = ("engine", "time_limit", "hold_entries")
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    HOLD_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    engine: _puzzle_pb2.Engine
    time_limit: _duration_pb2.Duration
    hold_entries: bool
    def __init__(self, engine: _Optional[_Union[_puzzle_pb2.Engine, str]] = ..., time_limit: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., hold_entries: _Optional[bool] = ...) -> None: ...

class ValidateRequest(_message.Message):
    __slots__ = ("puzzle", "compare_with_solution", "options")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    COMPARE_WITH_SOLUTION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    compare_with_solution: bool
    options: SearchOptions
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., compare_with_solution: _Optional[bool] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ...) -> None: ...

class GroupReport(_message.Message):
    __slots__ = ("type", "clue_cell", "clue", "cells", "state", "total", "duplicates", "operation", "index")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CLUE_CELL_FIELD_NUMBER: _ClassVar[int]
    CLUE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    type: GroupType
    clue_cell: _puzzle_pb2.CellRef
    clue: int
    cells: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    state: GroupState
    total: int
    duplicates: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    operation: _puzzle_pb2.CageOperation
    index: int
    def __init__(self, type: _Optional[_Union[GroupType, str]] = ..., clue_cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., clue: _Optional[int] = ..., cells: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., state: _Optional[_Union[GroupState, str]] = ..., total: _Optional[int] = ..., duplicates: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., operation: _Optional[_Union[_puzzle_pb2.CageOperation, str]] = ..., index: _Optional[int] = ...) -> None: ...

class CellReport(_message.Message):
    __slots__ = ("cell", "status")
    CELL_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    cell: _puzzle_pb2.CellRef
    status: CellStatus
    def __init__(self, cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., status: _Optional[_Union[CellStatus, str]] = ...) -> None: ...

class ValidateResponse(_message.Message):
    __slots__ = ("warnings", "board_findings", "groups", "cells", "solved", "verdict", "wrong_entries", "stats", "puzzle")
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FINDINGS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    WRONG_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    warnings: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.Finding]
    board_findings: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.Finding]
    groups: _containers.RepeatedCompositeFieldContainer[GroupReport]
    cells: _containers.RepeatedCompositeFieldContainer[CellReport]
    solved: bool
    verdict: _puzzle_pb2.Verdict
    wrong_entries: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    stats: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.EngineStats]
    puzzle: _puzzle_pb2.Puzzle
    def __init__(self, warnings: _Optional[_Iterable[_Union[_puzzle_pb2.Finding, _Mapping]]] = ..., board_findings: _Optional[_Iterable[_Union[_puzzle_pb2.Finding, _Mapping]]] = ..., groups: _Optional[_Iterable[_Union[GroupReport, _Mapping]]] = ..., cells: _Optional[_Iterable[_Union[CellReport, _Mapping]]] = ..., solved: _Optional[bool] = ..., verdict: _Optional[_Union[_puzzle_pb2.Verdict, str]] = ..., wrong_entries: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., stats: _Optional[_Iterable[_Union[_puzzle_pb2.EngineStats, _Mapping]]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("puzzle", "options")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    options: SearchOptions
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("verdict", "solution", "stats", "puzzle", "difficulty")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    verdict: _puzzle_pb2.Verdict
    solution: _puzzle_pb2.Grid
    stats: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.EngineStats]
    puzzle: _puzzle_pb2.Puzzle
    difficulty: Difficulty
    def __init__(self, verdict: _Optional[_Union[_puzzle_pb2.Verdict, str]] = ..., solution: _Optional[_Union[_puzzle_pb2.Grid, _Mapping]] = ..., stats: _Optional[_Iterable[_Union[_puzzle_pb2.EngineStats, _Mapping]]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ..., difficulty: _Optional[_Union[Difficulty, _Mapping]] = ...) -> None: ...

class HintRequest(_message.Message):
    __slots__ = ("puzzle", "options", "max_technique", "placements_only")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_TECHNIQUE_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_ONLY_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    options: SearchOptions
    max_technique: Technique
    placements_only: bool
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ..., max_technique: _Optional[_Union[Technique, str]] = ..., placements_only: _Optional[bool] = ...) -> None: ...

class Placement(_message.Message):
    __slots__ = ("cell", "digit")
    CELL_FIELD_NUMBER: _ClassVar[int]
    DIGIT_FIELD_NUMBER: _ClassVar[int]
    cell: _puzzle_pb2.CellRef
    digit: int
    def __init__(self, cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., digit: _Optional[int] = ...) -> None: ...

class HintResponse(_message.Message):
    __slots__ = ("kind", "cells", "placements", "explanation", "findings", "verdict", "stats", "puzzle", "step")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    kind: HintKind
    cells: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    explanation: str
    findings: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.Finding]
    verdict: _puzzle_pb2.Verdict
    stats: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.EngineStats]
    puzzle: _puzzle_pb2.Puzzle
    step: Step
    def __init__(self, kind: _Optional[_Union[HintKind, str]] = ..., cells: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ..., explanation: _Optional[str] = ..., findings: _Optional[_Iterable[_Union[_puzzle_pb2.Finding, _Mapping]]] = ..., verdict: _Optional[_Union[_puzzle_pb2.Verdict, str]] = ..., stats: _Optional[_Iterable[_Union[_puzzle_pb2.EngineStats, _Mapping]]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ..., step: _Optional[_Union[Step, _Mapping]] = ...) -> None: ...

class CheckUniquenessRequest(_message.Message):
    __slots__ = ("puzzle", "options")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    options: SearchOptions
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ...) -> None: ...

class CheckUniquenessResponse(_message.Message):
    __slots__ = ("verdict", "solutions", "differing_cells", "stats", "puzzle", "difficulty")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    SOLUTIONS_FIELD_NUMBER: _ClassVar[int]
    DIFFERING_CELLS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    verdict: _puzzle_pb2.Verdict
    solutions: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.Grid]
    differing_cells: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.CellRef]
    stats: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.EngineStats]
    puzzle: _puzzle_pb2.Puzzle
    difficulty: Difficulty
    def __init__(self, verdict: _Optional[_Union[_puzzle_pb2.Verdict, str]] = ..., solutions: _Optional[_Iterable[_Union[_puzzle_pb2.Grid, _Mapping]]] = ..., differing_cells: _Optional[_Iterable[_Union[_puzzle_pb2.CellRef, _Mapping]]] = ..., stats: _Optional[_Iterable[_Union[_puzzle_pb2.EngineStats, _Mapping]]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ..., difficulty: _Optional[_Union[Difficulty, _Mapping]] = ...) -> None: ...

class ExplainRequest(_message.Message):
    __slots__ = ("puzzle", "max_technique")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    MAX_TECHNIQUE_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    max_technique: Technique
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., max_technique: _Optional[_Union[Technique, str]] = ...) -> None: ...

class ExplainResponse(_message.Message):
    __slots__ = ("steps", "solved", "difficulty", "puzzle")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[Step]
    solved: bool
    difficulty: Difficulty
    puzzle: _puzzle_pb2.Puzzle
    def __init__(self, steps: _Optional[_Iterable[_Union[Step, _Mapping]]] = ..., solved: _Optional[bool] = ..., difficulty: _Optional[_Union[Difficulty, _Mapping]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ...) -> None: ...

class HighlightedCell(_message.Message):
    __slots__ = ("cell", "highlight")
    CELL_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHT_FIELD_NUMBER: _ClassVar[int]
    cell: _puzzle_pb2.CellRef
    highlight: Highlight
    def __init__(self, cell: _Optional[_Union[_puzzle_pb2.CellRef, _Mapping]] = ..., highlight: _Optional[_Union[Highlight, str]] = ...) -> None: ...

class RenderRequest(_message.Message):
    __slots__ = ("puzzle", "show_entries", "show_solution", "highlights", "options", "format")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    SHOW_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    SHOW_SOLUTION_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    show_entries: bool
    show_solution: bool
    highlights: _containers.RepeatedCompositeFieldContainer[HighlightedCell]
    options: SearchOptions
    format: PictureFormat
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., show_entries: _Optional[bool] = ..., show_solution: _Optional[bool] = ..., highlights: _Optional[_Iterable[_Union[HighlightedCell, _Mapping]]] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ..., format: _Optional[_Union[PictureFormat, str]] = ...) -> None: ...

class RenderResponse(_message.Message):
    __slots__ = ("svg", "width", "height", "puzzle", "solution")
    SVG_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    svg: str
    width: int
    height: int
    puzzle: _puzzle_pb2.Puzzle
    solution: _puzzle_pb2.Grid
    def __init__(self, svg: _Optional[str] = ..., width: _Optional[int] = ..., height: _Optional[int] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ..., solution: _Optional[_Union[_puzzle_pb2.Grid, _Mapping]] = ...) -> None: ...

class BatchCheckUniquenessRequest(_message.Message):
    __slots__ = ("puzzles",)
    PUZZLES_FIELD_NUMBER: _ClassVar[int]
    puzzles: _containers.RepeatedCompositeFieldContainer[BatchPuzzle]
    def __init__(self, puzzles: _Optional[_Iterable[_Union[BatchPuzzle, _Mapping]]] = ...) -> None: ...

class BatchPuzzle(_message.Message):
    __slots__ = ("id", "puzzle", "options", "grade", "include_puzzle")
    ID_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_PUZZLE_FIELD_NUMBER: _ClassVar[int]
    id: str
    puzzle: _puzzle_pb2.PuzzleInput
    options: SearchOptions
    grade: bool
    include_puzzle: bool
    def __init__(self, id: _Optional[str] = ..., puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., options: _Optional[_Union[SearchOptions, _Mapping]] = ..., grade: _Optional[bool] = ..., include_puzzle: _Optional[bool] = ...) -> None: ...

class PuzzleRejection(_message.Message):
    __slots__ = ("message", "findings")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    message: str
    findings: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.Finding]
    def __init__(self, message: _Optional[str] = ..., findings: _Optional[_Iterable[_Union[_puzzle_pb2.Finding, _Mapping]]] = ...) -> None: ...

class BatchCheckUniquenessResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[BatchPuzzleResult]
    def __init__(self, results: _Optional[_Iterable[_Union[BatchPuzzleResult, _Mapping]]] = ...) -> None: ...

class BatchPuzzleResult(_message.Message):
    __slots__ = ("id", "result", "rejection", "failure")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    REJECTION_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    id: str
    result: CheckUniquenessResponse
    rejection: PuzzleRejection
    failure: PuzzleFailure
    def __init__(self, id: _Optional[str] = ..., result: _Optional[_Union[CheckUniquenessResponse, _Mapping]] = ..., rejection: _Optional[_Union[PuzzleRejection, _Mapping]] = ..., failure: _Optional[_Union[PuzzleFailure, _Mapping]] = ...) -> None: ...

class PuzzleFailure(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class GenerateRequest(_message.Message):
    __slots__ = ("kind", "rows", "columns", "grade", "count", "seed", "density", "single_cell_runs", "diagonals", "formats", "time_limit")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DENSITY_FIELD_NUMBER: _ClassVar[int]
    SINGLE_CELL_RUNS_FIELD_NUMBER: _ClassVar[int]
    DIAGONALS_FIELD_NUMBER: _ClassVar[int]
    FORMATS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    kind: _puzzle_pb2.PuzzleKind
    rows: int
    columns: int
    grade: Grade
    count: int
    seed: int
    density: float
    single_cell_runs: bool
    diagonals: bool
    formats: _containers.RepeatedScalarFieldContainer[_puzzle_pb2.PuzzleFormat]
    time_limit: _duration_pb2.Duration
    def __init__(self, kind: _Optional[_Union[_puzzle_pb2.PuzzleKind, str]] = ..., rows: _Optional[int] = ..., columns: _Optional[int] = ..., grade: _Optional[_Union[Grade, str]] = ..., count: _Optional[int] = ..., seed: _Optional[int] = ..., density: _Optional[float] = ..., single_cell_runs: _Optional[bool] = ..., diagonals: _Optional[bool] = ..., formats: _Optional[_Iterable[_Union[_puzzle_pb2.PuzzleFormat, str]]] = ..., time_limit: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class GenerateResponse(_message.Message):
    __slots__ = ("puzzle", "texts", "solution", "solution_text", "difficulty", "seed", "index", "attempts", "repairs", "elapsed", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_TEXT_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    REPAIRS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.Puzzle
    texts: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.PuzzleText]
    solution: _puzzle_pb2.Grid
    solution_text: str
    difficulty: Difficulty
    seed: int
    index: int
    attempts: int
    repairs: int
    elapsed: _duration_pb2.Duration
    stats: _containers.RepeatedCompositeFieldContainer[_puzzle_pb2.EngineStats]
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ..., texts: _Optional[_Iterable[_Union[_puzzle_pb2.PuzzleText, _Mapping]]] = ..., solution: _Optional[_Union[_puzzle_pb2.Grid, _Mapping]] = ..., solution_text: _Optional[str] = ..., difficulty: _Optional[_Union[Difficulty, _Mapping]] = ..., seed: _Optional[int] = ..., index: _Optional[int] = ..., attempts: _Optional[int] = ..., repairs: _Optional[int] = ..., elapsed: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., stats: _Optional[_Iterable[_Union[_puzzle_pb2.EngineStats, _Mapping]]] = ...) -> None: ...

class ConvertPuzzleRequest(_message.Message):
    __slots__ = ("puzzle", "format")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    puzzle: _puzzle_pb2.PuzzleInput
    format: _puzzle_pb2.PuzzleFormat
    def __init__(self, puzzle: _Optional[_Union[_puzzle_pb2.PuzzleInput, _Mapping]] = ..., format: _Optional[_Union[_puzzle_pb2.PuzzleFormat, str]] = ...) -> None: ...

class ConvertPuzzleResponse(_message.Message):
    __slots__ = ("text", "puzzle")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    text: _puzzle_pb2.PuzzleText
    puzzle: _puzzle_pb2.Puzzle
    def __init__(self, text: _Optional[_Union[_puzzle_pb2.PuzzleText, _Mapping]] = ..., puzzle: _Optional[_Union[_puzzle_pb2.Puzzle, _Mapping]] = ...) -> None: ...
