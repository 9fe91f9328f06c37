#!/usr/bin/env python3
"""Writes the PNG fixtures for Tests/ImageCodecsTests into Fixtures/codecs/.

Standard library only (zlib + struct), so the fixtures do not depend on the encoder under test.
Every file's samples follow a formula of (x, y); FixtureTests.swift re-implements the formulas
independently and checks the decoder's output against them. Rows use filter type y % 5 (None,
Sub, Up, Average, Paeth) and IDAT is split into chunks of at most 64 bytes, so unfiltering and
multi-IDAT streams are exercised too.

Usage: python3 scripts/make-codec-fixtures.py [output-dir]   (default: Fixtures/codecs)
"""

import os
import struct
import sys
import zlib

W, H = 7, 5  # odd width: sub-byte rows end mid-byte
IW, IH = 11, 9  # interlaced fixtures: every Adam7 pass is non-empty

GRAY, RGB, PALETTE, GRAY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def palette_entry(i):
    return ((16 * i + 5) % 256, (255 - 6 * i) % 256, (53 * i) % 256)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, bits, acc = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            bits, acc = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    out, previous = bytearray(), None
    for y, row in enumerate(rows):
        prior = previous or bytes(len(row))
        kind = y % 5
        out.append(kind)
        for i, value in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((value - predictor) % 256)
        previous = row
    return bytes(out)


def image_data(pixel, width, height, color_type, depth, interlaced):
    """pixel(x, y) -> tuple of samples; returns the filtered, uncompressed scanlines."""
    bpp = max(1, CHANNELS[color_type] * depth // 8)

    def rows_of(xs, ys):
        return [pack_row([s for x in xs for s in pixel(x, y)], depth) for y in ys]

    if not interlaced:
        return filter_rows(rows_of(range(width), range(height)), bpp)
    data = b""
    for x0, y0, dx, dy in ADAM7:
        xs, ys = range(x0, width, dx), range(y0, height, dy)
        if len(xs) and len(ys):
            data += filter_rows(rows_of(xs, ys), bpp)
    return data


def png(pixel, color_type, depth, width=W, height=H, interlaced=False, extra=b"", plte=None, trns=None):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    compressed = zlib.compress(image_data(pixel, width, height, color_type, depth, interlaced), 9)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    if plte is not None:
        out += chunk(b"PLTE", b"".join(bytes(palette_entry(i)) for i in range(plte)))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    for start in range(0, len(compressed), 64):
        out += chunk(b"IDAT", compressed[start:start + 64])
    return out + chunk(b"IEND", b"")


def fixtures():
    def rgb8(x, y):
        return (40 * x + 3, 50 * y + 7, (7 * x * y + 5) % 256)

    def rgb16(x, y):
        return (9000 * x + y, 12000 * y + 5, (1234 * x * y + 77) % 65536)

    gray8 = lambda x, y: ((37 * x + 11 * y + 3) % 256,)
    yield "gray1", png(lambda x, y: ((x + y) % 2,), GRAY, 1)
    yield "gray2", png(lambda x, y: ((x + 2 * y) % 4,), GRAY, 2)
    yield "gray4", png(lambda x, y: ((3 * x + 5 * y) % 16,), GRAY, 4)
    yield "gray8", png(gray8, GRAY, 8)
    yield "gray16", png(lambda x, y: ((4099 * x + 771 * y + 1) % 65536,), GRAY, 16)
    yield "gray8_trns", png(gray8, GRAY, 8, trns=struct.pack(">H", gray8(2, 1)[0]))
    yield "gray4_adam7", png(lambda x, y: ((3 * x + 5 * y) % 16,), GRAY, 4, IW, IH, interlaced=True)
    yield "rgb8", png(rgb8, RGB, 8)
    yield "rgb16", png(rgb16, RGB, 16)
    yield "rgb8_trns", png(rgb8, RGB, 8, trns=struct.pack(">HHH", *rgb8(1, 1)))
    yield "rgb16_trns", png(rgb16, RGB, 16, trns=struct.pack(">HHH", *rgb16(2, 3)))
    gamma = chunk(b"gAMA", struct.pack(">I", 20000)) + chunk(
        b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000))
    yield "rgb8_gamma", png(rgb8, RGB, 8, extra=gamma)
    yield "rgb16_adam7", png(lambda x, y: (6000 * x + y, 7000 * y + x, 800 * x * y), RGB, 16, IW, IH,
                             interlaced=True)
    yield "palette1", png(lambda x, y: ((x + y) % 2,), PALETTE, 1, plte=2)
    yield "palette2", png(lambda x, y: ((x + 2 * y) % 4,), PALETTE, 2, plte=4)
    yield "palette2_trns", png(lambda x, y: ((x + 2 * y) % 4,), PALETTE, 2, plte=4, trns=bytes([0, 100, 200]))
    yield "palette4", png(lambda x, y: ((x + 7 * y) % 16,), PALETTE, 4, plte=16)
    yield "palette8", png(lambda x, y: ((3 * x + 7 * y) % 40,), PALETTE, 8, plte=40)
    yield "palette8_trns", png(lambda x, y: ((3 * x + 7 * y) % 40,), PALETTE, 8, plte=40,
                               trns=bytes([0, 50, 100, 150, 200]))
    yield "graya8", png(lambda x, y: ((30 * x + y) % 256, (60 * y + x) % 256), GRAY_ALPHA, 8)
    yield "graya16", png(lambda x, y: (5000 * x + 3 * y, 65535 - 9000 * y - x), GRAY_ALPHA, 16)
    yield "rgba8", png(lambda x, y: (36 * x, 51 * y, (9 * x * y) % 256, 255 - 20 * x - 10 * y), RGBA, 8)
    yield "rgba16", png(lambda x, y: (9362 * x + 1, 16383 * y, (3001 * x * y) % 65536, 65535 - 5000 * x - 3000 * y),
                        RGBA, 16)
    yield "rgba8_adam7", png(lambda x, y: (23 * x, 28 * y, 12 * (x + y), 255 - 10 * x - 5 * y), RGBA, 8, IW, IH,
                             interlaced=True)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Fixtures", "codecs")
    os.makedirs(directory, exist_ok=True)
    total = 0
    for name, data in fixtures():
        with open(os.path.join(directory, name + ".png"), "wb") as file:
            file.write(data)
        total += len(data)
    print(f"wrote {len(list(fixtures()))} fixtures, {total} bytes, to {directory}")


if __name__ == "__main__":
    main()
