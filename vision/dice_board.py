"""Dice on the board: which light blobs are dice, their top faces, pips, and whether each lies flat or is cocked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import WhiteBlob, _pixels_inside, blob_at, die_footprint, tinted_dice, white_blobs, white_mask
from vision.board import image_px_per_mm
from vision.calibration import Calibration
from vision.cocked import COCKED_PATH, die_look, load_cocked_model
from vision.config import ReaderConfig
from vision.cube import _is_cube
from vision.dice_find import FIND_MIN, FIND_PATH, FOUND_MAX_CONFIDENCE, light_spots, load_finder, merged
from vision.errors import VisionError
from vision.geometry import half_of, surface_height
from vision.pips import read_pips
from vision.pose import Viewpoint
from vision.profiles import lab8_image
from vision.windows import Maps, OutlineBand, Warp, _crop, _on_canonical, _remap_window, on_long_frame, window_maps

Image = NDArray[np.uint8]


def flat_die_top(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float]) -> tuple[float, NDArray[np.float64]]:
    """How a flat die standing at ``centre`` (canonical mm) shows its top: the edge it is seen with (mm,
    larger for standing nearer the camera) and its parallax, the top's shift from the base (mm vector)."""
    geo = cfg.geometry
    base = surface_height(geo, centre)
    return geo.die_edge * float(view.scale(base + geo.die_edge)), view.lift(np.asarray(centre), base, base + geo.die_edge)


def seen_edge_px(cfg: ReaderConfig, homography: NDArray[np.float64], view: Viewpoint, centre: tuple[float, float]) -> float:
    """How many camera pixels the top edge of a flat die standing at ``centre`` (canonical mm) spans: the die's
    edge times the camera's pixels per mm there (the calibration's ``homography``, undistorted image pixels to
    canonical mm: :func:`vision.board.image_px_per_mm`) times how much larger its top is seen (:meth:`Viewpoint.scale`). The canonical windows the
    pips are read on are resampled finer than that; what the camera resolved is not."""
    geo = cfg.geometry
    px_per_mm = float(image_px_per_mm(homography, np.array([centre]))[0])
    return geo.die_edge * px_per_mm * float(view.scale(surface_height(geo, centre) + geo.die_edge))


def flat_die_outline(cfg: ReaderConfig, footprint: WhiteBlob, top_at: tuple[float, float], view: Viewpoint,
                     centre: tuple[float, float]) -> NDArray[np.float64]:
    """The corners (8, 2; mm of the footprint's pixels) of the top and base of a flat die standing at ``centre``
    (canonical mm) whose top is centred at ``top_at`` (pixels) and turned as ``footprint``: the top seen larger
    and shifted by parallax, the base toward the camera's foot. Their hull is all a flat die can show."""
    top, lift = flat_die_top(cfg, view, centre)
    t = np.deg2rad(cv2.minAreaRect(footprint.contour)[2])
    axes = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64) @ axes / 2
    at = np.asarray(top_at, np.float64) / cfg.px_per_mm
    return np.vstack([at + corners * top, at - lift + corners * cfg.geometry.die_edge])


class TopFace(NamedTuple):
    """The face-sized rectangle of a die's footprint whose pips best fit a die face."""

    value: int | None
    confidence: float
    margin: float  # how much better the best layout fits than the next (see vision.pips.read_pips)
    centre: tuple[float, float]  # pixels of the footprint's contour


# the pips read on a die's face crops, by the crop's (centre, size): a die's reads try many crops twice or more
PipReads = dict[tuple[tuple[float, float], tuple[float, float]], tuple[int | None, float, float]]


