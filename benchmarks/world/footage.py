"""Footage of whole games on the independent world, with fouls injected (issue #43, item 6).

A footage folder holds ``frameNNNNN.jpg`` (5 fps, 1280x720), ``fps.txt`` and
``truth.json``: the mounting and seating, the game as played (plays and cube
actions, in the mover's own numbers), the fouls injected (kind, player, the turn,
and the footage times within which the referee must call each), the frames whose
picture was corrupted on purpose, and the true board reading of every settled state.

The eight mountings (:data:`MOUNTINGS`): the home boards on the left or right of the
image, dark on the near or far side of the table (near = the camera mount's side),
camera turned 0° or 180° on its mount.  Seating and halves come from the physical
picture (:meth:`FootageMounting.seating`, :meth:`benchmarks.world.board.Seating.right_half`).

    python -m benchmarks.world.footage OUT --game 1 --mounting home-right_dark-far_turn-180 [--plays 12]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

from . import board as B
from .board import Position, Seating
from .camera import Mounting
from .matches import Action, read_match
from .render import render, sensor_noise
from .scene import Arm, Cube, Die, Scene, choose, cube_at, dice_style, free_spot, look_for, stack_spots, Checker

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "world"
MATCH = DATA / "charlot1-charlot2_7p_2025-11-08-2305.mat"  # MIT licence, see tests/data/world/README.md
FPS = 5.0
HOLD = 3  # frames of a settled state: 0.6 s at 5 fps
COLOURS = ("dark", "light")
FOUL_KINDS = ("illegal_play", "cocked", "wrong_half", "out_of_turn", "moved_before_roll", "bar_waiting")
# the call each injected foul must draw (a checker moved while one waits on the bar is an illegal play)
CALL_OF = {"illegal_play": "illegal_play", "cocked": "cocked", "wrong_half": "wrong_half", "out_of_turn": "out_of_turn",
           "moved_before_roll": "moved_before_roll", "bar_waiting": "illegal_play"}


def other(colour: str) -> str:
    return "light" if colour == "dark" else "dark"


@dataclass(frozen=True, slots=True)
class FootageMounting:
    home_image: str  # "left" / "right": where the home boards appear in the image
    dark: str  # "near" / "far": dark's side of the table, near = the side the camera's mount stands on
    turn: int  # 0 / 180: the camera turned on its mount

    @property
    def name(self) -> str:
        return f"home-{self.home_image}_dark-{self.dark}_turn-{self.turn}"

    def seating(self) -> Seating:
        """From the picture: the mount stands at the south edge; turned 0° the image's
        right is east (the far side at the top), turned 180° the image's right is west."""
        dark_seat = B.SOUTH if self.dark == "near" else B.NORTH
        right_is_east = self.turn == 0
        home_east = (self.home_image == "right") == right_is_east
        return Seating(B.EAST if home_east else B.WEST, dark_seat)

    def camera(self, rng: random.Random) -> Mounting:
        return Mounting(side="south", tilt=rng.uniform(6, 14), height=rng.uniform(600, 800), turn=self.turn + rng.uniform(-2, 2),
                        fill=rng.uniform(0.72, 0.86), k1=rng.uniform(0.03, 0.12), aim=(rng.uniform(-8, 8), rng.uniform(-6, 6)))


MOUNTINGS = tuple(FootageMounting(h, d, t) for h in ("left", "right") for d in ("near", "far") for t in (0, 180))


def mounting_named(name: str) -> FootageMounting:
    for m in MOUNTINGS:
        if m.name == name:
            return m
    raise SystemExit(f"no mounting {name!r}; one of: {', '.join(m.name for m in MOUNTINGS)}")


@dataclass
class State:
    """One shot of the film: the board as it lies, held for ``frames`` frames, or an arm passing."""

    position: Position
    dice: tuple[Die, ...]
    cube: Cube | None
    frames: int
    arms: tuple[Arm, ...] = ()
    corrupt: str | None = None


