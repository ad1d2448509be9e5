"""The engine is pure: importing it loads no hardware, vision or project package."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_importing_engine_loads_no_io_packages():
    code = (
        "import sys, engine, engine.game, engine.judge, engine.ids, engine.board, engine.selfplay;"
        "bad = [m for m in ('cv2', 'numpy', 'serial', 'gpiozero', 'picamera2', 'vision', 'referee', 'firmware_bridge') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            else:
                continue
            for name in names:
                assert name in allowed or name == "__future__", f"{path.name} imports {name}"
        for bad in ("open(", "print(", "input("):
            assert bad not in path.read_text().replace("# ", ""), f"{path.name} does I/O: {bad}"
