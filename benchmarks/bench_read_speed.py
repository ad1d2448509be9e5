"""Speed of one board read on one core, the model files' size, and the expected Raspberry Pi 4 and 5 times.

    .venv/bin/python benchmarks/bench_read_speed.py [--repeats 3] [--setups 3] [--frames 4] [--fixtures N] [--cpu K]
        [--set FIELD=VALUE ...] [--docs]

1. **Whole reads.** ``vision.read.BoardReader`` (the reader ``bgref read`` and the referee use) on 1280x720
   frames: every committed fixture folder ``tests/data/vision*/`` (calibrated on its ``start.jpg`` as the tests'
   ``calibrated`` fixture does, then each of its frames read) and the project's own OpenCV renders
   (``vision.render``, ``--setups`` installations of ``--frames`` positions and an arm). Pinned to ONE core:
   ``os.sched_setaffinity`` to one CPU, ``cv2.setNumThreads(1)`` (which covers OpenCV's ``dnn``, the runtime of
   the ONNX models), OMP/OPENBLAS/MKL threads 1. Each frame is read ``--repeats`` times after a warm-up read;
   median, p90 and max wall-clock ms and the median CPU ms per read are printed. The machine's load average is
   printed too: wall clock on a loaded machine overstates a read; the CPU time (this thread's) much less so.
2. **Per stage.** The stage functions ``read_board`` calls (warp, light, Lab, blobs, occlusion, points, the
   learned counter, cube, dice) and the learned models' forward passes are wrapped *in this process only* by a
   timer (exclusive CPU time, nested calls subtracted); nothing in ``vision/`` is changed, and every reading is
   checked identical to the unwrapped one.
3. **Model files.** Every weight file in ``vision/`` (``*.onnx``, ``*.json``): size, whether the reader opened
   it while reading, and the total against the 10 MB goal (``tests/test_model_files.py`` guards the total).
4. **Per-op cost and the Pi estimate.** One read is decomposed into op classes: OpenCV image ops (every cv2
   C call except the network forward passes; their CPU time from ``cProfile`` with a thread-CPU clock), CNN
   forward passes (OpenCV ``dnn`` for the ONNX models, NumPy matrix products for the JSON ones; their
   multiply-accumulates counted from the graphs and weights), and the rest (Python and NumPy glue). This
   machine's cost per op class is measured by micro-benchmarks (min of repeats, CPU time): memory copy
   bandwidth (as STREAM's Copy counts it), a ResNet-18 forward pass in OpenCV ``dnn`` (GMAC/s), ``sysbench
   cpu`` (integer, scalar) events per CPU second, and a few 1280x720 image ops for reference. Each class is
   scaled by the ratio of this machine's measured cost to a *public* Raspberry Pi measurement of the same
   thing (sources below), giving a range, not one number:

   - scalar (Python glue): sysbench 1.0.20 ``cpu --threads=1`` (prime limit 10000): Pi 4 1477.83, Pi 5
     2737.49 events/s -- https://leoncode.co.uk/articles/raspberry-pi-benchmarks
   - memory-bound image ops: STREAM Copy on one Pi 4 core, 5527.3 MB/s --
     https://www.sci-pi.org.uk/bench/stream.html
   - CNN (SIMD multiply-accumulate): ncnn ``benchncnn`` ResNet-18, one thread on a Cortex-A72 big core at
     1.8 GHz (Rockchip RK3399): 316.71 ms min -- https://github.com/Tencent/ncnn/blob/master/benchmark/README.md
     (the Pi 4's A72 runs at 1.5 GHz on early boards, 1.8 GHz on later ones: x1.0 to x1.2)
   - Pi 5 from Pi 4: single-thread sysbench ratios 2737.49 / 1477.83 = 1.85 (leoncode, above) and
     1847 / 812 = 2.27 (https://zbotic.in/raspberry-pi-5-benchmarks-real-performance-numbers-vs-pi-4/);
     Pi 4 Cortex-A72 @1.5-1.8 GHz, Pi 5 Cortex-A76 @2.4 GHz (same pages).

   Image ops are bounded by memory and by SIMD arithmetic, so their Pi factor is taken between the copy
   bandwidth ratio and the CNN ratio; the glue (interpreter, small NumPy calls) between the scalar and the
   copy ratio. Assumptions: the Pi runs the same Python, OpenCV (with NEON) and NumPy (OpenBLAS) code;
   the CNN factor compares OpenCV ``dnn`` here with ncnn on the A72, and ncnn is tuned for ARM, so OpenCV
   ``dnn`` on a Pi may be slower than the factor says (tens of percent on that class); no thermal throttling;
   camera capture and JPEG decoding are not in the read.
"""

from __future__ import annotations

import os

# before NumPy and OpenCV load: one core, as `bgref` runs (referee/cli.py)
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"

import argparse
import cProfile
import functools
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_section  # noqa: E402
from settings import with_sets  # noqa: E402

from vision.calibrate import calibrate  # noqa: E402
from vision.config import CalibrationConfig, ReaderConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.read import BoardReader  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = ROOT / "tests" / "data"
VISION = ROOT / "vision"
MODEL_SUFFIXES = (".onnx", ".json")  # what vision/ ships as weights; tests/test_model_files.py globs the same
GOAL_MS = 50.0
GOAL_MODEL_BYTES = 10_000_000

