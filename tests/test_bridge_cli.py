"""``bgref leds`` through its register(subparsers) hook, and the package's import hygiene."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from firmware_bridge import cli


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="bgref")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["leds", *argv])
    return args.func(args)


def test_simulate_prints_the_board(capsys):
    assert run("--simulate", "--signal", "illegal", "--points", "13,7") == 0
    out = capsys.readouterr().out
    assert out.count("R!") == 2 and "7                red blink-fast" in out


def test_simulate_json(capsys):
    assert run("--simulate", "--signal", "cube", "--value", "16", "--owner", "dark", "--json") == 0
    leds = json.loads(capsys.readouterr().out)["leds"]
    assert {n for n, led in leds.items() if led["pattern"] != "off"} == {"cube-16", "cube-owner-dark"}


def test_simulate_home_on_the_left_changes_the_drawing(capsys):
    run("--simulate", "--signal", "turn", "--side", "light", "--home", "left")
    left = capsys.readouterr().out
    run("--simulate", "--signal", "turn", "--side", "light")
    assert left.splitlines()[0] != capsys.readouterr().out.splitlines()[0]


def test_a_bad_point_is_a_clear_message_and_exit_code_2(capsys):
    assert run("--simulate", "--signal", "illegal", "--points", "13,25") == 2
    err = capsys.readouterr().err
    assert err.startswith("bgref leds: '25' is not a point") and "Traceback" not in err


def test_table_lists_every_signal(capsys):
    assert run("--table") == 0
    out = capsys.readouterr().out
    assert "illegal" in out and "blink-fast" in out and "status-camera-fault" in out


def test_list_ports_runs_without_hardware(capsys):
    assert run("--list-ports") == 0
    assert capsys.readouterr().out.strip()


def test_a_missing_port_is_one_clear_message_and_exit_code_1(capsys):
    assert run("--signal", "turn", "--port", "/dev/bgref-no-such-port", "--hold", "0") == 1
    err = capsys.readouterr().err
    assert err.count("no LED controller at /dev/bgref-no-such-port") == 1 and "Traceback" not in err


def test_importing_the_package_touches_no_hardware_and_no_other_layer():
    code = (
        "import sys, firmware_bridge, firmware_bridge.cli;"
        "bad = [m for m in ('engine', 'vision', 'referee', 'gpiozero', 'cv2', 'picamera2') if m in sys.modules];"
        "print(bad)"
    )
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("module", ["engine", "vision", "referee"])
def test_no_source_file_imports_another_layer(module):
    root = os.path.join(os.path.dirname(__file__), "..", "firmware_bridge")
    for name in os.listdir(root):
        if name.endswith(".py"):
            with open(os.path.join(root, name), encoding="utf-8") as source:
                text = source.read()
            assert "import %s" % module not in text and "from %s" % module not in text, name


def test_the_hardware_readme_carries_the_signal_table_unchanged():
    from firmware_bridge import SIGNAL_TABLE

    with open(os.path.join(os.path.dirname(__file__), "..", "hardware", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    rows = [line for line in readme.splitlines() if line.startswith("| ") and line.count("|") == 6]
    table = [r for r in rows if r.split("|")[1].strip() in SIGNAL_TABLE]
    assert table == [cli.table_row(look) for look in SIGNAL_TABLE.values()]


def test_the_readme_index_map_matches_the_layout():
    from firmware_bridge import Layout

    order = Layout("right").order
    assert order[6] == "bar-dark" and order[13] == "turn-dark" and order[29] == "bar-light"
    assert order[0:6] == ("12", "11", "10", "9", "8", "7") and order[30:] == ("18", "17", "16", "15", "14", "13")
    assert order[15:21] == tuple("cube-%d" % v for v in (2, 4, 8, 16, 32, 64))
