/**
 * The conv bench's ONNX model: one Conv node in ONNX's layout (X NCHW, W OIHW), the weights an initializer so the
 * runtime may prepack them as it would for a real model; strides, pads and group as attributes.
 */
import { model } from './rowwise-onnx.ts'

export interface ConvModelShape {
  readonly N: number
  readonly H: number
  readonly W: number
  readonly C: number
  readonly K: number
  readonly R: number
  readonly S: number
  readonly stride: number
  readonly pad: number
  readonly groups: number
}

/** Output rows and columns of a padded, strided convolution. */
export const outputSize = (s: ConvModelShape): { P: number; Q: number } => ({
  P: Math.floor((s.H + 2 * s.pad - s.R) / s.stride) + 1,
  Q: Math.floor((s.W + 2 * s.pad - s.S) / s.stride) + 1,
})

/** Y = Conv(X, W): X [N, C, H, W], W [K, C / groups, R, S] (OIHW), Y [N, K, P, Q]. */
export function convModel(s: ConvModelShape, weightsOihw: Float32Array): Uint8Array {
  const { P, Q } = outputSize(s)
  return model(
    [{
      op: 'Conv', inputs: ['X', 'W'], output: 'Y',
      attributes: {
        kernel_shape: [s.R, s.S], strides: [s.stride, s.stride], pads: [s.pad, s.pad, s.pad, s.pad], group: s.groups,
      },
    }],
    [{ name: 'X', shape: [s.N, s.C, s.H, s.W] }],
    { name: 'Y', shape: [s.N, s.K, P, Q] },
    [{ name: 'W', shape: [s.K, s.C / s.groups, s.R, s.S], data: weightsOihw }],
  )
}
