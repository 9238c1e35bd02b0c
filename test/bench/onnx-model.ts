/**
 * A one-node ONNX model, Y = A·B, serialized by hand so the bench needs no onnx package. Field numbers are those
 * of onnx/onnx.proto (cited per message below); fp32 inputs with the case's static shapes.
 */
import { concat, intField, messageField, stringField } from './protobuf.ts'
import { model } from './rowwise-onnx.ts'

export interface MatMulModelSpec {
  /** A's shape as stored, row-major: [M, K], [batch, M, K], or [K, M] when `transposed`. */
  readonly a: readonly number[]
  /** B's shape as stored: [K, N], [batch, K, N], or [N, K] when `transposed`. */
  readonly b: readonly number[]
  /** Y's shape: [M, N] or [batch, M, N]. */
  readonly y: readonly number[]
  /** Y = Aᵀ·Bᵀ: a Gemm node with transA = transB = 1 (2-D only) instead of MatMul. */
  readonly transposed?: boolean
}

/** The graph's input and output names. */
export const MODEL_IO = { a: 'A', b: 'B', y: 'Y' } as const

/** IR version 8 and opset 17: both well inside what onnxruntime 1.x loads. */
const IR_VERSION = 8
const OPSET = 17
/** TensorProto.DataType.FLOAT */
const FLOAT = 1
/** AttributeProto.AttributeType.INT */
const ATTRIBUTE_INT = 2

/** The serialized ModelProto, ready for `InferenceSession.create(bytes)`. */
export function matMulModel(spec: MatMulModelSpec): Uint8Array {
  if (spec.transposed && (spec.a.length !== 2 || spec.b.length !== 2)) {
    throw new RangeError('matMulModel: transposed operands are 2-D only (Gemm)')
  }
  const node = spec.transposed
    ? nodeProto('Gemm', [intAttribute('transA', 1), intAttribute('transB', 1)])
    : nodeProto('MatMul', [])
  // GraphProto: node = 1, name = 2, input = 11, output = 12.
  const graph = messageField(7, [
    messageField(1, node),
    stringField(2, 'polykern_bench'),
    messageField(11, valueInfo(MODEL_IO.a, spec.a)),
    messageField(11, valueInfo(MODEL_IO.b, spec.b)),
    messageField(12, valueInfo(MODEL_IO.y, spec.y)),
  ])
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 (OperatorSetIdProto: version = 2).
  return concat([intField(1, IR_VERSION), stringField(2, 'polykern-bench'), graph, messageField(8, [intField(2, OPSET)])])
}

/** NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5. */
function nodeProto(opType: string, attributes: readonly Uint8Array[]): Uint8Array[] {
  return [
    stringField(1, MODEL_IO.a),
    stringField(1, MODEL_IO.b),
    stringField(2, MODEL_IO.y),
    stringField(3, opType.toLowerCase()),
    stringField(4, opType),
    ...attributes.map((a) => messageField(5, [a])),
  ]
}

/** AttributeProto: name = 1, i = 3, type = 20. */
function intAttribute(name: string, value: number): Uint8Array {
  return concat([stringField(1, name), intField(3, value), intField(20, ATTRIBUTE_INT)])
}

/**
 * ValueInfoProto: name = 1, type = 2. TypeProto: tensor_type = 1. TypeProto.Tensor: elem_type = 1, shape = 2.
 * TensorShapeProto: dim = 1. TensorShapeProto.Dimension: dim_value = 1.
 */
function valueInfo(name: string, shape: readonly number[]): Uint8Array[] {
  const dims = shape.map((d) => messageField(1, [intField(1, d)]))
  const tensorType = messageField(1, [intField(1, FLOAT), messageField(2, dims)])
  return [stringField(1, name), messageField(2, [tensorType])]
}

/**
 * Y = Einsum(X0, X1, ...) with the equation attribute (`fbea,ecfd->dcba`): ONNX's Einsum (opset 12 and later), fp32
 * inputs `X0`, `X1`, ... of the given shapes.
 */
export function einsumModel(equation: string, inputs: readonly (readonly number[])[], output: readonly number[]): Uint8Array {
  const names = inputs.map((_, n) => `X${n}`)
  return model(
    [{ op: 'Einsum', inputs: names, output: 'Y', attributes: { equation } }],
    inputs.map((shape, n) => ({ name: names[n], shape })),
    { name: 'Y', shape: output },
  )
}
