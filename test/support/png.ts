/**
 * Just enough PNG decoding to tell a rendered page from a blank one: the IHDR fields, and the first rows' pixels
 * (8-bit RGB or RGBA, non-interlaced: what Chromium's screenshots are), unfiltered per the PNG spec.
 */
import { inflateSync } from 'node:zlib'

export interface PngHeader {
  readonly width: number
  readonly height: number
  readonly bitDepth: number
  /** 2: RGB, 6: RGBA. */
  readonly colorType: number
  readonly interlace: number
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunks(png: Buffer): { type: string; data: Buffer }[] {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file')
  const out: { type: string; data: Buffer }[] = []
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at)
    out.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) })
    at += 12 + length // length, type, data, CRC
  }
  return out
}

export function pngHeader(png: Buffer): PngHeader {
  const ihdr = chunks(png).find((c) => c.type === 'IHDR')
  if (!ihdr) throw new Error('PNG without IHDR')
  const d = ihdr.data
  return { width: d.readUInt32BE(0), height: d.readUInt32BE(4), bitDepth: d[8], colorType: d[9], interlace: d[12] }
}

/** The first `rows` rows as `0xRRGGBB` colours (alpha dropped), row after row. */
export function pngRows(png: Buffer, rows: number): number[][] {
  const h = pngHeader(png)
  if (h.bitDepth !== 8 || (h.colorType !== 2 && h.colorType !== 6) || h.interlace !== 0) {
    throw new Error(`unsupported PNG: bit depth ${h.bitDepth}, colour type ${h.colorType}, interlace ${h.interlace}`)
  }
  const raw = inflateSync(Buffer.concat(chunks(png).filter((c) => c.type === 'IDAT').map((c) => c.data)))
  const bpp = h.colorType === 6 ? 4 : 3
  const stride = h.width * bpp
  let previous = Buffer.alloc(stride)
  const out: number[][] = []
  for (let r = 0; r < Math.min(rows, h.height); r++) {
    const filter = raw[r * (stride + 1)]
    const line = Buffer.from(raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1)))
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? line[i - bpp] : 0
      const up = previous[i]
      const upLeft = i >= bpp ? previous[i - bpp] : 0
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter} on row ${r}`)
      line[i] = (line[i] + predictor) & 0xff
    }
    const pixels: number[] = []
    for (let i = 0; i < stride; i += bpp) pixels.push((line[i] << 16) | (line[i + 1] << 8) | line[i + 2])
    out.push(pixels)
    previous = line
  }
  return out
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}