# public Raspberry Pi measurements (see the module docstring for what each is)
PI4_SYSBENCH_EPS = 1477.83  # https://leoncode.co.uk/articles/raspberry-pi-benchmarks
PI5_SYSBENCH_EPS = 2737.49  # same page
PI4_STREAM_COPY_MBS = 5527.3  # https://www.sci-pi.org.uk/bench/stream.html
A72_RESNET18_MS = 316.71  # ncnn benchmark/README.md, RK3399 Cortex-A72 @1.8 GHz, 1 thread, fp32
PI4_CLOCK_SPAN = (1.0, 1.8 / 1.5)  # Pi 4 at 1.8 GHz (later boards) .. 1.5 GHz (early boards)
PI5_OVER_PI4 = (2737.49 / 1477.83, 1847 / 812)  # leoncode; zbotic.in (single-thread sysbench)
SOURCES = (
    "https://leoncode.co.uk/articles/raspberry-pi-benchmarks (sysbench 1 thread: Pi 4 1477.83, Pi 5 2737.49 events/s)",
    "https://www.sci-pi.org.uk/bench/stream.html (STREAM Copy, one Pi 4 core: 5527.3 MB/s)",
    "https://github.com/Tencent/ncnn/blob/master/benchmark/README.md (ResNet-18, 1 thread, Cortex-A72 @1.8 GHz: 316.71 ms)",
    "https://zbotic.in/raspberry-pi-5-benchmarks-real-performance-numbers-vs-pi-4/ (sysbench 1 thread: Pi 4 812, Pi 5 1847 events/s)",
)


# ----------------------------------------------------------------------------------------------------------------
# one core


def pin_one_core(cpu: int | None) -> int:
    """Pin this process (and the children it starts) to one CPU; OpenCV to one thread. Returns the CPU."""
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    if chosen not in allowed:
        raise SystemExit(f"--cpu {chosen}: this process may run on CPUs {allowed} only; pick one of them")
    os.sched_setaffinity(0, {chosen})
    cv2.setNumThreads(1)
    return chosen


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} (1 / 5 / 15 min) on {os.cpu_count()} CPUs"


# ----------------------------------------------------------------------------------------------------------------
# frames


@dataclass
class Frame:
    source: str  # "fixtures" or "renders"
    name: str
    reader: BoardReader
    image: np.ndarray


def fixture_frames(limit: int | None, cfg: ReaderConfig) -> tuple[list[Frame], list[str]]:
    """Every committed fixture folder with a start position: calibrated on it, each of its images to read."""
    frames, failed = [], []
    folders = sorted(p.parent for p in DATA.glob("vision*/start.jpg"))
    for folder in folders[:limit]:
        try:
            cal = calibrate(CalibrationConfig(reader=cfg), read_image(folder / "start.jpg"))
        except VisionError as exc:
            failed.append(f"{folder.name}: {exc}")
            continue
        reader = BoardReader(cal, cfg)
        for path in sorted(folder.glob("*.jpg")):
            image = read_image(path)
            if image.shape[:2] == (720, 1280):
                frames.append(Frame("fixtures", f"{folder.name}/{path.name}", reader, image))
    return frames, failed


def render_frames(setups: int, per_setup: int, seed: int, cfg: ReaderConfig) -> tuple[list[Frame], list[str]]:
    """The project's own OpenCV renders (vision.render), as benchmarks/bench_vision.py draws them."""
    from vision.render import random_scene, random_setup, render, with_arm

    frames, failed = [], []
    for k in range(setups):
        s = seed + 1000 * k
        setup = random_setup(np.random.default_rng(s))
        start = random_scene(np.random.default_rng(s + 1), setup.layout, start=True)
        image, _ = render(start, setup, s + 1)
        try:
            reader = BoardReader(calibrate(CalibrationConfig(reader=cfg), image), cfg)
        except VisionError as exc:
            failed.append(f"render setup {k}: {exc}")
            continue
        for f in range(per_setup + 1):
            scene = random_scene(np.random.default_rng(s + 2 + f), setup.layout)
            if f == per_setup:
                scene = with_arm(np.random.default_rng(s + 502 + f), scene)
            frame, _ = render(scene, setup, s + 2 + f, lamp_drift=0.5)
            frames.append(Frame("renders", f"setup{k}/frame{f}{'-arm' if f == per_setup else ''}", reader, frame))
    return frames, failed


def read_once(frame: Frame) -> str:
    """The reading's JSON (or the refusal's message): what instrumented runs must reproduce."""
    try:
        return str(frame.reader(frame.image).to_json())
    except VisionError as exc:
        return f"{type(exc).__name__}: {exc}"


# ----------------------------------------------------------------------------------------------------------------
# whole reads


@dataclass
class Timing:
    wall: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    best: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # per frame, min wall
    refused: int = 0


def time_reads(frames: list[Frame], repeats: int) -> Timing:
    t = Timing()
    for frame in frames:
        walls = []
        for _ in range(repeats):
            w0, c0 = time.perf_counter(), time.thread_time()
            try:
                frame.reader(frame.image)
            except VisionError:
                t.refused += 1
            dw, dc = time.perf_counter() - w0, time.thread_time() - c0
            walls.append(dw)
            for key in (frame.source, "all"):
                t.wall[key].append(1000 * dw)
                t.cpu[key].append(1000 * dc)
        for key in (frame.source, "all"):
            t.best[key].append(1000 * min(walls))
    return t


