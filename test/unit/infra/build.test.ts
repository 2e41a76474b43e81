import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleFunction, type LambdaFunction } from '../../../infra/build.ts'

const ROOT = join(import.meta.dirname, '../../..')
let root: string

/** A throwaway project root inside node_modules, so fixture handlers resolve the real packages. */
beforeAll(() => {
  const cache = join(ROOT, 'node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  root = mkdtempSync(join(cache, 'nodewarden-build-'))
  const handler = (fn: LambdaFunction, source: string) => {
    mkdirSync(join(root, 'functions', fn), { recursive: true })
    writeFileSync(join(root, 'functions', fn, 'handler.ts'), source)
  }
  const usesKube = `import { KubeConfig } from '@kubernetes/client-node'\nexport const handler = async () => new KubeConfig().getContexts().length\n`
  handler('decide', usesKube)
  handler('write', usesKube)
  handler('alert', `import * as z from 'zod'\nexport const handler = async (e: unknown) => z.object({}).parse(e)\n`)
}, 30_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('bundleFunction', () => {
  it('refuses a decide bundle that pulls @kubernetes/client-node, leaving no bundle behind', async () => {
    await expect(bundleFunction('decide', root)).rejects.toThrow(
      /decide bundle must not include @kubernetes\/client-node/,
    )
    expect(existsSync(join(root, 'dist/decide/index.mjs'))).toBe(false)
  })

  it('lets the writer bundle @kubernetes/client-node', async () => {
    const report = await bundleFunction('write', root)
    expect(report.largest.join(' ')).toContain('@kubernetes/client-node')
  })

  it('writes an ESM bundle with a require shim and reports its size', async () => {
    const report = await bundleFunction('alert', root)
    expect(report.bytes).toBeGreaterThan(0)
    expect(report.gzipBytes).toBeLessThan(report.bytes)
    const mod = (await import(join(root, 'dist/alert/index.mjs'))) as { handler: (e: unknown) => Promise<unknown> }
    await expect(mod.handler({})).resolves.toEqual({})
  })
})