@dataclass
class Foul:
    kind: str
    player: str
    turn: int  # the footage's play number (1 = the opening play) during which it happens
    t: float = 0.0  # first frame where it can be seen
    until: float = 0.0  # end of the window to call it in (the next settled state of a new turn)
    what: str = ""

    @property
    def call(self) -> str:
        return CALL_OF[self.kind]


@dataclass
class Film:
    seating: Seating
    rng: random.Random
    style: dict[str, Any]
    stacking: str
    typeface: str
    seed: int
    hold_out: dict[str, tuple[str, ...]] = field(default_factory=dict)  # factor values never drawn (the held-out split)
    position: Position = field(default_factory=Position.start)
    dice: tuple[Die, ...] = ()
    cube: Cube | None = None
    states: list[State] = field(default_factory=list)
    t: float = 0.0

    def hold(self, frames: int = HOLD) -> float:
        """The board settles; the time of its first frame."""
        t = self.t
        self.states.append(State(self.position, self.dice, self.cube, frames))
        self.t += frames / FPS
        return t

    def arm(self, colour: str, kind: str = "arm", reach: float | None = None, both: bool = False) -> None:
        arms = []
        for c in (COLOURS if both else (colour,)):
            sy = B.side_y_sign(self.seating, c)
            ang = math.degrees(math.atan2(sy, self.rng.uniform(-0.6, 0.6)))
            arms.append(Arm(kind, ang, reach if reach is not None else self.rng.uniform(40, 150), self.rng.uniform(70, 95),
                            (40, 40, 130) if c == "dark" else (120, 90, 40), (130, 160, 205)))
        self.states.append(State(self.position, self.dice, self.cube, 1, tuple(arms)))
        self.t += 1 / FPS

    def throw(self, values: list[tuple[int, str, bool]]) -> None:
        """Dice (value, half, flat) land on free leather."""
        taken = [(c.x, c.y, B.CHECKER_D / 2) for c in checkers_of(self.seating, self.position, self.stacking, self.seed)]
        if self.cube is not None:
            taken.append((self.cube.x, self.cube.y, B.CUBE))
        dice = []
        for value, half, flat in values:
            xy = free_spot(self.rng, self.seating, half, taken, 24.0)
            if xy is None:
                raise RuntimeError("no room for a die")
            taken.append((xy[0], xy[1], 12.0))
            dice.append(Die(value, xy[0], xy[1], self.rng.uniform(0, 90), flat, 0.0 if flat else self.rng.uniform(20, 30), self.rng.uniform(0, 360), **self.style))
        self.dice = tuple(dice)


def checkers_of(seating: Seating, pos: Position, style: str, seed: int) -> tuple[Checker, ...]:
    """Checkers placed so that a point's checkers keep their places while its count does not change."""
    out = []
    for p, n in enumerate(pos.points, start=1):
        if n:
            x, yb, inward = B.point_frame(seating, p)
            rng = random.Random(seed * 7919 + p * 31 + abs(n))
            for along, across, z in stack_spots(style, abs(n), rng):
                out.append(Checker("dark" if n > 0 else "light", x + across, yb + inward * along, z))
    for i, colour in enumerate(COLOURS):
        sy = B.side_y_sign(seating, colour)
        for k in range(pos.bar[i]):
            lvl, j = divmod(k, 4)
            out.append(Checker(colour, 0.0, sy * (B.CUBE / 2 + 2 + B.CHECKER_D * (j + 0.5)), B.RIM_H + lvl * B.CHECKER_T))
    return tuple(out)


def _try(pos: Position, colour: str, moves: list[tuple[int, int]]) -> Position | None:
    try:
        return pos.play(colour, moves)
    except ValueError:
        return None


