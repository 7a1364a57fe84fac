"""What every kind's drawing shares."""


def digit_text(value: int, marked: bool, width: int) -> str:
    """A cell's digit (``.`` when empty) centred in ``width``, bracketed when marked."""
    text = str(value) if value else "."
    if marked:
        text = f"[{text}]"
    return text.center(width)
