/**
 * The few protobuf wire-format encoders the bench's ONNX writer needs: varint and length-delimited fields.
 * A message is the concatenation of its encoded fields, so messages compose as plain byte arrays.
 * Wire format: https://protobuf.dev/programming-guides/encoding/ (tag = field << 3 | wire type).
 */

const WIRE_VARINT = 0
const WIRE_LENGTH_DELIMITED = 2

/** Base-128 varint, little-endian groups of 7 bits; non-negative integers up to 2^53 (all ONNX needs here). */
export function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`protobuf varint: ${value} is not a non-negative safe integer`)
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return Uint8Array.from(bytes)
}

/** An int32/int64/enum field (wire type 0). */
export function intField(field: number, value: number): Uint8Array {
  return concat([varint((field << 3) | WIRE_VARINT), varint(value)])
}

/** A bytes or embedded-message field (wire type 2): tag, byte length, payload. */
export function bytesField(field: number, payload: Uint8Array): Uint8Array {
  return concat([varint((field << 3) | WIRE_LENGTH_DELIMITED), varint(payload.length), payload])
}

/** A string field: UTF-8 bytes, length-delimited. */
export function stringField(field: number, text: string): Uint8Array {
  return bytesField(field, new TextEncoder().encode(text))
}

/** An embedded message given as its encoded fields. */
export function messageField(field: number, fields: readonly Uint8Array[]): Uint8Array {
  return bytesField(field, concat(fields))
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