def plan_fouls(game: list[Action], rng: random.Random, kinds: tuple[str, ...] = FOUL_KINDS) -> dict[int, str]:
    """Which roll (index into the game's actions) gets which foul: each where the board allows it."""
    pos = Position.start()
    fits: dict[str, list[int]] = {k: [] for k in kinds}
    first_roll = next(i for i, a in enumerate(game) if a.kind == "roll")
    for i, a in enumerate(game):
        if a.kind != "roll":
            continue
        me = 0 if a.player == "dark" else 1
        if i > first_roll + 1:
            fits["cocked"].append(i); fits["wrong_half"].append(i); fits["out_of_turn"].append(i)
            if a.moves and a.moves[0][0] != 25:
                fits["moved_before_roll"].append(i)
            if a.moves and all(0 < d < s <= 24 for s, d in a.moves) and _illegal_variant(pos, a) is not None:
                fits["illegal_play"].append(i)
            if pos.bar[me] and a.moves and a.moves[0][0] == 25 and _bar_variant(pos, a) is not None:
                fits["bar_waiting"].append(i)
        pos = pos.play(a.player, list(a.moves))
    plan: dict[int, str] = {}
    for kind in sorted(kinds, key=lambda k: len(fits[k])):  # the rarest first
        free = [i for i in fits[kind] if all(abs(i - j) > 2 for j in plan)]
        if free:
            plan[rng.choice(free)] = kind
    return plan


def _illegal_variant(pos: Position, a: Action) -> Position | None:
    """The play with its last checker moved one pip too far (one pip more than the dice allow)."""
    moves = list(a.moves)
    s, d = moves[-1]
    if d - 1 < 1:
        return None
    return _try(pos, a.player, moves[:-1] + [(s, d - 1)])


def _bar_variant(pos: Position, a: Action) -> Position | None:
    """A checker moved on the board by the first die while one waits on the bar."""
    d = a.dice[0]
    sign = 1 if a.player == "dark" else -1
    mine = [(i + 1) if sign > 0 else (24 - i) for i, n in enumerate(pos.points) if n * sign > 0]
    for src in sorted(mine, reverse=True):
        if src - d >= 1:
            after = _try(pos, a.player, [(src, src - d)])
            if after is not None:
                return after
    return None


