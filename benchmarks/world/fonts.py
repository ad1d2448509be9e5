"""Cube numerals in real typefaces: a small TrueType outline reader (no Pillow, no FreeType).

Reads the digit outlines (``glyf`` quadratic contours) of system TTF files and fills them
with OpenCV.  Typefaces are named ``"<file stem>/<style>"``; style is ``fill``, ``outline``
(only the contour drawn) or ``engraved`` (cut in: dark fill with a light lower lip).
Fonts found on this machine are listed by :func:`typefaces`; on Debian the packages
fonts-dejavu-core, fonts-dejavu-extra, fonts-liberation, fonts-freefont-ttf,
fonts-crosextra-carlito, fonts-crosextra-caladea and fonts-lato give the full list.
When none is found, OpenCV's stroke faces stand in (``hershey-*``).
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/local/share/fonts"))
# One per family and weight, chosen so serif, sans, mono, condensed and heavy all appear.
WANTED = (
    "DejaVuSans", "DejaVuSans-Bold", "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSansMono", "DejaVuSansCondensed-Bold",
    "DejaVuSerifCondensed", "LiberationSans-Regular", "LiberationSerif-Regular", "LiberationSerif-Bold",
    "LiberationMono-Regular", "FreeSerif", "FreeSansBold", "FreeMono", "Carlito-Regular", "Caladea-Bold",
    "Lato-Black", "Lato-Light", "DejaVuSerif-Italic", "FreeSerifItalic",
)
# the Debian packages that hold WANTED: without them the world draws fewer typefaces, and its
# seeded stills (the test split among them) are other stills
PACKAGES = ("fonts-dejavu-core", "fonts-liberation", "fonts-freefont-ttf", "fonts-crosextra-carlito",
            "fonts-crosextra-caladea", "fonts-lato")
STYLES = ("fill", "outline", "engraved")
HERSHEY = {"hershey-simplex": cv2.FONT_HERSHEY_SIMPLEX, "hershey-triplex": cv2.FONT_HERSHEY_TRIPLEX,
           "hershey-complex": cv2.FONT_HERSHEY_COMPLEX, "hershey-script": cv2.FONT_HERSHEY_SCRIPT_COMPLEX}


@lru_cache(maxsize=None)
def font_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in FONT_DIRS:
        if d.is_dir():
            for p in sorted(d.rglob("*.ttf")):
                found.setdefault(p.stem, p)
    return {name: found[name] for name in WANTED if name in found}


def missing() -> list[str]:
    """The WANTED fonts this machine lacks (install ``PACKAGES``)."""
    return [name for name in WANTED if name not in font_files()]


def typefaces() -> list[str]:
    """Every cube typeface this machine can draw: each font with the fill style, plus
    outline and engraved variants of a few, plus OpenCV's stroke faces."""
    names = [f"{stem}/fill" for stem in font_files()]
    for i, stem in enumerate(font_files()):
        if i % 4 == 1:
            names.append(f"{stem}/outline")
        if i % 4 == 3:
            names.append(f"{stem}/engraved")
    return names + [f"{h}/fill" for h in HERSHEY] + ["hershey-triplex/engraved"]


class TrueType:
    """The digits of one TTF file as polygons in font units."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        n = struct.unpack(">H", data[4:6])[0]
        self.tables = {}
        for i in range(n):
            tag, _, off, length = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
            self.tables[tag.decode("latin-1")] = (off, length)
        self.data = data
        head = self.tables["head"][0]
        self.units = struct.unpack(">H", data[head + 18: head + 20])[0]
        self.long_loca = struct.unpack(">h", data[head + 50: head + 52])[0] == 1
        self.cmap = self._cmap()

    def _cmap(self) -> dict[int, int]:
        d, base = self.data, self.tables["cmap"][0]
        n = struct.unpack(">H", d[base + 2: base + 4])[0]
        for i in range(n):
            pid, eid, off = struct.unpack(">HHI", d[base + 4 + 8 * i: base + 12 + 8 * i])
            sub = base + off
            if struct.unpack(">H", d[sub: sub + 2])[0] == 4 and pid in (0, 3):
                segx2 = struct.unpack(">H", d[sub + 6: sub + 8])[0]
                segs = segx2 // 2
                ends = struct.unpack(f">{segs}H", d[sub + 14: sub + 14 + segx2])
                starts_at = sub + 16 + segx2
                starts = struct.unpack(f">{segs}H", d[starts_at: starts_at + segx2])
                deltas = struct.unpack(f">{segs}h", d[starts_at + segx2: starts_at + 2 * segx2])
                ro_at = starts_at + 2 * segx2
                ros = struct.unpack(f">{segs}H", d[ro_at: ro_at + segx2])
                out = {}
                for ch in range(ord("0"), ord("9") + 1):
                    for k in range(segs):
                        if starts[k] <= ch <= ends[k]:
                            if ros[k] == 0:
                                out[ch] = (ch + deltas[k]) & 0xFFFF
                            else:
                                at = ro_at + 2 * k + ros[k] + 2 * (ch - starts[k])
                                g = struct.unpack(">H", d[at: at + 2])[0]
                                out[ch] = (g + deltas[k]) & 0xFFFF if g else 0
                            break
                return out
        raise ValueError("no unicode cmap")

    def _glyph_range(self, gid: int) -> tuple[int, int]:
        loca = self.tables["loca"][0]
        if self.long_loca:
            a, b = struct.unpack(">II", self.data[loca + 4 * gid: loca + 4 * gid + 8])
        else:
            a, b = (2 * v for v in struct.unpack(">HH", self.data[loca + 2 * gid: loca + 2 * gid + 4]))
        g = self.tables["glyf"][0]
        return g + a, g + b

    def contours(self, gid: int, depth: int = 0) -> list[NDArray[np.float64]]:
        start, end = self._glyph_range(gid)
        if end <= start:
            return []
        d = self.data
        nc = struct.unpack(">h", d[start: start + 2])[0]
        if nc < 0:  # composite: parts with offsets (scales ignored: digits seldom have them)
            out, at = [], start + 10
            while depth < 4:
                flags, sub = struct.unpack(">HH", d[at: at + 4])
                at += 4
                if flags & 1:
                    dx, dy = struct.unpack(">hh", d[at: at + 4]); at += 4
                else:
                    dx, dy = struct.unpack(">bb", d[at: at + 2]); at += 2
                at += 2 if flags & 8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
                out += [c + np.array([dx, dy]) for c in self.contours(sub, depth + 1)]
                if not flags & 0x20:
                    break
            return out
        ends = struct.unpack(f">{nc}H", d[start + 10: start + 10 + 2 * nc])
        npts = ends[-1] + 1
        at = start + 10 + 2 * nc
        ilen = struct.unpack(">H", d[at: at + 2])[0]
        at += 2 + ilen
        flags = []
        while len(flags) < npts:
            f = d[at]; at += 1
            flags.append(f)
            if f & 8:
                r = d[at]; at += 1
                flags += [f] * r
        coords = []
        for short, same in ((2, 16), (4, 32)):
            v, vals = 0, []
            for f in flags[:npts]:
                if f & short:
                    delta = d[at]; at += 1
                    v += delta if f & same else -delta
                elif not f & same:
                    v += struct.unpack(">h", d[at: at + 2])[0]; at += 2
                vals.append(v)
            coords.append(vals)
        pts = np.array(coords, np.float64).T
        on = np.array([f & 1 for f in flags[:npts]], bool)
        out, s = [], 0
        for e in ends:
            out.append(_flatten(pts[s: e + 1], on[s: e + 1]))
            s = e + 1
        return out

    def text(self, s: str) -> list[NDArray[np.float64]]:
        """Polygons of a numeral string, y up, advancing by each glyph's box."""
        out, x = [], 0.0
        for ch in s:
            cs = self.contours(self.cmap.get(ord(ch), 0))
            if not cs:
                continue
            lo = min(c[:, 0].min() for c in cs)
            hi = max(c[:, 0].max() for c in cs)
            out += [c + np.array([x - lo, 0.0]) for c in cs]
            x += (hi - lo) + 0.08 * self.units
        return out


