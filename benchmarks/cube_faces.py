"""Synthetic crops of a doubling cube's top face, drawn with system typefaces (training and judging data).

A crop is what the board reader cuts around a cube's face: a square window about the face's centre,
turned as the face's outline, spanning ``SPAN`` face edges, at a few pixels per millimetre. The face is
drawn here from the physical picture (an ivory square with one numeral of 2..64 in some typeface, some
style (filled, bold, outlined, engraved, slanted), some colour, at any of the four quarter turns or any
turn at all, checkers beside it, under some lamp) and then seen by a camera: turned anyhow, at 11-56
camera pixels per cube edge (a board filling 40-95% of a 1280x720 frame), a little off square,
defocused, moved, noisy and JPEG-compressed at the camera's own resolution before the crop is
resampled from it. Never with the reader's code or glyphs: this module imports nothing from ``vision``.

Typefaces come from the system's fonts (``fc-list``); :data:`HELD_OUT` families never reach training or
tuning (the cube's reader also holds out :data:`CUBE_HELD_OUT`). Class 0 is "no cube face" (a die's
face, two dice, a blank square, wood, leather, a checker, part of a cube's face).
Needs Pillow (the ``train`` extra).
"""

from __future__ import annotations

import functools
import re
import subprocess
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FACES = (2, 4, 8, 16, 32, 64)
SPAN = 1.25  # the crop spans this many face edges (as ``vision.cube_cnn.CROP_SPAN``; kept apart on purpose)
HELD_OUT = ("C059", "URW Gothic", "Linux Libertine", "Cantarell")  # whole families never trained or tuned on
# the cube's reader holds out three more families, all among the independent world's held-out cube typefaces
# (Caladea-Bold, Lato-Light, FreeSerif engraved), so that its figures there on them are on typefaces never trained
# on (the dice stages keep ``HELD_OUT``)
CUBE_HELD_OUT = HELD_OUT + ("Caladea", "Lato", "FreeSerif")
# training-eligible families the cube's reader is not trained on either, kept for choosing among training variants
# (epochs, mixes): a serif, a heavy serif, a humanist sans and a condensed sans, so that the held-out families are
# read once, at the end, and never choose anything
CUBE_DEV = ("P052", "URW Bookman", "Linux Biolinum O", "Open Sans Condensed")
HERSHEY = "Hershey (OpenCV)"  # the project's own renderers' glyphs: held out too, judged apart
# not numerals a cube would carry: symbol, dingbat, keyboard, initials and script faces
SKIP = re.compile(r"D050000L|Standard Symbols|Keyboard|Initials|Math|Z003|Noto (Sans|Serif) (?!Display|Mono)|Noto (Kufi|Naskh|Nastaliq|Music|Emoji|Color|Traditional)")


@functools.cache
def font_files() -> dict[str, tuple[str, ...]]:
    """Family -> font files of every installed typeface that draws the digits."""
    out = subprocess.run(["fc-list", "--format", "%{file}\t%{family[0]}\n"], capture_output=True, text=True, check=True).stdout
    fams: dict[str, list[str]] = {}
    for line in out.splitlines():
        path, _, family = line.partition("\t")
        if not path.lower().endswith((".ttf", ".otf")) or SKIP.search(family) or SKIP.search(path):
            continue
        if _draws_digits(path):
            fams.setdefault(_family(family), []).append(path)
    return {k: tuple(sorted(v)) for k, v in sorted(fams.items())}


def _family(name: str) -> str:
    for h in HELD_OUT:
        if name.startswith(h):
            return h
    return name


@functools.cache
def _draws_digits(path: str) -> bool:
    try:
        font = ImageFont.truetype(path, 40)
    except OSError:
        return False
    masks = set()
    for d in "123468":
        img = Image.new("L", (80, 80))
        ImageDraw.Draw(img).text((10, 10), d, font=font, fill=255)
        a = np.asarray(img)
        if a.sum() < 255 * 20:
            return False
        masks.add(a.tobytes())
    return len(masks) == 6  # a font without digits draws the same box (tofu) for each


def split_families(held_out: tuple[str, ...] = HELD_OUT) -> tuple[list[str], list[str]]:
    """(training families, held-out families); the Hershey faces count as held out."""
    fams = sorted(font_files())
    held = [f for f in fams if f in held_out]
    return [f for f in fams if f not in held_out], held + [HERSHEY]


