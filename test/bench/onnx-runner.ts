/** The `onnxruntime` system: one session per (case, thread count) over a hand-written one-node model. */
import * as ort from 'onnxruntime-node'
import { operandShapes, type GemmCase } from './cases.ts'
import { MODEL_IO, matMulModel } from './onnx-model.ts'

export interface OnnxRunner {
  /** What users pay per call: `session.run` on pre-created input tensors, including its output allocation. */
  readonly run: () => Promise<ort.InferenceSession.ReturnType>
  readonly outputOf: (result: ort.InferenceSession.ReturnType) => Float32Array
  readonly release: () => Promise<void>
}

export async function onnxRunner(c: GemmCase, A: Float32Array, B: Float32Array, threads: number): Promise<OnnxRunner> {
  const shapes = operandShapes(c)
  const model = matMulModel({ a: shapes.a, b: shapes.b, y: shapes.c, transposed: c.transposed })
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  })
  const feeds = {
    [MODEL_IO.a]: new ort.Tensor('float32', A, shapes.a),
    [MODEL_IO.b]: new ort.Tensor('float32', B, shapes.b),
  }
  return {
    run: () => session.run(feeds),
    outputOf: (result) => result[MODEL_IO.y].data as Float32Array,
    release: () => session.release(),
  }
}
