import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CageOperation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAGE_OPERATION_UNSPECIFIED: _ClassVar[CageOperation]
    CAGE_OPERATION_ADD: _ClassVar[CageOperation]
    CAGE_OPERATION_SUBTRACT: _ClassVar[CageOperation]
    CAGE_OPERATION_MULTIPLY: _ClassVar[CageOperation]
    CAGE_OPERATION_DIVIDE: _ClassVar[CageOperation]

class PuzzleKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PUZZLE_KIND_UNSPECIFIED: _ClassVar[PuzzleKind]
    PUZZLE_KIND_KAKURO: _ClassVar[PuzzleKind]
    PUZZLE_KIND_KENKEN: _ClassVar[PuzzleKind]
    PUZZLE_KIND_SKYSCRAPER: _ClassVar[PuzzleKind]
    PUZZLE_KIND_KAKURASU: _ClassVar[PuzzleKind]
    PUZZLE_KIND_SUDOKU: _ClassVar[PuzzleKind]
    PUZZLE_KIND_JIGSAW: _ClassVar[PuzzleKind]
    PUZZLE_KIND_KILLER: _ClassVar[PuzzleKind]

class PuzzleFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PUZZLE_FORMAT_UNSPECIFIED: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_JANKO: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_CSV: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_JSON: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_TATHAM: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_LINE: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_GRID: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_PUZZLINK: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_PENPA: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_FPUZZLES: _ClassVar[PuzzleFormat]
    PUZZLE_FORMAT_SUDOKUWIKI: _ClassVar[PuzzleFormat]

class Severity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEVERITY_UNSPECIFIED: _ClassVar[Severity]
    SEVERITY_ERROR: _ClassVar[Severity]
    SEVERITY_WARNING: _ClassVar[Severity]

class Engine(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENGINE_UNSPECIFIED: _ClassVar[Engine]
    ENGINE_AUTO: _ClassVar[Engine]
    ENGINE_CPSAT: _ClassVar[Engine]
    ENGINE_NATIVE: _ClassVar[Engine]
    ENGINE_CROSS_CHECK: _ClassVar[Engine]

class Verdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_UNSPECIFIED: _ClassVar[Verdict]
    VERDICT_UNIQUE: _ClassVar[Verdict]
    VERDICT_MULTIPLE: _ClassVar[Verdict]
    VERDICT_NO_SOLUTION: _ClassVar[Verdict]
    VERDICT_TIMEOUT: _ClassVar[Verdict]
CAGE_OPERATION_UNSPECIFIED: CageOperation
CAGE_OPERATION_ADD: CageOperation
CAGE_OPERATION_SUBTRACT: CageOperation
CAGE_OPERATION_MULTIPLY: CageOperation
CAGE_OPERATION_DIVIDE: CageOperation
PUZZLE_KIND_UNSPECIFIED: PuzzleKind
PUZZLE_KIND_KAKURO: PuzzleKind
PUZZLE_KIND_KENKEN: PuzzleKind
PUZZLE_KIND_SKYSCRAPER: PuzzleKind
PUZZLE_KIND_KAKURASU: PuzzleKind
PUZZLE_KIND_SUDOKU: PuzzleKind
PUZZLE_KIND_JIGSAW: PuzzleKind
PUZZLE_KIND_KILLER: PuzzleKind
PUZZLE_FORMAT_UNSPECIFIED: PuzzleFormat
PUZZLE_FORMAT_JANKO: PuzzleFormat
PUZZLE_FORMAT_CSV: PuzzleFormat
PUZZLE_FORMAT_JSON: PuzzleFormat
PUZZLE_FORMAT_TATHAM: PuzzleFormat
PUZZLE_FORMAT_LINE: PuzzleFormat
PUZZLE_FORMAT_GRID: PuzzleFormat
PUZZLE_FORMAT_PUZZLINK: PuzzleFormat
PUZZLE_FORMAT_PENPA: PuzzleFormat
PUZZLE_FORMAT_FPUZZLES: PuzzleFormat
PUZZLE_FORMAT_SUDOKUWIKI: PuzzleFormat
SEVERITY_UNSPECIFIED: Severity
SEVERITY_ERROR: Severity
SEVERITY_WARNING: Severity
ENGINE_UNSPECIFIED: Engine
ENGINE_AUTO: Engine
ENGINE_CPSAT: Engine
ENGINE_NATIVE: Engine
ENGINE_CROSS_CHECK: Engine
VERDICT_UNSPECIFIED: Verdict
VERDICT_UNIQUE: Verdict
VERDICT_MULTIPLE: Verdict
VERDICT_NO_SOLUTION: Verdict
VERDICT_TIMEOUT: Verdict

class CellRef(_message.Message):
    __slots__ = ("row", "column")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    row: int
    column: int
    def __init__(self, row: _Optional[int] = ..., column: _Optional[int] = ...) -> None: ...

class KakuroCell(_message.Message):
    __slots__ = ("black", "down", "across", "digit")
    BLACK_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    ACROSS_FIELD_NUMBER: _ClassVar[int]
    DIGIT_FIELD_NUMBER: _ClassVar[int]
    black: bool
    down: int
    across: int
    digit: int
    def __init__(self, black: _Optional[bool] = ..., down: _Optional[int] = ..., across: _Optional[int] = ..., digit: _Optional[int] = ...) -> None: ...

class KakuroRow(_message.Message):
    __slots__ = ("cells",)
    CELLS_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedCompositeFieldContainer[KakuroCell]
    def __init__(self, cells: _Optional[_Iterable[_Union[KakuroCell, _Mapping]]] = ...) -> None: ...

class KakuroPuzzle(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[KakuroRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[KakuroRow, _Mapping]]] = ...) -> None: ...