# the Debian packages the families above come from (32 families with Hershey apart): without them the
# networks train on fewer families and the benchmarks judge fewer, silently but for :func:`lacking`
PACKAGES = ("fonts-dejavu-core", "fonts-liberation", "fonts-freefont-ttf", "fonts-urw-base35", "fonts-noto-core",
            "fonts-crosextra-carlito", "fonts-crosextra-caladea", "fonts-linuxlibertine", "fonts-cantarell",
            "fonts-roboto", "fonts-open-sans", "fonts-lato")


def lacking() -> str:
    """A warning naming the held-out and dev families this machine lacks, or '' when it has them all."""
    gone = [f for f in CUBE_HELD_OUT + CUBE_DEV if f not in font_files()]
    if not gone:
        return ""
    return f"this machine lacks the typeface families {', '.join(gone)}: install the Debian packages {' '.join(PACKAGES)}"


def cube_families() -> tuple[list[str], list[str]]:
    """(training, held-out) families of the cube's reader: :data:`CUBE_HELD_OUT` and Hershey held out."""
    return split_families(CUBE_HELD_OUT)


def cube_dev_families() -> tuple[list[str], list[str]]:
    """(training, dev) families of the cube's reader: the training families without :data:`CUBE_DEV`, and those
    (installed) of :data:`CUBE_DEV`; neither holds a held-out family."""
    train, _ = cube_families()
    return [f for f in train if f not in CUBE_DEV], [f for f in train if f in CUBE_DEV]


@dataclass(frozen=True)
class Style:
    family: str
    path: str | None  # None: a Hershey face
    kind: str  # filled, bold, outlined, engraved


def _numeral_mask(text: str, style: Style, size: int, rng: np.random.Generator, wide: bool = False) -> np.ndarray:
    """Ink (float 0..1) of ``text`` filling ``size`` x ``size``; its larger side spans 45-85% of it."""
    big = 120
    if style.path is None:  # OpenCV's Hershey faces, the kind the project's own renderers draw
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                               cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN]))
        thick = int(rng.integers(1, 6))
        canvas = np.zeros((big * 2, big * 4), np.uint8)
        cv2.putText(canvas, text, (10, big + 30), font, 2.5, 255, thick, cv2.LINE_AA)
        ink = canvas.astype(np.float32) / 255
    else:
        font = _font(style.path, big)
        stroke = int(rng.integers(2, 7)) if style.kind in ("bold", "outlined") else 0
        img = Image.new("L", (big * 4, big * 2))
        draw = ImageDraw.Draw(img)
        draw.text((40, 40), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
        ink = np.asarray(img, np.float32) / 255
        if style.kind == "outlined":  # the glyph's inside is the face again
            inner = Image.new("L", img.size)
            ImageDraw.Draw(inner).text((40, 40), text, font=font, fill=255)
            ink = np.clip(ink - cv2.erode(np.asarray(inner, np.float32) / 255, np.ones((3, 3))), 0, 1)
    ys, xs = np.nonzero(ink > 0.1)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if wide:
        ink = _restyle(ink, rng)
    h, w = ink.shape
    w = max(1, int(w * rng.uniform(0.6, 1.15)))  # condensed or extended
    fill = rng.uniform(0.45, 0.85)
    k = fill * size / max(h, w)
    ink = cv2.resize(ink, (max(1, int(w * k)), max(1, int(h * k))), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size), np.float32)
    y0, x0 = (size - ink.shape[0]) // 2, (size - ink.shape[1]) // 2
    out[y0:y0 + ink.shape[0], x0:x0 + ink.shape[1]] = ink
    return out


def _skeleton(ink: np.ndarray) -> np.ndarray:
    """The glyph's centre lines (Lantuejoul's morphological skeleton): what a pen drew."""
    a = (ink > 0.5).astype(np.uint8)
    k = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    out = np.zeros_like(a)
    while a.any():
        eroded = cv2.erode(a, k)
        out |= a - cv2.dilate(eroded, k)
        a = eroded
    return out.astype(np.float32)