def print_timing(t: Timing, repeats: int) -> None:
    print(f"\nwhole read, ms per 1280x720 frame, one core ({repeats} reads of each frame after a warm-up read):")
    print(f"  {'frames':<9} {'reads':>5}  {'wall median':>11} {'p90':>7} {'max':>7}  {'CPU median':>10} {'p90':>7}  {'per-frame best wall, median':>27}")
    for key in ("fixtures", "renders", "all"):
        if not t.wall.get(key):
            continue
        w, c, b = np.array(t.wall[key]), np.array(t.cpu[key]), np.array(t.best[key])
        print(f"  {key:<9} {len(w):>5}  {np.median(w):>11.1f} {np.percentile(w, 90):>7.1f} {w.max():>7.1f}  "
              f"{np.median(c):>10.1f} {np.percentile(c, 90):>7.1f}  {np.median(b):>27.1f}")
    if t.refused:
        print(f"  ({t.refused} reads refused the frame, e.g. no board in view: timed all the same)")


# ----------------------------------------------------------------------------------------------------------------
# stages, by wrapping what read_board calls (in this process only)


class StageClock:
    """Exclusive CPU time per label: a wrapped call's time less that of the wrapped calls inside it."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)
        self.samples: dict[str, int] = defaultdict(int)  # network inputs run, per model
        self.unknown: set[str] = set()  # labels whose network inputs could not be counted
        self._stack: list[float] = []

    def wrap(self, label: str, fn: Callable[..., Any], samples: Callable[..., int] | None = None) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if samples is not None:
                try:
                    self.samples[label] += samples(*args, **kwargs)
                except (TypeError, ValueError):
                    self.unknown.add(label)  # a signature another change made: its inputs go uncounted, not the read
            t0 = time.thread_time()
            self._stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                inner = self._stack.pop()
                dt = time.thread_time() - t0
                self.ms[label] += 1000 * (dt - inner)
                if self._stack:
                    self._stack[-1] += dt
        return timed


# (module, attribute, stage); a name another change removed is skipped, not an error
STAGES = (
    ("vision.read", "to_canonical", "warp to the board"),
    ("vision.read", "outline_bands", "warp to the board"),
    ("vision.read", "normalise_gains", "light"),
    ("vision.read", "lab8_image", "Lab colour"),
    ("vision.read", "sample_profiles", "colour profiles"),
    ("vision.read", "sample_mask", "colour profiles"),
    ("vision.read", "white_mask", "blobs"),
    ("vision.read", "white_blobs", "blobs"),
    ("vision.read", "die_footprint", "blobs"),
    ("vision.read", "_grown", "blobs"),
    ("vision.read", "arm_over_board", "occlusion"),
    ("vision.read", "read_points", "points (colour profiles)"),
    ("vision.read", "read_bar", "points (colour profiles)"),
    ("vision.read", "learned_counts", "point counter"),
    ("vision.point_strips", "cut_strips", "point counter"),
    ("vision.point_strips", "strip_input", "point counter"),
    ("vision.point_strips", "strip_probabilities", "point counter"),
    ("vision.point_strips", "_forward", "point counter CNN"),  # each forward pass (a second look runs one more)
    ("vision.read", "find_cube", "cube"),
    ("vision.read", "FineLook", "dice"),
    ("vision.read", "find_dice", "dice"),
)
# the learned models' forward passes: (module, class, method, label, network inputs per call)
MODELS: tuple[tuple[str, str, str, str, Callable[..., int]], ...] = (
    ("vision.cube_cnn", "CubeReader", "probabilities", "cube CNN", lambda self, crops, turns=4: turns * len(crops)),
    ("vision.dice_cnn", "ConvFaceModel", "probabilities", "dice CNN", lambda self, x: len(x)),
    ("vision.cocked", "CockedModel", "probabilities", "cocked CNN", lambda self, x, lifts: 2 * len(x)),
    ("vision.dice_model", "FaceModel", "probabilities", "dice face model", lambda self, x: len(np.atleast_2d(x))),
)
CNN_LABELS = ("point counter CNN", "cube CNN", "dice CNN", "cocked CNN", "dice face model")


def _patches(clock: StageClock) -> list[tuple[Any, str, Any]]:
    import importlib

    done: list[tuple[Any, str, Any]] = []
    for mod_name, attr, label in STAGES:
        mod = importlib.import_module(mod_name)
        if hasattr(mod, attr):
            original = getattr(mod, attr)
            samples = (lambda net, x: len(x)) if attr == "_forward" else None
            done.append((mod, attr, original))
            setattr(mod, attr, clock.wrap(label, original, samples))
    for mod_name, cls_name, meth, label, samples in MODELS:
        try:
            cls = getattr(importlib.import_module(mod_name), cls_name)
        except (ImportError, AttributeError):
            continue
        original = cls.__dict__.get(meth)
        if original is None:
            continue
        done.append((cls, meth, original))
        setattr(cls, meth, clock.wrap(label, original, samples))
    return done


def stage_breakdown(frames: list[Frame]) -> tuple[StageClock, float, int]:
    """(clock, total CPU ms of the wrapped reads, readings that differ from the unwrapped ones)."""
    plain = [read_once(f) for f in frames]
    clock = StageClock()
    patches = _patches(clock)
    try:
        t0 = time.thread_time()
        wrapped = [read_once(f) for f in frames]
        total = 1000 * (time.thread_time() - t0)
    finally:
        for owner, attr, original in reversed(patches):
            setattr(owner, attr, original)
    return clock, total, sum(a != b for a, b in zip(plain, wrapped))


# ----------------------------------------------------------------------------------------------------------------
# op classes, from a profile of the reads (C calls' own time, on this thread's CPU clock)

_CV2_NAMES = frozenset(n for n in dir(cv2) if not n.startswith("_"))
_DNN = re.compile(r"of 'cv2\.dnn\.")


def op_classes(frames: list[Frame]) -> tuple[dict[str, float], dict[str, tuple[int, float]]]:
    """CPU ms over all the reads: OpenCV image ops (all cv2 calls but dnn's) and OpenCV dnn; and per OpenCV
    function (calls, ms)."""
    prof = cProfile.Profile(time.thread_time)
    prof.enable()
    for f in frames:
        read_once(f)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    image_ms = dnn_ms = 0.0
    per_fn: dict[str, tuple[int, float]] = {}
    for (filename, _, name), (_, calls, tottime, _, _) in stats.items():
        if filename != "~":
            continue
        bare = name.strip("<>")
        if _DNN.search(name):
            dnn_ms += 1000 * tottime
        elif bare in _CV2_NAMES or "of 'cv2." in name:
            image_ms += 1000 * tottime
            per_fn[bare] = (calls, 1000 * tottime)
    return {"image": image_ms, "dnn": dnn_ms}, per_fn


# ----------------------------------------------------------------------------------------------------------------
# models: files and multiply-accumulates


def model_files() -> list[Path]:
    return sorted(p for p in VISION.iterdir() if p.suffix in MODEL_SUFFIXES and p.is_file())


def opened_while_reading(frames: list[Frame]) -> set[str]:
    """Model files the reader opens when its caches are cold (Python opens seen by an audit hook; OpenCV's
    ``readNetFromONNX`` wrapped)."""
    import importlib

    seen: set[str] = set()
    watching = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if watching[0] and event == "open" and args and isinstance(args[0], (str, os.PathLike)):
            seen.add(os.path.basename(os.fspath(args[0])))

    sys.addaudithook(hook)
    original = cv2.dnn.readNetFromONNX

    def read_net(path: Any, *rest: Any) -> Any:
        seen.add(os.path.basename(str(path)))
        return original(path, *rest)

    cv2.dnn.readNetFromONNX = read_net
    for mod_name, fn in (("vision.point_strips", "load_point_net"), ("vision.cube_cnn", "load_cube_reader"),
                         ("vision.dice_cnn", "load_cnn"), ("vision.dice_cnn", "load_die_guard"),
                         ("vision.dice_model", "load_face_model"), ("vision.cocked", "load_cocked_model")):
        try:
            getattr(importlib.import_module(mod_name), fn).cache_clear()
        except (ImportError, AttributeError):
            pass  # a loader of another name: its file is then seen only if it is opened on a cold cache
    try:
        for f in frames:
            read_once(f)
    finally:
        cv2.dnn.readNetFromONNX = original
        watching[0] = False
    return seen


def onnx_macs(path: Path, shape: tuple[int, ...]) -> int | None:
    """Multiply-accumulates of one forward pass of the ONNX graph at input ``shape`` (Conv and Gemm/MatMul),
    from the graph's own shapes; None without the ``onnx`` package (the train extra)."""
    try:
        import onnx
        from onnx import shape_inference
    except ImportError:
        return None
    model = onnx.load(str(path))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for d, v in zip(dims, shape):
        d.dim_value = v
    return _graph_macs(shape_inference.infer_shapes(model))


def _graph_macs(model: Any) -> int:
    g = model.graph
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(g.value_info) + list(g.output) + list(g.input)}
    weights = {i.name: list(i.dims) for i in g.initializer}
    total = 0
    for node in g.node:
        out = shapes.get(node.output[0])
        w = weights.get(node.input[1]) if len(node.input) > 1 else None
        if not out or not w:
            continue
        if node.op_type == "Conv":
            total += int(np.prod(out)) * int(np.prod(w[1:]))  # each output: Cin/group x kh x kw
        elif node.op_type in ("Gemm", "MatMul"):
            trans_b = any(a.name == "transB" and a.i for a in node.attribute)
            total += int(np.prod(out)) * (w[1] if trans_b else w[0])
    return total


