"""Checkers on the points and the bar, read from the colours along each point's centre line.

Checker counts are read generatively: for every point and every hypothesis (0..15
checkers, dark or light, stack shifted a few mm along the point) the colour classes
expected along the point's centre line are known from the set's geometry (copper rim,
inlay, leather, wood; a sixth to tenth checker lies on the first layer, offset, and so
on). The hypothesis whose expected classes best explain the sampled colours wins;
its margin over the best other count is the confidence. Samples that no class
explains are foreign (a hand, an arm, a cup); a point with many of them is reported
as occluded instead of guessed.

With the learned counter on (``vision.point_strips``, the default) these readings give each count its
colour (``StackReading.lean``), say where colours no class explains lie (``foreign``), and count only where
the network is unsure; calibration reads the start position back with them alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache, reduce
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, parabola_vertex
from vision.config import ReaderConfig
from vision.geometry import Layout, START_POINTS, checker_centre, point_axis
from vision.light import camera_view, normalise_light
from vision.pose import Viewpoint
from vision.profiles import ColourClass, gaussian_loglik, lab8_image

Image = NDArray[np.uint8]


COPPER, INLAY, LEATHER, FIELD = 0, 1, 2, 3


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


@dataclass(frozen=True, slots=True)
class StackReading:
    count: int | None  # signed: + dark, - light; None when occluded
    confidence: float
    foreign: float  # fraction of samples that no colour class explains
    lean: tuple[float, ...] = ()  # per count 0..15: how much better dark checkers explain the colours than light


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
def neighbour_points(cfg: ReaderConfig, layout: Layout) -> NDArray[np.bool_]:
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
                   arm_share: NDArray[np.float64] | None = None) -> NDArray[np.bool_]:
    """(24,) the points something lies over, to be reported ``occluded``, from how well each point's best
    reading explains it (``fits``, mean log-likelihood), the share of its samples no class explains
    (``foreign``), which points are ``neighbours`` and the share of each under an arm seen crossing the frame.
    (Calibration's read-back and the colour profiles' fallback use it; the learned counter has its own class.)"""
    covered = (foreign > cfg.occluded_fraction) | (fits < cfg.min_mean_fit)
    # a point explained only a little worse, alone, nothing foreign on it and its neighbours explained well,
    # is a corner where the lamp's falloff was under-corrected: read it (what covers a point reaches the next)
    strict_fit, strict_foreign = cfg.min_mean_fit * cfg.strict_share, cfg.occluded_fraction * cfg.strict_share
    troubled = (fits < strict_fit) | (foreign > strict_foreign)
    alone = (fits >= cfg.lone_min_fit) & (foreign <= strict_foreign) & ~(neighbours & troubled[None, :]).any(axis=1)
    covered &= ~alone
    if arm_share is not None:
        covered |= arm_share >= cfg.arm_point_share
    if covered.any():  # something is over the board: be stricter with every point it may reach
        covered |= troubled
        # and strictest beside what it covers: an arm's edge or a hand's fingertips hide part of the next point
        near = (neighbours & covered[None, :]).any(axis=1)
        share = cfg.strict_share * cfg.strict_share
        covered |= near & ((foreign > cfg.occluded_fraction * share) | (fits < cfg.min_mean_fit * share))
    return covered


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


def rim_strengths(cfg: ReaderConfig, cal: Calibration, canon: Image) -> NDArray[np.float32]:
    """(24, 5) the ring strength (Lab L per mm) at each first-layer place of a canonical image (its light
    normalised here): calibration keeps the bare board's (``Calibration.bare_rims``).

    A checker's copper rim is a circle of known size whose edges run round it (lightness changing across
    the ring, whatever the colours); the strength is the edge across the ring that ``rim_share`` of its
    angles reach, at the best radius per angle and the best place within ``rim_search``. Checkers of one
    layer do not overlap: past a place that shows a ring (stronger than the middle of ``rim_edge``), the next
    place's ring is looked for only where it clears that one (but for ``rim_overlap``), else the first
    checker's own arc would pass for the second's ring."""
    lightness = lab8_image(normalise_light(cfg, cal, canon))[..., 0]
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
    mid = np.float32(sum(cfg.rim_edge) / 2)
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
        after = np.where(strength[:, k] > mid, along[best] + vertex * step, -np.inf)
    return strength


def read_points(cfg: ReaderConfig, cal: Calibration, profiles: NDArray[np.float32], ignore: NDArray[np.bool_],
                under_arm: NDArray[np.bool_] | None = None, view: Viewpoint | None = None) -> list[StackReading]:
    """Counts on all 24 points at once: profiles (24, S, 3) -> readings; ``ignore`` (24, S) marks dice and cube,
    ``under_arm`` (24, S) an arm seen crossing the frame (see :func:`arm_over_board`); ``view`` the camera's
    viewpoint, if already known."""
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
    if cfg.third_layer_on_second:
        # a third layer lies on a full second: where ten checkers explain a point worse than five, there is no
        # second layer, and a count past ten only matches a third layer's places to what lies past the stack
        # (under a dim lamp, an orange inlay's darkest look is the walnut's colour)
        scores[..., 11:] = np.where((scores[..., 10] < scores[..., 5])[..., None], np.float32(-1e9), scores[..., 11:])
    arm_share = None if under_arm is None else (under_arm & ~ignore).sum(axis=1) / seen
    neighbours = neighbour_points(cfg, cal.layout)
    covered = covered_points(cfg, fits, foreign, neighbours, arm_share)
    out = []
    leans = [tuple(float(v) for v in scores[i, 0] - scores[i, 1]) for i in range(24)]
    for i in range(24):
        frac = float(foreign[i])
        if covered[i]:
            out.append(StackReading(None, 0.0, frac, leans[i]))
            continue
        sc = scores[i]
        best_per_n = sc.max(axis=0)
        n = int(np.argmax(best_per_n))
        margin = float(best_per_n[n] - np.delete(best_per_n, n).max())
        colour_margin = float(abs(sc[0, n] - sc[1, n])) if n else margin
        conf = float(np.clip(min(margin, colour_margin) / cfg.confidence_margin, 0.0, 1.0))
        out.append(StackReading(n if sc[0, n] >= sc[1, n] else -n, conf, frac, leans[i]))
    # what each checker adds: backing[i, n] is how much better n checkers of the colour read explain point i than n - 1
    colour = np.array([int((r.count or 0) < 0) for r in out])
    backing = np.concatenate([np.full((24, 1), np.inf, np.float32), np.diff(scores[np.arange(24), colour], axis=-1)], axis=1)
    for i, taken in Counter(extra_checkers(cfg, [r.count for r in out], backing)).items():
        n, c = abs(out[i].count or 0), int(colour[i])
        m = n - taken
        others = np.delete(scores[i, c], np.arange(m, n + 1))
        conf = float(np.clip((scores[i, c, m] - others.max()) / cfg.confidence_margin, 0.0, 1.0))
        out[i] = StackReading(m * (1 if c == 0 else -1), conf, out[i].foreign, leans[i])
    for i in overcounted([r.count for r in out], fits):
        out[i] = StackReading(None, 0.0, out[i].foreign, leans[i])
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