def _restyle(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same numeral as another typeface might draw it (the held-out faces differ from the training ones in
    just such ways): its strokes redrawn by a round pen of any width along their centre lines (a monoline or
    stroke face, as engravers and plotters draw), thinned or thickened, its digits spaced and sized apart, and
    the whole bent smoothly (a hand-cut or unusual design). ``ink``: float 0..1, about 120 px tall."""
    h = ink.shape[0]
    r = rng.random()
    if r < 0.3:  # monoline: the skeleton drawn with a round pen
        pen = max(1, int(round(h * rng.uniform(0.025, 0.12))))
        ink = cv2.dilate(_skeleton(ink), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pen + 1,) * 2))
        ink = cv2.GaussianBlur(ink, (0, 0), 1.0)
    elif r < 0.55:  # lighter or heavier weight
        n = max(1, int(round(h * rng.uniform(0.01, 0.05))))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * n + 1,) * 2)
        thin = cv2.erode(ink, kernel) if rng.random() < 0.5 else cv2.dilate(ink, kernel)
        ink = thin if (thin > 0.5).sum() > 0.3 * (ink > 0.5).sum() else ink  # not eroded away
    if rng.random() < 0.5:  # the digits of a two-digit numeral spaced and sized apart
        cols = np.nonzero((ink > 0.1).any(axis=0))[0]
        gaps = np.nonzero(np.diff(cols) > 1)[0]
        if len(gaps) >= 1:
            cut = int(cols[gaps[0]] + 1)
            a, b = ink[:, :cut], ink[:, cut:]
            b = cv2.resize(b, (max(1, int(b.shape[1] * rng.uniform(0.85, 1.15))), h), interpolation=cv2.INTER_LINEAR)
            space = int(h * rng.uniform(-0.03, 0.25))
            out = np.zeros((h, a.shape[1] + b.shape[1] + max(space, 0)), np.float32)
            out[:, :a.shape[1]] = a
            x = max(0, a.shape[1] + space)
            out[:, x:x + b.shape[1]] = np.maximum(out[:, x:x + b.shape[1]], b[:, :out.shape[1] - x])
            ink = out
    if rng.random() < 0.5:  # bent smoothly: a displacement field a few per cent of the glyph's height
        hh, ww = ink.shape
        pad = int(0.1 * hh)
        ink = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        hh, ww = ink.shape
        amp = hh * rng.uniform(0.01, 0.04)
        field = [cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (ww, hh), interpolation=cv2.INTER_CUBIC) * amp for _ in range(2)]
        yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
        ink = cv2.remap(ink, xx + field[0], yy + field[1], cv2.INTER_LINEAR, borderValue=0)
    ys, xs = np.nonzero(ink > 0.1)
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _texture(rng: np.random.Generator, shape: tuple[int, int], wide: bool = False) -> np.ndarray:
    """A surround: walnut grain, leather, felt, a table, a checker's copper (BGR float 0..255); ``wide``: also a
    table cloth of any colour (green baize, red, blue)."""
    h, w = shape
    if wide and rng.random() < 0.2:
        hue = rng.uniform(0, 180)  # OpenCV's hue scale
        cloth = cv2.cvtColor(np.uint8([[[hue, rng.uniform(80, 255), rng.uniform(40, 200)]]]), cv2.COLOR_HSV2BGR)[0, 0]
        return np.ones((h, w, 3), np.float32) * cloth.astype(np.float32) + rng.normal(0, rng.uniform(2, 10), (h, w, 1))
    kind = rng.choice(["wood", "leather", "plain", "copper"], p=[0.4, 0.3, 0.2, 0.1])
    base = {"wood": (30, 60, 100), "leather": (40, 90, 110), "plain": (120, 120, 120), "copper": (60, 110, 180)}[str(kind)]
    colour = np.clip(np.array(base, np.float32) * rng.uniform(0.4, 1.8) + rng.normal(0, 25, 3), 0, 255)
    img = np.ones((h, w, 3), np.float32) * colour
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        t = rng.uniform(0, np.pi)
        u = xx * np.cos(t) + yy * np.sin(t)
        grain = np.sin(u / rng.uniform(1.5, 8) + 2 * np.sin(yy * np.cos(t) / rng.uniform(10, 30)))
        img *= (1 + 0.2 * grain)[..., None]
    elif kind == "copper":
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 0.6) * w
        ring = np.abs(np.hypot(xx - cx, yy - cy) - r) < 0.08 * w
        img[ring] = np.clip(img[ring] * 1.6 + 40, 0, 255)
    img += rng.normal(0, rng.uniform(2, 10), (h, w, 1))
    return img


def _pips(value: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """A die's face as ink: ``value`` round pips."""
    at = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
          5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]}[value]
    out = np.zeros((size, size), np.float32)
    step, r = size * rng.uniform(0.25, 0.3), size * rng.uniform(0.06, 0.1)
    for i, j in at:
        cv2.circle(out, (int(size / 2 + (i - 1) * step), int(size / 2 + (j - 1) * step)), int(r), 1.0, -1, cv2.LINE_AA)
    return out


