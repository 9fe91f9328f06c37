#!/usr/bin/env python3
"""Writes the fixtures of `imgdiff tune` and `imgdiff batch` (standard library only, plus
libjpeg-turbo's cjpeg/djpeg for the JPEG pair: `apt-get install libjpeg-turbo-progs`).

Fixtures/tune/noise/{ref,new}/: render noise, pairs that must pass.
  jitter-1.png          every channel of ~45% of the pixels moved by one level
  jitter-2.png          a dark theme, channels moved by up to two levels
  gradient-rounding.png a gradient rounded down instead of to nearest (banding shifts by one)
  text-aa-offset.png    all text drawn 0.1 px further right (other glyph edge coverage)
  text-aa-gamma.png     the same text, anti-aliasing coverage raised to the power 0.9
  jpeg-recompress.jpg   a JPEG (quality 92) and the same pixels re-encoded at quality 92
Fixtures/tune/changes/{ref,new}/: real changes, pairs that must fail.
  moved-element.png     the button moved 3 px right
  changed-text.png      "Sign in" became "Log in"
  colour-change.png     the button went from blue to indigo
Fixtures/batch/{ref,new}/: a small snapshot suite with changed, identical, new and deleted
  files, for `imgdiff batch` and the screenshot in Docs/report.png.

Everything is deterministic: re-running the script rewrites the same bytes.
"""
import os
import random
import shutil
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")

# --- PNG -------------------------------------------------------------------------------------