def _flatten(pts: NDArray[np.float64], on: NDArray[np.bool_], steps: int = 6) -> NDArray[np.float64]:
    """A closed quadratic B-spline contour as a polyline."""
    n = len(pts)
    if n == 0:
        return pts
    if not on.any():  # all off-curve: start at a midpoint
        pts = np.vstack([(pts[0] + pts[-1]) / 2, pts]); on = np.concatenate([[True], on]); n += 1
    k0 = int(np.argmax(on))
    pts, on = np.roll(pts, -k0, axis=0), np.roll(on, -k0)
    poly = [pts[0]]
    i = 1
    while i <= n:
        p, is_on = pts[i % n], on[i % n]
        if is_on:
            poly.append(p)
            i += 1
            continue
        nxt, nxt_on = pts[(i + 1) % n], on[(i + 1) % n]
        end = nxt if nxt_on else (p + nxt) / 2
        a = poly[-1]
        for t in np.linspace(0, 1, steps + 1)[1:]:
            poly.append((1 - t) ** 2 * a + 2 * (1 - t) * t * p + t * t * end)
        i += 2 if nxt_on else 1
    return np.array(poly)


@lru_cache(maxsize=64)
def _font(stem: str) -> TrueType:
    return TrueType(font_files()[stem])


@lru_cache(maxsize=512)
def numeral(typeface: str, text: str, size: int = 96) -> NDArray[np.float32]:
    """Ink (0..1) of ``text`` centred on a size x size face, in ``typeface``'s style;
    engraved faces carry a negative lip (light) under the ink."""
    stem, _, style = typeface.partition("/")
    tile = np.zeros((size, size), np.float32)
    if stem in HERSHEY:
        face = HERSHEY[stem]
        (tw, th), _ = cv2.getTextSize(text, face, 1.0, 2)
        scale = 0.68 * size / max(tw, th)
        thick = max(1, int(size / 30))
        (tw, th), _ = cv2.getTextSize(text, face, scale, thick)
        ink = np.zeros((size, size), np.uint8)
        cv2.putText(ink, text, ((size - tw) // 2, (size + th) // 2), face, scale, 255, thick, cv2.LINE_AA)
        tile = ink.astype(np.float32) / 255
    else:
        polys = _font(stem).text(text)
        allp = np.vstack(polys)
        lo, hi = allp.min(axis=0), allp.max(axis=0)
        scale = 0.66 * size / max(hi - lo)
        mid = (lo + hi) / 2
        sub = 4  # draw 4x larger, shrink: smooth edges
        pix = [np.round(((p - mid) * [1, -1] * scale + size / 2) * sub * 16).astype(np.int32) for p in polys]
        big = np.zeros((size * sub, size * sub), np.uint8)
        if style == "outline":
            cv2.polylines(big, pix, True, 255, max(1, int(size * sub / 40)), cv2.LINE_AA, shift=4)
        else:
            cv2.fillPoly(big, pix, 255, cv2.LINE_AA, shift=4)
        tile = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if style == "engraved":
        lip = np.roll(np.roll(tile, max(1, size // 48), axis=0), max(1, size // 64), axis=1)
        tile = np.clip(tile - 0.6 * np.clip(lip - tile, 0, 1), -1, 1)
        tile = np.where(lip > tile + 0.3, -0.5 * lip, tile)
    return tile