def _checker(rng: np.random.Generator, img: np.ndarray, centre: tuple[float, float], r: float) -> None:
    """A copper checker with a leather inlay seen from above (a 'no cube face' surround or subject)."""
    copper = np.array([60, 110, 180], np.float32) * rng.uniform(0.5, 1.4)
    inlay = np.array([[40, 90, 80], [40, 80, 200], [30, 60, 60]][int(rng.integers(3))], np.float32) * rng.uniform(0.5, 1.3)
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(img, c, int(r), tuple(float(v) for v in copper), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(r * rng.uniform(0.6, 0.8)), tuple(float(v) for v in inlay), -1, cv2.LINE_AA)
    if rng.random() < 0.6:  # the rim's highlight
        a0 = rng.uniform(0, 360)
        cv2.ellipse(img, c, (int(r * 0.9), int(r * 0.9)), 0, a0, a0 + rng.uniform(30, 120), (230, 235, 245), int(max(1, r * 0.08)), cv2.LINE_AA)


def _rounded_square(C: int, x0: float, y0: float, edge: float, radius: float) -> np.ndarray:
    sq = np.zeros((C, C), np.uint8)
    a, b, r = int(x0), int(y0), int(radius)
    e = int(edge)
    cv2.rectangle(sq, (a + r, b), (a + e - r, b + e), 1, -1)
    cv2.rectangle(sq, (a, b + r), (a + e, b + e - r), 1, -1)
    for x, y in ((a + r, b + r), (a + e - r, b + r), (a + r, b + e - r), (a + e - r, b + e - r)):
        cv2.circle(sq, (x, y), r, 1, -1)
    return sq


def _ink_style(rng: np.random.Generator, families: list[str]) -> Style:
    family = families[int(rng.integers(len(families)))]
    kind = str(rng.choice(["filled", "bold", "outlined", "engraved"], p=[0.4, 0.2, 0.2, 0.2]))
    if family == HERSHEY:
        return Style(family, None, kind)
    files = font_files()[family]
    return Style(family, files[int(rng.integers(len(files)))], kind)


def sides_seen(rng: np.random.Generator) -> list[int]:
    """Which side faces a camera off the vertical sees beside the top (0 below, 1 above, 2 right, 3 left, as drawn
    from above): one, or two adjacent ones, never two opposite ones."""
    pair = [int(rng.integers(2)), 2 + int(rng.integers(2))]  # below or above, right or left
    return pair if rng.random() < 0.5 else [pair[int(rng.integers(2))]]