def read_top_face(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, flat: bool, away: NDArray[np.float64],
                  reads: PipReads | None = None) -> TopFace:
    """The face-sized rectangle in a die's footprint whose pips best fit a die face, and which is its top.

    Under a tilted camera a flat die's side faces show beside its top, light and with pips of their
    own, and a cocked die's footprint is its foreshortened top and a side face; so the rectangle
    slides over the footprint instead of trusting its centre. A flat die's face is the nominal
    square; a cocked die's is foreshortened along either side of the footprint.

    Every side face the camera sees faces it, so lies between the top and the camera's foot: when a
    rectangle farther from the foot (``away``, the unit direction from it to the die on the canonical
    plane) by ``top_face_apart`` reads another value (adjacent faces never share one) nearly as well
    (``top_face_share`` of the best fit), that is the top. A die tipped away from the camera shows its
    raised side face as large as its top, and that face's pips may fit better.

    ``reads``, if given, keeps the pips read on every crop (of this ``raw`` and footprint) for the next call.
    """
    (cx, cy), (w, h), ang = cv2.minAreaRect(footprint.contour)
    reads = {} if reads is None else reads
    edge = cfg.geometry.die_edge * cfg.px_per_mm
    faces = [(edge, edge)] + ([] if flat else [f for c in cfg.cocked_face_shares for f in ((edge, edge * c), (edge * c, edge))])
    theta = np.deg2rad(ang)
    axes = (np.array([np.cos(theta), np.sin(theta)]), np.array([-np.sin(theta), np.cos(theta)]))
    step = cfg.face_search_step * cfg.px_per_mm
    best, best_at = TopFace(None, 0.0, -np.inf, (cx, cy)), 0.0
    read: list[tuple[float, TopFace]] = []  # how far from the camera's foot (mm, from the footprint's centre), and what
    for face in faces:
        size = (face[0] * cfg.pips.face_share, face[1] * cfg.pips.face_share)
        offsets = [np.linspace(-s, s, 2 * int(np.ceil(s / step)) + 1) if s > 0 else np.zeros(1)
                   for s in ((w - face[0]) / 2, (h - face[1]) / 2)]
        for a in offsets[0]:
            for b in offsets[1]:
                shift = a * axes[0] + b * axes[1]
                centre = (float(cx + shift[0]), float(cy + shift[1]))
                if (centre, size) not in reads:
                    # a foreshortened crop showing more pips than it read straddles a cocked die's top and side face;
                    # square crops are not judged so: over a cocked die the rules call flat, the side face a square
                    # crop takes in is what later tells the die is cocked
                    reads[centre, size] = read_pips(_crop(raw, centre, size, ang, cfg.die_crop_px), cfg.pips, alone=face != (edge, edge))
                value, conf, margin = reads[centre, size]
                found, at = TopFace(value, conf, margin, centre), float(shift @ away) / cfg.px_per_mm
                read.append((at, found))
                if margin > best.margin:
                    best, best_at = found, at
    if best.value is None:
        return best
    beyond = [f for d, f in read if d >= best_at + cfg.top_face_apart and f.value not in (None, best.value)
              and f.margin >= cfg.top_face_share * best.margin]
    return max(beyond, key=lambda f: f.margin, default=best)


def face_crop(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, centre: tuple[float, float]) -> Image:
    """The square top face centred at ``centre`` (pixels of ``raw``), turned upright as the footprint lies, at
    ``die_crop_px``: what the pips and the face network read."""
    side = cfg.geometry.die_edge * cfg.px_per_mm * cfg.pips.face_share
    return _crop(raw, centre, (side, side), cv2.minAreaRect(footprint.contour)[2], cfg.die_crop_px)


def cocked_look(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, face: TopFace, view: Viewpoint,
                centre: tuple[float, float], away: NDArray[np.float64]) -> tuple[NDArray[np.uint8], float]:
    """What :mod:`vision.cocked` judges of a die whose top a square face reads (``face``): its look around the
    footprint, with the outline a flat die there would show, and how far (mm) parallax lifts a flat die's top there."""
    (cx, cy), _, _ = cv2.minAreaRect(footprint.contour)
    outline = flat_die_outline(cfg, footprint, face.centre, view, centre) * cfg.px_per_mm
    return die_look(raw, (cx, cy), away, cfg.px_per_mm, outline), float(np.linalg.norm(flat_die_top(cfg, view, centre)[1]))


