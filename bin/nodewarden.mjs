#!/usr/bin/env node
// Trigger: `nodewarden <command> …` (package bin). Job: dispatch a subcommand to its TypeScript
// entry under tsx. Output: whatever the subcommand prints; its exit code.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const COMMANDS = {
  start: ['functions/local/main.ts', 'run the whole pipeline locally (embedded cluster and SQS, or --kubeconfig)'],
  simulate: ['functions/simulate/main.ts', 'apply the policy to a `kubectl get nodes,pods,pdb -A -o json` List'],
  cluster: ['functions/cluster/main.ts', 'start the embedded Kubernetes API emulator alone, for kubectl'],
  watcher: ['functions/watcher/main.ts', 'run the watcher shim against a cluster (as its Deployment does)'],
}
const USAGE = [
  'Usage: nodewarden <command> [options]',
  '',
  'The node-health guard for Kubernetes. `nodewarden <command> --help` explains each command.',
  '',
  'Commands:',
  ...Object.entries(COMMANDS).map(([name, [, about]]) => `  ${name.padEnd(10)}${about}`),
  '',
].join('\n')

const [command, ...args] = process.argv.slice(2)
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(USAGE)
  process.exit(command === undefined ? 2 : 0)
}
const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command][0] : undefined
if (!entry) {
  process.stderr.write(`nodewarden: unknown command ${JSON.stringify(command)}\n\n${USAGE}`)
  process.exit(2)
}
const tsx = createRequire(import.meta.url).resolve('tsx/cli')
const result = spawnSync(process.execPath, [tsx, join(root, entry), ...args], { stdio: 'inherit' })
process.exit(result.status ?? 1)