def _side_numerals(rng: np.random.Generator, img: np.ndarray, families: list[str], value: int, e0: float, edge: float,
                   ivory: np.ndarray, shift: list[float]) -> None:
    """One or two of the cube's side faces beside its top face, as a camera off the vertical sees them (a tall cube
    on a dim board: the light square the reader finds is the top and its sides together), each with its own numeral
    (another of the cube's values: a cube carries one on every face) squashed by the foreshortening; ``shift`` gets the middle of the light seen (top and sides), where the reader's crop may centre."""
    others = [v for v in FACES if v != value]
    a, b = int(e0), int(e0 + edge)
    for k in sides_seen(rng):
        side = max(2, int(rng.uniform(0.12, 0.7) * edge))  # up to tan(35 degrees) of an edge: a camera that far off the vertical
        box = [(b, b + side, a, b), (a - side, a, a, b), (a, b, b, b + side), (a, b, a - side, a)][int(k)]
        y0, y1, x0, x1 = (max(0, v) for v in box)
        shade = ivory * rng.uniform(0.4, 1.05)
        img[y0:y1, x0:x1] = shade
        style = _ink_style(rng, families)
        mask = _numeral_mask(str(others[int(rng.integers(len(others)))]), style, int(edge), rng)
        mask = np.rot90(mask, int(rng.integers(4)))
        along, across = (x1 - x0, y1 - y0) if k < 2 else (y1 - y0, x1 - x0)
        cut = cv2.resize(mask, (along, across), interpolation=cv2.INTER_AREA)  # the whole face foreshortened
        cut = (cut.T if k >= 2 else cut)[:y1 - y0, :x1 - x0]
        ink = np.array([20, 20, 20], np.float32) + rng.normal(0, 10, 3)
        region = img[y0:y0 + cut.shape[0], x0:x0 + cut.shape[1]]
        img[y0:y0 + cut.shape[0], x0:x0 + cut.shape[1]] = region * (1 - cut[..., None]) + ink * cut[..., None]
        d = side / 2 * rng.uniform(0.3, 1)
        shift[0] += (0, 0, d, -d)[int(k)]
        shift[1] += (d, -d, 0, 0)[int(k)]


