#!/usr/bin/env bash
# Take a fresh Raspberry Pi OS Bookworm (64-bit, Pi 4 or Pi 5) to a running bgref service.
#
#   sudo hardware/install-pi.sh [--dry-run] [--leds pico|spi] [--no-firmware] [--no-start] [--prefix DIR]
#
# From a checkout of bgref (git clone, or a copy on a USB stick).  Safe to run again: it updates the
# installed copy and keeps /etc/bgref/config.toml, the calibration and the matches in /var/lib/bgref.
# --dry-run prints every step instead of running it (no root needed).
#
# Why it is built this way: apt's picamera2 (and simplejpeg, libcamera's bindings) are compiled against
# apt's numpy (1.24 on Bookworm).  A numpy 2 from pip in the virtual environment makes `import picamera2`
# fail ("numpy.dtype size changed"), and so does an OpenCV wheel that pulls numpy 2.  So the venv sees the
# system's packages (--system-site-packages); numpy, pyserial, gpiozero and lgpio come from apt; bgref is
# installed with --no-deps; and pip adds only pure-Python packages and OpenCV 4.8.1.78, a wheel built
# against numpy 1.x, all pinned to apt's numpy.  Why not apt's python3-opencv (4.6)?  It lacks
# cv2.utils.logging, and on the project's rendered games it misses a die the 4.8 wheel reads (measured on
# Debian bookworm with apt's numpy 1.24.2: tests/test_referee_e2e.py fails 1 of 4 with 4.6, passes with 4.8.1).
set -euo pipefail

PREFIX=/opt/bgref
STATE=/var/lib/bgref
ETC=/etc/bgref
LEDS=pico
DRY_RUN=0
FIRMWARE=1
START=1
OS_RELEASE=${BGREF_OS_RELEASE:-/etc/os-release}   # tests point this at another file

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --leds) LEDS=${2:?--leds needs pico or spi}; shift ;;
        --no-firmware) FIRMWARE=0 ;;
        --no-start) START=0 ;;
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-pi: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
case "$LEDS" in pico|spi) ;; *) echo "install-pi: --leds is pico or spi, not $LEDS" >&2; exit 2 ;; esac

SRC=$(cd "$(dirname "$0")/.." && pwd)
VENV=$PREFIX/.venv
STEP=0

say() { printf '\n== %s\n' "$*"; }
warn() { printf 'install-pi: %s\n' "$*" >&2; }
# Every change to the system goes through run, so --dry-run shows exactly what would be done.
run() {
    printf '+ %s\n' "$*"
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}
step() { STEP=$((STEP + 1)); say "$STEP. $*"; }

# --- 0. where we are -------------------------------------------------------------------------------
codename=unknown
if [ -r "$OS_RELEASE" ]; then
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$OS_RELEASE" | tr -d '"')
    codename=${codename:-unknown}
fi
if [ "$codename" != bookworm ]; then
    warn "this is made for Raspberry Pi OS Bookworm; this system says '$codename' (going on, but package names may differ)"
fi
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install-pi: run it as root: sudo $0 $*" >&2
    exit 1
fi
model=$(tr -d '\0' 2>/dev/null < /proc/device-tree/model || echo "not a Raspberry Pi")
echo "install-pi: $model; installing $SRC into $PREFIX (LEDs: $LEDS)"

# --- 1. packages from apt ----------------------------------------------------------------------------
step "apt packages (picamera2, numpy, serial, GPIO, SPI from Raspberry Pi OS)"
APT_PACKAGES=(
    python3-venv python3-pip
    python3-picamera2          # the camera; pulls libcamera and apt's numpy
    python3-numpy              # numpy 1.24, which picamera2 is built for
    python3-serial python3-gpiozero python3-lgpio python3-spidev
    rpicam-apps-lite           # rpicam-hello --list-cameras, for trouble-shooting the camera
)
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

# --- 2. the program ----------------------------------------------------------------------------------
step "copy bgref to $PREFIX"
run install -d -m 0755 "$PREFIX"
if [ "$SRC" != "$PREFIX" ]; then
    # the checkout without its own venv or git history; the installed copy is the service's
    run tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude='*.pyc' -cf "$PREFIX.tar" .
    run tar -C "$PREFIX" -xf "$PREFIX.tar"
    run rm -f "$PREFIX.tar"
fi

