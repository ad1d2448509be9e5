"""The doubling cube's numerals as ink masks (OpenCV's Hershey Duplex face), for the project's renderers.

The reader does not use them: it reads the cube with a network trained on other typefaces
(``vision.cube_cnn``), with this face held out.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

INK_FILL = 0.7  # the numeral spans this fraction of the face


def numeral_mask(text: str, size: int, thickness: int) -> NDArray[np.float32]:
    """``text`` centred on a ``size`` x ``size`` face, ink = 1.0."""
    tile = np.zeros((size, size), np.uint8)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 1.0, thickness)
    scale = INK_FILL * size / max(tw, th)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
    cv2.putText(tile, text, ((size - tw) // 2, (size + th) // 2), cv2.FONT_HERSHEY_DUPLEX, scale, 255, thickness, cv2.LINE_AA)
    return tile.astype(np.float32) / 255.0