def _face_drawing(rng: np.random.Generator, label: int, families: list[str], C: int, H: int, wide: bool = False,
                  sides: bool = False, shift: list[float] | None = None) -> np.ndarray:
    """The scene about the crop's centre, drawn from above at ``H`` px per cube edge on a ``C`` x ``C``
    canvas (BGR float 0..255): a cube's face with ``FACES[label - 1]`` or, for label 0, something else.
    ``sides``: a cube's face seen with one or two side faces, each with a numeral (:func:`_side_numerals`);
    ``shift`` gets how far from the top face's centre the light seen is centred (x, y drawing pixels)."""
    img = _texture(rng, (C, C), wide)
    c0 = (C - H) // 2
    for _ in range(int(rng.integers(0, 3))):  # checkers beside it
        ang, dist = rng.uniform(0, 2 * np.pi), rng.uniform(1.1, 1.6) * H
        _checker(rng, img, (C / 2 + dist * np.cos(ang), C / 2 + dist * np.sin(ang)), 0.75 * H)
    face_kind = "cube"
    if label == 0:
        face_kind = str(rng.choice(["die", "blank", "none", "cube_offset", "checker", "two_dice"], p=[0.4, 0.12, 0.12, 0.12, 0.12, 0.12]))
    if face_kind == "checker":
        _checker(rng, img, (C / 2 + rng.normal(0, 0.1 * H), C / 2 + rng.normal(0, 0.1 * H)), 0.75 * H)
        face_kind = "none"
    ivory = np.array([rng.uniform(165, 252)] * 3, np.float32) + np.array([-rng.uniform(0, 45), -rng.uniform(0, 18), 0], np.float32)
    if face_kind == "none":
        return img
    # a die's edge is 0.8 of the cube's; a die face may fill the crop as a cube's would (a nearer die)
    edge = H * (rng.uniform(0.7, 1.05) if face_kind in ("die", "two_dice") else 1.0)
    e0 = (C - edge) / 2
    if sides and face_kind in ("cube", "cube_offset"):
        _side_numerals(rng, img, families, FACES[(label or int(rng.integers(1, 7))) - 1], e0, edge, ivory,
                       shift if shift is not None else [0.0, 0.0])
    elif rng.random() < 0.6:  # a side face beside the top (a camera off the vertical sees it), darker or lighter
        side = int(rng.uniform(0.05, 0.35) * edge)
        k = int(rng.integers(4))
        a, b = int(e0), int(e0 + edge)
        box = [(a, b + side, a, b), (a - side, b, a, b), (a, b, a, b + side), (a, b, a - side, b)][k]
        img[box[0]:box[1], box[2]:box[3]] = ivory * rng.uniform(0.45, 1.05)
    sq = _rounded_square(C, e0, e0, edge, rng.uniform(0, 0.18) * edge)
    img[sq > 0] = ivory
    if rng.random() < 0.3:  # bevelled edges: a darker rim
        rim = sq - cv2.erode(sq, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 4)))
        img[rim > 0] *= rng.uniform(0.6, 0.9)
    ink = np.zeros((C, C), np.float32)
    kind = "filled"
    if face_kind in ("cube", "cube_offset"):
        style = _ink_style(rng, families)
        kind = style.kind
        value = FACES[(label if label else int(rng.integers(1, 7))) - 1]
        mask = _numeral_mask(str(value), style, H, rng, wide)
        if rng.random() < 0.2:  # slanted (italic) numerals
            sh = rng.uniform(-0.3, 0.3)
            mask = cv2.warpAffine(mask, np.float32([[1, sh, -sh * H / 2], [0, 1, 0]]), (H, H))
        # the numeral upright in one of the four quarter turns, or turned anyhow
        turn = rng.uniform(0, 360) if rng.random() < 0.3 else 90.0 * rng.integers(4) + rng.normal(0, 4)
        m = cv2.getRotationMatrix2D((H / 2, H / 2), turn, 1.0)
        m[:, 2] += rng.normal(0, 0.03 * H, 2)
        ink[c0:c0 + H, c0:c0 + H] = cv2.warpAffine(mask, m, (H, H))
        if face_kind == "cube_offset":  # part of a face: the crop missed the cube
            shift = rng.choice([-1, 1], 2) * rng.uniform(0.45, 0.7, 2) * H
            ink = np.roll(ink, (int(shift[0]), int(shift[1])), axis=(0, 1))
            sq = np.roll(sq, (int(shift[0]), int(shift[1])), axis=(0, 1))
    elif face_kind in ("die", "two_dice"):
        e = int(edge)
        pips = cv2.warpAffine(_pips(int(rng.integers(1, 7)), e, rng), cv2.getRotationMatrix2D((e / 2, e / 2), 90.0 * rng.integers(4) + (rng.uniform(0, 90) if rng.random() < 0.5 else rng.normal(0, 3)), 1.0), (e, e))
        ink[int(e0):int(e0) + e, int(e0):int(e0) + e] = pips
        if face_kind == "two_dice":  # the other die of a roll beside it
            d = rng.choice([-1, 1]) * rng.uniform(1.05, 1.4) * edge
            axis = int(rng.integers(2))
            ink = np.maximum(ink, np.roll(cv2.warpAffine(ink, cv2.getRotationMatrix2D((C / 2, C / 2), 90.0 * rng.integers(4), 1.0), (C, C)), int(d), axis=axis))
            sq = np.maximum(sq, np.roll(sq, int(d), axis=axis))
            img[sq > 0] = ivory
    elif rng.random() < 0.5:  # a blank face: a stain or scratch
        cv2.line(ink, tuple(int(v) for v in rng.uniform(c0, c0 + H, 2)), tuple(int(v) for v in rng.uniform(c0, c0 + H, 2)), 0.6, int(rng.integers(1, 6)))
    ink *= sq
    ink_colour = np.array([[20, 20, 20], [90, 30, 20], [30, 30, 120], [30, 80, 30], [30, 60, 90], [60, 160, 190]][
        int(rng.choice(6, p=[0.5, 0.12, 0.12, 0.08, 0.08, 0.1]))], np.float32) + rng.normal(0, 10, 3)
    if kind == "engraved":  # cut into the face: lit on one wall, shaded on the other, barely darker inside
        d = rng.normal(0, 2, 2)
        shifted = np.roll(ink, (int(d[0]), int(d[1])), axis=(0, 1))
        img += ((shifted - ink) * rng.uniform(30, 90))[..., None]
        img = img * (1 - rng.uniform(0.08, 0.5) * ink[..., None]) + ink_colour * rng.uniform(0.0, 0.3) * ink[..., None]
    else:
        a = ink[..., None] * rng.uniform(0.6, 1.0)
        img = img * (1 - a) + ink_colour * a
    return img


