"""Drawn things a dice reader must not take for a die, and drawn webcam scenes of white dice among them.

What a webcam over a table sees beside the dice: a laptop's keys (dark or light keycaps with a letter,
a digit or a symbol, in rows), labels with print, the side faces of dice (foreshortened, pips squashed),
wood grain and the lamp's glints on it. :func:`negative_patch` draws one such thing as a training
patch ("not a die face", the layout of ``bench_dice_cnn_train``'s patches: 96 px, the object's
48 px in the middle); :func:`scene` draws a whole photo with labelled white dice (top faces) among them,
for judging phantoms. Drawn from the physical picture with OpenCV and Pillow; imports nothing from
``vision``. ``families`` picks the typefaces of key legends and labels (see ``cube_faces.split_families``).
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cube_faces  # noqa: E402

PATCH, SIDE = 96, 48
LEGENDS = list(string.ascii_uppercase) + list("1234567890") + ["Esc", "Tab", "Fn", "Ctrl", "Alt", "⌘", "←", "↑", "→", "↓", "?", "!", "@", "#", ";", "'", ",", "."]
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]}


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table top: wood grain (or a plain cloth), BGR float."""
    base = np.array(rng.choice([(40, 80, 130), (60, 110, 160), (30, 55, 90), (110, 150, 190), (90, 90, 90)]), np.float32)
    base *= rng.uniform(0.7, 1.3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = rng.uniform(0, np.pi)
    u = xx * np.cos(t) + yy * np.sin(t)
    v = -xx * np.sin(t) + yy * np.cos(t)
    grain = np.sin(u / rng.uniform(2, 9) + 3 * np.sin(v / rng.uniform(30, 120)) + rng.uniform(0, 6))
    img = base * (1 + rng.uniform(0.05, 0.25) * grain)[..., None]
    return img + rng.normal(0, 3, (h, w, 1))


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, colour, families: list[str], rng) -> None:
    fam = families[int(rng.integers(len(families)))]
    files = cube_faces.font_files().get(fam)
    size = (int(height * len(text) * 1.2) + 8, int(height * 2) + 8)
    if files:
        font = cube_faces._font(files[int(rng.integers(len(files)))], max(6, int(height)))
        pil = Image.new("L", size)
        ImageDraw.Draw(pil).text((4, 4), text, font=font, fill=255)
        m = np.asarray(pil, np.float32) / 255
    else:  # OpenCV's Hershey faces
        m8 = np.zeros(size[::-1], np.uint8)
        cv2.putText(m8, text, (4, int(height * 1.2)), cv2.FONT_HERSHEY_SIMPLEX, height / 25, 255, max(1, int(height / 12)), cv2.LINE_AA)
        m = m8.astype(np.float32) / 255
    if m.max() == 0:
        return
    ys, xs = np.nonzero(m > 0.05)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    y0, x0 = int(centre[1] - m.shape[0] / 2), int(centre[0] - m.shape[1] / 2)
    h, w = img.shape[:2]
    ya, xa, yb, xb = max(0, y0), max(0, x0), min(h, y0 + m.shape[0]), min(w, x0 + m.shape[1])
    if ya >= yb or xa >= xb:
        return
    a = m[ya - y0:yb - y0, xa - x0:xb - x0, None]
    img[ya:yb, xa:xb] = img[ya:yb, xa:xb] * (1 - a) + np.array(colour, np.float32) * a


