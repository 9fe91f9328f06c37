#!/usr/bin/env python3
"""Writes imgdiff's own small fixture pairs into Fixtures/ (standard library only).

Fixtures/login/ref.png and fail.png: a 320x200 login-screen mock-up. The failure moves the
button 3 px right, recolours it, changes one "text" bar, and jitters the anti-aliased edges of
the card by one level, the way Intel and ARM renders drift.
"""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def write_png(path, width, height, pixels):
    """pixels: list of rows of (r, g, b, a) tuples; writes 8-bit RGBA."""
    raw = bytearray()
    for row in pixels:
        raw.append(0)
        for r, g, b, a in row:
            raw += bytes((r, g, b, a))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def coverage(x, y, left, top, right, bottom, radius):
    """Approximate anti-aliased coverage (0..1) of a rounded rectangle at pixel (x, y)."""
    samples = 4
    inside = 0
    for sy in range(samples):
        for sx in range(samples):
            px = x + (sx + 0.5) / samples
            py = y + (sy + 0.5) / samples
            cx = min(max(px, left + radius), right - radius)
            cy = min(max(py, top + radius), bottom - radius)
            if left <= px <= right and top <= py <= bottom and (px - cx) ** 2 + (py - cy) ** 2 <= radius ** 2:
                inside += 1
    return inside / (samples * samples)


def mix(dst, src, t):
    return tuple(int(round(d * (1 - t) + s * t)) for d, s in zip(dst, src))


def login(variant):
    width, height = 320, 200
    background = (242, 242, 247, 255)
    pixels = [[background for _ in range(width)] for _ in range(height)]
    shapes = [
        ((20, 20, 300, 180, 12), (255, 255, 255, 255)),            # card
        ((40, 40, 200, 52, 3), (28, 28, 30, 255)),                 # title bar
        ((40, 70, 280, 94, 6), (229, 229, 234, 255)),              # user field
        ((40, 104, 280, 128, 6), (229, 229, 234, 255)),            # password field
    ]
    if variant == "ref":
        shapes.append(((40, 140, 160, 166, 8), (0, 122, 255, 255)))    # button
        shapes.append(((60, 150, 140, 156, 2), (255, 255, 255, 255)))  # button label
    else:
        shapes[1] = ((40, 40, 180, 52, 3), (28, 28, 30, 255))          # shorter title
        shapes.append(((43, 140, 163, 166, 8), (52, 199, 89, 255)))    # moved, green
        shapes.append(((63, 150, 143, 156, 2), (255, 255, 255, 255)))
    for (left, top, right, bottom, radius), colour in shapes:
        for y in range(max(0, top - 1), min(height, bottom + 1)):
            for x in range(max(0, left - 1), min(width, right + 1)):
                t = coverage(x, y, left, top, right, bottom, radius)
                if t > 0:
                    blended = mix(pixels[y][x][:3], colour[:3], t)
                    if variant == "fail" and 0 < t < 1:
                        blended = tuple(min(255, c + 1) for c in blended)  # render drift
                    pixels[y][x] = blended + (255,)
    return width, height, pixels


if __name__ == "__main__":
    for variant in ("ref", "fail"):
        w, h, px = login(variant)
        write_png(os.path.join(ROOT, "login", variant + ".png"), w, h, px)
    print("wrote", os.path.normpath(os.path.join(ROOT, "login")))