def json_conv_macs(members: tuple[dict[str, np.ndarray], ...], side: int) -> int:
    """Multiply-accumulates of one input through every member of an im2col ensemble (conv layers c1.. at
    ``side``, halved after each, then dense layers d1..)."""
    total = 0
    for p in members:
        s = side
        for name in sorted(k for k in p if re.fullmatch(r"c\d+_w", k)):
            total += s * s * int(np.prod(p[name].shape))
            s //= 2
        total += sum(int(np.prod(p[k].shape)) for k in p if re.fullmatch(r"d\d+_w", k))
    return total


def macs_per_input() -> dict[str, int | None]:
    """Per network input, by label; None where the model or the onnx package is missing."""
    out: dict[str, int | None] = {}
    try:
        from vision import point_strips

        out["point counter CNN"] = onnx_macs(point_strips.MODEL_PATH, (1, 3, point_strips.NET_SIZE[1], point_strips.NET_SIZE[0]))
    except Exception:  # noqa: BLE001 -- a model another change reshaped: reported as unknown
        out["point counter CNN"] = None
    try:
        from vision import cube_cnn

        out["cube CNN"] = onnx_macs(cube_cnn.MODEL_PATH, (1, 1, cube_cnn.INPUT_SIDE, cube_cnn.INPUT_SIDE))
    except Exception:  # noqa: BLE001
        out["cube CNN"] = None
    try:
        import json

        from vision import cocked, dice_cnn, dice_model
        from vision.dice_cnn import members_from_json

        cnn = members_from_json(json.loads(dice_cnn.CNN_PATH.read_text()))
        # the reader's dice CNN calls run the face ensemble and the guard alike: the larger of the two is counted
        guard = members_from_json(json.loads(dice_cnn.GUARD_PATH.read_text())) if dice_cnn.GUARD_PATH.exists() else ()
        out["dice CNN"] = max(json_conv_macs(cnn, dice_cnn.INPUT_SIDE), json_conv_macs(guard, dice_cnn.INPUT_SIDE))
        out["cocked CNN"] = json_conv_macs(members_from_json(json.loads(cocked.COCKED_PATH.read_text())), cocked.INPUT_SIDE)
        face = json.loads(dice_model.MODEL_PATH.read_text())
        out["dice face model"] = sum(int(np.prod(face[k]["shape"])) for k in ("w1", "w2"))
    except Exception:  # noqa: BLE001
        out.setdefault("dice CNN", None)
    return out


