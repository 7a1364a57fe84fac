"""lz-string's ``compressToBase64`` and ``decompressFromBase64`` (pieroxy's JavaScript
library, which sites use to put a puzzle's JSON in a link), written here so that the
decoder can stop: lz-string expands quadratically at worst (a few KB of link can
stand for gigabytes of text), and the Python ports have no limit on their output.

Both directions work on UTF-16 code units, as JavaScript strings do, so a character
outside the Basic Multilingual Plane compresses as the browser compresses it. Bits are
packed six to a base64 character, the first bit of a value as its lowest; every value
is a code of the LZW dictionary (``0``: a new 8-bit character follows, ``1``: a new
16-bit one, ``2``: the end), and the code width grows by one bit whenever the
dictionary fills the current width.
"""

from __future__ import annotations

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
MAX_TEXT = 2_000_000  # characters a decoded text may hold (real puzzle JSON: a few KB)
MAX_DATA = 1_000_000  # base64 characters a decoder reads

_NEW_BYTE, _NEW_WIDE, _END = 0, 1, 2
# Each base64 character's six bits in the order they are read (first bit lowest).
_READ_ORDER = {ch: int(f"{k:06b}"[::-1], 2) for k, ch in enumerate(BASE64)}
_REVERSED = [int(f"{b:08b}"[::-1], 2) for b in range(256)]  # each byte's bits reversed


class LzStringError(ValueError):
    """Data that is not lz-string base64 of a text, or that expands past the cap: one
    sentence for the reader to report."""


def _code_units(text: str) -> list[str]:
    """``text`` as JavaScript holds it: one character per UTF-16 code unit."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[i] | raw[i + 1] << 8) for i in range(0, len(raw), 2)]


def _from_code_units(units: str) -> str:
    raw = units.encode("utf-16-le", "surrogatepass")
    try:
        return raw.decode("utf-16-le")
    except UnicodeDecodeError:
        raise LzStringError("the data decodes to broken text (a lone UTF-16 surrogate)") from None


class _BitWriter:
    """Values written first bit first, six bits to a base64 character: each value's bits
    reversed (a byte at a time, :data:`_REVERSED`) onto the end of ``current``, whose
    oldest ``filled`` bits go out six at a time."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.current = 0
        self.filled = 0

    def write(self, value: int, width: int) -> None:
        reversed_bits = 0
        for _ in range((width + 7) >> 3):
            reversed_bits = reversed_bits << 8 | _REVERSED[value & 0xFF]
            value >>= 8
        filled = self.filled + width
        current = self.current << width | reversed_bits >> (-width & 7)
        while filled >= 6:
            filled -= 6
            self.out.append(BASE64[current >> filled & 63])
        self.current = current & ((1 << filled) - 1)
        self.filled = filled

    def finish(self) -> str:
        """The characters, the last one padded with zero bits (a whole zero character
        when the bits end on a boundary, as lz-string pads), then ``=`` to a multiple
        of four."""
        self.out.append(BASE64[self.current << (6 - self.filled)])
        data = "".join(self.out)
        return data + "=" * (-len(data) % 4)


def compress_to_base64(text: str) -> str:
    """What lz-string's ``compressToBase64(text)`` returns, character for character."""
    writer = _BitWriter()
    codes: dict[str, int] = {}
    unsent: set[str] = set()  # characters in the dictionary not yet sent as literals
    width, room = 2, 2  # the code width, and codes left before it grows

    def used() -> None:
        nonlocal width, room
        room -= 1
        if room == 0:
            room = 1 << width
            width += 1

    def send(phrase: str) -> None:
        if phrase in unsent:
            unit = ord(phrase)
            wide = unit > 0xFF
            writer.write(_NEW_WIDE if wide else _NEW_BYTE, width)
            writer.write(unit, 16 if wide else 8)
            used()
            unsent.discard(phrase)
        else:
            writer.write(codes[phrase], width)
        used()

    phrase = ""
    for unit in _code_units(text):
        if unit not in codes:
            codes[unit] = len(codes) + 3
            unsent.add(unit)
        longer = phrase + unit
        if longer in codes:
            phrase = longer
            continue
        send(phrase)
        codes[longer] = len(codes) + 3
        phrase = unit
    if phrase:
        send(phrase)
    writer.write(_END, width)
    return writer.finish()


class _BitReader:
    """The bits of base64 data in the order they were written."""

    def __init__(self, data: str) -> None:
        self.data = data
        self.next = 0  # the next character to take
        self.bits = 0  # bits taken but not read, the next one lowest
        self.held = 0

    def read(self, width: int) -> int:
        while self.held < width:
            if self.next >= len(self.data):
                raise LzStringError("the data ends before its end mark (is the link cut short?)")
            ch = self.data[self.next]
            value = _READ_ORDER.get(ch)
            if value is None:
                raise LzStringError(f"character {self.next + 1} of the data, {ch!r}, is not base64")
            self.bits |= value << self.held
            self.held += 6
            self.next += 1
        value = self.bits & ((1 << width) - 1)
        self.bits >>= width
        self.held -= width
        return value


def decompress_from_base64(data: str, max_text: int = MAX_TEXT) -> str:
    """The text lz-string's ``compressToBase64`` made ``data`` from; LzStringError when
    ``data`` is not such (cut short, a character outside base64, a code the dictionary
    does not hold) or the text would pass ``max_text`` characters (UTF-16 code units),
    found as soon as it does."""
    data = data.rstrip("=")
    if len(data) > MAX_DATA:
        raise LzStringError(f"the data has {len(data)} characters, over the limit of {MAX_DATA}")
    if not data:
        raise LzStringError("the data is empty")
    reader = _BitReader(data)
    phrases = ["", "", ""]  # codes 0-2 are the markers
    width, room = 3, 4

    def literal(marker: int) -> str:
        if marker == _NEW_BYTE:
            return chr(reader.read(8))
        if marker == _NEW_WIDE:
            return chr(reader.read(16))
        raise LzStringError(f"the data starts with code {marker}, not a character")

    first = reader.read(2)
    if first == _END:
        return ""
    previous = literal(first)
    phrases.append(previous)
    out = [previous]
    length = 1
    while True:
        code = reader.read(width)
        if code == _END:
            return _from_code_units("".join(out))
        if code in (_NEW_BYTE, _NEW_WIDE):
            phrases.append(literal(code))
            code = len(phrases) - 1
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1
        if code < len(phrases):
            phrase = phrases[code]
        elif code == len(phrases):
            phrase = previous + previous[0]
        else:
            raise LzStringError(
                f"the data uses code {code} before its dictionary holds it (corrupted data)"
            )
        length += len(phrase)
        if length > max_text:
            raise LzStringError(
                f"the data expands past {max_text} characters (a real puzzle is a few thousand)"
            )
        out.append(phrase)
        phrases.append(previous + phrase[0])
        previous = phrase
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
