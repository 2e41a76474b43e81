import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const bin = new URL('../../../bin/nodewarden.mjs', import.meta.url).pathname
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 })

describe('the nodewarden bin', () => {
  it('lists every command with what it does on --help, exit 0', () => {
    const r = run('--help')
    expect(r.status).toBe(0)
    for (const command of ['start', 'simulate', 'cluster', 'watcher'])
      expect(r.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
  })

  it('refuses an unknown command by name with exit 2 and the usage', () => {
    const r = run('simulat')
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('unknown command "simulat"')
    expect(r.stderr).toContain('Usage: nodewarden <command>')
  })

  it.each(['start', 'simulate', 'cluster', 'watcher'])('hands --help to the %s command', (command) => {
    const r = run(command, '--help')
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^Usage: /m)
  })
})