class Cage(_message.Message):
    __slots__ = ("target", "operation", "cells")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    target: int
    operation: CageOperation
    cells: _containers.RepeatedCompositeFieldContainer[CellRef]
    def __init__(self, target: _Optional[int] = ..., operation: _Optional[_Union[CageOperation, str]] = ..., cells: _Optional[_Iterable[_Union[CellRef, _Mapping]]] = ...) -> None: ...

class KenKenPuzzle(_message.Message):
    __slots__ = ("size", "cages", "entries")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    CAGES_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    size: int
    cages: _containers.RepeatedCompositeFieldContainer[Cage]
    entries: Grid
    def __init__(self, size: _Optional[int] = ..., cages: _Optional[_Iterable[_Union[Cage, _Mapping]]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class SkyscraperPuzzle(_message.Message):
    __slots__ = ("size", "max_height", "diagonals", "top", "bottom", "left", "right", "givens", "entries")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    MAX_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    DIAGONALS_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    GIVENS_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    size: int
    max_height: int
    diagonals: bool
    top: _containers.RepeatedScalarFieldContainer[int]
    bottom: _containers.RepeatedScalarFieldContainer[int]
    left: _containers.RepeatedScalarFieldContainer[int]
    right: _containers.RepeatedScalarFieldContainer[int]
    givens: Grid
    entries: Grid
    def __init__(self, size: _Optional[int] = ..., max_height: _Optional[int] = ..., diagonals: _Optional[bool] = ..., top: _Optional[_Iterable[int]] = ..., bottom: _Optional[_Iterable[int]] = ..., left: _Optional[_Iterable[int]] = ..., right: _Optional[_Iterable[int]] = ..., givens: _Optional[_Union[Grid, _Mapping]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class KakurasuPuzzle(_message.Message):
    __slots__ = ("rows", "columns", "row_clues", "column_clues", "entries")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    ROW_CLUES_FIELD_NUMBER: _ClassVar[int]
    COLUMN_CLUES_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    rows: int
    columns: int
    row_clues: _containers.RepeatedScalarFieldContainer[int]
    column_clues: _containers.RepeatedScalarFieldContainer[int]
    entries: Grid
    def __init__(self, rows: _Optional[int] = ..., columns: _Optional[int] = ..., row_clues: _Optional[_Iterable[int]] = ..., column_clues: _Optional[_Iterable[int]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class SudokuPuzzle(_message.Message):
    __slots__ = ("size", "box_rows", "box_columns", "diagonals", "givens", "entries")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    BOX_ROWS_FIELD_NUMBER: _ClassVar[int]
    BOX_COLUMNS_FIELD_NUMBER: _ClassVar[int]
    DIAGONALS_FIELD_NUMBER: _ClassVar[int]
    GIVENS_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    size: int
    box_rows: int
    box_columns: int
    diagonals: bool
    givens: Grid
    entries: Grid
    def __init__(self, size: _Optional[int] = ..., box_rows: _Optional[int] = ..., box_columns: _Optional[int] = ..., diagonals: _Optional[bool] = ..., givens: _Optional[_Union[Grid, _Mapping]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class JigsawPuzzle(_message.Message):
    __slots__ = ("size", "regions", "diagonals", "givens", "entries")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    DIAGONALS_FIELD_NUMBER: _ClassVar[int]
    GIVENS_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    size: int
    regions: Grid
    diagonals: bool
    givens: Grid
    entries: Grid
    def __init__(self, size: _Optional[int] = ..., regions: _Optional[_Union[Grid, _Mapping]] = ..., diagonals: _Optional[bool] = ..., givens: _Optional[_Union[Grid, _Mapping]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class KillerCage(_message.Message):
    __slots__ = ("sum", "cells")
    SUM_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    sum: int
    cells: _containers.RepeatedCompositeFieldContainer[CellRef]
    def __init__(self, sum: _Optional[int] = ..., cells: _Optional[_Iterable[_Union[CellRef, _Mapping]]] = ...) -> None: ...

class KillerPuzzle(_message.Message):
    __slots__ = ("size", "cages", "diagonals", "givens", "entries")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    CAGES_FIELD_NUMBER: _ClassVar[int]
    DIAGONALS_FIELD_NUMBER: _ClassVar[int]
    GIVENS_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    size: int
    cages: _containers.RepeatedCompositeFieldContainer[KillerCage]
    diagonals: bool
    givens: Grid
    entries: Grid
    def __init__(self, size: _Optional[int] = ..., cages: _Optional[_Iterable[_Union[KillerCage, _Mapping]]] = ..., diagonals: _Optional[bool] = ..., givens: _Optional[_Union[Grid, _Mapping]] = ..., entries: _Optional[_Union[Grid, _Mapping]] = ...) -> None: ...

class Puzzle(_message.Message):
    __slots__ = ("kakuro", "kenken", "skyscraper", "kakurasu", "sudoku", "jigsaw", "killer")
    KAKURO_FIELD_NUMBER: _ClassVar[int]
    KENKEN_FIELD_NUMBER: _ClassVar[int]
    SKYSCRAPER_FIELD_NUMBER: _ClassVar[int]
    KAKURASU_FIELD_NUMBER: _ClassVar[int]
    SUDOKU_FIELD_NUMBER: _ClassVar[int]
    JIGSAW_FIELD_NUMBER: _ClassVar[int]
    KILLER_FIELD_NUMBER: _ClassVar[int]
    kakuro: KakuroPuzzle
    kenken: KenKenPuzzle
    skyscraper: SkyscraperPuzzle
    kakurasu: KakurasuPuzzle
    sudoku: SudokuPuzzle
    jigsaw: JigsawPuzzle
    killer: KillerPuzzle
    def __init__(self, kakuro: _Optional[_Union[KakuroPuzzle, _Mapping]] = ..., kenken: _Optional[_Union[KenKenPuzzle, _Mapping]] = ..., skyscraper: _Optional[_Union[SkyscraperPuzzle, _Mapping]] = ..., kakurasu: _Optional[_Union[KakurasuPuzzle, _Mapping]] = ..., sudoku: _Optional[_Union[SudokuPuzzle, _Mapping]] = ..., jigsaw: _Optional[_Union[JigsawPuzzle, _Mapping]] = ..., killer: _Optional[_Union[KillerPuzzle, _Mapping]] = ...) -> None: ...

class PuzzleText(_message.Message):
    __slots__ = ("content", "format", "kind")
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    content: str
    format: PuzzleFormat
    kind: PuzzleKind
    def __init__(self, content: _Optional[str] = ..., format: _Optional[_Union[PuzzleFormat, str]] = ..., kind: _Optional[_Union[PuzzleKind, str]] = ...) -> None: ...

class PuzzleInput(_message.Message):
    __slots__ = ("puzzle", "text")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    puzzle: Puzzle
    text: PuzzleText
    def __init__(self, puzzle: _Optional[_Union[Puzzle, _Mapping]] = ..., text: _Optional[_Union[PuzzleText, _Mapping]] = ...) -> None: ...

class Grid(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[GridRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[GridRow, _Mapping]]] = ...) -> None: ...

class GridRow(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class Finding(_message.Message):
    __slots__ = ("code", "message", "cells", "severity", "group")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    cells: _containers.RepeatedCompositeFieldContainer[CellRef]
    severity: Severity
    group: str
    def __init__(self, code: _Optional[str] = ..., message: _Optional[str] = ..., cells: _Optional[_Iterable[_Union[CellRef, _Mapping]]] = ..., severity: _Optional[_Union[Severity, str]] = ..., group: _Optional[str] = ...) -> None: ...

class EngineStats(_message.Message):
    __slots__ = ("engine", "elapsed", "nodes")
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    engine: Engine
    elapsed: _duration_pb2.Duration
    nodes: int
    def __init__(self, engine: _Optional[_Union[Engine, str]] = ..., elapsed: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., nodes: _Optional[int] = ...) -> None: ...
