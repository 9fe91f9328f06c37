#!/usr/bin/env python3
"""Writes Fixtures/render: a labelled corpus of real browser renders for `imgdiff tune` and the
structural mode (standard library only; needs Debian's `chromium`, and ImageMagick's `convert`
for the JPEG round trips).

Four small pages (a sign-in card, a settings list, a table with 1-px rules, a bar chart) are
rendered by headless Chromium at 360x240.

noise/{ref,new}/PAGE--NOISE.png: the same page, the new side rendered as another machine would
(must pass):
  hinting-none     FreeType hinting off (fontconfig)
  hinting-full     full hinting (fontconfig): stems snap, advances round, words move a pixel
  lcd-text         subpixel (LCD) anti-aliasing with coloured fringes (fontconfig rgba=rgb)
  no-subpixel-pos  --disable-font-subpixel-positioning: glyphs on whole pixels
  display-p3       --force-color-profile=display-p3-d65: colour management drift
  jpeg-q90         the render through a JPEG at quality 90 and back
  jpeg-q95         the same at quality 95
changes/{ref,new}/PAGE--CHANGE[+NOISE].png: a real change (must fail), alone and on top of
one kind of noise (the realistic CI case):
  text-colour      body text #333 -> #444 (17 levels)
  button-colour    the button's blue one step lighter (#2a6df4 -> #3a7df4)
  word             one word of the text replaced
  rule-removed     one 1-px rule or border removed
  moved-2px        one element moved 2 px right
  icon-removed     a 10x10 icon removed
  letter-spacing   one line's letter spacing +0.5 px

Rerunning rewrites the same pixels on the same Chromium and fonts (README.md there records the
versions and a table of every pair). Usage: scripts/make-render-corpus.py [--out DIR]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

STYLE = """
:root { --text: #333; --button: #2a6df4; --rule: 1px solid #99a; --shift: 0px; --icon: visible; --spacing: 0px; }
body { margin: 0; font: 14px "DejaVu Sans"; color: var(--text); background: #fff; }
.card { margin: 14px; padding: 10px 12px; border: 1px solid #ccd; border-radius: 6px; }
h1 { font-size: 17px; margin: 0 0 6px; letter-spacing: var(--spacing); }
p { margin: 0 0 8px; line-height: 1.35; }
button { background: var(--button); color: #fff; border: 0; border-radius: 4px; padding: 5px 12px; font: 13px "DejaVu Sans"; }
.moved { position: relative; left: var(--shift); }
.icon { display: inline-block; width: 10px; height: 10px; background: #e8553f; border-radius: 2px; visibility: var(--icon); }
.rule { border-top: var(--rule); margin: 6px 0; }
table { border-collapse: collapse; font-size: 12px; }
td, th { padding: 3px 8px; text-align: left; }
tr.ruled td { border-top: var(--rule); }
.bars div { height: 14px; margin: 4px 0; background: #5b8def; color: #fff; font-size: 11px; padding-left: 4px; }
"""

PAGES = {
    "sign-in": """<div class="card"><h1>Sign in to your account</h1>
<p>Enter your email address and your password to continue. <span class="icon"></span></p>
<div class="rule"></div>
<div class="moved"><button>Sign in</button> <a href="#">Create account</a></div></div>""",
    "settings": """<div class="card"><h1>Notifications</h1>
<p><span class="icon"></span> Email me when someone replies</p><div class="rule"></div>
<p>Send a weekly summary of activity</p><div class="rule"></div>
<div class="moved"><p>Mute all notifications for 8 hours</p></div>
<button>Save changes</button></div>""",
    "table": """<div class="card"><h1>Invoices</h1><table>
<tr><th>Number</th><th>Date</th><th>Amount</th></tr>
<tr class="ruled"><td>INV-1042</td><td>3 Nov</td><td>$120.00</td></tr>
<tr class="ruled"><td>INV-1043</td><td>9 Nov</td><td>$86.50 <span class="icon"></span></td></tr>
<tr class="ruled"><td>INV-1044</td><td>17 Nov</td><td class="moved">$410.25</td></tr>
</table><p>Three invoices are waiting for your approval.</p><button>Approve</button></div>""",
    "chart": """<div class="card"><h1>Weekly visitors</h1><div class="bars">
<div style="width: 62%">Monday 620</div><div style="width: 81%">Tuesday 810</div>
<div class="moved" style="width: 47%">Wednesday 470</div><div style="width: 90%">Thursday 900</div></div>
<div class="rule"></div><p><span class="icon"></span> Visitors grew by twelve percent this week.</p></div>""",
}

WORDS = {"sign-in": ("password", "passcode"), "settings": ("weekly", "monthly"), "table": ("waiting", "pending"),
         "chart": ("grew", "fell")}

CHANGES = {
    "text-colour": lambda page, css: (page, css.replace("--text: #333", "--text: #444")),
    "button-colour": lambda page, css: (page, css.replace("--button: #2a6df4", "--button: #3a7df4")),
    "word": None,
    "rule-removed": lambda page, css: (page.replace('<div class="rule"></div>', "", 1).replace('class="ruled"', "", 1)
                                       if '<div class="rule">' in page else page.replace('class="ruled"', "", 1), css),
    "moved-2px": lambda page, css: (page, css.replace("--shift: 0px", "--shift: 2px")),
    "icon-removed": lambda page, css: (page, css.replace("--icon: visible", "--icon: hidden")),
    "letter-spacing": lambda page, css: (page, css.replace("--spacing: 0px", "--spacing: 0.5px")),
}

FONTCONFIG = {
    "hinting-none": '<edit name="hinting" mode="assign"><bool>false</bool></edit>',
    "hinting-full": '<edit name="hinting" mode="assign"><bool>true</bool></edit>'
                    '<edit name="hintstyle" mode="assign"><const>hintfull</const></edit>',
    "lcd-text": '<edit name="rgba" mode="assign"><const>rgb</const></edit>'
                '<edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit>',
}
FLAGS = {"no-subpixel-pos": ["--disable-font-subpixel-positioning"], "display-p3": ["--force-color-profile=display-p3-d65"]}
JPEG = {"jpeg-q90": 90, "jpeg-q95": 95}
NOISES = list(FONTCONFIG) + list(FLAGS) + list(JPEG)


def differing_pixels(first, second):
    """ImageMagick's count of pixels that differ at all."""
    run = subprocess.run(["compare", "-metric", "AE", first, second, "null:"], capture_output=True, text=True)
    return int(float(run.stderr.split()[0]))


def html(body, css):
    return f'<!doctype html><html><head><meta charset="utf-8"><style>{css}</style></head><body>{body}</body></html>'


class Renderer:
    def __init__(self, work):
        self.work = work
        self.count = 0
        for name, rule in FONTCONFIG.items():
            with open(os.path.join(work, f"fonts-{name}.conf"), "w") as f:
                f.write('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
                        f'<match target="font">{rule}</match></fontconfig>')

    def render(self, body, css, noise, out):
        """Renders the page to `out`, as the machine `noise` names would (None: the default)."""
        self.count += 1
        page = os.path.join(self.work, f"page{self.count}.html")
        with open(page, "w") as f:
            f.write(html(body, css))
        env = dict(os.environ)
        flags = []
        if noise in FONTCONFIG:
            env["FONTCONFIG_FILE"] = os.path.join(self.work, f"fonts-{noise}.conf")
        flags += FLAGS.get(noise, [])
        shot = out if noise not in JPEG else os.path.join(self.work, "shot.png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={self.work}/profile{self.count}", "--window-size=360,240",
                        "--default-background-color=ffffffff", *flags, f"--screenshot={shot}", "file://" + page],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        if noise in JPEG:
            jpeg = os.path.join(self.work, "shot.jpg")
            subprocess.run(["convert", shot, "-quality", str(JPEG[noise]), "-sampling-factor", "4:2:0", jpeg], check=True)
            subprocess.run(["convert", jpeg, "-define", "png:exclude-chunks=date,time", "-strip", out], check=True)
        else:
            subprocess.run(["convert", shot, "-define", "png:exclude-chunks=date,time", "-strip", out], check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Fixtures", "render"))
    out = parser.parse_args().out
    if os.path.exists(out):
        shutil.rmtree(out)
    for side in ["noise/ref", "noise/new", "changes/ref", "changes/new"]:
        os.makedirs(os.path.join(out, side))
    with tempfile.TemporaryDirectory() as work:
        renderer = Renderer(work)
        for index, (name, body) in enumerate(PAGES.items()):
            base = os.path.join(work, f"{name}.png")
            renderer.render(body, STYLE, None, base)
            for noise in NOISES:
                pair = f"{name}--{noise}.png"
                shutil.copy(base, os.path.join(out, "noise", "ref", pair))
                renderer.render(body, STYLE, noise, os.path.join(out, "noise", "new", pair))
            for number, (change, edit) in enumerate(CHANGES.items()):
                if edit is None:
                    old, new = WORDS[name]
                    changed_body, changed_css = body.replace(old, new, 1), STYLE
                else:
                    changed_body, changed_css = edit(body, STYLE)
                noise = NOISES[(index * len(CHANGES) + number) % len(NOISES)]
                clean = os.path.join(work, "clean.png")
                renderer.render(changed_body, changed_css, None, clean)
                if differing_pixels(base, clean) == 0:
                    print(f"skipped {name}--{change}: the page has nothing it changes", file=sys.stderr)
                    continue
                for suffix, with_noise in [("", None), (f"+{noise}", noise)]:
                    pair = f"{name}--{change}{suffix}.png"
                    shutil.copy(base, os.path.join(out, "changes", "ref", pair))
                    if with_noise is None:
                        shutil.copy(clean, os.path.join(out, "changes", "new", pair))
                    else:
                        renderer.render(changed_body, changed_css, with_noise, os.path.join(out, "changes", "new", pair))
    chromium = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(f"""# Browser renders: noise and real changes

Made by `scripts/make-render-corpus.py` with {chromium} and the DejaVu fonts of Debian 12;
the script's docstring says what each pair holds. `noise/` pairs must pass, `changes/` pairs
must fail; a change is shown alone and on top of one kind of render noise (`+NOISE`).
`scripts/eval-render-corpus` measures every mode on them; the README's tables come from it.
""")
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
