"""Read a calibrated frame: checkers on points and bar, dice and the cube.

Checker counts are read generatively: for every point and every hypothesis (0..15
checkers, dark or light, stack shifted a few mm along the point) the colour classes
expected along the point's centre line are known from the set's geometry (copper rim,
inlay, leather, wood; a sixth to tenth checker lies on the first layer, offset, and so
on). The hypothesis whose expected classes best explain the sampled colours wins;
its margin over the best other count is the confidence. Samples that no class
explains are foreign (a hand, an arm, a cup); a point with many of them is reported
as occluded instead of guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache, reduce
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import to_canonical
from vision.calibrate import Calibration, parabola_vertex, warp_maps
from vision.cocked import die_look, load_cocked_model
from vision.cube_cnn import CROP_SPAN, CUBE_FACES, load_cube_reader
from vision.config import ReaderConfig
from vision.dice import fill_holes
from vision.errors import BoardNotFoundError, CalibrationError
from vision.geometry import START_POINTS, BoardGeometry, Layout, checker_centre, half_of, point_axis, side_of, surface_height
from vision.pips import medians_u8, pip_sides, read_pips
from vision.pose import Viewpoint, viewpoint
from vision.profiles import (
    ColourClass,
    gaussian_loglik,
    lab8_image,
    light_gains,
    sample_mask,
    sample_profiles,
)

Image = NDArray[np.uint8]
Maps = tuple[NDArray[np.float32], NDArray[np.float32]]


class Warp(NamedTuple):
    """A top-down view's remap tables, reaching ``pad`` pixels past the view on every side (the cube on a
    long side's frame is read on a patch that may reach past the canonical image)."""

    maps: Maps
    pad: int = 0

    @property
    def view_size(self) -> tuple[int, int]:
        """(width, height) in pixels of the view itself."""
        return self.maps[0].shape[1] - 2 * self.pad, self.maps[0].shape[0] - 2 * self.pad

    def cut(self, x0: int, y0: int, w: int, h: int) -> Maps | None:
        """The tables of the view's pixels [x0, x0 + w) x [y0, y0 + h), or None where they reach past the warp."""
        x, y = x0 + self.pad, y0 + self.pad
        if x < 0 or y < 0 or x + w > self.maps[0].shape[1] or y + h > self.maps[0].shape[0]:
            return None
        return self.maps[0][y:y + h, x:x + w], self.maps[1][y:y + h, x:x + w]


def cube_pad(cfg: ReaderConfig) -> int:
    """Pixels past the canonical image (at ``cfg``'s resolution) that a cube's patch may reach: the cube may
    seem to lie ``cube_past_outline`` past the outline, and a patch reaches past its blob."""
    return int(np.ceil((cfg.cube_past_outline + cfg.geometry.cube_edge * (cfg.cube_patch + 1.0)) * cfg.px_per_mm))


COPPER, INLAY, LEATHER, FIELD = 0, 1, 2, 3


# ----------------------------------------------------------------------------- expected profiles


def _stack_labels(cfg: ReaderConfig, n: int, positions: NDArray[np.float64], lateral: NDArray[np.float64],
                  shift: float, first: float, background: NDArray[np.int64]) -> NDArray[np.int64]:
    """Class expected at each (position, lateral offset) for ``n`` checkers, the first centred at ``first`` + shift."""
    geo = cfg.geometry
    r = geo.checker_diameter / 2
    labels = background.copy()
    top = np.full(len(positions), -1)
    for k in range(n):
        layer, slot = divmod(k, 5)
        c = first + shift + geo.checker_diameter * slot + geo.layer_offset * layer
        d = np.hypot(positions - c, lateral)
        cover = (d < r) & (layer >= top)
        labels[cover] = np.where(d[cover] >= cfg.rim_inner * r, COPPER, INLAY)
        top[cover] = layer
    return labels


@lru_cache(maxsize=32)
def point_label_table(cfg: ReaderConfig) -> NDArray[np.int64]:
    """(16 counts, shifts, lines x samples) expected classes along a point."""
    geo = cfg.geometry
    s1 = np.arange(0.0, cfg.profile_length, cfg.profile_step)
    s = np.tile(s1, len(cfg.lateral_lines))
    lateral = np.repeat(np.asarray(cfg.lateral_lines, np.float64), len(s1))
    half_width = geo.point_width / 2 * np.clip(1 - s / geo.point_length, 0, 1)
    background = np.where(np.abs(lateral) < half_width, LEATHER, FIELD)
    shifts = range(-cfg.max_shift, cfg.max_shift + 1)
    r = geo.checker_diameter / 2
    return np.array([[_stack_labels(cfg, n, s, lateral, d, r, background) for d in shifts] for n in range(16)])


@lru_cache(maxsize=8)
def layer_steps(cfg: ReaderConfig, layout: Layout, view: Viewpoint) -> tuple[float, ...]:
    """(24,) how far along each point a layer of checkers is seen beyond the layer it lies on (mm): the
    stacking offset plus the parallax of one checker's thickness, which the camera's foot sets point by
    point (a sixth checker on a point pointing away from the foot is seen nearly over the first)."""
    geo = cfg.geometry
    steps = np.full(24, geo.layer_offset)
    if cfg.layer_parallax <= 0:
        return tuple(steps.tolist())
    for p in range(1, 25):
        x, y, _ = checker_centre(geo, layout, p, 5)
        _, (dx, dy) = point_axis(geo, layout, p)
        lift = view.lift((x, y), geo.checker_thickness, 2 * geo.checker_thickness)
        steps[p - 1] += cfg.layer_parallax * float(lift[0] * dx + lift[1] * dy) / float(np.hypot(dx, dy))
    return tuple(steps.tolist())


@lru_cache(maxsize=8)
def point_label_tables(cfg: ReaderConfig, steps: tuple[float, ...]) -> tuple[tuple[NDArray[np.int64], NDArray[np.int64]], ...]:
    """The points grouped by their layer step (to ``layer_step_resolution`` mm): (point indices, label table)."""
    res = cfg.layer_step_resolution
    keys = np.round(np.asarray(steps) / res).astype(np.int64)
    out = []
    for k in np.unique(keys):
        geo = replace(cfg.geometry, layer_offset=float(k * res))
        out.append((np.nonzero(keys == k)[0], point_label_table(replace(cfg, geometry=geo))))
    return tuple(out)


@lru_cache(maxsize=8)
def bar_label_table(cfg: ReaderConfig) -> NDArray[np.int64]:
    """(bar_max+1, shifts, samples) expected classes along one half of the bar (FIELD = bar wood)."""
    geo = cfg.geometry
    s = np.arange(cfg.bar_profile_start, geo.depth_inner / 2, cfg.profile_step)
    background = np.full(len(s), FIELD)
    first = geo.cube_edge / 2 + geo.checker_diameter / 2
    shifts = range(-cfg.max_shift, cfg.max_shift + 1)
    table = []
    for n in range(cfg.bar_max + 1):
        rows = []
        for d in shifts:
            lab = background.copy()
            for k in range(n):  # bar checkers lie in a single row
                c = first + d + geo.checker_diameter * k
                dist = np.abs(s - c)
                cover = dist < geo.checker_diameter / 2
                lab[cover] = np.where(dist[cover] >= cfg.rim_inner * geo.checker_diameter / 2, COPPER, INLAY)
            rows.append(lab)
        table.append(rows)
    return np.array(table)


# ----------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class StackReading:
    count: int | None  # signed: + dark, - light; None when occluded
    confidence: float
    foreign: float  # fraction of samples that no colour class explains


@lru_cache(maxsize=8)
def _runs(table_id: int, shape: tuple[int, ...]) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """The table's rows as runs of one class: (start index, end index) into the flattened (4 classes,
    S + 1) prefix sums, and where each row's runs begin."""
    table = _TABLES[table_id]
    n, d, s = table.shape
    rows = table.reshape(n * d, s)
    starts, ends, first = [], [], [0]
    for row in rows:
        cut = np.flatnonzero(np.diff(row)) + 1
        a = np.concatenate([[0], cut])
        b = np.concatenate([cut, [s]])
        starts.append(row[a] * (s + 1) + a)
        ends.append(row[a] * (s + 1) + b)
        first.append(first[-1] + len(a))
    return np.concatenate(starts), np.concatenate(ends), np.asarray(first[:-1], np.intp)


_TABLES: dict[int, NDArray[np.int64]] = {}


def _score(loglik: NDArray[np.float32], table: NDArray[np.int64], keep_shifts: bool = False) -> NDArray[np.float32]:
    """loglik (..., 4 classes, S) and table (N, D, S) -> (..., N) best over shifts."""
    _TABLES.setdefault(id(table), table)
    n, d, s = table.shape
    lead = loglik.shape[:-2]
    # a row of the table is a few runs of one class each: its score is a difference of prefix sums per run
    prefix = np.zeros((*lead, 4, s + 1), np.float64)
    np.cumsum(loglik, axis=-1, dtype=np.float64, out=prefix[..., 1:])
    flat = prefix.reshape(-1, 4 * (s + 1))
    starts, ends, first = _runs(id(table), table.shape)
    runs = np.take(flat, ends, axis=1) - np.take(flat, starts, axis=1)  # (np.take gathers quicker than indexing)
    scores = np.add.reduceat(runs, first, axis=1).astype(np.float32)  # (..., N*D)
    full = scores.reshape(*lead, n, d)
    return full if keep_shifts else full.max(axis=-1)


def class_loglik(cfg: ReaderConfig, cal: Calibration, name: str, prof: NDArray[np.float32]) -> NDArray[np.float32]:
    """Log-likelihood of every sample under one colour class of the set, as a proper density: a broad
    class pays the log of its spread over the narrowest (so copper, which ranges from highlight to
    shade, cannot explain plain leather cheaply). A class learnt in parts (``copper_0``, ``copper_1``,
    ...) takes its best-fitting part."""
    parts = [c for k, c in cal.classes.items() if k.startswith(name + "_")] or [cal.classes[name]]
    ref = np.log(np.asarray(cfg.min_std, np.float32))
    stds = np.array([c.std for c in parts], np.float32)
    penalty = (cfg.spread_penalty * np.maximum(np.log(stds) - ref, 0).sum(axis=1).astype(np.float64)).astype(np.float32)
    each = (len(parts),) + (1,) * (prof.ndim - 1)  # every part at once, along a new first axis
    ll = gaussian_loglik(prof, np.array([c.mean for c in parts], np.float32).reshape(*each, 3), stds.reshape(*each, 3), cfg.loglik_floor)
    ll -= penalty.reshape(each)
    return np.maximum(ll.max(axis=0), np.float32(cfg.loglik_floor))


def sheen_loglik(cfg: ReaderConfig, wood: ColourClass, prof: NDArray[np.float32]) -> NDArray[np.float32]:
    """Log-likelihood of every sample as varnished wood under the lamp's glare: lighter than the wood, its
    colour on the way from the wood's toward grey as far as it is lighter (the glare is the lamp's colour,
    which the light's normalisation leaves near grey), spread a little wider that way, for ``sheen_tint``;
    along that way any lightness is alike, at the cost ``sheen_cost``."""
    mean, std = np.asarray(wood.mean, np.float32), np.asarray(wood.std, np.float32)
    t = np.clip((prof[..., 0] - mean[0]) / (255.0 - mean[0]), 0.0, 1.0)[..., None]
    expect = mean[1:] + t * (np.float32(128.0) - mean[1:])
    z = (prof[..., 1:] - expect) / (std[1:] + t * np.float32(cfg.sheen_tint))
    return np.maximum(-0.5 * (z[..., 0] * z[..., 0] + z[..., 1] * z[..., 1]) - np.float32(cfg.sheen_cost), np.float32(cfg.loglik_floor))


def _class_loglik(cfg: ReaderConfig, cal: Calibration, prof: NDArray[np.float32], leather: ColourClass | None,
                  background: ColourClass) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """Per colour (dark, light): (2, 4, S) log-likelihoods, and the foreign-sample mask; the background is
    wood that may shine (see :func:`sheen_loglik`)."""
    fl = cfg.loglik_floor
    cop, dark, light = (class_loglik(cfg, cal, k, prof) for k in ("copper", "dark", "light"))
    back = np.maximum(background.loglik(prof, fl), sheen_loglik(cfg, background, prof))
    lea = leather.loglik(prof, fl) if leather is not None else back
    white = cal.classes["white"].loglik(prof, fl) if "white" in cal.classes else np.full_like(back, fl)
    ll = np.stack([np.stack([cop, dark, lea, back]), np.stack([cop, light, lea, back])])
    best = np.max(np.stack([cop, dark, light, back, lea, white]), axis=0)
    return ll, best < cfg.unexplained_loglik


