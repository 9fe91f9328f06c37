#!/usr/bin/env python3
"""Writes Fixtures/render: a labelled corpus of real browser renders for `imgdiff tune` and
`--metric structural` (Python standard library only; needs Debian's `chromium` and
libjpeg-turbo's cjpeg/djpeg: `apt-get install chromium libjpeg-turbo-progs`).

Seven small pages, written by this script (inline CSS, DejaVu fonts, no external resources),
are rendered by headless Chromium at a 360x240 viewport:
  login     a sign-in form: inputs, a checkbox, a link and a blue button, in a shadowed card
  settings  a settings list: coloured icons, labels, grey descriptions, toggles, 1-px rules
  cards     a 2x2 grid of cards with borders, rounded corners and shadows
  article   a serif heading and paragraph with a green link
  table     a table with 1-px borders and monospaced figures
  chart     a bar chart of CSS boxes with grid lines, axis labels and a legend
  toolbar   a button bar: a segmented control, icon buttons, a divider, two buttons

noise/{ref,new}/PAGE--NOISE.png: the same page; ref rendered with the default settings, new as
another machine would render it (must pass):
  no-subpixel-pos  --disable-font-subpixel-positioning: glyphs start on whole pixels
  hinting-none     FreeType hinting off (fontconfig hinting=false; Debian's default is slight)
  hinting-medium   fontconfig hintstyle=hintmedium
  hinting-full     fontconfig hintstyle=hintfull: stems snap, advances round
  lcd-text         subpixel (LCD) text anti-aliasing with coloured fringes (fontconfig rgba=rgb)
  swiftshader      --use-angle=swiftshader: compositing through ANGLE on SwiftShader (as
                   on a GPU-less CI runner) instead of the software compositor
  display-p3       --force-color-profile=display-p3-d65: colour management of another display
  generic-rgb      --force-color-profile=generic-rgb: a larger colour-management shift
  jpeg-q90         the default render through a JPEG at quality 90 (cjpeg, 4:2:0) and back
  jpeg-q95         the same at quality 95
  other-machine    swiftshader + hinting-none + no-subpixel-pos together
changes/{ref,new}/PAGE--CHANGE.png: a real, subtle change made by editing the page's HTML, both
sides rendered with the default settings (must fail); PAGE--CHANGE+NOISE.png: the same change
with the new side also rendered under one of the noises above (the realistic CI case):
  text-colour      one element's text colour 16-17 levels lighter (#333 -> #444, #2a6 -> #3b7)
  word             one word of a sentence replaced
  border-removed   one 1-px border or rule made invisible (the layout does not move)
  moved-2px        one element moved 2 px right (margin-left, padding-left or left +2px)
  button-colour    a button's background 15 levels lighter in R and G (bar-colour: a bar's)
  icon-removed     a small icon or box hidden (visibility: hidden, the layout does not move)
  letter-spacing   one line's letter-spacing +0.5px

Every noise and change must alter pixels: one that leaves a page pixel-identical is dropped
with a message (and listed in README.md). The script also renders each page under renderer
settings that were candidates for noise and records in README.md which of them changed pixels
(on this Chromium most do not: --font-render-hinting=*, --disable-lcd-text, --disable-gpu...).

PNGs are decoded and re-encoded here (8-bit RGB, no ancillary chunks), so the files hold only
pixels. Rerunning rewrites the same bytes with the same Chromium, fonts and fontconfig; README.md
records the versions and a table of every pair (max channel delta, differing pixels).

With --under NOISE it writes instead every page under that one noise (noise/) and every change
with the new side under it (changes/), no probes: the check of one noise model across all pages
(Fixtures/render-lcd is `--under lcd-text --out Fixtures/render-lcd`).

With --holdout it writes instead five other pages (profile, pricing, inbox, checkout, sidebar),
each under every noise, and sixteen other changes, alone and under one noise: pages written after
the structural mode's noise models, to check them on pages they were not designed on
(Fixtures/render-holdout is `--holdout --out Fixtures/render-holdout`).

With --blind it writes, in the same way, five more pages (calendar, chat, files, dialog, search)
and seventeen more changes, written after every rule of the structural mode and measured once
before any rule was changed on them (Fixtures/render-blind is `--blind --out
Fixtures/render-blind`; the README says which rule came after).

With --blind2 it writes a second blind set the same way: five more pages (invoice, player,
weather, kanban, signup) and seventeen more changes, written after the first blind set had been
measured and committed before any mode was run on them (Fixtures/render-blind2 is `--blind2
--out Fixtures/render-blind2`).

With --blind3 it writes a third blind set the same way: five more pages (orders, notify, review,
stats, recipe) and seventeen more changes, written after render-blind2 had been measured and rules
changed on it, and committed before any mode was run on them (Fixtures/render-blind3 is `--blind3
--out Fixtures/render-blind3`).

With --blind4 it writes a fourth blind set the same way: five more pages (booking, contacts, tasks,
billing, editor) and seventeen more changes, written after render-blind3 had been measured and a
rule changed on it, and committed before any mode was run on them (Fixtures/render-blind4 is
`--blind4 --out Fixtures/render-blind4`).

With --blind5 it writes a fifth blind set the same way: five more pages (tracking, team, quiz,
banking, forum) and seventeen more changes, written after render-blind4 had been measured and rules
changed on it, and committed before any mode was run on them (Fixtures/render-blind5 is `--blind5
--out Fixtures/render-blind5`).

With --blind6 it writes a sixth blind set the same way: five more pages (pipeline, verify, logs,
shortcuts, cart) and seventeen more changes, written after render-blind5 had been measured and rules
changed on it (the isolated-change rule), and committed before any mode was run on them
(Fixtures/render-blind6 is `--blind6 --out Fixtures/render-blind6`).

With --blind7 it writes a seventh blind set the same way: five more pages (upload, places,
appearance, release, ticket) and seventeen more changes, written after the sixth blind set had been
measured and rules changed on it (LCD text on coloured text and grounds), and committed before any
mode was run on them (Fixtures/render-blind7 is `--blind7 --out Fixtures/render-blind7`).

With --blind8 it writes an eighth blind set the same way: five more pages (compose, product, poll,
departures, tokens) and seventeen more changes, written after the seventh blind set had been
measured and tune's removed-line canary changed on it, and committed before any mode was run on
them (Fixtures/render-blind8 is `--blind8 --out Fixtures/render-blind8`).

With --blind9 it writes a ninth blind set the same way: five more pages (boarding, docs, status,
receipt, survey) and seventeen more changes, written after the eighth had been measured and the
isolated-change rule changed, and committed before any mode was run on them
(Fixtures/render-blind9 is `--blind9 --out Fixtures/render-blind9`).

With --blind10 it writes a tenth blind set the same way: five more pages (activity, consent,
leaderboard, playlist, usage) and seventeen more changes, written after the ninth had been measured
and three rules changed on the earlier sets, and committed before any mode was run on them
(Fixtures/render-blind10 is `--blind10 --out Fixtures/render-blind10`).

With --blind11 it writes an eleventh blind set the same way: five more pages (alerts, wallet,
metrics, inventory, itinerary) and seventeen more changes, written after the tenth had been
measured and the isolated-change rule changed on the earlier sets, and committed before any mode
was run on them (Fixtures/render-blind11 is `--blind11 --out Fixtures/render-blind11`).

With --blind12 it writes a twelfth blind set the same way: five more pages (timesheet, shipment,
podcast, budget, roster) and seventeen more changes, written after the eleventh had been measured
and two rules changed on it, and committed before any mode was run on them
(Fixtures/render-blind12 is `--blind12 --out Fixtures/render-blind12`).

With --blind13 it writes a thirteenth blind set the same way: five more pages (ledger, sprint,
thermostat, library, exchange) and seventeen more changes, written after the twelfth had been
measured and two coherent-change rules changed on it, and committed before any mode was run on
them (Fixtures/render-blind13 is `--blind13 --out Fixtures/render-blind13`).

With --blind14 it writes a fourteenth blind set the same way: five more pages (forecast, checkout,
joblog, agenda, player) and seventeen more changes, written after the thirteenth had been measured
(no rule changed on it) and before any rule aimed at the misses the blind sets share, and committed
before any mode was run on them (Fixtures/render-blind14 is `--blind14 --out Fixtures/render-blind14`).

With --blind15 it writes a fifteenth blind set the same way: five more pages (repo, fitness,
storage, invite, transit) and seventeen more changes, written after the fourteenth had been
measured and a rule for text set again (fragments counted towards its signature) written on the
earlier sets, and committed before any mode was run on them (Fixtures/render-blind15 is
`--blind15 --out Fixtures/render-blind15`).

With --blind16 it writes a sixteenth blind set the same way: five more pages (airquality, refill,
courses, parking, scores) and seventeen more changes, written after the fifteenth had been
measured, and committed before any mode was run on them (Fixtures/render-blind16 is
`--blind16 --out Fixtures/render-blind16`).

Usage: scripts/make-render-corpus.py [--out DIR]   (default: Fixtures/render)
       scripts/make-render-corpus.py --under NOISE --out DIR
       scripts/make-render-corpus.py --holdout --out DIR
       scripts/make-render-corpus.py --blind --out DIR
       scripts/make-render-corpus.py --blind2 --out DIR
       scripts/make-render-corpus.py --blind3 --out DIR
       scripts/make-render-corpus.py --blind4 --out DIR
       scripts/make-render-corpus.py --blind5 --out DIR
       scripts/make-render-corpus.py --blind6 --out DIR
       scripts/make-render-corpus.py --blind7 --out DIR
       scripts/make-render-corpus.py --blind8 --out DIR
       scripts/make-render-corpus.py --blind9 --out DIR
       scripts/make-render-corpus.py --blind10 --out DIR
       scripts/make-render-corpus.py --blind11 --out DIR
       scripts/make-render-corpus.py --blind12 --out DIR
       scripts/make-render-corpus.py --blind13 --out DIR
       scripts/make-render-corpus.py --blind14 --out DIR
       scripts/make-render-corpus.py --blind15 --out DIR
       scripts/make-render-corpus.py --blind16 --out DIR
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import textwrap
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
WIDTH, HEIGHT = 360, 240

# --- PNG -------------------------------------------------------------------------------------


class Image:
    """8-bit RGB pixels, row-major, 3 bytes a pixel."""

    def __init__(self, width, height, rgb):
        assert len(rgb) == width * height * 3
        self.width, self.height, self.rgb = width, height, bytes(rgb)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """Reads an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes); alpha must be
    opaque and is dropped."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, bytearray(), None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit non-interlaced RGB/RGBA is read (got {header})")
    channels = 3 if colour == 2 else 4
    stride = width * channels
    raw = zlib.decompress(bytes(idat))
    out = bytearray(stride * height)
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                upper_left = previous[i - channels] if i >= channels else 0
                line[i] = (line[i] + paeth(left, previous[i], upper_left)) & 255
        elif kind != 0:
            raise ValueError(f"{path}: bad filter {kind}")
        out[y * stride:(y + 1) * stride] = line
        previous = line
    if channels == 4:
        if any(a != 255 for a in out[3::4]):
            raise ValueError(f"{path}: transparent pixels")
        rgb = bytearray(width * height * 3)
        rgb[0::3], rgb[1::3], rgb[2::3] = out[0::4], out[1::4], out[2::4]
        out = rgb
    return Image(width, height, out)


def write_png(path, image):
    """Writes an 8-bit RGB PNG: each row filtered None, Sub or Up, whichever has the smallest
    sum of absolute values (so the files stay small), compressed at zlib level 9."""
    stride = image.width * 3
    raw = bytearray()
    previous = bytes(stride)
    for y in range(image.height):
        line = image.rgb[y * stride:(y + 1) * stride]
        sub = bytes((line[i] - (line[i - 3] if i >= 3 else 0)) & 255 for i in range(stride))
        up = bytes((a - b) & 255 for a, b in zip(line, previous))
        candidates = [(0, line), (1, sub), (2, up)]
        kind, best = min(candidates, key=lambda c: (sum(v if v < 128 else 256 - v for v in c[1]), c[0]))
        raw.append(kind)
        raw += best
        previous = line

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def jpeg_round_trip(image, quality):
    """The image through cjpeg (baseline, 4:2:0, -quality Q) and djpeg back."""
    ppm = b"P6\n%d %d\n255\n" % (image.width, image.height) + image.rgb
    jpeg = subprocess.run(["cjpeg", "-quality", str(quality)], input=ppm, capture_output=True, check=True).stdout
    decoded = subprocess.run(["djpeg", "-ppm"], input=jpeg, capture_output=True, check=True).stdout
    fields, pos = [], 0
    while len(fields) < 4:  # P6, width, height, maxval, separated by single whitespace here
        end = pos
        while decoded[end] not in b" \t\r\n":
            end += 1
        fields.append(decoded[pos:end])
        pos = end + 1
    width, height = int(fields[1]), int(fields[2])
    assert fields[0] == b"P6" and int(fields[3]) == 255 and (width, height) == (image.width, image.height)
    return Image(width, height, decoded[pos:pos + width * height * 3])


def difference(first, second):
    """(pixels with any channel different, largest channel delta)."""
    if (first.width, first.height) != (second.width, second.height):
        raise ValueError("sizes differ")
    if first.rgb == second.rgb:
        return 0, 0
    a, b = first.rgb, second.rgb
    pixels, largest = 0, 0
    for i in range(0, len(a), 3):
        if a[i:i + 3] != b[i:i + 3]:
            pixels += 1
            largest = max(largest, abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2]))
    return pixels, largest


# --- Pages -----------------------------------------------------------------------------------

