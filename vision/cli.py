"""``bgref calibrate``, ``bgref read`` and ``bgref dice``: JSON on stdout, one-line errors on stderr."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from vision.errors import VisionError

EXIT_BAD_INPUT = 2
EXIT_NOT_FOUND = 3


def register(subparsers: Any) -> None:
    cal = subparsers.add_parser("calibrate", help="learn the board from one image of the start position")
    cal.add_argument("image", help="image of the start position (no dice, cube in the middle)")
    cal.add_argument("-o", "--output", default="calibration.json", help="where to write the calibration (default %(default)s)")
    cal.add_argument("--corners", help="the board's four outer corners in pixels: x1,y1,x2,y2,x3,y3,x4,y4")
    cal.add_argument("--empty", metavar="IMAGE", help="an image of the empty board, same camera and lamp: the points the "
                     "start checkers cover are then learnt, not borrowed from their neighbours")
    cal.add_argument("--dark-inlay", choices=("olive", "darker", "greener", "redder"), default="olive",
                     help="which checkers are dark's: 'olive' (default: the set's olive inlay, the greener of the two; for "
                     "inlays of one hue, the darker), or those whose inlay is darker, greener or redder")
    cal.set_defaults(func=cmd_calibrate)

    rd = subparsers.add_parser("read", help="read board images: one JSON line per image")
    rd.add_argument("images", nargs="+", help="image files")
    rd.add_argument("--calibration", default="calibration.json", help="from `bgref calibrate` (default %(default)s)")
    rd.set_defaults(func=cmd_read)

    dc = subparsers.add_parser("dice", help="read dice in a photo without a board")
    dc.add_argument("image", help="image file")
    dc.set_defaults(func=cmd_dice)


def _quiet_opencv() -> None:
    """Our one-line errors replace OpenCV's own decoder warnings on stderr."""
    import cv2

    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_ERROR)
    elif hasattr(cv2, "setLogLevel"):  # Debian's and Raspberry Pi OS's OpenCV 4.6 has no cv2.utils.logging
        cv2.setLogLevel(2)  # 2: errors only


def _fail(command: str, exc: BaseException, code: int) -> int:
    print(f"bgref {command}: {exc}", file=sys.stderr)
    return code


def cmd_calibrate(args: argparse.Namespace) -> int:
    _quiet_opencv()
    from vision.calibrate import calibrate, camera_of, learn_empty_board, parse_corners
    from vision.config import CalibrationConfig
    from vision.errors import BoardNotFoundError, ImageReadError, StartPositionNotFoundError
    from vision.sources import read_image
    from vision.start_layout import PatternConfig

    try:
        corners = parse_corners(args.corners) if args.corners else None
        image = read_image(args.image)
        config = CalibrationConfig(pattern=PatternConfig(dark_inlay=args.dark_inlay))
        cal = calibrate(config, image, corners)
        if args.empty:
            cal = learn_empty_board(config, cal, read_image(args.empty))
    except (ImageReadError, ValueError) as exc:
        if isinstance(exc, (BoardNotFoundError, StartPositionNotFoundError)):
            return _fail("calibrate", exc, EXIT_NOT_FOUND)
        return _fail("calibrate", exc, EXIT_BAD_INPUT)
    try:
        Path(args.output).write_text(json.dumps(cal.to_json(), indent=1) + "\n")
    except OSError as exc:
        return _fail("calibrate", f"cannot write {args.output!r}: {exc.strerror or exc}", EXIT_BAD_INPUT)  # type: ignore[arg-type]
    cfg = CalibrationConfig()
    camera = camera_of(cfg, cal)
    if camera["tilt_deg"] > cfg.max_tilt_deg:
        print(f"bgref calibrate: warning: the camera looks {camera['tilt_deg']:.0f}° off vertical; the reader is made for up "
              "to 15°: mount it more nearly over the board's centre", file=sys.stderr)
    if cal.start_misread:
        where = ", ".join("the bar" if p == 25 else str(p) for p in cal.start_misread)
        print(f"bgref calibrate: warning: the start position read back wrong on point(s) {where} (dark's numbers): the "
              "reader may be unsure there; a camera more nearly over the board, or more even light, reads them", file=sys.stderr)
    print(json.dumps({"calibration": args.output, "layout": cal.layout.to_json(), "lens_k1": round(cal.lens.k1, 4), "camera": camera,
                      "start_misread": list(cal.start_misread)}))
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    _quiet_opencv()
    from vision.calibrate import load_calibration
    from vision.read import BoardReader
    from vision.sources import read_image

    try:
        reader = BoardReader(load_calibration(args.calibration))
    except VisionError as exc:
        return _fail("read", exc, EXIT_BAD_INPUT)
    status = 0
    for path in args.images:
        t0 = time.perf_counter()
        try:
            reading = reader(read_image(path)).to_json()
        except VisionError as exc:
            print(f"bgref read: {path}: {exc}", file=sys.stderr)
            print(json.dumps({"image": path, "error": str(exc)}))
            status = EXIT_NOT_FOUND
            continue
        except Exception as exc:  # a fault in the reader: this image is lost, not the others
            print(f"bgref read: {path}: the reader failed ({type(exc).__name__}: {exc}); please report this with the image",
                  file=sys.stderr)
            print(json.dumps({"image": path, "error": f"reader fault: {type(exc).__name__}: {exc}"}))
            status = EXIT_NOT_FOUND
            continue
        reading["image"] = {"path": path, **reading.get("image", {})}
        reading["timing_ms"] = round(1000 * (time.perf_counter() - t0), 1)
        print(json.dumps(reading))
    return status


def cmd_dice(args: argparse.Namespace) -> int:
    _quiet_opencv()
    from vision.dice import DiceConfig, read_dice
    from vision.sources import read_image

    try:
        image = read_image(args.image)
        dice = read_dice(DiceConfig(), image)
    except VisionError as exc:  # an unreadable image, or a model file missing from the install
        return _fail("dice", exc, EXIT_BAD_INPUT)
    print(json.dumps({"image": args.image, "dice": [d.to_json() for d in dice]}))
    return 0