step "virtual environment that sees apt's picamera2 and numpy"
run python3 -m venv --system-site-packages "$VENV"
# an older install may hold pip's numpy 2 or an OpenCV wheel (issue 47): out with them; pip leaves apt's alone
run "$VENV/bin/pip" uninstall -y numpy opencv-python opencv-python-headless opencv-contrib-python
# pip adds pure-Python packages and an OpenCV built for numpy 1.x; numpy stays apt's (the constraint)
OPENCV_WHEEL="opencv-python-headless==4.8.1.78"
apt_numpy=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo "1.24.2")
run sh -c "echo 'numpy==$apt_numpy' > '$PREFIX/constraints-apt.txt'"
run "$VENV/bin/pip" install --no-deps --force-reinstall -c "$PREFIX/constraints-apt.txt" "$PREFIX"
run "$VENV/bin/pip" install -c "$PREFIX/constraints-apt.txt" "$OPENCV_WHEEL" "starlette>=0.37" "uvicorn>=0.29" mpremote
# the check that would have caught issue 47: numpy must be apt's, and picamera2 must import
run "$VENV/bin/python" -c "
import numpy, cv2
assert numpy.__file__.startswith('/usr/lib/python3/dist-packages/'), f'numpy comes from {numpy.__file__}, not apt: remove it from the venv'
print('numpy', numpy.__version__, 'from apt; OpenCV', cv2.__version__)
try:
    import picamera2
    print('picamera2 imports')
except Exception as exc:
    print('picamera2 does not import:', type(exc).__name__, exc)
"

# --- 3. the service user, its state and configuration --------------------------------------------
step "service user bgref and its folders"
if ! id bgref >/dev/null 2>&1; then
    run useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin bgref
fi
for group in dialout gpio video spi; do
    if getent group "$group" >/dev/null; then run usermod -a -G "$group" bgref; fi
done
run install -d -o bgref -g bgref -m 0750 "$STATE"
run install -d -m 0755 "$ETC"
if [ -e "$ETC/config.toml" ]; then
    echo "kept $ETC/config.toml"
else
    run install -m 0644 "$PREFIX/hardware/config.example.toml" "$ETC/config.toml"
    if [ "$LEDS" = spi ]; then
        run sed -i 's/^# leds = "pico"/leds = "spi"/' "$ETC/config.toml"
    fi
fi

# --- 4. devices ------------------------------------------------------------------------------------
step "udev rule for the LED controller (/dev/bgref-leds, ModemManager kept off)"
run install -m 0644 "$PREFIX/hardware/99-bgref-leds.rules" /etc/udev/rules.d/99-bgref-leds.rules
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty

if [ "$LEDS" = spi ]; then
    step "SPI for a WS2812 strip on GPIO10 (MOSI, header pin 19)"
    run raspi-config nonint do_spi 0
    case "$model" in
        *"Pi 4"*)
            # the Pi 4's SPI clock follows the core clock; a fixed core clock keeps the WS2812 timing
            boot_config=/boot/firmware/config.txt
            if ! grep -q '^core_freq_min=500' "$boot_config" 2>/dev/null; then
                run sh -c "echo 'core_freq_min=500  # bgref: steady SPI clock for the WS2812 strip' >> $boot_config"
                warn "reboot once for the SPI clock setting to apply"
            fi
            ;;
    esac
fi

# --- 5. the Pico's firmware --------------------------------------------------------------------------
if [ "$LEDS" = pico ] && [ "$FIRMWARE" = 1 ]; then
    step "LED controller firmware onto the Pico (MicroPython must already be on it)"
    run systemctl stop bgref.service || true   # the port must be free
    pico=""
    for candidate in /dev/bgref-leds /dev/ttyACM0; do
        if [ -e "$candidate" ]; then pico=$candidate; break; fi
    done
    if [ -n "$pico" ] || [ "$DRY_RUN" = 1 ]; then
        if ! run env PATH="$VENV/bin:$PATH" timeout 30 "$PREFIX/hardware/firmware/deploy.sh" "${pico:-/dev/bgref-leds}"; then
            warn "the firmware could not be copied: if the Pico already runs bgref's firmware, press its BOOTSEL"
            warn "button briefly and run: sudo env PATH=$VENV/bin:\$PATH $PREFIX/hardware/firmware/deploy.sh"
        fi
    else
        warn "no Pico found: flash MicroPython on it (hardware/firmware/README.md), plug it in and run this again"
    fi
fi

# --- 6. the service ------------------------------------------------------------------------------------
step "systemd service"
run install -m 0644 "$PREFIX/hardware/bgref.service" /etc/systemd/system/bgref.service
run systemctl daemon-reload
run systemctl enable bgref.service

# --- 7. what works -----------------------------------------------------------------------------------
step "self-check, as the service user (camera, pin factory, LED controller, LEDs)"
run systemctl stop bgref.service || true   # the check needs the camera and the port to itself
check=0
run runuser -u bgref -- env LG_WD="$STATE" STATE_DIRECTORY="$STATE" BGREF_CONFIG="$ETC/config.toml" \
    "$VENV/bin/bgref" selfcheck || check=$?
if [ "$START" = 1 ]; then
    run systemctl start bgref.service
    echo "bgref runs: journalctl -u bgref -f   (the page's address and PIN are in the log)"
fi
if [ "$check" != 0 ]; then
    warn "the self-check found problems (above); see hardware/README.md, 'Trouble-shooting'"
fi
exit 0
