"""The board's edges: dice and the cube there, and the shaded points beside the frame (seeded renders,
one Blender setup)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import BoardReader, CalibrationConfig, calibrate
from vision.config import ReaderConfig
from vision.geometry import START_POINTS, BoardGeometry
import vision.read as read
from vision.read import WhiteBlob, _borrowed_shade, _face_mask, _read_numeral, _square_centre, board_window, cube_past_outline, face_marked, face_square
from vision.render import DIE_CLEARANCE, random_scene, random_setup, render
from vision.sources import read_image

DATA = Path(__file__).parent / "data"
CUBE = DATA / "vision_blender_cube"


def _reader_and_frame(base: int, setup_index: int, frame: int) -> tuple[BoardReader, np.ndarray, dict]:
    """bench_vision's setup ``setup_index`` of seed ``base``, calibrated, and its frame ``frame``."""
    seed = base + 1000 * setup_index
    setup = random_setup(np.random.default_rng(seed))
    start, _ = render(random_scene(np.random.default_rng(seed + 1), setup.layout, start=True), setup, seed + 1)
    reader = BoardReader(calibrate(CalibrationConfig(), start))
    scene = random_scene(np.random.default_rng(seed + 2 + frame), setup.layout)
    image, truth = render(scene, setup, seed + 2 + frame, lamp_drift=0.5)
    return reader, image, truth


def test_the_renderer_lays_dice_where_their_half_is_plain() -> None:
    # a cocked die on the frame would hang past the board's outline, which the renderer does not paint;
    # a die across the bar ridge's edge lies in no half
    geo = BoardGeometry()
    for k in range(300):
        scene = random_scene(np.random.default_rng(k), random_setup(np.random.default_rng(k)).layout)
        for die in scene.dice:
            if not geo.frame < die.xy[1] < geo.depth - geo.frame:
                assert die.flat
                continue
            assert min(abs(die.xy[0] - b) for b in geo.bar_x) >= DIE_CLEARANCE - 1e-9 or abs(die.xy[0] - 240.0) <= 15.0 - DIE_CLEARANCE + 1e-9


@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_a_cube_seen_past_the_boards_outline_is_read(calibrated) -> None:
    # Blender, 14° off vertical: the cube's top stands 40 mm over the plane the calibration maps, on the
    # near frame, and is seen beyond the board's outline
    truth = json.loads((CUBE / "truth.json").read_text())
    cal = calibrated(CUBE / "start.jpg")
    image = read_image(CUBE / "frame02.jpg")
    assert BoardReader(cal)(image).to_json()["cube"] == truth["frames"]["frame02.jpg"]["reading"]["cube"]
    found = cube_past_outline(BoardReader(cal).cfg, cal, image, np.zeros((1, 1), np.uint8))
    assert found is not None and found["value"] == 2 and found["position"] == "light"


def test_a_cube_past_the_outline_showing_a_side_face_is_read(calibrated) -> None:
    # Blender seed 7300001 setup 0, dim lamp: the cube on the far frame is seen past the outline with its
    # 4 face beside its top, one light blob about 28 mm long; at the 27 mm bound for a die's or a cube's
    # footprint the original render's blob was dropped and no cube was read (this re-encoded copy's blob
    # lies just under the bound, so the test guards the reading, not the bound)
    side = Path(__file__).parent / "data" / "vision_blender_cube_side"
    truth = json.loads((side / "truth.json").read_text())["frames"]["frame06.jpg"]["reading"]["cube"]
    assert truth == {"value": 64, "position": "light"}
    cal = calibrated(side / "start.jpg")
    image = read_image(side / "frame06.jpg")
    assert BoardReader(cal)(image).to_json()["cube"] == truth


@pytest.mark.slow  # a calibration and a whole reading: seconds
def test_a_cube_side_face_inside_the_outline_yields_to_the_top_past_it(calibrated) -> None:
    # independent renderer (benchmarks/world), dev seed 13000, setup 9, still 5: the cube on the dark side's frame
    # at the outline, its top (2) seen past the outline by parallax and the side face toward the camera (16, squashed)
    # inside it. The light blob inside the outline is that side face, face-sized; it was read first and, at 16 0.96
    # sure, ended the search: a sure wrong value on the owner's side. The top, seen square, reads surer.
    fixture = DATA / "world_cube_side_face"
    truth = json.loads((fixture / "truth.json").read_text())["cube"]
    cal = calibrated(fixture / "start.jpg")
    cube = BoardReader(cal)(read_image(fixture / "still.jpg")).to_json()["cube"]
    assert cube is not None and cube["position"] == truth["position"]
    assert cube["value"] in (truth["value"], None)  # the 2, or unread: never the side face's 16


