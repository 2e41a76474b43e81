import { describe, expect, it } from 'vitest'
import { taintProblem } from '../../../functions/write/validate-taint.ts'

describe('taintProblem', () => {
  it.each([
    { name: 'a nodewarden key with a value', key: 'nodewarden.io/kernel-deadlock', value: 'true', want: undefined },
    { name: 'a nodewarden key without value', key: 'nodewarden.io/ro_fs.1', value: undefined, want: undefined },
    {
      name: 'a key outside nodewarden.io/',
      key: 'node.kubernetes.io/not-ready',
      value: undefined,
      want: /only writes taints under/,
    },
    { name: 'a key with spaces', key: 'nodewarden.io/bad key', value: undefined, want: /name must be/ },
    { name: 'an empty name', key: 'nodewarden.io/', value: undefined, want: /name must be/ },
    {
      name: 'a name over 63 characters',
      key: `nodewarden.io/${'a'.repeat(64)}`,
      value: undefined,
      want: /name must be/,
    },
    { name: 'an upper-case prefix', key: 'NodeWarden.io/x', value: undefined, want: /prefix must be a DNS subdomain/ },
    { name: 'a value with a slash', key: 'nodewarden.io/x', value: 'a/b', want: /valid label value/ },
  ])('$name', ({ key, value, want }) => {
    const problem = taintProblem({ key, ...(value === undefined ? {} : { value }) })
    if (want === undefined) expect(problem).toBeUndefined()
    else expect(problem).toMatch(want)
  })
})
