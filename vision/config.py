"""Thresholds of the board reader and of calibration (one place, no literals in the stages)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from vision.board import BoardFinderConfig
from vision.geometry import BoardGeometry
from vision.pips import PipConfig
from vision.start_layout import PatternConfig


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """How a calibrated frame is read."""

    geometry: BoardGeometry = field(default_factory=BoardGeometry)
    pips: PipConfig = field(default_factory=PipConfig)  # how a die's face crop is read
    # count each point's checkers with the learned counter (vision.point_strips): it beats the colour profiles on the
    # independent renders' dev split and ties or beats them on the project's own held-out renders (docs/learned-points.md)
    learned_points: bool = True
    learned_min: float = 0.9  # ... whose count stands where it is at least this sure (else only where the colour profiles agree)
    px_per_mm: float = 1.0  # resolution of the canonical top-down image (the points, the bar, finding dice and the cube)
    detail_px_per_mm: float = 2.0  # resolution of the windows a die's pips and the cube's numeral are read on
    focal_per_width: float = 0.77  # focal length / image width when the image cannot tell: Camera Module 3, 66° across
    profile_length: float = 150.0  # mm sampled along each point from its base (half the depth: the opposite stack starts there)
    profile_step: float = 1.0  # mm between samples
    strip_half_width: float = 1.5  # mm either side of each sampled line
    lateral_lines: tuple[float, ...] = (0.0, -8.0, 8.0)  # mm off a point's centre line, sampled along it
    base_skip: float = 4.0  # mm at a point's base that are not scored (shade of the frame)
    max_shift: int = 4  # mm a stack may sit off its nominal place along the point
    layer_parallax: float = 1.0  # share of their height's parallax by which a second and third layer are looked for where the camera sees them
    layer_step_resolution: float = 1.0  # mm: points whose layers are seen this nearly alike share one table
    rim_inner: float = 0.70  # inner radius of a checker's copper rim / its radius
    min_std: tuple[float, float, float] = (14.0, 4.0, 4.0)  # floor of a colour class's spread (Lab)
    spread_penalty: float = 1.0  # a broad colour class pays the log of its spread (a proper density), times this
    loglik_floor: float = -14.0  # a sample explains nothing worse than this
    unexplained_loglik: float = -9.0  # below this for every class a sample is "foreign"
    occluded_fraction: float = 0.25  # a point with more foreign samples is occluded
    arm_min_width: float = 35.0  # mm along the frame: a crossing this wide is an arm, not a die or the cube
    arm_frame_distance: float = 30.0  # Lab distance from the frame's wood that is not the frame
    arm_across_share: float = 0.9  # of the frame band's width (its strips that look like the frame along the side) that must be crossed
    arm_wood_loglik: float = -9.0  # a crossing this likely under the field's or the bar's wood is a shadow, not an arm
    arm_colour_distance: float = 22.0  # Lab distance from the arm's colour where it crosses that is still the arm
    arm_point_share: float = 0.1  # a point with this share of its samples under the arm is covered
    strict_share: float = 0.5  # when anything covers the board, these limits shrink to this share
    min_mean_fit: float = -6.0  # a point explained this badly (mean log-likelihood) by its best reading is covered
    lone_min_fit: float = -10.0  # ... unless better than this, alone, its neighbours explained well (a dim corner, not a hand)
    bar_profile_start: float = 13.0  # mm from the board's centre (leaves room for the cube)
    sheen_cost: float = 3.0  # log-likelihood a wood sample pays for being explained as the lamp's glare on the varnish (inf: never)
    sheen_tint: float = 6.0  # Lab a and b spread the glare adds, as it nears the lamp's colour (a lamp unlike the calibration's)
    bar_max: int = 4  # checkers a player can have visible on the bar
    # dice and cube: light, nearly grey blobs
    white_min_lightness: float = 40.0  # Lab L above the board's local lightness (or the frame's, if lighter)
    background_window: float = 32.0  # mm: light things smaller than this are not background
    background_step: int = 4  # the background is estimated at this fraction of the resolution
    white_max_chroma: float = 22.0
    die_max_chroma: float = 34.0  # Lab chroma from grey or the calibrated white of light things the grey test missed wholly: ivory dice (b* up to ~32) and tinted light (0: not looked for)
    cube_min_loglik: float = -4.5  # a pixel this likely under the cube's learned colour is cube
    ivory_lightness_share: float = 0.5  # the cube's ivory may be this much less light than a die
    ivory_chroma_share: float = 2.0  # and this much more coloured (L1 chroma vs the die's Euclidean limit)
    cube_min_lightness: float = 55.0  # off the playing surface: Lab L above the wood's that may be the cube
    cube_max_chroma: float = 50.0  # and its L1 chroma (a cream cube under a warm lamp)
    white_split_open: float = 12.0  # mm: opening that parts a too-long light blob (dice and cube survive it)
    wood_level: float = 110.0  # the frame's brightest channel is scaled to this before anything is learned or read
    light_cell: float = 20.0  # mm: the frame and bar are sampled in cells this long to map the lamp's falloff
    light_fit_rounds: int = 3  # robust refits of that map
    light_fit_min_cut: float = 0.04  # log-brightness residual always kept in the fit (wood grain)
    min_gain: float = 0.25  # per-channel light normalisation limits
    max_gain: float = 4.0
    unclipped_share: float = 0.5  # of the playing surface's pixels, the lightest, that the dice's light normalisation may clip: the leather, most of it, never
    white_margin: float = 7.0  # mm around the light tops of dice and cube where checkers' colours are not scored
    rim_white_margin: float = 4.5  # mm around them where copper rims are not looked for
    white_close: float = 4.0  # mm: closing that bridges pips and numerals
    white_open: float = 4.5  # mm: opening that removes thin copper highlights
    face_search_step: float = 1.5  # mm between the places a flat die's top face is tried at in its footprint
    die_crop_px: int = 48  # a die's top face is resampled to this square for counting pips
    blob_min_side: float = 8.0  # mm: smaller light blobs are highlights (a cube may be partly hidden)
    die_min_side: float = 13.0  # mm (two touching copper rims make thinner bright slivers)
    tipped_min_side: float = 10.5  # mm: a narrower blob may still be a die whose top is foreshortened by its tilt (cocked; one leaning on the frame showed 11.0) ...
    tipped_min_long: float = 13.5  # ... when it is about a die's length the other way (a dim lamp's cocked top measured 12.0 by 14.0)
    die_max_side: float = 23.0  # mm: the shorter side of a die's footprint (edges blur outwards)
    cube_past_outline: float = 40.0  # mm past the board's long sides that a cube on the frame may seem to lie at
    frame_die_slack: float = 4.0  # mm: a die seen past the outline is one on the frame when its base lies this near the frame
    cube_past_contrast: float = 20.0  # Lab L by which the cube there is lighter than most of the band (frame, table)
    cube_past_share: float = 0.4  # and the share of the way from most of the band up to its lightest
    cube_patch: float = 1.3  # half-side of the patch the cube is read on, in cube edges
    cube_min_seen: float = 0.9  # share of the cube's face that must lie in the camera's image to be read
    cube_face_tries: int = 3  # places on the patch the face of a cube cut by the outline is read at
    cube_face_share: float = 0.8  # of the lightest lightness on that patch that the cube's face has
    cube_ring: float = 0.25  # band around the cube's square, in cube edges, that should not look like its face
    cube_numeral_close: float = 5.0  # mm: closing that fills the numerals' ink into the cube's face
    cube_square_tolerance: float = 0.25  # the face's outline is the cube's when both sides are within this share of its edge
    cube_min_score: float = 0.05  # the learned reader's probability of a numeral that makes a blob the cube
    cube_sure: float = 0.6  # a reading this sure off the playing surface needs no further look
    # a numeral read less surely is reported unread (value null), the cube's place still given: on faces drawn in the
    # training typefaces (benchmarks/cube_faces.py, seeds apart from training), readings this sure were 98.8% right
    # (0.9: 99.5%, but a clear cube on the project's Blender renders, read right at 0.84, went unread)
    cube_value_min: float = 0.8
    min_fill: float = 0.7  # blob area / its rectangle: dice and cube are square
    unread_min_fill: float = 0.8  # the same, for a blob whose pips are not read surely (copper highlights are arcs)
    unclean_max_dimming: float = 40.0  # Lab L: how far a less square blob's median, or an unread square's, may lie below the cube's white
    unclean_min_confidence: float = 0.8  # a less square blob, or a grey one, is a die only with pips read this surely
    die_min_face_std: float = 8.0  # Lab L spread (std) over a die's footprint: its pips mark it, a glare on the varnish is plain
    max_footprint: float = 27.0  # mm: the longer side of any die or cube footprint
    band_max_footprint: float = 32.0  # the same past the outline, where a cube on the frame shows a side face beside its top
    side_min_lightness: float = 35.0  # Lab L above the local board that a die's dimmer side face still has
    side_max_chroma: float = 40.0  # and its L1 chroma
    footprint_open: float = 8.0  # mm: opening that trims thin spurs off a die's footprint before it is judged
    die_window_margin: float = 13.0  # mm past a die's top that its window at the finer look takes in (a cocked die's side face shows 5-8)
    cube_centre_radius: float = 45.0  # mm from the board's centre along the bar
    cube_centre_margin: float = 5.0  # mm either side of the bar that still count as the centre
    cocked_face_shares: tuple[float, ...] = (0.8, 0.9)  # a cocked die's top face is foreshortened to these shares of its edge
    top_face_apart: float = 3.0  # mm farther from the camera's foot that a face reading another value is the top ...
    top_face_share: float = 0.6  # ... when its pips fit at least this share as well (a crop past a die's edge fits corner pips)
    one_pip_share: float = 0.8  # a 1 read yields to a read of more pips fitting this share as well, of the same face or one farther from the camera
    tipped_retry_confidence: float = 0.3  # a die no square face reads is cocked when a foreshortened face reads this surely
    unclean_tipped_margin: float = 30.0  # and, for a blob that is no clean rectangle, with a pip fit margin this high (a die's reads 40-80, the light between two rims 15-20)
    alike_distance: float = 4.5  # inlay and leather closer than this (in class spreads) cannot be told apart: a checker 8 mm
    # above the leather catches the lamp differently (a warm lamp's hotspot put the same leather 3.1 apart; Blender tuning seed)
    alike_kind_distance: float = 9.0  # a point of the inlay's own kind of leather (parted from the other kind by the widest gap) may lie this far
    max_foreign_share: float = 0.9  # more of the board unrecognised than this: the board is not in view
    max_hidden_share: float = 0.8  # more points hidden than this: no reading at all
    rim_only_checker_cost: float = 8.0  # the same where a checker's inlay is the point's own leather
    borrowed_shade_max: float = 40.0  # Lab L: how much darker a point with a borrowed look may be overall and still be judged bare
    borrowed_shade_chroma: bool = True  # the shade dulls the leather's colour too (a and b taken back toward the look by L's share)
    bare_shade_max: float = 12.0  # the same on points bare at the start (their look measured): a lamp's drift may shade them since
    borrowed_shade_window: float = 40.0  # mm along the point over which that shade is taken as even
    checker_cost: float = 4.0  # log-likelihood a checker's evidence must exceed (shadows and dice edges are not checkers)
    rim_edge: tuple[float, float] = (5.0, 9.0)  # ring strength (Lab L per mm, see points.rim_strengths) that says empty ... filled (at 1 px/mm: a finer image sees the edges sharper)
    rim_blur: float = 0.5  # mm: the lightness is smoothed this much before its edges are taken
    rim_radii: tuple[float, float] = (-2.5, 0.5)  # mm about the checker's radius where its rim's edges are looked for
    rim_search: tuple[float, float] = (7.5, 1.5)  # mm a checker may lie off its place, along the point and across it (players push them about)
    rim_overlap: float = 2.0  # mm by which two checkers of a layer may seem to overlap (blur, a checker's tilt)
    rim_share: float = 0.7  # of the ring's angles that must show the edge (the rest may touch a neighbour or a point's side)
    confidence_margin: float = 6.0  # log-likelihood margin that counts as certain
    third_layer_on_second: bool = True  # a count past ten only where ten checkers explain the point better than five
    extra_checker_gain: float = 30.0  # a colour read with more than fifteen checkers loses the last checker of a point that
    extra_checker_apart: float = 5.0  # explains it less than this better than one fewer, and this many times less than any other

    def detail(self) -> ReaderConfig:
        """This configuration at the resolution dice and the cube are read at."""
        return _at_detail(self)


@lru_cache(maxsize=8)
def _at_detail(cfg: ReaderConfig) -> ReaderConfig:  # made once: a reading asks for it per die and cube
    return cfg if cfg.detail_px_per_mm == cfg.px_per_mm else replace(cfg, px_per_mm=cfg.detail_px_per_mm)



@dataclass(frozen=True, slots=True)
class CalibrationConfig:
    """How calibration finds the board and learns the set from the start position."""

    finder: BoardFinderConfig = field(default_factory=BoardFinderConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    rim_band: tuple[float, float] = (0.78, 0.93)  # radii (fraction of checker radius) sampled as copper
    copper_parts: int = 3  # copper is learnt in this many colour parts (highlight, lit, shade)
    inlay_radius: float = 0.5  # radius sampled as inlay
    inlay_parts: bool = True  # each start stack's inlays also learnt as a class of their own (read by the best)
    # the layout, from the start position's pattern of checkers; which inlay is dark's (PatternConfig.dark_inlay)
    pattern: PatternConfig = field(default_factory=PatternConfig)
    # the camera's pose, reported to check the mount (the lens's focal length prior is the reader's)
    max_tilt_deg: float = 18.0  # warned about beyond this tilt (the design limit is 15°; the estimate errs by up to 3°)
    # the lens, fitted to the start checkers' rims
    ring_margin: float = 3.0  # mm of board around the rim in its template
    ring_search: float = 8.0  # mm a start checker is looked for around its place
    ring_min_score: float = 0.15  # correlation with a checker's edges that counts as found
    ring_edge_width: float = 1.5  # mm: the width of each edge ring in that template
    ring_blur_mm: float = 0.5  # smoothing before the edges are taken
    min_start_checkers: int = 16  # of the 30 (first layer), needed to refit the lens
    min_wide_checkers: int = 12  # the same for a wide refit, which the start position's read-back judges anyway
    max_barrel: float = 0.2  # barrel coefficient search range (normalised by the image's longer side) ...
    max_pincushion: float = 0.12  # ... and pincushion's (a negative coefficient)
    fit_outlier_mm: float = 5.0  # a checker seen farther than this from its place under the fit is another's, or none
    barrel_step: float = 0.004
    refit_rounds: int = 2
    min_refit_gain: float = 0.9  # a refit must cut the checkers' misfit (mm) by at least this factor
    wide_refit_searches: tuple[float, ...] = (24.0, 14.0, 8.0)  # mm: the second try's refits, looking ever nearer
    # the lamp's colour (and a camera's white balance off), measured on the cube that stands white in the middle at the
    # start and divided out before anything is learned: the colour tests downstream then judge white against grey
    balance_radius: float = 0.4  # of the cube's edge: the disc about the board's centre sampled as the cube
    balance_share: float = 0.4  # its brightest share of pixels (the face, not the numeral or a shade)
    balance_clip: int = 250  # a pixel with a channel this bright is clipped: its colour is not the lamp's
    balance_min_contrast: float = 1.2  # the cube's brightness over the frame's, else no cube is there (nothing undone)
    balance_max_gain: float = 3.0  # a channel's gain beyond this (either way) is no lamp's colour: nothing undone
    # a cube may be ivory, which a faintly warm lamp's white cube also looks: a cast this small (the length of the cube's
    # log colour about its mean, natural log) is left, and a larger one undone only down to it. The colour tests read
    # casts up to 0.35 as they are (dev: a neutral lamp's cube; balanced down to 0.15 or 0.25, two dev starts lost
    # their read-back); a 2700 K bulb's is ~0.75, a 3500 K one's ~0.4
    balance_ivory: float = 0.4
    max_start_amiss: int = 4  # points a fit's read-back of the start may miscount or leave unread (each checker where the start has its player's) ...
    min_rings_in_place: int = 24  # ... when this many of the 30 start checkers' rings are found ...
    ring_in_place_mm: float = 3.0  # ... this near where the fit puts them ...
    ring_in_place_px: float = 2.0  # ... or this many image pixels, where that is farther (a board seen coarsely) ...
    ring_coarse_px_per_mm: float = 1.0  # ... and, seen at fewer image pixels per mm, the rings not found are excused
    # ((scale x, scale y), shift mm) of the best fit, tried in turn when it does not read as the start position
    perturbations: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = tuple(
        [((f, f), (0.0, 0.0)) for f in (0.97, 1.03)]
        + [((1.0, f), (0.0, 0.0)) for f in (0.94, 1.06, 0.9, 1.1)]
        + [((1.0, 1.0), d) for d in ((6.0, 0.0), (-6.0, 0.0), (0.0, 6.0), (0.0, -6.0))]
        + [((f, 1.0), (0.0, 0.0)) for f in (0.96, 1.04)]
    )
