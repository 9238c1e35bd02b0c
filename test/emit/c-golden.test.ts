// Emitted C compared with reviewed goldens. `UPDATE_GOLDEN=1 npx vitest run test/emit` rewrites them; review the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import { AVX2, SCALAR } from '../../plugin/targets/index.ts'
import { contractionKernel } from '../support/contractions.ts'
import { CONV_SPECS } from '../support/convolutions.ts'
import * as K from './kernels.ts'

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden')

function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name)
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual)
  expect(existsSync(file), `${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/emit`).toBe(true)
  expect(actual).toBe(readFileSync(file, 'utf8'))
}

describe('C goldens', () => {
  it('matmul', () => expectGolden('matmul.c', emitC(K.matmul, 'kc_0_matmul')))
  it('softmax', () => expectGolden('softmax.c', emitC(K.softmax, 'kc_1_softmax')))
  it('conv1d', () => expectGolden('conv1d.c', emitC(K.conv1d, 'kc_2_conv1d')))
  it('a depthwise 3×3 on avx2: the channel loop runs as lanes around the taps, sums in registers', () => {
    const depthwise = vectorize(contractionKernel(CONV_SPECS.depthwise, 'depthwise'))
    expectGolden('depthwise-avx2.c', emitC(depthwise, 'kc_3_depthwise', AVX2))
    // Without lanes, the channel loop runs innermost again, under the taps.
    const heads = [...emitC(depthwise, 'kc_3_depthwise', SCALAR).matchAll(/for \(int64_t (\w+) = /g)].map((m) => m[1])
    expect(heads.slice(-3)).toEqual(['r', 's', 'c'])
  })
  it('addon translation unit', () => {
    const kernels = [
      { kernel: K.matmul, abi: K.abiOf(K.matmul), symbol: 'kc_0_matmul' },
      { kernel: K.softmax, abi: K.abiOf(K.softmax), symbol: 'kc_1_softmax' },
    ]
    for (const f of emitAddonSource(kernels, { moduleId: 'examples/kernels/nn.ts' })) expectGolden(`addon-${f.name}`, f.text)
  })
})