def cocked_probability(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, square: TopFace, view: Viewpoint,
                       centre: tuple[float, float], away: NDArray[np.float64]) -> float:
    """How sure the network of :mod:`vision.cocked` is that the die is cocked (``square``: its top as a square face
    reads it, which places the flat outline)."""
    model = load_cocked_model()
    if model is None:
        raise VisionError(f"the cocked-die network {COCKED_PATH.name} is missing beside vision/cocked.py: reinstall bgref")
    return model.cocked(*cocked_look(cfg, raw, footprint, square, view, centre, away))


def same_face(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float], a: TopFace, b: TopFace) -> bool:
    """Whether two face reads of the die at ``centre`` (canonical mm) lie too near to be two of its faces: seen
    from above, two faces' centres lie at least half an edge apart, whatever the die's tilt (two faces that face
    up have unit normals whose difference has a horizontal part of at least one), less the parallax of the half
    edge their heights may differ by."""
    edge, lift = flat_die_top(cfg, view, centre)
    apart = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])) / cfg.px_per_mm
    return apart < (edge - float(np.linalg.norm(lift))) / 2


def one_is_a_pip(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float], face: TopFace, reads: PipReads,
                 away: NDArray[np.float64]) -> TopFace:
    """The top of the die at ``centre`` (canonical mm) read as ``face``, unless that is a 1 and one of its crops'
    ``reads`` of more pips fits nearly as well (``one_pip_share``) and either lies too near it to be another face
    (see :func:`same_face`) or lies farther from the camera's foot (``away``: the unit direction from it to the die).
    A crop centred on any one pip of a face reads a 1, with the face's other pips cut off; and of a cocked die's two
    faces the farther is its top, as :func:`read_top_face` holds, however little farther it lies when the nearer
    reads only a 1."""
    if face.value != 1:
        return face
    rivals = [TopFace(v, c, m, at) for (at, _), (v, c, m) in reads.items() if v not in (None, 1) and m >= cfg.one_pip_share * face.margin]
    def farther(f: TopFace) -> bool:
        return float((np.asarray(f.centre) - np.asarray(face.centre)) @ away) > 0.0
    return max((f for f in rivals if farther(f) or same_face(cfg, view, centre, face, f)), key=lambda f: f.margin, default=face)


def read_die(cfg: ReaderConfig, cal: Calibration, raw: Image, blob: WhiteBlob, view: Viewpoint,
             at: tuple[float, float] | None = None) -> dict[str, Any]:
    """Value, flat or cocked, and half of the die whose light blob is ``blob`` (pips read on ``raw``, unclipped).
    ``at`` is the blob's centre in canonical mm when ``raw`` is another window than the canonical image.

    The network of :mod:`vision.cocked` tells flat from cocked on the die's look (``cocked``: its probability,
    which bounds the confidence :func:`sure_of` reports). The pips read the top: a flat die's as the square
    face, a cocked die's as the face-sized or foreshortened rectangle that fits best (:func:`read_top_face`)."""
    footprint = blob.grown or blob
    centre = blob.centre if at is None else at
    away = np.asarray(centre, np.float64) - np.asarray(view.nadir, np.float64)
    away /= max(float(np.linalg.norm(away)), 1e-9)  # from the camera's foot toward the die
    reads: PipReads = {}
    square = read_top_face(cfg, raw, footprint, True, away, reads)
    cocked = cocked_probability(cfg, raw, footprint, square, view, centre, away)
    flat = cocked < 0.5
    face = square if flat else read_top_face(cfg, raw, footprint, False, away, reads)
    if flat and face.value is None:
        # a light blob no square face reads, but a foreshortened one does surely: a cocked die whose side face
        # is lit like its top, the two taken for one square. A blob that is no clean rectangle may be the light
        # between two copper rims, whose dark leather reads as pips: its pips must fit as well as a die's do
        tipped = read_top_face(cfg, raw, footprint, False, away, reads)
        clean = blob.fill >= cfg.unread_min_fill
        if tipped.confidence >= cfg.tipped_retry_confidence and (clean or tipped.margin >= cfg.unclean_tipped_margin):
            face, flat = tipped, False
    face = one_is_a_pip(cfg, view, centre, face, reads, away)
    return {
        "value": face.value,
        "flat": bool(flat),
        "half": half_of(cfg.geometry, cal.layout, centre),
        "confidence": round(face.confidence, 3),  # of its pips' read (see sure_of for the die's as reported)
        "xy_mm": [round(centre[0], 1), round(centre[1], 1)],
        "cocked": round(cocked, 3),
        "edge_px": round(seen_edge_px(cfg, cal.homography, view, centre), 1),
    }