def _light(rng: np.random.Generator, img: np.ndarray, wide: bool = False, dim: bool = False,
           seen: dict[str, float] | None = None) -> np.ndarray:
    """A lamp: gradient, dimness, sometimes a hard shadow edge or a glare spot, its colour (2700-6500 K);
    ``wide``: dimmer still, and deeper hard shadows (an arm's, a cup's), straight or curved, across the face;
    ``dim``: a dim lamp, 15-50% of the usual light."""
    C = img.shape[0]
    yy, xx = np.mgrid[0:C, 0:C].astype(np.float32) / C
    g = rng.normal(0, 0.3, 2)
    level = rng.uniform(0.15, 0.5) if dim else rng.uniform(0.15, 1.2) if wide else rng.uniform(0.3, 1.2)
    if seen is not None:
        seen["level"] = float(level)
    img = img * (level * (1 + g[0] * (xx - 0.5) + g[1] * (yy - 0.5)))[..., None]
    if wide and rng.random() < 0.4:
        t = rng.uniform(0, 2 * np.pi)
        u = np.cos(t) * (xx - 0.5) + np.sin(t) * (yy - 0.5)
        u += rng.normal(0, 0.6) * (np.cos(t) * (yy - 0.5) - np.sin(t) * (xx - 0.5)) ** 2  # a curved edge
        edge = cv2.GaussianBlur((u > rng.uniform(-0.3, 0.3)).astype(np.float32), (0, 0), rng.uniform(0.3, 3.0))
        img *= (1 - rng.uniform(0.2, 0.75) * edge)[..., None]
    elif rng.random() < 0.3:
        t = rng.uniform(0, 2 * np.pi)
        shade = (np.cos(t) * (xx - 0.5) + np.sin(t) * (yy - 0.5)) > rng.uniform(-0.3, 0.3)
        img[shade] *= rng.uniform(0.4, 0.8)
    if rng.random() < 0.2:
        cx, cy, r = rng.uniform(0.3, 0.7, 2).tolist() + [rng.uniform(0.03, 0.12)]
        img += (rng.uniform(40, 120) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))[..., None]
    warm = rng.uniform(-1, 1)  # warm lamp: less blue, more red; cool: the reverse
    tint = np.array([1 - 0.2 * warm, 1.0, 1 + 0.1 * warm], np.float32) * rng.normal(1, 0.05, 3).astype(np.float32)
    return np.clip(img * tint, 0, 255)


def _motion_kernel(rng: np.random.Generator, length: float) -> np.ndarray:
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    t = rng.uniform(0, np.pi)
    c = n // 2
    d = np.array([np.cos(t), np.sin(t)]) * length / 2
    cv2.line(k, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1.0, 1, cv2.LINE_AA)
    return k / max(float(k.sum()), 1e-6)


