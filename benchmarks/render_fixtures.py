"""Write the small committed test fixtures of ``tests/data/vision`` (seeded, reproducible).

    .venv/bin/python benchmarks/render_fixtures.py [--seed 777] [--out tests/data/vision]

One setup: its start position (for calibration), three game frames, one frame with an arm
over the board, and one image of the table with no board. ``expected.json`` holds the true
reading of every frame, as rendered (the renderer's truth, not the reader's output).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.render import leather, random_palette, random_scene, random_setup, render, with_arm  # noqa: E402

JPEG_QUALITY = 85


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "tests" / "data" / "vision")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    setup = random_setup(np.random.default_rng(args.seed))
    expected: dict[str, object] = {"seed": args.seed, "layout": setup.layout.to_json(), "frames": {}}
    frames = {"start.jpg": (random_scene(np.random.default_rng(args.seed + 1), setup.layout, start=True), args.seed + 1)}
    for i in range(3):
        s = args.seed + 10 + i
        frames[f"frame{i + 1}.jpg"] = (random_scene(np.random.default_rng(s), setup.layout), s)
    s = args.seed + 20
    frames["arm.jpg"] = (with_arm(np.random.default_rng(s), random_scene(np.random.default_rng(s), setup.layout)), s)
    for name, (scene, seed) in frames.items():
        image, truth = render(scene, setup, seed, lamp_drift=0.0 if name == "start.jpg" else 0.5)
        cv2.imwrite(str(args.out / name), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        expected["frames"][name] = truth  # type: ignore[index]
    rng = np.random.default_rng(args.seed + 30)
    w, h = setup.camera.size
    table = np.clip(leather(rng, (h, w), random_palette(rng).table, 3.0) * 255, 0, 255).astype(np.uint8)
    cv2.imwrite(str(args.out / "noboard.jpg"), table, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    (args.out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {len(frames) + 1} images and expected.json to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
