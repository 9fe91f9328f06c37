#!/usr/bin/env python3
"""Writes the hostile inputs of Tests/ImageCodecsTests/HostileInputTests.swift and
Tests/imgdiffCLITests/HostileInputTests.swift into Fixtures/hostile/, and the fuzzers' JPEG seeds
into Fuzz/corpus/jpeg/.

Standard library only (zlib + struct) for the PNGs; the JPEGs come from libjpeg-turbo's `cjpeg`
(Debian: libjpeg-turbo-progs). Every file is deterministic, so re-running changes nothing.

Usage: python3 Fixtures/hostile/make-hostile-fixtures.py
"""

import os
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
JPEG_SEEDS = os.path.join(ROOT, "Fuzz", "corpus", "jpeg")

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, depth=8, color_type=6):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))


def rgba_png(width, height):
    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 40 % 256, y * 60 % 256, 128, 255)) for x in range(width))
        for y in range(height))
    return SIGNATURE + ihdr(width, height) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def write(name, data, directory=HERE):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def pngs():
    good = rgba_png(8, 6)
    write("good-8x6.png", good)

    # A decompression bomb: 100,000 x 100,000 RGBA claimed (40 GB decoded) in a 70-byte file.
    bomb_rows = zlib.compress(b"\x00" * 4001, 9)  # a few zero rows' worth; the rest is missing
    write("bomb-100000x100000.png",
          SIGNATURE + ihdr(100_000, 100_000) + chunk(b"IDAT", bomb_rows) + chunk(b"IEND", b""))
    # Within the default pixel limit, but a 16-bit RGBA 16,000 x 16,000 needs 3 GB: the memory limit.
    write("bomb-16bit-16000x16000.png",
          SIGNATURE + ihdr(16_000, 16_000, depth=16) + chunk(b"IDAT", bomb_rows) + chunk(b"IEND", b""))
    # libpng's own ceiling is 2^31 - 1 per side.
    write("width-2147483647.png",
          SIGNATURE + ihdr(2_147_483_647, 1) + chunk(b"IDAT", bomb_rows) + chunk(b"IEND", b""))

    write("zero-width.png", SIGNATURE + ihdr(0, 6) + good[33:])

    idat_start = 33
    idat_length = struct.unpack(">I", good[idat_start:idat_start + 4])[0]
    idat_data = good[idat_start + 8:idat_start + 8 + idat_length]
    tail = good[idat_start + 12 + idat_length:]

    bad_crc = bytearray(good)
    bad_crc[idat_start + 8 + idat_length] ^= 0x55
    write("bad-crc.png", bytes(bad_crc))

    # 0xFF as the first deflate byte: a final block of the reserved type 3. CRC recomputed.
    bad_zlib = idat_data[:2] + b"\xff" + idat_data[3:]
    write("bad-zlib.png", good[:idat_start] + chunk(b"IDAT", bad_zlib) + tail)

    # A 4-entry palette whose pixels use index 200.
    palette = chunk(b"PLTE", bytes((255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255)))
    rows = b"".join(b"\x00" + bytes([0, 1, 2, 3, 200, 1, 2, 3]) for _ in range(6))
    write("palette-index.png",
          SIGNATURE + ihdr(8, 6, depth=8, color_type=3) + palette + chunk(b"IDAT", zlib.compress(rows, 9))
          + chunk(b"IEND", b""))

    for length in (4, 20, 45, len(good) - 12, len(good) - 1):
        write(f"truncated-{length}.png", good[:length])


def texts():
    write("empty.png", b"")
    write("text.png", b"this is a text file, not an image\n")
    # ImageMagick's scripting and vector formats, each trying to read a further file.
    write("payload.mvg", b"push graphic-context\nviewbox 0 0 640 480\n"
                         b"image over 0,0 0,0 'url:http://127.0.0.1:9/x.png'\npop graphic-context\n")
    write("payload.svg", b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
                         b'xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
                         b'<image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>\n')
    write("payload.msl", b'<?xml version="1.0" encoding="UTF-8"?>\n<image>\n'
                         b'<read filename="/etc/passwd"/>\n<write filename="/tmp/imgdiff-msl-pwned"/>\n</image>\n')
    write("payload-url.txt", b"url:http://127.0.0.1:9/x.png\n")


def ppm(width, height, gray=False):
    if gray:
        data = bytes((x * 255 // max(width - 1, 1) + y) % 256 for y in range(height) for x in range(width))
        return b"P5\n%d %d\n255\n" % (width, height) + data
    data = bytes(v for y in range(height) for x in range(width)
                 for v in ((x * 17 + y) % 256, (y * 29) % 256, (x * y * 7) % 256))
    return b"P6\n%d %d\n255\n" % (width, height) + data


def cjpeg(source, *options):
    return subprocess.run(["cjpeg", *options], input=source, capture_output=True, check=True).stdout


def jpegs():
    image = ppm(24, 16)
    seeds = {
        "baseline.jpg": cjpeg(image, "-quality", "85"),
        "progressive.jpg": cjpeg(ppm(64, 48), "-progressive"),
        "gray.jpg": cjpeg(ppm(16, 16, gray=True), "-grayscale"),
        "444-restart.jpg": cjpeg(image, "-sample", "1x1", "-restart", "1B"),
        "420-arithmetic.jpg": cjpeg(image, "-sample", "2x2", "-arithmetic"),
        "odd-size.jpg": cjpeg(ppm(13, 7), "-optimize"),
    }
    for name, data in seeds.items():
        write(name, data, JPEG_SEEDS)

    baseline = seeds["baseline.jpg"]
    write("truncated.jpg", baseline[:len(baseline) // 2])
    # The frame header claims 65,500 x 65,500 (4.3 Gpixels); the scan data is 24 x 16's.
    sof = baseline.index(b"\xff\xc0")
    bomb = bytearray(baseline)
    bomb[sof + 5:sof + 9] = struct.pack(">HH", 65_500, 65_500)
    write("bomb-65500x65500.jpg", bytes(bomb))

    # A progressive JPEG whose last scan is repeated 600 times: each repeat makes libjpeg
    # revisit the whole image (a known denial of service); the decoder stops after 500 scans.
    progressive = cjpeg(ppm(8, 8, gray=True), "-grayscale", "-progressive")
    # The DC refinement scan (Ss = Se = 0, Ah = 1) reads one bit a block whatever came before,
    # so each of its 600 copies is whole: only the scan limit can stop the file.
    starts = [i for i in range(len(progressive) - 1) if progressive[i:i + 2] == b"\xff\xda"]
    def is_dc_refinement(start):
        components = progressive[start + 4]
        spectral = start + 5 + 2 * components
        return progressive[spectral] == 0 and progressive[spectral + 1] == 0 and progressive[spectral + 2] >> 4 == 1
    index = next(i for i, start in enumerate(starts) if is_dc_refinement(start))
    end = progressive.rindex(b"\xff\xd9")
    refinement = progressive[starts[index]:starts[index + 1] if index + 1 < len(starts) else end]
    write("many-scans.jpg", progressive[:end] + refinement * 600 + b"\xff\xd9")


if __name__ == "__main__":
    pngs()
    texts()
    jpegs()