def draw_crop(rng: np.random.Generator, label: int, families: list[str], out_side: int | None = None,
              span_edges: float = SPAN, seen: dict[str, float] | None = None, wide: bool = False,
              moved: bool = False, small: bool = False, dim: bool = False, sides: bool = False) -> np.ndarray:
    """One BGR uint8 crop ``span_edges`` face edges across: label 1..6 is ``FACES[label - 1]`` on a cube's
    face; 0 is no cube face.

    The scene is drawn from above, then seen by a camera: turned any way, at 11-56 camera pixels per cube
    edge (a board filling 40-95% of a 1280x720 frame), a little off square, defocused, moved, noisy and
    JPEG-compressed at the camera's resolution; the crop is then cut from the camera's image, as the
    reader cuts it from the rectified frame: about the face's centre, turned near its outline, resampled
    to ``out_side`` pixels (the reader's resolution, often finer than the camera's). ``seen``, if given,
    gets the camera's pixels per cube edge (``px``), its defocus and motion blur in camera pixels, the lamp's
    level (``level``, 1 the usual full light) and the sensor noise's deviation (``noise``, grey levels). ``moved``: always a
    streak of motion blur, a tenth to two fifths of the face's edge long whatever the camera's resolution (a camera on
    a shaken table or arm, a hand bumping the board during the exposure), where the usual draw moves a third of the
    crops by 1.5-6 camera pixels: a near cube is streaked across as much of its numeral as a far one. ``small``: the
    face 10-28 camera pixels across (a board filling well under half the frame, or seen across its short side),
    where the usual draw spreads 11-56. ``dim``: under a dim lamp (15-50% of the usual light), the
    camera's gain raising its noise to match. ``sides``: a cube's face seen with one or two of its side faces,
    each with its own numeral, and the crop centred anywhere between the top face's centre and the middle of
    the light seen (top and sides), as the reader centres it on the light square it found."""
    H = 80  # face edge at the drawing's resolution
    C = int(H * max(2.4, 1.45 * span_edges))
    shift = [0.0, 0.0]
    seen = {} if seen is None else seen
    img = _light(rng, _face_drawing(rng, label, families, C, H, wide, sides, shift), wide, dim, seen)
    # the camera: this many pixels per cube edge, turned anyhow, a little perspective
    px = float(np.exp(rng.uniform(np.log(10), np.log(28)) if small else rng.uniform(np.log(11), np.log(56))))
    seen.update(px=px, defocus=0.0, motion=0.0)
    s = px / H
    img = cv2.GaussianBlur(img, (0, 0), 0.45 / s)  # the camera's pixels integrate over this much of the drawing
    cam_side = int(np.ceil(C * s * 1.5)) + 4
    rot = cv2.getRotationMatrix2D((C / 2, C / 2), rng.uniform(0, 360), s)
    rot[:, 2] += cam_side / 2 - C / 2
    cam = np.vstack([rot, [0, 0, 1]]).astype(np.float64)
    tilt = rng.normal(0, 0.0015, 2) / s  # foreshortening of a tilted view (projective row, per drawing pixel)
    persp = np.array([[1, 0, 0], [0, 1, 0], [tilt[0] * s, tilt[1] * s, 1]], np.float64)
    centre_shift = np.array([[1, 0, -cam_side / 2], [0, 1, -cam_side / 2], [0, 0, 1]])
    cam = np.linalg.inv(centre_shift) @ persp @ centre_shift @ cam
    shot = cv2.warpPerspective(img, cam, (cam_side, cam_side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.65:  # defocus, up to a soft focus that blurs a numeral's strokes into one another
        seen["defocus"] = rng.uniform(0.3, min(2.5 if wide else 2.0, 0.5 + 0.1 * px))
        shot = cv2.GaussianBlur(shot, (0, 0), seen["defocus"])
    if moved or rng.random() < 0.35:  # the camera or the board moved while the shutter was open
        seen["motion"] = rng.uniform(0.1, 0.4) * px if moved else rng.uniform(1.5, 6)
        shot = cv2.filter2D(shot, -1, _motion_kernel(rng, seen["motion"]))  # motion
    noise = rng.uniform(3, 10) if dim else rng.uniform(0, 8)  # a dim scene is a gained-up one: more noise
    seen["noise"] = float(noise)
    shot = np.clip(shot + rng.normal(0, noise, shot.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", shot, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
        shot = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    # the crop: about the face's centre, turned near the face's outline, a little off in place, turn and scale
    side = out_side or int(rng.integers(28, 64))
    span = span_edges * H * rng.uniform(0.85, 1.18)
    centre = np.array([C / 2, C / 2]) + rng.normal(0, (0.1 if wide else 0.06) * H, 2) + np.array(shift)
    ang = np.deg2rad(rng.normal(0, 4) if rng.random() < 0.85 else rng.uniform(-45, 45))
    u = np.array([np.cos(ang), np.sin(ang)]) * span / 2
    v = np.array([-np.sin(ang), np.cos(ang)]) * span / 2
    src = np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v], np.float64)
    src += rng.normal(0, 0.02 * span * SPAN / span_edges, (4, 2))  # the rectification's own error
    on_cam = cv2.perspectiveTransform(src[None], cam)[0].astype(np.float32)
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    crop = cv2.warpPerspective(shot, cv2.getPerspectiveTransform(on_cam, dst), (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    return _bend(rng, crop) if wide and rng.random() < 0.4 else crop


def _bend(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """What a lens's bend that the calibration's model leaves over does to the crop: a little barrel or
    pincushion about a point off its middle (the lens's centre lies elsewhere in the frame)."""
    n = crop.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    cx, cy = rng.uniform(-1.5, 1.5, 2)
    k = rng.uniform(-0.06, 0.06)
    r2 = (xx - cx) ** 2 + (yy - cy) ** 2
    f = (1 + k * (r2 - float(np.mean(r2)))).astype(np.float32)
    mx, my = ((xx - cx) * f + cx + 0.5) * n, ((yy - cy) * f + cy + 0.5) * n
    return cv2.remap(crop, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
