"""``bgref leds``: diagnostics of the LEDs and the LED controller.

    bgref leds --simulate --signal illegal --points 13,7     # draw what the LEDs would show
    bgref leds --simulate --signal cube --value 4 --owner dark --json
    bgref leds --list-ports                                  # candidate controllers
    bgref leds --table                                       # what each signal looks like
    bgref leds --signal turn --side dark --hold 5            # show it on the real board
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from .errors import BridgeError
from .layout import Layout, parse_spots
from .link import LedController
from .ports import SerialConnector, list_candidates
from .signals import SIGNAL_TABLE, Look, Signals
from .simulated import SimulatedBoard, state_dict

SIGNALS = ("illegal", "accepted", "turn", "reroll", "teaching", "cube", "camera-fault", "clear")


def register(subparsers: Any) -> None:
    """Add the ``leds`` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser("leds", help="show a signal on the LEDs (or simulated), list controller ports")
    p.add_argument("--simulate", action="store_true", help="no controller: print the LED state instead")
    p.add_argument("--list-ports", action="store_true", help="list serial ports, LED controllers first")
    p.add_argument("--table", action="store_true", help="print the signal table (colours and patterns)")
    p.add_argument("--signal", choices=SIGNALS, default="clear", help="the signal to show")
    p.add_argument("--points", default="", help="points for illegal/accepted, e.g. 13,7,bar-dark")
    p.add_argument("--sources", default="", help="teaching: legal source points")
    p.add_argument("--destinations", default="", help="teaching: destinations of the lifted checker")
    p.add_argument("--side", choices=("dark", "light"), default="dark", help="turn/reroll: whose")
    p.add_argument("--value", type=int, default=1, help="cube value 1..64")
    p.add_argument("--owner", choices=("dark", "light"), default=None, help="cube owner (default centred)")
    p.add_argument("--home", choices=("right", "left"), default="right", help="home boards on dark's right/left")
    p.add_argument("--dark-edge", choices=("start", "end"), default="start",
                   help="dark sits at the strip's start edge (pixels 0-12) or its end edge (pixels 23-35)")
    p.add_argument("--json", action="store_true", help="print the LED state as JSON")
    p.add_argument("--port", default=None, help="controller port (default: find USB 2E8A:0005)")
    p.add_argument("--hold", type=float, default=3.0, help="seconds to keep a real board showing the signal")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``bgref leds``; returns the exit code."""
    try:
        if args.list_ports:
            return _list_ports()
        if args.table:
            return _table()
        if args.simulate:
            return _simulate(args)
        return _real(args)
    except BridgeError as exc:
        print("bgref leds: %s" % exc, file=sys.stderr)
        return 1 if not isinstance(exc, ValueError) else 2


def apply_signal(signals: Signals, args: argparse.Namespace) -> None:
    """Call the signal named by ``args.signal`` with its arguments."""
    actions: dict[str, Callable[[], None]] = {
        "illegal": lambda: signals.illegal_play(parse_spots(args.points)),
        "accepted": lambda: signals.play_accepted(parse_spots(args.points)),
        "turn": lambda: signals.your_turn(args.side),
        "reroll": lambda: signals.reroll_needed(args.side),
        "teaching": lambda: signals.teaching(parse_spots(args.sources), parse_spots(args.destinations)),
        "cube": lambda: signals.cube(args.value, args.owner),
        "camera-fault": lambda: signals.camera_fault(True),
        "clear": signals.clear,
    }
    actions[args.signal]()


def _simulate(args: argparse.Namespace) -> int:
    board = SimulatedBoard(Layout(args.home, args.dark_edge))
    apply_signal(Signals(board, lambda: 0.0), args)
    print(json.dumps(state_dict(board.current), indent=1) if args.json else board.text())
    return 0


def _real(args: argparse.Namespace) -> int:
    controller = LedController(SerialConnector(args.port), time.monotonic, Layout(args.home, args.dark_edge), report=_say)
    signals = Signals(controller, time.monotonic)
    apply_signal(signals, args)
    try:
        return _hold(controller, signals, args.hold)
    finally:
        controller.close()


def _hold(controller: LedController, signals: Signals, seconds: float) -> int:
    end = time.monotonic() + max(seconds, 0.0)
    deadline = time.monotonic() + 3.0
    while not controller.shown and controller.problem is None and time.monotonic() < deadline:
        _pace(controller, signals)
    if not controller.shown:
        if controller.problem is None:
            _say("the LED controller did not acknowledge within 3 s")
        return 1
    print("shown on the LED controller (firmware %s)" % _fw(controller))
    while time.monotonic() < end:
        _pace(controller, signals)
    return 0


def _pace(controller: LedController, signals: Signals) -> None:
    controller.service()
    signals.tick()
    time.sleep(0.01)  # command-line pacing only; the library never sleeps


def _fw(controller: LedController) -> str:
    return controller.firmware.firmware if controller.firmware else "?"


def _list_ports() -> int:
    ports = list_candidates()
    if not ports:
        print("no serial ports found")
    for info in ports:
        mark = "LED controller" if info.is_controller else ""
        print("%-24s %-10s %-32s %s" % (info.device, info.usb_id, info.description[:32], mark))
    return 0


def _table() -> int:
    print("| signal | colour | pattern | where | meaning |")
    print("|---|---|---|---|---|")
    for look in SIGNAL_TABLE.values():
        print(table_row(look))
    return 0


def table_row(look: Look) -> str:
    """One signal as a Markdown table row (the same rows are in hardware/README.md)."""
    return "| %s | %s | %s | %s | %s |" % (look.signal, look.colour.name, look.pattern.label, look.where, look.meaning)


def _say(message: str) -> None:
    print("bgref leds: %s" % message, file=sys.stderr)
