"""A calibration: everything the reader needs about one installation (lens, homography, layout, the set's
colours), as learnt by :mod:`vision.calibrate` and saved as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.board import Lens, canonical_maps
from vision.config import ReaderConfig
from vision.errors import CalibrationError
from vision.geometry import Layout
from vision.profiles import ColourClass

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Calibration:
    """Everything :func:`vision.read.read_board` needs about one installation."""

    image_size: tuple[int, int]
    lens: Lens
    homography: NDArray[np.float64]  # undistorted image pixels -> canonical mm
    layout: Layout
    classes: dict[str, ColourClass]  # copper, dark, light, field, bar
    leather: tuple[ColourClass, ...]  # per canonical point column (24, dark's numbering)
    frame_reference: tuple[float, float, float]  # median BGR of the frame band
    wood_lightness: float
    background: NDArray[np.float32] | None = None  # (24, samples, 3): each point's profile when empty
    bare_board_seen: bool = False  # the start position's points were learnt from the empty board (learn_empty_board)
    bare_rims: NDArray[np.float32] | None = None  # (24, 5) ring strength each first-layer place shows bare (NaN: not seen bare)
    start_misread: tuple[int, ...] = ()  # points (dark's numbers; 25: the bar) the start position read back miscounted or unread

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "bgref-calibration",
            "version": FORMAT_VERSION,
            "image_size": list(self.image_size),
            "lens": {"k1": self.lens.k1, "centre": list(self.lens.centre), "norm": self.lens.norm},
            "homography": self.homography.tolist(),
            "layout": self.layout.to_json(),
            "classes": {k: v.to_json() for k, v in self.classes.items()},
            "leather": [c.to_json() for c in self.leather],
            "frame_reference": list(self.frame_reference),
            "wood_lightness": self.wood_lightness,
            "background": None if self.background is None else np.round(self.background, 1).tolist(),
            "bare_board_seen": self.bare_board_seen,
            "bare_rims": None if self.bare_rims is None else [[None if np.isnan(v) else round(float(v), 2) for v in row] for row in self.bare_rims],
            "start_misread": list(self.start_misread),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        try:
            if data.get("format") != "bgref-calibration" or data.get("version") != FORMAT_VERSION:
                raise CalibrationError(f"not a bgref calibration (format {data.get('format')!r}, version {data.get('version')!r})")
            lens = data["lens"]
            return cls(
                image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
                lens=Lens(float(lens["k1"]), (float(lens["centre"][0]), float(lens["centre"][1])), float(lens["norm"])),
                homography=np.array(data["homography"], np.float64).reshape(3, 3),
                layout=Layout(bool(data["layout"]["home_right"]), bool(data["layout"]["dark_bottom"])),
                classes={k: ColourClass.from_json(v) for k, v in data["classes"].items()},
                leather=tuple(ColourClass.from_json(v) for v in data["leather"]),
                frame_reference=tuple(float(v) for v in data["frame_reference"]),  # type: ignore[arg-type]
                wood_lightness=float(data["wood_lightness"]),
                background=None if data.get("background") is None else np.array(data["background"], np.float32),
                bare_board_seen=bool(data.get("bare_board_seen", False)),
                bare_rims=None if data.get("bare_rims") is None else np.array(data["bare_rims"], np.float64).astype(np.float32).reshape(24, 5),
                start_misread=tuple(int(p) for p in data.get("start_misread", ())),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"malformed calibration: {exc!r}") from None


def load_calibration(path: str | Path) -> Calibration:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"cannot read calibration {str(path)!r}: {exc}") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"not a bgref calibration: {str(path)!r}")
    return Calibration.from_json(data)


def warp_maps(cfg: ReaderConfig, cal: Calibration, pad: int = 0) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    return canonical_maps(cal.lens, cal.homography, cfg.geometry, cfg.px_per_mm, pad)


def parabola_vertex(left: Any, peak: Any, right: Any) -> NDArray[np.float64]:
    """Offset (-0.5..0.5, in steps) of the top of the parabola through three neighbouring scores, element by
    element (0 where they make no peak)."""
    left, peak, right = (np.asarray(v, np.float64) for v in (left, peak, right))
    curve = left - 2 * peak + right
    return np.where(curve < 0, np.clip(0.5 * (left - right) / np.where(curve < 0, curve, -1.0), -0.5, 0.5), 0.0)
