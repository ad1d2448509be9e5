"""Synthetic crops of a doubling cube's top face, drawn with system typefaces (training and judging data).

A crop is what the board reader cuts around a cube's face: a square window about the face's centre,
turned as the face's outline, spanning ``SPAN`` face edges, at a few pixels per millimetre. The face is
drawn here from the physical picture (an ivory square with one numeral of 2..64 in some typeface, some
style, some colour, at any of the four quarter turns or any turn at all, under some light, seen a little
off square) and never with the reader's code or glyphs: this module imports nothing from ``vision``.

Typefaces come from the system's fonts (``fc-list``); :data:`HELD_OUT` families never reach training or
tuning. Class 0 is "no cube face" (a die's face, a blank square, wood, leather, a checker).
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


def split_families() -> tuple[list[str], list[str]]:
    """(training families, held-out families); the Hershey faces count as held out."""
    fams = sorted(font_files())
    held = [f for f in fams if f in HELD_OUT]
    return [f for f in fams if f not in HELD_OUT], held + [HERSHEY]


@dataclass(frozen=True)
class Style:
    family: str
    path: str | None  # None: a Hershey face
    kind: str  # filled, bold, outlined, engraved


def _numeral_mask(text: str, style: Style, size: int, rng: np.random.Generator) -> np.ndarray:
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
    h, w = ink.shape
    w = max(1, int(w * rng.uniform(0.6, 1.15)))  # condensed or extended
    fill = rng.uniform(0.45, 0.85)
    k = fill * size / max(h, w)
    ink = cv2.resize(ink, (max(1, int(w * k)), max(1, int(h * k))), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size), np.float32)
    y0, x0 = (size - ink.shape[0]) // 2, (size - ink.shape[1]) // 2
    out[y0:y0 + ink.shape[0], x0:x0 + ink.shape[1]] = ink
    return out


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _texture(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A surround: walnut grain, leather, felt, a table, a checker's copper (BGR float 0..255)."""
    h, w = shape
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