@pytest.mark.parametrize("name, frame, misread", [
    # Blender seed 2026117600, cool lamp: the cube on the near frame's outer edge, turned 15°; the top's
    # far part is shaded, so the light mask holds its near two thirds and centres the face 6 mm short of the
    # numeral, which matched 8 (0.67) there; the 4 matches 0.87 where it is
    ("vision_blender_cube_shaded_face", "frame05.jpg", 8),
    # Blender seed 2026120600, dim lamp: the cube on the near frame at the camera image's bottom edge, which
    # cuts its blob; the face found on the patch lies more than 3 mm (0.15 of its 20 mm edge) off the 8, and
    # a side face's 64 matched better there (0.61 against 0.40). Read less surely than the reader reports a
    # value at, it may be left unread (value null), its place still given: never the 64
    ("vision_blender_cube_image_edge", "frame06.jpg", 64),
])
@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_a_cube_face_the_light_mask_sees_in_part_is_read_where_its_numeral_is(name: str, frame: str, misread: int, calibrated) -> None:
    fixture = DATA / name
    truth = json.loads((fixture / "truth.json").read_text())["frames"][frame]["reading"]["cube"]
    cal = calibrated(fixture / "start.jpg")
    image = read_image(fixture / frame)
    cube = BoardReader(cal)(image).to_json()["cube"]
    assert cube is not None and cube["position"] == truth["position"]
    assert cube["value"] in (truth["value"], None) and cube["value"] != misread
    if name == "vision_blender_cube_shaded_face":  # read surely where its numeral is
        assert cube == truth


@pytest.mark.parametrize("base, setup_index, frame", [(8675309, 10, 0), (8675309, 19, 1)])
@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_a_cube_past_the_outline_stands_out_from_what_lies_around_it(base: int, setup_index: int, frame: int) -> None:
    # setup 10: the lamp's sheen on the frame's edge was as light over the band as the cube, and joined it;
    # setup 19: a hot spot speckled a pale green table light round the cube. Both cubes were missed.
    reader, image, truth = _reader_and_frame(base, setup_index, frame)
    assert truth["cube"]["position"] != "centre"
    assert reader(image).to_json()["cube"] == truth["cube"]


def test_no_cube_is_invented_past_the_outline_when_it_is_in_the_middle(calibrated) -> None:
    truth = json.loads((CUBE / "truth.json").read_text())
    assert truth["frames"]["start.jpg"]["reading"]["cube"]["position"] == "centre"
    cal = calibrated(CUBE / "start.jpg")
    assert cube_past_outline(BoardReader(cal).cfg, cal, read_image(CUBE / "start.jpg"), np.zeros((1, 1), np.uint8)) is None


def test_two_dice_touching_along_an_edge_are_both_read() -> None:
    # seed 9090909, setup 17, frame 8: a cocked 6 against a flat 2 made one light blob 45 mm long that no
    # opening parts; both dice were missed. (The 6 leans away from the lamp: its raised side is a dim grey
    # face beside its top, which the footprint does not take in, so it is read flat.)
    reader, image, truth = _reader_and_frame(9090909, 17, 8)
    reading = reader(image).to_json()
    assert sorted(d["value"] for d in reading["dice"]) == sorted(d["value"] for d in truth["dice"])


@pytest.mark.slow  # renders and calibrates its own setups
def test_a_cube_on_the_frame_beside_a_light_table_is_read() -> None:
    # seed 9090909, setup 13, frame 1 and seed 31415926, setup 7, frame 5: the cube on the frame, seen past
    # the outline beside a pale cloth; the cloth was the lightest grey square there, and 32 and 8 were read
    # as 64 and 2 on it (the 8 too, with its own height: the cloth's squares tied with its face, and the
    # outline cut the blob to its side face); seed 500, setup 23, frame 2: the cloth reached the patch's
    # corner, where the band around a square lay past the patch; seed 500, setup 6, frame 4: the cloth hid
    # the cube from the first look, and a die on the same frame matched 64 weakly and was taken for it
    for base, k, frame in ((9090909, 13, 1), (31415926, 7, 5), (500, 23, 2), (500, 6, 4)):
        reader, image, truth = _reader_and_frame(base, k, frame)
        reading = reader(image).to_json()
        assert reading["cube"] == truth["cube"], (base, k, frame)
        # and no die is taken for the cube, nor the cube for dice
        assert sorted((d["value"], d["half"]) for d in reading["dice"]) == sorted((d["value"], d["half"]) for d in truth["dice"]), (base, k, frame)