def _leather_loglik(cal: Calibration, prof: NDArray[np.float32], floor: float) -> NDArray[np.float32]:
    mean = np.array([c.mean for c in cal.leather], np.float32)[:, None, :]
    std = np.array([c.std for c in cal.leather], np.float32)[:, None, :]
    return gaussian_loglik(prof, mean, std, floor)


def _alike(cfg: ReaderConfig, inlay: ColourClass, leather: tuple[ColourClass, ...]) -> NDArray[np.bool_]:
    """Which points' leather has (nearly) the colour of this inlay: those nearer than ``alike_distance``, and
    with them the rest of their kind. The points' distances fall in two groups, the inlay's leather and the
    other; a lamp's hot spot or a corner's shade can carry one point of the inlay's own leather past the
    limit (6.0 seen), never near the other kind's (7.2 at the least, Blender tuning sets)."""
    a = np.asarray(inlay.mean, np.float32)
    std = np.asarray(cfg.min_std, np.float32)
    means = np.array([l.mean for l in leather], np.float64)
    dist = np.sqrt((((means - a) / std) ** 2).sum(axis=1))
    near = dist < cfg.alike_distance
    if not near.any() or near.all():
        return near
    ordered = np.sort(dist)
    k = int(np.argmax(np.diff(ordered)))  # the widest gap parts the two kinds
    if ordered[k] < dist[near].max() or ordered[k] >= cfg.alike_kind_distance:
        return near  # the widest gap is no gap between kinds
    return dist <= ordered[k]


@lru_cache(maxsize=8)
def _neighbours(cfg: ReaderConfig, layout: Layout) -> NDArray[np.bool_]:
    """(24, 24) which points lie side by side on the same row (across the bar too)."""
    axes = [point_axis(cfg.geometry, layout, p) for p in range(1, 25)]
    x = np.array([base[0] for base, _ in axes])
    row = np.array([np.sign(d[1]) for _, d in axes])
    reach = cfg.geometry.point_width + cfg.geometry.bar_width + 1.0
    near = (np.abs(x[:, None] - x[None, :]) <= reach) & (row[:, None] == row[None, :])
    np.fill_diagonal(near, False)
    return near


def _borrowed_shade(cfg: ReaderConfig, cal: Calibration, profiles: NDArray[np.float32], ignore: NDArray[np.bool_]) -> NDArray[np.float32]:
    """The profiles as the bare leather's look is judged: lightened by how much darker the point is,
    over a stretch of it, than its look learnt at calibration. On the points whose look was borrowed
    (covered by the start position, the bare board not seen) up to ``borrowed_shade_max``: a corner or
    a point beside the bar lies in a shade the borrowed look lacks. On the points seen bare, up to
    ``bare_shade_max``: the lamp has drifted since, or the frame's shadow has moved. Else a checker's
    copper shade would explain the difference better. A checker is a local pattern; a shade lies over a stretch."""
    if cal.background is None or cal.bare_board_seen or cfg.borrowed_shade_max <= 0 or cal.background.shape != profiles.shape:
        return profiles
    covered = [i for i, n in enumerate(START_POINTS) if (n or cfg.bare_shade_max > 0) and (~ignore[i]).sum() >= 0.5 * ignore.shape[1]]
    if not covered:
        return profiles
    limit = np.array([cfg.borrowed_shade_max if START_POINTS[i] else cfg.bare_shade_max for i in covered], np.float32)[:, None]
    lines = len(cfg.lateral_lines)
    half = int(round(cfg.borrowed_shade_window / 2 / cfg.profile_step))
    # a sample under a die or the cube counts as unshaded: at worst less shade is taken off
    diff = np.where(ignore[covered], 0.0, profiles[covered, :, 0] - cal.background[covered, :, 0]).reshape(len(covered), lines, -1)
    padded = np.pad(diff, ((0, 0), (0, 0), (half, half)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1, axis=2)  # (points, lines, S, window)
    values = windows.transpose(0, 2, 1, 3).reshape(len(covered), diff.shape[2], -1)  # an odd count: lines x odd window
    shade = np.partition(values, values.shape[2] // 2, axis=2)[..., values.shape[2] // 2]  # their median, without np.median's NaN checks
    shade = np.tile(np.clip(shade, -limit, 0.0), (1, lines)).astype(np.float32)
    out = profiles.copy()
    out[covered, :, 0] -= shade
    if cfg.borrowed_shade_chroma:
        # less light dulls the colour as much as it darkens it (a shade scales all three channels):
        # the a and b distances from grey are scaled back by the lightness's share too
        bg_l = np.maximum(cal.background[covered, :, 0], 1.0)
        share = np.clip((bg_l + shade) / bg_l, 0.2, 1.0)[..., None]
        out[covered, :, 1:] = 128.0 + (profiles[covered, :, 1:] - 128.0) / share
    return out


def covered_points(cfg: ReaderConfig, fits: NDArray[np.float64], foreign: NDArray[np.float64], neighbours: NDArray[np.bool_],
                   arm_share: NDArray[np.float64] | None = None, vouched: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
    """(24,) the points something lies over, to be reported ``occluded``, from how well each point's best
    reading explains it (``fits``, mean log-likelihood), the share of its samples no class explains
    (``foreign``), which points are ``neighbours``, the share of each under an arm seen crossing the frame,
    and the points whose rims vouch for their count (see :func:`rims_vouch`): never covered for a poor fit."""
    vouched = np.zeros(len(fits), np.bool_) if vouched is None else vouched
    covered = (foreign > cfg.occluded_fraction) | ((fits < cfg.min_mean_fit) & ~vouched)
    # a point explained only a little worse, alone, nothing foreign on it and its neighbours explained well,
    # is a corner where the lamp's falloff was under-corrected: read it (what covers a point reaches the next)
    strict_fit, strict_foreign = cfg.min_mean_fit * cfg.strict_share, cfg.occluded_fraction * cfg.strict_share
    troubled = (fits < strict_fit) | (foreign > strict_foreign)
    alone = (fits >= cfg.lone_min_fit) & (foreign <= strict_foreign) & ~(neighbours & troubled[None, :]).any(axis=1)
    covered &= ~alone
    if arm_share is not None:
        covered |= arm_share >= cfg.arm_point_share
    if covered.any():  # something is over the board: be stricter with every point it may reach
        covered |= troubled & ~vouched
        # and strictest beside what it covers: an arm's edge or a hand's fingertips hide part of the next point
        near = (neighbours & covered[None, :]).any(axis=1)
        share = cfg.strict_share * cfg.strict_share
        covered |= near & ((foreign > cfg.occluded_fraction * share) | ((fits < cfg.min_mean_fit * share) & ~vouched))
    return covered


def rims_vouch(cfg: ReaderConfig, evidence: NDArray[np.float32], counts: NDArray[np.intp]) -> NDArray[np.bool_]:
    """(24,) the points whose rims vouch for ``counts`` (five at most): every first-layer place the count
    fills shows a checker's ring, and every other shows none, each surely (``rim_vouch``), but for places a
    die or the cube hides (no evidence at all). An empty point is vouched for only on a board where the rims
    surely see ``rim_vouch_rings`` rings or more. Asked only of a board nothing foreign lies on, where a poor
    colour fit is the lamp's (a dim cluster of touching stacks)."""
    if cfg.rim_vouch <= 0:
        return np.zeros(len(counts), np.bool_)
    filled = np.arange(evidence.shape[1])[None, :] < counts[:, None]
    agrees = np.where(filled, evidence >= cfg.rim_vouch, evidence <= -cfg.rim_vouch)
    hidden = evidence == 0.0
    # the rings must be seen where checkers lie: no ring anywhere is as much a picture of no board as of empty points
    ringed = (agrees & filled).any(axis=1) | (counts == 0) & (int((evidence >= cfg.rim_vouch).sum()) >= cfg.rim_vouch_rings)
    return (agrees | hidden).all(axis=1) & ringed & (counts <= evidence.shape[1])


def rims_fill(cfg: ReaderConfig, evidence: NDArray[np.float32], counts: NDArray[np.intp]) -> NDArray[np.bool_]:
    """(24,) the points of more than five whose every first-layer place surely shows a checker's ring (but
    for places a die or the cube hides). The rims cannot see the upper layers, so they do not vouch for such
    a point's count, but neither does it stop them vouching for the others."""
    if cfg.rim_vouch <= 0:
        return np.zeros(len(counts), np.bool_)
    ringed = evidence >= cfg.rim_vouch
    return (counts > evidence.shape[1]) & (ringed | (evidence == 0.0)).all(axis=1) & ringed.any(axis=1)


_RIM_ANGLES = 32


@lru_cache(maxsize=8)
def _rim_grid(cfg: ReaderConfig, layout: Layout) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32], NDArray[np.float32], NDArray[np.float64]]:
    """Canonical pixels (x, y) of the rings looked at round each first-layer place, shape (24, 5, offsets,
    radii, angles), the ring's outward unit vector (cos, sin) per angle, and each offset's distance along
    the point (mm, toward its tip)."""
    geo, ppm = cfg.geometry, cfg.px_per_mm
    ang = np.linspace(0.0, 2 * np.pi, _RIM_ANGLES, endpoint=False)
    r0 = geo.checker_diameter / 2
    radii = np.arange(r0 + cfg.rim_radii[0], r0 + cfg.rim_radii[1] + 1e-6, 1.0)
    along_s, across_s = cfg.rim_search
    along = np.linspace(-along_s, along_s, 7)
    across = np.unique([-across_s, 0.0, across_s])
    xs = np.empty((24, 5, len(along) * len(across), len(radii), len(ang)), np.float32)
    ys = np.empty_like(xs)
    for p in range(1, 25):
        _, (dx, dy) = point_axis(geo, layout, p)
        axis = np.array([dx, dy]) / np.hypot(dx, dy)
        side = np.array([-axis[1], axis[0]])
        offsets = np.array([a * axis + c * side for a in along for c in across])
        for k in range(5):
            x, y, _ = checker_centre(geo, layout, p, k)
            cx = x + offsets[:, 0, None, None] + radii[None, :, None] * np.cos(ang)[None, None, :]
            cy = y + offsets[:, 1, None, None] + radii[None, :, None] * np.sin(ang)[None, None, :]
            xs[p - 1, k], ys[p - 1, k] = cx * ppm - 0.5, cy * ppm - 0.5
    return xs, ys, np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32), np.repeat(along, len(across))


