"""Card faces as SVG: one drawing for every card the project shows (the /play page, the site).

:func:`card_svg` returns a standalone SVG document for a card's face, or for its back when the
card is hidden (``None``). Suits are drawn as paths, not font glyphs, so a face looks the same
on every machine; only the rank letters are text, and the caller may localize them (Russian
cards read Т К Д В for ace, king, queen, jack). The drawing uses presentation attributes only
(no ``style``, no ``id``), so many faces can sit inline in one page under a strict
Content-Security-Policy.

>>> svg = card_svg("QS", ranks={"Q": "Д"}, label="дама пик")
>>> svg.startswith("<svg") and ">Д</text>" in svg and 'aria-label="дама пик"' in svg
True
>>> 'fill="#c8102e"' in card_svg("10h"), "<text" in card_svg(None)
(True, False)
>>> ">JOKER</text>" in card_svg("X1")
True
>>> italian = card_svg("QH", pack="italian", ranks=ITALIAN_RANK_LETTERS, label="cavallo di coppe")
>>> ">C</text>" in italian and f'fill="{ITALIAN_SUIT_COLOURS["H"]}"' in italian
True
>>> card_svg("1S")
Traceback (most recent call last):
...
thirtyone.errors.CardError: not a card: '1S'
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

from thirtyone.cards import parse_card

WIDTH, HEIGHT = 100, 140
"""The face's coordinate box (a poker card's 5:7)."""

RED, BLACK = "#c8102e", "#1a1a1a"
SUIT_COLOURS: dict[str, str] = {"C": BLACK, "D": RED, "H": RED, "S": BLACK}
JOKER_COLOURS: dict[str, str] = {"X1": RED, "X2": BLACK}

# Each suit in a 100 x 100 box, as one path so it scales with a single transform.
SUIT_PATHS: dict[str, str] = {
    "H": "M50 94C22 70 0 50 0 28C0 12 12 0 27 0C38 0 46 7 50 16C54 7 62 0 73 0"
         "C88 0 100 12 100 28C100 50 78 70 50 94Z",
    "D": "M50 0L88 50L50 100L12 50Z",
    "S": "M50 0C78 26 100 44 100 62C100 78 88 88 74 88C64 88 57 83 53 76C55 88 59 95 68 100"
         "H32C41 95 45 88 47 76C43 83 36 88 26 88C12 88 0 78 0 62C0 44 22 26 50 0Z",
    "C": "M50 4A23 23 0 0 1 66 44A23 23 0 1 1 54 70C55 84 59 93 68 100H32C41 93 45 84 46 70"
         "A23 23 0 1 1 34 44A23 23 0 0 1 50 4Z",
}
# The Italian regional pack (RULES.md §4.15, "Il 31"): coppe, denari, bastoni and spade, in the
# places of hearts, diamonds, clubs and spades, each drawn by the project in the same box.
ITALIAN_SUIT_PATHS: dict[str, str] = {
    # A cup: the bowl, its stem and foot.
    "H": "M18 4H82C82 36 70 54 57 58V78H73V94H27V78H43V58C30 54 18 36 18 4Z",
    # A coin: a ring around a boss (drawn with the even-odd rule).
    "D": "M50 2A48 48 0 1 0 50 98A48 48 0 1 0 50 2ZM50 20A30 30 0 1 1 50 80A30 30 0 1 1 50 20Z"
         "M50 38A12 12 0 1 0 50 62A12 12 0 1 0 50 38Z",
    # A baton: a knotted staff.
    "C": "M43 2H57L61 20L55 25L59 45L53 50L57 72L51 77L56 98H44L49 77L43 72L47 50L41 45L45 25"
         "L39 20Z",
    # A sword: blade, guard and hilt.
    "S": "M50 0L57 10V60H76V69H57V83H61V98H39V83H43V69H24V60H43V10Z",
}
ITALIAN_SUIT_COLOURS: dict[str, str] = {
    "H": RED, "D": "#a87400", "C": "#2e6b30", "S": "#1f4e8c",
}
ITALIAN_RANK_LETTERS: dict[str, str] = {"A": "A", "J": "F", "Q": "C", "K": "R"}
"""The letters of the Italian pack: fante, cavallo, re (the queen's place is the knight's)."""

STAR_PATH = "M50 0L62 36H100L69 58L81 96L50 73L19 96L31 58L0 36H38Z"

BACK_COLOUR = "#1f4e8c"


def card_svg(
    code: str | None, *, ranks: Mapping[str, str] | None = None, label: str | None = None,
    pack: str = "french",
) -> str:
    """The SVG of ``code``'s face (``AS``, ``10H``, ``X1``...), or of a card's back for ``None``.

    ``ranks`` maps a rank (``A``, ``K``, ``Q``, ``J``, ``10``... and ``X`` for the joker's
    word) to the letters printed on the face; a rank it omits is printed as it is written in
    the card's code (``JOKER`` for a joker). ``label`` is the card's accessible name, its
    ``aria-label`` and ``<title>``. A code that is no card raises
    :class:`~thirtyone.errors.CardError`. ``pack="italian"`` draws the suits of the Italian
    regional pack (coppe, denari, bastoni, spade) in their own colours.
    """
    if code is None:
        body = _back()
    else:
        card = parse_card(code)
        letters = dict(ranks or {})
        if card.suit is None:
            body = _joker(JOKER_COLOURS[card.code], letters.get("X", "JOKER"))
        else:
            body = _face(card.rank, card.suit, letters.get(card.rank, card.rank),
                         italian=pack == "italian")
    title = ""
    accessible = 'aria-hidden="true"'
    if label is not None:
        title = f"<title>{escape(label)}</title>"
        accessible = f'role="img" aria-label={quoteattr(label)}'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'{accessible}>{title}'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="8" '
        f'fill="#fff" stroke="#777" stroke-width="2"/>{body}</svg>'
    )


def _shape(path: str, colour: str, x: float, y: float, size: float) -> str:
    """A 100 x 100 path drawn ``size`` wide with its top-left corner at (x, y); a path of
    several parts (the coin's ring and boss) leaves holes by the even-odd rule."""
    rule = ' fill-rule="evenodd"' if path.count("M") > 1 else ""
    return (f'<path d="{path}" fill="{colour}"{rule} '
            f'transform="translate({x:g} {y:g}) scale({size / 100:g})"/>')


def _corners(mark: str) -> str:
    """``mark`` in the top-left corner and, turned over, in the bottom-right one."""
    return f'{mark}<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{mark}</g>'


def _index(letters: str, colour: str) -> str:
    # A two-letter rank ("10") is squeezed to the width of one, so the corner stays readable.
    squeeze = ' textLength="22" lengthAdjust="spacingAndGlyphs"' if len(letters) > 1 else ""
    return (f'<text x="15" y="27" font-family="DejaVu Sans, Arial, sans-serif" '
            f'font-size="26" font-weight="bold" text-anchor="middle" fill="{colour}"'
            f'{squeeze}>{escape(letters)}</text>')


def _face(rank: str, suit: str, letters: str, *, italian: bool = False) -> str:
    colour = (ITALIAN_SUIT_COLOURS if italian else SUIT_COLOURS)[suit]
    path = (ITALIAN_SUIT_PATHS if italian else SUIT_PATHS)[suit]
    corner = _corners(_index(letters, colour) + _shape(path, colour, 6, 33, 18))
    if rank in ("J", "Q", "K"):
        # Pictures: a framed panel with the rank letter large over its suit.
        centre = (
            f'<rect x="26" y="26" width="48" height="88" rx="4" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
            f'<text x="50" y="76" font-family="DejaVu Serif, Georgia, serif" font-size="40" '
            f'font-weight="bold" text-anchor="middle" fill="{colour}">{escape(letters)}</text>'
            + _shape(path, colour, 38, 84, 24)
        )
    else:
        size = 50 if rank == "A" else 40
        centre = _shape(path, colour, 50 - size / 2, 70 - size / 2, size)
    return corner + centre


def _joker(colour: str, word: str) -> str:
    corner = _corners(_shape(STAR_PATH, colour, 5, 6, 20))
    return (
        corner + _shape(STAR_PATH, colour, 25, 28, 50)
        + f'<text x="50" y="104" font-family="DejaVu Sans, Arial, sans-serif" font-size="13" '
        f'font-weight="bold" text-anchor="middle" fill="{colour}" textLength="64" '
        f'lengthAdjust="spacingAndGlyphs">{escape(word)}</text>'
    )


def _back() -> str:
    # A lattice of diagonal lines, each cut to the inner panel here rather than by a clipPath,
    # which would need an id.
    left, top, right, bottom = 8, 8, WIDTH - 8, HEIGHT - 8
    strokes = []
    for k in range(top - right, bottom - left, 12):
        # The line y = x + k, and its mirror image across the panel's middle.
        x_start, x_end = max(left, top - k), min(right, bottom - k)
        if x_end > x_start:
            strokes.append(f"M{x_start} {x_start + k}L{x_end} {x_end + k}")
            strokes.append(f"M{left + right - x_start} {x_start + k}"
                           f"L{left + right - x_end} {x_end + k}")
    return (
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" rx="4" '
        f'fill="{BACK_COLOUR}"/>'
        f'<path d="{"".join(strokes)}" stroke="#fff" stroke-opacity="0.35" stroke-width="2" '
        f'fill="none"/>'
    )