# A die the camera sees at fewer pixels per edge than it has millimetres is never read surely: its pips (about
# 3 mm across) then span under 3 camera pixels and the strips of its side faces (what tells a cocked die) less,
# so the defocus and motion of a real camera (1-3 px) leave neither legible. On the evaluation renderer's dev
# split (seeds 1000-3000, held-out factors barred) 4 of the 5 dice read surely and wrong were seen so small.
LEGIBLE_EDGE_PX = 16.0


def sure_of(die: dict[str, Any]) -> dict[str, Any]:
    """A die read by :func:`read_die` as reported: its confidence at most as sure as the network was of flat or
    cocked (``|2p - 1|`` of its probability ``p`` of a cocked die, 0 when the die was called against it), so a
    die the network was unsure of is unsure, never a confident foul (whether it counts as a die is judged on its
    pips' read); and below the referee's "sure" (``FOUND_MAX_CONFIDENCE``) when the camera saw it too small to
    read (``LEGIBLE_EDGE_PX``, see :func:`seen_edge_px`): the referee then asks for a look instead of acting on a guess."""
    p = die["cocked"]
    sure = abs(2.0 * p - 1.0) if (p >= 0.5) != die["flat"] else 0.0
    # a die only vision.dice_find found: as sure as it was that a die lies there, and never surely read
    found = min(2.0 * die["found"] - 1.0, FOUND_MAX_CONFIDENCE) if "found" in die else 1.0
    legible = FOUND_MAX_CONFIDENCE if die.get("edge_px", LEGIBLE_EDGE_PX) < LEGIBLE_EDGE_PX else 1.0
    return {**die, "confidence": round(min(die["confidence"], sure, found, legible), 3)}


def dice_past_outline(cfg: ReaderConfig, cal: Calibration, view: Viewpoint, bands: list[OutlineBand],
                      cube: dict[str, Any] | None, fine: FineLook | None = None,
                      gains: NDArray[np.float32] | None = None) -> list[dict[str, Any]]:
    """Dice on the frame of a long side, read in the strips past the outline: a die there stands the frame's
    height over the board and is seen shifted outwards, cut by the canonical image's edge. A blob there counts
    by the tests a die on the board passes (:func:`counts_as_die`), and only with its pips read: past the outline
    lies the table; its colour is judged lit as the board's nearest edge is (``gains``, see :func:`lit_as_board`).
    With a ``fine`` look, their pips are read at ``detail_px_per_mm``."""
    geo = cfg.geometry
    dice = []
    for b, band in enumerate(bands):
        for blob in band.blobs:
            if not blob.die_like(cfg):
                continue
            seen = _on_canonical(cfg, band, blob)
            lit = blob if gains is None else lit_as_board(cfg, blob, seen.centre, gains)
            clean, grey = blob.fill >= cfg.unread_min_fill, greyer_than_dice(cfg, cal, lit)
            if not counts_as_die(cfg, clean, grey, narrow=blob.narrow(cfg)):
                continue  # as on the board: a grey table beyond the frame makes such blobs
            if not on_long_frame(cfg, seen.centre):
                continue  # on the playing surface: the canonical image holds it whole
            if _is_cube(cfg, cube, seen.centre):
                continue
            # where it stands: its top is seen, and a die there rests on the frame
            y = float(view.unproject(seen.centre, geo.frame_height + geo.die_edge)[1])
            if min(abs(y - geo.frame / 2), abs(y - (geo.depth - geo.frame / 2))) > geo.frame / 2 + cfg.frame_die_slack:
                continue  # its base lies on neither long frame
            if fine is not None:
                window, scaled, _ = detail_window(cfg, fine, blob, (0.0, band.y0), None if fine.bands is None else Warp(fine.bands[b][1]))
                die = read_die(fine.cfg, cal, window, scaled, view, at=seen.centre)
            else:
                die = read_die(cfg, cal, band.image, blob, view, at=seen.centre)
            if die["value"] is not None and counts_as_die(cfg, clean, grey, die):  # a light patch of table has no pips
                dice.append(die)
    return dice


