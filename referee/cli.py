"""The `bgref` command line.

Each package that offers subcommands has a ``cli`` module with a
``register(subparsers)`` function; it is imported only when its command runs so
that `bgref plays` does not pay for OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# The reader's matrix products (vision.cocked's network) are small: OpenBLAS's threads only cost there,
# 5 to 20 times the single-threaded time beside other work. Set before anything imports NumPy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# subcommand -> module that registers it
_COMMANDS: dict[str, str] = {
    "plays": "referee.cli_engine",
    "judge": "referee.cli_engine",
    "calibrate": "vision.cli",
    "read": "vision.cli",
    "dice": "vision.cli",
    "demo": "referee.demo",
    "check-match": "referee.cli_records",
    "convert": "referee.cli_records",
    "show": "referee.cli_records",
    "leds": "firmware_bridge.cli",
    "watch": "referee.commands",
    "replay": "referee.commands",
    "snapshot": "referee.selfcheck",
    "selfcheck": "referee.selfcheck",
    "show-calls": "referee.calls",
}


def _parser(only: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bgref", description="Electronic referee for a real backgammon board.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = sorted(set(_COMMANDS.values())) if only is None else [_COMMANDS[only]]
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:  # a package not built yet or a missing optional dependency
            if only is not None:
                raise SystemExit(f"bgref {only}: cannot load {name}: {exc}") from None
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = _parser(command if command in _COMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