def keyboard(img: np.ndarray, rng, x0: int, y0: int, x1: int, y1: int, key: float, families: list[str]) -> None:
    """Rows of keycaps of side ``key`` px over the box (x0, y0)-(x1, y1)."""
    dark = rng.random() < 0.6
    deck = np.array((25, 25, 28) if dark else (190, 192, 195), np.float32) * rng.uniform(0.8, 1.2)
    cap = np.array((40, 40, 42) if dark else (235, 235, 235), np.float32) * rng.uniform(0.85, 1.1)
    ink = (225, 225, 225) if dark else (40, 40, 40)
    img[y0:y1, x0:x1] = deck
    gap = key * rng.uniform(0.12, 0.3)
    y = y0 + gap
    row = 0
    while y + key <= y1:
        x = x0 + gap + (row % 3) * key * 0.25
        while x + key <= x1:
            wk = key * (rng.choice([1, 1, 1, 1, 1.5, 2]) if rng.random() < 0.2 else 1)
            if x + wk > x1:
                break
            cv2.rectangle(img, (int(x), int(y)), (int(x + wk), int(y + key)), cap.tolist(), -1, cv2.LINE_AA)
            legend = LEGENDS[int(rng.integers(len(LEGENDS)))]
            corner = rng.random() < 0.3
            at = (x + key * 0.3, y + key * 0.3) if corner else (x + wk / 2, y + key / 2)
            _text(img, legend, at, key * rng.uniform(0.25, 0.5), ink, families, rng)
            x += wk + gap
        y += key + gap
        row += 1


def die_top(img: np.ndarray, centre, side: float, angle: float, value: int, rng, squash: float = 1.0,
            face=(235, 235, 232), pip=(25, 25, 25)) -> np.ndarray:
    """A die's face (a rounded square with pips), ``squash`` < 1 foreshortens it across (a side face). Returns its corners."""
    box = cv2.boxPoints((centre, (side, side * squash), angle))
    cv2.fillConvexPoly(img, box.astype(np.int32), face, cv2.LINE_AA)
    t = np.deg2rad(angle)
    u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)]) * squash
    step, r = side * 0.27, side * rng.uniform(0.07, 0.1)
    for i, j in PIPS[value]:
        c = np.array(centre) + (i - 1) * step * u + (j - 1) * step * v
        cv2.ellipse(img, (int(c[0]), int(c[1])), (max(1, int(r)), max(1, int(r * squash))), angle, 0, 360, pip, -1, cv2.LINE_AA)
    return box


