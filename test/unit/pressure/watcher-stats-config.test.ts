import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIG_HELP, loadConfig, loadReliefConfig } from '../../../functions/watcher/config.ts'
import { DEFAULT_RELIEF_CONFIG, requestRate } from '../../../shared/pressure/index.ts'

const base = { EVENTS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/e.fifo', KUBECONFIG: '/k' }

describe('watcher stats collection configuration', () => {
  it('is on by default with the policy defaults (15s short, 5m slow, 8 in flight)', () => {
    const config = loadConfig(base)
    expect(config.stats).toEqual({ collect: {} })
    expect(loadReliefConfig({ collect: {} }).collect).toEqual(DEFAULT_RELIEF_CONFIG.collect)
  })

  it('turns off with STATS_COLLECTION=false', () => {
    expect(loadConfig({ ...base, STATS_COLLECTION: 'false' }).stats).toBe(false)
  })

  it('takes the intervals, concurrency and timeout from the environment over the policy file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nw-watcher-'))
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, 'pressure:\n  collect: { shortInterval: 30s, concurrency: 4 }\n  relief: { interval: 2m }\n')
    const config = loadConfig({
      ...base,
      NODEWARDEN_POLICY_FILE: file,
      STATS_SLOW_INTERVAL: '10m',
      STATS_CONCURRENCY: '16',
    })
    if (config.stats === false) throw new Error('stats should be on')
    const relief = loadReliefConfig(config.stats)
    expect(relief.collect).toMatchObject({ shortInterval: 30_000, slowInterval: 600_000, concurrency: 16 })
    expect(relief.relief.interval).toBe(120_000)
  })

  it.each([
    { name: 'a bad interval', env: { STATS_SHORT_INTERVAL: 'often' }, error: /STATS_SHORT_INTERVAL/ },
    { name: 'too much concurrency', env: { STATS_CONCURRENCY: '500' }, error: /STATS_CONCURRENCY/ },
    { name: 'a bad switch', env: { STATS_COLLECTION: 'maybe' }, error: /STATS_COLLECTION/ },
  ])('names the variable for $name', ({ env, error }) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(error)
  })

  it('refuses a short interval longer than the slow one', () => {
    const config = loadConfig({ ...base, STATS_SHORT_INTERVAL: '10m', STATS_SLOW_INTERVAL: '1m' })
    if (config.stats === false) throw new Error('stats should be on')
    expect(() => loadReliefConfig(config.stats as Exclude<typeof config.stats, false>)).toThrow(/STATS_SHORT_INTERVAL/)
  })

  it('fails at start on a policy file with a malformed threshold, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nw-watcher-'))
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, 'pressure:\n  relief:\n    thresholds: { nodefs.available: "ten percent" }\n')
    expect(() => loadReliefConfig({ policyFile: file, collect: {} })).toThrow(
      'pressure.relief.thresholds["nodefs.available"]',
    )
  })

  it('states the request rate at 5,000 nodes in --help, matching requestRate', () => {
    expect(requestRate(5_000, 100, DEFAULT_RELIEF_CONFIG)).toBeCloseTo(23, 0)
    expect(requestRate(5_000, 0, DEFAULT_RELIEF_CONFIG)).toBeCloseTo(16.7, 1)
    expect(CONFIG_HELP).toContain('≈ 23 requests/s')
    expect(CONFIG_HELP).toContain('all calm: 16.7/s')
  })
})
