"""The independent world: renders of the physical set and whole-game footage, with truth.

Shares no code with the product: nothing here imports ``vision``, ``referee``,
``firmware_bridge`` or ``engine``.  Geometry, numbering, halves and seating are
written by hand from board-spec.md (:mod:`.board`); the truth of every image comes
from its scene description, never from a reader.

Stills with truth, for chosen factor values::

    from benchmarks.world import stills, FACTORS
    for image, truth, scene in stills(20, seed=1, factors={"stacking": "towers", "lens": "barrel"}):
        ...  # image: 1280x720 BGR uint8 (JPEG-decoded); truth: board-spec.md's JSON reading

Hold a factor value out (never drawn), e.g. to judge on typefaces a model never saw::

    train = stills(500, seed=2, hold_out={"typeface": ("FreeSerif/fill", "Lato-Black/fill")})
    judge = stills(100, seed=3, factors={"typeface": "FreeSerif/fill"})

``FACTORS`` lists every factor and its values (camera turn, side, tilt, height, lens,
fill, defocus; lamp colour, sources, shadows, dim; leather, copper, walnut; stacking
style; position kind; dice count, cocked, pips, corners, ivory; cube position and
typeface; arms/sleeves/cups; noise, motion blur, JPEG, white balance; home half,
dark's seat; table).  ``scene.factors`` says what a still drew.  One scene:
``random_scene(seed, factors, hold_out)`` and ``render(scene)``.

Footage of whole games with injected fouls: :mod:`.footage`
(``python -m benchmarks.world.footage --help``).
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .render import render
from .scene import FACTORS, Scene, random_scene

__all__ = ["FACTORS", "Scene", "random_scene", "render", "stills"]


def stills(n: int, seed: int = 0, factors: dict[str, str] | None = None,
           hold_out: dict[str, tuple[str, ...]] | None = None) -> Iterator[tuple[np.ndarray, dict, Scene]]:
    """``n`` seeded stills: (image, truth reading, scene)."""
    for i in range(n):
        scene = random_scene(seed * 1_000_003 + i, factors, hold_out)
        yield render(scene), scene.reading(), scene
