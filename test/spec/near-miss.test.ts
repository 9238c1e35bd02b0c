import { expect, test } from 'vitest'
import { nearMiss } from '../../plugin/near-miss.ts'

test('the likeliest meant name: case first, then a small edit distance by length', () => {
  expect(nearMiss('k', ['M', 'N', 'K'])).toBe('K')
  expect(nearMiss('z', ['x', 'y'])).toBeUndefined() // a one-letter name is one edit from any other
  expect(nearMiss('bais', ['x', 'bias', 'y'])).toBe('bias') // a transposition is one edit
  expect(nearMiss('sigmiod', ['exp', 'sigmoid', 'sqrt'])).toBe('sigmoid')
  expect(nearMiss('weights', ['w', 'bias'])).toBeUndefined()
  expect(nearMiss('Kk', ['K', 'M'])).toBe('K')
  expect(nearMiss('alpha', ['alpha'])).toBeUndefined() // not itself
})