def lit_as_board(cfg: ReaderConfig, blob: WhiteBlob, centre: tuple[float, float], gains: NDArray[np.float32]) -> WhiteBlob:
    """A blob past the outline (at ``centre``, canonical mm) with its median lightness as the board's light
    normalisation leaves the board's nearest pixel (``gains``: the canonical image's), for :func:`greyer_than_dice`:
    the strips are cut from the camera image as it is (their own tests are relative to the strip, so need no
    lighting), and a lamp's falloff toward the board's edge darkens a die there below the cube's white."""
    h, w = gains.shape[:2]
    gain = gains[min(max(int(centre[1] * cfg.px_per_mm), 0), h - 1), min(max(int(centre[0] * cfg.px_per_mm), 0), w - 1)]
    grey = np.array([[(blob.lightness, 128.0, 128.0)]], np.float32).clip(0, 255).astype(np.uint8)
    lit = cv2.multiply(cv2.cvtColor(grey, cv2.COLOR_LAB2BGR), np.full(grey.shape, gain, np.float32), dtype=cv2.CV_8U)
    return replace(blob, lightness=float(cv2.cvtColor(lit, cv2.COLOR_BGR2LAB)[0, 0, 0]))


class FineLook(NamedTuple):
    """What reading dice at ``detail_px_per_mm`` needs of a frame: the reader's configuration at that
    resolution, the calibration, the camera image, the canonical image's light gains and local background,
    and, if made, the canonical image's and the outline strips' warps at that resolution."""

    cfg: ReaderConfig
    cal: Calibration
    image: Image
    gains: NDArray[np.float32]
    base: NDArray[np.float32]
    maps: Warp | None = None
    bands: list[tuple[float, Maps]] | None = None


class BoardLook(NamedTuple):
    """The canonical view as the light-blob stage saw it: light-normalised (BGR), in Lab, and the board's
    lightness round each pixel (:func:`vision.blobs.local_background`)."""

    canon: Image
    lab: Image
    base: NDArray[np.float32]


def candidate_centres(cfg: ReaderConfig, lab: Image, base: NDArray[np.float32], blobs: list[WhiteBlob]) -> list[tuple[float, float]]:
    """Where :mod:`vision.dice_find`'s network looks for dice (canonical mm): the light spots of the view and the
    centres of the light blobs no longer than a die's or the cube's footprint."""
    spots = light_spots(lab, base, cfg.px_per_mm, cfg.geometry.die_edge)
    return merged(spots, [b.centre for b in blobs if b.size[1] <= cfg.max_footprint])


