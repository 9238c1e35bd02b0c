/**
 * The row-wise bench's ONNX models, written with protobuf.ts like onnx-model.ts's MatMul: Softmax and
 * LayerNormalization over the last axis, BatchNormalization followed by Relu (NCHW, ONNX's layout), and ReduceMean.
 * Their attributes keep their defaults (axis -1, epsilon 1e-5: the kernels' own), so those nodes carry none; ReduceMean
 * names its axes.
 * Field numbers are onnx/onnx.proto's, as cited in onnx-model.ts.
 */
import { bytesField, concat, intField, messageField, stringField } from './protobuf.ts'

/** IR version 8 and opset 17, the first with LayerNormalization. */
const IR_VERSION = 8
const OPSET = 17
/** TensorProto.DataType.FLOAT */
const FLOAT = 1

export interface GraphInput {
  readonly name: string
  readonly shape: readonly number[]
}

export interface Node {
  readonly op: string
  readonly inputs: readonly string[]
  readonly output: string
  /** Integer, integer-list and string attributes (Conv's strides, pads, group...; Einsum's equation). */
  readonly attributes?: Readonly<Record<string, number | readonly number[] | string>>
}

/** A constant input (a Conv's weights), stored in the model so the runtime may prepack it. */
export interface Initializer extends GraphInput {
  readonly data: Float32Array
}

/** Y = Softmax(X) over rows of X [N, D]. */
export const softmaxModel = (N: number, D: number): Uint8Array =>
  model([{ op: 'Softmax', inputs: ['X'], output: 'Y' }], [{ name: 'X', shape: [N, D] }], { name: 'Y', shape: [N, D] })

/** Y = LayerNormalization(X, gamma, beta) over rows of X [N, D]. */
export const layerNormModel = (N: number, D: number): Uint8Array =>
  model(
    [{ op: 'LayerNormalization', inputs: ['X', 'gamma', 'beta'], output: 'Y' }],
    [{ name: 'X', shape: [N, D] }, { name: 'gamma', shape: [D] }, { name: 'beta', shape: [D] }],
    { name: 'Y', shape: [N, D] },
  )

/** Y = Relu(BatchNormalization(X, gamma, beta, mean, variance)), X [N, C, H, W]. */
export function batchNormReluModel(N: number, C: number, H: number, W: number): Uint8Array {
  const perChannel = ['gamma', 'beta', 'mean', 'variance'].map((name) => ({ name, shape: [C] }))
  return model(
    [
      { op: 'BatchNormalization', inputs: ['X', 'gamma', 'beta', 'mean', 'variance'], output: 'T' },
      { op: 'Relu', inputs: ['T'], output: 'Y' },
    ],
    [{ name: 'X', shape: [N, C, H, W] }, ...perChannel],
    { name: 'Y', shape: [N, C, H, W] },
  )
}

/** M = ReduceMean(X) over the first three axes of X [N, H, W, C]: a per-channel mean (`axes` an attribute until opset 18). */
export const channelMeanModel = (N: number, H: number, W: number, C: number): Uint8Array =>
  model(
    [{ op: 'ReduceMean', inputs: ['X'], output: 'Y', attributes: { axes: [0, 1, 2], keepdims: 0 } }],
    [{ name: 'X', shape: [N, H, W, C] }],
    { name: 'Y', shape: [C] },
  )

/** ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 (OperatorSetIdProto: version = 2). */
export function model(
  nodes: readonly Node[], inputs: readonly GraphInput[], output: GraphInput, initializers: readonly Initializer[] = [],
): Uint8Array {
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const graph = messageField(7, [
    ...nodes.map((n) => messageField(1, nodeProto(n))),
    stringField(2, 'polykern_rowwise_bench'),
    ...initializers.map(tensorProto),
    ...inputs.map((i) => messageField(11, valueInfo(i))),
    messageField(12, valueInfo(output)),
  ])
  return concat([intField(1, IR_VERSION), stringField(2, 'polykern-bench'), graph, messageField(8, [intField(2, OPSET)])])
}

/**
 * NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5. AttributeProto: name = 1, i = 3, s = 4,
 * ints = 8 (not packed: onnx.proto is proto2), type = 20 (INT = 2, STRING = 3, INTS = 7).
 */
const nodeProto = (n: Node): Uint8Array[] => [
  ...n.inputs.map((i) => stringField(1, i)),
  stringField(2, n.output),
  stringField(3, n.op.toLowerCase()),
  stringField(4, n.op),
  ...Object.entries(n.attributes ?? {}).map(([name, v]) =>
    messageField(5, [
      stringField(1, name),
      ...(typeof v === 'number'
        ? [intField(3, v), intField(20, 2)]
        : typeof v === 'string' ? [stringField(4, v), intField(20, 3)] : [...v.map((x) => intField(8, x)), intField(20, 7)]),
    ])),
]

/** TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9 (little-endian floats). */
const tensorProto = (t: Initializer): Uint8Array =>
  messageField(5, [
    ...t.shape.map((d) => intField(1, d)),
    intField(2, FLOAT),
    stringField(8, t.name),
    bytesField(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)),
  ])

/** ValueInfoProto: name = 1, type = 2; TypeProto.tensor_type = 1; elem_type = 1, shape = 2; dim = 1, dim_value = 1. */
function valueInfo(v: GraphInput): Uint8Array[] {
  const dims = v.shape.map((d) => messageField(1, [intField(1, d)]))
  return [stringField(1, v.name), messageField(2, [messageField(1, [intField(1, FLOAT), messageField(2, dims)])])]
}