def _finish(rng, img: np.ndarray) -> np.ndarray:
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]].astype(np.float32)
    g = rng.normal(0, 0.25, 2)
    img = img * (rng.uniform(0.6, 1.15) * (1 + g[0] * (xx / img.shape[1] - 0.5) + g[1] * (yy / img.shape[0] - 0.5)))[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img = np.clip(img + rng.normal(0, rng.uniform(1, 6), img.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def negative_patch(rng: np.random.Generator, families: list[str]) -> np.ndarray:
    """One 96x96 patch whose middle 48 px hold no die's top face."""
    n = PATCH * 3
    img = wood(rng, n, n)
    kind = rng.choice(["key", "label", "side", "edge", "glint", "part"], p=[0.35, 0.1, 0.2, 0.1, 0.1, 0.15])
    c = n / 2
    s = SIDE * 3 * rng.uniform(0.8, 1.2)
    if kind == "key":
        keyboard(img, rng, 0, 0, n, n, s, families)
        img = np.roll(img, tuple(int(v) for v in rng.integers(0, int(s), 2)), axis=(0, 1))
    elif kind == "label":
        cv2.rectangle(img, (int(c - s * 0.8), int(c - s * 0.5)), (int(c + s * 0.8), int(c + s * 0.5)), (230, 232, 235), -1)
        for k in range(int(rng.integers(1, 4))):
            word = "".join(rng.choice(list(string.ascii_letters), int(rng.integers(2, 7))))
            _text(img, word, (c, c - s * 0.3 + k * s * 0.3), s * 0.22, (30, 30, 30), families, rng)
    elif kind in ("side", "edge"):  # a die seen from the side: its top face and a squashed side face
        ang = rng.uniform(0, 360)
        squash = rng.uniform(0.25, 0.6)
        t = np.deg2rad(ang)
        v = np.array([-np.sin(t), np.cos(t)])
        top_c = np.array([c, c]) - v * (s * (0.5 + squash / 2) if kind == "side" else s * 0.5)
        die_top(img, tuple(top_c), s, ang, int(rng.integers(1, 7)), rng)
        side_c = top_c + v * s * (0.5 + squash / 2)
        shade = float(rng.uniform(0.5, 0.9))
        die_top(img, tuple(side_c), s, ang, int(rng.integers(1, 7)), rng, squash, face=tuple(float(235 * shade) for _ in range(3)))
    elif kind == "part":  # a corner of a larger die: what a proposal cut inside a die holds
        big = s * rng.uniform(1.9, 2.6)
        ang = rng.uniform(0, 360)
        off = rng.choice([-1, 1], 2) * big * rng.uniform(0.22, 0.32, 2)
        die_top(img, (c + off[0], c + off[1]), big, ang, int(rng.integers(1, 7)), rng)
    else:  # glints on varnished wood, a lamp's reflection
        for _ in range(int(rng.integers(1, 4))):
            cv2.ellipse(img, (int(rng.uniform(c - s / 2, c + s / 2)), int(rng.uniform(c - s / 2, c + s / 2))),
                        (int(s * rng.uniform(0.1, 0.5)), int(s * rng.uniform(0.05, 0.3))), rng.uniform(0, 180), 0, 360,
                        (245, 245, 245), -1, cv2.LINE_AA)
        img = cv2.GaussianBlur(img, (0, 0), 3)
    return cv2.resize(_finish(rng, img), (PATCH, PATCH), interpolation=cv2.INTER_AREA)


def scene(rng: np.random.Generator, families: list[str], w: int = 640, h: int = 480) -> tuple[np.ndarray, list[dict]]:
    """A webcam photo over a wooden table: a laptop's keys along one edge, 2-5 white dice, some
    leaning on something so that a side face shows. Returns the image and its dice
    (``{"value", "bbox_yolo_cxcywh_norm"}`` of each top face, as ``labels.json``)."""
    img = wood(rng, h, w)
    side = float(rng.uniform(28, 44))
    kb = rng.choice(["top", "bottom", "left", "right"])
    depth = int(rng.uniform(0.25, 0.4) * (h if kb in ("top", "bottom") else w))
    key = side * rng.uniform(0.9, 1.3)
    box = {"top": (0, 0, w, depth), "bottom": (0, h - depth, w, h), "left": (0, 0, depth, h), "right": (w - depth, 0, w, h)}[str(kb)]
    keyboard(img, rng, *box, key, families)
    free = np.ones((h, w), bool)
    free[box[1]:box[3], box[0]:box[2]] = False
    dice = []
    for _ in range(int(rng.integers(2, 6))):
        for _try in range(30):
            cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
            r = int(side * 1.3)
            if free[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r].all():
                break
        else:
            continue
        free[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r] = False
        ang = rng.uniform(0, 360)
        value = int(rng.integers(1, 7))
        # the shadow, then a side face when the camera sees it (off the vertical), then the top
        sh = cv2.boxPoints(((cx + side * 0.15, cy + side * 0.15), (side * 1.1, side * 1.1), ang)).astype(np.int32)
        shadow = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(shadow, sh, 1.0)
        img *= 1 - 0.4 * cv2.GaussianBlur(shadow, (0, 0), side * 0.1)[..., None]
        if rng.random() < 0.6:
            t = np.deg2rad(ang + 90 * int(rng.integers(4)))
            squash = rng.uniform(0.15, 0.45)
            v = np.array([-np.sin(t), np.cos(t)])
            sc = np.array([cx, cy]) + v * side * (0.5 + squash / 2)
            shade = float(rng.uniform(0.55, 0.9))
            die_top(img, tuple(sc), side, float(np.rad2deg(t)), int(rng.integers(1, 7)), rng, squash, face=tuple(float(232 * shade) for _ in range(3)))
        die_top(img, (cx, cy), side, ang, value, rng)
        ext = side * (abs(np.cos(np.deg2rad(ang))) + abs(np.sin(np.deg2rad(ang))))
        dice.append({"value": value, "bbox_yolo_cxcywh_norm": [cx / w, cy / h, ext / w, ext / h]})
    return _finish(rng, img), dice