def film_game(game: list[Action], mounting: FootageMounting, seed: int, plays: int | None = None,
              fouls: bool = True, corrupt: float = 0.0, hold_out: dict[str, tuple[str, ...]] | None = None
              ) -> tuple[Film, list[Foul], list[dict[str, Any]]]:
    """The shots of a game, the fouls injected, and the game as played (truth); ``hold_out`` bars factor values."""
    rng = random.Random(seed)
    hold = dict(hold_out or {})
    f = choose(rng, {"cube": "centre"}, hold)
    seating = mounting.seating()
    stackings = tuple(s for s in ("centred", "end", "skewed", "towers", "loose") if s not in hold.get("stacking", ()))
    film = Film(seating, rng, dice_style(f, rng), rng.choice(stackings), f["typeface"], seed, hold)
    film.cube = cube_at(rng, seating, 1, "centre", film.typeface)
    rolls = [i for i, a in enumerate(game) if a.kind == "roll"]
    if plays is not None and len(rolls) > plays:
        game = game[: rolls[plays]]
    plan = plan_fouls(game, random.Random(seed + 1)) if fouls else {}
    injected: list[Foul] = []
    played: list[dict[str, Any]] = []
    film.hold(HOLD + 2)  # the start position: what calibration sees
    turn = 0
    opening = True
    for i, a in enumerate(game):
        P, O = a.player, other(a.player)
        if a.kind == "double":
            film.arm(P)
            film.cube = cube_at(rng, seating, a.cube, O, film.typeface)  # turned and pushed to the opponent's side
            film.hold()
            played.append({"player": P, "action": "double", "cube": a.cube})
            continue
        if a.kind == "take":
            played.append({"player": P, "action": "take"})
            continue
        if a.kind == "drop":
            played.append({"player": P, "action": "drop"})
            film.arm(P, both=True)
            film.position, film.dice = Position.start(), ()
            film.cube = cube_at(rng, seating, 1, "centre", film.typeface)
            film.hold(HOLD + 2)  # set up again for the next game: the drop seen
            break
        turn += 1
        foul = plan.get(i)
        start_t = film.t
        if opening:
            hi, lo = max(a.dice), min(a.dice)
            own = {P: hi, O: lo}  # the opener's die is the higher one
            film.arm(P, "cup", both=True)
            film.throw([(own[c], seating.right_half(c), True) for c in COLOURS])
            film.hold()
            opening = False
        else:
            if foul == "moved_before_roll":
                s, d = a.moves[0]
                early = _try(film.position, P, [(s, d)])
                if early is not None:
                    before = film.position
                    film.arm(P); film.position = early
                    injected.append(Foul(foul, P, turn, film.hold(), what=f"{P} moved {s}/{d} before rolling"))
                    film.arm(P); film.position = before; film.hold()
            if foul in ("cocked", "wrong_half", "out_of_turn"):
                roller = O if foul == "out_of_turn" else P
                half = seating.right_half(other(P)) if foul == "wrong_half" else seating.right_half(roller)
                vals = [(rng.randint(1, 6), half, True), (rng.randint(1, 6), half, foul != "cocked")]
                film.arm(roller, "cup")
                film.throw(vals)
                what = {"cocked": f"{P}'s roll has a cocked die", "wrong_half": f"{P} rolled into {O}'s right-hand half ({half})",
                        "out_of_turn": f"{O} rolled on {P}'s turn"}[foul]
                injected.append(Foul(foul, roller, turn, film.hold(), what=what))
                film.arm(roller); film.dice = (); film.hold()
            film.arm(P, "cup")
            film.throw([(a.dice[0], seating.right_half(P), True), (a.dice[1], seating.right_half(P), True)])
            film.hold()
        after = film.position.play(P, list(a.moves))
        if foul in ("illegal_play", "bar_waiting"):
            wrong = _illegal_variant(film.position, a) if foul == "illegal_play" else _bar_variant(film.position, a)
            assert wrong is not None
            film.arm(P); film.position = wrong; film.hold()
            film.arm(P); film.dice = ()
            what = f"{P} played {'one pip too far' if foul == 'illegal_play' else 'a checker on the board while one waits on the bar'}"
            injected.append(Foul(foul, P, turn, film.hold(), what=what))
            film.arm(P); film.position = after; film.hold()
        else:
            if a.moves:
                film.arm(P); film.position = after; film.hold()
            film.arm(P); film.dice = (); film.hold()
        played.append({"player": P, "action": "roll", "dice": list(a.dice), "moves": [list(m) for m in a.moves], "turn": turn, "t": start_t})
    film.hold(HOLD + 2)
    # the window for each call: from the foul until the next play's roll settles (or the footage ends)
    starts = sorted(p["t"] for p in played if p.get("action") == "roll") + [film.t]
    for foul in injected:
        foul.until = min((s for s in starts if s > foul.t + 1e-6), default=film.t) + 2.0
    if corrupt > 0:
        _corrupt(film, random.Random(seed + 2), corrupt)
    return film, injected, played


def _corrupt(film: Film, rng: random.Random, share: float) -> None:
    """About ``share`` of the frames show a settled board wrong for the whole time it lies still (a
    checker too few or too many on a point, or a die showing another face), as a misreading would
    be: a change for one frame only never settles, so it would never be read at all."""
    total = sum(st.frames for st in film.states)
    still = sum(st.frames for st in film.states if not st.arms) or 1
    for k, st in enumerate(film.states):  # each still board corrupted whole: share * total frames expected
        if st.arms or k == 0 or rng.random() >= share * total / still:
            continue
        pts = list(st.position.points)
        if st.dice and rng.random() < 0.5:
            d = st.dice[0]
            st.dice = (replace(d, value=d.value % 6 + 1),) + st.dice[1:]
            st.corrupt = f"die {d.value} shown as {d.value % 6 + 1}"
        else:
            i = rng.choice([i for i, n in enumerate(pts) if n])
            sign = 1 if pts[i] > 0 else -1
            pts[i] += rng.choice((-1, 1)) * sign
            st.position = Position(tuple(pts), st.position.bar)
            st.corrupt = f"point {i + 1} off by one"


