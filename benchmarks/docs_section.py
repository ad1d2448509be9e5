"""A benchmark writes its own section of ``docs/benchmarks.md``.

Each section lies between ``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->``; a run
replaces its own section and leaves the others alone, so several benchmarks share one
file.  A benchmark opts in with ``--docs``::

    parser = argparse.ArgumentParser(...)
    docs_section.add_flag(parser)
    args = parser.parse_args()
    with docs_section.recorded("plays", "Legal plays per position", enabled=args.docs):
        ...  # everything printed to stdout here goes to the console and into the section

The section says the command that made it (run it again to check a figure), when, on
which commit and on what machine.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import os
import platform
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def add_flag(parser: argparse.ArgumentParser) -> None:
    """``--docs``: also write this run's output into its section of docs/benchmarks.md."""
    parser.add_argument("--docs", action="store_true", help=f"also write this run's output into its section of {DOCS.relative_to(ROOT)}")


def markers(name: str) -> tuple[str, str]:
    """The opening and closing marker of section ``name``."""
    if not _NAME.match(name):
        raise ValueError(f"{name!r} is not a section name: use lower-case letters, digits, - and _")
    return f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"


def replace_section(document: str, name: str, body: str) -> str:
    """``document`` with section ``name`` holding ``body``; a section not there yet is added at the end."""
    start, end = markers(name)
    block = f"{start}\n{body.strip()}\n{end}"
    opened, closed = document.count(start), document.count(end)
    if opened == closed == 0:
        return document.rstrip("\n") + ("\n\n" if document.strip() else "") + block + "\n"
    if opened != 1 or closed != 1 or document.index(start) > document.index(end):
        raise ValueError(f"{DOCS.name}: section {name!r} must have exactly one {start} followed by one {end}; mend the file by hand")
    before, rest = document.split(start, 1)
    after = rest.split(end, 1)[1]
    return before + block + after


def section_body(title: str, command: str, output: str, when: datetime.datetime | None = None, markdown: bool = False) -> str:
    """The text of a section: title, the command to run again, the run's circumstances and its
    output (as printed, in a code block; ``markdown``: as written, e.g. a table)."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    if markdown:
        shown = output.strip() + "\n"
    else:
        fence = "```"
        while fence in output:
            fence += "`"
        shown = f"{fence}text\n{output.rstrip()}\n{fence}\n"
    return (
        f"### {title}\n\n"
        f"Reproduce: `{command}`\n\n"
        f"Run {when:%Y-%m-%d %H:%M} UTC on {_commit()}; {_machine()}.\n\n"
        f"{shown}"
    )


def write_section(name: str, title: str, output: str, command: str | None = None, path: Path = DOCS, markdown: bool = False) -> Path:
    """Replace section ``name`` of ``path`` with this run's ``output`` (``markdown``: not in a code block)."""
    command = command or _command()
    document = path.read_text(encoding="utf-8") if path.exists() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    new = replace_section(document, name, section_body(title, command, output, markdown=markdown))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(new, encoding="utf-8")
    os.replace(tmp, path)
    return path


class _Tee(io.TextIOBase):
    def __init__(self, out: io.TextIOBase | object) -> None:
        self.out = out
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.out.write(text)  # type: ignore[attr-defined]
        return self.kept.write(text)

    def flush(self) -> None:
        self.out.flush()  # type: ignore[attr-defined]


@contextlib.contextmanager
def recorded(name: str, title: str, enabled: bool = True, path: Path = DOCS) -> Iterator[None]:
    """Print as usual; on a clean exit, and if ``enabled``, write what was printed to section ``name``."""
    markers(name)  # a bad name fails before the run, not after it
    if not enabled:
        yield
        return
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    written = write_section(name, title, tee.kept.getvalue(), path=path)
    print(f"wrote section {name!r} of {written}", file=sys.stderr)


def _command() -> str:
    script = Path(sys.argv[0]).resolve()
    try:
        shown = str(script.relative_to(ROOT))
    except ValueError:
        shown = sys.argv[0]
    args = [a for a in sys.argv[1:] if a not in ("--docs", "--write-docs")]
    return " ".join([".venv/bin/python", shlex.quote(shown), *map(shlex.quote, args)])


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        # changes to this file itself (an earlier run's section) do not make a run's code differ
        mine = f":(exclude){DOCS.relative_to(ROOT)}"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", mine], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "an unknown commit (no git)"
    return f"commit {head}" + (" with uncommitted changes" if dirty else "")


def _machine() -> str:
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