def find_dice(cfg: ReaderConfig, cal: Calibration, look: BoardLook, raw: Image, view: Viewpoint, blobs: list[WhiteBlob],
              strips: list[OutlineBand], cube: dict[str, Any] | None, fine: FineLook | None = None,
              gains: NDArray[np.float32] | None = None) -> list[dict[str, Any]]:
    """Every die-like light blob that is not the cube, read; those on a long side's frame in the strips past
    the outline, where they are seen whole (the canonical image cuts them). A blob that is no clean square
    (``unread_min_fill``, at the coarse look or the fine one) counts as a die only if its pips are read surely
    (``unclean_min_confidence``): a square die nobody can read is still reported, so the referee can ask for a
    look, but bright arcs on a copper rim, with dark gaps that may pass for pips, are not; nor is such a blob
    mostly greyer than the cube's white (``unclean_max_dimming``), as the walnut between two rims is under a cool
    lamp; a square so grey is a die only if its pips are read as surely. Where those rules found no die, the
    network of :mod:`vision.dice_find` looks for dice blur left without a die-like blob (:func:`blurred_dice`).
    With a ``fine`` look, each die is found again and
    read at ``detail_px_per_mm`` (see :func:`die_in_detail`). ``gains``: the canonical image's light gains, which
    light the blobs past the outline as the board's are (see :func:`lit_as_board`)."""
    geo = cfg.geometry
    dice = []
    for blob in blobs:
        if not blob.die_like(cfg):
            continue
        if half_of(geo, cal.layout, blob.centre) == "off" and (on_long_frame(cfg, blob.centre) or _is_cube(cfg, cube, blob.centre)):
            continue
        if not face_marked(cfg, raw, blob):
            continue  # a lamp's glare on the varnish: light and square enough, but no pip on it
        grey = greyer_than_dice(cfg, cal, blob)
        window, seen = die_in_detail(cfg, fine, blob) if fine is not None else (raw, blob)
        # clean only if square at both looks: the fine one sees a rim's curve that the coarse one rounds off
        clean = min(blob.fill, seen.fill) >= cfg.unread_min_fill
        if not counts_as_die(cfg, clean, grey, narrow=blob.narrow(cfg)):
            continue
        die = read_die(cfg if fine is None else fine.cfg, cal, window, seen, view)
        if blob.tinted and (die["value"] is None or die["confidence"] < cfg.unclean_min_confidence):
            continue  # only the tinted look saw it: a die shows its pips surely, grey wood or a side face does not
        if counts_as_die(cfg, clean, grey, die):
            dice.append(die)
    dice += blurred_dice(cfg, cal, look, raw, view, blobs, cube, dice, fine)
    return [sure_of(d) for d in dice + dice_past_outline(cfg, cal, view, strips, cube, fine, gains)]


DICE_IN_PLAY = 2  # a roll is two dice, and each player's opening die is one of two: never more on the board


