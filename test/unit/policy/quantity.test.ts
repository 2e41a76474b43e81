import { describe, expect, it } from 'vitest'
import {
  addQuantities,
  compareQuantities,
  isQuantity,
  parseQuantity,
  QuantityError,
  quantityMilliValue,
  quantityValue,
} from '../../../shared/policy/quantity.ts'

// Semantics of apimachinery resource.Quantity (quantity_test.go: parsing, comparison, Value rounding up).
describe('parseQuantity', () => {
  it.each([
    { a: '1Gi', b: '1024Mi' },
    { a: '1', b: '1000m' },
    { a: '1k', b: '1000' },
    { a: '1e3', b: '1k' },
    { a: '1E3', b: '1000' },
    { a: '1.5Gi', b: '1536Mi' },
    { a: '0.5', b: '500m' },
    { a: '.5', b: '500m' },
    { a: '1000000n', b: '1m' },
    { a: '1000u', b: '1m' },
    { a: '1Ki', b: '1024' },
    { a: '1Ei', b: '1152921504606846976' },
    { a: '1E', b: '1e18' },
    { a: '+5', b: '5' },
    { a: '0', b: '0Gi' },
    { a: '12e-3', b: '12m' },
  ])('$a equals $b by value', ({ a, b }) => {
    expect(compareQuantities(parseQuantity(a), parseQuantity(b))).toBe(0)
  })
  it.each([
    { a: '1Gi', b: '1G', want: 1 },
    { a: '999m', b: '1', want: -1 },
    { a: '-1', b: '0', want: -1 },
    { a: '100Mi', b: '100M', want: 1 },
  ])('$a vs $b → $want', ({ a, b, want }) => {
    expect(compareQuantities(parseQuantity(a), parseQuantity(b))).toBe(want)
  })
  it.each(['', 'Gi', '1.2.3', '1 Gi', '1KiB', '1K', 'abc', '1e', '--1', '1e1001', '.', '1Gi1'])(
    'rejects %j',
    (text) => {
      expect(() => parseQuantity(text)).toThrow(QuantityError)
      expect(isQuantity(text)).toBe(false)
    },
  )
  it.each([
    { q: '1500m', value: 2n, milli: 1500n },
    { q: '1.1', value: 2n, milli: 1100n },
    { q: '0.0001', value: 1n, milli: 1n },
    { q: '2Ki', value: 2048n, milli: 2048000n },
    { q: '-1500m', value: -1n, milli: -1500n },
  ])('Value() rounds up: $q → $value (milli $milli)', ({ q, value, milli }) => {
    expect(quantityValue(parseQuantity(q))).toBe(value)
    expect(quantityMilliValue(parseQuantity(q))).toBe(milli)
  })
  it('adds exactly across suffixes', () => {
    expect(compareQuantities(addQuantities(parseQuantity('512Mi'), parseQuantity('0.5Gi')), parseQuantity('1Gi'))).toBe(
      0,
    )
  })
})
