#!/usr/bin/env node
// Trigger: `nodewarden <command> …` (package bin). Job: dispatch a subcommand to its TypeScript
// entry under tsx. Output: whatever the subcommand prints; its exit code.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const COMMANDS = { simulate: 'functions/simulate/main.ts' }
const [command, ...args] = process.argv.slice(2)
const entry = COMMANDS[command ?? '']
if (!entry) {
  process.stderr.write(`usage: nodewarden <command> [options]\ncommands: ${Object.keys(COMMANDS).join(', ')}\n`)
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2)
}
const tsx = createRequire(import.meta.url).resolve('tsx/cli')
const result = spawnSync(process.execPath, [tsx, join(root, entry), ...args], { stdio: 'inherit' })
process.exit(result.status ?? 1)