def blurred_dice(cfg: ReaderConfig, cal: Calibration, look: BoardLook, raw: Image, view: Viewpoint, blobs: list[WhiteBlob],
                 cube: dict[str, Any] | None, found: list[dict[str, Any]], fine: FineLook | None = None) -> list[dict[str, Any]]:
    """Dice the light-blob rules missed (``found``: the dice they read): the network of :mod:`vision.dice_find`
    judges every candidate (:func:`candidate_centres`) a die's edge or more from them, but the cube and what lies
    on a long frame; a window it calls a die (``FIND_MIN``) is read where a die-shaped light part lies
    (:func:`vision.blobs.blob_at`), the surest first, one die per die's edge; not a plain one (:func:`face_marked`):
    the network never saw a lamp's glare on the varnish. Its probability ``p`` bounds the die's reported
    confidence (``2p - 1``, and ``FOUND_MAX_CONFIDENCE``, below the referee's "sure": see :func:`sure_of`).

    Beside the rules, not instead of them: on the evaluation renderer's dev split the network alone lost most
    sharp dice the rules read (it was fitted on ``vision.render``'s dice only), while it finds blurred dice
    the rules miss."""
    geo = cfg.geometry
    room = DICE_IN_PLAY - len(found)
    if room <= 0:
        return []  # the rules read both dice: a third is no die (and looking costs a read ~4 ms)
    finder = load_finder()
    if finder is None:
        raise VisionError(f"the dice-finding network {FIND_PATH.name} is missing beside vision/dice_find.py: reinstall bgref")
    taken = [tuple(d["xy_mm"]) for d in found]
    centres = [c for c in candidate_centres(cfg, look.lab, look.base, blobs)
               if not (half_of(geo, cal.layout, c) == "off" and (on_long_frame(cfg, c) or _is_cube(cfg, cube, c)))
               and all(np.hypot(c[0] - x, c[1] - y) >= geo.die_edge for x, y in taken)]
    judged = sorted(zip(finder.judge(look.canon, centres, cfg.px_per_mm).tolist(), centres), key=lambda t: -t[0])
    dice: list[dict[str, Any]] = []
    for p, centre in judged:
        if p < FIND_MIN:
            break
        blob = blob_at(cfg, look.lab, look.base, blobs, centre)
        if blob is None or not face_marked(cfg, raw, blob) or greyer_than_dice(cfg, cal, blob):
            continue  # no die-shaped light there, a plain glare, or grey: walnut between two rims under a cool lamp
        if any(np.hypot(blob.centre[0] - x, blob.centre[1] - y) < geo.die_edge for x, y in taken):
            continue
        window, seen = die_in_detail(cfg, fine, blob) if fine is not None else (raw, blob)
        die = read_die(cfg if fine is None else fine.cfg, cal, window, seen, view)
        die["found"] = round(p, 3)
        dice.append(die)
        taken.append(tuple(die["xy_mm"]))
        if len(dice) == room:
            break
    return dice


def greyer_than_dice(cfg: ReaderConfig, cal: Calibration, blob: WhiteBlob) -> bool:
    """Whether a light blob is mostly ``unclean_max_dimming`` or more below the cube's white (see :func:`counts_as_die`)."""
    return blob.lightness < cal.classes["white"].mean[0] - cfg.unclean_max_dimming


def counts_as_die(cfg: ReaderConfig, clean: bool, grey: bool, die: dict[str, Any] | None = None, narrow: bool = False) -> bool:
    """Whether a die-like light blob counts as a die (see :func:`find_dice`), by whether it is a ``clean`` square,
    whether it is ``grey`` (mostly ``unclean_max_dimming`` below the cube's white), whether it is ``narrow`` (see
    :meth:`WhiteBlob.narrow`) and its read ``die`` (None: whether to read it at all)."""
    if narrow and not clean:
        return False  # a foreshortened top is a clean rectangle; the bright arcs of two stacked checkers' rims are not
    if not clean and grey:
        return False  # no clean square, and mostly greyer than the cube's white: the wood between two rims, lit by a cool lamp
    if die is None:
        return True
    # no sure pips on a blob that is no clean square: a copper rim's highlight; on one mostly grey: rims' highlights
    # round a gap of lit walnut, or a cool lamp's glare on the walnut between two points, whose leather edges pass
    # for a 6's columns
    unsure = die["value"] is None or die["confidence"] < cfg.unclean_min_confidence
    return not (unsure and (grey or not clean))