def frames(film: Film, mounting: FootageMounting, seed: int) -> Iterator[tuple[float, np.ndarray, State]]:
    """Render every frame: a settled state once (then only the sensor noise changes), an arm each time."""
    rng = random.Random(seed + 3)
    f = choose(rng, {"motion": "none", "defocus": "sharp", "dim": "bright", "arms": "none", "jpeg": "75-95"}, film.hold_out)
    look = look_for(f, rng)
    cam = mounting.camera(rng)
    cache: dict[str, Any] = {}
    t, n = 0.0, 0
    for st in film.states:
        scene = Scene(film.seating, cam, st.position, checkers_of(film.seating, st.position, film.stacking, film.seed), st.dice, st.cube, look, st.arms)
        clean = render(scene, cache=cache, jpeg=False, sensor=False)
        for _ in range(st.frames):
            yield t, sensor_noise(clean, look, seed * 100_003 + n), st
            t += 1 / FPS
            n += 1


def reading(seating: Seating, st: State) -> dict[str, Any]:
    p = st.position
    return {"points": list(p.points), "bar": {"dark": p.bar[0], "light": p.bar[1]}, "off": {"dark": p.off("dark"), "light": p.off("light")},
            "dice": [{"value": d.value, "flat": d.flat, "half": B.half_at(seating, d.x, d.y)} for d in st.dice],
            "cube": None if st.cube is None else {"value": st.cube.value, "position": st.cube.position}}


def write_footage(out: Path, game_no: int, mounting: FootageMounting, seed: int, plays: int | None = None, fouls: bool = True,
                  corrupt: float = 0.0, match: Path = MATCH, jpeg_quality: int = 88,
                  hold_out: dict[str, tuple[str, ...]] | None = None) -> dict[str, Any]:
    """Render one game's footage into ``out``; returns the truth written to ``out/truth.json``."""
    games = read_match(match)
    if not 1 <= game_no <= len(games):
        raise SystemExit(f"{match.name} has games 1..{len(games)}")
    film, injected, played = film_game(games[game_no - 1], mounting, seed, plays, fouls, corrupt, hold_out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "fps.txt").write_text(f"{FPS:g}\n")
    settled, corrupted = [], []
    n = 0
    last = None
    for t, image, st in frames(film, mounting, seed):
        cv2.imwrite(str(out / f"frame{n:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        if not st.arms and st is not last:
            settled.append({"t": round(t, 3), "reading": reading(film.seating, st)})
        if st.corrupt:
            corrupted.append({"t": round(t, 3), "frame": n, "what": st.corrupt})
        last = st
        n += 1
    seating = film.seating
    truth = {
        "match": match.name, "game": game_no, "seed": seed, "fps": FPS, "frames": n,
        "mounting": {"name": mounting.name, **asdict(mounting)},
        "seating": {"home": seating.home, "dark_seat": seating.dark_seat,
                    "right_half": {c: seating.right_half(c) for c in COLOURS}},
        "players": {"dark": "player 1 of the .mat file", "light": "player 2"},
        "played": played,
        "fouls": [{**asdict(fl), "call": fl.call, "t": round(fl.t, 3), "until": round(fl.until, 3)} for fl in injected],
        "corrupted_frames": corrupted,
        "settled": settled,
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1))
    return truth


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Render a whole game's footage with injected fouls (independent world).")
    ap.add_argument("out", type=Path)
    ap.add_argument("--game", type=int, default=1, help="game number in the match file (default 1)")
    ap.add_argument("--mounting", default=MOUNTINGS[0].name, help="one of: " + ", ".join(m.name for m in MOUNTINGS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plays", type=int, help="stop after this many plays")
    ap.add_argument("--no-fouls", action="store_true")
    ap.add_argument("--corrupt", type=float, default=0.0, help="share of frames showing a settled board wrong (a checker off by one, a die misread) for as long as it lies still (e.g. 0.01)")
    args = ap.parse_args(argv)
    truth = write_footage(args.out, args.game, mounting_named(args.mounting), args.seed, args.plays, not args.no_fouls, args.corrupt)
    print(f"wrote {truth['frames']} frames to {args.out}: {len(truth['played'])} actions, fouls "
          + ", ".join(f"{fl['kind']} ({fl['player']}, play {fl['turn']})" for fl in truth["fouls"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