def rim_evidence(cfg: ReaderConfig, cal: Calibration, lightness: NDArray[np.uint8], hidden: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(24, 5) how surely each point's first-layer places hold a checker by its rim alone, -1 (empty) to 1, and
    past 1 up to ``rim_only_sure`` for rings sharper still (which only :func:`rims_weighed` tells from 1).

    A checker's copper rim is a circle of known size whose edges run round it (lightness changing across
    the ring, whatever the colours: its inlay may be the point's own leather); the strength is the edge
    across the ring that ``rim_share`` of its angles reach, at the best radius per angle and the best
    place within ``rim_search`` (see :func:`_ring_strengths`). A point's straight sides cross a ring at a
    few angles only; where its base, its sides and the frame's edge make a ring of some strength on the
    bare board, as calibration saw it (``Calibration.bare_rims``), a checker must show ``rim_bare_margin``
    more. Places where ``hidden`` (dice, the cube, an arm) meets the ring say nothing (0)."""
    strength, mid = _ring_strengths(cfg, cal, lightness)
    half = (cfg.rim_edge[1] - cfg.rim_edge[0]) / 2
    evidence = np.clip((strength - mid) / half, -1.0, max(1.0, cfg.rim_only_sure)).astype(np.float32)
    xs, ys = _rim_grid(cfg, cal.layout)[:2]
    centre = xs.shape[2] // 2  # the place itself, not shifted
    ring_x = np.clip(np.round(xs[:, :, centre]), 0, hidden.shape[1] - 1).astype(np.intp)
    ring_y = np.clip(np.round(ys[:, :, centre]), 0, hidden.shape[0] - 1).astype(np.intp)
    evidence[hidden[ring_y, ring_x].reshape(24, 5, -1).any(axis=2)] = 0.0
    return evidence


def rim_strengths(cfg: ReaderConfig, cal: Calibration, canon: Image) -> NDArray[np.float32]:
    """(24, 5) the ring strength (Lab L per mm) at each first-layer place of a canonical image (its light
    normalised here), as :func:`rim_evidence` measures it: calibration keeps the bare board's."""
    lightness = lab8_image(normalise_light(cfg, cal, canon))[..., 0]
    return _ring_strengths(cfg, replace(cal, bare_rims=None), lightness)[0]


def _ring_strengths(cfg: ReaderConfig, cal: Calibration, lightness: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """(24, 5) each first-layer place's ring strength, and the strength that says neither filled nor empty
    there. Checkers of one layer do not overlap: past a place that shows a ring, the next place's ring is
    looked for only where it clears that one (but for ``rim_overlap``), else the first checker's own arc
    would pass for the second's ring."""
    xs, ys, cos, sin, along = _rim_grid(cfg, cal.layout)
    ppm = cfg.px_per_mm
    smooth = cv2.GaussianBlur(lightness.astype(np.float32), (0, 0), cfg.rim_blur * ppm)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3, scale=0.125 * ppm)  # Lab L per mm, whatever the resolution
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3, scale=0.125 * ppm)
    flat_x, flat_y = xs.reshape(-1, _RIM_ANGLES), ys.reshape(-1, _RIM_ANGLES)  # remap takes maps under 32767 a side
    sxy = cv2.remap(cv2.merge([gx, gy]), flat_x, flat_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    sx, sy = sxy[..., 0].reshape(xs.shape), sxy[..., 1].reshape(xs.shape)
    across = np.multiply(sx, cos)  # the gradient across the ring, in place: these arrays are large
    across += np.multiply(sy, sin)
    np.abs(across, out=across)
    # (24, 5, offsets, angles): the best radius per angle (radius by radius: a max over a middle axis is slow)
    across = reduce(np.maximum, (across[:, :, :, r] for r in range(across.shape[3])))
    kth = int(round((1.0 - cfg.rim_share) * _RIM_ANGLES))
    per_offset = np.partition(across, kth, axis=-1)[..., kth]  # (24, 5, offsets)
    lo, hi = cfg.rim_edge
    mid = np.full(per_offset.shape[:2], (lo + hi) / 2, np.float32)
    if cal.bare_rims is not None:
        mid = np.fmax(mid, cal.bare_rims + np.float32(cfg.rim_bare_margin + (hi - lo) / 2)).astype(np.float32)
    strength = np.empty(per_offset.shape[:2], np.float32)
    after = np.full(per_offset.shape[0], -np.inf)  # where along the point the last ringed place's checker lies
    lines = int(np.sum(along == along[0]))  # offsets across the point at each step along it
    step = float(along[lines] - along[0])
    rows = np.arange(per_offset.shape[0])
    for k in range(per_offset.shape[1]):
        seen = np.where(along[None, :] >= after[:, None] - cfg.rim_overlap, per_offset[:, k], 0.0)
        best = seen.argmax(axis=1)
        strength[:, k] = seen[rows, best]
        # the ring's place between the steps: the top of a parabola through the best and its neighbours along
        before, beyond = np.maximum(best - lines, 0), np.minimum(best + lines, len(along) - 1)
        vertex = parabola_vertex(per_offset[rows, k, before], strength[:, k], per_offset[rows, k, beyond])
        after = np.where(strength[:, k] > mid[:, k], along[best] + vertex * step, -np.inf)
    return strength, mid


def rims_weighed(cfg: ReaderConfig, cal: Calibration, evidence: NDArray[np.float32],
                 rim_only: NDArray[np.bool_]) -> NDArray[np.float32]:
    """(24, 2, 5) rim evidence as each colour's counts weigh it. On the points whose bare look was borrowed
    (the start checkers covered them and no bare board was seen), a missing ring counts ``rim_borrowed_gain``
    times; where a colour's inlay is the point's own leather (``rim_only`` (24, 2)), its ring is all that tells
    its checkers: a missing ring counts ``rim_only_gain`` times more against them, and a sharp ring up to
    ``rim_only_sure`` times for them. Elsewhere a ring counts once however sharp: the colours tell the checker."""
    missing = evidence < 0
    gain = np.ones(evidence.shape, np.float32)
    if not cal.bare_board_seen:
        borrowed = (np.asarray(START_POINTS) != 0)[:, None]
        gain = np.where(borrowed & missing, np.float32(cfg.rim_borrowed_gain), gain)
    only = np.where(rim_only[:, :, None] & missing[:, None, :], np.float32(cfg.rim_only_gain), np.float32(1.0))
    seen = np.where(rim_only[:, :, None], evidence[:, None, :], np.minimum(evidence, np.float32(1.0))[:, None, :])
    return (seen * (gain[:, None, :] * only)).astype(np.float32)


def rim_scores(cfg: ReaderConfig, evidence: NDArray[np.float32]) -> NDArray[np.float32]:
    """(..., 16) log-likelihood the rims give each count, from (..., 5) evidence: the first-layer places a
    count fills add their evidence. Above five, a layer on top hides parts of the rims beneath, so a place's
    missing ring is no evidence against it."""
    cum = np.concatenate([np.zeros((*evidence.shape[:-1], 1), np.float32), np.cumsum(evidence, axis=-1)], axis=-1)  # counts 0..5
    layered = np.maximum(evidence, 0.0).sum(axis=-1, keepdims=True)
    return cfg.rim_weight * np.concatenate([cum, np.repeat(layered, 10, axis=-1)], axis=-1)


def read_points(cfg: ReaderConfig, cal: Calibration, profiles: NDArray[np.float32], ignore: NDArray[np.bool_],
                under_arm: NDArray[np.bool_] | None = None, view: Viewpoint | None = None,
                rims: NDArray[np.float32] | None = None) -> list[StackReading]:
    """Counts on all 24 points at once: profiles (24, S, 3) -> readings; ``ignore`` (24, S) marks dice and cube,
    ``under_arm`` (24, S) an arm seen crossing the frame (see :func:`arm_over_board`); ``view`` the camera's
    viewpoint, if already known; ``rims`` the first-layer places' :func:`rim_evidence`, if looked at."""
    fl = cfg.loglik_floor
    cop, dark, light, field = (class_loglik(cfg, cal, k, profiles) for k in ("copper", "dark", "light", "field"))
    bare = _borrowed_shade(cfg, cal, profiles, ignore)
    lea = leather_look = _leather_loglik(cal, bare, fl)
    if cal.background is not None and cal.background.shape == profiles.shape:
        # the empty point as seen at calibration, shading and all
        bg = gaussian_loglik(bare, cal.background, np.asarray(cfg.min_std, np.float32), fl)
        lea, field = np.maximum(lea, bg), np.maximum(field, bg)
    ll = np.stack([np.stack([cop, dark, lea, field], axis=1), np.stack([cop, light, lea, field], axis=1)], axis=1)
    raw = ll.copy()  # how well the colours are explained at all (for occlusion), before the next step
    # a checker whose inlay is the point's own leather shows only by its copper rim where it lies on the
    # leather: there its inlay is no evidence. Past the leather's edge, on the wood, its inlay must look like
    # the inlay or the leather, not like the bare board calibration saw there (else a row of phantom checkers
    # beyond a short stack costs only their rims: three read as thirteen)
    tables = point_label_tables(cfg, layer_steps(cfg, cal.layout, camera_view(cfg, cal) if view is None else view))
    on_leather = tables[0][1][0, 0] == LEATHER  # the bare point: the same whatever the layers' step
    cost = np.full((24, 2), cfg.checker_cost, np.float32)
    rim_only = np.zeros((24, 2), bool)
    for c, name in enumerate(("dark", "light")):
        same = rim_only[:, c] = _alike(cfg, cal.classes[name], cal.leather)
        ll[np.ix_(same, [c], [INLAY], on_leather)] = ll[np.ix_(same, [c], [LEATHER], on_leather)]
        off = np.ix_(same, [c], [INLAY], ~on_leather)
        ll[off] = np.maximum(ll[off], leather_look[np.ix_(same, ~on_leather)][:, None, None, :])
        cost[same, c] = cfg.rim_only_checker_cost  # rims alone are weaker evidence: the leather's sheen and edges mimic them
    s1 = np.arange(0.0, cfg.profile_length, cfg.profile_step)
    near_frame = np.tile(s1 < cfg.base_skip, len(cfg.lateral_lines))  # the frame's bevel shades the first millimetres
    ignore = ignore | near_frame[None, :]
    ll *= ~ignore[:, None, None, :]  # a die or the cube on a point says nothing about its checkers
    raw *= ~ignore[:, None, None, :]
    seen = np.maximum((~ignore).sum(axis=1), 1)
    foreign = ((np.max(np.stack([cop, dark, light, field, lea]), axis=0) < cfg.unexplained_loglik) & ~ignore).sum(axis=1) / seen
    full = np.empty((24, 2, 16, 2 * cfg.max_shift + 1), np.float32)  # (24, 2 colours, 16, shifts)
    for rows, table in tables:
        full[rows] = _score(ll[rows], table, keep_shifts=True)
    table_of = {int(i): table for rows, table in tables for i in rows}
    full -= cost[:, :, None, None] * np.arange(16, dtype=np.float32)[None, None, :, None]  # evidence must pay for each checker
    fits = np.empty(24)  # how well the colours alone are explained, for occlusion: the rims do not enter it
    for i in range(24):
        c, n, d = np.unravel_index(int(np.argmax(full[i])), full[i].shape)
        labels = table_of[i][n, d]
        fits[i] = float(raw[i, c, labels, np.arange(labels.shape[-1])].sum()) / seen[i]
    scores = full.max(axis=-1)
    if rims is not None:
        # where a checker's inlay is the point's own leather, a ring surely missing outweighs what a
        # shadow on the leather makes of the colours
        scores = scores + rim_scores(cfg, rims_weighed(cfg, cal, rims, rim_only))
    if cfg.third_layer_on_second:
        # a third layer lies on a full second: where ten checkers explain a point worse than five, there is no
        # second layer, and a count past ten only matches a third layer's places to what lies past the stack
        # (under a dim lamp, an orange inlay's darkest look is the walnut's colour)
        scores[..., 11:] = np.where((scores[..., 10] < scores[..., 5])[..., None], np.float32(-1e9), scores[..., 11:])
    arm_share = None if under_arm is None else (under_arm & ~ignore).sum(axis=1) / seen
    neighbours = _neighbours(cfg, cal.layout)
    covered = covered_points(cfg, fits, foreign, neighbours, arm_share)
    if covered.any() and rims is not None and under_arm is None and not (foreign > cfg.occluded_fraction * cfg.strict_share).any():
        # the rims may vouch only where they vouch for every point the colours leave covered, on a board
        # nothing foreign lies on: an arm or a hand, seen crossing the frame or not, shades the rims near
        # it, and a shaded ring reads as an empty place
        counts = scores.max(axis=1).argmax(axis=1)
        vouched = rims_vouch(cfg, rims, counts)
        if not (covered & ~vouched & ~rims_fill(cfg, rims, counts)).any():
            covered = covered_points(cfg, fits, foreign, neighbours, arm_share, vouched)
    out = []
    for i in range(24):
        frac = float(foreign[i])
        if covered[i]:
            out.append(StackReading(None, 0.0, frac))
            continue
        sc = scores[i]
        best_per_n = sc.max(axis=0)
        n = int(np.argmax(best_per_n))
        margin = float(best_per_n[n] - np.delete(best_per_n, n).max())
        colour_margin = float(abs(sc[0, n] - sc[1, n])) if n else margin
        conf = float(np.clip(min(margin, colour_margin) / cfg.confidence_margin, 0.0, 1.0))
        out.append(StackReading(n if sc[0, n] >= sc[1, n] else -n, conf, frac))
    # what each checker adds: backing[i, n] is how much better n checkers of the colour read explain point i than n - 1
    colour = np.array([int((r.count or 0) < 0) for r in out])
    backing = np.concatenate([np.full((24, 1), np.inf, np.float32), np.diff(scores[np.arange(24), colour], axis=-1)], axis=1)
    for i, taken in Counter(extra_checkers(cfg, [r.count for r in out], backing)).items():
        n, c = abs(out[i].count or 0), int(colour[i])
        m = n - taken
        others = np.delete(scores[i, c], np.arange(m, n + 1))
        conf = float(np.clip((scores[i, c, m] - others.max()) / cfg.confidence_margin, 0.0, 1.0))
        out[i] = StackReading(m * (1 if c == 0 else -1), conf, out[i].foreign)
    for i in overcounted([r.count for r in out], fits):
        out[i] = StackReading(None, 0.0, out[i].foreign)
    return out


def extra_checkers(cfg: ReaderConfig, counts: list[int | None], backing: NDArray[np.floating[Any]]) -> list[int]:
    """Points that hold fewer checkers than read because their colour would have more than its fifteen, once
    for each checker taken off: each time the point whose last checker the evidence backs least (``backing``
    (24, 16): how much better n checkers explain each point than n - 1), when that backing is weak
    (``extra_checker_gain``) and far weaker than any other point's last (``extra_checker_apart``): a second
    layer's checker half-seen over the first, or a rim's sheen, tipped the count. A point may lose more than
    one, each standing out so in turn (five light checkers under a dim lamp read with two ghosts in a second layer)."""
    counts, fewer = list(counts), []

    def last(i: int) -> float:
        return float(backing[i, abs(counts[i] or 0)]) if counts[i] else np.inf

    for sign in (1, -1):
        while sum(c * sign for c in counts if c is not None and c * sign > 0) > 15:
            mine = sorted((i for i, c in enumerate(counts) if c is not None and c * sign > 0), key=last)
            weakest = mine[0]
            runner = last(mine[1]) if len(mine) > 1 else np.inf
            if not (last(weakest) < cfg.extra_checker_gain and runner >= cfg.extra_checker_apart * last(weakest)):
                break  # no checker stands out as the extra one: overcounted() reports the colour's worst points unread
            counts[weakest] = (counts[weakest] or 0) - sign
            fewer.append(weakest)
    return fewer


def overcounted(counts: list[int | None], fits: NDArray[np.float64]) -> list[int]:
    """Points to report unread because their colour would have more than its fifteen checkers: that
    colour's worst-explained points, until the rest fit (a misfit picks extra layers to explain more)."""
    drop: list[int] = []
    for sign in (1, -1):
        mine = sorted((i for i, c in enumerate(counts) if c is not None and c * sign > 0), key=lambda i: fits[i])
        total = sum(abs(counts[i] or 0) for i in mine)
        for i in mine:
            if total <= 15:
                break
            drop.append(i)
            total -= abs(counts[i] or 0)
    return drop


def read_bar(cfg: ReaderConfig, cal: Calibration, halves: tuple[NDArray[np.float32], NDArray[np.float32]],
             ignore: tuple[NDArray[np.bool_], NDArray[np.bool_]],
             under_arm: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None) -> dict[str, StackReading]:
    table = bar_label_table(cfg)
    out = {}
    arm = under_arm or (np.zeros_like(ignore[0]), np.zeros_like(ignore[1]))
    for name, prof, skip, colour, armed in (("dark", halves[0], ignore[0], 0, arm[0]), ("light", halves[1], ignore[1], 1, arm[1])):
        ll, foreign = _class_loglik(cfg, cal, prof, None, cal.classes["bar"])
        ll = ll * ~skip
        kept = max(int((~skip).sum()), 1)
        frac = float((foreign & ~skip).sum() / kept)
        if frac > cfg.occluded_fraction or (armed & ~skip).sum() / kept >= cfg.arm_point_share:
            out[name] = StackReading(None, 0.0, frac)
            continue
        scores = _score(ll[colour], table)
        n = int(np.argmax(scores))
        margin = float(scores[n] - np.delete(scores, n).max())
        out[name] = StackReading(n, float(np.clip(margin / cfg.confidence_margin, 0, 1)), frac)
    return out


# ----------------------------------------------------------------------------- dice and cube


@dataclass(frozen=True, slots=True)
class WhiteBlob:
    centre: tuple[float, float]  # canonical mm
    size: tuple[float, float]  # (short, long) mm
    angle: float
    contour: NDArray[np.int32]  # canonical pixels
    colour: tuple[float, float, float]  # median Lab of the brighter half
    fill: float  # area / area of the fitted rectangle
    grown: WhiteBlob | None = None  # a die's whole footprint, dimmer faces and all (see die_footprint)
    lightness: float = 255.0  # median Lab L over the whole blob, pips and shade in

    def die_like(self, cfg: ReaderConfig) -> bool:
        return (self.narrow(cfg) or cfg.die_min_side <= self.size[0] <= cfg.die_max_side) and self.fill >= cfg.min_fill

    def narrow(self, cfg: ReaderConfig) -> bool:
        """Too narrow for a flat die's top, but as long: the top of a cocked die, foreshortened by its tilt."""
        return cfg.tipped_min_side <= self.size[0] < cfg.die_min_side and self.size[1] >= cfg.tipped_min_long

@lru_cache(maxsize=4)
def off_surface(cfg: ReaderConfig) -> NDArray[np.bool_]:
    """Canonical pixels off the playing surface (frame and bar): where the cube lies."""
    geo, ppm = cfg.geometry, cfg.px_per_mm
    h, w = int(round(geo.depth * ppm)), int(round(geo.width * ppm))
    x = (np.arange(w) + 0.5) / ppm
    y = (np.arange(h) + 0.5) / ppm
    f = geo.frame
    b0, b1 = geo.bar_x
    cols = (x < f) | (x > geo.width - f) | ((x >= b0) & (x <= b1))
    rows = (y < f) | (y > geo.depth - f)
    return cols[None, :] | rows[:, None]


def local_background(cfg: ReaderConfig, lightness: Image) -> NDArray[np.float32]:
    """Lightness of the board around each pixel without anything smaller than a die or the cube on it.

    A lamp's hot spot makes bare walnut as light as a die under a dim lamp, so light is judged locally.
    """
    step = cfg.background_step
    small = cv2.resize(lightness, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA)
    k = max(3, int(round(cfg.px_per_mm * cfg.background_window / step)) | 1)
    bg = cv2.blur(cv2.medianBlur(small, k), (k, k)).astype(np.float32)
    return cv2.resize(bg, (lightness.shape[1], lightness.shape[0]), interpolation=cv2.INTER_LINEAR)


def white_mask(cfg: ReaderConfig, cal: Calibration, lab: Image, cream: bool = False,
               base: NDArray[np.float32] | None = None) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """Pixels as light and grey as a die, or as likely as the cube's learned colour.

    With ``cream``, off the playing surface the test is looser: the cube's ivory turns
    cream under a warm lamp at the board's edge, and calibration often saw it clipped to
    white. (Copper highlights on the bar pass that test too, so it is the second look.)
    Returns the mask and the lightness it was judged against (``base``, if given: a window's share of the
    whole image's).
    """
    base = np.maximum(local_background(cfg, lab[..., 0]), cal.wood_lightness) if base is None else base
    light = lab[..., 0] > base + cfg.white_min_lightness * cfg.ivory_lightness_share
    chroma_l1 = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    grey = chroma_l1 < cfg.white_max_chroma * cfg.ivory_chroma_share
    light &= grey
    px = lab[light].astype(np.float32)
    chroma = np.hypot(px[:, 1] - 128, px[:, 2] - 128)
    white = (px[:, 0] > base[light] + cfg.white_min_lightness) & (chroma < cfg.white_max_chroma)
    ivory = cal.classes["white"].loglik(px, cfg.loglik_floor) > cfg.cube_min_loglik
    mask = np.zeros(lab.shape[:2], np.uint8)
    mask[light] = white | ivory
    off = off_surface(cfg)
    if cream and off.shape == mask.shape:
        cream = (lab[..., 0] > cal.wood_lightness + cfg.cube_min_lightness) & (chroma_l1 < cfg.cube_max_chroma) & off
        mask[cream] = 1  # type: ignore[index]
    return mask, base


def _morph(mask: NDArray[np.uint8], op: int, mm: float, ppm: float) -> NDArray[np.uint8]:
    """``mask`` closed or opened with a disc ``mm`` across."""
    k = max(3, int(round(ppm * mm)) | 1)
    return cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _densest_square(mask: NDArray[Any], edge: int, ring: int = 0, near: tuple[float, float, float] | None = None) -> tuple[int, int]:
    """Pixel where an ``edge``-sided square covers most of ``mask``; with ``ring``, less the share of
    ``mask`` in the ``ring``-wide band around the square (a light table is light all round, the cube is not);
    with ``near`` (x, y, radius in pixels), only squares centred within that circle."""
    return _densest_squares(mask, edge, ring, near, 1)[0]


def _densest_squares(mask: NDArray[Any], edge: int, ring: int, near: tuple[float, float, float] | None,
                     count: int) -> list[tuple[int, int]]:
    """The ``count`` best such squares, each at least half an edge from the better ones."""
    m = mask.astype(np.float32)
    score = cv2.boxFilter(m, -1, (edge, edge), normalize=False, borderType=cv2.BORDER_CONSTANT)
    if ring > 0:  # shares of what lies inside the image: past its border nothing is known
        def box(a: NDArray[np.float32], side: int) -> NDArray[np.float32]:
            return cv2.boxFilter(a, -1, (side, side), normalize=False, borderType=cv2.BORDER_CONSTANT)
        seen = np.ones_like(m)
        inner_n, outer_n = box(seen, edge), box(seen, edge + 2 * ring)
        outer = box(m, edge + 2 * ring)
        score = score / np.maximum(inner_n, 1) - (outer - score) / np.maximum(outer_n - inner_n, 1)
    yy, xx = np.ogrid[: score.shape[0], : score.shape[1]]
    if near is not None:
        score = np.where((xx - near[0]) ** 2 + (yy - near[1]) ** 2 <= near[2] ** 2, score, -np.inf)
    out = []
    for _ in range(count):
        iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
        if out and not np.isfinite(score[iy, ix]):
            break
        out.append((int(ix), int(iy)))
        score = np.where((xx - ix) ** 2 + (yy - iy) ** 2 < (edge / 2) ** 2, -np.inf, score)
    return out


def _pixels_inside(image: Image, contour: NDArray[np.int32]) -> NDArray[np.uint8] | None:
    """The pixels (N, channels) of ``image`` inside ``contour``; None when its box lies wholly outside."""
    x, y, bw, bh = cv2.boundingRect(contour)
    x0, y0 = max(x, 0), max(y, 0)  # a piece cut off a blob may reach a pixel past the image
    x1, y1 = min(x + bw, image.shape[1]), min(y + bh, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    return image[y0:y1, x0:x1][inside.astype(bool)]


def _column_medians(pixels: NDArray[np.uint8]) -> list[float]:
    """``np.median`` of each column of 8-bit pixels (N, channels)."""
    return [float(m) for m in medians_u8(tuple(pixels.T))]


def _blob(cfg: ReaderConfig, lab: Image, c: NDArray[np.int32]) -> WhiteBlob | None:
    ppm = cfg.px_per_mm
    if cv2.contourArea(c) < (cfg.blob_min_side * ppm) ** 2 * cfg.min_fill:
        return None
    (cx, cy), (w, h), ang = cv2.minAreaRect(c)
    short, long = sorted((w / ppm, h / ppm))
    if short < cfg.blob_min_side:
        return None
    inside = _pixels_inside(lab, c)
    if inside is None or len(inside) == 0:
        return None
    (middle,) = _column_medians(inside[:, :1])
    colour = tuple(_column_medians(inside[inside[:, 0] >= middle]))  # the lighter half's: pips and shade left out
    fill = float(cv2.contourArea(c)) / max(w * h, 1.0)
    return WhiteBlob((cx / ppm, cy / ppm), (short, long), ang, c, colour, fill, lightness=middle)  # type: ignore[arg-type]


def _opened_parts(cfg: ReaderConfig, contour: NDArray[np.int32], open_mm: float,
                  shape: tuple[int, ...] | None = None) -> list[NDArray[np.int32]]:
    """Outlines of the parts of ``contour`` that an opening of ``open_mm`` leaves (thin spurs and bridges gone).

    Worked on a window around the outline. With the ``shape`` of the image it lies in, the
    window reaches a kernel past the outline, so the parts are the whole image's opening (where
    the outline meets the image's edge, OpenCV's rule for edges applies); without, nothing
    lies outside the outline.
    """
    x, y, w, h = cv2.boundingRect(contour)
    if shape is None:
        x0, y0, x1, y1 = x - 1, y - 1, x + w + 1, y + h + 1
    else:
        reach = max(3, int(round(cfg.px_per_mm * open_mm)) | 1)
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(shape[1], x + w + reach), min(shape[0], y + h + reach)
    one = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(one, [contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    parts = cv2.findContours(_morph(one, cv2.MORPH_OPEN, open_mm, cfg.px_per_mm), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    return [p + np.array([x0, y0], np.int32) for p in parts]


def _opened_outline(cfg: ReaderConfig, contour: NDArray[np.int32], open_mm: float) -> NDArray[np.int32] | None:
    """The largest of those parts, if any."""
    parts = _opened_parts(cfg, contour, open_mm)
    return max(parts, key=cv2.contourArea) if parts else None


def white_blobs(cfg: ReaderConfig, cal: Calibration, lab: Image, mask: NDArray[np.uint8]) -> list[WhiteBlob]:
    ppm = cfg.px_per_mm
    mask = _morph(mask, cv2.MORPH_CLOSE, cfg.white_close, ppm)
    mask = fill_holes(mask, (cfg.die_max_side * ppm) ** 2 * 0.5)
    mask = _morph(mask, cv2.MORPH_OPEN, cfg.white_open, ppm)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = []
    for c in contours:
        blob = _blob(cfg, lab, c)
        if blob is None:
            continue
        if blob.size[1] <= cfg.max_footprint:
            if not blob.die_like(cfg):  # a copper highlight bridged to a die's edge spoils its square
                piece = _opened_outline(cfg, c, cfg.footprint_open)
                trimmed = None if piece is None else _blob(cfg, lab, piece)
                blob = trimmed if trimmed is not None and trimmed.die_like(cfg) else blob
            blobs.append(blob)
            continue
        # too long for one die or the cube: a highlight or a neighbour bridged to it; a wider opening parts them
        pieces = [_blob(cfg, lab, part) for part in _opened_parts(cfg, c, cfg.white_split_open, mask.shape)]
        pieces = [p for p in pieces if p is not None and p.size[1] <= cfg.max_footprint]
        if not pieces and blob.size[1] <= 2 * cfg.max_footprint:  # two dice side by side touch along an edge
            pieces = [p for p in (_blob(cfg, lab, half) for half in _cut_at_waist(cfg, c)) if p is not None and p.die_like(cfg)]
        blobs += pieces
    return blobs


def _cut_at_waist(cfg: ReaderConfig, contour: NDArray[np.int32]) -> list[NDArray[np.int32]]:
    """The two outlines of a long blob cut across its long axis where it is narrowest in its middle third."""
    (cx, cy), (w, h), ang = cv2.minAreaRect(contour)
    if w < h:
        ang, w, h = ang + 90.0, h, w
    side = int(np.ceil(np.hypot(w, h))) + 4
    rot = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    rot[:, 2] += np.array([side / 2.0 - cx, side / 2.0 - cy])
    one = np.zeros((side, side), np.uint8)
    cv2.drawContours(one, [cv2.transform(contour.reshape(-1, 1, 2).astype(np.float32), rot).round().astype(np.int32)], -1, 1, -1)
    cols = np.nonzero(one.any(axis=0))[0]
    if len(cols) < 3:
        return []
    lo, hi = cols[0] + len(cols) // 3, cols[0] + 2 * len(cols) // 3
    cut = lo + int(np.argmin(one[:, lo:hi + 1].sum(axis=0)))
    back = cv2.invertAffineTransform(rot)
    out = []
    left, right = one.copy(), one.copy()
    left[:, cut:] = 0
    right[:, :cut + 1] = 0
    for part in (left, right):
        found = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        if found:
            piece = max(found, key=cv2.contourArea).reshape(-1, 1, 2).astype(np.float32)
            out.append(cv2.transform(piece, back).round().astype(np.int32))
    return out


def die_footprint(cfg: ReaderConfig, lab: Image, base: NDArray[np.float32], blob: WhiteBlob) -> WhiteBlob:
    """A die-sized blob grown over the dimmer faces around it: a cocked die's side face is lit less
    than its top and may miss the white test. Unchanged when the grown outline is no die's."""
    if not blob.die_like(cfg):
        return blob
    ppm = cfg.px_per_mm
    reach = int(round(cfg.max_footprint * ppm))
    cx, cy = int(round(blob.centre[0] * ppm)), int(round(blob.centre[1] * ppm))
    h, w = lab.shape[:2]
    x0, y0, x1, y1 = max(0, cx - reach), max(0, cy - reach), min(w, cx + reach), min(h, cy + reach)
    win = lab[y0:y1, x0:x1]
    chroma = cv2.absdiff(win[..., 1], 128).astype(np.int16) + cv2.absdiff(win[..., 2], 128)
    loose = ((win[..., 0] > base[y0:y1, x0:x1] + cfg.side_min_lightness) & (chroma < cfg.side_max_chroma)).astype(np.uint8)
    cv2.drawContours(loose, [blob.contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    loose = _morph(_morph(loose, cv2.MORPH_CLOSE, cfg.white_close, ppm), cv2.MORPH_OPEN, cfg.white_open, ppm)
    n, labels = cv2.connectedComponents(loose)
    at = labels[min(cy - y0, labels.shape[0] - 1), min(cx - x0, labels.shape[1] - 1)]
    if at == 0:
        return blob
    contours, _ = cv2.findContours((labels == at).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    grown = _blob(cfg, lab[y0:y1, x0:x1], max(contours, key=cv2.contourArea))
    if grown is None or grown.size[1] > cfg.max_footprint or grown.fill < cfg.min_fill:
        return blob
    contour = grown.contour + np.array([x0, y0], np.int32)
    footprint = replace(grown, centre=(grown.centre[0] + x0 / ppm, grown.centre[1] + y0 / ppm), contour=contour, colour=blob.colour)
    return replace(blob, grown=footprint)


def _grown(cfg: ReaderConfig, outlines: list[NDArray[np.int32]], shape: tuple[int, ...],
           margins: tuple[float, ...]) -> list[NDArray[np.uint8]]:
    """Masks of the filled outlines (canonical pixels), one grown by each of ``margins`` mm."""
    mask = cv2.drawContours(np.zeros(shape[:2], np.uint8), outlines, -1, 1, -1)
    boxes = [cv2.boundingRect(outline) for outline in outlines]
    grown = []
    for margin in margins:
        r = int(round(margin * cfg.px_per_mm))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        out = np.zeros_like(mask)
        for x, y, w, h in boxes:  # each within its own box: the mask is mostly empty, and dilating it whole is slow
            x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(mask.shape[1], x + w + r), min(mask.shape[0], y + h + r)
            if x1 > x0 and y1 > y0:
                out[y0:y1, x0:x1] |= cv2.dilate(mask[y0:y1, x0:x1], disc)
        grown.append(out)
    return grown


def flat_die_top(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float]) -> tuple[float, NDArray[np.float64]]:
    """How a flat die standing at ``centre`` (canonical mm) shows its top: the edge it is seen with (mm,
    larger for standing nearer the camera) and its parallax, the top's shift from the base (mm vector)."""
    geo = cfg.geometry
    base = surface_height(geo, centre)
    return geo.die_edge * float(view.scale(base + geo.die_edge)), view.lift(np.asarray(centre), base, base + geo.die_edge)


def is_flat(cfg: ReaderConfig, blob: WhiteBlob, view: Viewpoint, centre: tuple[float, float] | None = None) -> bool:
    """Whether a die lies flat by its outline (``centre`` in canonical mm, the blob's own by default);
    :func:`tipped_past_square` is the test once its pips have placed its top.

    Cocked when either holds:

    - its bright top is foreshortened: narrower than a flat die's top can look (``tipped_min_side``)
      yet full length (``tipped_min_long``), as a face turned away from the camera is;
    - its footprint reaches farther along one of its sides than a flat die's can, by more than
      ``cocked_excess``. A flat die's footprint is its top face (seen a little larger for standing
      nearer the camera) plus the side faces parallax shows on the camera's side, as wide as ``view``
      sees the top shifted from the base. Thin spurs (a copper highlight the closing bridged to the
      die) are trimmed off first, and a footprint that is no clean rectangle (``cocked_min_fill``) is
      never taken for a cocked die's.

    With one camera a die tipped toward the camera by about the viewing angle shows a square top and
    no extra side, so its outline is a flat die's (its pips tell it: :func:`tipped_past_square`); the
    rules are set to rather miss a cocked die than call a flat one cocked."""
    ppm = cfg.px_per_mm
    if blob.narrow(cfg):
        return False  # its light top face is too narrow for a flat die's: tilted
    footprint = blob.grown or blob
    opened = _opened_outline(cfg, footprint.contour, cfg.footprint_open)
    outline = footprint.contour if opened is None else opened
    (_, (w, h), _) = cv2.minAreaRect(outline)
    if cv2.contourArea(outline) < cfg.cocked_min_fill * w * h:
        return True  # no clean rectangle: a copper highlight fused to a flat die, not a side face
    points = outline.reshape(-1, 2) / ppm
    top, lift = flat_die_top(cfg, view, blob.centre if centre is None else centre)
    a = np.deg2rad(blob.angle)  # the light blob's turn: mostly the top face's
    excess = -np.inf
    for axis in (np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])):
        along = points @ axis
        excess = max(excess, float(along.max() - along.min()) - top - abs(float(lift @ axis)))
    return excess <= cfg.cocked_excess


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


def past_flat_die(cfg: ReaderConfig, footprint: WhiteBlob, top_at: tuple[float, float], view: Viewpoint,
                  centre: tuple[float, float]) -> float:
    """How far (mm, the area spread over a die's edge) a die's ``footprint`` reaches past the outline a
    flat die standing at ``centre`` (canonical mm) would have if its top face were centred at ``top_at``
    (pixels of the footprint's contour): the hull of its top, seen larger and shifted by parallax, and
    its base, toward the camera's foot. A flat die never shows a face beyond its top's far side; a die
    tipped away from the camera does, even when its top still looks square."""
    ppm = cfg.px_per_mm
    opened = _opened_outline(cfg, footprint.contour, cfg.footprint_open)
    outline = footprint.contour if opened is None else opened
    (_, (w, h), _) = cv2.minAreaRect(outline)
    if cv2.contourArea(outline) < cfg.cocked_min_fill * w * h:
        return 0.0  # no clean rectangle: a copper highlight fused to a flat die, not a side face
    points = outline.reshape(-1, 2) / ppm
    hull = flat_die_outline(cfg, footprint, top_at, view, centre)
    # spread over an edge: a face beyond the top lies along a whole side, shade or copper grown onto a
    # flat die's footprint at a corner does not
    fine = 4.0  # pixels per mm of the drawing
    lo = np.minimum(points.min(axis=0), hull.min(axis=0)) - 1.0
    size = np.ceil((np.maximum(points.max(axis=0), hull.max(axis=0)) + 1.0 - lo) * fine).astype(int)
    seen = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(seen, [np.round((points - lo) * fine).astype(np.int32)], 1)
    cv2.fillConvexPoly(seen, np.round((cv2.convexHull(hull.astype(np.float32)).reshape(-1, 2) - lo) * fine).astype(np.int32), 0)
    return float(np.count_nonzero(seen)) / fine**2 / cfg.geometry.die_edge


def past_side_faces(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, top_at: tuple[float, float], view: Viewpoint,
                    centre: tuple[float, float]) -> float:
    """How far (mm) the die's own colour reaches past its top face (centred at ``top_at``, pixels) beyond the
    side faces a flat die standing at ``centre`` (canonical mm) can show on that side.

    A side face is the top's material in less light: the top's chromaticity, at a share of its brightness,
    even where it is too dim for the white test that grew the footprint. Parallax shows a flat die's side
    faces only on the camera's side, and no wider than ``view`` lifts its top; a cocked die shows the face
    it was tipped up by on any side, 5-8 mm wide. The reach on each side is the run of strips (parallel to
    that side, across the middle 60% of it) whose median sample passes, counted out from the top's edge.
    """
    ppm = cfg.px_per_mm
    top, lift = flat_die_top(cfg, view, centre)
    t = np.deg2rad(cv2.minAreaRect(footprint.contour)[2])
    u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    at = np.asarray(top_at, np.float64)
    inner = np.linspace(-0.35, 0.35, 8) * top
    grid = at + (u * inner[:, None, None] + v * inner[None, :, None]) * ppm  # (8, 8, 2) pixels
    steps = np.arange(cfg.side_face_step, cfg.side_face_reach + cfg.side_face_beyond + 1e-9, cfg.side_face_step)
    across = np.linspace(-0.3, 0.3, 9) * top
    normals = np.array([u, -u, v, -v])
    tangents = normals[:, ::-1] * np.array([-1.0, 1.0])
    strips = at + ((top / 2 + steps)[None, :, None, None] * normals[:, None, None, :]
                   + across[None, None, :, None] * tangents[:, None, None, :]) * ppm  # (4, steps, 9, 2)
    where = np.concatenate([grid.reshape(-1, 2), strips.reshape(-1, 2)]).astype(np.float32)
    bgr = cv2.remap(raw, where[:, 0], where[:, 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float32) + 1.0
    face = np.median(bgr[:grid.shape[0] * grid.shape[1]], axis=0)
    side = bgr[grid.shape[0] * grid.shape[1]:].reshape(4, len(steps), len(across), 3)
    brightness = side.sum(axis=3)
    chroma_gap = np.median(np.abs(side / brightness[..., None] - face / face.sum()).sum(axis=3), axis=2)  # (4, steps)
    alike = (chroma_gap < cfg.side_face_chromaticity) & (np.median(brightness, axis=2) > cfg.side_face_min_brightness * face.sum())
    face_steps = int(np.sum(steps <= cfg.side_face_reach + 1e-9))
    run = np.where(alike[:, :face_steps].all(axis=1), face_steps, np.argmin(alike[:, :face_steps], axis=1))
    reach = np.where(run > 0, steps[np.maximum(run - 1, 0)], 0.0)
    # past any side face the board shows: where it is nearly the die's colour, or as grey and light as a side
    # face anywhere there (a cool lamp greys the leather), that side says nothing
    board_gap = np.median(chroma_gap[:, face_steps:], axis=1)
    telling = ~alike[:, face_steps:].any(axis=1) & (board_gap >= cfg.side_face_board_gap)
    allowed = np.maximum(0.0, -(normals @ lift))  # a flat die's side faces show opposite its top's lift
    return float(np.where(telling, reach - allowed, 0.0).max())


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


def pip_square(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, face: TopFace) -> float | None:
    """Short over long side of the square the corner pips of a top face read on the nominal square make
    (faces 4, 5 and 6; None for the others or when a corner pip is not seen). A flat die's top lies parallel
    to the board and is seen square on the canonical image, whatever the camera's height; a cocked die's
    is foreshortened along its tilt, unless it is tipped toward the camera by about the viewing angle."""
    if face.value is None:
        return None
    side = cfg.geometry.die_edge * cfg.px_per_mm * cfg.pips.face_share
    angle = cv2.minAreaRect(footprint.contour)[2]
    sides = pip_sides(_crop(raw, face.centre, (side, side), angle, cfg.die_crop_px), face.value, cfg.pips)
    return None if sides is None else min(sides) / max(sides)


def face_past_square(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, face: TopFace, view: Viewpoint,
                     centre: tuple[float, float], on_board: bool) -> bool:
    """Whether a face shows past the top a square face reads (``face``): beyond that top (:func:`past_flat_die`);
    or, on the board (``on_board``: past the outline the table lies beyond a die), a face of its own colour too
    dim for the white test, past its top where a flat die's cannot show (:func:`past_side_faces`)."""
    if past_flat_die(cfg, footprint, face.centre, view, centre) > cfg.cocked_far_excess:
        return True
    return on_board and past_side_faces(cfg, raw, footprint, face.centre, view, centre) > cfg.cocked_side_excess


def tipped_past_square(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, face: TopFace, view: Viewpoint,
                       centre: tuple[float, float], on_board: bool, away: NDArray[np.float64],
                       reads: PipReads | None = None) -> bool:
    """Whether a die whose top a square face reads (``face``) is cocked all the same: a face shows past that
    top (:func:`face_past_square`), or the top's corner pips make no square (:func:`pip_square`), measured
    where a foreshortened read puts the top when they are not all on the square's place (a tipped top's
    pips lie to one side of where its side face and top, taken for one square, put them)."""
    if face_past_square(cfg, raw, footprint, face, view, centre, on_board):
        return True
    aspect = pip_square(cfg, raw, footprint, face)
    if aspect is None and face.value in (4, 5, 6):
        tipped = read_top_face(cfg, raw, footprint, False, away, reads)
        aspect = pip_square(cfg, raw, footprint, tipped._replace(value=face.value))
    return aspect is not None and aspect < cfg.tipped_pip_aspect


def cocked_look(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, face: TopFace, view: Viewpoint,
                centre: tuple[float, float], away: NDArray[np.float64]) -> tuple[NDArray[np.uint8], float]:
    """What :mod:`vision.cocked` judges of a die whose top a square face reads (``face``): its look around the
    footprint, with the outline a flat die there would show, and how far (mm) parallax lifts a flat die's top there."""
    (cx, cy), _, _ = cv2.minAreaRect(footprint.contour)
    outline = flat_die_outline(cfg, footprint, face.centre, view, centre) * cfg.px_per_mm
    return die_look(raw, (cx, cy), away, cfg.px_per_mm, outline), float(np.linalg.norm(flat_die_top(cfg, view, centre)[1]))


def cocked_probability(cfg: ReaderConfig, raw: Image, footprint: WhiteBlob, square: TopFace, view: Viewpoint,
                       centre: tuple[float, float], away: NDArray[np.float64]) -> float | None:
    """How sure the network of :mod:`vision.cocked` is that the die is cocked (``square``: its top as a square face
    reads it, which places the flat outline); None when no model ships."""
    model = load_cocked_model()
    return None if model is None else model.cocked(*cocked_look(cfg, raw, footprint, square, view, centre, away))


def same_face(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float], a: TopFace, b: TopFace) -> bool:
    """Whether two face reads of the die at ``centre`` (canonical mm) lie too near to be two of its faces: seen
    from above, two faces' centres lie at least half an edge apart, whatever the die's tilt (two faces that face
    up have unit normals whose difference has a horizontal part of at least one), less the parallax of the half
    edge their heights may differ by."""
    edge, lift = flat_die_top(cfg, view, centre)
    apart = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])) / cfg.px_per_mm
    return apart < (edge - float(np.linalg.norm(lift))) / 2


def tipped_read_stands(cfg: ReaderConfig, view: Viewpoint, centre: tuple[float, float], square: TopFace, tipped: TopFace,
                       surely_cocked: bool = False) -> bool:
    """Whether a cocked die's foreshortened read (``tipped``) replaces its square read. Another value read too
    near the square's to be another face (see :func:`same_face`) is that face misplaced (a crop centred on a 2's
    corner pip reads a 1), so the square's value stands, unless it is the less sure of the two reads; or, when the
    die is ``surely_cocked`` (the network's word against rules that saw a flat die), as sure: the square's crop
    then straddles the top and a side face, whose pips together may read as another face."""
    if tipped.value is None:
        return False
    surer = tipped.confidence >= square.confidence if surely_cocked else tipped.confidence > square.confidence
    return tipped.value == square.value or not same_face(cfg, view, centre, square, tipped) or surer


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
    """Value, flat or cocked, and half of the die whose light blob is ``blob`` (pips read on ``raw``, unclipped):
    flat or cocked by the outline and pip rules, then by :mod:`vision.cocked`'s network where it is sure.
    ``at`` is the blob's centre in canonical mm when ``raw`` is another window than the canonical image."""
    footprint = blob.grown or blob
    centre = blob.centre if at is None else at
    away = np.asarray(centre, np.float64) - np.asarray(view.nadir, np.float64)
    away /= max(float(np.linalg.norm(away)), 1e-9)  # from the camera's foot toward the die
    flat = is_flat(cfg, blob, view, centre)
    reads: PipReads = {}
    face = read_top_face(cfg, raw, footprint, flat, away, reads)

    def as_cocked(square: TopFace, surely_cocked: bool = False) -> TopFace:
        """The top of a die found cocked after a square read: the foreshortened read, if it stands."""
        tipped = read_top_face(cfg, raw, footprint, False, away, reads)
        return tipped if tipped_read_stands(cfg, view, centre, square, tipped, surely_cocked) else square
    if not flat and not blob.narrow(cfg):
        # its outline reaches past a flat die's; but if the top's pips make a square and no face shows
        # beyond where they put the top, the outline measured shade or a lift misjudged by the camera's height
        square = read_top_face(cfg, raw, footprint, True, away, reads)
        aspect = pip_square(cfg, raw, footprint, square)
        if aspect is not None and aspect >= cfg.square_pip_aspect and not face_past_square(cfg, raw, footprint, square, view, centre, at is None):
            face, flat = square, True
    if flat and face.value is None:
        # a light blob no square face reads, but a foreshortened one does surely: a cocked die whose side face
        # is lit like its top, the two taken for one square. A blob that is no clean rectangle may be the light
        # between two copper rims, whose dark leather reads as pips: its pips must fit as well as a die's do
        tipped = read_top_face(cfg, raw, footprint, False, away, reads)
        clean = blob.fill >= cfg.unread_min_fill
        if tipped.confidence >= cfg.tipped_retry_confidence and (clean or tipped.margin >= cfg.unclean_tipped_margin):
            face, flat = tipped, False
    elif flat and face.value is not None and tipped_past_square(cfg, raw, footprint, face, view, centre, at is None, away, reads):
        flat = False
        face = as_cocked(face)  # the top may be foreshortened, or lie past a side face
    # the network weighs the look as a whole: sure it is cocked, it overrules rules that saw a flat die (whose
    # foreshortened read then stands against a square read as sure); sure it is flat, rules that saw a cocked one
    if cfg.cocked_net_sure <= 1.0:  # (above 1: never asked)
        square = face if flat else read_top_face(cfg, raw, footprint, True, away, reads)
        cocked = cocked_probability(cfg, raw, footprint, square, view, centre, away) if square.value is not None else None
        if cocked is not None and flat and cocked >= cfg.cocked_net_sure:
            flat = False
            face = as_cocked(face, surely_cocked=True)
        elif cocked is not None and not flat and cocked <= cfg.flat_net_sure:
            face, flat = square, True
    face = one_is_a_pip(cfg, view, centre, face, reads, away)
    value, conf = face.value, face.confidence
    return {
        "value": value,
        "flat": bool(flat),
        "half": half_of(cfg.geometry, cal.layout, centre),
        "confidence": round(conf, 3),
        "xy_mm": [round(centre[0], 1), round(centre[1], 1)],
    }


def _crop(canon: Image, centre: tuple[float, float], size: tuple[float, float], angle: float, out: int) -> Image:
    """An upright ``out`` x ``out`` crop of the rectangle (centre, size, angle) in pixels."""
    (cx, cy), (w, h) = centre, size
    m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    sx, sy = out / max(w, 1.0), out / max(h, 1.0)  # each row scaled, then the centre moved to the crop's
    m[0] *= sx
    m[1] *= sy
    m[0, 2] += out / 2.0 - sx * cx
    m[1, 2] += out / 2.0 - sy * cy
    return cv2.warpAffine(canon, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _cube_centre(cfg: ReaderConfig, bright: NDArray[np.uint8], blob: WhiteBlob) -> tuple[float, float]:
    """Where a cube-sized square covers most bright pixels near the blob (the numerals break the blob up)."""
    ppm = cfg.px_per_mm
    edge = int(round(cfg.geometry.cube_edge * ppm))
    cx, cy = blob.centre[0] * ppm, blob.centre[1] * ppm
    r = edge
    h, w = bright.shape
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    win = bright[y0:min(h, int(cy + r)), x0:min(w, int(cx + r))]
    if win.size == 0:
        return cx, cy
    ix, iy = _densest_square(win, edge)
    return float(x0 + ix), float(y0 + iy)


def board_patch(cfg: ReaderConfig, cal: Calibration, image: Image, centre_mm: tuple[float, float], half_mm: float) -> Image:
    """A top-down square of the camera image around ``centre_mm`` on the canonical plane, at the reader's
    resolution; unlike the canonical image it may reach past the board (a cube's top on the frame does)."""
    return board_window(cfg, cal, image, (centre_mm[0] - half_mm, centre_mm[1] - half_mm), (2 * half_mm, 2 * half_mm))


def board_window(cfg: ReaderConfig, cal: Calibration, image: Image, corner_mm: tuple[float, float],
                 size_mm: tuple[float, float]) -> Image:
    """A top-down rectangle of the camera image (top-left ``corner_mm``, ``size_mm``) on the canonical plane."""
    return _remap_window(image, window_maps(cfg, cal, corner_mm, size_mm))


def _remap_window(image: Image, maps: Maps) -> Image:
    # past the camera's image nothing is seen: black, not the edge pixels smeared outwards (a cube at the
    # image's edge would grow a light tail)
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def window_maps(cfg: ReaderConfig, cal: Calibration, corner_mm: tuple[float, float], size_mm: tuple[float, float]) -> Maps:
    """Where each pixel of a top-down window of the canonical plane lies in the camera image (for cv2.remap)."""
    ppm = cfg.px_per_mm
    nx, ny = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
    yy, xx = np.mgrid[0:ny, 0:nx].astype(np.float64)
    mm = np.stack([corner_mm[0] + (xx + 0.5) / ppm, corner_mm[1] + (yy + 0.5) / ppm], axis=-1)
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(cal.homography)).reshape(-1, 2)
    dist = cal.lens.distort(und).reshape(ny, nx, 2).astype(np.float32)
    return np.ascontiguousarray(dist[..., 0]), np.ascontiguousarray(dist[..., 1])


@dataclass(frozen=True, slots=True)
class OutlineBand:
    """A strip along one of the board's long sides reaching past its outline, warped from the camera image:
    what stands on the frame there is seen shifted outwards, often off the canonical image."""

    y0: float  # canonical mm of the strip's top edge
    image: Image  # BGR, the reader's resolution
    blobs: tuple[WhiteBlob, ...]  # light, die- or cube-sized blobs, in the strip's own pixels and mm


def band_maps(cfg: ReaderConfig, cal: Calibration) -> list[tuple[float, Maps]]:
    """(top edge mm, warp maps) of the two long sides' strips past the outline."""
    geo = cfg.geometry
    reach = cfg.cube_past_outline
    return [(y0, window_maps(cfg, cal, (0.0, y0), (geo.width, reach + geo.frame))) for y0 in (-reach, geo.depth - geo.frame)]


def outline_bands(cfg: ReaderConfig, cal: Calibration, image: Image, maps: list[tuple[float, Maps]] | None = None) -> list[OutlineBand]:
    """The two long sides' strips, where the players sit (the cube's place when owned; dice that miss the board)."""
    out = []
    for y0, m in (maps if maps is not None else band_maps(cfg, cal)):
        window = _remap_window(image, m)
        lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB)
        lightness = lab[..., 0].astype(np.float32)
        chroma = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
        counts = np.bincount(lab[..., 0].ravel(), minlength=256)
        counts[0] = 0  # past the camera's image the window is black
        if not counts.any():
            out.append(OutlineBand(y0, window, ()))
            continue
        ground, top = _levels(counts, (0.75, 0.995))  # frame or table, whichever is the lighter there
        # a lamp's sheen on the frame's edge can be lighter than the ground by the contrast too: a light thing
        # must also stand out by a share of the way up to the lightest there (a white cube or die)
        level = max(ground + cfg.cube_past_contrast, ground + cfg.cube_past_share * (top - ground))
        # and stand out from what lies around it: a lamp's hot spot on a pale table speckles it light
        local = local_background(cfg, lab[..., 0]) + cfg.cube_past_contrast
        light = ((lightness > np.maximum(local, level)) & (chroma < cfg.cube_max_chroma)).astype(np.uint8)
        blobs = tuple(b for b in white_blobs(cfg, cal, lab, light) if cfg.die_min_side <= b.size[0] <= b.size[1] <= cfg.band_max_footprint)
        out.append(OutlineBand(y0, window, blobs))
    return out


def _levels(counts: NDArray[np.int64], shares: tuple[float, ...]) -> tuple[float, ...]:
    """The lightness levels below which these shares of a histogram's pixels lie."""
    cum = np.cumsum(counts)
    return tuple(float(np.searchsorted(cum, share * cum[-1])) for share in shares)


def _on_canonical(cfg: ReaderConfig, band: OutlineBand, blob: WhiteBlob) -> WhiteBlob:
    """A band's blob in canonical mm and pixels (its pixels may lie past the canonical image)."""
    shift = np.array([0, int(round(band.y0 * cfg.px_per_mm))], np.int32)
    return replace(blob, centre=(blob.centre[0], blob.centre[1] + band.y0), contour=blob.contour + shift)


def cube_past_outline(cfg: ReaderConfig, cal: Calibration, image: Image, bright: NDArray[np.uint8],
                      bands: list[OutlineBand] | None = None, detail: Warp | None = None) -> dict[str, Any] | None:
    """The cube on the frame of a player's side, looked for in the strips that reach past the board's
    outline: the cube's top stands two heights (frame and cube) above the plane the calibration
    maps, so a tilted camera sees it shifted outwards, often off the board altogether."""
    found = [read_cube(cfg, cal, image, _on_canonical(cfg, band, blob), bright, detail)
             for band in (bands if bands is not None else outline_bands(cfg, cal, image)) for blob in band.blobs]
    found = [c for c in found if c["confidence"] >= cfg.cube_min_score]
    return max(found, key=lambda c: c["confidence"]) if found else None


def on_long_frame(cfg: ReaderConfig, xy: tuple[float, float]) -> bool:
    """Whether canonical ``xy`` lies on (or past) the frame along a long side."""
    geo = cfg.geometry
    return not geo.frame <= xy[1] <= geo.depth - geo.frame


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


def _face_mask(cfg: ReaderConfig, patch: Image) -> NDArray[np.uint8]:
    """The patch's pixels light and grey enough to be the cube's face."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    light = (lab[..., 0] > cfg.cube_face_share * float(np.percentile(lab[..., 0], 99))).astype(np.uint8)  # the lightest thing there
    chroma = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    return light & (chroma < cfg.cube_max_chroma).astype(np.uint8)  # ivory, not copper or leather


def _square_centre(cfg: ReaderConfig, face: NDArray[np.uint8]) -> tuple[float, float]:
    """Pixel where a cube-sized square covers most of the light face mask and its surround least
    (the numerals break the face up; a light table beside the frame is light all round), within a
    cube's edge of the patch's middle, where the blob that led to it lies."""
    return _square_centres(cfg, face, 1)[0]


def _square_centres(cfg: ReaderConfig, face: NDArray[np.uint8], count: int) -> list[tuple[float, float]]:
    """The ``count`` best such places (a pale table beside the cube can score as well as its face)."""
    edge = int(round(cfg.geometry.cube_edge * cfg.px_per_mm))
    mid = ((face.shape[1] - 1) / 2, (face.shape[0] - 1) / 2, float(edge))
    return [(float(x), float(y)) for x, y in _densest_squares(face, edge, max(1, int(round(edge * cfg.cube_ring))), mid, count)]


def face_square(cfg: ReaderConfig, face: NDArray[np.uint8], centre: tuple[float, float]) -> tuple[float, NDArray[np.uint8]] | None:
    """The turn (mod 90°) and the pixels of the cube-sized light square at ``centre`` of the face mask, or
    None when what lies there is no square (a blob's own outline is bent by highlights stuck to it)."""
    edge = cfg.geometry.cube_edge * cfg.px_per_mm
    filled = _morph(face, cv2.MORPH_CLOSE, cfg.cube_numeral_close, cfg.px_per_mm)  # the numerals' ink filled in
    n, labels = cv2.connectedComponents(filled)
    x, y = min(int(round(centre[0])), face.shape[1] - 1), min(int(round(centre[1])), face.shape[0] - 1)
    at = labels[y, x]
    if at == 0:
        return None
    contours = cv2.findContours((labels == at).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    outline = max(contours, key=cv2.contourArea)
    (_, (w, h), angle) = cv2.minAreaRect(outline)
    if not (1 - cfg.cube_square_tolerance) * edge <= min(w, h) <= max(w, h) <= (1 + cfg.cube_square_tolerance) * edge:
        return None
    square = np.zeros_like(face)
    cv2.fillConvexPoly(square, cv2.convexHull(outline), 1)  # with the ink the closing left out (a bold numeral's)
    return (angle + 45.0) % 90.0 - 45.0, square


def read_cube(cfg: ReaderConfig, cal: Calibration, image: Image, blob: WhiteBlob, bright: NDArray[np.uint8],
              detail: Warp | None = None) -> dict[str, Any]:
    """The cube's face value by matching numeral templates, turned as the cube's outline is.

    Read on a patch of the camera image around the blob, so a cube whose top overhangs the
    board's outline is read whole; where the outline cuts the blob, the face is looked for on
    the patch, at the few likeliest places, and the one whose numeral matches best is kept. The patch is
    cut from ``detail`` (the canonical image's warp at ``detail_px_per_mm``) where that covers it.
    """
    fine = cfg.detail()  # the patch's resolution
    ppm = fine.px_per_mm
    bx, by, bw, bh = cv2.boundingRect(blob.contour)
    whole = bx > 1 and by > 1 and bx + bw < bright.shape[1] - 1 and by + bh < bright.shape[0] - 1
    # a blob the outline cuts may hold only the cube's side: its face may lie up to an edge away
    half = cfg.geometry.cube_edge * (cfg.cube_patch if whole else cfg.cube_patch + 1.0)
    # the patch's corner and side in canonical pixels at its resolution
    x0, y0, n = int(round((blob.centre[0] - half) * ppm)), int(round((blob.centre[1] - half) * ppm)), int(round(2 * half * ppm))
    cut = None if detail is None else detail.cut(x0, y0, n, n)
    maps = cut if cut is not None else window_maps(fine, cal, (x0 / ppm, y0 / ppm), (n / ppm, n / ppm))
    patch = _remap_window(image, maps)
    face = _face_mask(fine, patch)
    if whole:
        cx, cy = _cube_centre(cfg, bright, blob)  # wholly on the canonical image: its light mask is the better guide
        k = ppm / cfg.px_per_mm
        places = [((cx + 0.5) * k - 0.5 - x0, (cy + 0.5) * k - 0.5 - y0)]
    else:  # cut by the board's outline: find the whole face on the patch
        places = _square_centres(fine, face, cfg.cube_face_tries)
        if (1 - cfg.cube_square_tolerance) * cfg.geometry.cube_edge <= blob.size[0] <= blob.size[1] <= (1 + cfg.cube_square_tolerance) * cfg.geometry.cube_edge:
            places.insert(0, (half * ppm, half * ppm))  # the blob is a whole face already (a strip's past the outline)
    h, w = image.shape[:2]
    seen = ((maps[0] >= 0) & (maps[0] <= w - 1) & (maps[1] >= 0) & (maps[1] <= h - 1)).astype(np.float32)
    edge = cfg.geometry.cube_edge * ppm
    places = [p for p in places if _share_seen(seen, p, edge) >= cfg.cube_min_seen] or places[:0]
    if not places:  # the face lies past the camera's image: nothing to read
        return {"value": None, "position": None, "confidence": 0.0, "xy_mm": [round(blob.centre[0], 1), round(blob.centre[1], 1)]}
    best, best_face, (px, py) = -1.0, None, places[0]
    for p in places:  # likeliest first; a numeral matched this well is not bettered at a less likely place
        score, value = _read_numeral(fine, patch, face, blob, p)
        if score > best:
            best, best_face, (px, py) = score, value, p
        if best >= cfg.cube_stop:
            break
    cx, cy = x0 + px, y0 + py
    geo = cfg.geometry
    centre = _is_centre(cfg, (cx / ppm, cy / ppm))
    value = 1 if (best_face == 64 and centre) else best_face
    position = "centre" if centre else side_of(geo, cal.layout, (cx / ppm, cy / ppm))
    return {"value": value, "position": position, "confidence": round(max(best, 0.0), 3),
            "xy_mm": [round(cx / ppm, 1), round(cy / ppm, 1)]}


def _share_seen(seen: NDArray[np.float32], at: tuple[float, float], edge: float) -> float:
    """Share of the face-sized square at ``at`` (on the patch) that lies in the camera's image."""
    h = int(round(edge / 2))
    x, y = int(round(at[0])), int(round(at[1]))
    window = seen[max(0, y - h):y + h, max(0, x - h):x + h]
    return float(window.mean()) if window.size else 0.0


def _read_numeral(cfg: ReaderConfig, patch: Image, face: NDArray[np.uint8], blob: WhiteBlob,
                  at: tuple[float, float]) -> tuple[float, int | None]:
    """(probability, face value) of the cube's face centred near patch pixel ``at``, read by the learned
    reader (``vision.cube_cnn``: any typeface, any turn) on crops turned as the blob's outline and, where
    the light face's own outline is a square that disagrees, as that square and about its centre.
    (0.0, None) when what lies there is no cube's face (a die's, wood, a blank square)."""
    edge = cfg.geometry.cube_edge * cfg.px_per_mm
    span = (edge * CROP_SPAN,) * 2
    out = int(round(span[0]))
    views = [(at, (blob.angle + 45.0) % 90.0 - 45.0)]
    square = face_square(cfg, face, at)
    if square is not None:  # the face's square, where it lies and as it is turned (a blob's outline is bent by highlights)
        m = cv2.moments(square[1], binaryImage=True)
        if m["m00"] > 0:
            views.append(((m["m10"] / m["m00"], m["m01"] / m["m00"]), square[0]))
    step = cfg.cube_search * edge
    views += [((at[0] + dx * step, at[1] + dy * step), views[0][1]) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    probs = load_cube_reader().probabilities([_crop(patch, c, span, angle, out) for c, angle in views])
    best = probs[int(np.argmax(probs[:, 1:].max(axis=1)))]
    k = int(np.argmax(best[1:])) + 1
    if best[k] <= best[0]:
        return 0.0, None
    return float(best[k]), CUBE_FACES[k - 1]


def _is_centre(cfg: ReaderConfig, xy: tuple[float, float]) -> bool:
    geo: BoardGeometry = cfg.geometry
    b0, b1 = geo.bar_x
    m = cfg.cube_centre_margin
    return b0 - m <= xy[0] <= b1 + m and abs(xy[1] - geo.depth / 2) <= cfg.cube_centre_radius


# ----------------------------------------------------------------------------- the reading


def arm_over_board(cfg: ReaderConfig, cal: Calibration, lab: Image, near_white: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
    """Where an arm (or a sleeve, a cup held low) lies over the board, or None.

    An arm reaches in from outside, so it crosses the frame: a stretch of the frame band wider
    than a die or the cube whose colour is not the frame's all the way across, and is no wood
    at all (a shadow on the frame is still wood). From there it is followed inwards by its own
    colour. Skin is too like lit copper and leather for the points' colour classes to call it
    foreign, but it is never the frame's wood.
    """
    ppm, geo = cfg.px_per_mm, cfg.geometry
    f = int(round(geo.frame * ppm))
    h, w = lab.shape[:2]
    inset = max(1, f // 5)
    # the four sides of the frame band: (rows, columns, axis across the band); judged on the band alone, as
    # this runs on every frame
    sides = [(slice(inset, f - inset), slice(0, w), 0), (slice(h - f + inset, h - inset), slice(0, w), 0),
             (slice(0, h), slice(inset, f - inset), 1), (slice(0, h), slice(w - f + inset, w - inset), 1)]
    bands = [lab[r, c].astype(np.float32) for r, c, _ in sides]
    step = max(1, sum(b.shape[0] * b.shape[1] for b in bands) // 4000)  # some 4000 pixels tell the frame's colour
    wood = np.concatenate([b.reshape(-1, 3)[::step][near_white[r, c].ravel()[::step] == 0] for b, (r, c, _) in zip(bands, sides)])
    if len(wood) == 0:
        return None
    frame = np.median(wood, axis=0)
    foreign = np.zeros((h, w), bool)
    for band, (r, c, _) in zip(bands, sides):
        off = band - frame
        foreign[r, c] = (np.einsum("...k,...k->...", off, off) > cfg.arm_frame_distance ** 2) & (near_white[r, c] == 0)
    woods = [cal.classes[k] for k in ("field", "bar") if k in cal.classes]
    seeds = np.zeros((h, w), np.uint8)
    run = int(round(cfg.arm_min_width * ppm))
    for band, (rows, cols, across) in zip(bands, sides):
        # a strip of the band unlike the frame all along the side is no frame: its inner wall in shade, which a
        # tilted camera sees on the side away from it. Only the frame's own strips tell a crossing.
        look = np.median(band[:, ::4] if across == 0 else band[::4], axis=1 - across)  # (across, 3)
        own = np.linalg.norm(look - frame, axis=-1) <= cfg.arm_frame_distance
        strips = own if own.sum() >= 2 else np.ones_like(own)
        share = foreign[rows, cols][strips, :].mean(axis=0) if across == 0 else foreign[rows, cols][:, strips].mean(axis=1)
        crossed = (share >= cfg.arm_across_share).astype(np.uint8).reshape(1, -1)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(crossed)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_WIDTH] < run:
                continue
            along = labels[0] == i
            part = np.zeros((h, w), bool)
            view = part[rows, cols]
            if across == 0:
                view[:, along] = True
            else:
                view[along, :] = True
            part &= foreign
            colour = np.median(lab[part].astype(np.float32), axis=0, keepdims=True)
            if any(c.loglik(colour, cfg.loglik_floor)[0] > cfg.arm_wood_loglik for c in woods):
                continue  # a shadow or a dark grain of the frame: wood, not an arm
            seeds[part] = 1
    if not seeds.any():
        return None
    arm = np.median(lab[seeds > 0].astype(np.float32), axis=0)
    alike = (np.linalg.norm(lab.astype(np.float32) - arm, axis=-1) < cfg.arm_colour_distance).astype(np.uint8)
    alike = _morph(alike | seeds, cv2.MORPH_CLOSE, cfg.white_close, ppm)
    _, labels = cv2.connectedComponents(alike)
    keep = np.unique(labels[seeds > 0])
    keep = keep[keep > 0]
    return np.isin(labels, keep).astype(np.uint8)


def camera_view(cfg: ReaderConfig, cal: Calibration) -> Viewpoint:
    """The camera's viewpoint over the canonical plane, which calibration fits to the start checkers' tops."""
    return viewpoint(cal.homography, cal.image_size, cfg.focal_per_width * cal.image_size[0], cfg.geometry.checker_thickness)


def normalise_light(cfg: ReaderConfig, cal: Calibration, canon: Image) -> Image:
    """The frame as the lamp meter: its falloff divided out, then each channel scaled so the wood
    has its colour at calibration."""
    return cv2.multiply(canon, normalise_gains(cfg, cal, canon), dtype=cv2.CV_8U)


def normalise_gains(cfg: ReaderConfig, cal: Calibration, canon: Image) -> NDArray[np.float32]:
    """The (H, W, 3) gains :func:`normalise_light` multiplies the frame by."""
    return light_gains(cfg, canon, cfg.wood_level, np.asarray(cal.frame_reference, np.float32))


def check_frame(cfg: ReaderConfig, cal: Calibration, image: Image) -> None:
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise BoardNotFoundError("not a colour image")
    h, w = image.shape[:2]
    if (w, h) != cal.image_size:
        raise CalibrationError(f"frame is {w}x{h} but the calibration was made at {cal.image_size[0]}x{cal.image_size[1]}")


def read_board(cfg: ReaderConfig, cal: Calibration, image: Image, maps: Maps | None = None,
               bands: list[tuple[float, Maps]] | None = None, detail: Warp | None = None,
               detail_bands: list[tuple[float, Maps]] | None = None, view: Viewpoint | None = None) -> dict[str, Any]:
    """One board-spec reading (plus confidences and ``occluded``) of a calibrated frame (``maps`` and ``bands``:
    the canonical image's and the outline strips' warps, if already made (``maps`` may be in OpenCV's fixed-point
    form); ``detail`` and ``detail_bands``: the same at the resolution dice and the cube are read at, if made
    (``detail`` as a float :class:`Warp`): else each die's and the cube's window is warped alone;
    ``view``: the camera's viewpoint, if already worked out)."""
    check_frame(cfg, cal, image)
    maps = warp_maps(cfg, cal) if maps is None else maps
    raw = to_canonical(image, maps)
    gains = normalise_gains(cfg, cal, raw)
    canon = cv2.multiply(raw, gains, dtype=cv2.CV_8U)
    lab = lab8_image(canon)
    prof = sample_profiles(cfg, lab, cal.layout)
    bright, base = white_mask(cfg, cal, lab)
    blobs = [die_footprint(cfg, lab, base, b) for b in white_blobs(cfg, cal, lab, bright)]
    tops = [b.contour for b in blobs if b.fill >= cfg.min_fill]  # not a copper rim's highlight, an arc
    # where dice or the cube may hide checkers: their colours say nothing of checkers within a margin round a die's
    # light top (parallax shows its side faces, often in shade, toward the camera's foot); a copper ring is still
    # looked for nearer, where its bright arc outshines what a die casts
    near_white, near_die = _grown(cfg, tops, bright.shape, (cfg.rim_white_margin, cfg.white_margin))
    skip_pts, skip_dark, skip_light = sample_mask(cfg, near_die, cal.layout)
    arm = arm_over_board(cfg, cal, lab, near_white)
    arm_pts, arm_dark, arm_light = (None, None, None) if arm is None else sample_mask(cfg, arm, cal.layout)
    view = camera_view(cfg, cal) if view is None else view
    rims = None
    if cfg.rim_weight > 0:
        rims = rim_evidence(cfg, cal, lab[..., 0], near_white if arm is None else near_white | arm)
    points = read_points(cfg, cal, prof.points, skip_pts, arm_pts, view, rims)
    bar = read_bar(cfg, cal, (prof.bar_dark, prof.bar_light), (skip_dark, skip_light),
                   None if arm_dark is None or arm_light is None else (arm_dark, arm_light))
    foreign = float(np.mean([p.foreign for p in points]))
    hidden = sum(p.count is None for p in points) / len(points)
    if foreign > cfg.max_foreign_share or hidden > cfg.max_hidden_share:
        raise BoardNotFoundError(
            f"the calibrated board is not in view or mostly covered ({100 * foreign:.0f}% unrecognised, "
            f"{100 * hidden:.0f}% of the points hidden)"
        )
    strips = outline_bands(cfg, cal, image, bands)
    same = cfg.detail_px_per_mm == cfg.px_per_mm
    cube = find_cube(cfg, cal, image, lab, bright, blobs, strips, detail, base)
    fine = None if same else FineLook(cfg.detail(), cal, image, gains, base, detail, detail_bands)
    return _assemble(points, bar, find_dice(cfg, cal, raw, view, blobs, strips, cube, fine, gains), cube)


def find_cube(cfg: ReaderConfig, cal: Calibration, image: Image, lab: Image, bright: NDArray[np.uint8],
              blobs: list[WhiteBlob], strips: list[OutlineBand], detail: Warp | None = None,
              base: NDArray[np.float32] | None = None) -> dict[str, Any] | None:
    """The cube: of the light blobs off the playing surface (bar and frame), the one whose numeral matches
    best; when none matches surely, also of those the looser test of the cube's colour finds there (its
    ivory turns cream under a warm lamp) and of those in the strips past the outline (a cube on the frame
    is seen shifted outwards). ``base``: the lightness :func:`white_mask` judged the frame against, if at hand."""
    geo = cfg.geometry
    found = [read_cube(cfg, cal, image, b, bright, detail) for b in blobs if half_of(geo, cal.layout, b.centre) == "off"]
    if max((c["confidence"] for c in found), default=0.0) < cfg.cube_sure:
        cream, _ = white_mask(cfg, cal, lab, cream=True, base=base)
        found += [read_cube(cfg, cal, image, b, cream, detail) for b in white_blobs(cfg, cal, lab, cream) if half_of(geo, cal.layout, b.centre) == "off"]
        past = cube_past_outline(cfg, cal, image, cream, strips, detail)
        found += [past] if past is not None else []
    found = [c for c in found if c["confidence"] >= cfg.cube_min_score]
    return max(found, key=lambda c: c["confidence"]) if found else None


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


def find_dice(cfg: ReaderConfig, cal: Calibration, raw: Image, view: Viewpoint, blobs: list[WhiteBlob],
              strips: list[OutlineBand], cube: dict[str, Any] | None, fine: FineLook | None = None,
              gains: NDArray[np.float32] | None = None) -> list[dict[str, Any]]:
    """Every die-like light blob that is not the cube, read; those on a long side's frame in the strips past
    the outline, where they are seen whole (the canonical image cuts them). A blob that is no clean square
    (``unread_min_fill``, at the coarse look or the fine one) counts as a die only if its pips are read surely
    (``unclean_min_confidence``): a square die nobody can read is still reported, so the referee can ask for a
    look, but bright arcs on a copper rim, with dark gaps that may pass for pips, are not; nor is such a blob
    mostly greyer than the cube's white (``unclean_max_dimming``), as the walnut between two rims is under a cool
    lamp; a square so grey is a die only if its pips are read as surely. With a ``fine`` look, each die is found again and
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
        if counts_as_die(cfg, clean, grey, die):
            dice.append(die)
    return dice + dice_past_outline(cfg, cal, view, strips, cube, fine, gains)


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
    margin = (cfg.side_face_reach + cfg.side_face_beyond + cfg.geometry.die_edge / 2) * fine.cfg.px_per_mm
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


def _is_cube(cfg: ReaderConfig, cube: dict[str, Any] | None, xy: tuple[float, float]) -> bool:
    return cube is not None and float(np.hypot(xy[0] - cube["xy_mm"][0], xy[1] - cube["xy_mm"][1])) < cfg.geometry.cube_edge


def _assemble(points: list[StackReading], bar: dict[str, StackReading], dice: list[dict[str, Any]], cube: dict[str, Any] | None) -> dict[str, Any]:
    occluded = [f"point:{i + 1}" for i, p in enumerate(points) if p.count is None]
    occluded += [f"bar:{k}" for k, v in bar.items() if v.count is None]
    counts = [p.count for p in points]
    bar_counts = {k: v.count for k, v in bar.items()}
    off: dict[str, int | None] = {"dark": None, "light": None}
    if not occluded:
        on_dark = sum(c for c in counts if c and c > 0) + (bar_counts["dark"] or 0)
        on_light = sum(-c for c in counts if c and c < 0) + (bar_counts["light"] or 0)
        off = {"dark": 15 - on_dark, "light": 15 - on_light}
    if any(v is not None and v < 0 for v in off.values()):
        off = {"dark": None, "light": None}
    public_dice = [{k: d[k] for k in ("value", "flat", "half")} for d in dice]
    return {
        "points": counts,
        "bar": bar_counts,
        "off": off,
        "dice": public_dice,
        "cube": None if cube is None else {"value": cube["value"], "position": cube["position"]},
        "confidence": {
            "points": [round(p.confidence, 3) for p in points],
            "bar": {k: round(v.confidence, 3) for k, v in bar.items()},
            "dice": [d["confidence"] for d in dice],
            "cube": None if cube is None else cube["confidence"],
        },
        "occluded": occluded,
        "image": {"dice_mm": [d["xy_mm"] for d in dice], "cube_mm": None if cube is None else cube["xy_mm"]},
    }


class BoardReader:
    """Holds a calibration and its precomputed warp; ``reader(frame)`` reads one frame."""

    def __init__(self, cal: Calibration, cfg: ReaderConfig | None = None) -> None:
        self.cfg = cfg or ReaderConfig()
        self.cal = cal
        maps = warp_maps(self.cfg, cal)
        # the canonical warp in OpenCV's fixed-point form: remapped in half the time, to within a level
        self.maps = cv2.convertMaps(maps[0], maps[1], cv2.CV_16SC2)
        self.bands = band_maps(self.cfg, cal)
        fine = self.cfg.detail()  # the same configuration when dice are read at the board's resolution
        self.detail = Warp(maps) if fine is self.cfg else Warp(warp_maps(fine, cal, cube_pad(fine)), cube_pad(fine))
        self.detail_bands = None if fine is self.cfg else band_maps(fine, cal)
        self.view = camera_view(self.cfg, cal)
        point_label_tables(self.cfg, layer_steps(self.cfg, cal.layout, self.view))  # worked out now, not on the first frame

    def __call__(self, image: Image) -> dict[str, Any]:
        return read_board(self.cfg, self.cal, image, self.maps, self.bands, self.detail, self.detail_bands, self.view)
