"""Camera footage of a scripted game, rendered with :mod:`vision.render`.

Each settled reading of a :mod:`referee.recording` script is held for a few
frames (the board at rest); a reading with a hand over the board becomes a few
frames of an arm reaching in from the seat of the player whose hand it is (the
script says whose: the thrower's arm comes from the thrower's side, so who
rolled can be told as on a real table).  Dice keep their place for as long as a
roll lies on the board.

Which half each player rolls into follows here from the physical picture (where
dark sits, where the home boards lie), written out in :func:`dark_right_half`:
the generator never asks the product's own derivation (``referee.seating``),
which it exists to check.  Everything is drawn from seeds, so the same seeds give the
same frames.  Used by the end-to-end tests, the service benchmark and
``python -m referee.footage`` (which writes a video or a folder of frames).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import BoardGeometry, Layout
from vision.reading import Cube, CubePosition, Die, Reading
from vision.geometry import bar_centre, checker_centre
from vision.render import CubeSpec, DieSpec, Scene, Setup, _free_spot, paint_board, paint_scene, photograph, random_setup, with_arm

from .recording import Script, record_game

Frame = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class FootageConfig:
    fps: float = 5.0
    hold_frames: int = 3  # frames of a settled state (0.6 s at 5 fps)
    arm_frames: int = 1  # frames of a hand passing over the board
    size: tuple[int, int] = (1280, 720)
    grain: float = 0.7  # temporal sensor noise, as a share of the camera's noise (0: none, compresses well)


@dataclass
class _Placer:
    """Keeps dice and cube where they landed while they stay on the board."""

    layout: Layout
    rng: np.random.Generator
    dice_key: tuple[Any, ...] | None = None
    dice: tuple[DieSpec, ...] = ()
    cube_key: tuple[Any, ...] | None = None
    cube: CubeSpec | None = None

    def scene(self, reading: Reading) -> Scene:
        geo = BoardGeometry()
        points = tuple(n or 0 for n in reading.points)
        bar = (reading.bar.dark or 0, reading.bar.light or 0)
        occupied = [checker_centre(geo, self.layout, p, i)[:2] for p, n in enumerate(points, start=1) for i in range(abs(n))]
        occupied += [bar_centre(geo, self.layout, True, i) for i in range(bar[0])]
        occupied += [bar_centre(geo, self.layout, False, i) for i in range(bar[1])]
        cube = self._cube(geo, reading.cube)
        if cube is not None:
            occupied.append(cube.xy)
        dice = self._dice(geo, reading.dice, occupied)
        return Scene(points, bar, self.layout, dice, cube)

    def _cube(self, geo: BoardGeometry, cube: Cube | None) -> CubeSpec | None:
        if cube is None:
            return None
        key = (cube.value, cube.position)
        if key != self.cube_key:
            self.cube_key = key
            if cube.position is CubePosition.CENTRE:
                xy = (geo.centre[0] + float(self.rng.normal(0, 1.0)), geo.centre[1] + float(self.rng.normal(0, 2.0)))
            else:
                x = float(self.rng.uniform(geo.frame + 30, geo.width - geo.frame - 30))
                y = geo.depth - geo.frame / 2 if (cube.position is CubePosition.DARK) == self.layout.dark_bottom else geo.frame / 2
                xy = (x, y)
            assert cube.value is not None, "a scripted game's cube always shows its face"
            self.cube = CubeSpec(cube.value, cube.position.value, xy, float(self.rng.uniform(-12, 12)))
        return self.cube

    def _dice(self, geo: BoardGeometry, dice: tuple[Die, ...], occupied: list[tuple[float, float]]) -> tuple[DieSpec, ...]:
        key = tuple((d.value, d.flat, d.half) for d in dice)
        if not dice:
            self.dice_key, self.dice = None, ()
            return ()
        if key != self.dice_key:
            specs = []
            taken = list(occupied)
            for d in dice:
                xy = _free_spot(self.rng, geo, taken, d.half.value, self.layout, 26.0)
                if xy is None:
                    continue
                taken.append(xy)
                specs.append(DieSpec(int(d.value or 0), xy, float(self.rng.uniform(0, 90)), d.flat, float(self.rng.uniform(0, 360))))
            self.dice_key, self.dice = key, tuple(specs)
        return self.dice


def dark_bottom_edge(layout: Layout) -> bool:
    """Whether dark sits at the bottom edge of the canonical plane (the large-y edge): the layout's
    standard picture has dark at the bottom, turned 180 degrees when it says otherwise."""
    return bool(layout.dark_bottom)


def dark_right_half(layout: Layout) -> str:
    """The half on dark's right, from the picture: where the home boards lie across the plane, and which
    way dark faces.  In the standard picture (home boards on the right, dark at the bottom) the home
    boards are on the plane's right; mirrored when not ``home_right``; the whole picture turned 180
    degrees when dark sits at the top.  Seated at the bottom edge a player faces up the plane, so their
    right is the plane's right; seated at the top edge, the plane's left."""
    home_on_plane_right = bool(layout.home_right)
    if not dark_bottom_edge(layout):
        home_on_plane_right = not home_on_plane_right
    dark_right_is_plane_right = dark_bottom_edge(layout)
    return "home" if home_on_plane_right == dark_right_is_plane_right else "outer"


def arm_from_seat(rng: np.random.Generator, scene: Scene, colour: str) -> Scene:
    """The scene with ``colour``'s arm reaching in from their own seat: it comes over the table's edge on
    their side and the hand stops on their side of the middle or a little past it, as a throw or a
    move does."""
    geo = BoardGeometry()
    bottom = (colour == "dark") == dark_bottom_edge(scene.layout)
    start = (float(rng.uniform(60, geo.width - 60)), geo.depth + 200.0 if bottom else -200.0)
    reach = float(rng.uniform(0.2, 0.6)) * geo.depth  # how far in from their edge the hand gets
    end = (float(rng.uniform(100, geo.width - 100)), geo.depth - reach if bottom else reach)
    return replace(scene, arm=(start, end, float(rng.uniform(70, 95))))


def _arm(rng: np.random.Generator, scene: Scene, hands: list[str] | None) -> Scene:
    """An arm over the board: the hand's owner's, when the script says whose (one of two hands, turn
    about), else from any side."""
    if not hands:
        return with_arm(rng, scene)
    return arm_from_seat(rng, scene, hands[int(rng.integers(len(hands)))])


def footage(
    items: list[dict[str, Any]], setup: Setup, seed: int, cfg: FootageConfig = FootageConfig()
) -> Iterator[tuple[float, Frame, dict[str, Any] | None]]:
    """``(seconds, frame, true reading or None while a hand is in view)`` for every frame."""
    rng = np.random.default_rng(seed)
    placer = _Placer(setup.layout, rng)
    geo = BoardGeometry()
    cam = setup.camera
    # The painted set is the same in every frame: paint it once.
    board = paint_board(np.random.default_rng(setup.board_seed), geo, setup.palette, cam.px_per_mm)
    t = 0.0
    frame_seed = seed * 100_003
    for item in items:
        reading = _reading(item)
        scene = placer.scene(reading)
        occluded = bool(reading.occluded)
        count = cfg.arm_frames if occluded else cfg.hold_frames
        frame_seed += 1
        # A still board is painted once (checkers do not jitter between frames);
        # each frame has its own sensor noise.  A passing arm moves every frame.
        canvas = None if occluded else paint_scene(np.random.default_rng(frame_seed), scene, board, setup.palette, cam, geo)
        for _ in range(count):
            shown = _arm(rng, scene, item.get("hands")) if occluded else scene
            if occluded:
                canvas = paint_scene(np.random.default_rng(frame_seed), shown, board, setup.palette, cam, geo)
            assert canvas is not None
            # One seed for the photograph keeps the table around the board still;
            # the sensor's own noise changes from frame to frame.
            image = photograph(np.random.default_rng(seed), canvas, cam, setup.palette, geo, 0.0)
            if cfg.grain:
                grain = rng.normal(0.0, cfg.grain * cam.noise, image.shape)
                image = np.clip(image + grain, 0, 255).astype(np.uint8)
            yield t, image, None if occluded else shown.reading()
            t += 1.0 / cfg.fps


def _reading(item: dict[str, Any]) -> Reading:
    """An item's reading: a script's JSON (``referee.recording``) read back and checked, or already typed."""
    reading = item["reading"]
    return reading if isinstance(reading, Reading) else Reading.from_json(reading)


def scripted_setup(seed: int, size: tuple[int, int]) -> Setup:
    """A seeded camera, set and lamp."""
    return random_setup(np.random.default_rng(seed), size)


def game_items(seed: int, layout: Layout, script: Script | None = None, turns: int | None = None) -> list[dict[str, Any]]:
    """The readings of a scripted game whose rolls land in the right halves for ``layout``,
    cut after ``turns`` plays when given."""
    script = script or Script()
    script.dark_right_half = dark_right_half(layout)
    items = []
    plays = 0
    for item in record_game(random.Random(seed), script):
        items.append(item)
        reading = _reading(item)
        if turns is not None and not reading.dice and not reading.occluded:
            plays += 1
            if plays > 4 * turns:
                break
    return items


# Every foul of issue #43 item 6 in a turn of its own (0 = the opening play): an illegal play then corrected,
# a cocked die, a roll into the opponent's half (one die, then both dice thrown by the roller's hand), a roll
# out of turn (the other player's hand throwing), checkers moved before the roll, a checker moved while one
# waits on the bar (the first time a player is on the bar), a roll before the pickup; a double taken.
EVERY_FOUL: dict[str, Any] = dict(cocked_die_turn=1, wrong_die_turn=2, wrong_half_turn=3, out_of_turn_turn=4, moved_before_roll_turn=5,
                                  wrong_half_both_turn=6, early_roll_turn=7, one_die_turn=8, double_turn=9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render the footage of a scripted game (video file or folder of frames).")
    parser.add_argument("output", type=Path, help="a .mp4/.avi file, or a folder for PNG frames")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed")
    parser.add_argument("--camera-seed", type=int, default=11, help="the camera, set and lamp")
    parser.add_argument("--turns", type=int, help="stop after about this many plays")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--fps", type=float, default=5.0)
    parser.add_argument("--grain", type=float, default=0.7, help="temporal sensor noise (0 for a compact video)")
    parser.add_argument("--camera-noise", type=float, help="the camera's own noise level (grey levels), instead of the setup's")
    parser.add_argument("--every-foul", action="store_true",
                        help="inject every foul a referee must call (issue #43 item 6), each in a turn of its own: see EVERY_FOUL")
    args = parser.parse_args(argv)
    cfg = replace(FootageConfig(), size=(args.width, args.height), fps=args.fps, grain=args.grain)
    setup = scripted_setup(args.camera_seed, cfg.size)
    if args.camera_noise is not None:
        setup = replace(setup, camera=replace(setup.camera, noise=args.camera_noise))
    script = Script(**EVERY_FOUL) if args.every_foul else Script()
    items = game_items(args.seed, setup.layout, script, args.turns)
    writer = None
    folder = None
    if args.output.suffix.lower() in (".mp4", ".avi"):
        fourcc = cv2.VideoWriter.fourcc(*("mp4v" if args.output.suffix.lower() == ".mp4" else "MJPG"))
        writer = cv2.VideoWriter(str(args.output), fourcc, cfg.fps, cfg.size)
    else:
        folder = args.output
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "fps.txt").write_text(f"{cfg.fps:g}\n")
    n = 0
    for _, frame, _truth in footage(items, setup, args.camera_seed, cfg):
        if writer is not None:
            writer.write(frame)
        else:
            assert folder is not None
            cv2.imwrite(str(folder / f"frame{n:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        n += 1
    if writer is not None:
        writer.release()
    print(f"wrote {n} frames of {len(items)} readings to {args.output}; injected: {script.events}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