BASE_CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; background: #fff; }
body { font: 13px "DejaVu Sans"; color: #333; width: 360px; height: 240px; overflow: hidden; }
"""

PAGES = {
    "login": """
<style>
.card { margin: 12px 40px; padding: 12px 16px; border: 1px solid #d0d4dc; border-radius: 8px;
        box-shadow: 0 2px 6px rgba(0,0,0,.18); }
h1 { font-size: 17px; margin: 0 0 8px; }
label { display: block; font-size: 11px; color: #666; margin: 6px 0 2px; }
.input { border: 1px solid #b8bec9; border-radius: 4px; padding: 3px 6px; height: 22px; }
.row { display: flex; justify-content: space-between; align-items: center; margin: 9px 0; font-size: 11px; }
.box { display: inline-block; width: 11px; height: 11px; border: 1px solid #2a6df4; border-radius: 2px;
       vertical-align: -2px; margin-right: 4px; background: #2a6df4; }
a { color: #2a6df4; }
.primary { background: #2a6df4; color: #fff; text-align: center; border-radius: 5px; padding: 5px; font-weight: bold; }
</style>
<div class="card"><h1>Sign in</h1>
<label>Email</label><div class="input">ada@example.com</div>
<label>Password</label><div class="input">&#8226;&#8226;&#8226;&#8226;&#8226;&#8226;&#8226;&#8226;</div>
<div class="row"><span><span class="box"></span>Keep me signed in</span><a href="#">Forgot password?</a></div>
<div class="primary">Sign in</div></div>
""",
    "settings": """
<style>
h1 { font-size: 15px; margin: 10px 14px 4px; }
.item { display: flex; align-items: center; margin: 0 14px; padding: 7px 0; border-bottom: 1px solid #e1e4e8; }
.ic { width: 18px; height: 18px; border-radius: 5px; margin-right: 10px; flex: none; }
.text { flex: 1; }
.label { font-size: 13px; }
.desc { font-size: 11px; color: #777; }
.toggle { width: 34px; height: 18px; border-radius: 9px; background: #ccd0d6; position: relative; flex: none; }
.toggle.on { background: #22aa66; }
.toggle::after { content: ""; position: absolute; top: 2px; left: 2px; width: 14px; height: 14px;
                 border-radius: 7px; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.3); }
.toggle.on::after { left: 18px; }
</style>
<h1>Notifications</h1>
<div class="item"><i class="ic" style="background:#e8553f"></i><div class="text"><div class="label">Replies</div><div class="desc">When someone answers you</div></div><div class="toggle on"></div></div>
<div class="item"><i class="ic" style="background:#f0a020"></i><div class="text"><div class="label">Mentions</div><div class="desc">When someone names you</div></div><div class="toggle on"></div></div>
<div class="item"><i class="ic" style="background:#3c8de0"></i><div class="text"><div class="label">Weekly summary</div><div class="desc">Every Monday morning</div></div><div class="toggle"></div></div>
<div class="item"><i class="ic" style="background:#8a5cd6"></i><div class="text"><div class="label">Product news</div><div class="desc">A few times a year</div></div><div class="toggle"></div></div>
""",
    "cards": """
<style>
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; padding: 14px; }
.c { border: 1px solid #d8dce3; border-radius: 7px; padding: 10px; height: 92px;
     box-shadow: 0 2px 5px rgba(20,30,50,.16); }
.dot { width: 22px; height: 22px; border-radius: 11px; margin-bottom: 6px; }
.t { font-size: 12px; color: #667; }
.n { font-size: 20px; font-weight: bold; }
</style>
<div class="grid">
<div class="c"><div class="dot" style="background:#2a6df4"></div><div class="t">Visitors</div><div class="n">12,408</div></div>
<div class="c"><div class="dot" style="background:#22aa66"></div><div class="t">Sign-ups</div><div class="n">1,032</div></div>
<div class="c"><div class="dot" style="background:#f0a020"></div><div class="t">Revenue</div><div class="n">$8,940</div></div>
<div class="c"><div class="dot" style="background:#e8553f"></div><div class="t">Refunds</div><div class="n">17</div></div>
</div>
""",
    "article": """
<style>
article { padding: 12px 18px; font-family: "DejaVu Serif"; }
h1 { font-size: 18px; margin: 0 0 8px; }
p { font-size: 13px; line-height: 1.5; margin: 0 0 8px; }
a { color: #22aa66; }
.by { font: 11px "DejaVu Sans"; color: #888; }
</style>
<article><h1>Notes on the analytical engine</h1>
<p>The engine might act upon other things besides number, were objects found whose mutual
fundamental relations could be expressed by those of the abstract science of operations.
<a href="#">Read the full note</a> in the appendix.</p>
<div class="by">Ada Lovelace, 1843</div></article>
""",
    "table": """
<style>
table { border-collapse: collapse; margin: 12px 14px; font-size: 12px; }
th, td { border: 1px solid #c5cad3; padding: 4px 9px; text-align: left; }
th { background: #f3f5f8; font-weight: bold; }
td.num { font-family: "DejaVu Sans Mono"; text-align: right; }
</style>
<table>
<tr><th>Invoice</th><th>Customer</th><th>Date</th><th>Amount</th></tr>
<tr><td>INV-1042</td><td>Babbage</td><td>3 Nov</td><td class="num">120.00</td></tr>
<tr><td>INV-1043</td><td>Somerville</td><td>9 Nov</td><td class="num">86.50</td></tr>
<tr><td>INV-1044</td><td>Herschel</td><td>17 Nov</td><td class="num">410.25</td></tr>
<tr><td>INV-1045</td><td>De Morgan</td><td>21 Nov</td><td class="num">1,205.00</td></tr>
<tr><td>INV-1046</td><td>Faraday</td><td>28 Nov</td><td class="num">64.75</td></tr>
</table>
""",
    "chart": """
<style>
.chart { position: relative; margin: 10px 14px 0 40px; height: 170px; border-left: 1px solid #888; border-bottom: 1px solid #888; }
.grid { position: absolute; left: 0; right: 0; border-top: 1px solid #e6e8ec; }
.ax { position: absolute; left: -34px; width: 28px; text-align: right; font-size: 10px; color: #777; }
.bars { position: absolute; left: 12px; bottom: 0; display: flex; align-items: flex-end; }
.bar { width: 26px; margin-right: 14px; background: #5b8def; border-radius: 3px 3px 0 0; }
.lab { position: absolute; bottom: -16px; font-size: 10px; color: #555; }
.legend { margin: 22px 0 0 40px; font-size: 11px; }
.sw { display: inline-block; width: 10px; height: 10px; background: #5b8def; margin-right: 5px; vertical-align: -1px; }
</style>
<div class="chart">
<div class="grid" style="top:0"></div><div class="grid" style="top:42px"></div><div class="grid" style="top:85px"></div><div class="grid" style="top:127px"></div>
<div class="ax" style="top:-6px">900</div><div class="ax" style="top:79px">450</div><div class="ax" style="top:163px">0</div>
<div class="bars">
<div class="bar" style="height:117px"></div><div class="bar" style="height:153px"></div><div class="bar" style="height:89px"></div>
<div class="bar" style="height:170px"></div><div class="bar" style="height:131px"></div><div class="bar" style="height:62px"></div>
</div>
<div class="lab" style="left:17px">Mon</div><div class="lab" style="left:58px">Tue</div><div class="lab" style="left:96px">Wed</div>
<div class="lab" style="left:138px">Thu</div><div class="lab" style="left:180px">Fri</div><div class="lab" style="left:220px">Sat</div>
</div>
<div class="legend"><span class="sw"></span>Visitors per day</div>
""",
    "toolbar": """
<style>
.bar { display: flex; align-items: center; gap: 8px; margin: 14px 12px; padding: 8px; border: 1px solid #d5d9e0;
       border-radius: 8px; background: #f7f8fa; }
.seg { display: flex; border: 1px solid #b9bfca; border-radius: 5px; overflow: hidden; background: #fff; }
.seg span { padding: 4px 9px; border-right: 1px solid #b9bfca; }
.seg span:last-child { border-right: 0; }
.seg .sel { background: #e3ebfc; }
.icon { width: 24px; height: 24px; border-radius: 5px; background: #fff; border: 1px solid #b9bfca; position: relative; }
.icon i { position: absolute; left: 6px; top: 6px; width: 10px; height: 10px; background: #556; border-radius: 2px; }
.div { width: 1px; height: 22px; background: #c5cad3; }
.btn { padding: 5px 11px; border-radius: 5px; }
.sec { border: 1px solid #b9bfca; background: #fff; }
.pri { background: #2a6df4; color: #fff; border: 1px solid #2a6df4; }
p { margin: 0 14px; font-size: 12px; color: #666; }
</style>
<div class="bar">
<div class="seg"><span class="sel"><b>B</b></span><span><i>I</i></span><span><u>U</u></span></div>
<div class="icon"><i></i></div><div class="icon"><i style="border-radius:5px"></i></div>
<div class="div"></div>
<div class="btn sec">Preview</div><div class="btn pri">Publish</div>
</div>
<p>Draft saved two minutes ago.</p>
""",
}

# (page, change, old, new, the noise of the +NOISE variant): `old` must occur exactly once.
CHANGES = [
    ("login", "button-colour", ".primary { background: #2a6df4;", ".primary { background: #397cf4;", "hinting-none"),
    ("login", "word", "Keep me signed in", "Keep me logged in", "jpeg-q90"),
    ("login", "moved-2px", "<span><span class=\"box\">", "<span style=\"margin-left:2px\"><span class=\"box\">",
     "swiftshader"),
    ("settings", "text-colour", "<div class=\"label\">Mentions", "<div class=\"label\" style=\"color:#444\">Mentions",
     "lcd-text"),
    ("settings", "icon-removed", "<i class=\"ic\" style=\"background:#f0a020\">",
     "<i class=\"ic\" style=\"background:#f0a020;visibility:hidden\">", "hinting-full"),
    ("cards", "border-removed", "<div class=\"c\"><div class=\"dot\" style=\"background:#22aa66\">",
     "<div class=\"c\" style=\"border-color:transparent\"><div class=\"dot\" style=\"background:#22aa66\">",
     "display-p3"),
    ("cards", "moved-2px", "<div class=\"t\">Revenue", "<div class=\"t\" style=\"margin-left:2px\">Revenue",
     "hinting-medium"),
    ("article", "word", "in the appendix.", "in the footnote.", "hinting-full"),
    ("article", "letter-spacing", "h1 { font-size: 18px;", "h1 { letter-spacing: 0.5px; font-size: 18px;",
     "jpeg-q95"),
    ("article", "text-colour", "a { color: #22aa66; }", "a { color: #33bb77; }", "no-subpixel-pos"),
    ("table", "border-removed", "<td>Somerville</td>", "<td style=\"border-bottom-style:hidden\">Somerville</td>",
     "hinting-medium"),
    ("table", "text-colour", "<td class=\"num\">410.25", "<td class=\"num\" style=\"color:#444\">410.25",
     "generic-rgb"),
    ("table", "moved-2px", "<td>Herschel</td>", "<td style=\"padding-left:11px\">Herschel</td>", "swiftshader"),
    ("chart", "bar-colour", "<div class=\"bar\" style=\"height:89px\">",
     "<div class=\"bar\" style=\"height:89px;background:#6a9cef\">", "display-p3"),
    ("chart", "icon-removed", "<span class=\"sw\">", "<span class=\"sw\" style=\"visibility:hidden\">", "jpeg-q90"),
    ("chart", "moved-2px", "left:138px\">Thu", "left:140px\">Thu", "hinting-none"),
    ("toolbar", "button-colour", ".pri { background: #2a6df4;", ".pri { background: #397cf4;", "lcd-text"),
    ("toolbar", "letter-spacing", "<div class=\"btn sec\">Preview", "<div class=\"btn sec\" style=\"letter-spacing:0.5px\">Preview",
     "hinting-medium"),
    ("toolbar", "border-removed", ".div { width: 1px; height: 22px; background: #c5cad3; }",
     ".div { width: 1px; height: 22px; background: transparent; }", "jpeg-q95"),
]

# Pages and changes kept apart from the seven above: written after the structural mode's models
# were built, to check them on pages they were not designed on (--holdout; Fixtures/render-holdout).
HOLDOUT_PAGES = {
    "profile": """
<style>
.head { display: flex; align-items: center; margin: 14px 16px 8px; }
.avatar { width: 44px; height: 44px; border-radius: 22px; background: #7a5af0; color: #fff; font: bold 18px "DejaVu Sans";
          display: flex; align-items: center; justify-content: center; margin-right: 12px; }
.name { font-size: 16px; font-weight: bold; }
.handle { font-size: 11px; color: #889; }
.follow { margin-left: auto; border: 1px solid #7a5af0; color: #7a5af0; border-radius: 14px; padding: 3px 12px; font-size: 12px; }
.bio { margin: 0 16px 10px; font-size: 12px; line-height: 1.45; color: #444; }
.stats { display: flex; margin: 0 16px; border-top: 1px solid #e4e6ea; padding-top: 8px; }
.stat { margin-right: 22px; font-size: 11px; color: #778; }
.stat b { display: block; font-size: 15px; color: #222; }
</style>
<div class="head"><div class="avatar">GH</div><div><div class="name">Grace Hopper</div><div class="handle">@amazinggrace</div></div>
<div class="follow">Follow</div></div>
<p class="bio">Rear admiral and computer scientist. Wrote the first compiler and made programs
read like English. Hands out nanoseconds as lengths of wire.</p>
<div class="stats"><div class="stat"><b>1,284</b>posts</div><div class="stat"><b>56.1k</b>followers</div><div class="stat"><b>310</b>following</div></div>
""",
    "pricing": """
<style>
.plans { display: flex; gap: 10px; margin: 12px; }
.plan { flex: 1; border: 1px solid #d6dae1; border-radius: 8px; padding: 10px; height: 206px; }
.plan.best { border: 2px solid #2a6df4; }
.tag { display: inline-block; background: #e7f0ff; color: #2a6df4; font-size: 10px; border-radius: 8px; padding: 1px 7px; }
.pname { font-size: 13px; font-weight: bold; margin: 4px 0 2px; }
.price { font-size: 24px; font-weight: bold; }
.price small { font-size: 11px; color: #777; font-weight: normal; }
ul { list-style: none; padding: 0; margin: 8px 0; font-size: 11px; }
li { margin: 4px 0; }
li::before { content: "\2713  "; color: #22aa66; }
.buy { text-align: center; border-radius: 5px; padding: 4px; font-size: 12px; background: #eef0f3; }
.best .buy { background: #2a6df4; color: #fff; }
</style>
<div class="plans">
<div class="plan"><span class="tag">Hobby</span><div class="pname">Starter</div><div class="price">$0<small> /month</small></div>
<ul><li>3 projects</li><li>Community support</li><li>1 GB storage</li></ul><div class="buy">Start free</div></div>
<div class="plan best"><span class="tag">Popular</span><div class="pname">Team</div><div class="price">$12<small> /month</small></div>
<ul><li>Unlimited projects</li><li>Email support</li><li>50 GB storage</li></ul><div class="buy">Choose Team</div></div>
</div>
""",
    "inbox": """
<style>
.msg { display: flex; align-items: baseline; padding: 6px 12px; border-bottom: 1px solid #eceef1; font-size: 12px; }
.msg.sel { background: #eef4ff; }
.dot { width: 7px; height: 7px; border-radius: 4px; background: #2a6df4; margin-right: 7px; flex: none; }
.dot.read { background: transparent; }
.from { width: 86px; flex: none; font-weight: bold; }
.read ~ .from { font-weight: normal; }
.subj { flex: 1; color: #555; white-space: nowrap; overflow: hidden; }
.time { font-size: 10px; color: #999; margin-left: 8px; }
</style>
<div class="msg sel"><i class="dot"></i><span class="from">Lin Wei</span><span class="subj">Budget review moved to Friday</span><span class="time">09:12</span></div>
<div class="msg"><i class="dot"></i><span class="from">Ops bot</span><span class="subj">Nightly build passed (412 tests)</span><span class="time">07:40</span></div>
<div class="msg"><i class="dot read"></i><span class="from">Sam Ortiz</span><span class="subj">Re: fonts on the new runners</span><span class="time">Tue</span></div>
<div class="msg"><i class="dot read"></i><span class="from">Priya N.</span><span class="subj">Slides for the design sync</span><span class="time">Mon</span></div>
<div class="msg"><i class="dot read"></i><span class="from">Billing</span><span class="subj">Your invoice for October</span><span class="time">Oct 31</span></div>
<div class="msg"><i class="dot read"></i><span class="from">Kai Berg</span><span class="subj">Lunch on Thursday?</span><span class="time">Oct 30</span></div>
""",
    "checkout": """
<style>
form { margin: 10px 16px; font-size: 12px; }
.f { margin-bottom: 7px; }
.l { font-size: 11px; color: #555; margin-bottom: 2px; }
.in { border: 1px solid #bcc2cc; border-radius: 4px; height: 22px; padding: 3px 6px; }
.in.bad { border-color: #d93838; }
.err { color: #d93838; font-size: 10px; margin-top: 2px; }
.two { display: flex; gap: 10px; }
.two .f { flex: 1; }
.radio { display: inline-block; width: 11px; height: 11px; border: 1px solid #888; border-radius: 6px; vertical-align: -2px; margin-right: 4px; }
.radio.on { border: 4px solid #2a6df4; width: 11px; height: 11px; }
.pay { background: #1f9d55; color: #fff; text-align: center; border-radius: 5px; padding: 5px; font-weight: bold; margin-top: 8px; }
</style>
<form><div class="f"><div class="l">Card number</div><div class="in bad">4242 4242 4242 424</div><div class="err">The card number is incomplete.</div></div>
<div class="two"><div class="f"><div class="l">Expiry</div><div class="in">12 / 28</div></div><div class="f"><div class="l">CVC</div><div class="in">123</div></div></div>
<div class="f"><span class="radio on"></span>Save this card &nbsp; <span class="radio"></span>Use once</div>
<div class="pay">Pay $48.00</div></form>
""",
    "sidebar": """
<style>
.wrap { display: flex; height: 240px; }
nav { width: 120px; background: #f4f5f7; border-right: 1px solid #dfe2e6; padding: 10px 0; font-size: 12px; }
nav div { padding: 5px 12px; color: #444; }
nav .on { background: #e2e9f8; color: #1d4fb8; border-left: 3px solid #2a6df4; padding-left: 9px; }
nav i { display: inline-block; width: 9px; height: 9px; border-radius: 2px; background: #99a; margin-right: 7px; }
nav .on i { background: #2a6df4; }
main { flex: 1; padding: 10px 14px; }
.crumb { font-size: 10px; color: #888; }
.crumb b { color: #555; font-weight: normal; }
h2 { font-size: 15px; margin: 4px 0 8px; }
.note { font-size: 11px; line-height: 1.5; color: #555; border-left: 3px solid #f0a020; padding-left: 8px; }
</style>
<div class="wrap"><nav><div><i></i>Overview</div><div class="on"><i></i>Deployments</div><div><i></i>Domains</div><div><i></i>Logs</div><div><i></i>Settings</div></nav>
<main><div class="crumb">Projects / <b>atlas-web</b> / Deployments</div><h2>Deployments</h2>
<div class="note">Production is pinned to build 2.14.0. Preview builds expire after thirty days.</div></main></div>
""",
}

HOLDOUT_CHANGES = [
    ("profile", "text-colour", "<p class=\"bio\">", "<p class=\"bio\" style=\"color:#555\">", "hinting-none"),
    ("profile", "word", "56.1k", "56.4k", "lcd-text"),
    ("profile", "border-removed", "border-top: 1px solid #e4e6ea;", "border-top: 1px solid transparent;", "jpeg-q90"),
    ("profile", "moved-2px", "<div class=\"follow\">", "<div class=\"follow\" style=\"margin-right:-2px\">", "swiftshader"),
    ("pricing", "button-colour", ".best .buy { background: #2a6df4;", ".best .buy { background: #3a7af4;", "display-p3"),
    ("pricing", "word", "<li>Email support</li>", "<li>Email supports</li>", "no-subpixel-pos"),
    ("pricing", "icon-removed", "<span class=\"tag\">Hobby", "<span class=\"tag\" style=\"visibility:hidden\">Hobby", "jpeg-q95"),
    ("inbox", "text-colour", "<span class=\"from\">Ops bot", "<span class=\"from\" style=\"color:#444\">Ops bot", "generic-rgb"),
    ("inbox", "icon-removed", "<div class=\"msg\"><i class=\"dot\"></i>", "<div class=\"msg\"><i class=\"dot read\"></i>", "hinting-medium"),
    ("inbox", "letter-spacing", "<span class=\"subj\">Re: fonts", "<span class=\"subj\" style=\"letter-spacing:0.5px\">Re: fonts", "swiftshader"),
    ("checkout", "border-removed", ".in.bad { border-color: #d93838; }", ".in.bad { border-color: #d93838; border-bottom-color: transparent; }", "lcd-text"),
    ("checkout", "word", "The card number is incomplete.", "The card number is invalid.", "jpeg-q90"),
    ("checkout", "button-colour", ".pay { background: #1f9d55;", ".pay { background: #2fa95f;", "hinting-full"),
    ("sidebar", "moved-2px", "<h2>Deployments</h2>", "<h2 style=\"margin-left:2px\">Deployments</h2>", "display-p3"),
    ("sidebar", "text-colour", "nav .on { background: #e2e9f8; color: #1d4fb8;", "nav .on { background: #e2e9f8; color: #2d5fc8;", "generic-rgb"),
    ("sidebar", "border-removed", "nav { width: 120px; background: #f4f5f7; border-right: 1px solid #dfe2e6;", "nav { width: 120px; background: #f4f5f7; border-right: 1px solid transparent;", "no-subpixel-pos"),
]

# Pages and changes written blind: after every structural rule of the fixtures above, and measured
# once (scripts/eval-corpora) before any rule was changed on them.
BLIND_PAGES = {
    "calendar": """
<style>
.cal { margin: 8px 14px; }
.top { display: flex; align-items: baseline; margin-bottom: 6px; }
.month { font-size: 15px; font-weight: bold; }
.nav { margin-left: auto; color: #2a6df4; font-size: 12px; }
.grid { display: grid; grid-template-columns: repeat(7, 1fr); border-top: 1px solid #e1e4e8; }
.wd { font-size: 10px; color: #888; text-align: center; padding: 3px 0; }
.d { font-size: 11px; text-align: center; height: 27px; padding-top: 4px; border-top: 1px solid #f0f1f3; }
.d.out { color: #bbb; }
.d.today span { display: inline-block; width: 19px; height: 19px; line-height: 19px; border-radius: 10px; background: #e0457b; color: #fff; }
.ev { display: block; width: 5px; height: 5px; border-radius: 3px; background: #22aa66; margin: 2px auto 0; }
</style>
<div class="cal"><div class="top"><div class="month">March 2026</div><div class="nav">&lsaquo; Today &rsaquo;</div></div>
<div class="grid"><div class="wd">Mon</div><div class="wd">Tue</div><div class="wd">Wed</div><div class="wd">Thu</div><div class="wd">Fri</div><div class="wd">Sat</div><div class="wd">Sun</div>
<div class="d out">23</div><div class="d out">24</div><div class="d out">25</div><div class="d out">26</div><div class="d out">27</div><div class="d out">28</div><div class="d">1</div>
<div class="d">2</div><div class="d">3<i class="ev"></i></div><div class="d">4</div><div class="d">5</div><div class="d">6</div><div class="d">7</div><div class="d">8</div>
<div class="d">9</div><div class="d today"><span>10</span></div><div class="d">11</div><div class="d">12<i class="ev" id="e2"></i></div><div class="d">13</div><div class="d">14</div><div class="d">15</div>
<div class="d">16</div><div class="d">17</div><div class="d">18</div><div class="d">19</div><div class="d">20</div><div class="d">21</div><div class="d">22</div>
</div></div>
""",
    "chat": """
<style>
.chat { padding: 8px 12px; }
.row { display: flex; align-items: flex-end; margin-bottom: 7px; }
.row.me { justify-content: flex-end; }
.av { width: 22px; height: 22px; border-radius: 11px; background: #f0a020; color: #fff; font-size: 10px; font-weight: bold;
      display: flex; align-items: center; justify-content: center; margin-right: 6px; flex: none; }
.b { max-width: 230px; padding: 5px 9px; border-radius: 12px; font-size: 12px; line-height: 1.35; background: #eceef1; }
.me .b { background: #2a6df4; color: #fff; }
.t { font-size: 9px; color: #999; margin: 0 4px; }
.tick { color: #22aa66; font-size: 10px; }
.bar { position: absolute; left: 0; right: 0; top: 200px; display: flex; padding: 6px 12px; border-top: 1px solid #e1e4e8; }
.in { flex: 1; border: 1px solid #ccd1d9; border-radius: 14px; height: 26px; padding: 5px 10px; font-size: 11px; color: #999; }
.send { margin-left: 8px; background: #2a6df4; color: #fff; border-radius: 14px; padding: 5px 12px; font-size: 11px; font-weight: bold; }
</style>
<div class="chat">
<div class="row"><div class="av">MR</div><div class="b">Are the snapshots green on the ARM runner yet?</div></div>
<div class="row me"><div class="t">10:42 <span class="tick">&#10003;&#10003;</span></div><div class="b">Almost. Two text diffs left, both hinting.</div></div>
<div class="row"><div class="av">MR</div><div class="b">Ship it when they pass.</div><div class="t">10:44</div></div>
</div>
<div class="bar"><div class="in">Write a message</div><div class="send">Send</div></div>
""",
    "files": """
<style>
.files { margin: 8px 12px; font-size: 12px; }
.hdr { display: flex; font-size: 10px; color: #888; padding: 0 6px 4px; border-bottom: 1px solid #d6dae1; }
.f { display: flex; align-items: center; padding: 5px 6px; border-bottom: 1px solid #eef0f3; }
.f.sel { background: #eef4ff; }
.ic { width: 12px; height: 14px; border-radius: 2px; margin-right: 8px; flex: none; }
.pdf { background: #d93838; } .img { background: #22aa66; } .doc { background: #2a6df4; } .zip { background: #99a; }
.n { flex: 1; }
.sz { width: 64px; text-align: right; font: 11px "DejaVu Sans Mono"; color: #666; }
.prog { margin: 10px 6px 0; height: 6px; border-radius: 3px; background: #e6e8ec; }
.prog div { width: 62%; height: 6px; border-radius: 3px; background: #2a6df4; }
.cap { margin: 4px 6px; font-size: 10px; color: #888; }
</style>
<div class="files"><div class="hdr"><span style="flex:1">Name</span><span>Size</span></div>
<div class="f"><i class="ic pdf"></i><span class="n">quarterly-report.pdf</span><span class="sz">2.4 MB</span></div>
<div class="f sel"><i class="ic img"></i><span class="n">login-screen@2x.png</span><span class="sz">318 KB</span></div>
<div class="f"><i class="ic doc"></i><span class="n">release-notes.docx</span><span class="sz">44 KB</span></div>
<div class="f"><i class="ic zip"></i><span class="n">snapshots-arm64.zip</span><span class="sz">12.9 MB</span></div>
<div class="prog"><div></div></div><div class="cap">Uploading 3 of 5 files</div></div>
""",
    "dialog": """
<style>
.page { padding: 10px 14px; color: #bbb; font-size: 12px; line-height: 1.5; }
.shade { position: absolute; left: 0; top: 0; width: 360px; height: 240px; background: rgba(20, 24, 32, 0.45); }
.dlg { position: absolute; left: 40px; top: 42px; width: 280px; background: #fff; border-radius: 8px; padding: 14px;
       box-shadow: 0 6px 18px rgba(0, 0, 0, 0.3); }
.ttl { display: flex; align-items: center; font-size: 14px; font-weight: bold; margin-bottom: 6px; }
.warn { width: 16px; height: 16px; border-radius: 8px; background: #f0a020; color: #fff; font-size: 11px; text-align: center;
        line-height: 16px; margin-right: 7px; }
.txt { font-size: 11px; color: #555; line-height: 1.45; }
.chk { margin: 9px 0 12px; font-size: 11px; }
.chk i { display: inline-block; width: 11px; height: 11px; border: 1px solid #888; border-radius: 2px; vertical-align: -2px; margin-right: 5px; }
.btns { display: flex; justify-content: flex-end; gap: 8px; }
.btn { border-radius: 5px; padding: 4px 12px; font-size: 12px; border: 1px solid #ccd1d9; }
.btn.red { background: #d93838; border-color: #d93838; color: #fff; font-weight: bold; }
</style>
<div class="page">Project settings, members and billing. Changes apply to every environment of the project.</div>
<div class="shade"></div>
<div class="dlg"><div class="ttl"><span class="warn">!</span>Delete 12 snapshots?</div>
<div class="txt">The reference images of the selected tests are removed from the repository. The next run records them again.</div>
<div class="chk"><i></i>Also delete their history</div>
<div class="btns"><div class="btn">Cancel</div><div class="btn red">Delete</div></div></div>
""",
    "search": """
<style>
.q { display: flex; align-items: center; margin: 10px 12px 6px; border: 1px solid #ccd1d9; border-radius: 16px; height: 28px; padding: 0 10px; font-size: 12px; }
.mag { width: 10px; height: 10px; border: 2px solid #888; border-radius: 6px; margin-right: 8px; }
.chips { margin: 0 12px 6px; }
.chip { display: inline-block; font-size: 10px; border: 1px solid #d6dae1; border-radius: 9px; padding: 1px 8px; margin-right: 4px; color: #555; }
.chip.on { background: #1d4fb8; border-color: #1d4fb8; color: #fff; }
.r { margin: 0 12px 8px; }
.u { font-size: 10px; color: #1a7f37; }
.h { font-size: 13px; color: #1d4fb8; }
.s { font-size: 11px; color: #555; line-height: 1.35; }
</style>
<div class="q"><i class="mag"></i>snapshot tolerance arm64</div>
<div class="chips"><span class="chip on">All</span><span class="chip">Docs</span><span class="chip">Issues</span><span class="chip">Code</span></div>
<div class="r"><div class="u">docs.example.dev &rsaquo; testing &rsaquo; snapshots</div><div class="h">Choosing a precision for image snapshots</div>
<div class="s">Renders differ a few levels between machines; pick the tolerance from both runners.</div></div>
<div class="r"><div class="u">github.com &rsaquo; issues &rsaquo; 4182</div><div class="h">Text renders bolder on the ARM runner</div>
<div class="s">Full hinting snaps stems to whole pixels, so glyph widths change.</div></div>
""",
}

BLIND_CHANGES = [
    ("calendar", "text-colour", ".wd { font-size: 10px; color: #888;", ".wd { font-size: 10px; color: #999;", "hinting-medium"),
    ("calendar", "moved-2px", "<i class=\"ev\" id=\"e2\"></i>", "<i class=\"ev\" id=\"e2\" style=\"position:relative;left:2px\"></i>", "jpeg-q90"),
    ("calendar", "word", "March 2026", "March 2025", "lcd-text"),
    ("calendar", "border-removed", ".grid { display: grid; grid-template-columns: repeat(7, 1fr); border-top: 1px solid #e1e4e8; }",
     ".grid { display: grid; grid-template-columns: repeat(7, 1fr); border-top: 1px solid transparent; }", "display-p3"),
    ("chat", "button-colour", ".send { margin-left: 8px; background: #2a6df4;", ".send { margin-left: 8px; background: #3a7cf4;", "swiftshader"),
    ("chat", "word", "Two text diffs left", "Two text diffs lost", "no-subpixel-pos"),
    ("chat", "icon-removed", "<span class=\"tick\">", "<span class=\"tick\" style=\"visibility:hidden\">", "generic-rgb"),
    ("files", "text-colour", "font: 11px \"DejaVu Sans Mono\"; color: #666;", "font: 11px \"DejaVu Sans Mono\"; color: #777;", "jpeg-q95"),
    ("files", "moved-2px", "<span class=\"n\">release-notes.docx", "<span class=\"n\" style=\"padding-left:2px\">release-notes.docx", "hinting-full"),
    ("files", "border-removed", ".hdr { display: flex; font-size: 10px; color: #888; padding: 0 6px 4px; border-bottom: 1px solid #d6dae1; }",
     ".hdr { display: flex; font-size: 10px; color: #888; padding: 0 6px 4px; border-bottom: 1px solid transparent; }", "other-machine"),
    ("files", "letter-spacing", "<span class=\"n\">snapshots-arm64.zip", "<span class=\"n\" style=\"letter-spacing:0.5px\">snapshots-arm64.zip", "hinting-none"),
    ("dialog", "button-colour", ".btn.red { background: #d93838; border-color: #d93838;", ".btn.red { background: #e44848; border-color: #e44848;", "lcd-text"),
    ("dialog", "word", "Delete 12 snapshots?", "Delete 13 snapshots?", "jpeg-q90"),
    ("dialog", "icon-removed", "<span class=\"warn\">!</span>", "<span class=\"warn\" style=\"visibility:hidden\">!</span>", "hinting-full"),
    ("search", "text-colour", ".u { font-size: 10px; color: #1a7f37; }", ".u { font-size: 10px; color: #2a8f47; }", "display-p3"),
    ("search", "word", "pick the tolerance from both runners", "pick the tolerance from one runner", "swiftshader"),
    ("search", "moved-2px", "<span class=\"chip\">Issues</span>", "<span class=\"chip\" style=\"margin-left:2px\">Issues</span>", "other-machine"),
]

# A second blind set, written after the first was measured and some rules were changed on it: five
# more pages and seventeen more changes, committed before any mode was run on them.
BLIND2_PAGES = {
    "invoice": """
<style>
.inv { margin: 10px 14px; font-size: 11px; }
.head { display: flex; align-items: baseline; border-bottom: 2px solid #1d4fb8; padding-bottom: 5px; }
.co { font-size: 15px; font-weight: bold; color: #1d4fb8; }
.no { margin-left: auto; color: #666; }
.to { margin: 7px 0; color: #444; line-height: 1.4; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-size: 10px; color: #888; font-weight: normal; border-bottom: 1px solid #d6dae1; padding: 3px 0; }
td { padding: 4px 0; border-bottom: 1px solid #eef0f3; }
.amt { text-align: right; font-family: "DejaVu Sans Mono"; }
.tot td { border-bottom: none; font-weight: bold; padding-top: 6px; }
.paid { display: inline-block; margin-top: 8px; border: 1px solid #22aa66; color: #22aa66; border-radius: 3px; padding: 1px 6px; font-size: 10px; }
</style>
<div class="inv"><div class="head"><div class="co">Northwind Studio</div><div class="no">Invoice #20418</div></div>
<div class="to">Billed to Harbor Labs, 14 Quay Street, Leith<br>Due 30 April 2026</div>
<table><tr><th>Item</th><th class="amt">Qty</th><th class="amt">Amount</th></tr>
<tr><td>Snapshot review, March</td><td class="amt">12</td><td class="amt">1,440.00</td></tr>
<tr><td>CI runner minutes</td><td class="amt">3,200</td><td class="amt">256.00</td></tr>
<tr><td>Design tokens audit</td><td class="amt">1</td><td class="amt">380.00</td></tr>
<tr class="tot"><td>Total</td><td></td><td class="amt">2,076.00</td></tr></table>
<span class="paid">PAID</span></div>
""",
    "player": """
<style>
.pl { margin: 12px 16px; display: flex; }
.art { width: 72px; height: 72px; border-radius: 6px; background: linear-gradient(135deg, #f0a020, #d93838); flex: none; }
.meta { margin-left: 12px; flex: 1; }
.song { font-size: 14px; font-weight: bold; }
.by { font-size: 11px; color: #777; margin-top: 2px; }
.bar { margin-top: 12px; height: 4px; border-radius: 2px; background: #e1e4e8; }
.bar div { width: 38%; height: 4px; border-radius: 2px; background: #1d4fb8; }
.tm { display: flex; font: 9px "DejaVu Sans Mono"; color: #888; margin-top: 3px; }
.tm span:last-child { margin-left: auto; }
.ctl { display: flex; justify-content: center; align-items: center; gap: 18px; margin-top: 14px; }
.sk { width: 0; height: 0; border-top: 6px solid transparent; border-bottom: 6px solid transparent; }
.prev { border-right: 9px solid #444; } .next { border-left: 9px solid #444; }
.play { width: 30px; height: 30px; border-radius: 15px; background: #1d4fb8; }
.q { margin: 12px 16px 0; font-size: 11px; color: #555; border-top: 1px solid #eef0f3; padding-top: 6px; }
</style>
<div class="pl"><div class="art"></div><div class="meta"><div class="song">Slow Harbour Lights</div>
<div class="by">The Render Farm &middot; Night Builds</div><div class="bar"><div></div></div>
<div class="tm"><span>1:24</span><span>3:41</span></div></div></div>
<div class="ctl"><i class="sk prev"></i><div class="play"></div><i class="sk next"></i></div>
<div class="q">Up next: Green on Every Runner</div>
""",
    "weather": """
<style>
.w { margin: 10px 14px; }
.now { display: flex; align-items: center; }
.sun { width: 34px; height: 34px; border-radius: 17px; background: #f0c020; box-shadow: 0 0 0 4px #fbe9a8; }
.deg { font-size: 30px; margin-left: 14px; }
.loc { margin-left: 12px; font-size: 11px; color: #666; line-height: 1.4; }
.days { display: flex; margin-top: 12px; border-top: 1px solid #e1e4e8; }
.day { flex: 1; text-align: center; padding-top: 6px; font-size: 10px; color: #555; }
.day b { display: block; font-size: 12px; color: #222; margin-top: 3px; }
.rain { display: block; width: 8px; height: 8px; margin: 4px auto 0; border-radius: 0 50% 50% 50%; transform: rotate(45deg); background: #2a6df4; }
.alert { margin-top: 10px; font-size: 10px; background: #fff4e0; border-left: 3px solid #f0a020; padding: 4px 6px; color: #7a4a00; }
</style>
<div class="w"><div class="now"><div class="sun"></div><div class="deg">18&deg;</div>
<div class="loc">Edinburgh<br>Partly cloudy, wind 14 km/h</div></div>
<div class="days"><div class="day">Tue<b>17&deg;</b></div><div class="day">Wed<b>15&deg;</b><i class="rain"></i></div>
<div class="day">Thu<b>12&deg;</b><i class="rain"></i></div><div class="day">Fri<b>16&deg;</b></div><div class="day">Sat<b>19&deg;</b></div></div>
<div class="alert">Yellow warning: heavy rain on Thursday afternoon</div></div>
""",
    "kanban": """
<style>
.kb { display: flex; gap: 8px; margin: 10px 10px; }
.col { flex: 1; background: #f4f5f7; border-radius: 6px; padding: 6px; }
.ch { font-size: 10px; font-weight: bold; color: #666; margin-bottom: 5px; }
.ch span { color: #999; font-weight: normal; }
.card { background: #fff; border: 1px solid #dfe2e6; border-radius: 4px; padding: 5px 6px; font-size: 11px; margin-bottom: 5px; }
.tag { display: inline-block; font-size: 9px; border-radius: 3px; padding: 0 4px; margin-top: 3px; color: #fff; }
.bug { background: #d93838; } .feat { background: #22aa66; } .ui { background: #7b4ee0; }
.who { float: right; width: 12px; height: 12px; border-radius: 6px; background: #2a6df4; margin-top: 3px; }
</style>
<div class="kb"><div class="col"><div class="ch">To do <span>3</span></div>
<div class="card">Flaky blend on ARM<br><i class="tag bug">bug</i><i class="who"></i></div>
<div class="card">Dark mode icons<br><i class="tag ui">ui</i></div></div>
<div class="col"><div class="ch">Doing <span>1</span></div>
<div class="card">Shard the suite<br><i class="tag feat">feature</i><i class="who"></i></div></div>
<div class="col"><div class="ch">Done <span>2</span></div>
<div class="card">Cache decoded refs<br><i class="tag feat">feature</i></div>
<div class="card">Fix caret blink<br><i class="tag bug">bug</i></div></div></div>
""",
    "signup": """
<style>
.su { width: 230px; margin: 12px auto; font-size: 11px; }
.t { font-size: 15px; font-weight: bold; text-align: center; margin-bottom: 8px; }
label { display: block; color: #555; margin: 6px 0 2px; font-size: 10px; }
.inp { border: 1px solid #ccd1d9; border-radius: 4px; height: 22px; padding: 3px 6px; color: #333; }
.inp.err { border-color: #d93838; }
.msg { color: #d93838; font-size: 9px; margin-top: 2px; }
.terms { margin: 8px 0; font-size: 10px; color: #555; }
.terms i { display: inline-block; width: 9px; height: 9px; border: 1px solid #888; border-radius: 2px; vertical-align: -1px; margin-right: 4px; }
.go { background: #22aa66; color: #fff; text-align: center; border-radius: 4px; padding: 5px; font-weight: bold; }
</style>
<div class="su"><div class="t">Create your account</div>
<label>Email</label><div class="inp">ana@harbor.dev</div>
<label>Password</label><div class="inp err">&bull;&bull;&bull;&bull;&bull;</div><div class="msg">At least 8 characters</div>
<div class="terms"><i></i>I agree to the terms</div><div class="go">Sign up</div></div>
""",
}

BLIND2_CHANGES = [
    ("invoice", "text-colour", ".no { margin-left: auto; color: #666; }", ".no { margin-left: auto; color: #777; }", "lcd-text"),
    ("invoice", "word", "<td class=\"amt\">256.00</td>", "<td class=\"amt\">265.00</td>", "hinting-full"),
    ("invoice", "border-removed", "td { padding: 4px 0; border-bottom: 1px solid #eef0f3; }", "td { padding: 4px 0; border-bottom: 1px solid transparent; }", "swiftshader"),
    ("invoice", "moved-2px", "<span class=\"paid\">", "<span class=\"paid\" style=\"margin-left:2px\">", "generic-rgb"),
    ("player", "button-colour", ".play { width: 30px; height: 30px; border-radius: 15px; background: #1d4fb8; }",
     ".play { width: 30px; height: 30px; border-radius: 15px; background: #2d5fc8; }", "hinting-medium"),
    ("player", "word", "<span>1:24</span>", "<span>1:25</span>", "display-p3"),
    ("player", "icon-removed", "<i class=\"sk next\"></i>", "<i class=\"sk next\" style=\"visibility:hidden\"></i>", "jpeg-q95"),
    ("weather", "text-colour", ".loc { margin-left: 12px; font-size: 11px; color: #666;", ".loc { margin-left: 12px; font-size: 11px; color: #555;", "other-machine"),
    ("weather", "icon-removed", "<b>12&deg;</b><i class=\"rain\"></i>", "<b>12&deg;</b><i class=\"rain\" style=\"visibility:hidden\"></i>", "hinting-none"),
    ("weather", "moved-2px", "<div class=\"sun\"></div>", "<div class=\"sun\" style=\"margin-top:2px\"></div>", "no-subpixel-pos"),
    ("weather", "border-removed", ".days { display: flex; margin-top: 12px; border-top: 1px solid #e1e4e8; }",
     ".days { display: flex; margin-top: 12px; border-top: 1px solid transparent; }", "jpeg-q90"),
    ("kanban", "button-colour", ".feat { background: #22aa66; }", ".feat { background: #32b876; }", "hinting-full"),
    ("kanban", "word", "Shard the suite", "Shard the suites", "lcd-text"),
    ("kanban", "letter-spacing", "<div class=\"ch\">Done", "<div class=\"ch\" style=\"letter-spacing:0.5px\">Done", "swiftshader"),
    ("signup", "text-colour", ".msg { color: #d93838;", ".msg { color: #c92828;", "display-p3"),
    ("signup", "moved-2px", "<div class=\"terms\">", "<div class=\"terms\" style=\"padding-left:2px\">", "hinting-medium"),
    ("signup", "border-removed", ".inp.err { border-color: #d93838; }", ".inp.err { border-color: #ccd1d9; }", "other-machine"),
]

# A third blind set, written after the second was measured and a rule was changed on it: five more
# pages and seventeen more changes, committed before any mode was run on them.
BLIND3_PAGES = {
    "orders": """
<style>
.od { margin: 8px 12px; font-size: 11px; }
.top { display: flex; align-items: baseline; padding-bottom: 5px; border-bottom: 1px solid #d6dae1; }
.ttl { font-size: 15px; font-weight: bold; }
.flt { margin-left: auto; font-size: 11px; color: #2a6df4; }
.o { display: flex; align-items: center; padding: 6px 2px; border-bottom: 1px solid #eef0f3; }
.pk { width: 13px; height: 12px; border: 2px solid #a07840; border-radius: 2px; margin-right: 8px; flex: none; }
.id { width: 58px; flex: none; font: 10px "DejaVu Sans Mono"; color: #555; }
.what { flex: 1; white-space: nowrap; overflow: hidden; }
.date { width: 46px; text-align: right; margin-right: 8px; font-size: 10px; color: #888; }
.st { width: 60px; flex: none; text-align: center; font-size: 9px; border-radius: 8px; padding: 1px 0; color: #fff; }
.ship { background: #2a6df4; } .pack { background: #f0a020; } .done { background: #1f9d55; } .late { background: #d93838; }
.foot { display: flex; align-items: center; margin-top: 8px; font-size: 10px; color: #666; }
.more { margin-left: auto; border: 1px solid #ccd1d9; border-radius: 5px; padding: 3px 10px; font-size: 11px; color: #333; }
</style>
<div class="od"><div class="top"><div class="ttl">Your orders</div><div class="flt">Last 30 days &#9662;</div></div>
<div class="o"><i class="pk"></i><span class="id">#A-7314</span><span class="what">USB-C dock and cables</span><span class="date">12 May</span><span class="st ship">Shipped</span></div>
<div class="o"><i class="pk"></i><span class="id">#A-7290</span><span class="what">Monitor arm</span><span class="date">9 May</span><span class="st pack">Packing</span></div>
<div class="o"><i class="pk"></i><span class="id">#A-7251</span><span class="what">Quiet keyboard</span><span class="date">3 May</span><span class="st done">Delivered</span></div>
<div class="o"><i class="pk"></i><span class="id">#A-7208</span><span class="what">Desk lamp, warm white</span><span class="date">28 Apr</span><span class="st late">Delayed</span></div>
<div class="o"><i class="pk"></i><span class="id">#A-7166</span><span class="what">Grid notebooks (3)</span><span class="date">21 Apr</span><span class="st done">Delivered</span></div>
<div class="foot">Showing 5 of 14 orders<span class="more">Load more</span></div></div>
""",
    "notify": """
<style>
.np { margin: 8px 12px; border: 1px solid #dfe2e6; border-radius: 8px; overflow: hidden; }
.nh { display: flex; align-items: center; padding: 6px 10px; background: #f7f8fa; border-bottom: 1px solid #dfe2e6; }
.ttl { font-size: 13px; font-weight: bold; }
.cnt { margin-left: 6px; background: #d93838; color: #fff; font-size: 9px; border-radius: 7px; padding: 0 5px; line-height: 14px; }
.mark { margin-left: auto; font-size: 10px; color: #2a6df4; }
.n { display: flex; align-items: flex-start; padding: 6px 10px; border-bottom: 1px solid #eef0f3; font-size: 11px; }
.n:last-child { border-bottom: 0; }
.av { width: 24px; height: 24px; border-radius: 12px; color: #fff; font-size: 9px; font-weight: bold; display: flex;
      align-items: center; justify-content: center; margin-right: 8px; flex: none; }
.av.sq { border-radius: 6px; }
.bd { flex: 1; line-height: 1.35; color: #444; }
.bd b { color: #222; }
.ago { display: block; font-size: 9px; color: #999; }
.un { width: 7px; height: 7px; border-radius: 4px; background: #2a6df4; margin: 4px 0 0 6px; flex: none; }
</style>
<div class="np"><div class="nh"><span class="ttl">Notifications</span><span class="cnt">2</span><span class="mark">Mark all as read</span></div>
<div class="n"><div class="av" style="background:#7b4ee0">JL</div><div class="bd"><b>Jo Lind</b> commented on <b>Release 4.2</b>: looks good to me<span class="ago">4 min ago</span></div><i class="un" id="u1"></i></div>
<div class="n"><div class="av sq" style="background:#1f9d55">CI</div><div class="bd"><b>Build #881</b> passed on main in 6m 12s<span class="ago">18 min ago</span></div><i class="un" id="u2"></i></div>
<div class="n"><div class="av" style="background:#f0a020">RK</div><div class="bd"><b>Rui Kato</b> assigned you <b>Retina baselines</b><span class="ago">1 h ago</span></div></div>
<div class="n"><div class="av sq" style="background:#d93838">!</div><div class="bd"><b>Storage</b> is 92% full on the shared runner<span class="ago">Yesterday</span></div></div></div>
""",
    "review": """
<style>
.pr { margin: 8px 12px; font-size: 11px; }
.t { font-size: 13px; font-weight: bold; }
.t span { color: #888; font-weight: normal; }
.sub { display: flex; align-items: center; margin: 5px 0; color: #666; }
.open { background: #1f9d55; color: #fff; border-radius: 9px; padding: 1px 8px; margin-right: 6px; font-size: 10px; font-weight: bold; }
.lbl { display: inline-block; font-size: 9px; border-radius: 8px; padding: 0 6px; margin-right: 4px; border: 1px solid; }
.l1 { color: #1d4fb8; border-color: #9db7ea; background: #eef4ff; }
.l2 { color: #a05a00; border-color: #f0c98a; background: #fff6e8; }
.stat { display: flex; align-items: center; margin: 6px 0 0; border: 1px solid #dfe2e6; border-radius: 6px 6px 0 0; padding: 4px 8px; font-size: 10px; color: #555; }
.add { color: #1a7f37; font-weight: bold; margin-right: 5px; } .del { color: #d93838; font-weight: bold; margin-right: 8px; }
.sqs { margin-left: auto; }
.sqs i { display: inline-block; width: 8px; height: 8px; margin-left: 2px; border-radius: 1px; }
.g { background: #2da44e; } .r { background: #d93838; } .z { background: #d0d4dc; }
.file { display: flex; padding: 3px 8px; border: 1px solid #dfe2e6; border-top: 0; font: 10px "DejaVu Sans Mono"; color: #444; }
.file span { margin-left: auto; }
.rv { display: flex; align-items: center; margin-top: 8px; }
.ok { width: 14px; height: 14px; border-radius: 7px; background: #2da44e; margin-right: 6px; position: relative; }
.ok::after { content: ""; position: absolute; left: 4px; top: 2px; width: 3px; height: 6px; border: solid #fff; border-width: 0 2px 2px 0; transform: rotate(45deg); }
.merge { margin-left: auto; background: #2da44e; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
</style>
<div class="pr"><div class="t">Fix rounding in the tolerance check <span>#412</span></div>
<div class="sub"><span class="open">Open</span>mira wants to merge 3 commits into main</div>
<span class="lbl l1">snapshots</span><span class="lbl l2">needs-review</span>
<div class="stat"><span class="add">+48</span><span class="del">&minus;12</span>4 files changed<span class="sqs"><i class="g"></i><i class="g"></i><i class="g"></i><i class="r"></i><i class="z"></i></span></div>
<div class="file">Sources/Diff/Tolerance.swift<span>+31 &minus;8</span></div>
<div class="file">Tests/ToleranceTests.swift<span>+17 &minus;4</span></div>
<div class="rv"><i class="ok"></i>Approved by 2 reviewers<div class="merge">Merge</div></div></div>
""",
    "stats": """
<style>
.tiles { display: flex; gap: 8px; margin: 10px 10px 8px; }
.tile { flex: 1; border: 1px solid #dfe2e6; border-radius: 7px; padding: 7px 8px; }
.k { display: flex; align-items: center; font-size: 10px; color: #777; }
.k i { width: 8px; height: 8px; border-radius: 2px; margin-right: 5px; }
.v { font-size: 18px; font-weight: bold; margin: 3px 0 2px; }
.v small { font-size: 11px; font-weight: normal; color: #777; }
.d { display: inline-block; font-size: 9px; border-radius: 7px; padding: 0 5px; color: #fff; }
.up { background: #1f9d55; } .dn { background: #d93838; }
.sp { display: flex; align-items: flex-end; gap: 2px; height: 26px; margin-top: 7px; border-bottom: 1px solid #e6e8ec; }
.sp div { width: 6px; background: #9db7ea; }
.sp div:last-child { background: #2a6df4; }
.foot { display: flex; align-items: center; margin: 0 12px; font-size: 11px; color: #666; line-height: 1.45; }
.exp { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 10px; color: #333; background: #f7f8fa; }
</style>
<div class="tiles">
<div class="tile"><div class="k"><i style="background:#2a6df4"></i>Active users</div><div class="v">1,284</div><span class="d up">+4.2%</span>
<div class="sp"><div style="height:9px"></div><div style="height:12px"></div><div style="height:10px"></div><div style="height:15px"></div><div style="height:14px"></div><div style="height:18px"></div><div style="height:16px"></div><div style="height:21px"></div><div style="height:19px"></div><div style="height:24px"></div></div></div>
<div class="tile"><div class="k"><i style="background:#7b4ee0"></i>Error rate</div><div class="v">0.37<small>%</small></div><span class="d dn">+0.05</span>
<div class="sp"><div style="height:6px"></div><div style="height:5px"></div><div style="height:8px"></div><div style="height:7px"></div><div style="height:11px"></div><div style="height:9px"></div><div style="height:10px"></div><div style="height:14px"></div><div style="height:12px"></div><div style="height:15px"></div></div></div>
<div class="tile"><div class="k"><i style="background:#f0a020"></i>p95 latency</div><div class="v">212<small> ms</small></div><span class="d up">&minus;8 ms</span>
<div class="sp"><div style="height:22px"></div><div style="height:24px"></div><div style="height:19px"></div><div style="height:20px"></div><div style="height:17px"></div><div style="height:18px"></div><div style="height:15px"></div><div style="height:16px"></div><div style="height:13px"></div><div style="height:12px"></div></div></div>
</div>
<div class="foot"><div>Last 24 hours, all regions.<br>Updated 5 minutes ago.</div><div class="exp">Export CSV</div></div>
""",
    "recipe": """
<style>
.rc { display: flex; margin: 8px 12px 6px; border: 1px solid #e0dcd4; border-radius: 8px; padding: 8px; background: #fffdf8; }
.ph { width: 78px; height: 78px; border-radius: 6px; background: radial-gradient(circle at 40% 40%, #f6d365, #e07b39); flex: none; }
.info { margin-left: 10px; flex: 1; }
.nm { font-size: 14px; font-weight: bold; color: #3a2a1a; }
.rt { display: flex; align-items: center; margin: 4px 0; font-size: 10px; color: #8a7a66; }
.star { width: 11px; height: 11px; margin-right: 1px; background: #f0a020;
        clip-path: polygon(50% 0, 61% 35%, 98% 35%, 68% 57%, 79% 91%, 50% 70%, 21% 91%, 32% 57%, 2% 35%, 39% 35%); }
.star.off { background: #e0dcd4; }
.rt span { margin-left: 5px; }
.meta { font-size: 11px; color: #5a4d40; }
.veg { display: inline-block; margin-left: 6px; font-size: 9px; color: #fff; background: #5a9e3a; border-radius: 7px; padding: 0 6px; }
.cook { display: inline-block; margin-top: 7px; background: #e07b39; color: #fff; border-radius: 5px; padding: 3px 10px; font-size: 11px; font-weight: bold; }
.ing { margin: 0 12px; font-size: 11px; }
.ing h3 { font-size: 12px; margin: 0 0 4px; padding-bottom: 3px; border-bottom: 1px solid #e0dcd4; color: #3a2a1a; }
.ing ul { columns: 2; list-style: none; padding: 0; margin: 0; }
.ing li { margin: 0 0 3px; color: #4a3f33; }
.ing li::before { content: ""; display: inline-block; width: 5px; height: 5px; border-radius: 3px; background: #e07b39; margin-right: 6px; vertical-align: 1px; }
</style>
<div class="rc"><div class="ph"></div><div class="info"><div class="nm">Roast tomato soup</div>
<div class="rt"><i class="star"></i><i class="star"></i><i class="star"></i><i class="star"></i><i class="star off"></i><span>4.1 (86 reviews)</span></div>
<div class="meta">35 min &middot; Serves 4<span class="veg">Vegetarian</span></div><div class="cook">Start cooking</div></div></div>
<div class="ing"><h3>Ingredients</h3><ul>
<li>800 g ripe tomatoes</li><li>1 red onion</li><li>3 cloves garlic</li><li>2 tbsp olive oil</li>
<li>500 ml vegetable stock</li><li>1 tsp smoked paprika</li><li>Basil, to serve</li><li>Salt and pepper</li>
</ul></div>
""",
}

BLIND3_CHANGES = [
    ("orders", "word", "<span class=\"date\">9 May</span>", "<span class=\"date\">8 May</span>", "no-subpixel-pos"),
    ("orders", "text-colour", ".id { width: 58px; flex: none; font: 10px \"DejaVu Sans Mono\"; color: #555; }",
     ".id { width: 58px; flex: none; font: 10px \"DejaVu Sans Mono\"; color: #666; }", "hinting-none"),
    ("orders", "border-removed", ".more { margin-left: auto; border: 1px solid #ccd1d9;", ".more { margin-left: auto; border: 1px solid transparent;",
     "hinting-medium"),
    ("orders", "button-colour", ".ship { background: #2a6df4; }", ".ship { background: #3a7df4; }", "hinting-full"),
    ("notify", "icon-removed", "<i class=\"un\" id=\"u2\"></i>", "<i class=\"un\" id=\"u2\" style=\"visibility:hidden\"></i>", "lcd-text"),
    ("notify", "moved-2px", "<div class=\"av\" style=\"background:#f0a020\">", "<div class=\"av\" style=\"background:#f0a020;margin-top:2px\">",
     "swiftshader"),
    ("notify", "letter-spacing", "<span class=\"ttl\">Notifications</span>", "<span class=\"ttl\" style=\"letter-spacing:0.5px\">Notifications</span>",
     "display-p3"),
    ("review", "word", "Fix rounding in the tolerance check", "Fix rounding in the threshold check", "generic-rgb"),
    ("review", "text-colour", ".sub { display: flex; align-items: center; margin: 5px 0; color: #666; }",
     ".sub { display: flex; align-items: center; margin: 5px 0; color: #777; }", "jpeg-q90"),
    ("review", "border-removed", "margin: 6px 0 0; border: 1px solid #dfe2e6;", "margin: 6px 0 0; border: 1px solid #dfe2e6; border-top-color: transparent;",
     "jpeg-q95"),
    ("review", "moved-2px", "<span class=\"lbl l2\">", "<span class=\"lbl l2\" style=\"margin-left:2px\">", "other-machine"),
    ("stats", "word", "<div class=\"v\">1,284</div>", "<div class=\"v\">1,294</div>", "no-subpixel-pos"),
    ("stats", "button-colour", ".up { background: #1f9d55; }", ".up { background: #2fad65; }", "hinting-none"),
    ("stats", "icon-removed", "<i style=\"background:#7b4ee0\"></i>", "<i style=\"background:#7b4ee0;visibility:hidden\"></i>", "hinting-medium"),
    ("recipe", "text-colour", ".rt { display: flex; align-items: center; margin: 4px 0; font-size: 10px; color: #8a7a66; }",
     ".rt { display: flex; align-items: center; margin: 4px 0; font-size: 10px; color: #9a8a76; }", "hinting-full"),
    ("recipe", "border-removed", "border-bottom: 1px solid #e0dcd4; color: #3a2a1a; }", "border-bottom: 1px solid transparent; color: #3a2a1a; }",
     "lcd-text"),
    ("recipe", "moved-2px", "<li>3 cloves garlic</li>", "<li style=\"padding-left:2px\">3 cloves garlic</li>", "swiftshader"),
]

# A fourth blind set, written after the third was measured and a rule was changed on it: five more
# pages and seventeen more changes, committed before any mode was run on them.
BLIND4_PAGES = {
    "booking": """
<style>
.bk { margin: 8px 12px; border: 1px solid #d6dae1; border-radius: 8px; padding: 7px 10px; font-size: 11px; }
.hd { display: flex; align-items: center; padding-bottom: 5px; border-bottom: 1px solid #eef0f3; }
.ttl { font-size: 13px; font-weight: bold; }
.ref { margin-left: 8px; font: 10px "DejaVu Sans Mono"; color: #888; }
.conf { margin-left: auto; background: #1f9d55; color: #fff; font-size: 9px; border-radius: 8px; padding: 1px 7px; }
.rt { display: flex; align-items: center; margin: 7px 0 2px; }
.pt { text-align: center; width: 48px; }
.pt b { display: block; font-size: 16px; }
.pt span { font-size: 10px; color: #777; }
.line { flex: 1; position: relative; border-top: 1px dashed #9aa3b0; margin: 0 8px; }
.plane { position: absolute; left: 50%; top: -5px; width: 8px; height: 8px; margin-left: -4px; background: #2a6df4; transform: rotate(45deg); }
.dur { position: absolute; left: 0; right: 0; top: 6px; text-align: center; font-size: 9px; color: #888; }
.info { display: flex; color: #666; margin-top: 8px; font-size: 10px; }
.info div { flex: 1; }
.info b { display: block; color: #222; font-size: 11px; }
.hotel { display: flex; align-items: center; margin-top: 7px; padding: 5px 8px; background: #f7f8fa; border: 1px solid #e1e4e8; border-radius: 5px; }
.bed { width: 12px; height: 9px; border: 2px solid #7b4ee0; border-top-width: 4px; border-radius: 2px; margin-right: 7px; }
.nights { margin-left: auto; color: #777; font-size: 10px; }
.ft { display: flex; align-items: center; margin-top: 8px; }
.price { font-size: 15px; font-weight: bold; }
.price small { font-size: 10px; color: #777; font-weight: normal; }
.pay { margin-left: auto; background: #2a6df4; color: #fff; border-radius: 5px; padding: 4px 12px; font-weight: bold; }
</style>
<div class="bk"><div class="hd"><span class="ttl">Trip to Lisbon</span><span class="ref">QX7R2L</span><span class="conf">Confirmed</span></div>
<div class="rt"><div class="pt"><b>07:35</b><span>EDI</span></div><div class="line"><i class="plane"></i><span class="dur">2h 50m, direct</span></div><div class="pt"><b>10:25</b><span>LIS</span></div></div>
<div class="info"><div>Date<b>Thu 14 May</b></div><div>Flight<b>TP 1363</b></div><div>Seat<b>17C</b></div><div>Bags<b>1 x 23 kg</b></div></div>
<div class="hotel"><i class="bed"></i>Casa do Rio, double room<span class="nights">14-17 May, 3 nights</span></div>
<div class="ft"><div class="price">&euro;486.20<small> total, 1 adult</small></div><div class="pay">Pay now</div></div></div>
""",
    "contacts": """
<style>
.ct { margin: 8px 12px; font-size: 11px; }
.top { display: flex; margin-bottom: 5px; }
.sr { flex: 1; display: flex; align-items: center; border: 1px solid #ccd1d9; border-radius: 13px; height: 24px; padding: 0 9px; color: #999; }
.mag { width: 9px; height: 9px; border: 2px solid #888; border-radius: 6px; margin-right: 7px; }
.new { margin-left: 8px; background: #2a6df4; color: #fff; border-radius: 12px; padding: 0 11px; line-height: 24px; font-weight: bold; }
.grp { font-size: 9px; font-weight: bold; color: #888; padding: 3px 2px 2px; border-bottom: 1px solid #e1e4e8; }
.c { display: flex; align-items: center; padding: 4px 2px; border-bottom: 1px solid #f0f1f3; }
.av { width: 24px; height: 24px; border-radius: 12px; color: #fff; font-size: 9px; font-weight: bold; display: flex;
      align-items: center; justify-content: center; margin-right: 8px; flex: none; }
.nm { flex: 1; }
.nm b { display: block; font-size: 12px; font-weight: normal; color: #222; }
.nm span { font-size: 10px; color: #888; }
.ph { font: 10px "DejaVu Sans Mono"; color: #555; }
.fav { width: 7px; height: 7px; margin-left: 9px; background: #f0a020; transform: rotate(45deg); flex: none; }
.fav.off { background: transparent; }
</style>
<div class="ct"><div class="top"><div class="sr"><i class="mag"></i>Search 214 contacts</div><div class="new">+ New</div></div>
<div class="grp">A</div>
<div class="c"><div class="av" style="background:#7b4ee0">AB</div><div class="nm"><b>Amara Bello</b><span>Mobile</span></div><span class="ph">+44 7700 900142</span><i class="fav"></i></div>
<div class="c"><div class="av" style="background:#1f9d55">AK</div><div class="nm"><b>Arvid Karlsson</b><span>Work</span></div><span class="ph">+46 8 555 0193</span><i class="fav off"></i></div>
<div class="grp">B</div>
<div class="c"><div class="av" style="background:#e0457b">BC</div><div class="nm"><b>Bea Costa</b><span>Home</span></div><span class="ph">+351 21 555 0178</span><i class="fav"></i></div>
<div class="c"><div class="av" style="background:#f0a020">BN</div><div class="nm"><b>Bao Nguyen</b><span>Office</span></div><span class="ph">+1 415 555 0126</span><i class="fav off"></i></div>
</div>
""",
    "tasks": """
<style>
.tk { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: baseline; padding-bottom: 4px; border-bottom: 1px solid #d6dae1; }
.ttl { font-size: 14px; font-weight: bold; }
.cnt { margin-left: 6px; font-size: 10px; color: #888; }
.add { margin-left: auto; color: #2a6df4; }
.t { display: flex; align-items: center; padding: 6px 2px; border-bottom: 1px solid #eef0f3; }
.cb { width: 12px; height: 12px; border: 1px solid #9aa3b0; border-radius: 3px; margin-right: 8px; flex: none; position: relative; }
.cb.on { background: #22aa66; border-color: #22aa66; }
.cb.on::after { content: ""; position: absolute; left: 3px; top: 0; width: 3px; height: 7px; border: solid #fff; border-width: 0 2px 2px 0; transform: rotate(45deg); }
.tx { flex: 1; color: #333; }
.done .tx { color: #aaa; text-decoration: line-through; }
.tag { font-size: 9px; border-radius: 7px; padding: 0 5px; margin-right: 8px; color: #fff; background: #7b4ee0; }
.due { font-size: 10px; color: #777; margin-right: 8px; }
.due.late { color: #d93838; }
.fl { width: 2px; height: 11px; background: #666; position: relative; margin-right: 6px; flex: none; }
.fl::after { content: ""; position: absolute; left: 2px; top: 0; border-left: 7px solid currentColor; border-top: 3px solid transparent; border-bottom: 3px solid transparent; }
.hi { color: #d93838; } .md { color: #f0a020; } .lo { color: #9aa3b0; }
</style>
<div class="tk"><div class="hd"><span class="ttl">This week</span><span class="cnt">4 open, 1 done</span><span class="add">+ Add task</span></div>
<div class="t done"><i class="cb on"></i><span class="tx">Book the venue for the offsite</span><span class="due">2 Jun</span><i class="fl lo"></i></div>
<div class="t"><i class="cb"></i><span class="tx">Send the Q2 report to finance</span><span class="due late">Yesterday</span><i class="fl hi"></i></div>
<div class="t"><i class="cb"></i><span class="tx">Review the baseline update</span><span class="tag">review</span><span class="due">12 Jun</span><i class="fl md" id="f3"></i></div>
<div class="t"><i class="cb"></i><span class="tx">Renew the TLS certificate</span><span class="due">18 Jun</span><i class="fl hi"></i></div>
<div class="t"><i class="cb"></i><span class="tx">Order badges for new starters</span><span class="due">23 Jun</span><i class="fl lo"></i></div>
</div>
""",
    "billing": """
<style>
.bl { margin: 8px 12px; font-size: 11px; }
.plan { display: flex; align-items: center; border: 1px solid #d6dae1; border-radius: 7px; padding: 6px 9px; }
.pn { font-size: 13px; font-weight: bold; }
.pro { display: inline-block; margin-left: 5px; background: #7b4ee0; color: #fff; font-size: 9px; font-weight: normal; border-radius: 7px; padding: 0 6px; vertical-align: 1px; }
.pd { font-size: 10px; color: #777; margin-top: 2px; }
.chg { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 9px; background: #f7f8fa; }
.use { display: flex; margin: 7px 0 3px; font-size: 10px; color: #555; }
.use span { margin-left: auto; font-family: "DejaVu Sans Mono"; }
.ub { height: 6px; border-radius: 3px; background: #e6e8ec; }
.ub div { width: 72%; height: 6px; border-radius: 3px; background: #f0a020; }
.card { display: flex; align-items: center; margin: 7px 0 5px; color: #444; }
.vs { width: 22px; height: 14px; border-radius: 3px; background: #1a1f71; margin-right: 7px; position: relative; }
.vs::after { content: ""; position: absolute; left: 3px; bottom: 3px; width: 8px; height: 3px; background: #f7b600; }
.card a { margin-left: auto; color: #2a6df4; }
table { width: 100%; border-collapse: collapse; font-size: 10px; }
th { text-align: left; color: #888; font-weight: normal; border-bottom: 1px solid #d6dae1; padding: 2px 0; }
td { padding: 3px 0; border-bottom: 1px solid #eef0f3; }
.r { text-align: right; }
.m { font-family: "DejaVu Sans Mono"; }
.st { font-size: 9px; border-radius: 7px; padding: 0 5px; background: #e3f4e8; color: #1a7f37; }
.st.due { background: #fff4e0; color: #a05a00; }
</style>
<div class="bl"><div class="plan"><div><div class="pn">Team plan<span class="pro">Annual</span></div><div class="pd">8 seats &middot; renews 1 Sep 2026</div></div><div class="chg">Change plan</div></div>
<div class="use">Build minutes this month<span>7,212 / 10,000</span></div><div class="ub"><div></div></div>
<div class="card"><i class="vs"></i>Visa ending in 4417, expires 09/28<a href="#">Update</a></div>
<table><tr><th>Date</th><th>Description</th><th class="r">Amount</th><th class="r">Status</th></tr>
<tr><td>1 Oct 2025</td><td>Extra minutes</td><td class="r m">$18.00</td><td class="r"><span class="st due">Due</span></td></tr>
<tr><td>1 Sep 2025</td><td>Team plan, 8 seats</td><td class="r m">$576.00</td><td class="r"><span class="st">Paid</span></td></tr>
<tr><td>14 Jul 2025</td><td>Extra minutes</td><td class="r m">$24.00</td><td class="r"><span class="st">Paid</span></td></tr></table></div>
""",
    "editor": """
<style>
.ed { margin: 8px 12px; border: 1px solid #ccd1d9; border-radius: 6px; overflow: hidden; }
.tb { display: flex; align-items: center; gap: 3px; padding: 4px 6px; background: #f7f8fa; border-bottom: 1px solid #dfe2e6; }
.b { width: 22px; height: 20px; border-radius: 4px; display: flex; align-items: center; justify-content: center; font-size: 12px; color: #444; }
.b.on { background: #e3ebfc; color: #1d4fb8; }
.sep { width: 1px; height: 16px; background: #d0d4dc; margin: 0 3px; }
.lst { width: 11px; height: 2px; background: #555; box-shadow: 0 4px 0 #555, 0 -4px 0 #555; }
.chain { width: 11px; height: 6px; border: 2px solid #555; border-radius: 4px; transform: rotate(-45deg); }
.pic { width: 13px; height: 10px; border: 1px solid #555; border-radius: 2px; background: linear-gradient(135deg, transparent 55%, #22aa66 55%); }
.sty { margin-left: auto; font-size: 10px; border: 1px solid #ccd1d9; border-radius: 4px; padding: 1px 6px; background: #fff; color: #444; }
.txt { padding: 7px 10px; font-size: 12px; line-height: 1.5; color: #333; }
.txt h4 { margin: 0 0 3px; font-size: 13px; }
.txt a { color: #1d4fb8; }
.sb { display: flex; padding: 3px 10px; border-top: 1px solid #eef0f3; font-size: 9px; color: #999; }
.sb span { margin-left: auto; }
</style>
<div class="ed"><div class="tb"><div class="b on"><b>B</b></div><div class="b"><i>I</i></div><div class="b"><u>U</u></div><div class="sep"></div>
<div class="b"><i class="lst"></i></div><div class="b"><i class="chain"></i></div><div class="b"><i class="pic"></i></div><div class="sty">Paragraph &#9662;</div></div>
<div class="txt"><h4>Release checklist</h4>Freeze the branch on Monday, then run the full snapshot suite on both runners. Any diff
above the tolerance goes to <a href="#">the review board</a> before the tag is cut. Keep the notes short.</div>
<div class="sb">Saved at 16:02<span>142 words</span></div></div>
""",
}

BLIND4_CHANGES = [
    ("booking", "word", "<b>10:25</b>", "<b>10:28</b>", "hinting-full"),
    ("booking", "text-colour", ".pt span { font-size: 10px; color: #777; }", ".pt span { font-size: 10px; color: #888; }", "lcd-text"),
    ("booking", "border-removed", "background: #f7f8fa; border: 1px solid #e1e4e8;", "background: #f7f8fa; border: 1px solid transparent;",
     "swiftshader"),
    ("booking", "button-colour", ".pay { margin-left: auto; background: #2a6df4;", ".pay { margin-left: auto; background: #3a7df4;", "display-p3"),
    ("contacts", "word", "<span>Work</span>", "<span>Home</span>", "generic-rgb"),
    ("contacts", "icon-removed", "<i class=\"mag\"></i>", "<i class=\"mag\" style=\"visibility:hidden\"></i>", "jpeg-q90"),
    ("contacts", "moved-2px", "<b>Bea Costa</b>", "<b style=\"margin-left:2px\">Bea Costa</b>", "jpeg-q95"),
    ("tasks", "word", "<span class=\"due\">12 Jun</span>", "<span class=\"due\">13 Jun</span>", "other-machine"),
    ("tasks", "icon-removed", "<i class=\"fl md\" id=\"f3\"></i>", "<i class=\"fl md\" id=\"f3\" style=\"visibility:hidden\"></i>", "no-subpixel-pos"),
    ("tasks", "letter-spacing", "<span class=\"tx\">Renew the TLS certificate</span>",
     "<span class=\"tx\" style=\"letter-spacing:0.5px\">Renew the TLS certificate</span>", "hinting-none"),
    ("tasks", "text-colour", ".due { font-size: 10px; color: #777; margin-right: 8px; }", ".due { font-size: 10px; color: #888; margin-right: 8px; }",
     "hinting-medium"),
    ("billing", "button-colour", ".pro { display: inline-block; margin-left: 5px; background: #7b4ee0;",
     ".pro { display: inline-block; margin-left: 5px; background: #8b5ef0;", "hinting-full"),
    ("billing", "border-removed", ".chg { margin-left: auto; border: 1px solid #b9bfca;", ".chg { margin-left: auto; border: 1px solid transparent;",
     "lcd-text"),
    ("billing", "moved-2px", "<div class=\"card\">", "<div class=\"card\" style=\"padding-left:2px\">", "swiftshader"),
    ("editor", "word", "Keep the notes short.", "Keep the notes brief.", "display-p3"),
    ("editor", "icon-removed", "<i class=\"chain\"></i>", "<i class=\"chain\" style=\"visibility:hidden\"></i>", "generic-rgb"),
    ("editor", "border-removed", "background: #f7f8fa; border-bottom: 1px solid #dfe2e6; }", "background: #f7f8fa; border-bottom: 1px solid transparent; }",
     "jpeg-q90"),
]

# A fifth blind set, written after the fourth was measured and rules were changed on it: five more
# pages and seventeen more changes, committed before any mode was run on them.
BLIND5_PAGES = {
    "tracking": """
<style>
.tr { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: center; padding-bottom: 5px; border-bottom: 1px solid #d6dae1; }
.pk { width: 14px; height: 12px; border: 2px solid #a07840; border-radius: 2px; margin-right: 7px; flex: none; }
.ttl { font-size: 13px; font-weight: bold; }
.num { margin-left: 8px; font: 10px "DejaVu Sans Mono"; color: #888; }
.eta { margin-left: auto; background: #e3f4e8; color: #1a7f37; font-size: 10px; border-radius: 8px; padding: 1px 7px; }
.ev { display: flex; align-items: flex-start; height: 29px; }
.tm { width: 66px; flex: none; padding-top: 1px; text-align: right; font-size: 10px; color: #777; }
.mk { width: 22px; flex: none; align-self: stretch; position: relative; }
.mk::before { content: ""; position: absolute; left: 10px; top: 0; bottom: 0; border-left: 2px solid #dfe2e6; }
.ev:first-child .mk::before { top: 6px; }
.ev:last-child .mk::before { bottom: 20px; }
.mk i { position: absolute; left: 7px; top: 3px; width: 8px; height: 8px; border-radius: 5px; background: #22aa66; }
.mk i.now { background: #2a6df4; box-shadow: 0 0 0 3px #d6e4fd; }
.mk i.todo { background: #fff; border: 2px solid #c5cad3; }
.tx b { display: block; font-size: 12px; font-weight: normal; color: #222; }
.tx span { font-size: 10px; color: #888; }
.tl { margin-top: 7px; }
.ft { display: flex; align-items: center; margin-top: 2px; }
.ft a { color: #2a6df4; }
.upd { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 10px; background: #f7f8fa; }
</style>
<div class="tr"><div class="hd"><i class="pk"></i><span class="ttl">Parcel</span><span class="num">JD 0142 7763 9GB</span><span class="eta">Arrives today</span></div>
<div class="tl">
<div class="ev"><span class="tm">Today 08:14</span><span class="mk"><i class="now"></i></span><div class="tx"><b>Out for delivery</b><span>Leith delivery office</span></div></div>
<div class="ev"><span class="tm">Today 05:52</span><span class="mk"><i id="d2"></i></span><div class="tx"><b>Arrived at local depot</b><span>Edinburgh, Sighthill</span></div></div>
<div class="ev"><span class="tm">Mon 22:37</span><span class="mk"><i></i></span><div class="tx"><b>In transit</b><span>Newcastle sorting hub</span></div></div>
<div class="ev"><span class="tm">Mon 14:05</span><span class="mk"><i></i></span><div class="tx"><b>Dispatched</b><span>Sheffield warehouse</span></div></div>
<div class="ev"><span class="tm">Sun 19:48</span><span class="mk"><i></i></span><div class="tx"><b>Label created</b><span>Order #58321</span></div></div>
</div>
<div class="ft"><a href="#">View on map</a><span class="upd">Get updates</span></div></div>
""",
    "team": """
<style>
.tm { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: baseline; margin-bottom: 5px; }
.ttl { font-size: 14px; font-weight: bold; }
.cnt { margin-left: 6px; font-size: 10px; color: #888; }
.inv { margin-left: auto; background: #2a6df4; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-size: 10px; color: #888; font-weight: normal; border-bottom: 1px solid #d6dae1; padding: 3px 0; }
td { padding: 5px 0; border-bottom: 1px solid #eef0f3; vertical-align: middle; }
.who { display: flex; align-items: center; }
.av { width: 22px; height: 22px; border-radius: 11px; color: #fff; font-size: 9px; font-weight: bold; display: flex;
      align-items: center; justify-content: center; margin-right: 7px; flex: none; }
.nm b { display: block; font-weight: normal; color: #222; }
.nm span { font-size: 10px; color: #888; }
.role { font-size: 9px; border-radius: 7px; padding: 1px 6px; color: #fff; }
.own { background: #7b4ee0; } .adm { background: #2a6df4; } .dev { background: #1f9d55; } .vw { background: #8a94a3; }
.seen { font-size: 10px; color: #777; }
.on { color: #1a7f37; }
.on::before { content: ""; display: inline-block; width: 6px; height: 6px; border-radius: 3px; background: #22aa66; margin-right: 4px; vertical-align: 1px; }
</style>
<div class="tm"><div class="hd"><span class="ttl">Team members</span><span class="cnt">5 of 8 seats</span><span class="inv">Invite</span></div>
<table><tr><th>Name</th><th>Role</th><th>Last active</th></tr>
<tr><td><div class="who"><div class="av" style="background:#e0457b">NO</div><div class="nm"><b>Nadia Osei</b><span>nadia@harbor.dev</span></div></div></td><td><span class="role own">Owner</span></td><td class="seen on">Online</td></tr>
<tr><td><div class="who"><div class="av" style="background:#f0a020">TV</div><div class="nm"><b>Tomas Varga</b><span>tomas@harbor.dev</span></div></div></td><td><span class="role adm">Admin</span></td><td class="seen">12 minutes ago</td></tr>
<tr><td><div class="who"><div class="av" style="background:#1f9d55">LM</div><div class="nm"><b>Lea Moreau</b><span>lea@harbor.dev</span></div></div></td><td><span class="role dev">Developer</span></td><td class="seen">2 hours ago</td></tr>
<tr><td><div class="who"><div class="av" style="background:#3c8de0">RS</div><div class="nm"><b>Ravi Shah</b><span>ravi@harbor.dev</span></div></div></td><td><span class="role vw">Viewer</span></td><td class="seen">Last week</td></tr>
</table></div>
""",
    "quiz": """
<style>
.qz { margin: 8px 14px; font-size: 12px; }
.top { display: flex; align-items: center; font-size: 10px; color: #777; }
.top span { margin-left: auto; color: #d93838; }
.pb { height: 5px; border-radius: 3px; background: #e6e8ec; margin: 4px 0 8px; }
.pb div { width: 40%; height: 5px; border-radius: 3px; background: #7b4ee0; }
.q { font-size: 13px; font-weight: bold; line-height: 1.35; margin-bottom: 7px; }
.op { display: flex; align-items: center; border: 1px solid #d6dae1; border-radius: 6px; padding: 5px 8px; margin-bottom: 5px; }
.op.sel { border-color: #7b4ee0; background: #f5f1fe; }
.rd { width: 12px; height: 12px; border: 1px solid #9aa3b0; border-radius: 7px; margin-right: 8px; flex: none; background: #fff; }
.sel .rd { border: 4px solid #7b4ee0; }
.ft { display: flex; align-items: center; margin-top: 8px; font-size: 11px; }
.ft a { color: #2a6df4; }
.next { margin-left: auto; background: #7b4ee0; color: #fff; border-radius: 5px; padding: 4px 14px; font-weight: bold; }
</style>
<div class="qz"><div class="top">Question 4 of 10<span>1:40 left</span></div><div class="pb"><div></div></div>
<div class="q">Which PNG filter predicts each byte from the byte to its left?</div>
<div class="op"><i class="rd"></i>Up</div>
<div class="op sel"><i class="rd"></i>Sub</div>
<div class="op"><i class="rd"></i>Average</div>
<div class="op"><i class="rd"></i>Paeth</div>
<div class="ft"><a href="#">Skip question</a><span class="next">Next</span></div></div>
""",
    "banking": """
<style>
.bk { margin: 8px 12px; font-size: 11px; }
.acct { display: flex; align-items: center; border: 1px solid #d6dae1; border-radius: 7px; padding: 6px 9px; background: #f7f8fa; }
.an { font-size: 10px; color: #777; }
.bal { font-size: 19px; font-weight: bold; color: #222; }
.tr { margin-left: auto; background: #1f9d55; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
.hd { display: flex; font-size: 10px; color: #888; margin: 7px 0 0; padding-bottom: 3px; border-bottom: 1px solid #d6dae1; }
.hd a { margin-left: auto; color: #2a6df4; }
.t { display: flex; align-items: center; padding: 4px 0; border-bottom: 1px solid #eef0f3; }
.ci { width: 16px; height: 16px; border-radius: 4px; margin-right: 8px; flex: none; position: relative; }
.ci::after { content: ""; position: absolute; left: 5px; top: 5px; width: 6px; height: 6px; border-radius: 1px; background: #fff; }
.ds { flex: 1; }
.ds b { display: block; font-weight: normal; color: #222; }
.ds span { font-size: 10px; color: #888; }
.amt { font-family: "DejaVu Sans Mono"; font-size: 11px; }
.in { color: #1a7f37; } .out { color: #d93838; }
</style>
<div class="bk"><div class="acct"><div><div class="an">Current account &middot; 40-12-76 31905528</div><div class="bal">&pound;3,482.17</div></div><div class="tr">Transfer</div></div>
<div class="hd">Recent transactions<a href="#">See all</a></div>
<div class="t"><i class="ci" style="background:#f0a020"></i><div class="ds"><b>Harbor Labs Ltd</b><span>Salary &middot; 28 Apr</span></div><span class="amt in">+2,150.00</span></div>
<div class="t"><i class="ci" style="background:#e0457b"></i><div class="ds"><b>Greengrocer on Leith Walk</b><span>Groceries &middot; 27 Apr</span></div><span class="amt out">&minus;23.40</span></div>
<div class="t"><i class="ci" style="background:#3c8de0"></i><div class="ds"><b>ScotRail</b><span>Transport &middot; 26 Apr</span></div><span class="amt out">&minus;16.90</span></div>
<div class="t"><i class="ci" style="background:#7b4ee0"></i><div class="ds"><b>Northwind Energy</b><span>Bills &middot; 25 Apr</span></div><span class="amt out">&minus;74.25</span></div>
</div>
""",
    "forum": """
<style>
.fm { margin: 6px 12px; font-size: 11px; }
.th { font-size: 13px; font-weight: bold; }
.tg { display: inline-block; margin-left: 5px; font-size: 9px; font-weight: normal; border-radius: 7px; padding: 0 6px; background: #e7f0ff; color: #1d4fb8; vertical-align: 1px; }
.p { display: flex; padding: 6px 0; border-bottom: 1px solid #eef0f3; }
.vt { width: 26px; flex: none; text-align: center; color: #555; font-weight: bold; }
.up { display: block; width: 0; height: 0; margin: 0 auto 2px; border-left: 5px solid transparent; border-right: 5px solid transparent; border-bottom: 6px solid #9aa3b0; }
.up.on { border-bottom-color: #e8553f; }
.bd { flex: 1; }
.mt { display: flex; align-items: center; margin-bottom: 2px; }
.av { width: 16px; height: 16px; border-radius: 8px; margin-right: 5px; }
.un { color: #1d4fb8; font-weight: bold; }
.ts { margin-left: 6px; font-size: 10px; color: #999; }
.op { margin-left: 5px; font-size: 9px; border: 1px solid #9db7ea; color: #1d4fb8; border-radius: 3px; padding: 0 3px; }
.tx { color: #333; line-height: 1.4; }
.rp { display: flex; align-items: center; margin-top: 7px; }
.rp .ct { font-size: 10px; color: #888; }
.reply { margin-left: auto; background: #2a6df4; color: #fff; border-radius: 5px; padding: 3px 12px; font-weight: bold; }
</style>
<div class="fm"><div class="th">Snapshots fail only on the ARM runner<span class="tg">testing</span></div>
<div class="p"><div class="vt"><i class="up on"></i>14</div><div class="bd"><div class="mt"><i class="av" style="background:#f0a020"></i><span class="un">kmurata</span><span class="op">OP</span><span class="ts">3 days ago</span></div>
<div class="tx">Every text-heavy snapshot differs by a few levels on ARM, while the x86 runner passes. Fonts and Chromium are pinned.</div></div></div>
<div class="p"><div class="vt"><i class="up"></i>9</div><div class="bd"><div class="mt"><i class="av" style="background:#1f9d55"></i><span class="un">elena_v</span><span class="ts">2 days ago</span></div>
<div class="tx">Check the fontconfig hinting on both images. Ours differed, and setting it explicitly fixed it.</div></div></div>
<div class="rp"><span class="ct">2 replies &middot; 311 views</span><span class="reply">Reply</span></div></div>
""",
}

BLIND5_CHANGES = [
    ("tracking", "word", "<span class=\"tm\">Today 05:52</span>", "<span class=\"tm\">Today 05:58</span>", "display-p3"),
    ("tracking", "text-colour", ".tx span { font-size: 10px; color: #888; }", ".tx span { font-size: 10px; color: #999; }", "generic-rgb"),
    ("tracking", "icon-removed", "<i id=\"d2\"></i>", "<i id=\"d2\" style=\"visibility:hidden\"></i>", "jpeg-q90"),
    ("tracking", "border-removed", "padding-bottom: 5px; border-bottom: 1px solid #d6dae1; }", "padding-bottom: 5px; border-bottom: 1px solid transparent; }",
     "jpeg-q95"),
    ("team", "word", "<td class=\"seen\">2 hours ago</td>", "<td class=\"seen\">2 days ago</td>", "other-machine"),
    ("team", "button-colour", ".dev { background: #1f9d55; }", ".dev { background: #2fad65; }", "no-subpixel-pos"),
    ("team", "moved-2px", "<span class=\"role adm\">", "<span class=\"role adm\" style=\"margin-left:2px\">", "hinting-none"),
    ("quiz", "word", "Question 4 of 10", "Question 5 of 10", "hinting-medium"),
    ("quiz", "button-colour", ".next { margin-left: auto; background: #7b4ee0;", ".next { margin-left: auto; background: #8b5ef0;", "hinting-full"),
    ("quiz", "letter-spacing", "<div class=\"op\"><i class=\"rd\"></i>Average</div>",
     "<div class=\"op\" style=\"letter-spacing:0.5px\"><i class=\"rd\"></i>Average</div>", "lcd-text"),
    ("quiz", "border-removed", "<div class=\"op\"><i class=\"rd\"></i>Paeth</div>",
     "<div class=\"op\" style=\"border-color:transparent\"><i class=\"rd\"></i>Paeth</div>", "swiftshader"),
    ("banking", "word", "<span class=\"amt out\">&minus;16.90</span>", "<span class=\"amt out\">&minus;16.80</span>", "display-p3"),
    ("banking", "text-colour", ".in { color: #1a7f37; }", ".in { color: #2a8f47; }", "generic-rgb"),
    ("banking", "icon-removed", "<i class=\"ci\" style=\"background:#3c8de0\"></i>", "<i class=\"ci\" style=\"background:#3c8de0;visibility:hidden\"></i>",
     "jpeg-q90"),
    ("forum", "word", "hinting on both images.", "hinting on both runners.", "jpeg-q95"),
    ("forum", "text-colour", ".un { color: #1d4fb8; font-weight: bold; }", ".un { color: #2d5fc8; font-weight: bold; }", "other-machine"),
    ("forum", "moved-2px", "<span class=\"reply\">Reply</span>", "<span class=\"reply\" style=\"margin-right:2px\">Reply</span>", "no-subpixel-pos"),
]

# A sixth blind set, written after the fifth was measured and rules were changed on it (the
# isolated-change rule): five more pages and seventeen more changes, committed before any mode was
# run on them.
BLIND6_PAGES = {
    "pipeline": """
<style>
.pp { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: center; padding-bottom: 5px; border-bottom: 1px solid #d6dae1; }
.ttl { font-size: 13px; font-weight: bold; }
.br { margin-left: 7px; font: 10px "DejaVu Sans Mono"; color: #1d4fb8; background: #eef4ff; border-radius: 3px; padding: 1px 5px; }
.bad { margin-left: auto; background: #fdecec; color: #c62828; font-size: 10px; border-radius: 8px; padding: 1px 7px; }
.sub { margin: 5px 0 8px; font-size: 10px; color: #777; }
.stages { display: flex; align-items: flex-start; }
.stg { width: 104px; flex: none; }
.sn { font-size: 10px; font-weight: bold; color: #555; margin: 0 0 4px 2px; }
.job { display: flex; align-items: center; height: 20px; border: 1px solid #dfe2e6; border-radius: 10px; padding: 0 7px 0 3px;
       margin-bottom: 4px; font-size: 10px; color: #333; }
.st { width: 12px; height: 12px; border-radius: 6px; margin-right: 5px; flex: none; position: relative; }
.ok { background: #1f9d55; }
.ok::after { content: ""; position: absolute; left: 4px; top: 2px; width: 2px; height: 5px; border: solid #fff; border-width: 0 2px 2px 0; transform: rotate(45deg); }
.no { background: #d93838; }
.no::after { content: ""; position: absolute; left: 3px; top: 5px; width: 6px; height: 2px; background: #fff; }
.sk { border: 2px solid #c5cad3; background: #fff; }
.dur { margin-left: auto; font: 9px "DejaVu Sans Mono"; color: #888; }
.ln { width: 12px; flex: none; border-top: 1px solid #b9bfca; margin-top: 25px; }
.note { margin-top: 6px; padding: 4px 8px; border-left: 3px solid #d93838; background: #fdf4f4; font-size: 10px; color: #555; line-height: 1.45; }
.note b { color: #c62828; }
.ft { display: flex; align-items: center; margin-top: 8px; padding-top: 7px; border-top: 1px solid #eef0f3; }
.ft span { font-size: 10px; color: #666; }
.rr { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 9px; background: #f7f8fa; }
.logs { margin-left: 6px; background: #1d4fb8; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
</style>
<div class="pp"><div class="hd"><span class="ttl">Pipeline #2291</span><span class="br">main</span><span class="bad">Failed</span></div>
<div class="sub">fix: clamp gamma before blending &middot; 4f9c2e1 &middot; started by lea.m</div>
<div class="stages">
<div class="stg"><div class="sn">Build</div>
<div class="job"><i class="st ok"></i>x64<span class="dur">1:42</span></div>
<div class="job"><i class="st ok"></i>arm64<span class="dur">2:05</span></div></div>
<div class="ln"></div>
<div class="stg"><div class="sn">Test</div>
<div class="job"><i class="st ok"></i>unit<span class="dur">3:18</span></div>
<div class="job"><i class="st no"></i>visual<span class="dur">4:51</span></div>
<div class="job"><i class="st ok" id="s5"></i>lint<span class="dur">0:37</span></div></div>
<div class="ln"></div>
<div class="stg"><div class="sn">Deploy</div>
<div class="job" id="j6"><i class="st sk"></i>staging<span class="dur">&ndash;</span></div>
<div class="job"><i class="st sk"></i>prod<span class="dur">&ndash;</span></div></div>
</div>
<div class="note"><b>visual</b> failed: 3 snapshots differ from main<br>cart.png, login--dark.png, hero@2x.png</div>
<div class="ft"><span>1 of 7 jobs failed, 2 skipped</span><div class="rr">Retry</div><div class="logs">View logs</div></div></div>
""",
    "verify": """
<style>
.vf { width: 300px; margin: 10px auto 0; text-align: center; font-size: 11px; }
.lk { position: relative; width: 20px; height: 24px; margin: 0 auto 5px; }
.lk::before { content: ""; position: absolute; left: 4px; top: 0; width: 8px; height: 9px; border: 2px solid #7b4ee0; border-bottom: 0;
              border-radius: 6px 6px 0 0; }
.lk::after { content: ""; position: absolute; left: 1px; top: 10px; width: 18px; height: 13px; border-radius: 3px; background: #7b4ee0; }
.ttl { font-size: 14px; font-weight: bold; color: #222; }
.tx { margin: 4px 0 9px; color: #666; line-height: 1.4; }
.code { display: flex; justify-content: center; align-items: center; gap: 5px; }
.d { width: 28px; height: 34px; border: 1px solid #ccd1d9; border-radius: 5px; font: bold 17px "DejaVu Sans Mono"; line-height: 32px;
     color: #222; background: #fff; }
.d.cur { border: 2px solid #7b4ee0; position: relative; }
.d.cur::after { content: ""; position: absolute; left: 11px; top: 7px; width: 1px; height: 16px; background: #7b4ee0; }
.dash { width: 8px; height: 2px; background: #9aa3b0; }
.rs { margin: 8px 0; font-size: 10px; color: #888; }
.rs b { color: #333; font-family: "DejaVu Sans Mono"; font-weight: normal; }
.go { width: 200px; margin: 0 auto; background: #7b4ee0; color: #fff; border-radius: 5px; padding: 5px; font-weight: bold; font-size: 12px; }
.alt { margin-top: 7px; font-size: 10px; color: #2a6df4; }
</style>
<div class="vf"><div class="lk"></div><div class="ttl">Two-step verification</div>
<div class="tx">Enter the 6-digit code we sent to +44 7700 &bull;&bull;&bull;&bull;42.<br>The code expires in 10 minutes.</div>
<div class="code"><div class="d">4</div><div class="d">8</div><div class="d">1</div><i class="dash"></i><div class="d">9</div><div class="d cur"></div><div class="d"></div></div>
<div class="rs">Didn&rsquo;t get it? Resend in <b>0:42</b></div>
<div class="go">Verify</div>
<div class="alt">Use a recovery code instead</div></div>
""",
    "logs": """
<style>
.lg { margin: 8px 12px; font-size: 11px; }
.tb { display: flex; align-items: center; margin-bottom: 6px; }
.ch { font-size: 10px; border: 1px solid #d6dae1; border-radius: 9px; padding: 1px 8px; margin-right: 4px; color: #555; }
.ch.on { background: #333a45; border-color: #333a45; color: #fff; }
.ch b { font-weight: normal; color: #999; margin-left: 4px; }
.live { margin-left: auto; display: flex; align-items: center; font-size: 10px; color: #1a7f37; }
.live i { width: 7px; height: 7px; border-radius: 4px; background: #22aa66; box-shadow: 0 0 0 2px #c8ecd6; margin-right: 5px; }
.ps { margin-left: 8px; border: 1px solid #b9bfca; border-radius: 4px; padding: 1px 7px; font-size: 10px; background: #f7f8fa; color: #333; }
.box { border: 1px solid #d6dae1; border-radius: 6px; background: #fafbfc; padding: 3px 0; }
.l { display: flex; font: 10px "DejaVu Sans Mono"; line-height: 17px; padding: 0 8px; white-space: nowrap; }
.l.er { background: #fdecec; }
.ts { width: 82px; flex: none; color: #888; }
.lv { width: 40px; flex: none; font-weight: bold; }
.i { color: #2a6df4; } .w { color: #b86e00; } .e { color: #d93838; }
.m { color: #333; overflow: hidden; }
.ft { display: flex; align-items: center; margin-top: 6px; font-size: 10px; color: #777; }
.dl { margin-left: auto; background: #2a6df4; color: #fff; border-radius: 5px; padding: 3px 10px; font-size: 11px; font-weight: bold; }
</style>
<div class="lg"><div class="tb"><span class="ch on">All</span><span class="ch">Info</span><span class="ch">Warn<b>2</b></span><span class="ch">Error<b>1</b></span>
<span class="live"><i></i>Live</span><span class="ps">Pause</span></div>
<div class="box">
<div class="l"><span class="ts">14:02:07.118</span><span class="lv i">INFO</span><span class="m">worker-3 started, 8 threads</span></div>
<div class="l"><span class="ts">14:02:07.342</span><span class="lv i">INFO</span><span class="m">loaded 1,204 baselines</span></div>
<div class="l"><span class="ts">14:02:08.905</span><span class="lv w">WARN</span><span class="m">slow decode: hero@2x.png 412 ms</span></div>
<div class="l"><span class="ts">14:02:09.011</span><span class="lv i">INFO</span><span class="m">login--dark.png matches</span></div>
<div class="l er"><span class="ts">14:02:09.260</span><span class="lv e">ERROR</span><span class="m">cart.png differs by 3.8%</span></div>
<div class="l"><span class="ts">14:02:09.263</span><span class="lv i">INFO</span><span class="m">wrote cart.diff.png</span></div>
<div class="l"><span class="ts">14:02:10.774</span><span class="lv w">WARN</span><span class="m">upload retry 1 of 3</span></div>
<div class="l"><span class="ts">14:02:11.020</span><span class="lv i">INFO</span><span class="m">run finished, 1 failed</span></div>
</div>
<div class="ft">Showing 8 of 2,317 lines<span class="dl">Download</span></div></div>
""",
    "shortcuts": """
<style>
.sc { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: center; padding-bottom: 5px; border-bottom: 1px solid #d6dae1; }
.ttl { font-size: 13px; font-weight: bold; }
.x { margin-left: auto; position: relative; width: 12px; height: 12px; }
.x::before, .x::after { content: ""; position: absolute; left: 5px; top: -1px; width: 2px; height: 14px; background: #888; transform: rotate(45deg); }
.x::after { transform: rotate(-45deg); }
.cols { display: flex; gap: 16px; }
.col { flex: 1; }
.sec { font-size: 9px; font-weight: bold; color: #7b4ee0; text-transform: uppercase; margin: 7px 0 2px; }
.r { display: flex; align-items: center; height: 21px; border-bottom: 1px solid #f0f1f3; color: #333; }
.r span { flex: 1; }
kbd { display: inline-block; min-width: 17px; text-align: center; font: 10px "DejaVu Sans Mono"; line-height: 14px; color: #333;
      background: #f7f8fa; border: 1px solid #c5cad3; border-bottom-width: 2px; border-radius: 3px; padding: 0 3px; margin-left: 3px; }
.r i { font-style: normal; font-size: 9px; color: #999; margin-left: 3px; }
.ft { display: flex; align-items: center; margin-top: 8px; font-size: 10px; color: #777; }
.ft kbd { margin: 0 2px; }
.cu { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 10px; background: #fff; color: #333; font-size: 11px; }
</style>
<div class="sc"><div class="hd"><span class="ttl">Keyboard shortcuts</span><i class="x"></i></div>
<div class="cols"><div class="col"><div class="sec">Navigation</div>
<div class="r"><span>Go to inbox</span><kbd>G</kbd><i>then</i><kbd>I</kbd></div>
<div class="r"><span>Search</span><kbd>/</kbd></div>
<div class="r"><span>Next item</span><kbd>J</kbd></div>
<div class="r"><span>Previous item</span><kbd>K</kbd></div>
<div class="r"><span>Open</span><kbd>Enter</kbd></div></div>
<div class="col"><div class="sec">Editing</div>
<div class="r"><span>Save</span><kbd>Ctrl</kbd><i>+</i><kbd>S</kbd></div>
<div class="r"><span>Undo</span><kbd>Ctrl</kbd><i>+</i><kbd>Z</kbd></div>
<div class="r"><span>Bold</span><kbd>Ctrl</kbd><i>+</i><kbd>B</kbd></div>
<div class="r"><span>Duplicate</span><kbd>Ctrl</kbd><i>+</i><kbd>D</kbd></div>
<div class="r"><span>Select all</span><kbd>Ctrl</kbd><i>+</i><kbd>A</kbd></div></div></div>
<div class="ft"><span>Press <kbd>?</kbd> anywhere to show this list</span><span class="cu">Customize</span></div></div>
""",
    "cart": """
<style>
.ct { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: baseline; padding-bottom: 4px; border-bottom: 1px solid #d6dae1; }
.ttl { font-size: 14px; font-weight: bold; }
.cnt { margin-left: 6px; font-size: 10px; color: #888; }
.cl { margin-left: auto; font-size: 10px; color: #2a6df4; }
.it { display: flex; align-items: center; padding: 5px 0; border-bottom: 1px solid #eef0f3; }
.th { width: 28px; height: 28px; border-radius: 5px; margin-right: 8px; flex: none; position: relative; background: #f1f2f4; }
.th::before, .th::after { content: ""; position: absolute; }
.mug::after { left: 7px; top: 8px; width: 11px; height: 13px; border-radius: 0 0 3px 3px; background: #4a6b8a; }
.mug::before { left: 16px; top: 11px; width: 4px; height: 5px; border: 2px solid #4a6b8a; border-radius: 0 4px 4px 0; }
.nb::after { left: 8px; top: 5px; width: 10px; height: 17px; border-radius: 1px 2px 2px 1px; background: #c9a36a; border-left: 2px solid #8a6a3a; }
.pl::before { left: 8px; top: 4px; width: 12px; height: 10px; border-radius: 50%; background: #3e9b5a; }
.pl::after { left: 9px; top: 14px; width: 10px; height: 9px; border-radius: 0 0 3px 3px; background: #c0643a; }
.nm { flex: 1; }
.nm b { display: block; font-size: 12px; font-weight: normal; color: #222; }
.nm span { font-size: 10px; color: #777; }
.q { display: flex; border: 1px solid #ccd1d9; border-radius: 4px; margin-right: 10px; line-height: 18px; font-size: 11px; }
.q span { width: 16px; text-align: center; color: #666; }
.q b { width: 20px; text-align: center; font-weight: normal; border-left: 1px solid #ccd1d9; border-right: 1px solid #ccd1d9; }
.pr { width: 50px; text-align: right; font: 11px "DejaVu Sans Mono"; }
.ship { margin-top: 6px; font-size: 10px; color: #1a7f37; }
.sum { display: flex; align-items: center; margin-top: 7px; }
.sl { font-size: 10px; color: #777; }
.tot { font-size: 15px; font-weight: bold; color: #222; }
.co { margin-left: auto; background: #e07b39; color: #fff; border-radius: 5px; padding: 5px 14px; font-weight: bold; font-size: 12px; }
</style>
<div class="ct"><div class="hd"><span class="ttl">Your cart</span><span class="cnt">4 items</span><span class="cl">Continue shopping</span></div>
<div class="it"><i class="th mug"></i><div class="nm"><b>Stoneware mug, 350 ml</b><span>Colour: slate blue</span></div><div class="q"><span>&minus;</span><b>2</b><span>+</span></div><span class="pr">$24.00</span></div>
<div class="it"><i class="th nb"></i><div class="nm"><b>Linen notebook, A5</b><span>Dot grid, 120 pages</span></div><div class="q"><span>&minus;</span><b>1</b><span>+</span></div><span class="pr">$12.50</span></div>
<div class="it"><i class="th pl"></i><div class="nm"><b>Desk plant, small</b><span>Pot: terracotta</span></div><div class="q"><span>&minus;</span><b>1</b><span>+</span></div><span class="pr">$18.90</span></div>
<div class="ship">&#10003; Your order ships free (over $50)</div>
<div class="sum"><div><div class="sl">Subtotal</div><div class="tot">$55.40</div></div><div class="co">Checkout</div></div></div>
""",
}

BLIND6_CHANGES = [
    ("pipeline", "word", "<span class=\"dur\">4:51</span>", "<span class=\"dur\">4:57</span>", "hinting-none"),
    ("pipeline", "icon-removed", "<i class=\"st ok\" id=\"s5\"></i>", "<i class=\"st ok\" id=\"s5\" style=\"visibility:hidden\"></i>", "hinting-medium"),
    ("pipeline", "border-removed", "<div class=\"job\" id=\"j6\">", "<div class=\"job\" id=\"j6\" style=\"border-color:transparent\">", "hinting-full"),
    ("pipeline", "button-colour", ".logs { margin-left: 6px; background: #1d4fb8;", ".logs { margin-left: 6px; background: #2d5fc8;", "lcd-text"),
    ("verify", "word", "<div class=\"d\">8</div>", "<div class=\"d\">6</div>", "swiftshader"),
    ("verify", "text-colour", ".tx { margin: 4px 0 9px; color: #666;", ".tx { margin: 4px 0 9px; color: #777;", "display-p3"),
    ("verify", "letter-spacing", "<div class=\"alt\">", "<div class=\"alt\" style=\"letter-spacing:0.5px\">", "generic-rgb"),
    ("logs", "word", "loaded 1,204 baselines", "loaded 1,206 baselines", "jpeg-q90"),
    ("logs", "text-colour", ".w { color: #b86e00; }", ".w { color: #c87e10; }", "jpeg-q95"),
    ("logs", "icon-removed", "<span class=\"live\"><i></i>", "<span class=\"live\"><i style=\"visibility:hidden\"></i>", "other-machine"),
    ("shortcuts", "word", "<span>Go to inbox</span>", "<span>Go to issues</span>", "no-subpixel-pos"),
    ("shortcuts", "border-removed", ".cu { margin-left: auto; border: 1px solid #b9bfca;", ".cu { margin-left: auto; border: 1px solid transparent;",
     "hinting-none"),
    ("shortcuts", "moved-2px", "<kbd>/</kbd>", "<kbd style=\"margin-right:2px\">/</kbd>", "hinting-medium"),
    ("cart", "word", "<span class=\"pr\">$18.90</span>", "<span class=\"pr\">$18.95</span>", "hinting-full"),
    ("cart", "button-colour", ".co { margin-left: auto; background: #e07b39;", ".co { margin-left: auto; background: #f08b49;", "lcd-text"),
    ("cart", "moved-2px", "<div class=\"ship\">", "<div class=\"ship\" style=\"margin-left:2px\">", "swiftshader"),
    ("cart", "text-colour", ".nm span { font-size: 10px; color: #777; }", ".nm span { font-size: 10px; color: #888; }", "display-p3"),
]

# A seventh blind set, written after the sixth was measured and rules were changed on it (LCD text on
# coloured text and grounds): five more pages and seventeen more changes, committed before any mode
# was run on them.
BLIND7_PAGES = {
    "upload": """
<style>
.up { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: center; margin-bottom: 6px; }
.ttl { font-size: 13px; font-weight: bold; color: #222; }
.x { margin-left: auto; font-size: 15px; line-height: 12px; color: #888; }
.dz { border: 1px dashed #9db7ea; border-radius: 7px; background: #f5f8ff; padding: 6px 0; text-align: center; }
.ar { display: block; position: relative; width: 16px; height: 13px; margin: 0 auto 2px; }
.ar::before { content: ""; position: absolute; left: 7px; top: 2px; width: 2px; height: 11px; background: #2a6df4; }
.ar::after { content: ""; position: absolute; left: 4px; top: 2px; width: 6px; height: 6px; border: solid #2a6df4; border-width: 2px 0 0 2px;
             transform: rotate(45deg); }
.dz b { font-weight: normal; color: #333; }
.dz a { color: #2a6df4; }
.hint { font-size: 10px; color: #888; margin-top: 1px; }
.f { display: flex; align-items: center; padding: 5px 0; border-bottom: 1px solid #e6e8ec; }
.ty { width: 26px; height: 16px; border-radius: 3px; color: #fff; font-size: 8px; font-weight: bold; font-style: normal; line-height: 16px;
      text-align: center; margin-right: 8px; flex: none; }
.png { background: #7b4ee0; } .pdf { background: #d93838; } .jpg { background: #e07b39; }
.nm { flex: 1; }
.nm b { display: block; font-weight: normal; color: #222; }
.nm span { font-size: 10px; color: #888; }
.nm .err { color: #c62828; }
.pg { height: 4px; border-radius: 2px; background: #e6e8ec; margin-top: 4px; }
.pg div { width: 64%; height: 4px; border-radius: 2px; background: #2a6df4; }
.ok { width: 14px; height: 14px; border-radius: 7px; background: #1f9d55; position: relative; flex: none; margin-left: 10px; }
.ok::after { content: ""; position: absolute; left: 5px; top: 2px; width: 2px; height: 6px; border: solid #fff; border-width: 0 2px 2px 0;
             transform: rotate(45deg); }
.pc { width: 34px; flex: none; text-align: right; font: 10px "DejaVu Sans Mono"; color: #555; }
.rt { margin-left: 10px; font-size: 10px; color: #2a6df4; }
.ft { display: flex; align-items: center; margin-top: 8px; }
.rd { font-size: 10px; color: #777; }
.cn { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 10px; background: #fff; color: #333; }
.go { margin-left: 6px; background: #0f7b8a; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
</style>
<div class="up"><div class="hd"><span class="ttl">Upload files</span><span class="x">&times;</span></div>
<div class="dz"><i class="ar"></i><b>Drag files here or <a href="#">browse</a></b><div class="hint">PNG, JPG or PDF, up to 25 MB each</div></div>
<div class="f"><i class="ty png">PNG</i><div class="nm"><b>checkout--dark@2x.png</b><span>1.8 MB &middot; uploaded</span></div><i class="ok" id="k1"></i></div>
<div class="f" id="f2"><i class="ty pdf">PDF</i><div class="nm"><b>style-guide-v3.pdf</b><div class="pg"><div></div></div></div><span class="pc">64%</span></div>
<div class="f"><i class="ty jpg">JPG</i><div class="nm"><b>hero-banner.jpg</b><span class="err">Upload failed: connection lost</span></div><span class="rt">Retry</span></div>
<div class="ft"><span class="rd">2 of 3 files ready</span><span class="cn">Cancel</span><span class="go">Upload 3 files</span></div></div>
""",
    "places": """
<style>
.pl { display: flex; height: 240px; font-size: 11px; }
.sb { width: 212px; flex: none; border-right: 1px solid #c5cad3; padding: 8px 10px; }
.q { display: flex; align-items: center; border: 1px solid #ccd1d9; border-radius: 13px; height: 24px; padding: 0 9px; color: #333; }
.mg { width: 9px; height: 9px; border: 2px solid #777; border-radius: 6px; margin-right: 6px; flex: none; }
.chips { margin: 6px 0 3px; white-space: nowrap; }
.chip { display: inline-block; font-size: 9px; border: 1px solid #d6dae1; border-radius: 9px; padding: 1px 7px; margin-right: 2px; color: #555; }
.chip.on { background: #2b3340; border-color: #2b3340; color: #fff; }
.p { padding: 5px 0; border-bottom: 1px solid #eef0f3; line-height: 1.35; }
.p b { display: block; font-size: 12px; color: #222; }
.km { float: right; font-size: 10px; color: #888; }
.rt { color: #9a5b00; font-weight: bold; }
.rt i { font-style: normal; font-weight: normal; color: #f0a020; }
.cnt, .ty { font-size: 10px; color: #888; }
.op { font-size: 10px; color: #1a7f37; }
.cl { font-size: 10px; color: #c25400; }
.map { flex: 1; position: relative; background: #e8efe4; overflow: hidden; }
.map i { position: absolute; }
.rd { background: #fff; }
.mw { background: #fbe3a6; }
.wt { background: #b9d3ee; }
.pk { background: #c8e2b9; border-radius: 5px; }
.map span { position: absolute; font-size: 9px; font-style: italic; color: #6b7686; }
.pin { width: 16px; height: 16px; border-radius: 50% 50% 50% 0; transform: rotate(-45deg); background: #d93838; }
.pin::after { content: ""; position: absolute; left: 5px; top: 5px; width: 6px; height: 6px; border-radius: 3px; background: #fff; }
.zm { position: absolute; right: 8px; bottom: 10px; width: 22px; background: #fff; border: 1px solid #c5cad3; border-radius: 4px;
      text-align: center; font-size: 13px; line-height: 20px; color: #444; }
.zm div + div { border-top: 1px solid #c5cad3; }
</style>
<div class="pl"><div class="sb"><div class="q"><i class="mg"></i>coffee near Stockbridge</div>
<div class="chips"><span class="chip on">Caf&eacute;s</span><span class="chip">Open now</span><span class="chip">Top rated</span></div>
<div class="p"><span class="km">0.3 km</span><b>Fortitude Coffee</b><span class="rt">4.7 <i>&#9733;</i></span> <span class="cnt">(318)</span> <span class="ty">&middot; Caf&eacute; &middot; &pound;&pound;</span><div class="op">Open until 18:00</div></div>
<div class="p"><span class="km">0.6 km</span><b>The Pantry</b><span class="rt">4.5 <i>&#9733;</i></span> <span class="cnt">(1,042)</span> <span class="ty">&middot; Brunch &middot; &pound;&pound;</span><div class="cl">Closes soon &middot; 15:30</div></div>
<div class="p"><span class="km">0.9 km</span><b>Lowdown Coffee</b><span class="rt">4.8 <i>&#9733;</i></span> <span class="cnt">(576)</span> <span class="ty">&middot; Caf&eacute; &middot; &pound;</span><div class="op">Open until 17:00</div></div>
<div class="p"><span class="km">1.2 km</span><b>Artisan Roast</b><span class="rt">4.4 <i>&#9733;</i></span> <span class="cnt">(890)</span> <span class="ty">&middot; Caf&eacute; &middot; &pound;</span><div class="op">Open until 20:00</div></div>
</div>
<div class="map"><i class="pk" style="left:84px;top:14px;width:40px;height:46px"></i><i class="wt" style="left:-10px;top:176px;width:170px;height:80px;border-radius:0 60px 0 0"></i>
<i class="rd" style="left:0;right:0;top:70px;height:5px"></i><i class="rd" style="left:70px;top:0;bottom:0;width:4px"></i>
<i class="mw" style="left:-20px;top:132px;width:200px;height:6px;transform:rotate(-18deg)"></i><i class="rd" style="left:20px;top:0;height:70px;width:3px"></i>
<span style="left:88px;top:62px">Inverleith</span><span style="left:10px;top:196px">Water of Leith</span>
<i class="pin" style="left:36px;top:88px"></i>
<div class="zm"><div>+</div><div>&minus;</div></div></div></div>
""",
    "appearance": """
<style>
.ap { display: flex; height: 240px; font-size: 11px; }
.nav { width: 96px; flex: none; background: #1f2430; padding: 10px 0; }
.brand { display: flex; align-items: center; color: #fff; font-weight: bold; font-size: 12px; padding: 0 10px 8px; }
.brand i { width: 12px; height: 12px; border-radius: 3px; background: #4c8dff; margin-right: 6px; flex: none; }
.ni { color: #aab1bd; padding: 4px 12px; }
.ni.on { color: #fff; background: #2e3544; box-shadow: inset 3px 0 #4c8dff; }
.ni b { float: right; font-size: 9px; font-weight: normal; background: #e8553f; color: #fff; border-radius: 7px; padding: 0 5px; margin-top: 1px; }
.main { flex: 1; padding: 8px 14px; }
.ttl { font-size: 14px; font-weight: bold; color: #222; }
.sub { font-size: 10px; color: #777; margin: 1px 0 6px; }
.lb { font-size: 10px; font-weight: bold; color: #555; margin-bottom: 4px; }
.th { display: flex; gap: 7px; margin-bottom: 7px; }
.tc { width: 68px; border: 1px solid #d6dae1; border-radius: 6px; padding: 4px; font-size: 10px; color: #333; text-align: center; }
.tc.on { border: 2px solid #2a6df4; padding: 3px; color: #1d4fb8; font-weight: bold; }
.pv { height: 26px; border-radius: 3px; margin-bottom: 2px; position: relative; }
.pv.lt { background: #f3f5f8; } .pv.dk { background: #262b36; } .pv.sy { background: linear-gradient(90deg, #f3f5f8 50%, #262b36 50%); }
.pv i { position: absolute; left: 5px; top: 6px; width: 24px; height: 4px; border-radius: 2px; }
.pv i + i { top: 14px; width: 40px; }
.lt i { background: #c5cad3; } .dk i { background: #4a5263; } .sy i { background: #8a94a3; }
.sw { display: flex; gap: 9px; margin: 0 0 7px 3px; }
.c { width: 16px; height: 16px; border-radius: 8px; position: relative; }
.c.on { box-shadow: 0 0 0 2px #fff, 0 0 0 3px #2a6df4; }
.c.on::after { content: ""; position: absolute; left: 6px; top: 3px; width: 2px; height: 6px; border: solid #fff; border-width: 0 2px 2px 0;
               transform: rotate(45deg); }
.row { display: flex; align-items: center; padding: 4px 0; border-top: 1px solid #eef0f3; }
.row div { flex: 1; }
.row b { display: block; font-weight: normal; color: #222; }
.row span { font-size: 10px; color: #888; }
.tg { width: 28px; height: 16px; border-radius: 8px; background: #ccd0d6; position: relative; flex: none; }
.tg.on { background: #2a6df4; }
.tg::after { content: ""; position: absolute; top: 2px; left: 2px; width: 12px; height: 12px; border-radius: 6px; background: #fff; }
.tg.on::after { left: 14px; }
</style>
<div class="ap"><div class="nav"><div class="brand"><i></i>Harbor</div>
<div class="ni">Profile</div><div class="ni">Account</div><div class="ni on">Appearance</div><div class="ni">Alerts<b>3</b></div><div class="ni">Billing</div><div class="ni">Security</div></div>
<div class="main"><div class="ttl">Appearance</div><div class="sub">How the dashboard looks on this device.</div>
<div class="lb">Theme</div>
<div class="th"><div class="tc on"><div class="pv lt"><i></i><i></i></div>Light</div><div class="tc"><div class="pv dk"><i></i><i></i></div>Dark</div><div class="tc" id="t3"><div class="pv sy"><i></i><i></i></div>System</div></div>
<div class="lb">Accent colour</div>
<div class="sw"><i class="c on" style="background:#2a6df4"></i><i class="c" style="background:#7b4ee0"></i><i class="c" style="background:#1f9d55"></i><i class="c" style="background:#e07b39"></i><i class="c" style="background:#d93838"></i><i class="c" style="background:#e0457b"></i></div>
<div class="row"><div><b>Compact sidebar</b><span>Show icons only below 1280 px</span></div><i class="tg on"></i></div>
<div class="row"><div><b>Reduce motion</b><span>Turn off animated transitions</span></div><i class="tg"></i></div>
</div></div>
""",
    "release": """
<style>
.rl { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: baseline; padding-bottom: 4px; border-bottom: 1px solid #d6dae1; }
.v { font-size: 15px; font-weight: bold; color: #222; }
.lt { margin-left: 6px; font-size: 9px; border: 1px solid #1f9d55; color: #1a7f37; border-radius: 8px; padding: 0 6px; }
.dt { margin-left: auto; font-size: 10px; color: #888; }
.sec { display: flex; align-items: flex-start; margin-top: 6px; }
.tag { width: 52px; flex: none; font-size: 9px; font-weight: bold; color: #fff; border-radius: 3px; text-align: center; padding: 1px 0; margin-top: 1px; }
.add { background: #1f9d55; } .fix { background: #2a6df4; } .brk { background: #d93838; }
ul { margin: 0 0 0 6px; padding: 0 0 0 13px; color: #333; line-height: 1.45; }
code { font: 10px "DejaVu Sans Mono"; background: #f1f2f4; border-radius: 3px; padding: 0 3px; color: #b42a6a; }
.gh { color: #888; font-size: 10px; }
.ft { display: flex; align-items: center; margin-top: 8px; padding-top: 6px; border-top: 1px solid #eef0f3; font-size: 10px; color: #777; }
.avs { display: flex; margin: 0 5px 0 10px; }
.av { width: 16px; height: 16px; border-radius: 8px; margin-left: -4px; border: 2px solid #fff; }
.ft a { margin-left: auto; color: #2a6df4; }
</style>
<div class="rl"><div class="hd"><span class="v">v2.14.0</span><span class="lt">Latest</span><span class="dt">Released 12 May 2026</span></div>
<div class="sec"><span class="tag add">Added</span><ul><li><code>--max-shift</code> for moved elements <span class="gh">#812</span></li><li>Side-by-side view in the HTML report</li></ul></div>
<div class="sec"><span class="tag fix">Fixed</span><ul><li>Crash on 16-bit PNGs with an sRGB chunk <span class="gh">#798</span></li><li>Wrong colours in the report on Safari</li><li>Slow startup with many baselines</li></ul></div>
<div class="sec"><span class="tag brk">Breaking</span><ul><li><code>--fuzz</code> now takes a percentage, not levels</li></ul></div>
<div class="ft">Contributors<span class="avs"><i class="av" style="background:#e0457b"></i><i class="av" style="background:#f0a020"></i><i class="av" style="background:#3c8de0"></i></span>+4 more<a href="#">Compare v2.13.3...v2.14.0</a></div></div>
""",
    "ticket": """
<style>
.top { display: flex; align-items: center; height: 30px; background: #24292f; padding: 0 12px; font-size: 11px; }
.lg { color: #fff; font-weight: bold; font-size: 12px; }
.tn { margin-left: 14px; color: #9da5b0; }
.tn.on { color: #fff; }
.sr { margin-left: auto; width: 96px; height: 18px; border-radius: 4px; background: #3a4049; font-size: 10px; color: #9da5b0; padding: 2px 7px; }
.tk { margin: 7px 12px; font-size: 11px; }
.tt { font-size: 13px; font-weight: bold; color: #222; }
.tt span { font-weight: normal; color: #888; }
.meta { display: flex; align-items: center; margin: 4px 0 7px; font-size: 10px; color: #777; }
.st { border-radius: 8px; padding: 0 7px; margin-right: 5px; }
.open { background: #fff1d6; color: #9a5b00; }
.hi { background: #fdecec; color: #c62828; }
.as { margin-left: auto; display: flex; align-items: center; color: #333; }
.as i { width: 16px; height: 16px; border-radius: 8px; background: #7b4ee0; margin-right: 4px; }
.msg { border: 1px solid #dfe2e6; border-radius: 6px; }
.mh { display: flex; font-size: 10px; color: #777; background: #f6f8fa; padding: 3px 8px; border-bottom: 1px solid #dfe2e6; border-radius: 6px 6px 0 0; }
.mh b { color: #2a6df4; margin-right: 5px; }
.mh span { margin-left: auto; }
.mb { padding: 5px 8px; color: #333; line-height: 1.4; }
.nt { margin-top: 6px; background: #fff8db; border: 1px solid #f0d98a; border-radius: 6px; padding: 4px 8px; font-size: 10px; color: #6b5300; }
.ft { display: flex; align-items: center; margin-top: 7px; }
.ft a { color: #2a6df4; font-size: 10px; }
.cl { margin-left: auto; border: 1px solid #b9bfca; border-radius: 5px; padding: 3px 9px; background: #f6f8fa; color: #333; }
.sd { margin-left: 6px; background: #1f883d; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
</style>
<div class="top"><span class="lg">Helpdesk</span><span class="tn on">Tickets</span><span class="tn">Customers</span><span class="sr">Search tickets</span></div>
<div class="tk"><div class="tt">Export to PDF cuts off wide tables <span>#4821</span></div>
<div class="meta"><span class="st open">Open</span><span class="st hi">High</span>Opened 2 hours ago by Priya Nair<span class="as"><i></i>Tomas V.</span></div>
<div class="msg"><div class="mh"><b>Priya Nair</b>priya@harbor.dev<span>10:14</span></div>
<div class="mb">When I export the quarterly report, every table wider than the page loses its last two columns. It worked last week.</div></div>
<div class="nt"><b>Internal note:</b> likely the new page-break code, see #4790.</div>
<div class="ft"><a href="#">Add attachment</a><span class="cl">Close ticket</span><span class="sd">Send reply</span></div></div>
""",
}

BLIND7_CHANGES = [
    ("upload", "word", "<span class=\"go\">Upload 3 files</span>", "<span class=\"go\">Upload 2 files</span>", "generic-rgb"),
    ("upload", "button-colour", ".go { margin-left: 6px; background: #0f7b8a;", ".go { margin-left: 6px; background: #1f8b9a;", "jpeg-q90"),
    ("upload", "border-removed", "<div class=\"f\" id=\"f2\">", "<div class=\"f\" id=\"f2\" style=\"border-color:transparent\">", "jpeg-q95"),
    ("upload", "icon-removed", "<i class=\"ok\" id=\"k1\"></i>", "<i class=\"ok\" id=\"k1\" style=\"visibility:hidden\"></i>", "other-machine"),
    ("places", "word", "<div class=\"op\">Open until 18:00</div>", "<div class=\"op\">Open until 19:00</div>", "no-subpixel-pos"),
    ("places", "text-colour", ".cl { font-size: 10px; color: #c25400; }", ".cl { font-size: 10px; color: #d26410; }", "hinting-none"),
    ("places", "moved-2px", "<i class=\"pin\" style=\"left:36px;top:88px\"></i>", "<i class=\"pin\" style=\"left:38px;top:88px\"></i>",
     "hinting-medium"),
    ("appearance", "text-colour", ".ni { color: #aab1bd;", ".ni { color: #bac1cd;", "hinting-full"),
    ("appearance", "border-removed", "<div class=\"tc\" id=\"t3\">", "<div class=\"tc\" id=\"t3\" style=\"border-color:transparent\">",
     "lcd-text"),
    ("appearance", "icon-removed", "<i class=\"c\" style=\"background:#e07b39\"></i>", "<i class=\"c\" style=\"background:#e07b39;visibility:hidden\"></i>",
     "swiftshader"),
    ("appearance", "letter-spacing", "<span>Turn off animated transitions</span>",
     "<span style=\"letter-spacing:0.5px\">Turn off animated transitions</span>", "display-p3"),
    ("release", "word", "in the report on Safari", "in the report on Firefox", "generic-rgb"),
    ("release", "button-colour", ".fix { background: #2a6df4; }", ".fix { background: #3a7df4; }", "jpeg-q90"),
    ("release", "moved-2px", "<span class=\"gh\">#798</span>", "<span class=\"gh\" style=\"margin-left:2px\">#798</span>", "jpeg-q95"),
    ("ticket", "word", "loses its last two columns", "loses its last three columns", "other-machine"),
    ("ticket", "text-colour", ".open { background: #fff1d6; color: #9a5b00; }", ".open { background: #fff1d6; color: #aa6b10; }",
     "no-subpixel-pos"),
    ("ticket", "button-colour", ".sd { margin-left: 6px; background: #1f883d;", ".sd { margin-left: 6px; background: #2f984d;", "hinting-none"),
]

# An eighth blind set, written after the seventh was measured and tune's removed-line canary was changed
# on it: five more pages and seventeen more changes, committed before any mode was run on them.
BLIND8_PAGES = {
    "compose": """
<style>
.cp { margin: 7px 12px; font-size: 11px; border: 1px solid #d6dae1; border-radius: 7px; overflow: hidden; }
.hd { display: flex; align-items: center; background: #2b3340; color: #fff; padding: 4px 9px; font-weight: bold; }
.hd span { margin-left: auto; font-weight: normal; color: #aab1bd; }
.fl { display: flex; align-items: center; height: 25px; padding: 0 9px; border-bottom: 1px solid #e6e8ec; color: #222; }
.lb { width: 52px; flex: none; color: #888; }
.rc { display: inline-flex; align-items: center; height: 18px; border: 1px solid #d6dae1; border-radius: 9px; padding: 0 7px 0 1px;
      margin-right: 4px; font-size: 10px; color: #333; }
.rc i { width: 14px; height: 14px; border-radius: 7px; margin-right: 4px; color: #fff; font-size: 7px; font-weight: bold; font-style: normal;
        line-height: 14px; text-align: center; }
.cc { margin-left: auto; font-size: 10px; color: #2a6df4; }
.tb { display: flex; align-items: center; height: 21px; padding: 0 5px; border-bottom: 1px solid #e6e8ec; background: #f6f8fa; color: #555; }
.tb b, .tb em, .tb u { width: 20px; text-align: center; font-size: 11px; }
.tb .sep { width: 1px; height: 12px; background: #d6dae1; margin: 0 4px; }
.ls { position: relative; width: 20px; height: 12px; }
.ls::before { content: ""; position: absolute; left: 5px; top: 1px; width: 3px; height: 3px; border-radius: 2px; background: #555;
              box-shadow: 0 4px #555, 0 8px #555; }
.ls::after { content: ""; position: absolute; left: 10px; top: 2px; width: 7px; height: 1px; background: #555; box-shadow: 0 4px #555, 0 8px #555; }
.bd { padding: 5px 9px 6px; color: #333; line-height: 1.4; }
.bd code { font: 10px "DejaVu Sans Mono"; background: #f1f2f4; border-radius: 3px; padding: 0 3px; color: #b42a6a; }
.at { display: inline-flex; align-items: center; margin: 0 0 6px 9px; border: 1px solid #d6dae1; border-radius: 5px; padding: 2px 7px 2px 4px;
      font-size: 10px; color: #333; }
.clip { width: 6px; height: 11px; border: 1px solid #6b7686; border-radius: 3px; margin-right: 5px; }
.at span { margin-left: 4px; color: #888; }
.ft { display: flex; align-items: center; padding: 5px 9px; border-top: 1px solid #e6e8ec; }
.sd { background: #2a6df4; color: #fff; border-radius: 5px; padding: 3px 12px; font-weight: bold; }
.sv { margin-left: 8px; font-size: 10px; color: #888; }
.bin { margin-left: auto; width: 10px; height: 11px; border: 1px solid #888; border-top-width: 2px; border-radius: 0 0 2px 2px; }
</style>
<div class="cp"><div class="hd">New message<span>&ndash; &nbsp;&times;</span></div>
<div class="fl"><span class="lb">To</span><span class="rc"><i style="background:#e0457b">MK</i>Mira Kovac</span><span class="rc"><i style="background:#1f9d55">JO</i>Jonas Ortega</span><span class="cc">Cc Bcc</span></div>
<div class="fl" id="f2"><span class="lb">Subject</span>Snapshot failures on the ARM runner</div>
<div class="tb"><b>B</b><em>I</em><u>U</u><i class="sep"></i><i class="ls"></i></div>
<div class="bd">Hi both, the nightly run had 14 failing snapshots, all on text. Setting <code>--max-shift 1</code> fixes twelve of them; the last two look real.</div>
<div class="at"><i class="clip"></i>diff-report.html<span>84 KB</span></div>
<div class="ft"><span class="sd">Send</span><span class="sv">Draft saved at 09:41</span><i class="bin"></i></div></div>
""",
    "product": """
<style>
.pd { display: flex; padding: 10px 12px; font-size: 11px; }
.gal { width: 128px; flex: none; margin-right: 14px; }
.img { position: relative; height: 124px; border-radius: 6px; background: #f1efe9; }
.img .sh { position: absolute; left: 29px; top: 104px; width: 70px; height: 6px; border-radius: 50%; background: #dcd8ce; }
.img .bag { position: absolute; left: 34px; top: 30px; width: 60px; height: 74px; border-radius: 12px 12px 8px 8px; background: #3c6e71; }
.img .hdl { position: absolute; left: 50px; top: 18px; width: 28px; height: 18px; border: 4px solid #2f5658; border-bottom: 0;
            border-radius: 12px 12px 0 0; }
.img .pk { position: absolute; left: 44px; top: 66px; width: 40px; height: 26px; border-radius: 5px; background: #335f62; border-top: 2px solid #2a5052; }
.th { display: flex; gap: 6px; margin-top: 6px; }
.th i { width: 28px; height: 28px; border-radius: 4px; background: #f1efe9; border: 1px solid #e2ded4; }
.th i.on { border: 2px solid #2b3340; }
.br { font-size: 9px; font-weight: bold; color: #888; letter-spacing: 1px; }
.nm { font-size: 14px; font-weight: bold; color: #222; margin: 1px 0 3px; }
.rt { font-size: 10px; color: #2a6df4; }
.rt i { font-style: normal; color: #f0a020; letter-spacing: 1px; margin-right: 3px; }
.pr { display: flex; align-items: baseline; margin: 6px 0 5px; }
.now { font-size: 16px; font-weight: bold; color: #222; }
.was { margin-left: 6px; font-size: 10px; color: #888; text-decoration: line-through; }
.off { margin-left: 6px; font-size: 9px; font-weight: bold; color: #b42318; background: #fde8e6; border-radius: 3px; padding: 0 4px; }
.lb { font-size: 10px; color: #555; margin-bottom: 3px; }
.lb b { color: #222; font-weight: normal; }
.sw { display: flex; gap: 6px; margin-bottom: 6px; }
.sw i { width: 14px; height: 14px; border-radius: 7px; }
.sw i.on { box-shadow: 0 0 0 2px #fff, 0 0 0 3px #2b3340; }
.sz { display: flex; gap: 4px; margin-bottom: 6px; }
.sz span { width: 26px; text-align: center; border: 1px solid #ccd1d9; border-radius: 4px; font-size: 10px; color: #333; padding: 1px 0; }
.sz span.on { border-color: #2b3340; background: #2b3340; color: #fff; }
.sz span.no { color: #b0b5bd; text-decoration: line-through; }
.stk { font-size: 10px; color: #1a7f37; margin-bottom: 7px; }
.stk::before { content: ""; display: inline-block; width: 6px; height: 6px; border-radius: 3px; background: #22aa66; margin-right: 4px; }
.buy { display: flex; align-items: center; }
.add { background: #c2410c; color: #fff; border-radius: 5px; padding: 4px 14px; font-weight: bold; }
.fav { margin-left: 6px; width: 24px; height: 22px; border: 1px solid #ccd1d9; border-radius: 5px; text-align: center; line-height: 20px;
       font-size: 12px; color: #d93838; }
</style>
<div class="pd"><div class="gal"><div class="img"><i class="sh"></i><i class="hdl"></i><i class="bag"></i><i class="pk"></i></div>
<div class="th"><i class="on"></i><i></i><i></i><i></i></div></div>
<div><div class="br">NORDWALK</div><div class="nm">Daypack 18 L, waxed canvas</div>
<div class="rt"><i>&#9733;&#9733;&#9733;&#9733;&#9734;</i>4.3 &middot; 214 reviews</div>
<div class="pr"><span class="now">$89.00</span><span class="was">$119.00</span><span class="off">&minus;25%</span></div>
<div class="lb">Colour: <b>Spruce</b></div>
<div class="sw"><i class="on" style="background:#3c6e71"></i><i style="background:#b08d57"></i><i style="background:#2b3340"></i><i style="background:#9c3d2e"></i></div>
<div class="sz"><span class="no">S</span><span class="on">M</span><span>L</span></div>
<div class="stk">In stock, ships in 2 days</div>
<div class="buy"><span class="add">Add to bag</span><span class="fav">&#9825;</span></div></div></div>
""",
    "poll": """
<style>
.pl { margin: 8px 12px; font-size: 11px; border: 1px solid #dfe2e6; border-radius: 8px; padding: 8px 10px; }
.hd { display: flex; align-items: center; margin-bottom: 5px; }
.av { width: 20px; height: 20px; border-radius: 10px; background: #7b4ee0; color: #fff; font-size: 8px; font-weight: bold; line-height: 20px;
      text-align: center; margin-right: 6px; }
.who b { color: #222; }
.who span { font-size: 10px; color: #888; }
.tag { margin-left: auto; font-size: 9px; color: #1d4fb8; background: #eef4ff; border: 1px solid #c7d7f5; border-radius: 8px; padding: 0 6px; }
.q { font-size: 12px; font-weight: bold; color: #222; margin-bottom: 6px; }
.op { position: relative; display: flex; align-items: center; height: 22px; border-radius: 5px; background: #f3f4f6; margin-bottom: 4px;
      padding: 0 8px; color: #333; overflow: hidden; }
.op .bar { position: absolute; left: 0; top: 0; bottom: 0; background: #e4e7ec; }
.op.win .bar { background: #dbe7fd; }
.op span, .op b, .op .ck { position: relative; }
.op.win span { color: #1d4fb8; font-weight: bold; }
.op b { margin-left: auto; font: 10px "DejaVu Sans Mono"; color: #555; }
.op.win b { color: #1d4fb8; font-weight: bold; }
.ck { width: 12px; height: 12px; border-radius: 6px; background: #2a6df4; margin-left: 5px; }
.ck::after { content: ""; position: absolute; left: 4px; top: 2px; width: 2px; height: 5px; border: solid #fff; border-width: 0 2px 2px 0;
             transform: rotate(45deg); }
.ft { display: flex; align-items: center; margin-top: 7px; }
.meta { font-size: 10px; color: #777; }
.avs { display: flex; margin-left: auto; margin-right: 8px; }
.avs i { width: 16px; height: 16px; border-radius: 8px; border: 2px solid #fff; margin-left: -5px; }
.chg { border: 1px solid #b9bfca; border-radius: 5px; padding: 2px 9px; color: #333; }
</style>
<div class="pl"><div class="hd"><div class="av">DW</div><div class="who"><b>Dana Whitfield</b> <span>in #design-system &middot; 2h</span></div><span class="tag">Poll</span></div>
<div class="q">Which icon set should we ship in v3?</div>
<div class="op win"><i class="bar" style="width:46%"></i><span>Phosphor</span><i class="ck"></i><b>46%</b></div>
<div class="op"><i class="bar" style="width:31%"></i><span>Material Symbols (rounded)</span><b>31%</b></div>
<div class="op"><i class="bar" style="width:17%"></i><span>Lucide</span><b>17%</b></div>
<div class="op"><i class="bar" style="width:6%"></i><span>Keep our own</span><b>6%</b></div>
<div class="ft"><span class="meta">128 votes &middot; closes in 2 days</span><span class="avs"><i style="background:#e0457b"></i><i style="background:#f0a020"></i><i style="background:#1f9d55"></i></span><span class="chg">Change vote</span></div></div>
""",
    "departures": """
<style>
.dp { font-size: 11px; }
.hd { display: flex; align-items: center; height: 32px; padding: 0 12px; background: #12355b; color: #fff; }
.st { font-size: 13px; font-weight: bold; }
.clk { margin-left: auto; font: bold 12px "DejaVu Sans Mono"; color: #ffd36b; }
.tabs { display: flex; padding: 0 12px; border-bottom: 1px solid #d6dae1; }
.tab { padding: 5px 0 4px; margin-right: 16px; color: #777; }
.tab.on { color: #12355b; font-weight: bold; border-bottom: 2px solid #12355b; padding-bottom: 2px; }
.r { display: flex; align-items: center; height: 34px; padding: 0 12px 0 9px; border-bottom: 1px solid #e6e8ec; border-left: 3px solid; }
.tm { width: 44px; flex: none; font: bold 12px "DejaVu Sans Mono"; color: #222; }
.ds { flex: 1; }
.ds b { display: block; font-weight: normal; color: #222; }
.ds span { font-size: 9px; color: #888; }
.pf { width: 42px; flex: none; }
.pf span { display: inline-block; width: 22px; border: 1px solid #aab1bd; border-radius: 3px; text-align: center; font-size: 10px; color: #333; }
.ok, .lt, .cx { width: 58px; flex: none; text-align: right; font-size: 10px; }
.ok { color: #1a7f37; } .lt { color: #b45309; font-weight: bold; }
.cx span { background: #fdecec; color: #c62828; border-radius: 3px; padding: 1px 4px; }
.x .tm { color: #999; text-decoration: line-through; }
</style>
<div class="dp"><div class="hd"><span class="st">Edinburgh Waverley</span><span class="clk">14:32</span></div>
<div class="tabs"><span class="tab on">Departures</span><span class="tab">Arrivals</span><span class="tab">Platforms</span></div>
<div class="r" style="border-left-color:#c8102e"><span class="tm">14:36</span><div class="ds"><b>London Kings Cross</b><span>LNER &middot; Berwick, Newcastle, York</span></div><div class="pf"><span>2</span></div><span class="ok">On time</span></div>
<div class="r" style="border-left-color:#1e64c8"><span class="tm">14:41</span><div class="ds"><b>Glasgow Queen Street</b><span>ScotRail &middot; Falkirk High</span></div><div class="pf"><span id="p12">12</span></div><span class="lt">Exp 14:49</span></div>
<div class="r" id="r3" style="border-left-color:#1e64c8"><span class="tm">14:45</span><div class="ds"><b>North Berwick</b><span>ScotRail &middot; Musselburgh, Drem</span></div><div class="pf"><span>8</span></div><span class="ok">On time</span></div>
<div class="r x" style="border-left-color:#6d2077"><span class="tm">14:52</span><div class="ds"><b>Aberdeen</b><span>ScotRail &middot; Kirkcaldy, Dundee</span></div><div class="pf"><span>&ndash;</span></div><span class="cx"><span>Cancelled</span></span></div>
<div class="r" style="border-left-color:#00a499"><span class="tm">15:04</span><div class="ds"><b>Tweedbank</b><span>ScotRail &middot; Eskbank, Galashiels</span></div><div class="pf"><span>7</span></div><span class="ok">On time</span></div>
</div>
""",
    "tokens": """
<style>
.tk { margin: 8px 12px; font-size: 11px; }
.hd { display: flex; align-items: center; }
.ttl { font-size: 13px; font-weight: bold; color: #222; }
.gen { margin-left: auto; background: #6d28d9; color: #fff; border-radius: 5px; padding: 3px 10px; font-weight: bold; }
.sub { font-size: 10px; color: #777; margin: 3px 0 7px; line-height: 1.4; }
.sub code { white-space: nowrap; }
code { font: 10px "DejaVu Sans Mono"; background: #f1f2f4; border-radius: 3px; padding: 0 3px; color: #b42a6a; }
.t { border: 1px solid #dfe2e6; border-radius: 6px; padding: 5px 8px; margin-bottom: 6px; }
.l1 { display: flex; align-items: center; }
.nm { font-weight: bold; color: #222; margin-right: 6px; }
.sc { font: 9px "DejaVu Sans Mono"; border-radius: 8px; padding: 0 5px; margin-right: 3px; }
.rd { color: #1a7f37; background: #e9f7ee; } .wr { color: #9a5b00; background: #fff1d6; }
.rv { margin-left: auto; font-size: 10px; color: #c62828; border: 1px solid #e8a5a5; border-radius: 4px; padding: 0 7px; }
.l2 { display: flex; align-items: center; margin-top: 4px; font-size: 10px; color: #888; white-space: nowrap; }
.key { color: #555; background: #f6f8fa; border: 1px solid #e6e8ec; }
.cp { position: relative; width: 11px; height: 11px; margin: 0 10px 0 4px; }
.cp::before, .cp::after { content: ""; position: absolute; width: 6px; height: 7px; border: 1px solid #6b7686; border-radius: 1px; background: #fff; }
.cp::before { left: 0; top: 0; } .cp::after { left: 3px; top: 3px; }
.ex { margin-left: auto; color: #b45309; }
.ex i { display: inline-block; width: 0; height: 0; border: 5px solid transparent; border-top: 0; border-bottom: 9px solid #e8a33d;
        margin-right: 4px; vertical-align: -1px; }
.ok { margin-left: auto; }
</style>
<div class="tk"><div class="hd"><span class="ttl">Personal access tokens</span><span class="gen">Generate new token</span></div>
<div class="sub">Tokens act as you in the API. Send them as <code>Authorization: Bearer</code> and never commit them.</div>
<div class="t"><div class="l1"><span class="nm">ci-upload</span><span class="sc wr">write:baselines</span><span class="sc rd">read:runs</span><span class="rv">Revoke</span></div>
<div class="l2"><code class="key">imgd_&bull;&bull;&bull;&bull;&bull;&bull;3f9a</code><i class="cp"></i>Used 3 days ago<span class="ex"><i></i>Expires in 12 days</span></div></div>
<div class="t"><div class="l1"><span class="nm">laptop</span><span class="sc rd">read:runs</span><span class="rv">Revoke</span></div>
<div class="l2"><code class="key">imgd_&bull;&bull;&bull;&bull;&bull;&bull;c04e</code><i class="cp"></i>Used 2 hours ago<span class="ok">No expiry</span></div></div>
<div class="t"><div class="l1"><span class="nm">grafana-export</span><span class="sc rd">read:metrics</span><span class="rv">Revoke</span></div>
<div class="l2"><code class="key">imgd_&bull;&bull;&bull;&bull;&bull;&bull;81d7</code><i class="cp"></i>Never used<span class="ok">Expires 30 Jun 2026</span></div></div>
</div>
""",
}

BLIND8_CHANGES = [
    ("compose", "word", "had 14 failing snapshots", "had 16 failing snapshots", "hinting-medium"),
    ("compose", "text-colour", ".lb { width: 52px; flex: none; color: #888; }", ".lb { width: 52px; flex: none; color: #999; }", "hinting-full"),
    ("compose", "icon-removed", "<i class=\"clip\"></i>", "<i class=\"clip\" style=\"visibility:hidden\"></i>", "lcd-text"),
    ("compose", "border-removed", "<div class=\"fl\" id=\"f2\">", "<div class=\"fl\" id=\"f2\" style=\"border-color:transparent\">",
     "swiftshader"),
    ("product", "word", "<span class=\"now\">$89.00</span>", "<span class=\"now\">$86.00</span>", "display-p3"),
    ("product", "button-colour", ".add { background: #c2410c;", ".add { background: #d2511c;", "generic-rgb"),
    ("product", "moved-2px", "<span class=\"off\">", "<span class=\"off\" style=\"margin-left:8px\">", "jpeg-q90"),
    ("poll", "text-colour", ".meta { font-size: 10px; color: #777; }", ".meta { font-size: 10px; color: #888; }", "jpeg-q95"),
    ("poll", "word", "<b>31%</b>", "<b>34%</b>", "other-machine"),
    ("poll", "icon-removed", "<i class=\"ck\"></i>", "<i class=\"ck\" style=\"visibility:hidden\"></i>", "no-subpixel-pos"),
    ("poll", "letter-spacing", "<span>Material Symbols (rounded)</span>",
     "<span style=\"letter-spacing:0.5px\">Material Symbols (rounded)</span>", "hinting-none"),
    ("departures", "word", "<span id=\"p12\">12</span>", "<span id=\"p12\">13</span>", "hinting-medium"),
    ("departures", "border-removed", "<div class=\"r\" id=\"r3\" style=\"border-left-color:#1e64c8\">",
     "<div class=\"r\" id=\"r3\" style=\"border-left-color:#1e64c8;border-bottom-color:transparent\">", "hinting-full"),
    ("departures", "moved-2px", "<div class=\"pf\"><span>8</span></div>", "<div class=\"pf\"><span style=\"margin-left:2px\">8</span></div>",
     "lcd-text"),
    ("tokens", "word", "Used 3 days ago", "Used 5 days ago", "swiftshader"),
    ("tokens", "text-colour", ".ex { margin-left: auto; color: #b45309; }", ".ex { margin-left: auto; color: #c46319; }", "display-p3"),
    ("tokens", "button-colour", ".gen { margin-left: auto; background: #6d28d9;", ".gen { margin-left: auto; background: #7d38e9;",
     "generic-rgb"),
]

BLIND9_PAGES = {
    "boarding": """
<style>
.bp { margin: 8px 12px; font-size: 11px; border: 1px solid #d3d8df; border-radius: 8px; overflow: hidden; }
.top { display: flex; align-items: center; background: #0f4c81; color: #fff; padding: 5px 10px; }
.top b { letter-spacing: 1px; }
.top span { margin-left: auto; font-size: 10px; color: #b9cde3; }
.rt { display: flex; align-items: center; padding: 7px 10px 4px; }
.ap { font-size: 20px; font-weight: bold; color: #1b2430; }
.ap small { display: block; font-size: 9px; font-weight: normal; color: #7a8494; }
.pl { flex: 1; position: relative; height: 1px; margin: 0 10px; border-top: 1px dashed #9aa4b2; }
.pl i { position: absolute; left: 50%; top: -5px; width: 9px; height: 9px; margin-left: -4px; border-radius: 2px; background: #0f4c81;
        transform: rotate(45deg); }
.gr { display: flex; padding: 2px 10px 6px; }
.gr div { flex: 1; }
.gr small { display: block; font-size: 9px; color: #7a8494; }
.gr b { color: #1b2430; font-size: 12px; }
.st { display: flex; align-items: center; border-top: 1px dashed #c7ccd4; padding: 5px 10px; }
.code { display: flex; gap: 1px; height: 22px; }
.code i { width: 2px; background: #1b2430; }
.code i.w { width: 3px; }
.code i.g { background: transparent; }
.zn { margin-left: auto; font-size: 10px; color: #fff; background: #2f855a; border-radius: 4px; padding: 1px 7px; font-weight: bold; }
</style>
<div class="bp"><div class="top"><b>SKYLARK</b><span>Boarding pass &middot; Economy</span></div>
<div class="rt"><div class="ap">LIS<small>Lisbon</small></div><div class="pl"><i></i></div><div class="ap">CPH<small>Copenhagen</small></div></div>
<div class="gr"><div><small>Flight</small><b>SK 1843</b></div><div><small>Date</small><b>14 Mar</b></div>
<div><small>Gate</small><b id="gt">B27</b></div><div><small>Seat</small><b>23F</b></div></div>
<div class="gr"><div><small>Boards</small><b>07:15</b></div><div><small>Departs</small><b>07:45</b></div><div><small>Passenger</small><b>R. ALMEIDA</b></div></div>
<div class="st"><span class="code"><i></i><i class="w"></i><i class="g"></i><i></i><i></i><i class="g"></i><i class="w"></i><i></i><i class="g"></i><i></i><i class="w"></i><i class="w"></i><i class="g"></i><i></i><i></i><i class="g"></i><i class="w"></i><i></i></span><span class="zn">Zone 3</span></div></div>
""",
    "docs": """
<style>
.dc { display: flex; padding: 8px 10px; font-size: 11px; }
.toc { width: 88px; flex: none; border-right: 1px solid #e3e6ea; padding-right: 8px; margin-right: 10px; font-size: 10px; }
.toc div { padding: 2px 0 2px 6px; color: #596270; }
.toc .on { color: #1a56db; border-left: 2px solid #1a56db; padding-left: 4px; font-weight: bold; }
.toc .sub { padding-left: 14px; color: #8a929e; }
h1 { font-size: 14px; margin: 0 0 4px; color: #1b2430; }
.ln { color: #444; line-height: 1.4; margin-bottom: 5px; }
.ln a { color: #1a56db; text-decoration: underline; }
pre { margin: 0 0 6px; padding: 5px 7px; background: #1e2430; color: #d6dbe3; border-radius: 5px; font: 10px/1.35 "DejaVu Sans Mono"; }
pre .k { color: #c792ea; }
pre .s { color: #a5d6a7; }
.note { display: flex; border: 1px solid #f1d48a; background: #fff8e6; border-radius: 5px; padding: 4px 6px; font-size: 10px; color: #6b5200; }
.note i { width: 10px; height: 10px; border-radius: 5px; background: #e0a800; margin: 1px 5px 0 0; flex: none; }
</style>
<div class="dc"><div class="toc"><div>Overview</div><div class="on">Install</div><div class="sub">From a package</div>
<div class="sub">From source</div><div>Configure</div><div>Tolerances</div><div>CI</div></div>
<div><h1>Install</h1><div class="ln">The CLI needs libpng and libjpeg-turbo. See <a>supported platforms</a> before you start.</div>
<pre><span class="k">sudo</span> apt install ./imgdiff_0.1.0_amd64.deb
imgdiff --version
<span class="s"># 0.1.0 (commit 1a2b3c4)</span></pre>
<div class="note"><i></i>Builds from source need Swift 6.1 or later.</div></div></div>
""",
    "status": """
<style>
.ss { margin: 8px 12px; font-size: 11px; }
.ok { display: flex; align-items: center; background: #e7f6ee; border: 1px solid #b5e0c6; border-radius: 6px; padding: 5px 8px; color: #17643a;
      font-weight: bold; margin-bottom: 6px; }
.ok i { width: 10px; height: 10px; border-radius: 5px; background: #22a35a; margin-right: 6px; }
.sv { border: 1px solid #e1e4e8; border-radius: 6px; padding: 4px 8px; margin-bottom: 5px; }
.sv .hd { display: flex; align-items: center; color: #222; margin-bottom: 3px; }
.sv .hd span { margin-left: auto; font-size: 10px; color: #22a35a; }
.sv .hd span.dg { color: #c27c0e; }
.bars { display: flex; gap: 1px; height: 14px; }
.bars i { flex: 1; background: #3cb371; border-radius: 1px; }
.bars i.y { background: #e0a800; }
.bars i.r { background: #d9534f; }
.ax { display: flex; font-size: 9px; color: #98a0ab; margin-top: 1px; }
.ax span:last-child { margin-left: auto; }
</style>
<div class="ss"><div class="ok"><i></i>All systems operational</div>
<div class="sv"><div class="hd">API<span>99.98% uptime</span></div><div class="bars"><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i class="y"></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i></div>
<div class="ax"><span>30 days ago</span><span>Today</span></div></div>
<div class="sv" id="s2"><div class="hd">Snapshot storage<span class="dg">99.71% uptime</span></div><div class="bars"><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i class="r"></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i class="y"></i><i class="y"></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i></div>
<div class="ax"><span>30 days ago</span><span>Today</span></div></div>
<div class="sv"><div class="hd">Web dashboard<span>100% uptime</span></div><div class="bars"><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i><i></i></div></div></div>
""",
    "receipt": """
<style>
.rc { margin: 7px auto; width: 232px; font-size: 11px; border: 1px solid #dcdfe4; border-radius: 4px; padding: 7px 10px; }
.sh { text-align: center; font-weight: bold; color: #222; letter-spacing: 1px; }
.ad { text-align: center; font-size: 9px; color: #888; margin-bottom: 5px; }
.it { display: flex; color: #333; padding: 1px 0; }
.it span:first-child { width: 18px; color: #888; }
.it b { margin-left: auto; font: 10px "DejaVu Sans Mono"; font-weight: normal; color: #222; }
.rule { border-top: 1px dashed #b9bec6; margin: 4px 0; }
.tt { display: flex; font-weight: bold; color: #222; }
.tt b { margin-left: auto; font: bold 11px "DejaVu Sans Mono"; }
.pm { display: flex; align-items: center; font-size: 10px; color: #555; margin-top: 3px; }
.card { width: 16px; height: 10px; border-radius: 2px; background: #1a1f71; margin-right: 5px; }
.pm span { margin-left: auto; color: #1a7f37; }
.th { text-align: center; font-size: 9px; color: #888; margin-top: 5px; }
</style>
<div class="rc"><div class="sh">CORNER CAF&Eacute;</div><div class="ad">12 Harbour St &middot; 09:12 &middot; Till 2</div>
<div class="it"><span>2</span>Flat white<b>7.00</b></div><div class="it"><span>1</span>Almond croissant<b>3.80</b></div>
<div class="it"><span>1</span>Orange juice<b id="oj">4.20</b></div><div class="it"><span>1</span>Granola bowl<b>6.50</b></div>
<div class="rule"></div><div class="it"><span></span>Subtotal<b>21.50</b></div><div class="it"><span></span>VAT 13%<b>2.47</b></div>
<div class="rule"></div><div class="tt">Total<b>23.97</b></div>
<div class="pm"><i class="card"></i>Visa &bull;&bull;&bull;&bull; 4417<span>Approved</span></div>
<div class="th">Thank you, see you soon</div></div>
""",
    "survey": """
<style>
.sq { margin: 8px 12px; font-size: 11px; border: 1px solid #dfe2e7; border-radius: 8px; padding: 8px 10px; }
.pg { display: flex; align-items: center; font-size: 9px; color: #888; margin-bottom: 4px; }
.pg .tr { flex: 1; height: 4px; border-radius: 2px; background: #e6e8ec; margin-left: 8px; overflow: hidden; }
.pg .tr i { display: block; width: 60%; height: 4px; background: #7c3aed; }
.q { font-weight: bold; color: #222; margin-bottom: 5px; }
.sc { display: flex; gap: 4px; margin-bottom: 3px; }
.sc span { width: 22px; height: 20px; border: 1px solid #cfd4dc; border-radius: 4px; text-align: center; line-height: 18px; color: #444; font-size: 10px; }
.sc span.on { background: #7c3aed; border-color: #7c3aed; color: #fff; font-weight: bold; }
.ends { display: flex; width: 242px; font-size: 9px; color: #999; margin-bottom: 6px; }
.ends span:last-child { margin-left: auto; }
.op { display: flex; align-items: center; margin-bottom: 3px; color: #333; }
.rd { width: 11px; height: 11px; border: 1px solid #9aa1ab; border-radius: 6px; margin-right: 6px; position: relative; }
.rd.on { border-color: #7c3aed; }
.rd.on::after { content: ""; position: absolute; left: 2px; top: 2px; width: 5px; height: 5px; border-radius: 3px; background: #7c3aed; }
.nx { display: flex; margin-top: 5px; }
.nx span { margin-left: auto; background: #7c3aed; color: #fff; border-radius: 5px; padding: 3px 12px; font-weight: bold; }
.nx em { font-style: normal; color: #7c3aed; line-height: 20px; }
</style>
<div class="sq"><div class="pg">Question 3 of 5<span class="tr"><i></i></span></div>
<div class="q">How likely are you to recommend us?</div>
<div class="sc"><span>1</span><span>2</span><span>3</span><span>4</span><span>5</span><span>6</span><span>7</span><span class="on">8</span><span>9</span><span>10</span></div>
<div class="ends"><span>Not likely</span><span>Very likely</span></div>
<div class="q">What did you use most?</div>
<div class="op"><i class="rd"></i>Batch reports</div><div class="op"><i class="rd on"></i>Snapshot review</div><div class="op"><i class="rd"></i>Tolerance tuning</div>
<div class="nx"><em>Back</em><span>Next</span></div></div>
""",
}

BLIND9_CHANGES = [
    ("boarding", "word", '<b id="gt">B27</b>', '<b id="gt">B21</b>', "no-subpixel-pos"),
    ("boarding", "text-colour", ".top span { margin-left: auto; font-size: 10px; color: #b9cde3; }",
     ".top span { margin-left: auto; font-size: 10px; color: #a9bdd3; }", "hinting-none"),
    ("boarding", "moved-2px", "<span class=\"zn\">Zone 3</span>", "<span class=\"zn\" style=\"margin-right:2px\">Zone 3</span>",
     "hinting-medium"),
    ("boarding", "border-removed", ".st { display: flex; align-items: center; border-top: 1px dashed #c7ccd4;",
     ".st { display: flex; align-items: center; border-top: 1px dashed transparent;", "hinting-full"),
    ("docs", "word", "See <a>supported platforms</a>", "See <a>supported systems</a>", "lcd-text"),
    ("docs", "text-colour", ".toc .sub { padding-left: 14px; color: #8a929e; }", ".toc .sub { padding-left: 14px; color: #9aa2ae; }",
     "swiftshader"),
    ("docs", "icon-removed", '<div class="note"><i></i>', '<div class="note"><i style="visibility:hidden"></i>', "display-p3"),
    ("status", "word", "<span>99.98% uptime</span>", "<span>99.96% uptime</span>", "generic-rgb"),
    ("status", "button-colour", ".bars i.y { background: #e0a800; }", ".bars i.y { background: #f0b810; }", "jpeg-q90"),
    ("status", "border-removed", '<div class="sv" id="s2">', '<div class="sv" id="s2" style="border-color:transparent">', "jpeg-q95"),
    ("receipt", "word", '<b id="oj">4.20</b>', '<b id="oj">4.70</b>', "other-machine"),
    ("receipt", "moved-2px", '<i class="card"></i>', '<i class="card" style="margin-left:2px"></i>', "no-subpixel-pos"),
    ("receipt", "letter-spacing", '<div class="th">Thank you, see you soon</div>',
     '<div class="th" style="letter-spacing:0.3px">Thank you, see you soon</div>', "hinting-none"),
    ("survey", "word", "<span>Not likely</span>", "<span>Unlikely</span>", "hinting-medium"),
    ("survey", "text-colour", ".nx em { font-style: normal; color: #7c3aed;", ".nx em { font-style: normal; color: #8c4afd;",
     "hinting-full"),
    ("survey", "icon-removed", '<div class="op"><i class="rd"></i>Tolerance tuning</div>',
     '<div class="op"><i class="rd" style="visibility:hidden"></i>Tolerance tuning</div>', "lcd-text"),
    ("survey", "moved-2px", '<span class="on">8</span>', '<span class="on" style="margin-left:2px">8</span>', "swiftshader"),
]

BLIND10_PAGES = {
    "activity": """
<style>
.af { margin: 8px 12px; font-size: 11px; border: 1px solid #dde1e6; border-radius: 8px; }
.af h4 { margin: 0; padding: 6px 10px; font-size: 12px; color: #1f2933; border-bottom: 1px solid #e9ecef; }
.ev { display: flex; align-items: flex-start; padding: 5px 10px; border-bottom: 1px solid #f1f3f5; }
.av { width: 20px; height: 20px; border-radius: 10px; margin-right: 7px; color: #fff; font-size: 9px; font-weight: bold;
      text-align: center; line-height: 20px; }
.av.a { background: #d9480f; } .av.b { background: #1971c2; } .av.c { background: #2b8a3e; }
.ev p { margin: 0; color: #343a40; flex: 1; }
.ev p b { color: #111; }
.ev time { font-size: 9px; color: #868e96; margin-left: 6px; white-space: nowrap; }
.tag { display: inline-block; font-size: 9px; padding: 0 4px; border-radius: 3px; background: #fff3bf; color: #7c5b00; }
.more { padding: 5px 10px; color: #1971c2; font-size: 10px; }
</style>
<div class="af"><h4>Recent activity</h4>
<div class="ev"><div class="av a">MR</div><p><b>Mara</b> approved <span class="tag">12 snapshots</span> in Login</p><time>2 min</time></div>
<div class="ev"><div class="av b">JT</div><p><b>Jonas</b> commented on the dark-mode diff</p><time id="t2">18 min</time></div>
<div class="ev"><div class="av c">AK</div><p><b>Amal</b> rejected the toolbar baseline</p><time>1 h</time></div>
<div class="ev"><div class="av b">JT</div><p><b>Jonas</b> retuned the ARM runner tolerance</p><time>3 h</time></div>
<div class="more">Show older events</div></div>
""",
    "consent": """
<style>
.cs { margin: 8px 12px; font-size: 11px; border: 1px solid #d0d5dc; border-radius: 8px; padding: 8px 10px; background: #fbfcfd; }
.cs h4 { margin: 0 0 3px; font-size: 12px; color: #16202b; }
.cs p { margin: 0 0 6px; color: #55606e; font-size: 10px; }
.tg { display: flex; align-items: center; padding: 4px 0; border-top: 1px solid #e6e9ee; color: #26313d; }
.tg small { display: block; font-size: 9px; color: #8a94a1; }
.sw { margin-left: auto; width: 26px; height: 14px; border-radius: 7px; background: #c4cad3; position: relative; }
.sw::after { content: ""; position: absolute; left: 2px; top: 2px; width: 10px; height: 10px; border-radius: 5px; background: #fff; }
.sw.on { background: #0b7285; }
.sw.on::after { left: 14px; }
.bt { display: flex; gap: 6px; margin-top: 6px; }
.bt span { border-radius: 5px; padding: 3px 10px; font-weight: bold; }
.bt .pri { background: #0b7285; color: #fff; }
.bt .sec { border: 1px solid #0b7285; color: #0b7285; }
</style>
<div class="cs"><h4>Cookie preferences</h4><p>We use cookies to keep you signed in and to measure what breaks.</p>
<div class="tg"><div>Necessary<small>Always on</small></div><i class="sw on"></i></div>
<div class="tg"><div>Analytics<small>Usage counts, no personal data</small></div><i class="sw on"></i></div>
<div class="tg"><div>Marketing<small>Off by default</small></div><i class="sw"></i></div>
<div class="bt"><span class="pri">Save choices</span><span class="sec">Reject all</span></div></div>
""",
    "leaderboard": """
<style>
.lb { margin: 8px 12px; font-size: 11px; border: 1px solid #dcdfe4; border-radius: 8px; overflow: hidden; }
.lb .hd { display: flex; padding: 5px 10px; background: #f4f5f7; color: #6b7280; font-size: 9px; text-transform: uppercase; }
.lb .hd span:last-child { margin-left: auto; }
.rw { display: flex; align-items: center; padding: 4px 10px; border-top: 1px solid #eceef1; color: #1f2937; }
.rk { width: 16px; font-weight: bold; color: #9ca3af; }
.rk.g { color: #b7791f; }
.bar { flex: 1; height: 5px; margin: 0 8px; border-radius: 3px; background: #e5e7eb; overflow: hidden; }
.bar i { display: block; height: 5px; background: #4f46e5; }
.pt { width: 34px; text-align: right; font-variant-numeric: tabular-nums; }
.nm { width: 70px; }
</style>
<div class="lb"><div class="hd"><span>Team</span><span>Points</span></div>
<div class="rw"><span class="rk g">1</span><span class="nm">Orbit</span><span class="bar"><i style="width:92%"></i></span><span class="pt">1,842</span></div>
<div class="rw"><span class="rk">2</span><span class="nm">Lantern</span><span class="bar"><i style="width:81%"></i></span><span class="pt" id="p2">1,615</span></div>
<div class="rw"><span class="rk">3</span><span class="nm">Quarry</span><span class="bar"><i style="width:64%"></i></span><span class="pt">1,280</span></div>
<div class="rw"><span class="rk">4</span><span class="nm">Harbor</span><span class="bar"><i style="width:47%"></i></span><span class="pt">941</span></div>
<div class="rw"><span class="rk">5</span><span class="nm">Meadow</span><span class="bar"><i style="width:30%"></i></span><span class="pt">603</span></div></div>
""",
    "playlist": """
<style>
.pl { margin: 8px 12px; font-size: 11px; border: 1px solid #e0e0e0; border-radius: 8px; }
.pl .top { display: flex; align-items: center; padding: 7px 10px; border-bottom: 1px solid #eee; }
.cv { width: 30px; height: 30px; border-radius: 4px; background: linear-gradient(135deg, #f76707, #e8590c); margin-right: 8px; }
.pl .top b { display: block; color: #212529; font-size: 12px; }
.pl .top small { color: #868e96; font-size: 9px; }
.pb { margin-left: auto; width: 22px; height: 22px; border-radius: 11px; background: #e8590c; position: relative; }
.pb::after { content: ""; position: absolute; left: 8px; top: 6px; border-left: 8px solid #fff; border-top: 5px solid transparent;
             border-bottom: 5px solid transparent; }
.tr { display: flex; padding: 3px 10px; color: #343a40; }
.tr span:first-child { width: 16px; color: #adb5bd; }
.tr em { font-style: normal; margin-left: auto; color: #868e96; font-variant-numeric: tabular-nums; }
.tr.now { color: #e8590c; font-weight: bold; }
</style>
<div class="pl"><div class="top"><i class="cv"></i><div><b>Night Drive</b><small>14 tracks &middot; 52 min</small></div><i class="pb"></i></div>
<div class="tr"><span>1</span>Coastline<em>3:41</em></div>
<div class="tr now"><span>2</span>Neon Harbour<em>4:05</em></div>
<div class="tr"><span>3</span>Low Tide<em id="d3">2:58</em></div>
<div class="tr"><span>4</span>Afterglow<em>3:22</em></div>
<div class="tr"><span>5</span>Slow Lanes<em>4:47</em></div></div>
""",
    "usage": """
<style>
.us { margin: 8px 12px; font-size: 11px; border: 1px solid #d8dde3; border-radius: 8px; padding: 8px 10px; }
.us h4 { margin: 0 0 6px; font-size: 12px; color: #1d2733; display: flex; }
.us h4 span { margin-left: auto; font-size: 10px; font-weight: normal; color: #2f6fde; }
.mt { margin-bottom: 6px; }
.mt .lb { display: flex; color: #3b4552; margin-bottom: 2px; }
.mt .lb b { margin-left: auto; font-weight: normal; color: #6c7785; }
.gauge { height: 6px; border-radius: 3px; background: #e7eaee; overflow: hidden; }
.gauge i { display: block; height: 6px; background: #2f6fde; }
.gauge i.warn { background: #e67700; }
.ft { display: flex; align-items: center; border-top: 1px solid #eceff3; padding-top: 5px; color: #6c7785; font-size: 10px; }
.ft span { margin-left: auto; border: 1px solid #2f6fde; color: #2f6fde; border-radius: 4px; padding: 1px 8px; }
</style>
<div class="us"><h4>Plan usage<span>Team plan</span></h4>
<div class="mt"><div class="lb">Snapshot storage<b>3.2 of 5 GB</b></div><div class="gauge"><i style="width:64%"></i></div></div>
<div class="mt"><div class="lb">CI minutes<b id="ci">1,870 of 2,000</b></div><div class="gauge"><i class="warn" style="width:93%"></i></div></div>
<div class="mt"><div class="lb">Seats<b>7 of 10</b></div><div class="gauge"><i style="width:70%"></i></div></div>
<div class="ft">Resets on 1 April<span>Upgrade</span></div></div>
""",
}

BLIND10_CHANGES = [
    ("activity", "word", '<time id="t2">18 min</time>', '<time id="t2">19 min</time>', "no-subpixel-pos"),
    ("activity", "text-colour", ".ev time { font-size: 9px; color: #868e96;", ".ev time { font-size: 9px; color: #767e86;",
     "hinting-none"),
    ("activity", "icon-removed", '<div class="av c">AK</div>', '<div class="av c" style="visibility:hidden">AK</div>',
     "hinting-medium"),
    ("activity", "border-removed", ".af h4 { margin: 0; padding: 6px 10px; font-size: 12px; color: #1f2933; border-bottom: 1px solid #e9ecef; }",
     ".af h4 { margin: 0; padding: 6px 10px; font-size: 12px; color: #1f2933; border-bottom: 1px solid transparent; }",
     "hinting-full"),
    ("consent", "word", "<small>Off by default</small>", "<small>On by default</small>", "lcd-text"),
    ("consent", "button-colour", ".bt .pri { background: #0b7285;", ".bt .pri { background: #0c8599;", "swiftshader"),
    ("consent", "moved-2px", '<div class="bt">', '<div class="bt" style="margin-left:2px">', "display-p3"),
    ("leaderboard", "word", '<span class="pt" id="p2">1,615</span>', '<span class="pt" id="p2">1,645</span>', "generic-rgb"),
    ("leaderboard", "text-colour", ".rk.g { color: #b7791f; }", ".rk.g { color: #c7892f; }", "jpeg-q90"),
    ("leaderboard", "moved-2px", '<span class="nm">Quarry</span>', '<span class="nm" style="padding-left:2px">Quarry</span>',
     "jpeg-q95"),
    ("playlist", "word", '<em id="d3">2:58</em>', '<em id="d3">2:56</em>', "other-machine"),
    ("playlist", "icon-removed", '<i class="pb"></i>', '<i class="pb" style="visibility:hidden"></i>', "no-subpixel-pos"),
    ("playlist", "letter-spacing", "<b>Night Drive</b>", '<b style="letter-spacing:0.3px">Night Drive</b>', "hinting-none"),
    ("usage", "word", '<b id="ci">1,870 of 2,000</b>', '<b id="ci">1,810 of 2,000</b>', "hinting-medium"),
    ("usage", "text-colour", ".mt .lb b { margin-left: auto; font-weight: normal; color: #6c7785; }",
     ".mt .lb b { margin-left: auto; font-weight: normal; color: #5c6775; }", "hinting-full"),
    ("usage", "border-removed", ".ft { display: flex; align-items: center; border-top: 1px solid #eceff3;",
     ".ft { display: flex; align-items: center; border-top: 1px solid transparent;", "lcd-text"),
    ("usage", "moved-2px", "<span>Upgrade</span>", '<span style="margin-right:2px">Upgrade</span>', "swiftshader"),
]

BLIND11_PAGES = {
    "alerts": """
<style>
.al { margin: 8px 12px; font-size: 11px; border: 1px solid #d9dde2; border-radius: 8px; overflow: hidden; }
.al .hd { display: flex; align-items: center; padding: 6px 10px; background: #f6f7f9; font-weight: bold; color: #1c2530; }
.al .hd em { margin-left: auto; font-style: normal; font-weight: normal; font-size: 9px; color: #7a8594; }
.it { display: flex; align-items: center; padding: 5px 10px; border-top: 1px solid #eceef1; color: #2d3742; }
.dot { width: 8px; height: 8px; border-radius: 4px; margin-right: 7px; }
.dot.crit { background: #e03131; } .dot.warn { background: #f59f00; } .dot.ok { background: #37b24d; }
.it span { flex: 1; }
.it code { font-size: 9px; color: #5c6774; background: #f1f3f5; border-radius: 3px; padding: 0 3px; margin-right: 6px; }
.it b { font-weight: normal; font-size: 9px; color: #8b95a1; }
.ack { margin: 6px 10px; display: inline-block; border: 1px solid #c92a2a; color: #c92a2a; border-radius: 4px; padding: 1px 8px; font-size: 10px; }
</style>
<div class="al"><div class="hd">Alerts<em>updated 09:41</em></div>
<div class="it"><i class="dot crit"></i><span>Snapshot store latency</span><code>p99</code><b id="a1">412 ms</b></div>
<div class="it"><i class="dot warn"></i><span>ARM runner queue</span><code>queue</code><b>14 jobs</b></div>
<div class="it"><i class="dot ok"></i><span>Diff workers</span><code>up</code><b>8 of 8</b></div>
<div class="it"><i class="dot warn"></i><span>Baseline disk</span><code>disk</code><b>81 %</b></div>
<span class="ack">Acknowledge all</span></div>
""",
    "wallet": """
<style>
.wl { margin: 8px 12px; font-size: 11px; }
.card { border-radius: 9px; padding: 9px 11px; color: #fff; background: linear-gradient(120deg, #364fc7, #5f3dc4); }
.card small { display: block; font-size: 9px; opacity: 0.8; }
.card strong { display: block; font-size: 17px; margin: 2px 0 5px; }
.card .no { font-size: 10px; letter-spacing: 1px; }
.tx { display: flex; padding: 4px 2px; border-bottom: 1px solid #eef0f3; color: #27303a; }
.tx i { font-style: normal; color: #8993a0; font-size: 9px; margin-left: 5px; }
.tx span { margin-left: auto; font-variant-numeric: tabular-nums; }
.tx span.in { color: #2b8a3e; }
</style>
<div class="wl"><div class="card"><small>Available balance</small><strong id="bal">&euro; 2,418.60</strong><span class="no">&bull;&bull;&bull;&bull; 4821</span></div>
<div class="tx">Grocer<i>Mon</i><span>&minus;36.20</span></div>
<div class="tx">Salary<i>Fri</i><span class="in">+2,950.00</span></div>
<div class="tx">Transit pass<i>Thu</i><span>&minus;49.00</span></div>
<div class="tx">Bookshop<i>Tue</i><span>&minus;18.75</span></div></div>
""",
    "metrics": """
<style>
.mx { margin: 8px 12px; display: grid; grid-template-columns: 1fr 1fr; gap: 6px; font-size: 10px; }
.tile { border: 1px solid #dee2e6; border-radius: 7px; padding: 6px 8px; color: #495057; }
.tile b { display: block; font-size: 16px; color: #212529; margin: 1px 0; }
.tile .up { color: #2f9e44; } .tile .down { color: #e03131; }
.spark { height: 14px; display: flex; align-items: flex-end; gap: 2px; margin-top: 3px; }
.spark i { display: block; width: 5px; background: #91a7ff; }
</style>
<div class="mx">
<div class="tile">Pairs compared<b>48,210</b><span class="up">+6.2 %</span><div class="spark"><i style="height:5px"></i><i style="height:8px"></i><i style="height:7px"></i><i style="height:11px"></i><i style="height:14px"></i></div></div>
<div class="tile">Failures<b id="fl">37</b><span class="down">+4</span><div class="spark"><i style="height:9px"></i><i style="height:6px"></i><i style="height:4px"></i><i style="height:7px"></i><i style="height:10px"></i></div></div>
<div class="tile">Median time<b>41 ms</b><span class="up">&minus;3 ms</span></div>
<div class="tile">Flaky pairs<b>2</b><span class="up">&minus;1</span></div>
</div>
""",
    "inventory": """
<style>
.iv { margin: 8px 12px; font-size: 10px; border-collapse: collapse; width: 336px; color: #2f3640; }
.iv th { text-align: left; font-size: 9px; color: #7d8793; font-weight: normal; padding: 3px 5px; border-bottom: 1px solid #d5dae0; }
.iv td { padding: 4px 5px; border-bottom: 1px solid #eef0f2; }
.iv td.n { text-align: right; font-variant-numeric: tabular-nums; }
.st { display: inline-block; width: 6px; height: 6px; border-radius: 3px; margin-right: 4px; background: #40c057; }
.st.low { background: #fab005; } .st.out { background: #fa5252; }
.sku { color: #868e96; font-size: 9px; }
</style>
<table class="iv"><tr><th>Item</th><th>SKU</th><th>Stock</th><th>Status</th></tr>
<tr><td>Desk lamp</td><td class="sku">DL-204</td><td class="n">128</td><td><i class="st"></i>In stock</td></tr>
<tr><td>Cable tray</td><td class="sku">CT-031</td><td class="n" id="s2">12</td><td><i class="st low"></i>Low</td></tr>
<tr><td>Monitor arm</td><td class="sku">MA-550</td><td class="n">0</td><td><i class="st out"></i>Out</td></tr>
<tr><td>Footrest</td><td class="sku">FR-118</td><td class="n">64</td><td><i class="st"></i>In stock</td></tr>
<tr><td>Headset hook</td><td class="sku">HH-009</td><td class="n">230</td><td><i class="st"></i>In stock</td></tr></table>
""",
    "itinerary": """
<style>
.ti { margin: 8px 12px; font-size: 11px; color: #2a323c; }
.ti h4 { margin: 0 0 5px; font-size: 12px; color: #141a21; }
.stop { display: flex; position: relative; padding: 0 0 7px 16px; }
.stop::before { content: ""; position: absolute; left: 3px; top: 3px; width: 7px; height: 7px; border-radius: 4px;
                border: 1px solid #1c7ed6; background: #fff; }
.stop.done::before { background: #1c7ed6; }
.stop::after { content: ""; position: absolute; left: 7px; top: 12px; bottom: 0; border-left: 1px solid #c5d4e3; }
.stop:last-child::after { display: none; }
.stop time { width: 38px; color: #6b7684; font-variant-numeric: tabular-nums; }
.stop small { display: block; font-size: 9px; color: #8a95a3; }
</style>
<div class="ti"><h4>Tuesday, Lisbon</h4>
<div class="stop done"><time>08:10</time><div>Check out of hotel<small>Rua Augusta 41</small></div></div>
<div class="stop done"><time>09:30</time><div>Tram 28 to Gra&ccedil;a<small>Stop: Largo da Gra&ccedil;a</small></div></div>
<div class="stop"><time id="t3">12:45</time><div>Lunch at Tasca do Chico<small>Table for two</small></div></div>
<div class="stop"><time>16:20</time><div>Train to Sintra<small>Platform 4</small></div></div></div>
""",
}

BLIND11_CHANGES = [
    ("alerts", "word", '<b id="a1">412 ms</b>', '<b id="a1">418 ms</b>', "hinting-full"),
    ("alerts", "text-colour", ".it code { font-size: 9px; color: #5c6774;", ".it code { font-size: 9px; color: #4c5764;",
     "no-subpixel-pos"),
    ("alerts", "icon-removed", '<i class="dot ok"></i>', '<i class="dot ok" style="visibility:hidden"></i>', "lcd-text"),
    ("alerts", "border-removed", ".ack { margin: 6px 10px; display: inline-block; border: 1px solid #c92a2a;",
     ".ack { margin: 6px 10px; display: inline-block; border: 1px solid transparent;", "generic-rgb"),
    ("wallet", "word", "Transit pass<i>Thu</i>", "Transit pass<i>Wed</i>", "swiftshader"),
    ("wallet", "button-colour", "background: linear-gradient(120deg, #364fc7, #5f3dc4);",
     "background: linear-gradient(120deg, #3b5bdb, #5f3dc4);", "jpeg-q95"),
    ("wallet", "moved-2px", '<div class="tx">Bookshop', '<div class="tx" style="padding-left:4px">Bookshop', "hinting-medium"),
    ("metrics", "word", '<b id="fl">37</b>', '<b id="fl">31</b>', "other-machine"),
    ("metrics", "text-colour", ".tile .up { color: #2f9e44; }", ".tile .up { color: #37b24d; }", "display-p3"),
    ("metrics", "letter-spacing", "Median time<b>", '<span style="letter-spacing:0.3px">Median time</span><b>', "hinting-none"),
    ("metrics", "icon-removed", '<i style="height:14px"></i>', '<i style="height:14px;visibility:hidden"></i>', "jpeg-q90"),
    ("inventory", "word", '<td class="n" id="s2">12</td>', '<td class="n" id="s2">17</td>', "lcd-text"),
    ("inventory", "text-colour", ".sku { color: #868e96;", ".sku { color: #767e86;", "hinting-medium"),
    ("inventory", "moved-2px", "<td>Footrest</td>", '<td style="padding-left:7px">Footrest</td>', "no-subpixel-pos"),
    ("itinerary", "word", '<time id="t3">12:45</time>', '<time id="t3">12:15</time>', "hinting-none"),
    ("itinerary", "border-removed", 'bottom: 0; border-left: 1px solid #c5d4e3; }',
     'bottom: 0; border-left: 1px solid transparent; }',
     "swiftshader"),
    ("itinerary", "letter-spacing", "<h4>Tuesday, Lisbon</h4>", '<h4 style="letter-spacing:0.3px">Tuesday, Lisbon</h4>',
     "other-machine"),
]

BLIND12_PAGES = {
    "timesheet": """
<style>
.ts { margin: 8px 12px; font-size: 10px; color: #2b333d; }
.ts h4 { margin: 0 0 4px; font-size: 12px; color: #11181f; }
.row { display: grid; grid-template-columns: 90px repeat(5, 1fr) 40px; border-bottom: 1px solid #e6e9ed; padding: 3px 0; }
.row.hd { color: #828c98; font-size: 9px; border-bottom: 1px solid #cfd5dc; }
.row span { text-align: center; font-variant-numeric: tabular-nums; }
.row span.off { color: #b9c0c8; }
.row b { text-align: right; font-weight: bold; }
.sub { margin-top: 6px; display: inline-block; background: #0b7285; color: #fff; border-radius: 4px; padding: 2px 9px; }
</style>
<div class="ts"><h4>Week 48 timesheet</h4>
<div class="row hd"><i></i><span>Mon</span><span>Tue</span><span>Wed</span><span>Thu</span><span>Fri</span><b>Sum</b></div>
<div class="row"><i>Snapshot infra</i><span>3.5</span><span>4.0</span><span class="off">0</span><span>2.5</span><span>3.0</span><b id="h1">13.0</b></div>
<div class="row"><i>Code review</i><span>1.0</span><span>1.5</span><span>2.0</span><span>1.0</span><span>0.5</span><b>6.0</b></div>
<div class="row"><i>CI runners</i><span>2.0</span><span class="off">0</span><span>4.5</span><span>3.0</span><span>2.5</span><b>12.0</b></div>
<span class="sub">Submit for approval</span></div>
""",
    "shipment": """
<style>
.sh { margin: 8px 12px; font-size: 11px; color: #27313b; border: 1px solid #d8dde3; border-radius: 8px; padding: 8px 10px; }
.sh .no { font-size: 9px; color: #7b8692; }
.sh strong { display: block; font-size: 14px; margin: 2px 0 6px; color: #0f1720; }
.bar { display: flex; gap: 3px; margin-bottom: 6px; }
.bar i { flex: 1; height: 4px; border-radius: 2px; background: #dee2e6; }
.bar i.on { background: #2f9e44; }
.ev { display: flex; font-size: 10px; padding: 2px 0; color: #44505c; }
.ev time { width: 46px; color: #8a94a0; font-variant-numeric: tabular-nums; }
.pin { display: inline-block; width: 7px; height: 7px; border-radius: 50%; background: #e8590c; margin-right: 5px; vertical-align: middle; }
</style>
<div class="sh"><span class="no">Parcel JD014 600 218 GB</span><strong id="eta">Arrives Thursday</strong>
<div class="bar"><i class="on"></i><i class="on"></i><i class="on"></i><i></i></div>
<div class="ev"><time>07:52</time><span><i class="pin"></i>Out for delivery, Leeds</span></div>
<div class="ev"><time>02:15</time><span>Arrived at depot</span></div>
<div class="ev"><time>21:40</time><span>Left sorting centre, Crick</span></div></div>
""",
    "podcast": """
<style>
.pc { margin: 8px 12px; font-size: 11px; color: #2c2f36; }
.ep { display: flex; align-items: center; padding: 5px 0; border-bottom: 1px solid #eceef2; }
.art { width: 26px; height: 26px; border-radius: 5px; margin-right: 8px; background: linear-gradient(135deg, #ae3ec9, #f76707); }
.ep div { flex: 1; }
.ep small { display: block; font-size: 9px; color: #868e96; }
.ep .len { font-size: 9px; color: #5f6772; border: 1px solid #ced4da; border-radius: 9px; padding: 0 6px; }
.play { display: inline-block; margin-top: 6px; width: 0; height: 0; border-left: 9px solid #5f3dc4;
        border-top: 6px solid transparent; border-bottom: 6px solid transparent; }
</style>
<div class="pc">
<div class="ep"><i class="art"></i><div>Pixels that lie<small>Episode 41 &middot; Nov 28</small></div><span class="len">38 min</span></div>
<div class="ep"><i class="art"></i><div>Hinting, explained<small>Episode 40 &middot; Nov 21</small></div><span class="len" id="l2">44 min</span></div>
<div class="ep"><i class="art"></i><div>Snapshots at scale<small>Episode 39 &middot; Nov 14</small></div><span class="len">51 min</span></div>
<i class="play"></i></div>
""",
    "budget": """
<style>
.bd { margin: 8px 12px; font-size: 10px; color: #343a40; }
.ln { display: flex; align-items: center; margin-bottom: 5px; }
.ln span { width: 74px; }
.ln .tr { flex: 1; height: 8px; background: #f1f3f5; border-radius: 4px; overflow: hidden; margin: 0 6px; }
.ln .tr i { display: block; height: 8px; background: #4c6ef5; }
.ln .tr i.over { background: #f03e3e; }
.ln b { width: 48px; text-align: right; font-weight: normal; font-variant-numeric: tabular-nums; }
.tot { border-top: 1px solid #ced4da; padding-top: 4px; display: flex; font-weight: bold; }
.tot em { margin-left: auto; font-style: normal; }
</style>
<div class="bd">
<div class="ln"><span>Housing</span><div class="tr"><i style="width:72%"></i></div><b>1,150</b></div>
<div class="ln"><span>Groceries</span><div class="tr"><i style="width:58%"></i></div><b id="g">412</b></div>
<div class="ln"><span>Transport</span><div class="tr"><i class="over" style="width:100%"></i></div><b>236</b></div>
<div class="ln"><span>Leisure</span><div class="tr"><i style="width:31%"></i></div><b>94</b></div>
<div class="tot">Total spent<em>1,892 of 2,100</em></div></div>
""",
    "roster": """
<style>
.ro { margin: 8px 12px; font-size: 11px; color: #262d35; }
.ro h4 { margin: 0 0 5px; font-size: 11px; text-transform: uppercase; letter-spacing: 0.5px; color: #6c7681; }
.pp { display: flex; align-items: center; padding: 3px 0; }
.av { width: 20px; height: 20px; border-radius: 10px; margin-right: 7px; color: #fff; font-size: 9px; text-align: center; line-height: 20px; }
.pp span { flex: 1; }
.tag { font-size: 9px; border-radius: 3px; padding: 0 4px; background: #e7f5ff; color: #1864ab; }
.tag.lead { background: #fff4e6; color: #d9480f; }
.on { width: 6px; height: 6px; border-radius: 3px; background: #40c057; margin-left: 6px; }
</style>
<div class="ro"><h4>On call this week</h4>
<div class="pp"><i class="av" style="background:#1971c2">AK</i><span>Ada Kovacs</span><em class="tag lead">lead</em><i class="on"></i></div>
<div class="pp"><i class="av" style="background:#2b8a3e">RM</i><span id="p2">Ravi Menon</span><em class="tag">backend</em><i class="on"></i></div>
<div class="pp"><i class="av" style="background:#862e9c">LS</i><span>Lena Sato</span><em class="tag">mobile</em></div>
<div class="pp"><i class="av" style="background:#c92a2a">TO</i><span>Tom Okafor</span><em class="tag">infra</em><i class="on"></i></div></div>
""",
}

BLIND12_CHANGES = [
    ("timesheet", "word", '<b id="h1">13.0</b>', '<b id="h1">18.0</b>', "hinting-medium"),
    ("timesheet", "text-colour", ".row span.off { color: #b9c0c8; }", ".row span.off { color: #a9b0b8; }", "jpeg-q95"),
    ("timesheet", "button-colour", ".sub { margin-top: 6px; display: inline-block; background: #0b7285;",
     ".sub { margin-top: 6px; display: inline-block; background: #0c8599;", "no-subpixel-pos"),
    ("timesheet", "border-removed", ".row.hd { color: #828c98; font-size: 9px; border-bottom: 1px solid #cfd5dc; }",
     ".row.hd { color: #828c98; font-size: 9px; border-bottom: 1px solid transparent; }", "other-machine"),
    ("shipment", "word", '<strong id="eta">Arrives Thursday</strong>', '<strong id="eta">Arrives Tuesday</strong>',
     "lcd-text"),
    ("shipment", "icon-removed", '<i class="pin"></i>', '<i class="pin" style="visibility:hidden"></i>', "hinting-full"),
    ("shipment", "moved-2px", '<div class="ev"><time>02:15</time>', '<div class="ev" style="padding-left:2px"><time>02:15</time>',
     "display-p3"),
    ("podcast", "word", '<span class="len" id="l2">44 min</span>', '<span class="len" id="l2">47 min</span>', "hinting-none"),
    ("podcast", "border-removed", ".ep .len { font-size: 9px; color: #5f6772; border: 1px solid #ced4da;",
     ".ep .len { font-size: 9px; color: #5f6772; border: 1px solid transparent;", "jpeg-q90"),
    ("podcast", "letter-spacing", "Snapshots at scale<small>", '<span style="letter-spacing:0.3px">Snapshots at scale</span><small>',
     "swiftshader"),
    ("budget", "word", '<b id="g">412</b>', '<b id="g">419</b>', "other-machine"),
    ("budget", "text-colour", ".tot { border-top: 1px solid #ced4da; padding-top: 4px; display: flex; font-weight: bold; }",
     ".tot { border-top: 1px solid #ced4da; padding-top: 4px; display: flex; font-weight: bold; color: #495057; }",
     "hinting-full"),
    ("budget", "moved-2px", '<div class="ln"><span>Leisure</span>', '<div class="ln" style="margin-left:2px"><span>Leisure</span>',
     "generic-rgb"),
    ("roster", "word", '<span id="p2">Ravi Menon</span>', '<span id="p2">Ravi Meron</span>', "no-subpixel-pos"),
    ("roster", "text-colour", ".tag { font-size: 9px; border-radius: 3px; padding: 0 4px; background: #e7f5ff; color: #1864ab; }",
     ".tag { font-size: 9px; border-radius: 3px; padding: 0 4px; background: #e7f5ff; color: #1c7ed6; }", "lcd-text"),
    ("roster", "icon-removed", '<em class="tag">infra</em><i class="on"></i>',
     '<em class="tag">infra</em><i class="on" style="visibility:hidden"></i>', "display-p3"),
    ("roster", "letter-spacing", "<h4>On call this week</h4>", '<h4 style="letter-spacing:0.8px">On call this week</h4>',
     "hinting-medium"),
]

BLIND13_PAGES = {
    "ledger": """
<style>
.lg { margin: 8px 12px; font-size: 10px; color: #2d3339; }
.lg h4 { margin: 0 0 4px; font-size: 12px; color: #14191e; }
.tx { display: flex; padding: 3px 0; border-bottom: 1px dashed #dde1e5; }
.tx time { width: 44px; color: #8d959e; font-variant-numeric: tabular-nums; }
.tx span { flex: 1; }
.tx b { width: 60px; text-align: right; font-weight: normal; font-variant-numeric: tabular-nums; }
.tx b.in { color: #2b8a3e; }
.bal { margin-top: 5px; display: flex; font-weight: bold; font-size: 11px; }
.bal em { margin-left: auto; font-style: normal; }
</style>
<div class="lg"><h4>Operating account</h4>
<div class="tx"><time>Nov 30</time><span>Runner minutes</span><b>-184.20</b></div>
<div class="tx"><time>Nov 29</time><span>Refund, storage</span><b class="in">+36.00</b></div>
<div class="tx"><time>Nov 27</time><span>Artefact hosting</span><b id="a3">-52.75</b></div>
<div class="tx"><time>Nov 25</time><span>Monitoring seats</span><b>-90.00</b></div>
<div class="bal">Balance<em>4,208.35</em></div></div>
""",
    "sprint": """
<style>
.sp { margin: 8px 12px; font-size: 11px; color: #25292e; }
.sp .hd { display: flex; align-items: baseline; margin-bottom: 6px; }
.sp .hd strong { font-size: 13px; }
.sp .hd small { margin-left: 8px; color: #7c848d; font-size: 9px; }
.card { border: 1px solid #d9dee3; border-left: 3px solid #7048e8; border-radius: 4px; padding: 4px 7px; margin-bottom: 5px; }
.card.bug { border-left-color: #e03131; }
.card p { margin: 0 0 2px; }
.card .pts { display: inline-block; font-size: 9px; background: #f1f3f5; color: #495057; border-radius: 7px; padding: 0 5px; }
.card .who { float: right; width: 14px; height: 14px; border-radius: 7px; background: #ffa94d; }
</style>
<div class="sp"><div class="hd"><strong>Sprint 31</strong><small>6 days left</small></div>
<div class="card"><i class="who"></i><p>Shard suites across runners</p><span class="pts">5 pts</span></div>
<div class="card bug"><i class="who"></i><p id="c2">Blend off by one at 16 bits</p><span class="pts">2 pts</span></div>
<div class="card"><p>Review loop in the browser</p><span class="pts">8 pts</span></div></div>
""",
    "thermostat": """
<style>
.th { margin: 8px 12px; font-size: 11px; color: #2a2f35; display: flex; align-items: center; }
.dial { width: 84px; height: 84px; border-radius: 50%; border: 6px solid #ffd8a8; border-top-color: #fd7e14;
        display: flex; align-items: center; justify-content: center; margin-right: 14px; }
.dial b { font-size: 22px; font-weight: normal; }
.dial sup { font-size: 10px; color: #868e96; }
.mode { display: block; margin-bottom: 4px; padding: 2px 8px; border-radius: 10px; border: 1px solid #dee2e6; color: #495057; }
.mode.on { background: #fff4e6; border-color: #ffc078; color: #d9480f; }
.sched { font-size: 9px; color: #7d868f; margin-top: 6px; }
</style>
<div class="th"><div class="dial"><b id="t">21.5</b><sup>&deg;C</sup></div>
<div><span class="mode on">Heating</span><span class="mode">Eco</span><span class="mode">Away</span>
<div class="sched">Next: 18.0 at 23:00</div></div></div>
""",
    "library": """
<style>
.lb { margin: 8px 12px; font-size: 11px; color: #2b3036; }
.bk { display: flex; padding: 4px 0; border-bottom: 1px solid #edf0f2; }
.cover { width: 22px; height: 30px; margin-right: 8px; border-radius: 2px; background: #364fc7; }
.cover.b { background: #0ca678; }
.cover.c { background: #e8590c; }
.bk div { flex: 1; }
.bk small { display: block; font-size: 9px; color: #818a93; }
.due { font-size: 9px; color: #5c6670; align-self: center; }
.due.late { color: #c92a2a; font-weight: bold; }
</style>
<div class="lb">
<div class="bk"><i class="cover"></i><div>The Art of Rendering<small>M. Okoro</small></div><span class="due">Due Dec 9</span></div>
<div class="bk"><i class="cover b"></i><div>Colour, Measured<small id="au">R. Lindqvist</small></div><span class="due late">Overdue</span></div>
<div class="bk"><i class="cover c"></i><div>Fonts on Screens<small>H. Tanaka</small></div><span class="due">Due Dec 20</span></div></div>
""",
    "exchange": """
<style>
.ex { margin: 8px 12px; font-size: 11px; color: #24292f; }
.pair { display: grid; grid-template-columns: 60px 1fr 54px; align-items: center; padding: 3px 0; }
.pair b { font-weight: normal; font-variant-numeric: tabular-nums; text-align: right; }
.pair .up { color: #2f9e44; font-size: 9px; text-align: right; }
.pair .down { color: #e03131; font-size: 9px; text-align: right; }
.spark { height: 1px; background: #adb5bd; margin: 0 8px; }
.ex .note { margin-top: 6px; font-size: 9px; color: #8a929b; border-top: 1px solid #e9ecef; padding-top: 4px; }
</style>
<div class="ex">
<div class="pair"><span>EUR/USD</span><i class="spark"></i><b>1.0842</b></div>
<div class="pair"><span></span><i></i><span class="up">+0.12%</span></div>
<div class="pair"><span>GBP/USD</span><i class="spark"></i><b id="r2">1.2716</b></div>
<div class="pair"><span></span><i></i><span class="down">-0.31%</span></div>
<div class="pair"><span>USD/JPY</span><i class="spark"></i><b>149.08</b></div>
<div class="note">Mid-market rates, 15 minutes delayed</div></div>
""",
}

BLIND13_CHANGES = [
    ("ledger", "word", '<b id="a3">-52.75</b>', '<b id="a3">-62.75</b>', "hinting-full"),
    ("ledger", "text-colour", ".tx time { width: 44px; color: #8d959e;", ".tx time { width: 44px; color: #7d858e;", "other-machine"),
    ("ledger", "border-removed", ".tx { display: flex; padding: 3px 0; border-bottom: 1px dashed #dde1e5; }",
     ".tx { display: flex; padding: 3px 0; border-bottom: 1px dashed transparent; }", "jpeg-q90"),
    ("sprint", "word", '<p id="c2">Blend off by one at 16 bits</p>', '<p id="c2">Blend off by one at 8 bits</p>', "lcd-text"),
    ("sprint", "button-colour", ".card .pts { display: inline-block; font-size: 9px; background: #f1f3f5;",
     ".card .pts { display: inline-block; font-size: 9px; background: #e9ecef;", "hinting-medium"),
    ("sprint", "icon-removed", '<div class="card bug"><i class="who"></i>', '<div class="card bug"><i class="who" style="visibility:hidden"></i>',
     "display-p3"),
    ("sprint", "moved-2px", "<p>Review loop in the browser</p>", '<p style="margin-left:2px">Review loop in the browser</p>',
     "hinting-none"),
    ("thermostat", "word", '<b id="t">21.5</b>', '<b id="t">21.0</b>', "no-subpixel-pos"),
    ("thermostat", "text-colour", ".sched { font-size: 9px; color: #7d868f;", ".sched { font-size: 9px; color: #6d767f;", "jpeg-q95"),
    ("thermostat", "letter-spacing", '<span class="mode">Eco</span>', '<span class="mode" style="letter-spacing:0.6px">Eco</span>',
     "swiftshader"),
    ("library", "word", '<small id="au">R. Lindqvist</small>', '<small id="au">R. Lindquist</small>', "other-machine"),
    ("library", "icon-removed", '<i class="cover c"></i>', '<i class="cover c" style="visibility:hidden"></i>', "generic-rgb"),
    ("library", "text-colour", ".due.late { color: #c92a2a;", ".due.late { color: #e03131;", "hinting-full"),
    ("exchange", "word", '<b id="r2">1.2716</b>', '<b id="r2">1.2746</b>', "hinting-medium"),
    ("exchange", "border-removed", ".ex .note { margin-top: 6px; font-size: 9px; color: #8a929b; border-top: 1px solid #e9ecef;",
     ".ex .note { margin-top: 6px; font-size: 9px; color: #8a929b; border-top: 1px solid transparent;", "lcd-text"),
    ("exchange", "moved-2px", '<div class="pair"><span>USD/JPY</span>', '<div class="pair" style="margin-left:2px"><span>USD/JPY</span>',
     "no-subpixel-pos"),
    ("exchange", "letter-spacing", "Mid-market rates, 15 minutes delayed",
     '<span style="letter-spacing:0.3px">Mid-market rates, 15 minutes delayed</span>', "hinting-none"),
]

BLIND14_PAGES = {
    "forecast": """
<style>
.fc { margin: 8px 12px; font-size: 11px; color: #262b30; }
.fc h4 { margin: 0 0 5px; font-size: 12px; }
.fc h4 small { font-weight: normal; color: #7f8891; font-size: 9px; margin-left: 6px; }
.day { display: grid; grid-template-columns: 34px 18px 1fr 28px 28px; align-items: center; padding: 2px 0;
       border-bottom: 1px solid #eef1f3; }
.sun { width: 12px; height: 12px; border-radius: 6px; background: #fab005; }
.rain { width: 12px; height: 8px; border-radius: 4px; background: #74c0fc; }
.bar { height: 4px; border-radius: 2px; background: linear-gradient(90deg, #4dabf7, #ff922b); margin: 0 6px; }
.lo { color: #6c757d; text-align: right; }
.hi { text-align: right; }
</style>
<div class="fc"><h4>Lisbon<small>updated 07:40</small></h4>
<div class="day"><span>Mon</span><i class="sun"></i><i class="bar"></i><span class="lo">11&deg;</span><span class="hi" id="h1">19&deg;</span></div>
<div class="day"><span>Tue</span><i class="rain"></i><i class="bar"></i><span class="lo">12&deg;</span><span class="hi">17&deg;</span></div>
<div class="day"><span>Wed</span><i class="sun"></i><i class="bar"></i><span class="lo">10&deg;</span><span class="hi">18&deg;</span></div>
<div class="day"><span>Thu</span><i class="rain"></i><i class="bar"></i><span class="lo">9&deg;</span><span class="hi">15&deg;</span></div></div>
""",
    "checkout": """
<style>
.co { margin: 8px 12px; font-size: 11px; color: #212529; }
.line { display: flex; align-items: center; padding: 4px 0; border-bottom: 1px solid #e9ecef; }
.thumb { width: 20px; height: 20px; border-radius: 3px; background: #be4bdb; margin-right: 8px; }
.thumb.g { background: #20c997; }
.line span { flex: 1; }
.line em { font-style: normal; color: #868e96; font-size: 9px; margin-right: 10px; }
.line b { font-weight: normal; font-variant-numeric: tabular-nums; }
.sum { display: flex; margin-top: 5px; font-size: 9px; color: #6a737c; }
.sum b { margin-left: auto; font-weight: normal; }
.pay { margin-top: 6px; text-align: center; padding: 4px 0; border-radius: 4px; background: #1c7ed6; color: #fff; font-weight: bold; }
</style>
<div class="co">
<div class="line"><i class="thumb"></i><span>Desk lamp</span><em>x1</em><b>39.90</b></div>
<div class="line"><i class="thumb g"></i><span id="i2">Cable tray</span><em>x2</em><b>24.00</b></div>
<div class="sum">Shipping<b>4.50</b></div>
<div class="sum">Total<b>68.40</b></div>
<div class="pay">Pay now</div></div>
""",
    "joblog": """
<style>
.jl { margin: 8px 12px; font-size: 10px; color: #2c3136; }
.jl h4 { margin: 0 0 4px; font-size: 12px; }
.step { display: flex; align-items: center; padding: 2px 0; }
.dot { width: 8px; height: 8px; border-radius: 4px; background: #40c057; margin-right: 6px; }
.dot.fail { background: #fa5252; }
.step span { flex: 1; }
.step time { color: #8b939b; font-variant-numeric: tabular-nums; }
.log { margin-top: 5px; padding: 4px 6px; background: #f8f9fa; border: 1px solid #e3e7ea; font-family: monospace; font-size: 9px; color: #495057; }
</style>
<div class="jl"><h4>build-linux #412</h4>
<div class="step"><i class="dot"></i><span>Check out</span><time>0:03</time></div>
<div class="step"><i class="dot"></i><span>Resolve packages</span><time>0:41</time></div>
<div class="step"><i class="dot fail"></i><span id="s3">Run tests</span><time>6:12</time></div>
<div class="log">XCTAssertEqual failed: 3 != 4</div></div>
""",
    "agenda": """
<style>
.ag { margin: 8px 12px; font-size: 11px; color: #272c31; }
.slot { display: flex; padding: 3px 0; }
.slot time { width: 38px; color: #858d96; font-size: 9px; padding-top: 1px; }
.ev { flex: 1; padding: 2px 6px; border-radius: 3px; background: #e7f5ff; border-left: 2px solid #339af0; }
.ev.busy { background: #fff0f6; border-left-color: #e64980; }
.ev small { display: block; color: #6f7881; font-size: 9px; }
</style>
<div class="ag">
<div class="slot"><time>09:00</time><div class="ev">Stand-up<small>Room 2</small></div></div>
<div class="slot"><time>10:30</time><div class="ev busy" id="e2">Design review<small>Video call</small></div></div>
<div class="slot"><time>13:00</time><div class="ev">Pairing: tune v2<small>Desk 14</small></div></div></div>
""",
    "player": """
<style>
.pl { margin: 8px 12px; font-size: 11px; color: #24292e; display: flex; align-items: center; }
.art { width: 56px; height: 56px; border-radius: 4px; background: linear-gradient(135deg, #5f3dc4, #e64980); margin-right: 10px; }
.pl strong { display: block; font-size: 12px; }
.pl .by { color: #7b838c; font-size: 9px; }
.track { height: 3px; background: #dee2e6; border-radius: 2px; margin: 6px 0 2px; width: 180px; }
.track i { display: block; height: 3px; width: 40%; background: #5f3dc4; border-radius: 2px; }
.times { display: flex; width: 180px; font-size: 9px; color: #868e96; }
.times span:last-child { margin-left: auto; }
</style>
<div class="pl"><div class="art"></div><div><strong id="tt">Night Drive</strong><span class="by">Lumen Quartet</span>
<div class="track"><i></i></div><div class="times"><span>1:24</span><span>3:51</span></div></div></div>
""",
}

BLIND14_CHANGES = [
    ("forecast", "word", '<span class="hi" id="h1">19&deg;</span>', '<span class="hi" id="h1">18&deg;</span>', "other-machine"),
    ("forecast", "text-colour", ".lo { color: #6c757d;", ".lo { color: #5c656d;", "hinting-full"),
    ("forecast", "icon-removed", '<span>Tue</span><i class="rain"></i>', '<span>Tue</span><i class="rain" style="visibility:hidden"></i>',
     "jpeg-q95"),
    ("checkout", "word", '<span id="i2">Cable tray</span>', '<span id="i2">Cable trays</span>', "hinting-medium"),
    ("checkout", "button-colour", ".pay { margin-top: 6px; text-align: center; padding: 4px 0; border-radius: 4px; background: #1c7ed6;",
     ".pay { margin-top: 6px; text-align: center; padding: 4px 0; border-radius: 4px; background: #1971c2;", "display-p3"),
    ("checkout", "border-removed", ".line { display: flex; align-items: center; padding: 4px 0; border-bottom: 1px solid #e9ecef; }",
     ".line { display: flex; align-items: center; padding: 4px 0; border-bottom: 1px solid transparent; }", "lcd-text"),
    ("checkout", "moved-2px", '<div class="sum">Shipping', '<div class="sum" style="margin-left:2px">Shipping', "hinting-none"),
    ("joblog", "word", '<span id="s3">Run tests</span>', '<span id="s3">Run test</span>', "no-subpixel-pos"),
    ("joblog", "text-colour", ".step time { color: #8b939b;", ".step time { color: #7b838b;", "other-machine"),
    ("joblog", "letter-spacing", "XCTAssertEqual failed: 3 != 4", '<span style="letter-spacing:0.4px">XCTAssertEqual failed: 3 != 4</span>',
     "swiftshader"),
    ("agenda", "word", "Pairing: tune v2", "Pairing: tune v3", "hinting-full"),
    ("agenda", "button-colour", ".ev { flex: 1; padding: 2px 6px; border-radius: 3px; background: #e7f5ff;",
     ".ev { flex: 1; padding: 2px 6px; border-radius: 3px; background: #d0ebff;", "jpeg-q90"),
    ("agenda", "moved-2px", '<div class="ev busy" id="e2">', '<div class="ev busy" id="e2" style="margin-left:2px">', "lcd-text"),
    ("player", "word", '<span class="by">Lumen Quartet</span>', '<span class="by">Lumen Quintet</span>', "hinting-medium"),
    ("player", "text-colour", ".times { display: flex; width: 180px; font-size: 9px; color: #868e96; }",
     ".times { display: flex; width: 180px; font-size: 9px; color: #767e86; }", "generic-rgb"),
    ("player", "letter-spacing", '<strong id="tt">Night Drive</strong>', '<strong id="tt" style="letter-spacing:0.5px">Night Drive</strong>',
     "no-subpixel-pos"),
    ("player", "border-removed", ".track { height: 3px; background: #dee2e6;", ".track { height: 3px; background: transparent;",
     "hinting-none"),
]

BLIND15_PAGES = {
    "repo": """
<style>
.rp { margin: 8px 12px; font-size: 11px; color: #1f2328; }
.rp h4 { margin: 0 0 3px; font-size: 13px; font-weight: normal; }
.rp h4 b { font-weight: bold; }
.rp p { margin: 0 0 6px; color: #656d76; font-size: 10px; }
.chips { display: flex; gap: 6px; margin-bottom: 6px; }
.chip { padding: 1px 6px; border: 1px solid #d0d7de; border-radius: 10px; font-size: 9px; color: #24292f; background: #f6f8fa; }
.lang { display: flex; height: 6px; border-radius: 3px; overflow: hidden; margin-bottom: 4px; }
.lang i { display: block; }
.legend { font-size: 9px; color: #57606a; }
.legend span { margin-right: 10px; }
</style>
<div class="rp"><h4>imgdiff / <b>imgdiff</b></h4><p id="d">Image diffs for snapshot tests and CI</p>
<div class="chips"><span class="chip">Stars 1.2k</span><span class="chip" id="f">Forks 86</span><span class="chip">Issues 14</span></div>
<div class="lang"><i style="width:71%;background:#f05138"></i><i style="width:18%;background:#555555"></i><i style="width:11%;background:#3572a5"></i></div>
<div class="legend"><span>Swift 71%</span><span>C 18%</span><span>Python 11%</span></div></div>
""",
    "fitness": """
<style>
.ft { margin: 8px 12px; font-size: 11px; color: #212529; display: flex; gap: 14px; }
.ring { width: 54px; height: 54px; border-radius: 27px; border: 6px solid #ff6b6b; border-right-color: #ffe3e3;
        box-sizing: border-box; }
.stats div { margin-bottom: 4px; }
.stats b { font-size: 13px; margin-right: 3px; }
.stats small { color: #7d858d; font-size: 9px; }
.goal { color: #2b8a3e; font-size: 9px; }
</style>
<div class="ft"><div class="ring"></div><div class="stats">
<div><b id="st">8,412</b><small>steps</small></div>
<div><b>5.9</b><small>km walked</small></div>
<div><b>41</b><small>active minutes</small></div>
<div class="goal">Goal reached 4 days in a row</div></div></div>
""",
    "storage": """
<style>
.sg { margin: 8px 12px; font-size: 10px; color: #25282b; width: 300px; }
.sg h4 { margin: 0 0 4px; font-size: 12px; }
.used { display: flex; height: 8px; border-radius: 4px; overflow: hidden; background: #e9ecef; margin-bottom: 5px; }
.used i { display: block; }
.row { display: flex; padding: 2px 0; border-bottom: 1px solid #f1f3f5; }
.row span { flex: 1; }
.sw { width: 8px; height: 8px; border-radius: 2px; margin: 2px 6px 0 0; }
.row em { font-style: normal; color: #80878e; }
.free { margin-top: 4px; color: #5f676e; font-size: 9px; }
</style>
<div class="sg"><h4>Storage</h4>
<div class="used"><i style="width:38%;background:#7048e8"></i><i style="width:21%;background:#1098ad"></i><i style="width:9%;background:#f59f00"></i></div>
<div class="row"><i class="sw" style="background:#7048e8"></i><span>Photos</span><em>48.2 GB</em></div>
<div class="row"><i class="sw" style="background:#1098ad"></i><span id="a">Apps</span><em>26.5 GB</em></div>
<div class="row"><i class="sw" style="background:#f59f00"></i><span>Documents</span><em>11.3 GB</em></div>
<div class="free">40.0 GB free of 128 GB</div></div>
""",
    "invite": """
<style>
.iv { margin: 8px 12px; font-size: 11px; color: #1e2125; width: 260px; }
.iv h4 { margin: 0 0 6px; font-size: 12px; }
.iv label { display: block; font-size: 9px; color: #6b737b; margin-bottom: 2px; }
.iv .in { border: 1px solid #ced4da; border-radius: 3px; padding: 3px 5px; margin-bottom: 6px; }
.roles { display: flex; gap: 4px; margin-bottom: 8px; }
.roles span { flex: 1; text-align: center; padding: 2px 0; border: 1px solid #dee2e6; border-radius: 3px; font-size: 9px; }
.roles .on { border-color: #4263eb; color: #4263eb; background: #edf2ff; }
.send { text-align: center; padding: 4px 0; border-radius: 4px; background: #4263eb; color: #fff; }
</style>
<div class="iv"><h4>Invite to workspace</h4><label>Email address</label><div class="in" id="em">grace@harbor.dev</div>
<div class="roles"><span>Viewer</span><span class="on">Editor</span><span>Admin</span></div>
<div class="send">Send invite</div></div>
""",
    "transit": """
<style>
.tr { margin: 8px 12px; font-size: 11px; color: #22272b; }
.tr h4 { margin: 0 0 4px; font-size: 12px; }
.dep { display: flex; align-items: center; padding: 3px 0; border-bottom: 1px solid #eceff1; }
.ln { width: 22px; text-align: center; border-radius: 3px; color: #fff; font-size: 9px; font-weight: bold; margin-right: 8px; padding: 1px 0; }
.dep span { flex: 1; }
.dep time { font-variant-numeric: tabular-nums; }
.dep small { color: #868e96; font-size: 9px; margin-left: 6px; }
.late { color: #e03131; }
</style>
<div class="tr"><h4>Stop: Market Square</h4>
<div class="dep"><i class="ln" style="background:#1971c2">12</i><span>Harbour</span><time>4 min</time><small>Pl. 2</small></div>
<div class="dep"><i class="ln" style="background:#2f9e44">7</i><span id="d2">University</span><time>9 min</time><small>Pl. 1</small></div>
<div class="dep"><i class="ln" style="background:#f08c00">31</i><span>Airport</span><time class="late">16 min</time><small>Pl. 3</small></div></div>
""",
}

BLIND15_CHANGES = [
    ("repo", "word", '<span class="chip" id="f">Forks 86</span>', '<span class="chip" id="f">Forks 88</span>', "no-subpixel-pos"),
    ("repo", "text-colour", ".rp p { margin: 0 0 6px; color: #656d76;", ".rp p { margin: 0 0 6px; color: #555d66;", "hinting-none"),
    ("repo", "border-removed", ".chip { padding: 1px 6px; border: 1px solid #d0d7de;", ".chip { padding: 1px 6px; border: 1px solid transparent;",
     "hinting-medium"),
    ("repo", "letter-spacing", '<p id="d">Image diffs', '<p id="d" style="letter-spacing:0.4px">Image diffs', "hinting-full"),
    ("fitness", "word", '<b id="st">8,412</b>', '<b id="st">8,442</b>', "lcd-text"),
    ("fitness", "text-colour", ".goal { color: #2b8a3e;", ".goal { color: #237032;", "swiftshader"),
    ("fitness", "moved-2px", '<div class="stats">', '<div class="stats" style="margin-top:2px">', "display-p3"),
    ("storage", "word", '<span id="a">Apps</span>', '<span id="a">Games</span>', "generic-rgb"),
    ("storage", "button-colour", 'width:9%;background:#f59f00"', 'width:9%;background:#f08c00"', "jpeg-q90"),
    ("storage", "border-removed", ".row { display: flex; padding: 2px 0; border-bottom: 1px solid #f1f3f5; }",
     ".row { display: flex; padding: 2px 0; border-bottom: 1px solid transparent; }", "jpeg-q95"),
    ("invite", "word", '<div class="in" id="em">grace@harbor.dev</div>', '<div class="in" id="em">grace@harbor.de</div>',
     "other-machine"),
    ("invite", "button-colour", ".send { text-align: center; padding: 4px 0; border-radius: 4px; background: #4263eb;",
     ".send { text-align: center; padding: 4px 0; border-radius: 4px; background: #3b5bdb;", "no-subpixel-pos"),
    ("invite", "letter-spacing", "<h4>Invite to workspace</h4>", '<h4 style="letter-spacing:0.4px">Invite to workspace</h4>',
     "hinting-none"),
    ("transit", "word", "<time>9 min</time>", "<time>8 min</time>", "hinting-medium"),
    ("transit", "text-colour", ".dep small { color: #868e96;", ".dep small { color: #767e86;", "hinting-full"),
    ("transit", "icon-removed", '<i class="ln" style="background:#2f9e44">7</i>',
     '<i class="ln" style="background:#2f9e44;visibility:hidden">7</i>', "lcd-text"),
    ("transit", "moved-2px", '<span id="d2">University</span>', '<span id="d2" style="margin-left:2px">University</span>',
     "swiftshader"),
]

BLIND16_PAGES = {
    "airquality": """
<style>
.aq { margin: 8px 12px; font-size: 11px; color: #1d2125; width: 300px; }
.aq h4 { margin: 0 0 4px; font-size: 12px; }
.idx { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.idx b { font-size: 22px; color: #e8590c; }
.lvl { padding: 1px 6px; border-radius: 3px; font-size: 9px; color: #fff; background: #fd7e14; }
.idx small { color: #6c757d; font-size: 9px; }
.pol { display: flex; padding: 2px 0; border-top: 1px solid #e9ecef; font-size: 10px; }
.pol span { flex: 1; color: #495057; }
.pol em { font-style: normal; color: #868e96; font-size: 9px; margin-left: 6px; width: 36px; }
.tip { margin-top: 5px; font-size: 9px; color: #1c7ed6; }
</style>
<div class="aq"><h4>Air quality &middot; Riverside</h4>
<div class="idx"><b>112</b><span class="lvl">Unhealthy for some</span><small>Updated 10:40</small></div>
<div class="pol"><span>PM2.5</span><b>41</b><em>ug/m3</em></div>
<div class="pol"><span>Ozone</span><b>68</b><em>ppb</em></div>
<div class="pol"><span>Nitrogen dioxide</span><b>19</b><em>ppb</em></div>
<div class="tip">Limit long outdoor activity this afternoon</div></div>
""",
    "refill": """
<style>
.rf { margin: 8px 12px; font-size: 11px; color: #212529; width: 280px; }
.rf h4 { margin: 0 0 2px; font-size: 12px; }
.rf p { margin: 0 0 6px; font-size: 9px; color: #737b83; }
.med { display: flex; align-items: center; gap: 8px; padding: 5px 6px; border: 1px solid #dde2e6; border-radius: 4px;
       margin-bottom: 5px; }
.pill { width: 14px; height: 14px; border-radius: 7px; background: #99e9f2; border: 1px solid #66d9e8; }
.med div { flex: 1; }
.med small { display: block; color: #868e96; font-size: 9px; }
.left { font-size: 9px; color: #c92a2a; }
.ok { font-size: 9px; color: #2f9e44; }
.req { display: inline-block; padding: 3px 10px; border-radius: 3px; background: #0c8599; color: #fff; font-size: 10px; }
</style>
<div class="rf"><h4>Prescriptions</h4><p>Northside Pharmacy, pickup after 3 pm</p>
<div class="med"><i class="pill"></i><div>Atorvastatin 20 mg<small>1 tablet nightly</small></div><span class="left">3 left</span></div>
<div class="med"><i class="pill" style="background:#ffd8a8;border-color:#ffa94d"></i><div>Lisinopril 10 mg<small>1 tablet each morning</small></div><span class="ok">21 left</span></div>
<span class="req">Request refill</span></div>
""",
    "courses": """
<style>
.cs { margin: 8px 12px; font-size: 11px; color: #1f2429; width: 310px; }
.cs h4 { margin: 0 0 5px; font-size: 12px; }
.crs { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.ico { width: 18px; height: 18px; border-radius: 4px; color: #fff; font-size: 10px; font-weight: bold; font-style: normal;
       text-align: center; line-height: 18px; }
.crs div { flex: 1; }
.bar { height: 4px; border-radius: 2px; background: #e9ecef; margin-top: 2px; }
.bar i { display: block; height: 4px; border-radius: 2px; background: #7950f2; }
.crs small { color: #7a828a; font-size: 9px; width: 66px; text-align: right; }
.due { color: #d9480f; font-size: 9px; }
</style>
<div class="cs"><h4>My courses</h4>
<div class="crs"><i class="ico" style="background:#7950f2">S</i><div>Statistics basics<div class="bar"><i style="width:64%"></i></div></div><small>Lesson 9/14</small></div>
<div class="crs"><i class="ico" style="background:#12b886">G</i><div>Intro to Git<div class="bar"><i style="width:30%"></i></div></div><small>Lesson 3/10</small></div>
<div class="crs"><i class="ico" style="background:#228be6">W</i><div>Web accessibility<div class="bar"><i style="width:88%"></i></div></div><small>Lesson 15/17</small></div>
<div class="due">Quiz due Friday: Statistics basics, unit 3</div></div>
""",
    "parking": """
<style>
.pk { margin: 8px 12px; font-size: 11px; color: #202428; width: 290px; }
.zone { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.zone b { padding: 2px 6px; border-radius: 3px; background: #1864ab; color: #fff; font-size: 10px; }
.zone span { color: #5c636a; font-size: 10px; }
.tm { font-size: 20px; font-variant-numeric: tabular-nums; margin-bottom: 2px; }
.ends { font-size: 9px; color: #868e96; margin-bottom: 6px; }
.kv { display: flex; padding: 2px 0; border-bottom: 1px solid #edf0f2; font-size: 10px; }
.kv span { flex: 1; color: #6a7178; }
.btns { display: flex; gap: 6px; margin-top: 7px; }
.btns div { flex: 1; text-align: center; padding: 3px 0; border-radius: 3px; font-size: 10px; }
.ext { background: #37b24d; color: #fff; }
.stop { border: 1px solid #fa5252; color: #e03131; }
</style>
<div class="pk"><div class="zone"><b>Zone 4</b><span>Elm Street garage, level 2</span></div>
<div class="tm">01:27:40</div><div class="ends">Ends at 14:55</div>
<div class="kv"><span>Plate</span><b>KX 482 T</b></div>
<div class="kv"><span>Rate</span><b>2.40 per hour</b></div>
<div class="btns"><div class="ext">Extend</div><div class="stop">End parking</div></div></div>
""",
    "scores": """
<style>
.sc { margin: 8px 12px; font-size: 11px; color: #1c1f23; width: 300px; }
.sc h4 { margin: 0 0 3px; font-size: 10px; color: #868e96; font-weight: normal; text-transform: uppercase; }
.gm { display: flex; padding: 4px 0; border-bottom: 1px solid #eef0f2; }
.gm .t { flex: 1; }
.ln2 { display: flex; line-height: 15px; }
.ln2 span { flex: 1; }
.ln2 em { font-style: normal; font-weight: bold; width: 24px; text-align: right; }
.st { font-size: 9px; color: #6f777f; width: 64px; text-align: right; padding-top: 2px; }
.live { color: #c92a2a; font-weight: bold; }
.lose { color: #8a9199; }
</style>
<div class="sc"><h4>Today's games</h4>
<div class="gm"><div class="t"><div class="ln2"><span>Harbor Hawks</span><em>3</em></div><div class="ln2 lose"><span>Mill City FC</span><em>1</em></div></div><div class="st">Final</div></div>
<div class="gm"><div class="t"><div class="ln2"><span>Lakeside United</span><em id="s1">2</em></div><div class="ln2"><span>Pine Rovers</span><em>2</em></div></div><div class="st live">71'</div></div>
<div class="gm"><div class="t"><div class="ln2"><span>Northgate</span><em>-</em></div><div class="ln2"><span>Ferry Athletic</span><em>-</em></div></div><div class="st">19:30</div></div></div>
""",
}

BLIND16_CHANGES = [
    ("airquality", "word", "<b>41</b>", "<b>47</b>", "hinting-full"),
    ("airquality", "text-colour", ".idx small { color: #6c757d;", ".idx small { color: #5c656d;", "lcd-text"),
    ("airquality", "button-colour", ".lvl { padding: 1px 6px; border-radius: 3px; font-size: 9px; color: #fff; background: #fd7e14;",
     ".lvl { padding: 1px 6px; border-radius: 3px; font-size: 9px; color: #fff; background: #f76707;", "jpeg-q95"),
    ("airquality", "border-removed", ".pol { display: flex; padding: 2px 0; border-top: 1px solid #e9ecef;",
     ".pol { display: flex; padding: 2px 0; border-top: 1px solid transparent;", "hinting-none"),
    ("refill", "word", '<span class="left">3 left</span>', '<span class="left">2 left</span>', "other-machine"),
    ("refill", "text-colour", ".rf p { margin: 0 0 6px; font-size: 9px; color: #737b83;",
     ".rf p { margin: 0 0 6px; font-size: 9px; color: #636b73;", "hinting-medium"),
    ("refill", "moved-2px", '<span class="req">', '<span class="req" style="margin-left:2px">', "swiftshader"),
    ("courses", "word", "<small>Lesson 3/10</small>", "<small>Lesson 4/10</small>", "no-subpixel-pos"),
    ("courses", "letter-spacing", "<h4>My courses</h4>", '<h4 style="letter-spacing:0.4px">My courses</h4>', "hinting-medium"),
    ("courses", "icon-removed", '<i class="ico" style="background:#12b886">G</i>',
     '<i class="ico" style="background:#12b886;visibility:hidden">G</i>', "display-p3"),
    ("parking", "word", '<div class="ends">Ends at 14:55</div>', '<div class="ends">Ends at 14:35</div>', "hinting-none"),
    ("parking", "button-colour", ".ext { background: #37b24d;", ".ext { background: #2f9e44;", "generic-rgb"),
    ("parking", "border-removed", ".kv { display: flex; padding: 2px 0; border-bottom: 1px solid #edf0f2;",
     ".kv { display: flex; padding: 2px 0; border-bottom: 1px solid transparent;", "jpeg-q90"),
    ("scores", "word", '<em id="s1">2</em>', '<em id="s1">3</em>', "lcd-text"),
    ("scores", "text-colour", ".lose { color: #8a9199; }", ".lose { color: #7a8189; }", "no-subpixel-pos"),
    ("scores", "letter-spacing", "<h4>Today's games</h4>", '<h4 style="letter-spacing:0.4px">Today\'s games</h4>',
     "hinting-full"),
    ("scores", "moved-2px", '<div class="st live">', '<div class="st live" style="padding-top:4px">', "swiftshader"),
]

# --- Renderer settings -----------------------------------------------------------------------

FC = '<edit name="{}" mode="assign"><{}>{}</{}></edit>'


def fc(name, value, kind="const"):
    return FC.format(name, kind, value, kind)


# name: (what differs, Chromium flags, fontconfig <match target="font"> edits or None, JPEG quality or None)
NOISES = {
    "no-subpixel-pos": ("--disable-font-subpixel-positioning", ["--disable-font-subpixel-positioning"], None, None),
    "hinting-none": ("fontconfig hinting=false", [], fc("hinting", "false", "bool"), None),
    "hinting-medium": ("fontconfig hintstyle=hintmedium", [], fc("hinting", "true", "bool") + fc("hintstyle", "hintmedium"),
                       None),
    "hinting-full": ("fontconfig hintstyle=hintfull", [], fc("hinting", "true", "bool") + fc("hintstyle", "hintfull"), None),
    "lcd-text": ("fontconfig rgba=rgb (LCD text)", [], fc("rgba", "rgb") + fc("lcdfilter", "lcddefault"), None),
    "swiftshader": ("--use-angle=swiftshader", ["--use-angle=swiftshader"], None, None),
    "display-p3": ("--force-color-profile=display-p3-d65", ["--force-color-profile=display-p3-d65"], None, None),
    "generic-rgb": ("--force-color-profile=generic-rgb", ["--force-color-profile=generic-rgb"], None, None),
    "jpeg-q90": ("JPEG round trip, quality 90", [], None, 90),
    "jpeg-q95": ("JPEG round trip, quality 95", [], None, 95),
    "other-machine": ("swiftshader + hinting-none + no-subpixel-pos",
                      ["--use-angle=swiftshader", "--disable-font-subpixel-positioning"], fc("hinting", "false", "bool"),
                      None),
}

NOISE_PAIRS = {
    "login": ["no-subpixel-pos", "hinting-none", "swiftshader", "display-p3", "jpeg-q90", "other-machine"],
    "settings": ["hinting-full", "lcd-text", "generic-rgb", "jpeg-q95"],
    "cards": ["lcd-text", "hinting-medium", "swiftshader", "display-p3", "jpeg-q90"],
    "article": ["no-subpixel-pos", "hinting-none", "hinting-full", "lcd-text"],
    "table": ["hinting-medium", "swiftshader", "generic-rgb", "jpeg-q95", "other-machine"],
    "chart": ["hinting-none", "display-p3", "generic-rgb", "jpeg-q90"],
    "toolbar": ["hinting-medium", "hinting-full", "lcd-text", "swiftshader", "jpeg-q95"],
}

# Candidate machine differences rendered on every page only to record whether they change pixels.
PROBES = [
    ["--disable-gpu"],
    ["--font-render-hinting=none"], ["--font-render-hinting=slight"], ["--font-render-hinting=medium"],
    ["--font-render-hinting=full"],
    ["--disable-lcd-text"],
    ["--force-device-scale-factor=1"],
    ["--use-gl=swiftshader"], ["--enable-unsafe-swiftshader"], ["--use-angle=swiftshader"],
    ["--force-color-profile=srgb"], ["--force-color-profile=display-p3-d65"], ["--force-color-profile=generic-rgb"],
    ["--disable-skia-runtime-opts"],
    ["--disable-font-subpixel-positioning"],
]


class Renderer:
    def __init__(self, work):
        self.work = work
        self.count = 0
        self.configs = {}
        for name, (_, _, edits, _) in NOISES.items():
            if edits:
                path = os.path.join(work, f"fonts-{name}.conf")
                with open(path, "w") as f:
                    f.write('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                            '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
                            f'<match target="font">{edits}</match></fontconfig>')
                self.configs[name] = path

    def screenshot(self, html, flags=(), fontconfig=None):
        """Renders `html` with headless Chromium (sequentially, a fresh profile each time)."""
        self.count += 1
        page = os.path.join(self.work, f"page{self.count}.html")
        shot = os.path.join(self.work, f"shot{self.count}.png")
        with open(page, "w") as f:
            f.write(html)
        env = dict(os.environ)
        if fontconfig:
            env["FONTCONFIG_FILE"] = fontconfig
        command = ["chromium", "--headless", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
                   f"--user-data-dir={self.work}/profile{self.count}", f"--window-size={WIDTH},{HEIGHT}",
                   "--default-background-color=ffffffff", "--virtual-time-budget=1000", *flags,
                   f"--screenshot={shot}", "file://" + page]
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=120)
        image = read_png(shot)
        shutil.rmtree(os.path.join(self.work, f"profile{self.count}"), ignore_errors=True)
        if (image.width, image.height) != (WIDTH, HEIGHT):
            raise RuntimeError(f"screenshot is {image.width}x{image.height}")
        return image

    def render(self, html, noise=None):
        """The page as the machine `noise` names renders it (None: the default settings)."""
        if noise is None:
            return self.screenshot(html)
        _, flags, _, quality = NOISES[noise]
        image = self.screenshot(html, flags, self.configs.get(noise))
        return jpeg_round_trip(image, quality) if quality else image


def document(body):
    return f'<!doctype html><html><head><meta charset="utf-8"><style>{BASE_CSS}</style></head><body>{body}</body></html>'


def edited(pages, page, old, new):
    body = pages[page]
    if body.count(old) != 1:
        raise ValueError(f"{page}: {old!r} occurs {body.count(old)} times")
    return body.replace(old, new)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Fixtures", "render"))
    parser.add_argument("--no-probes", action="store_true", help="skip the probe renders of README.md")
    parser.add_argument("--under", choices=sorted(NOISES), help="every page and every change under this one noise")
    held_sets = {"holdout": (HOLDOUT_PAGES, HOLDOUT_CHANGES), "blind": (BLIND_PAGES, BLIND_CHANGES),
                 "blind2": (BLIND2_PAGES, BLIND2_CHANGES), "blind3": (BLIND3_PAGES, BLIND3_CHANGES),
                 "blind4": (BLIND4_PAGES, BLIND4_CHANGES), "blind5": (BLIND5_PAGES, BLIND5_CHANGES),
                 "blind6": (BLIND6_PAGES, BLIND6_CHANGES), "blind7": (BLIND7_PAGES, BLIND7_CHANGES),
                 "blind8": (BLIND8_PAGES, BLIND8_CHANGES), "blind9": (BLIND9_PAGES, BLIND9_CHANGES),
                 "blind10": (BLIND10_PAGES, BLIND10_CHANGES), "blind11": (BLIND11_PAGES, BLIND11_CHANGES),
                 "blind12": (BLIND12_PAGES, BLIND12_CHANGES), "blind13": (BLIND13_PAGES, BLIND13_CHANGES),
                 "blind14": (BLIND14_PAGES, BLIND14_CHANGES), "blind15": (BLIND15_PAGES, BLIND15_CHANGES),
                 "blind16": (BLIND16_PAGES, BLIND16_CHANGES)}
    corpus = parser.add_mutually_exclusive_group()
    for name, what in [("holdout", "the held-out pages and changes"), ("blind", "the blind pages and changes"),
                       ("blind2", "the second blind set"), ("blind3", "the third blind set"),
                       ("blind4", "the fourth blind set"), ("blind5", "the fifth blind set"),
                       ("blind6", "the sixth blind set"), ("blind7", "the seventh blind set"),
                       ("blind8", "the eighth blind set"), ("blind9", "the ninth blind set"),
                       ("blind10", "the tenth blind set"), ("blind11", "the eleventh blind set"),
                       ("blind12", "the twelfth blind set"), ("blind13", "the thirteenth blind set"),
                       ("blind14", "the fourteenth blind set"), ("blind15", "the fifteenth blind set"),
                       ("blind16", "the sixteenth blind set")]:
        corpus.add_argument(f"--{name}", dest="held", action="store_const", const=name,
                            help=f"{what} instead, each page under every noise, no probes")
    args = parser.parse_args()
    held = args.held
    if (args.under or held) and args.out == os.path.join(ROOT, "Fixtures", "render"):
        parser.error("--under, --holdout, --blind, --blind2 to --blind16 "
                     "write another corpus: give --out")
    pages, changes = held_sets.get(held, (PAGES, CHANGES))
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    rows = {"noise": [], "changes": []}
    dropped, probes = [], {}

    def save(folder, name, ref, new, label, what):
        pixels, delta = difference(ref, new)
        if pixels == 0:
            dropped.append(f"{folder}/{name}: {what} (identical pixels)")
            print(f"dropped {folder}/{name}: identical pixels", file=sys.stderr)
            return False
        write_png(os.path.join(out, folder, "ref", name), ref)
        write_png(os.path.join(out, folder, "new", name), new)
        rows[folder].append((name, label, what, delta, pixels))
        print(f"{folder}/{name}: {pixels} px, max delta {delta}", file=sys.stderr)
        return True

    with tempfile.TemporaryDirectory() as work:
        renderer = Renderer(work)
        for page in pages:
            base = renderer.render(document(pages[page]))
            again = renderer.render(document(pages[page]))
            if base.rgb != again.rgb:
                raise RuntimeError(f"{page}: two default renders differ; the corpus would not be deterministic")
            page_noises = [args.under] if args.under else list(NOISES) if held else NOISE_PAIRS[page]
            for noise in page_noises:
                save("noise", f"{page}--{noise}.png", base, renderer.render(document(pages[page]), noise),
                     "pass", NOISES[noise][0])
            for name, change, old, new, noise in changes:
                if name != page:
                    continue
                if args.under:
                    html = document(edited(pages, page, old, new))
                    what = f"`{old.strip()}` -> `{new.strip()}`"
                    if difference(base, renderer.render(html))[0]:
                        save("changes", f"{page}--{change}+{args.under}.png", base, renderer.render(html, args.under),
                             "fail", f"{what}, new side also {NOISES[args.under][0]}")
                    continue
                html = document(edited(pages, page, old, new))
                what = f"`{old.strip()}` -> `{new.strip()}`"
                if not save("changes", f"{page}--{change}.png", base, renderer.render(html), "fail", what):
                    continue  # the edit changes nothing: no +NOISE variant either
                save("changes", f"{page}--{change}+{noise}.png", base, renderer.render(html, noise), "fail",
                     f"{what}, new side also {NOISES[noise][0]}")
            if not args.no_probes and not args.under and not held:
                for flags in PROBES:
                    pixels, delta = difference(base, renderer.screenshot(document(pages[page]), flags))
                    probes.setdefault(" ".join(flags), []).append((page, pixels, delta))

    chromium = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
    write_readme(out, chromium, rows, dropped, probes, under=args.under, held=held)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print(f"wrote {out}: {len(rows['noise'])} noise pairs, {len(rows['changes'])} change pairs, {total} bytes",
          file=sys.stderr)


# The blind sets made after the first: (ordinal, what was done before the set was written).
LATER_BLIND_SETS = {
    "blind2": ("second", "the first blind set had been measured and rules changed on it"),
    "blind3": ("third", "the second blind set had been measured and a rule changed on it"),
    "blind4": ("fourth", "the third blind set had been measured and a rule changed on it"),
    "blind5": ("fifth", "the fourth blind set had been measured and rules changed on it"),
    "blind6": ("sixth", "the fifth blind set had been measured and rules changed on it (the isolated-change rule)"),
    "blind7": ("seventh", "the sixth blind set had been measured and rules changed on it (LCD text on coloured text "
                          "and grounds)"),
    "blind8": ("eighth", "the seventh blind set had been measured and tune's removed-line canary changed on it"),
    "blind9": ("ninth", "the eighth blind set had been measured and the isolated-change rule changed (unchanged "
                        "neighbours looked for along the whole row)"),
    "blind10": ("tenth", "the ninth blind set had been measured and three rules changed on the earlier sets (the "
                         "plain-block JPEG signature, wide plain ground among scattered noise, coherent groups a "
                         "pixel's move carries over)"),
    "blind11": ("eleventh", "the tenth blind set had been measured and the isolated-change rule changed on the earlier "
                            "sets (moved copies set aside, ink put down)"),
    "blind12": ("twelfth", "the eleventh blind set had been measured and the isolated-change rule and the fitted "
                           "colour conversion changed on it"),
    "blind13": ("thirteenth", "the twelfth blind set had been measured and two coherent-change rules changed on it "
                              "(an ink of another hue, a colour step alone on an unchanged page)"),
    "blind14": ("fourteenth", "the thirteenth blind set had been measured, with no rule changed on it, and before any "
                              "rule was written for the changes its misses share (text recoloured or retyped under "
                              "text noise)"),
    "blind15": ("fifteenth", "the fourteenth blind set had been measured (no rule changed on it) and a rule for text "
                             "set again written on the earlier sets (fragments too small to fail counted towards its "
                             "signature)"),
    "blind16": ("sixteenth", "the fifteenth blind set had been measured"),
}


def later_blind_heading(held, chromium, folder):
    """The README heading of a blind set after the first: what it is, how it was made, how to
    make it again."""
    ordinal, after = LATER_BLIND_SETS[held]
    later = list(LATER_BLIND_SETS)
    earlier = ["render", "render-holdout", "render-blind"] + [f"render-{name}" for name in later[:later.index(held)]]
    named = [f"`Fixtures/{name}`" for name in earlier]
    corpora = ", ".join(named[:-1]) + " or " + named[-1]
    article = "an" if ordinal[0] in "aeiou" else "a"
    text = (f"the DejaVu fonts and the fontconfig defaults of Debian 12. Five pages and seventeen changes that are "
            f"not those of {corpora}, written after {after}, and committed before any mode was run on them: {article} "
            f"{ordinal} estimate of how the defaults do on pages nobody fitted them to. Each page is rendered by "
            f"default (ref) and under every noise (new), and each change alone and with its new side under one "
            f"noise. Rerun:")
    return [f"# Browser renders: {ordinal} blind set", "", f"Made by `scripts/make-render-corpus.py --{held}` with",
            f"{chromium},", *textwrap.wrap(text, 95, break_on_hyphens=False), "",
            f"    scripts/make-render-corpus.py --{held} --out {folder}", "",
            "`noise/` pairs must pass, `changes/` pairs must fail. Max delta is the largest per-channel",
            "difference (0-255); pixels, those with any channel different (of 86,400).", ""]


def write_readme(out, chromium, rows, dropped, probes, under=None, held=None):
    def cell(text):
        return text.replace("|", "\\|").replace("\n", " ")

    if held in LATER_BLIND_SETS:
        lines = later_blind_heading(held, chromium, os.path.relpath(out, ROOT))
    elif held == "blind":
        folder = os.path.relpath(out, ROOT)
        lines = [
            "# Browser renders: blind pages",
            "",
            "Made by `scripts/make-render-corpus.py --blind` with",
            f"{chromium},",
            "the DejaVu fonts and the fontconfig defaults of Debian 12. Five pages and seventeen changes",
            "that are not those of `Fixtures/render` or `Fixtures/render-holdout`, written after every",
            "rule of the structural mode, and measured once (`scripts/eval-corpora`) before any rule was",
            "changed on them: an estimate of how the defaults do on pages nobody fitted them to (the",
            "repository's README names the one rule that came after). Each page is rendered by default",
            "(ref) and under every noise (new), and each change",
            "alone and with its new side under one noise. Rerun:",
            "",
            f"    scripts/make-render-corpus.py --blind --out {folder}",
            "",
            "`noise/` pairs must pass, `changes/` pairs must fail. Max delta is the largest per-channel",
            "difference (0-255); pixels, those with any channel different (of 86,400).",
            "",
        ]
    elif held == "holdout":
        folder = os.path.relpath(out, ROOT)
        lines = [
            "# Browser renders: held-out pages",
            "",
            "Made by `scripts/make-render-corpus.py --holdout` with",
            f"{chromium},",
            "the DejaVu fonts and the fontconfig defaults of Debian 12. Five pages and sixteen changes that",
            "are not those of `Fixtures/render`, written after the structural mode's noise models were",
            "built, to check them on pages they were not designed on: each page rendered by default (ref)",
            "and under every noise (new), and each change alone and with its new side under one noise.",
            "Rerun:",
            "",
            f"    scripts/make-render-corpus.py --holdout --out {folder}",
            "",
            "`noise/` pairs must pass, `changes/` pairs must fail. Max delta is the largest per-channel",
            "difference (0-255); pixels, those with any channel different (of 86,400).",
            "",
        ]
    elif under:
        folder = os.path.relpath(out, ROOT)
        lines = [
            f"# Browser renders: every page and every change under {under}",
            "",
            "Made by `scripts/make-render-corpus.py` with",
            f"{chromium},",
            "the DejaVu fonts and the fontconfig defaults of Debian 12, from the pages and changes of",
            f"`Fixtures/render`: each page rendered by default (ref) and under `{under}`",
            f"({NOISES[under][0]}; new), and each change with its new side under `{under}`. Rerun:",
            "",
            f"    scripts/make-render-corpus.py --under {under} --out {folder}",
            "",
            "`noise/` pairs must pass, `changes/` pairs must fail. Max delta is the largest per-channel",
            "difference (0-255); pixels, those with any channel different (of 86,400).",
            "",
        ]
    else:
        lines = [
            "# Browser renders: render noise and subtle real changes",
            "",
            "Made by `scripts/make-render-corpus.py` with",
            f"{chromium},",
            "the DejaVu fonts and the fontconfig defaults of Debian 12 (hintslight, grayscale",
            "anti-aliasing). Seven small pages (written by the script, inline CSS) are rendered headless",
            "at 360x240; the script's docstring describes every page, noise and change. Rerun (rewrites",
            "this folder byte for byte on the same Chromium and fonts; about four minutes):",
            "",
            "    scripts/make-render-corpus.py            # or --out DIR",
            "",
            "`noise/` pairs must pass: ref is the default render, new the same page rendered as another",
            "machine would. `changes/` pairs must fail: ref is the default render, new the page with one",
            "subtle HTML edit, rendered with the same settings (`PAGE--CHANGE.png`) or with one kind of",
            "render noise on top (`PAGE--CHANGE+NOISE.png`, the realistic CI case).",
            "",
            "    imgdiff tune Fixtures/render/noise --must-fail Fixtures/render/changes",
            "",
            "Max delta is the largest per-channel difference (0-255); pixels, those with any channel",
            "different (of 86,400).",
            "",
        ]
    for folder, title in (("noise", "Noise (must pass)"), ("changes", "Changes (must fail)")):
        lines += [f"## {title}", "", "| pair | label | what differs | max delta | pixels |", "|---|---|---|---:|---:|"]
        for name, label, what, delta, pixels in rows[folder]:
            lines.append(f"| `{name}` | {label} | {cell(what)} | {delta} | {pixels} |")
        lines.append("")
    if probes:
        lines += ["## Renderer settings tried", "",
                  "Each page rendered once more with only this flag, against the default render:", "",
                  "| flag | pages changed | pixels (min-max) | max delta |", "|---|---:|---:|---:|"]
        for flags, results in probes.items():
            changed = [r for r in results if r[1]]
            if changed:
                span = f"{min(r[1] for r in changed)}-{max(r[1] for r in changed)}"
                lines.append(f"| `{flags}` | {len(changed)} of {len(results)} | {span} | {max(r[2] for r in changed)} |")
            else:
                lines.append(f"| `{flags}` | 0 of {len(results)} (identical pixels) | - | - |")
        lines.append("")
    if dropped:
        lines += ["## Dropped (no pixel changed)", ""] + [f"- {d}" for d in dropped] + [""]
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