def write_png(path, canvas):
    """Writes an 8-bit RGB PNG of a Canvas."""
    raw = bytearray()
    for y in range(canvas.height):
        raw.append(0)
        for x in range(canvas.width):
            raw += bytes(canvas.pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", canvas.width, canvas.height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def ppm_bytes(canvas):
    header = b"P6\n%d %d\n255\n" % (canvas.width, canvas.height)
    body = bytearray()
    for y in range(canvas.height):
        for x in range(canvas.width):
            body += bytes(canvas.pixel(x, y))
    return header + bytes(body)


def jpeg_encode(ppm, quality):
    return subprocess.run(
        ["cjpeg", "-quality", str(quality), "-optimize"], input=ppm, capture_output=True, check=True
    ).stdout


def jpeg_decode_to_ppm(jpeg):
    return subprocess.run(["djpeg", "-ppm"], input=jpeg, capture_output=True, check=True).stdout


# --- Drawing ---------------------------------------------------------------------------------


class Canvas:
    """Floating-point RGB, composited with exact box coverage; rounded when written."""

    def __init__(self, width, height, background, rounding=round):
        self.width, self.height = width, height
        self.rounding = rounding
        self.data = [[list(map(float, background)) for _ in range(width)] for _ in range(height)]

    def pixel(self, x, y):
        return tuple(max(0, min(255, int(self.rounding(v)))) for v in self.data[y][x])

    def blend(self, x, y, color, coverage):
        if coverage <= 0 or not (0 <= x < self.width and 0 <= y < self.height):
            return
        coverage = min(coverage, 1.0)
        p = self.data[y][x]
        for c in range(3):
            p[c] = p[c] * (1 - coverage) + color[c] * coverage

    def rect(self, x0, y0, x1, y1, color, gamma=1.0):
        """Fills [x0, x1) x [y0, y1) (fractional edges get partial coverage)."""
        for y in range(int(y0), min(self.height, int(y1) + 1)):
            cy = max(0.0, min(y + 1, y1) - max(y, y0))
            if cy <= 0:
                continue
            for x in range(int(x0), min(self.width, int(x1) + 1)):
                cx = max(0.0, min(x + 1, x1) - max(x, x0))
                if cx > 0:
                    self.blend(x, y, color, (cx * cy) ** gamma)

    def rounded_rect(self, x0, y0, x1, y1, radius, color):
        """A rounded rectangle, its corners supersampled 4 x 4."""
        for y in range(int(y0), min(self.height, int(y1) + 1)):
            for x in range(int(x0), min(self.width, int(x1) + 1)):
                hits = 0
                for sy in range(4):
                    for sx in range(4):
                        px, py = x + (sx + 0.5) / 4, y + (sy + 0.5) / 4
                        if not (x0 <= px < x1 and y0 <= py < y1):
                            continue
                        cx = min(max(px, x0 + radius), x1 - radius)
                        cy = min(max(py, y0 + radius), y1 - radius)
                        if (px - cx) ** 2 + (py - cy) ** 2 <= radius * radius:
                            hits += 1
                self.blend(x, y, color, hits / 16)

    def circle(self, cx, cy, r, color):
        self.rounded_rect(cx - r, cy - r, cx + r, cy + r, r, color)

    def text(self, x, y, string, color, scale=1.5, gamma=1.0):
        """Draws a 5x7 bitmap font, each font pixel a `scale`-sized box: fractional positions
        and scales give anti-aliased edges as a rasteriser would. Row-wise runs of font pixels
        become one box so that neighbouring boxes never overlap."""
        cursor = x
        for character in string:
            rows = FONT.get(character, FONT["?"])
            for row, bits in enumerate(rows):
                column = 0
                while column < 5:
                    if bits[column] == "#":
                        start = column
                        while column < 5 and bits[column] == "#":
                            column += 1
                        self.rect(cursor + start * scale, y + row * scale,
                                  cursor + column * scale, y + (row + 1) * scale, color, gamma)
                    else:
                        column += 1
            cursor += 6 * scale
        return cursor


FONT = {
    " ": ["....."] * 7,
    "?": [".###.", "#...#", "....#", "..##.", "..#..", ".....", "..#.."],
    "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "B": ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
    "C": [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
    "D": ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
    "E": ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
    "H": ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "L": ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
    "M": ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"],
    "O": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
    "P": ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."],
    "R": ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
    "S": [".####", "#....", "#....", ".###.", "....#", "....#", "####."],
    "T": ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
    "U": ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
    "W": ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"],
    "Y": ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."],
    "G": [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."],
    "N": ["#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"],
    "a": [".....", ".....", ".###.", "....#", ".####", "#...#", ".####"],
    "b": ["#....", "#....", "####.", "#...#", "#...#", "#...#", "####."],
    "c": [".....", ".....", ".###.", "#....", "#....", "#...#", ".###."],
    "d": ["....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"],
    "e": [".....", ".....", ".###.", "#...#", "#####", "#....", ".###."],
    "f": ["..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."],
    "g": [".....", ".####", "#...#", "#...#", ".####", "....#", ".###."],
    "h": ["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
    "i": ["..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###."],
    "k": ["#....", "#....", "#..#.", "#.#..", "##...", "#.#..", "#..#."],
    "l": [".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "m": [".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#"],
    "n": [".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
    "o": [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."],
    "p": [".....", ".....", "####.", "#...#", "####.", "#....", "#...."],
    "r": [".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."],
    "s": [".....", ".....", ".####", "#....", ".###.", "....#", "####."],
    "t": [".#...", ".#...", "####.", ".#...", ".#...", ".#..#", "..##."],
    "u": [".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#"],
    "v": [".....", ".....", "#...#", "#...#", "#...#", ".#.#.", "..#.."],
    "w": [".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#."],
    "x": [".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
    "y": [".....", ".....", "#...#", "#...#", ".####", "....#", ".###."],
    "@": [".###.", "#...#", "#.###", "#.#.#", "#.###", "#....", ".####"],
    ".": [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."],
    "$": ["..#..", ".####", "#.#..", ".###.", "..#.#", "####.", "..#.."],
    "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
}

LIGHT = {"background": (246, 247, 249), "card": (255, 255, 255), "border": (222, 226, 232),
         "text": (33, 37, 41), "muted": (120, 126, 134), "header": (37, 99, 235)}
DARK = {"background": (24, 26, 31), "card": (36, 39, 46), "border": (58, 62, 71),
        "text": (230, 232, 236), "muted": (150, 156, 166), "header": (17, 94, 89)}
BLUE, INDIGO, WHITE = (37, 99, 235), (79, 70, 229), (255, 255, 255)


def login_screen(theme=LIGHT, text_dx=0.0, gamma=1.0, button_dx=0, button_color=BLUE,
                 button_label="Sign in", rounding=round, width=240, height=160):
    """A login screen: header, card with avatar, labelled fields and a button."""
    c = Canvas(width, height, theme["background"], rounding)
    c.rect(0, 0, width, 24, theme["header"])
    c.text(10 + text_dx, 7, "Welcome back", WHITE, 1.5, gamma)
    c.rounded_rect(20.5, 34.5, width - 20.5, height - 10.5, 6, theme["border"])
    c.rounded_rect(21.5, 35.5, width - 21.5, height - 11.5, 5, theme["card"])
    c.circle(46, 58, 12, (245, 158, 11))
    c.text(66 + text_dx, 50, "Ada Lovelace", theme["text"], 1.5, gamma)
    c.text(66 + text_dx, 62, "ada@example.com", theme["muted"], 1.25, gamma)
    for row, label in enumerate(("Email", "Password")):
        top = 80 + row * 20
        c.text(32 + text_dx, top + 4, label, theme["muted"], 1.25, gamma)
        c.rect(92, top, width - 32, top + 15, theme["border"])
        c.rect(93, top + 1, width - 33, top + 14, theme["card"])
    c.rounded_rect(width - 112 + button_dx, height - 36, width - 32 + button_dx, height - 18, 4, button_color)
    c.text(width - 104 + button_dx + text_dx, height - 31, button_label, WHITE, 1.5, gamma)
    return c


def gradient(rounding):
    c = Canvas(240, 80, (0, 0, 0), rounding)
    for y in range(80):
        for x in range(240):
            t = x / 239
            c.data[y][x] = [40 + 180 * t, 90 + 90 * t + y * 0.3, 200 - 120 * t]
    c.text(12, 30, "Storage 42.9", WHITE, 2.0)
    return c


def jittered(canvas, amplitude, share, seed):
    """A copy with each channel of `share` of the pixels moved by up to `amplitude` levels."""
    rng = random.Random(seed)
    out = Canvas(canvas.width, canvas.height, (0, 0, 0))
    for y in range(canvas.height):
        for x in range(canvas.width):
            pixel = canvas.pixel(x, y)
            if rng.random() < share:
                pixel = tuple(v + rng.randint(-amplitude, amplitude) for v in pixel)
            out.data[y][x] = [float(max(0, min(255, v))) for v in pixel]
    return out


def floor_rounding(value):
    return int(value)


def write_pair(folder, name, ref, new):
    write_png(os.path.join(folder, "ref", name), ref)
    write_png(os.path.join(folder, "new", name), new)


def write_jpeg_pair(folder, name, scene):
    first = jpeg_encode(ppm_bytes(scene), 92)
    second = jpeg_encode(jpeg_decode_to_ppm(first), 92)
    for side, data in (("ref", first), ("new", second)):
        path = os.path.join(folder, side, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def tune_fixtures():
    noise = os.path.join(ROOT, "tune", "noise")
    changes = os.path.join(ROOT, "tune", "changes")
    for folder in (noise, changes):
        shutil.rmtree(folder, ignore_errors=True)

    base = login_screen()
    write_pair(noise, "jitter-1.png", base, jittered(base, 1, 0.45, seed=1))
    dark = login_screen(DARK)
    write_pair(noise, "jitter-2.png", dark, jittered(dark, 2, 0.30, seed=2))
    write_pair(noise, "gradient-rounding.png", gradient(round), gradient(floor_rounding))
    write_pair(noise, "text-aa-offset.png", base, login_screen(text_dx=0.1))
    write_pair(noise, "text-aa-gamma.png", base, login_screen(gamma=0.9))
    write_jpeg_pair(noise, "jpeg-recompress.jpg", login_screen(theme=LIGHT, width=200, height=150))

    write_pair(changes, "moved-element.png", base, login_screen(button_dx=3))
    write_pair(changes, "changed-text.png", base, login_screen(button_label="Log in"))
    write_pair(changes, "colour-change.png", base, login_screen(button_color=INDIGO))


def settings_screen(accent=BLUE, total="$ 42.90", items=("Profile", "Security", "Help")):
    c = Canvas(240, 160, LIGHT["background"])
    c.rect(0, 0, 240, 24, accent)
    c.text(10, 7, "Settings", WHITE, 1.5)
    for row, label in enumerate(items):
        top = 34 + row * 26
        c.rounded_rect(12, top, 228, top + 22, 4, LIGHT["card"])
        c.circle(26, top + 11, 6, accent)
        c.text(40, top + 6, label, LIGHT["text"], 1.5)
    c.text(12, 118, "Balance", LIGHT["muted"], 1.25)
    c.text(12, 132, total, LIGHT["text"], 2.0)
    return c


def batch_fixtures():
    folder = os.path.join(ROOT, "batch")
    shutil.rmtree(folder, ignore_errors=True)

    def ref(name, canvas):
        write_png(os.path.join(folder, "ref", name), canvas)

    def new(name, canvas):
        write_png(os.path.join(folder, "new", name), canvas)

    login = login_screen()
    ref("login.png", login)
    new("login.png", login_screen(button_dx=3, button_color=INDIGO))
    ref("settings/account.png", settings_screen())
    new("settings/account.png", settings_screen(total="$ 49.90"))
    ref("settings/theme.png", login_screen(DARK))
    new("settings/theme.png", login_screen(DARK))
    ref("home.png", settings_screen(items=("Home", "Orders", "Help")))
    new("home.png", settings_screen(items=("Home", "Orders", "Help")))
    ref("legacy/about.png", gradient(round))
    new("onboarding/welcome.png", login_screen(button_label="Sign up"))


if __name__ == "__main__":
    tune_fixtures()
    batch_fixtures()