# ----------------------------------------------------------------------------------------------------------------
# this machine's cost per op class (min of repeats, CPU time)


def best_cpu(fn: Callable[[], object], repeats: int = 7) -> float:
    """Seconds of this thread's CPU, the least of ``repeats`` runs (after one not counted)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best


def copy_bandwidth_mbs() -> float:
    """STREAM's Copy as it counts it (bytes read + bytes written), over arrays far larger than any cache."""
    a = np.ones(20_000_000)
    b = np.empty_like(a)
    return 2 * a.nbytes / best_cpu(lambda: np.copyto(b, a), 5) / 1e6


def resnet18_ms() -> tuple[float, int] | None:
    """(ms, MACs) of a ResNet-18 forward pass (224x224, random weights) in OpenCV dnn on this core."""
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return None
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    count = [0]

    def name(prefix: str) -> str:
        count[0] += 1
        return f"{prefix}{count[0]}"

    def conv(x: str, cin: int, cout: int, k: int, stride: int, relu: bool = True) -> str:
        w, y = name("w"), name("c")
        inits.append(numpy_helper.from_array((rng.standard_normal((cout, cin, k, k)) * 0.05).astype(np.float32), w))
        nodes.append(helper.make_node("Conv", [x, w], [y], kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4))
        if not relu:
            return y
        r = name("r")
        nodes.append(helper.make_node("Relu", [y], [r]))
        return r

    x = conv("input", 3, 64, 7, 2)
    p = name("p")
    nodes.append(helper.make_node("MaxPool", [x], [p], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
    x, cin = p, 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for block in range(2):
            s = stride if block == 0 else 1
            y = conv(conv(x, cin, cout, 3, s), cout, cout, 3, 1, relu=False)
            skip = x if (s == 1 and cin == cout) else conv(x, cin, cout, 1, s, relu=False)
            a, r = name("a"), name("r")
            nodes += [helper.make_node("Add", [y, skip], [a]), helper.make_node("Relu", [a], [r])]
            x, cin = r, cout
    g_avg, flat, fc_w, out = name("g"), name("f"), name("w"), "logits"
    inits.append(numpy_helper.from_array((rng.standard_normal((1000, 512)) * 0.05).astype(np.float32), fc_w))
    nodes += [helper.make_node("GlobalAveragePool", [x], [g_avg]), helper.make_node("Flatten", [g_avg], [flat]),
              helper.make_node("Gemm", [flat, fc_w], [out], transB=1)]
    graph = helper.make_graph(nodes, "resnet18", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
                              [helper.make_tensor_value_info(out, TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    macs = _graph_macs(onnx.shape_inference.infer_shapes(model))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "resnet18.onnx"
        onnx.save(model, str(path))
        net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(rng.standard_normal((1, 3, 224, 224)).astype(np.float32))
    return 1000 * best_cpu(net.forward, 5), macs


def sysbench_eps() -> float | None:
    """sysbench 1.0.20 ``cpu --threads=1`` (prime limit 10000) events per CPU second of the child (not per
    wall second: on a loaded machine the wall rate is the machine's, not the core's); None if not installed."""
    exe = shutil.which("sysbench")
    if exe is None:
        return None
    before = os.times()
    run = subprocess.run([exe, "cpu", "--threads=1", "--time=5", "run"], capture_output=True, text=True, check=False)
    after = os.times()
    events = re.search(r"total number of events:\s*(\d+)", run.stdout)
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return None if events is None or cpu <= 0 else int(events.group(1)) / cpu


def image_op_costs() -> list[tuple[str, float]]:
    """A few 1280x720 ops of the kinds the reader runs (for reference; ms, min of repeats)."""
    rng = np.random.default_rng(0)
    bgr = rng.integers(0, 256, (720, 1280, 3), np.uint8)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    mx, my = np.meshgrid(np.arange(1280, dtype=np.float32) * 0.9 + 20, np.arange(720, dtype=np.float32) * 0.9 + 10)
    mask = (cv2.GaussianBlur(grey, (0, 0), 8) > 128).astype(np.uint8) * 255
    kernel = np.ones((5, 5), np.uint8)
    ops: list[tuple[str, Callable[[], object]]] = [
        ("cvtColor BGR->Lab", lambda: cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)),
        ("remap, bilinear, 3 channels", lambda: cv2.remap(bgr, mx, my, cv2.INTER_LINEAR)),
        ("GaussianBlur 5x5, grey", lambda: cv2.GaussianBlur(grey, (5, 5), 0)),
        ("threshold + morphology open 5x5", lambda: cv2.morphologyEx(cv2.threshold(grey, 128, 255, cv2.THRESH_BINARY)[1], cv2.MORPH_OPEN, kernel)),
        ("findContours", lambda: cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)),
    ]
    return [(label, 1000 * best_cpu(fn)) for label, fn in ops]


# ----------------------------------------------------------------------------------------------------------------
# the estimate


def span(a: float, b: float) -> tuple[float, float]:
    return (min(a, b), max(a, b))


def pi_factors(sysbench: float | None, copy_mbs: float, resnet: tuple[float, int] | None) -> dict[str, tuple[float, float]]:
    """Pi 4 time over this machine's, per op class (a range), printing what each rests on."""
    print("\nPi 4 factors (the Pi 4's time over this machine's for the same work; this machine's side measured now):")
    f_copy = copy_mbs / PI4_STREAM_COPY_MBS
    print(f"  memory copy here {copy_mbs:,.0f} MB/s (STREAM Copy's count) vs Pi 4 {PI4_STREAM_COPY_MBS:,.0f} MB/s: x{f_copy:.1f}")
    if resnet is not None:
        ms, macs = resnet
        f_cnn = span(A72_RESNET18_MS * PI4_CLOCK_SPAN[0] / ms, A72_RESNET18_MS * PI4_CLOCK_SPAN[1] / ms)
        print(f"  ResNet-18 ({macs / 1e9:.2f} GMAC) here in OpenCV dnn {ms:.1f} ms ({macs / ms / 1e6:.1f} GMAC/s) vs Cortex-A72 "
              f"in ncnn {A72_RESNET18_MS:.0f} ms at 1.8 GHz: x{f_cnn[0]:.1f}..x{f_cnn[1]:.1f} (Pi 4 at 1.8..1.5 GHz)")
    else:
        f_cnn = (f_copy, f_copy)
        print("  ResNet-18 not measured (needs the onnx package: pip install -e .[train]); CNN factor = copy factor")
    if sysbench is not None:
        f_scalar = sysbench / PI4_SYSBENCH_EPS
        print(f"  sysbench cpu here {sysbench:,.0f} events per CPU second vs Pi 4 {PI4_SYSBENCH_EPS:,.0f}: x{f_scalar:.1f}")
    else:
        f_scalar = f_copy
        print("  sysbench not installed (apt install sysbench): the glue's factor is the copy factor alone")
    return {"OpenCV image ops": span(f_copy, max(f_cnn)), "CNN forward passes": f_cnn, "Python and NumPy glue": span(f_scalar, f_copy)}


def print_estimate(name: str, parts: dict[str, float], median_cpu: float, factors: dict[str, tuple[float, float]],
                   table: bool) -> None:
    """``parts``: mean CPU ms per read by op class; the estimate is scaled to the median read."""
    total = sum(parts.values())
    lo = sum(ms * factors[k][0] for k, ms in parts.items())
    hi = sum(ms * factors[k][1] for k, ms in parts.items())
    if table:
        print(f"\n  {'op class':<24} {'CPU ms here':>11} {'share':>6}  {'Pi 4 factor':>12}  {'Pi 4 ms':>13}")
        for label, ms in parts.items():
            a, b = factors[label]
            print(f"  {label:<24} {ms:>11.1f} {100 * ms / max(total, 1e-9):>5.0f}%  {f'x{a:.1f}..x{b:.1f}':>12}  {f'{ms * a:.0f}..{ms * b:.0f}':>13}")
        print(f"  {'mean read':<24} {total:>11.1f}  {'':>6}  {'':>12}  {f'{lo:.0f}..{hi:.0f}':>13}")
    scale = median_cpu / max(total, 1e-9)  # the classes are means; the goal is the median read
    p4 = (lo * scale, hi * scale)
    p5 = (p4[0] / PI5_OVER_PI4[1], p4[1] / PI5_OVER_PI4[0])
    print(f"  {name}: median read here {median_cpu:.1f} ms CPU -> Raspberry Pi 4 {p4[0]:.0f}..{p4[1]:.0f} ms, "
          f"Raspberry Pi 5 {p5[0]:.0f}..{p5[1]:.0f} ms")


@dataclass
class Analysis:
    """Sums over ``n`` reads: stage clock, CPU ms of the wrapped reads, readings changed by wrapping, CPU ms by op
    class, OpenCV calls and ms by function."""

    clock: StageClock
    total: float
    differ: int
    parts: dict[str, float]
    per_fn: dict[str, tuple[int, float]]
    n: int

    def __add__(self, other: Analysis) -> Analysis:
        clock = StageClock()
        for c in (self.clock, other.clock):
            for k, v in c.ms.items():
                clock.ms[k] += v
            for k, m in c.samples.items():
                clock.samples[k] += m
            clock.unknown |= c.unknown
        per_fn = dict(self.per_fn)
        for k, (calls, ms) in other.per_fn.items():
            c0, m0 = per_fn.get(k, (0, 0.0))
            per_fn[k] = (c0 + calls, m0 + ms)
        parts = {k: self.parts.get(k, 0.0) + other.parts.get(k, 0.0) for k in self.parts | other.parts}
        return Analysis(clock, self.total + other.total, self.differ + other.differ, parts, per_fn, self.n + other.n)


def analyse(frames: list[Frame]) -> Analysis:
    clock, total, differ = stage_breakdown(frames)
    classes, per_fn = op_classes(frames)
    n = len(frames)
    numpy_models = sum(clock.ms.get(k, 0.0) for k in ("dice CNN", "cocked CNN", "dice face model"))
    cnn = classes["dnn"] + numpy_models  # OpenCV dnn's own time plus the NumPy models' (the JSON weights)
    parts = {"OpenCV image ops": classes["image"], "CNN forward passes": cnn,
             "Python and NumPy glue": max(total - classes["image"] - cnn, 0.0)}
    return Analysis(clock, total, differ, parts, per_fn, n)


def point_counter_cost(frames: list[Frame]) -> float | None:
    """CPU ms per read the learned point counter adds when it is on (cut the strips, one forward pass), or None
    when it runs already (``ReaderConfig.learned_points``) or ships no weights."""
    try:
        from vision.point_strips import cut_strips, load_point_net, strip_maps, strip_probabilities
    except ImportError:
        return None
    net = load_point_net()
    if net is None or not frames or frames[0].reader.cfg.learned_points:
        return None
    maps: dict[int, Any] = {}
    for f in frames:  # the tables are the reader's, made once per calibration: not counted
        cal = f.reader.cal
        maps.setdefault(id(f.reader), strip_maps(cal.lens, cal.homography, f.reader.cfg.geometry, cal.layout))
    strip_probabilities(net, cut_strips(frames[0].image, maps[id(frames[0].reader)]))
    t0 = time.thread_time()
    for f in frames:
        strip_probabilities(net, cut_strips(f.image, maps[id(f.reader)]))
    return 1000 * (time.thread_time() - t0) / len(frames)


# ----------------------------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3, help="timed reads of each frame (default %(default)s)")
    ap.add_argument("--setups", type=int, default=3, help="rendered installations (default %(default)s)")
    ap.add_argument("--frames", type=int, default=4, help="rendered positions per installation, plus one with an arm (default %(default)s)")
    ap.add_argument("--seed", type=int, default=20261127, help="of the renders (default %(default)s)")
    ap.add_argument("--fixtures", type=int, default=None, metavar="N", help="only the first N fixture folders (default: all)")
    ap.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the last one allowed)")
    ap.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE",
                    help="ReaderConfig fields to change (Python literals), e.g. learned_points=True")
    docs_section.add_flag(ap)
    args = ap.parse_args()
    with docs_section.recorded("read-speed", "Board read speed on one core, model files, Pi 4/5 estimate", enabled=args.docs):
        return run(args, with_sets(ap, ReaderConfig(), args.set))


def run(args: argparse.Namespace, cfg: ReaderConfig) -> int:
    cpu = pin_one_core(args.cpu)
    print(f"one core: CPU {cpu} of {os.cpu_count()}, cv2.setNumThreads(1) (OpenCV dnn included), OMP/OpenBLAS/MKL threads 1; "
          f"OpenCV {cv2.__version__}, NumPy {np.__version__}")
    print(f"at start: {load()}")
    if args.set:
        print(f"reader configuration changed: {' '.join(args.set)}")
    fixtures, failed = fixture_frames(args.fixtures, cfg)
    renders, failed_r = render_frames(args.setups, args.frames, args.seed, cfg)
    frames = fixtures + renders
    folders = len({f.name.split("/")[0] for f in fixtures})
    print(f"frames: {len(fixtures)} from {folders} committed fixture folders (tests/data/vision*/), "
          f"{len(renders)} own OpenCV renders ({args.setups} setups, seed {args.seed}); all 1280x720")
    for msg in failed + failed_r:
        print(f"  not calibrated, left out: {msg}")
    if not frames:
        print("no frames to read")
        return 1

    t0, c0 = time.perf_counter(), time.thread_time()
    seen = opened_while_reading(frames[:1])  # cold caches: also the first read, models loaded
    print(f"first read (models loaded on a cold cache): {1000 * (time.perf_counter() - t0):.0f} ms wall, "
          f"{1000 * (time.thread_time() - c0):.0f} ms CPU")
    for f in frames:
        read_once(f)  # warm-up: each reader's first frame
    timing = time_reads(frames, args.repeats)
    print_timing(timing, args.repeats)
    median_wall = float(np.median(timing.wall["all"]))
    for key in ("fixtures", "renders", "all"):
        if timing.cpu.get(key):
            med = float(np.median(timing.cpu[key]))
            print(f"  goal, median <= {GOAL_MS:.0f} ms on one core, {key}: {'met' if med <= GOAL_MS else 'MISSED'} on CPU time ({med:.1f} ms)")
    print(f"  (wall clock, all frames: median {median_wall:.1f} ms on this machine as loaded; on a quiet machine wall ~ CPU)")

    analysed = {key: analyse([f for f in frames if f.source == key]) for key in ("fixtures", "renders")
                if any(f.source == key for f in frames)}
    whole = functools.reduce(lambda a, b: a + b, analysed.values())
    analysed["all"] = whole
    print(f"\nper stage, CPU ms per read (mean; exclusive of the stages nested inside; readings identical to the "
          f"unwrapped reader's: {whole.n - whole.differ}/{whole.n}):")
    print(f"  {'stage':<26}" + "".join(f" {k:>9}" for k in analysed) + "  share (all)")
    labels = sorted(whole.clock.ms, key=lambda lab: -whole.clock.ms[lab])
    for label in labels + ["other (read_board itself)", "total"]:
        row = []
        for a in analysed.values():
            if label == "total":
                ms = a.total
            elif label.startswith("other"):
                ms = a.total - sum(a.clock.ms.values())
            else:
                ms = a.clock.ms.get(label, 0.0)
            row.append(ms / a.n)
        print(f"  {label:<26}" + "".join(f" {v:>9.1f}" for v in row) + f"  {100 * row[-1] * whole.n / max(whole.total, 1e-9):>5.0f}%")
    extra = point_counter_cost(frames)
    if extra is not None:
        print(f"  (the learned point counter is off by default (ReaderConfig.learned_points); on, it would add {extra:.1f} ms per read)")
    clock, n = whole.clock, whole.n

    files = model_files()
    total_bytes = sum(p.stat().st_size for p in files)
    print(f"\nmodel files in vision/ ({', '.join('*' + s for s in MODEL_SUFFIXES)}), and whether the reader opened them reading a frame:")
    for p in files:
        print(f"  {p.name:<22} {p.stat().st_size / 1e6:>6.2f} MB  {'loaded' if p.name in seen else 'not loaded by the board reader'}")
    print(f"  {'total':<22} {total_bytes / 1e6:>6.2f} MB  (goal <= {GOAL_MODEL_BYTES / 1e6:.0f} MB: "
          f"{'met' if total_bytes <= GOAL_MODEL_BYTES else 'MISSED'})")

    macs = macs_per_input()
    print("\nlearned models per read (mean): network inputs run, multiply-accumulates, CPU ms:")
    total_macs = 0.0
    for label in CNN_LABELS:
        inputs = clock.samples.get(label, 0) / n
        per = None if label in clock.unknown else macs.get(label)
        m = None if per is None else inputs * per
        total_macs += m or 0.0
        shown = "MACs unknown (model or its call changed; or no onnx package)" if per is None else f"{per / 1e6:.2f} M each, {m / 1e6:.1f} M per read"
        print(f"  {label:<20} {inputs:>6.1f} inputs  {shown:<36} {clock.ms.get(label, 0.0) / n:>6.1f} ms")
    cnn_ms = sum(clock.ms.get(k, 0.0) for k in CNN_LABELS) / n
    print(f"  {'all':<20} {'':>13}  {total_macs / 1e6:.1f} M MAC per read, {cnn_ms:.1f} ms "
          f"({total_macs / max(cnn_ms, 1e-9) / 1e6:.2f} GMAC/s: small batches, far from the machine's peak)")

    print("\nOpenCV calls per read (CPU ms, from a profile on this thread's clock), the largest:")
    for fn_name, (calls, ms) in sorted(whole.per_fn.items(), key=lambda kv: -kv[1][1])[:10]:
        print(f"  {fn_name:<22} {calls / n:>7.1f} calls {ms / n:>7.2f} ms")

    print(f"\nthis machine's cost per op (min of repeats, CPU time; {load()}):")
    for label, ms in image_op_costs():
        print(f"  {label:<34} {ms:>7.2f} ms per 1280x720 frame")
    copy_mbs = copy_bandwidth_mbs()
    resnet = resnet18_ms()
    sysbench = sysbench_eps()
    factors = pi_factors(sysbench, copy_mbs, resnet)
    print("\nPi estimate from the per-op cost (one core), all frames:")
    for key, a in reversed(analysed.items()):  # all first, with its table
        per_read = {k: v / a.n for k, v in a.parts.items()}
        print_estimate(key, per_read, float(np.median(timing.cpu[key])), factors, table=key == "all")
    print("  (a range, not a measurement on a Pi: each factor compares different programs here and there; the assumptions are in\n"
          "   the docstring of benchmarks/bench_read_speed.py)")

    print(f"\nat end: {load()}")
    print("sources:")
    for s in SOURCES:
        print(f"  {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
