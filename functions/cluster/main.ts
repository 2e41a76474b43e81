/**
 * Trigger: `npm run cluster -- --scenario <file>`. Job: starts the Kubernetes API emulator alone, seeds
 * the scenario (or a generated cluster) and plays its timeline. Output: the URL and a kubeconfig path for kubectl.
 */
import { Command } from 'commander'
import { createLogger } from '../../shared/log.ts'
import { startEmulator } from './emulator.ts'
import { generateCluster } from './scenario/generate.ts'
import { loadScenarioFile } from './scenario/load.ts'
import { playScenario } from './scenario/player.ts'
import type { Scenario } from './scenario/schema.ts'

const program = new Command('cluster')
  .description('Run the embedded Kubernetes API emulator with a scenario; point kubectl at the printed kubeconfig.')
  .option('--scenario <file>', 'scenario file (YAML or JSON); default functions/cluster/scenarios/demo.yaml')
  .option('--generate <nodes>x<pods>', 'instead of a scenario, generate a synthetic cluster, e.g. 5000x30')
  .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '0')
  .option('--clock <clock>', 'real or virtual', 'real')
  .option('--speed <n>', 'virtual seconds per real second (with --clock virtual)', '60')
  .option('--kubeconfig-dir <dir>', 'where to write kubeconfig.yaml (default: a temp dir)')
  .option('--no-kubelets', 'do not emulate kubelet heartbeats and lease renewals')
  .parse()

const opts = program.opts<{
  scenario?: string
  generate?: string
  port: string
  clock: string
  speed: string
  kubeconfigDir?: string
  kubelets: boolean
}>()
const log = createLogger('cluster')

function scenarioFromOptions(): Scenario {
  if (opts.generate) {
    const m = /^(\d+)x(\d+)$/.exec(opts.generate)
    if (!m) throw new Error(`--generate: expected <nodes>x<pods>, got "${opts.generate}"`)
    return generateCluster({ nodes: Number(m[1]), podsPerNode: Number(m[2]), zones: 3, seed: 1 })
  }
  return loadScenarioFile(opts.scenario ?? new URL('./scenarios/demo.yaml', import.meta.url).pathname)
}

if (opts.clock !== 'real' && opts.clock !== 'virtual')
  throw new Error(`--clock: expected real or virtual, got "${opts.clock}"`)
const scenario = scenarioFromOptions()
const emulator = await startEmulator({ port: Number(opts.port), log })
const kubeconfig = emulator.writeKubeconfig(opts.kubeconfigDir)
const player = playScenario(emulator, scenario, {
  clock: opts.clock,
  speed: Number(opts.speed),
  kubelets: opts.kubelets,
  log,
})
process.stdout.write(
  `emulator: ${emulator.url}\nkubeconfig: ${kubeconfig}\nscenario: ${scenario.name} (${scenario.timeline.length} steps)\n` +
    `try: KUBECONFIG=${kubeconfig} kubectl get nodes,pods,pdb -A\n`,
)
player.done.then(() => log.info('scenario timeline finished', { steps: player.applied.length }))
const shutdown = async () => {
  player.stop()
  await emulator.close()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