def draw_crop(rng: np.random.Generator, label: int, families: list[str], out_side: int | None = None,
              span_edges: float = SPAN) -> np.ndarray:
    """One BGR uint8 crop ``span_edges`` face edges across: label 1..6 is ``FACES[label - 1]`` on a cube's
    face; 0 is no cube face."""
    H = 80  # face edge at the drawing's resolution
    C = int(H * max(2.2, 1.45 * span_edges))
    img = _texture(rng, (C, C))
    c0 = (C - H) // 2
    face_kind = "cube"
    if label == 0:
        face_kind = str(rng.choice(["die", "blank", "none", "cube_offset"], p=[0.5, 0.2, 0.2, 0.1]))
    # the face's body: a darker or lighter side face on one edge (a camera off the vertical sees it)
    ivory = np.array([rng.uniform(170, 250)] * 3, np.float32) + np.array([-rng.uniform(0, 40), -rng.uniform(0, 15), 0], np.float32)
    if face_kind != "none":
        if rng.random() < 0.5:
            side = int(rng.uniform(0.05, 0.3) * H)
            k = int(rng.integers(4))
            box = [(c0, c0 + H + side, c0, c0 + H), (c0 - side, c0 + H, c0, c0 + H), (c0, c0 + H, c0, c0 + H + side), (c0, c0 + H, c0 - side, c0 + H)][k]
            img[box[0]:box[1], box[2]:box[3]] = ivory * rng.uniform(0.5, 1.0)
        radius = int(rng.uniform(0, 0.15) * H)
        sq = np.zeros((C, C), np.uint8)
        cv2.rectangle(sq, (c0 + radius, c0), (c0 + H - radius, c0 + H), 1, -1)
        cv2.rectangle(sq, (c0, c0 + radius), (c0 + H, c0 + H - radius), 1, -1)
        for x, y in ((c0 + radius, c0 + radius), (c0 + H - radius, c0 + radius), (c0 + radius, c0 + H - radius), (c0 + H - radius, c0 + H - radius)):
            cv2.circle(sq, (x, y), radius, 1, -1)
        img[sq > 0] = ivory
        ink = np.zeros((C, C), np.float32)
        if face_kind in ("cube", "cube_offset"):
            family = families[int(rng.integers(len(families)))]
            kind = str(rng.choice(["filled", "bold", "outlined", "engraved"], p=[0.45, 0.25, 0.15, 0.15]))
            if family == HERSHEY:
                style = Style(family, None, kind)
            else:
                files = font_files()[family]
                style = Style(family, files[int(rng.integers(len(files)))], kind)
            value = FACES[(label if label else int(rng.integers(1, 7))) - 1]
            mask = _numeral_mask(str(value), style, H, rng)
            # the numeral upright in one of the four quarter turns, or turned anyhow
            turn = rng.uniform(0, 360) if rng.random() < 0.25 else 90.0 * rng.integers(4) + rng.normal(0, 4)
            m = cv2.getRotationMatrix2D((H / 2, H / 2), turn, 1.0)
            m[:, 2] += rng.normal(0, 0.03 * H, 2)
            mask = cv2.warpAffine(mask, m, (H, H))
            ink[c0:c0 + H, c0:c0 + H] = mask
            if face_kind == "cube_offset":  # half of a face: the crop missed the cube
                shift = rng.choice([-1, 1], 2) * rng.uniform(0.45, 0.7, 2) * H
                ink = np.roll(ink, (int(shift[0]), int(shift[1])), axis=(0, 1))
                sq = np.roll(sq, (int(shift[0]), int(shift[1])), axis=(0, 1))
        elif face_kind == "die":
            kind = "filled"
            ink[c0:c0 + H, c0:c0 + H] = cv2.warpAffine(_pips(int(rng.integers(1, 7)), H, rng),
                                                       cv2.getRotationMatrix2D((H / 2, H / 2), rng.uniform(0, 360), 1.0), (H, H))
        else:
            kind = "filled"
            if rng.random() < 0.5:  # a stain or scratch
                cv2.line(ink, tuple(int(v) for v in rng.uniform(c0, c0 + H, 2)), tuple(int(v) for v in rng.uniform(c0, c0 + H, 2)), 0.6, int(rng.integers(1, 6)))
        ink *= sq
        ink_colour = np.array([[20, 20, 20], [90, 30, 20], [30, 30, 120], [30, 80, 30], [30, 60, 90], [60, 160, 190]][
            int(rng.choice(6, p=[0.5, 0.12, 0.12, 0.08, 0.08, 0.1]))], np.float32) + rng.normal(0, 10, 3)
        if kind == "engraved":  # cut into the face: lit on one wall, shaded on the other, barely darker inside
            d = rng.normal(0, 2, 2)
            shifted = np.roll(ink, (int(d[0]), int(d[1])), axis=(0, 1))
            relief = (shifted - ink) * rng.uniform(40, 90)
            img += relief[..., None]
            img = img * (1 - rng.uniform(0.1, 0.5) * ink[..., None]) + ink_colour * rng.uniform(0.0, 0.3) * ink[..., None]
        else:
            a = ink[..., None] * rng.uniform(0.7, 1.0)
            img = img * (1 - a) + ink_colour * a
    # light: a gradient, sometimes a hard shadow edge or a glare spot
    yy, xx = np.mgrid[0:C, 0:C].astype(np.float32) / C
    g = rng.normal(0, 0.3, 2)
    img *= (rng.uniform(0.55, 1.15) * (1 + g[0] * (xx - 0.5) + g[1] * (yy - 0.5)))[..., None]
    if rng.random() < 0.25:
        t = rng.uniform(0, 2 * np.pi)
        shade = (np.cos(t) * (xx - 0.5) + np.sin(t) * (yy - 0.5)) > rng.uniform(-0.3, 0.3)
        img[shade] *= rng.uniform(0.45, 0.8)
    if rng.random() < 0.2:
        cx, cy, r = rng.uniform(0.3, 0.7, 2).tolist() + [rng.uniform(0.03, 0.12)]
        img += (rng.uniform(40, 120) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))[..., None]
    tint = np.array([rng.normal(1, 0.06), 1.0, rng.normal(1, 0.06)], np.float32)  # white balance off
    img = np.clip(img * tint, 0, 255)
    # the camera: the crop centred near the face's centre, turned near the face's outline, a little off square
    side = out_side or int(rng.integers(28, 64))
    span = span_edges * H * rng.uniform(0.88, 1.12)
    centre = np.array([C / 2, C / 2]) + rng.normal(0, 0.06 * H, 2)
    ang = np.deg2rad(rng.normal(0, 4) if rng.random() < 0.9 else rng.uniform(-45, 45))
    u = np.array([np.cos(ang), np.sin(ang)]) * span / 2
    v = np.array([-np.sin(ang), np.cos(ang)]) * span / 2
    src = np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v], np.float32)
    src += rng.normal(0, 0.035 * span * SPAN / span_edges, (4, 2)).astype(np.float32)  # perspective, foreshortening
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    blur = 0.45 * span / side  # the camera's pixels integrate over this much of the drawing
    img = cv2.GaussianBlur(img, (0, 0), blur)
    crop = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.5:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.2))  # defocus
    crop += rng.normal(0, rng.uniform(0, 8), crop.shape)
    crop = np.clip(crop, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
        crop = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return crop