@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_past_the_camera_image_nothing_is_seen() -> None:
    # a window of the board's plane reaching past the camera's image is black there, not the image's edge
    # smeared outwards (seed 4040404, setup 13, frame 1: a cube at the image's edge grew a light column
    # whose middle was taken for its face)
    reader, image, _ = _reader_and_frame(500, 0, 0)
    window = board_window(reader.cfg, reader.cal, image, (-2000.0, -2000.0), (100.0, 100.0))
    side = int(round(100.0 * reader.cfg.px_per_mm))
    assert window.shape == (side, side, 3) and not window.any()


def test_the_cube_in_the_middle_is_read_upright_when_a_highlight_bends_its_outline() -> None:
    # seed 600, setup 11, frame 1: copper highlights stuck to the centred 64 turned its blob's outline by 45°
    # and the numerals were matched on the diagonal (read as 2)
    reader, image, truth = _reader_and_frame(600, 11, 1)
    assert truth["cube"] == {"value": 1, "position": "centre"}
    assert reader(image).to_json()["cube"] == truth["cube"]


def test_the_cube_square_stands_out_from_a_light_surround() -> None:
    cfg = ReaderConfig()
    edge = int(round(cfg.geometry.cube_edge * cfg.px_per_mm))
    face = np.zeros((4 * edge, 4 * edge), np.uint8)
    face[:, : edge] = 1  # a light table along one side: more light pixels than the cube, but light all round
    face[: edge, 2 * edge:] = 1  # and along the far edge, where the band around a square lies past the patch
    x0, y0 = 2 * edge, 2 * edge
    face[y0:y0 + edge, x0:x0 + edge] = 1
    face[y0 + edge // 3: y0 + 2 * edge // 3, x0 + edge // 4: x0 + 3 * edge // 4] = 0  # the numerals' ink
    cx, cy = _square_centre(cfg, face)
    assert abs(cx - (x0 + edge / 2)) <= 2 and abs(cy - (y0 + edge / 2)) <= 2


def test_the_face_turn_is_its_squares_not_a_highlights() -> None:
    cfg = ReaderConfig().detail()  # the cube's face is read at the finer resolution
    edge = cfg.geometry.cube_edge * cfg.px_per_mm
    size = int(4 * edge)
    for turn in (-30.0, 0.0, 20.0):
        face = np.zeros((size, size), np.uint8)
        square = cv2.boxPoints(((size / 2, size / 2), (edge, edge), turn)).round().astype(np.int32)
        cv2.fillPoly(face, [square], 1)
        cv2.putText(face, "64", (int(size / 2 - edge / 3), int(size / 2 + edge / 6)), cv2.FONT_HERSHEY_DUPLEX, 0.6, 0, 2)
        seen = face_square(cfg, face, (size / 2, size / 2))
        assert seen is not None and abs((seen[0] - turn + 45.0) % 90.0 - 45.0) <= 2.0
    blob = np.zeros((size, size), np.uint8)
    cv2.ellipse(blob, (size // 2, size // 2), (int(edge), int(edge / 3)), 30, 0, 360, 1, -1)
    assert face_square(cfg, blob, (size / 2, size / 2)) is None  # no square there


def _face_patch(name: str, edge: float = 20.0) -> tuple[ReaderConfig, np.ndarray, np.ndarray, WhiteBlob, tuple[float, float]]:
    """A saved patch of a Blender frame around a cube's (or a die's) face, read at the finer resolution: the
    configuration, the patch, its face mask, a blob turned as the face, and where the face lies on the patch."""
    cfg = ReaderConfig().detail()
    patch = read_image(DATA / "cube_faces" / f"{name}.png")
    where = json.loads((DATA / "cube_faces" / f"{name}.json").read_text())
    blob = WhiteBlob((0.0, 0.0), (edge, edge), where["angle"], np.zeros((0, 1, 2), np.int32), (200.0, 128.0, 128.0), 1.0)
    return cfg, patch, _face_mask(cfg, patch), blob, (float(where["at"][0]), float(where["at"][1]))


@pytest.mark.parametrize("name, value", [("pale64", 64), ("pale16", 16), ("bold64", 64)])
def test_a_cube_numeral_is_matched_on_its_face_not_on_the_wood_around_it(name: str, value: int) -> None:
    # patches of Blender frames (2026112590 setups 17 and 6, 2026112570 setup 12) where the cube lies on
    # the frame: the dark wood past the face's edge outweighed a pale numeral, and a crop half off the face
    # read 32; a bold numeral's ink is not filled by the closing and must still count
    cfg, patch, face, blob, at = _face_patch(f"cube_{name}")
    score, seen = _read_numeral(cfg, patch, face, blob, at)
    assert seen == value and score >= 0.6


def test_a_die_on_the_frame_is_not_read_as_the_cube() -> None:
    # Blender 2026112600 setup 12 frame 10: a flat six on the light side's frame matched "64" at 0.56, better
    # than the true cube (a 32 on the dark side's frame, its face joined to a checker's rim) at 0.55; the six's
    # pips are round spots of a pip's size, which no numeral's glyphs are
    assert _read_numeral(*_face_patch("die_six", 16.0)) == (0.0, None)
    for name in ("pale64", "pale16", "bold64"):  # a numeral's glyphs are no pips, however the ink breaks up
        assert _read_numeral(*_face_patch(f"cube_{name}"))[1] is not None


@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_a_cocked_die_whose_blob_holds_most_of_its_side_face_stays_cocked() -> None:
    # seed 600, setup 16, frame 1: the growth beyond the blob was a 4 mm sliver; cutting it out as a rim's
    # bulge (tried, and dropped) notched the footprint and the cocked 3 read flat
    reader, image, truth = _reader_and_frame(600, 16, 1)
    assert sorted((d["value"], d["flat"]) for d in reader(image).to_json()["dice"]) == sorted((d["value"], d["flat"]) for d in truth["dice"])


def _footprint(cfg: ReaderConfig, corners_mm: np.ndarray) -> WhiteBlob:
    contour = np.round(cv2.convexHull(corners_mm.astype(np.float32)) * cfg.px_per_mm).astype(np.int32)
    (c, (w, h), a) = cv2.minAreaRect(contour)
    return WhiteBlob((c[0] / cfg.px_per_mm, c[1] / cfg.px_per_mm), (min(w, h) / cfg.px_per_mm, max(w, h) / cfg.px_per_mm), a, contour, (230.0, 128.0, 128.0), 1.0)


def _square(centre: tuple[float, float], side: float) -> np.ndarray:
    return np.array(centre) + np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64) * side / 2


@pytest.mark.slow  # renders and calibrates its own setups
def test_a_bare_corner_point_in_shade_holds_no_checker() -> None:
    # points the start position covers borrow their bare look from a point two away; in a dim corner
    # (seed 9090909, setup 11, point 12) and beside the bar (seed 8080808, setup 25, point 8) the leather
    # lay in a shade the borrowed look lacked, and a checker's copper shade explained it better
    for base, k, frame in ((9090909, 11, 3), (9090909, 11, 6), (8080808, 25, 3)):
        reader, image, truth = _reader_and_frame(base, k, frame)
        assert reader(image).to_json()["points"] == truth["points"], (base, k, frame)


@pytest.mark.slow  # renders and calibrates its own setups
def test_a_shade_is_taken_off_only_where_darker_and_less_on_a_point_seen_bare() -> None:
    reader, _, _ = _reader_and_frame(500, 0, 0)
    cal, cfg = reader.cal, reader.cfg
    assert cal.background is not None
    ignore = np.zeros(cal.background.shape[:2], bool)
    covered, bare = START_POINTS.index(5), START_POINTS.index(0)  # point 6 (start stack), point 2 (bare)
    dim = cal.background.copy()
    dim[..., 0] -= 25.0  # the whole board 25 darker than at calibration, and its colours duller by as much
    dim[..., 1:] = 128.0 + (cal.background[..., 1:] - 128.0) * (dim[..., :1] / cal.background[..., :1])
    judged = _borrowed_shade(cfg, cal, dim, ignore)
    assert np.allclose(judged[covered], cal.background[covered], atol=1e-3)  # the shade is taken off, dullness and all
    only_l = _borrowed_shade(replace(cfg, borrowed_shade_chroma=False), cal, dim, ignore)
    assert np.allclose(only_l[covered, :, 0], cal.background[covered, :, 0], atol=1e-3)
    assert np.allclose(only_l[covered, :, 1:], dim[covered, :, 1:])
    # a point seen bare at calibration: only a lamp's drift since (up to bare_shade_max) is taken off
    assert cfg.bare_shade_max < 25.0
    assert np.allclose(judged[bare, :, 0], dim[bare, :, 0] + cfg.bare_shade_max, atol=1e-3)
    assert np.array_equal(_borrowed_shade(replace(cfg, bare_shade_max=0.0), cal, dim, ignore)[bare], dim[bare])
    assert np.array_equal(_borrowed_shade(cfg, cal, cal.background + 25.0, ignore), cal.background + 25.0)  # lighter: no change
    assert _borrowed_shade(cfg, replace(cal, bare_board_seen=True), dim, ignore) is dim
    dark = cal.background.copy()
    dark[..., 0] -= 100.0  # far darker than any shade: only borrowed_shade_max is taken off
    assert np.allclose(_borrowed_shade(cfg, cal, dark, ignore)[covered, :, 0], cal.background[covered, :, 0] - 100.0 + cfg.borrowed_shade_max, atol=1e-3)


@pytest.mark.parametrize("pips", [0, 1, 6])
def test_a_light_square_without_a_pip_is_a_glare_not_a_die(pips: int) -> None:
    """A die's every face has a pip; the lamp's glare on the varnish is as light and square, but plain
    (Blender seed 2026112410: such a glare beside the bar read as a 6)."""
    cfg = ReaderConfig()
    rng = np.random.default_rng(pips)
    ppm, edge = cfg.px_per_mm, cfg.geometry.die_edge
    raw = np.full((int(60 * ppm), int(60 * ppm), 3), (60, 80, 110), np.float32)  # walnut, BGR
    x0, x1 = int(22 * ppm), int((22 + edge) * ppm)
    raw[x0:x1 + 1, x0:x1 + 1] = (205, 210, 215)  # a lit square, its outline on it as a mask's is: a die's face or a glare
    pip_r = max(1, int(round(0.11 * edge * ppm)))
    for k in range(pips):  # dark pips in a row across the face
        c = (int((22 + edge * (k + 1) / (pips + 1)) * ppm), int((22 + edge / 2) * ppm))
        cv2.circle(raw, c, pip_r, (40, 40, 40), -1)
    raw = np.clip(raw + rng.normal(0, 3.0, raw.shape), 0, 255).astype(np.uint8)  # sensor noise
    blob = _footprint(cfg, _square((22 + edge / 2, 22 + edge / 2), edge))
    assert face_marked(cfg, raw, blob) == (pips > 0)


def test_a_padded_warp_cuts_the_windows_a_warp_of_their_own_gives(calibrated) -> None:
    """The cube's patch is cut from the detail warp, which reaches past the canonical image: inside and past
    the board alike, the cut is the warp a window of its own gets; past the pad there is nothing to cut."""
    cal = calibrated(CUBE / "start.jpg")
    fine = ReaderConfig().detail()
    pad = read.cube_pad(fine)
    warp = read.Warp(read.warp_maps(fine, cal, pad), pad)
    w, h = warp.view_size
    assert (w, h) == (int(round(fine.geometry.width * fine.px_per_mm)), int(round(fine.geometry.depth * fine.px_per_mm)))
    ppm = fine.px_per_mm
    for x0, y0 in [(0, 0), (300, 200), (-pad, -pad), (w - 50, h + pad - 90), (-60, 400)]:
        cut = warp.cut(x0, y0, 90, 90)
        assert cut is not None
        own = read.window_maps(fine, cal, (x0 / ppm, y0 / ppm), (90 / ppm, 90 / ppm))
        for a, b in zip(cut, own):
            assert a.shape == b.shape and float(np.abs(a - b).max()) < 1e-3
    assert warp.cut(-pad - 1, 0, 90, 90) is None and warp.cut(0, h + pad - 89, 90, 90) is None


def test_column_medians_are_numpys() -> None:
    rng = np.random.default_rng(9)
    for n in (1, 2, 3, 50, 51, 700):
        px = rng.integers(0, 256, (n, 3), np.uint8)
        assert read._column_medians(px) == [float(np.median(px[:, c])) for c in range(3)]


def test_outlines_grown_box_by_box_are_the_whole_mask_dilated() -> None:
    cfg = ReaderConfig()
    rng = np.random.default_rng(2026112650)
    for _ in range(10):
        outlines = [cv2.convexHull((rng.uniform(-10, 700, 2) + rng.uniform(-20, 20, (6, 2))).astype(np.int32).reshape(-1, 1, 2))
                    for _ in range(5)]  # some past the image's edges, some overlapping
        for margin in (7.0, 4.5):
            r = int(round(margin * cfg.px_per_mm))
            whole = cv2.dilate(cv2.drawContours(np.zeros((480, 700), np.uint8), outlines, -1, 1, -1),
                               cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
            assert np.array_equal(read._grown(cfg, outlines, (480, 700), (margin,))[0], whole)
