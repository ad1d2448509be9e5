"""A seeded scene description: what lies where, what it looks like, and the truth it implies.

Every random choice is drawn under a named *factor* (``FACTORS``), so a benchmark can
fix a factor's value or hold values out.  The truth (:meth:`Scene.reading`) comes from
the description alone, in board-spec.md's JSON contract.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

from . import board as B
from .board import Position, Seating
from .camera import Mounting
from .fonts import typefaces

# factor -> its values (each value is a bin the scene's numbers are drawn within)
FACTORS: dict[str, tuple[str, ...]] = {
    "turn": ("0", "90", "180", "270", "oblique"),
    "side": ("south", "north"),
    "tilt": ("0-7", "7-14", "14-20"),
    "height": ("450-600", "600-750", "750-900"),
    "lens": ("pinhole", "barrel", "strong-barrel", "pincushion"),
    "fill": ("40-60", "60-80", "80-95"),
    "defocus": ("sharp", "soft"),
    "lamp": ("warm", "neutral", "cool"),
    "sources": ("one", "two"),
    "shadows": ("soft", "hard"),
    "dim": ("bright", "dim"),
    "leather": ("light", "mid", "dark"),
    "copper": ("polished", "tarnished"),
    "walnut": ("light", "dark"),
    "stacking": ("centred", "end", "skewed", "towers", "loose"),
    "position": ("start", "midgame", "bar", "bearoff", "crowded"),
    "dice": ("none", "one", "two", "opening"),
    "cocked": ("flat", "cocked"),
    "pips": ("small", "large"),
    "corners": ("sharp", "round"),
    "ivory": ("white", "ivory"),
    "cube": ("centre", "dark", "light", "none"),
    "typeface": tuple(typefaces()),
    "arms": ("none", "arm", "sleeve", "cup"),
    "noise": ("low", "high"),
    "motion": ("none", "blur"),
    "jpeg": ("60-75", "75-95"),
    "white_balance": ("true", "off"),
    "home": ("east", "west"),
    "dark_seat": ("south", "north"),
    "table": ("green", "grey", "wood", "red"),
}
CUBE_FACES = (2, 4, 8, 16, 32, 64)
# factors of a camera setup (camera, lamp, set, seating): fixed while a set is calibrated once and then read
SETUP_FACTORS = ("turn", "side", "tilt", "height", "lens", "fill", "defocus", "lamp", "sources", "shadows", "dim", "leather",
                 "copper", "walnut", "white_balance", "home", "dark_seat", "table")


def _span(value: str) -> tuple[float, float]:
    a, b = value.split("-")
    return float(a), float(b)


@dataclass(frozen=True, slots=True)
class Checker:
    colour: str
    x: float
    y: float
    z: float  # bottom face, mm above the leather


@dataclass(frozen=True, slots=True)
class Die:
    value: int  # the face up (for a cocked die: the face most up)
    x: float
    y: float
    yaw: float  # degrees
    flat: bool = True
    lean: float = 0.0  # degrees of tilt when cocked
    lean_dir: float = 0.0  # azimuth of the tilt axis
    pip: float = 0.17  # pip diameter / edge
    corner: float = 0.12  # corner radius / edge
    tint: tuple[int, int, int] = (235, 240, 242)  # BGR
    z: float = 0.0


@dataclass(frozen=True, slots=True)
class Cube:
    value: int  # 1 (64 up in the centre), 2 .. 64
    position: str  # centre, dark, light
    x: float
    y: float
    z: float
    yaw: float
    typeface: str

    @property
    def face_up(self) -> int:
        return 64 if self.value == 1 else self.value


@dataclass(frozen=True, slots=True)
class Look:
    """Materials, lamp and camera faults: colours BGR 0..255."""

    olive: tuple[int, int, int]
    orange: tuple[int, int, int]
    dark_inlay: tuple[int, int, int]
    light_inlay: tuple[int, int, int]
    copper: tuple[int, int, int]
    shine: float  # specular strength 0..1
    walnut: tuple[int, int, int]
    table: tuple[int, int, int]
    kelvin: float
    lamps: tuple[tuple[float, float, float], ...]  # (x, y, strength) lamp positions over the board, mm
    shadow_blur: float  # mm
    shadow_depth: float  # 0..1
    gain: float  # overall brightness
    wb: tuple[float, float, float]  # white balance error per channel
    noise: float  # grey levels
    defocus: float  # px sigma
    motion: tuple[float, float]  # length px, angle deg
    jpeg: int
    grain_seed: int  # the set's own wood and leather grain
    noise_seed: int = 0  # this frame's sensor noise


@dataclass(frozen=True, slots=True)
class Arm:
    kind: str  # arm, sleeve, cup
    from_edge: float  # angle around the board (deg) the arm comes from
    reach: float  # mm from the board's centre the hand reaches
    width: float  # mm
    colour: tuple[int, int, int]
    skin: tuple[int, int, int]


@dataclass(frozen=True)
class Scene:
    seating: Seating
    mounting: Mounting
    position: Position
    checkers: tuple[Checker, ...]
    dice: tuple[Die, ...]
    cube: Cube | None
    look: Look
    arms: tuple[Arm, ...] = ()
    factors: dict[str, str] = field(default_factory=dict)
    seed: int = 0

    def reading(self) -> dict[str, Any]:
        """The truth in board-spec.md's JSON contract."""
        p = self.position
        return {
            "points": list(p.points),
            "bar": {"dark": p.bar[0], "light": p.bar[1]},
            "off": {"dark": p.off("dark"), "light": p.off("light")},
            "dice": [{"value": d.value, "flat": d.flat, "half": B.half_at(self.seating, d.x, d.y)} for d in self.dice],
            "cube": None if self.cube is None else {"value": self.cube.value, "position": self.cube.position},
        }


