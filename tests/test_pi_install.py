"""hardware/install-pi.sh: clean under shellcheck, and its steps (printed by --dry-run) are the ones
that give a working Pi: apt's picamera2/numpy/OpenCV, a venv that sees them, bgref without pip's
numpy or OpenCV, the service user, state and configuration, udev, firmware, service, self-check."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "hardware" / "install-pi.sh"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt-get install shellcheck)")
def test_install_script_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", "--shell=bash", "--severity=style", str(SCRIPT), str(ROOT / "hardware" / "firmware" / "deploy.sh")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def dry_run(tmp_path: Path, *args: str, codename: str = "bookworm") -> subprocess.CompletedProcess:
    os_release = tmp_path / "os-release"
    os_release.write_text(f'PRETTY_NAME="Debian GNU/Linux 12 ({codename})"\nVERSION_CODENAME={codename}\n')
    env = {"PATH": "/usr/bin:/bin", "BGREF_OS_RELEASE": str(os_release)}
    return subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True, text=True, env=env, timeout=60)


def steps(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def test_dry_run_prints_the_install_in_order(tmp_path) -> None:
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    done = steps(result.stdout)
    text = "\n".join(done)

    def at(pattern: str) -> int:
        hits = [i for i, line in enumerate(done) if re.search(pattern, line)]
        assert hits, f"no step matches {pattern!r}:\n{text}"
        return hits[0]

    order = [
        at(r"apt-get install .*python3-picamera2.*python3-numpy"),
        at(r"python3 -m venv --system-site-packages /opt/bgref/\.venv"),
        at(r"pip uninstall -y numpy opencv-python opencv-python-headless"),
        at(r"numpy==1\.24"),
        at(r"/opt/bgref/\.venv/bin/pip install --no-deps --force-reinstall -c /opt/bgref/constraints-apt\.txt /opt/bgref$"),
        at(r"pip install -c /opt/bgref/constraints-apt\.txt opencv-python-headless==4\.8\.1\.78 .* mpremote"),
        at(r"useradd --system --home-dir /var/lib/bgref"),
        at(r"install -d -o bgref -g bgref -m 0750 /var/lib/bgref"),
        at(r"install -m 0644 /opt/bgref/hardware/config.example.toml /etc/bgref/config.toml"),
        at(r"99-bgref-leds.rules /etc/udev/rules.d/"),
        at(r"deploy\.sh"),
        at(r"bgref\.service /etc/systemd/system/"),
        at(r"systemctl enable bgref"),
        at(r"runuser -u bgref .*LG_WD=/var/lib/bgref.* selfcheck"),
        at(r"systemctl start bgref"),
    ]
    assert order == sorted(order)
    # pip never brings a numpy into the venv (issue 47: picamera2 fails to import then), and every pip
    # install is held to apt's numpy by the constraint; the one OpenCV is a wheel built for numpy 1.x
    for line in done:
        if "pip install" in line:  # (pip uninstall of them is the mend for an old install)
            assert "-c /opt/bgref/constraints-apt.txt" in line and not re.search(r"\bnumpy\b", line.replace("constraints-apt", "")), line
            assert re.findall(r"opencv\S*", line) in ([], ["opencv-python-headless==4.8.1.78"]), line
    assert "python3-opencv" not in text  # Debian's 4.6: no cv2.utils.logging, and it misses dice the 4.8 wheel reads
    result_text = result.stdout
    assert "picamera2 imports" in result_text and "not apt" in result_text  # the import check after pip


def test_dry_run_with_spi_leds_enables_spi_and_skips_the_pico(tmp_path) -> None:
    done = "\n".join(steps(dry_run(tmp_path, "--leds", "spi").stdout))
    assert "raspi-config nonint do_spi 0" in done
    assert 'leds = "spi"' in done
    assert "deploy.sh" not in done


def test_wrong_option_and_other_release_are_said(tmp_path) -> None:
    bad = dry_run(tmp_path, "--leds", "usb")
    assert bad.returncode == 2 and "--leds is pico or spi" in bad.stderr
    other = dry_run(tmp_path, codename="bullseye")
    assert other.returncode == 0 and "made for Raspberry Pi OS Bookworm" in other.stderr


def test_service_runs_in_the_state_directory_with_lgpio_pipes_there() -> None:
    unit = (ROOT / "hardware" / "bgref.service").read_text()
    assert "WorkingDirectory=/var/lib/bgref" in unit and "Environment=LG_WD=/var/lib/bgref" in unit
    assert "StateDirectory=bgref" in unit and "RestartPreventExitStatus=2" in unit
    example = (ROOT / "hardware" / "config.example.toml").read_text()
    assert '# leds = "pico"' in example  # the line the installer turns on for --leds spi


def test_cli_runs_on_an_opencv_without_utils_logging(monkeypatch) -> None:
    """Raspberry Pi OS's (Debian's) OpenCV 4.6 has no cv2.utils.logging: `bgref calibrate` crashed there."""
    import types

    import cv2

    from vision.cli import _quiet_opencv

    levels = []
    monkeypatch.setattr(cv2, "utils", types.SimpleNamespace(), raising=False)
    monkeypatch.setattr(cv2, "setLogLevel", levels.append, raising=False)
    _quiet_opencv()
    assert levels == [2]
