"""bgref LED controller entry point (MicroPython, Raspberry Pi Pico).

Copy to the Pico together with ``bgled.py`` and ``protocol.py`` (the host's
``firmware_bridge/protocol.py``): see ``hardware/firmware/README.md``.
"""

import select
import sys
import time

import bgled
import machine
import micropython
import neopixel
import rp2

DATA_PIN = 16  # GP16, physical pin 21 -> 74AHCT125 -> 330 ohm -> strip DIN
LED_COUNT = 36  # must match firmware_bridge.layout.LED_COUNT
WATCHDOG_MS = 8000  # rp2 maximum is about 8.3 s


def make_controller(clock=None, diff=None):
    """The controller driving the real strip on DATA_PIN."""
    strip = neopixel.NeoPixel(machine.Pin(DATA_PIN), LED_COUNT)
    clock = clock or time.ticks_ms
    diff = diff or time.ticks_diff
    return bgled.Controller(strip, LED_COUNT, clock, diff)


def usb_port():
    """The USB serial port (the REPL's stdin/stdout, as raw bytes)."""
    return bgled.StreamPort(sys.stdin.buffer, sys.stdout.buffer, select, pollable=sys.stdin)


def main(port=None, controller=None, steps=None):
    """Run the controller until BOOTSEL is pressed (then back to the REPL, for updates)."""
    micropython.kbd_intr(-1)  # a 0x03 byte in a frame must not raise KeyboardInterrupt
    controller = controller or make_controller()
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    bgled.run(controller, port or usb_port(), steps, feed=watchdog.feed, stop=rp2.bootsel_button)
    micropython.kbd_intr(3)  # maintenance: Ctrl-C and mpremote work again
    return machine.Timer(period=1000, callback=lambda timer: watchdog.feed())  # the REPL stays up


if __name__ == "__main__":
    maintenance_timer = main()  # kept referenced while the REPL runs