# --- placing checkers -------------------------------------------------------------------

def stack_spots(style: str, n: int, rng: random.Random) -> list[tuple[float, float, float]]:
    """(along, across, z) of n checkers on a point: along = mm from the point's base,
    across = mm off its centre line.  Five lie in a row; 6-10 on a second layer,
    11-15 a third, placed per ``style``."""
    r = B.CHECKER_D / 2
    out = []
    for i in range(n):
        layer, k = divmod(i, 5)
        if style == "towers":
            # columns: the first layer's spots take the later checkers straight on top
            col, lvl = (i % 5, i // 5) if n > 5 else (i, 0)
            out.append((min(r + B.CHECKER_D * col + rng.uniform(-0.6, 0.6), B.SURFACE_D / 2 - r - 0.5), rng.uniform(-0.8, 0.8), lvl * B.CHECKER_T))
            continue
        base = r + B.CHECKER_D * k
        across = 0.0
        if layer > 0:
            if style == "centred":
                base += B.CHECKER_D / 2 * (1 if layer == 1 else 0.5)
            elif style == "end":
                base += 0.0 if layer == 1 else B.CHECKER_D / 2
            elif style == "skewed":
                base += B.CHECKER_D / 3
                across = (4.0 if layer == 1 else -4.0) + rng.uniform(-1.5, 1.5)
            elif style == "loose":
                base += rng.uniform(0, B.CHECKER_D / 2)
                across = rng.uniform(-3.5, 3.5)
        if style == "loose":
            base += k * rng.uniform(0.2, 0.8)
            across += rng.uniform(-2, 2)
        # never past the middle of the board: the facing point's checkers lie there
        along = min(base + rng.uniform(-0.5, 0.5), B.SURFACE_D / 2 - r - 0.5)
        out.append((along, across + rng.uniform(-0.7, 0.7), layer * B.CHECKER_T))
    return out


def place_checkers(seating: Seating, pos: Position, style: str, rng: random.Random) -> tuple[Checker, ...]:
    out = []
    for p, n in enumerate(pos.points, start=1):
        if n == 0:
            continue
        colour = "dark" if n > 0 else "light"
        x, y_base, inward = B.point_frame(seating, p)
        for along, across, z in stack_spots(style, abs(n), rng):
            out.append(Checker(colour, x + across, y_base + inward * along, z))
    for i, colour in enumerate(("dark", "light")):
        # on the bar ridge, on the owner's half of it (the owner's side of the table), the middle kept for the cube
        sy = B.side_y_sign(seating, colour)
        for k in range(pos.bar[i]):
            lvl, j = divmod(k, 4)
            out.append(Checker(colour, rng.uniform(-0.8, 0.8), sy * (B.CUBE / 2 + 2 + B.CHECKER_D * (j + 0.5)), B.RIM_H + lvl * B.CHECKER_T))
    return tuple(out)


# --- positions ----------------------------------------------------------------------------

def random_position(kind: str, rng: random.Random) -> Position:
    """A position a game can reach: from the start, checkers moved forward at random
    (hits send to the bar, bearing off only from home)."""
    pos = Position.start()
    if kind == "start":
        return pos
    steps = {"midgame": (6, 30), "bar": (8, 30), "crowded": (4, 12), "bearoff": (0, 0)}[kind]
    if kind == "bearoff":
        pts = [0] * 24
        for colour, sign in (("dark", 1), ("light", -1)):
            left = rng.randint(5, 15)
            for _ in range(left):
                p = rng.randint(1, 6)
                pts[(p - 1) if sign > 0 else (24 - p)] += sign
        return Position(tuple(pts))
    for _ in range(rng.randint(*steps)):
        colour = rng.choice(("dark", "light"))
        pos = _random_step(pos, colour, rng, crowd=kind == "crowded")
    if kind == "bar" and pos.bar == (0, 0):
        colour = rng.choice(("dark", "light"))
        sign = 1 if colour == "dark" else -1
        # hit a lone checker or, failing that, lift one from a point: a hit in the game's past
        cands = [i for i, n in enumerate(pos.points) if n * sign > 0]
        i = rng.choice(cands)
        pts = list(pos.points)
        pts[i] -= sign
        bar = list(pos.bar)
        bar[0 if colour == "dark" else 1] += 1
        pos = Position(tuple(pts), (bar[0], bar[1]))
    return pos


def _mine(pos: Position, colour: str) -> list[int]:
    """The mover's own point numbers holding their checkers."""
    sign = 1 if colour == "dark" else -1
    return [(i + 1) if sign > 0 else (24 - i) for i, n in enumerate(pos.points) if n * sign > 0]


def _random_step(pos: Position, colour: str, rng: random.Random, crowd: bool) -> Position:
    me = 0 if colour == "dark" else 1
    d = rng.randint(1, 6)
    srcs = [25] if pos.bar[me] else _mine(pos, colour)
    home = all(p <= 6 for p in _mine(pos, colour)) and not pos.bar[me]
    rng.shuffle(srcs)
    if crowd:  # pile onto few points: tall stacks (second and third layers)
        srcs.sort(key=lambda p: -p)
    for src in srcs:
        dst = src - d
        if dst <= 0:
            if not home:
                continue
            dst = 0
        try:
            return pos.move(colour, src, dst)
        except ValueError:
            continue
    return pos


# --- the whole scene ----------------------------------------------------------------------

def choose(rng: random.Random, factors: dict[str, str] | None = None, hold_out: dict[str, tuple[str, ...]] | None = None) -> dict[str, str]:
    """A value for every factor: ``factors`` fixes some, ``hold_out`` bars some values."""
    fixed = dict(factors or {})
    out = {}
    for name, values in FACTORS.items():
        allowed = [v for v in values if v not in (hold_out or {}).get(name, ())]
        if name in fixed:
            out[name] = fixed[name]
        elif allowed:
            # one draw per factor whatever its number of values: fonts differ between machines, the rest stays put
            out[name] = allowed[min(int(rng.random() * len(allowed)), len(allowed) - 1)]
        else:
            raise ValueError(f"every value of factor {name!r} is held out")
    return out


def kelvin_bgr(k: float) -> tuple[float, float, float]:
    """Rough lamp colour of a black body at k kelvin (Tanner Helland's fit), BGR 0..1, green = 1."""
    t = k / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    return b / g, 1.0, r / g


def mounting_for(f: dict[str, str], rng: random.Random) -> Mounting:
    turn = {"0": 0.0, "90": 90.0, "180": 180.0, "270": 270.0}.get(f["turn"])
    if turn is None:
        turn = rng.choice([rng.uniform(5, 85), rng.uniform(95, 175), rng.uniform(185, 265), rng.uniform(275, 355)])
    else:
        turn += rng.uniform(-3, 3)
    k1 = {"pinhole": 0.0, "barrel": rng.uniform(0.05, 0.15), "strong-barrel": rng.uniform(0.15, 0.3), "pincushion": rng.uniform(-0.1, -0.03)}[f["lens"]]
    return Mounting(side=f["side"], tilt=rng.uniform(*_span(f["tilt"])), height=rng.uniform(*_span(f["height"])), turn=turn % 360,
                    fill=rng.uniform(*_span(f["fill"])) / 100.0, k1=k1, aim=(rng.uniform(-15, 15), rng.uniform(-10, 10)))


def look_for(f: dict[str, str], rng: random.Random) -> Look:
    def jitter(c: tuple[int, int, int], s: float = 10) -> tuple[int, int, int]:
        return tuple(int(min(255, max(0, v + rng.uniform(-s, s)))) for v in c)  # type: ignore[return-value]

    shade = {"light": 1.2, "mid": 1.0, "dark": 0.75}[f["leather"]]
    olive = jitter(tuple(int(v * shade) for v in (45, 100, 95)))  # type: ignore[arg-type]
    orange = jitter(tuple(int(min(255, v * shade)) for v in (40, 95, 190)))  # type: ignore[arg-type]
    # the inlays are the same leathers, a shade apart from the points
    dark_inlay = jitter(tuple(int(v * 0.85) for v in olive), 6)  # type: ignore[arg-type]
    light_inlay = jitter(tuple(int(min(255, v * 1.05)) for v in orange), 6)  # type: ignore[arg-type]
    copper = jitter((70, 120, 200)) if f["copper"] == "polished" else jitter((60, 85, 125))
    walnut = jitter((40, 70, 110) if f["walnut"] == "light" else (22, 38, 62), 8)
    table = {"green": (60, 110, 50), "grey": (120, 120, 118), "wood": (60, 100, 150), "red": (50, 50, 140)}[f["table"]]
    lo, hi = {"warm": (2700, 3500), "neutral": (3500, 5000), "cool": (5000, 6500)}[f["lamp"]]
    lamps = tuple((rng.uniform(-400, 400), rng.uniform(-300, 300), rng.uniform(0.6, 1.0)) for _ in range(1 if f["sources"] == "one" else 2))
    wb = (1.0, 1.0, 1.0) if f["white_balance"] == "true" else (rng.uniform(0.8, 1.2), 1.0, rng.uniform(0.8, 1.2))
    return Look(
        olive=olive, orange=orange, dark_inlay=dark_inlay, light_inlay=light_inlay, copper=copper,
        shine=rng.uniform(0.6, 1.0) if f["copper"] == "polished" else rng.uniform(0.1, 0.35),
        walnut=walnut, table=jitter(table, 15), kelvin=rng.uniform(lo, hi), lamps=lamps,
        shadow_blur=rng.uniform(0.5, 2.0) if f["shadows"] == "hard" else rng.uniform(5, 12),
        shadow_depth=rng.uniform(0.35, 0.6) if f["shadows"] == "hard" else rng.uniform(0.15, 0.35),
        gain=rng.uniform(0.9, 1.1) if f["dim"] == "bright" else rng.uniform(0.45, 0.65), wb=wb,
        noise=rng.uniform(1, 3) if f["noise"] == "low" else rng.uniform(4, 8),
        defocus=0.0 if f["defocus"] == "sharp" else rng.uniform(0.8, 1.6),
        motion=(0.0, 0.0) if f["motion"] == "none" else (rng.uniform(3, 7), rng.uniform(0, 180)),
        jpeg=int(rng.uniform(*_span(f["jpeg"]))), grain_seed=rng.randrange(1 << 30), noise_seed=rng.randrange(1 << 30),
    )


def free_spot(rng: random.Random, seating: Seating, half: str, taken: list[tuple[float, float, float]], clear: float = 26.0) -> tuple[float, float] | None:
    """A spot in ``half`` of the playing surface that keeps ``clear`` mm from everything in ``taken`` ((x, y, radius))."""
    sx = B.half_x_sign(seating, half)
    for _ in range(400):
        x = sx * rng.uniform(B.BAR / 2 + 13, B.BAR / 2 + B.HALF_W - 13)
        y = rng.uniform(-B.SURFACE_D / 2 + 13, B.SURFACE_D / 2 - 13)
        if all(math.hypot(x - tx, y - ty) > clear + tr for tx, ty, tr in taken):
            return x, y
    return None


def place_dice(rng: random.Random, seating: Seating, wanted: list[tuple[int, str, bool]], taken: list[tuple[float, float, float]],
               style: dict[str, Any]) -> tuple[Die, ...]:
    """Dice (value, half, flat) set down on free leather in their halves."""
    out = []
    for value, half, flat in wanted:
        xy = free_spot(rng, seating, half, taken)
        if xy is None:
            continue
        taken.append((xy[0], xy[1], 12.0))
        out.append(Die(value, xy[0], xy[1], rng.uniform(0, 90), flat, 0.0 if flat else rng.uniform(18, 32), rng.uniform(0, 360), **style))
    return tuple(out)


def dice_style(f: dict[str, str], rng: random.Random) -> dict[str, Any]:
    return {
        "pip": rng.uniform(0.13, 0.16) if f["pips"] == "small" else rng.uniform(0.17, 0.21),
        "corner": rng.uniform(0.04, 0.09) if f["corners"] == "sharp" else rng.uniform(0.12, 0.2),
        "tint": (238, 242, 244) if f["ivory"] == "white" else (int(rng.uniform(170, 200)), int(rng.uniform(215, 230)), int(rng.uniform(230, 240))),
    }


def cube_at(rng: random.Random, seating: Seating, value: int, position: str, typeface: str) -> Cube:
    if position == "centre":
        return Cube(value, "centre", rng.uniform(-1, 1), rng.uniform(-2, 2), B.RIM_H, rng.uniform(0, 360), typeface)
    # an owned cube sits on the frame on its owner's side of the table
    sy = B.side_y_sign(seating, position)
    x = rng.uniform(-B.WIDTH / 2 + 40, B.WIDTH / 2 - 40)
    if abs(x) < 30:
        x += 60
    return Cube(value, position, x, sy * (B.DEPTH / 2 - B.FRAME / 2), B.RIM_H, rng.uniform(0, 360), typeface)


def arms_for(f: dict[str, str], rng: random.Random) -> tuple[Arm, ...]:
    if f["arms"] == "none":
        return ()
    skin = rng.choice([(150, 180, 225), (110, 140, 190), (70, 95, 140), (50, 65, 95)])
    colour = rng.choice([(40, 40, 40), (150, 60, 30), (200, 200, 200), (40, 40, 140), (90, 120, 90)])
    return (Arm(f["arms"], rng.uniform(0, 360), rng.uniform(20, 170), rng.uniform(70, 100), colour, skin),)


def random_scene(seed: int, factors: dict[str, str] | None = None, hold_out: dict[str, tuple[str, ...]] | None = None,
                 setup: Scene | None = None) -> Scene:
    """A seeded still: every factor drawn (or fixed by ``factors``, never a value in ``hold_out``).
    With ``setup``, its camera, lamp, set and seating are kept (a calibrated camera's next frame)."""
    rng = random.Random(seed)
    fixed = dict(factors or {})
    if setup is not None:
        fixed.update({k: setup.factors[k] for k in SETUP_FACTORS})
    f = choose(rng, fixed, hold_out)
    seating = Seating(B.EAST if f["home"] == "east" else B.WEST, B.SOUTH if f["dark_seat"] == "south" else B.NORTH)
    pos = random_position(f["position"], rng)
    checkers = place_checkers(seating, pos, f["stacking"], rng)
    cube = None
    if f["cube"] != "none":
        value = 1 if f["cube"] == "centre" else rng.choice(CUBE_FACES)
        if f["cube"] == "centre" and rng.random() < 0.3:
            value = rng.choice(CUBE_FACES[:-1])  # a cube back in the middle after a drop shows its face
        cube = cube_at(rng, seating, value, f["cube"], f["typeface"])
    taken = [(c.x, c.y, B.CHECKER_D / 2) for c in checkers if c.z < B.RIM_H or abs(c.x) > B.BAR]
    style = dice_style(f, rng)
    cocked = f["cocked"] == "cocked"
    if f["dice"] == "none":
        wanted: list[tuple[int, str, bool]] = []
    elif f["dice"] == "opening":
        a, b = rng.sample(range(1, 7), 2)
        wanted = [(a, "home", True), (b, "outer", True)]
    else:
        half = rng.choice(("home", "outer"))
        wanted = [(rng.randint(1, 6), half, True) for _ in range(1 if f["dice"] == "one" else 2)]
    if cocked and wanted:
        k = rng.randrange(len(wanted))
        wanted[k] = (wanted[k][0], wanted[k][1], False)
    dice = place_dice(rng, seating, wanted, taken, style)
    mounting, look = mounting_for(f, rng), look_for(f, rng)
    if setup is not None:
        mounting = setup.mounting
        look = replace(setup.look, noise=look.noise, motion=look.motion, jpeg=look.jpeg, noise_seed=look.noise_seed)
    return Scene(seating, mounting, pos, checkers, dice, cube, look, arms_for(f, rng), f, seed)


def with_factors(scene: Scene, **changes: Any) -> Scene:
    return replace(scene, **changes)