def detail_window(cfg: ReaderConfig, fine: FineLook, blob: WhiteBlob, origin_mm: tuple[float, float] = (0.0, 0.0),
                  warp: Warp | None = None) -> tuple[Image, WhiteBlob, tuple[int, int]]:
    """A die's light blob (pixels at ``px_per_mm`` of a top-down view whose corner is ``origin_mm``: the
    canonical image or an outline strip) seen at ``detail_px_per_mm``: the window around it of the camera
    image, wide enough for its side faces, cut from ``warp`` (that view's, at the finer resolution) or
    warped alone; the blob scaled to the window's pixels; and the window's corner in the view's finer pixels."""
    k = fine.cfg.px_per_mm / cfg.px_per_mm
    x, y, w, h = cv2.boundingRect((blob.grown or blob).contour)
    margin = (cfg.die_window_margin + cfg.geometry.die_edge / 2) * fine.cfg.px_per_mm
    x0, y0 = max(0, int(x * k - margin)), max(0, int(y * k - margin))
    x1, y1 = int((x + w) * k + margin) + 1, int((y + h) * k + margin) + 1
    cut = None
    if warp is not None:
        x1, y1 = min(warp.view_size[0], x1), min(warp.view_size[1], y1)
        cut = warp.cut(x0, y0, x1 - x0, y1 - y0)
    if cut is not None:
        window = _remap_window(fine.image, cut)
    else:
        ppm = fine.cfg.px_per_mm
        corner = (origin_mm[0] + x0 / ppm, origin_mm[1] + y0 / ppm)
        window = _remap_window(fine.image, window_maps(fine.cfg, fine.cal, corner, ((x1 - x0) / ppm, (y1 - y0) / ppm)))

    def moved(b: WhiteBlob) -> WhiteBlob:  # pixel centres: (i + 0.5) / ppm mm at either resolution
        return replace(b, contour=np.round((b.contour + 0.5) * k - 0.5 - np.array([x0, y0])).astype(np.int32))
    return window, replace(moved(blob), grown=None if blob.grown is None else moved(blob.grown)), (x0, y0)


def die_in_detail(cfg: ReaderConfig, fine: FineLook, blob: WhiteBlob) -> tuple[Image, WhiteBlob]:
    """A die's light blob on the canonical image found again at ``detail_px_per_mm``: on its window of the
    camera image (see :func:`detail_window`), lit as the canonical image is, the white test, the blob and its
    footprint are redone, so its outline (which tells a cocked die) is as fine as its pips. Returns the window
    and the blob in its pixels (centre in canonical mm); the coarse blob scaled when the finer look finds none
    there."""
    detail, cal = fine.cfg, fine.cal
    window, scaled, (x0, y0) = detail_window(cfg, fine, blob, warp=fine.maps)
    k = detail.px_per_mm / cfg.px_per_mm
    h, w = window.shape[:2]
    xs = ((np.arange(w, dtype=np.float32) + x0 + 0.5) / k - 0.5)[None, :].repeat(h, 0)
    ys = ((np.arange(h, dtype=np.float32) + y0 + 0.5) / k - 0.5)[:, None].repeat(w, 1)
    gains = cv2.remap(fine.gains, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    base = cv2.remap(fine.base, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = lab8_image(cv2.multiply(window, gains, dtype=cv2.CV_8U))
    bright, _ = white_mask(detail, cal, lab, base=base)
    if blob.tinted:  # found by the tinted look: found again by it
        bright |= tinted_dice(detail, cal, lab, base, bright)
    origin = np.array([x0, y0]) / detail.px_per_mm  # the window's corner, canonical mm
    near = [(float(np.hypot(*(np.asarray(b.centre) + origin - blob.centre))), b) for b in white_blobs(detail, cal, lab, bright)]
    near = [(d, b) for d, b in near if d < cfg.geometry.die_edge / 2 and b.die_like(detail)]
    if not near:
        return window, scaled
    found = die_footprint(detail, lab, base, min(near, key=lambda t: t[0])[1])

    def placed(b: WhiteBlob) -> WhiteBlob:
        return replace(b, centre=(b.centre[0] + origin[0], b.centre[1] + origin[1]))
    return window, replace(placed(found), grown=None if found.grown is None else placed(found.grown))


def face_marked(cfg: ReaderConfig, raw: Image, blob: WhiteBlob) -> bool:
    """Whether the light blob shows dark marks: every face of a die has a pip, so its lightness spreads
    (``die_min_face_std``); the lamp's glare on the varnished field or bar is as light and plain."""
    inside = _pixels_inside(raw, (blob.grown or blob).contour)
    if inside is None or len(inside) == 0:
        return True
    lightness = cv2.cvtColor(inside.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB)[..., 0]
    return float(lightness.astype(np.float32).std()) >= cfg.die_min_face_std
