#!/usr/bin/env sh
# Copy the LED controller firmware to a Pico running MicroPython, then reset it.
# Usage: hardware/firmware/deploy.sh [PORT]      (default: mpremote's auto-detect)
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
connect=${1:+connect "$1"}
# shellcheck disable=SC2086
mpremote $connect \
  cp "$root/firmware_bridge/protocol.py" :protocol.py + \
  cp "$here/bgled.py" :bgled.py + \
  cp "$here/main.py" :main.py + \
  reset
