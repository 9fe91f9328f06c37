// Runs Playwright's own `ssim-cie94` comparator (packages/utils/image_tools in a Playwright
// checkout) on pairs of PNGs, for imgdiff's conformance test and benchmark. Playwright's code
// is not part of imgdiff: this script loads it from PLAYWRIGHT_DIR at run time.
//
//   node scripts/playwright-compare.mjs PLAYWRIGHT_DIR EXPECTED.png ACTUAL.png [...]
//
// Prints, per pair: the error count, the milliseconds compare() took, then the file names.
// Needs Node 23.6 or later (TypeScript type stripping); the PNG decoding below is this
// script's own (8-bit and lower bit depths, grey, palette, tRNS; no gamma applied, as pngjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';

function decodePNG(file) {
  const bytes = fs.readFileSync(file);
  let offset = 8, header, palette, transparency;
  const data = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8], colorType: body[9], interlace: body[12] };
    else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const { width, height, depth, colorType, interlace } = header;
  if (interlace !== 0 || depth === 16) throw new Error(`${file}: interlaced and 16-bit PNGs are not handled here`);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  const bitsPerPixel = channels * depth, stride = Math.ceil(width * bitsPerPixel / 8), bpp = Math.max(1, bitsPerPixel >> 3);
  const raw = zlib.inflateSync(Buffer.concat(data));
  const rows = [];
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? row[i - bpp] : 0, up = previous[i], upLeft = i >= bpp ? previous[i - bpp] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft, pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      row[i] = (row[i] + predictor) & 255;
    }
    rows.push(row);
    previous = row;
  }
  const out = Buffer.alloc(width * height * 4);
  const scale = 255 / ((1 << depth) - 1);
  for (let y = 0; y < height; y++) {
    const row = rows[y];
    const sample = (index) => depth === 8 ? row[index] : (row[(index * depth) >> 3] >> (8 - depth - ((index * depth) & 7))) & ((1 << depth) - 1);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (colorType === 3) {
        const i = sample(x);
        out[o] = palette[i * 3]; out[o + 1] = palette[i * 3 + 1]; out[o + 2] = palette[i * 3 + 2];
        out[o + 3] = transparency && i < transparency.length ? transparency[i] : 255;
      } else if (colorType === 0 || colorType === 4) {
        const v = sample(x * channels);
        out[o] = out[o + 1] = out[o + 2] = Math.round(v * scale);
        out[o + 3] = colorType === 4 ? row[x * 2 + 1] : (transparency && transparency.readUInt16BE(0) === v ? 0 : 255);
      } else {
        for (let c = 0; c < channels; c++) out[o + c] = row[x * channels + c];
        if (colorType === 2) {
          const t = transparency && [0, 2, 4].every((k, c) => transparency.readUInt16BE(k) === row[x * 3 + c]);
          out[o + 3] = t ? 0 : 255;
        }
      }
    }
  }
  return { width, height, data: out };
}

const [playwright, ...files] = process.argv.slice(2);
const source = path.join(playwright, 'packages', 'utils', 'image_tools');
const staged = fs.mkdtempSync(path.join(os.tmpdir(), 'playwright-image-tools-'));
for (const name of fs.readdirSync(source).filter(n => n.endsWith('.ts'))) {
  const text = fs.readFileSync(path.join(source, name), 'utf8').replace(/from '(\.\/[A-Za-z]+)'/g, "from '$1.ts'");
  fs.writeFileSync(path.join(staged, name), text);
}
const { compare } = await import(pathToFileURL(path.join(staged, 'compare.ts')).href);
for (let i = 0; i + 1 < files.length; i += 2) {
  const expected = decodePNG(files[i]), actual = decodePNG(files[i + 1]);
  const start = process.hrtime.bigint();
  const count = compare(actual.data, expected.data, null, actual.width, actual.height, { maxColorDeltaE94: 1.0 });
  const milliseconds = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${count}\t${milliseconds.toFixed(1)}\t${files[i]}\t${files[i + 1]}`);
}
fs.rmSync(staged, { recursive: true, force: true });
