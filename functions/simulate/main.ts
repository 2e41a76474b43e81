/**
 * Trigger: `nodewarden simulate <file>` / `npm run simulate -- <file>`. Job: applies the policy at
 * `--at` to what `kubectl get nodes,pods,pdb -A -o json` printed, offline. Output: a readable
 * report on stdout (or JSON with --output json); warnings on stderr; exit 1 on unusable input.
 */
import { readFile } from 'node:fs/promises'
import { Command, InvalidArgumentError, Option } from 'commander'
import { defaultPolicy, loadPolicyFile } from '../../shared/config/index.ts'
import { renderText } from './render-text.ts'
import { simulate } from './simulate.ts'
import { readStatsDir } from './stats-dir.ts'

function parseAt(text: string): Date {
  const at = new Date(text)
  if (Number.isNaN(at.getTime()))
    throw new InvalidArgumentError(`not a timestamp: ${text} (use RFC 3339, e.g. 2026-11-22T10:00:00Z)`)
  return at
}

const program = new Command('nodewarden simulate')
  .description(
    'Apply the nodewarden policy to a cluster snapshot (kubectl get nodes,pods,pdb -A -o json) without touching the cluster.',
  )
  .argument('<file>', 'a v1 List as printed by kubectl get nodes,pods,pdb -A -o json ("-" for stdin)')
  .option('--at <time>', 'evaluate at this time (RFC 3339; default now)', parseAt)
  .option('--config <file>', 'policy document (YAML or JSON; default: built-in defaults)')
  .option(
    '--stats <dir>',
    'kubelet Summary per node, <dir>/<node>.json (kubectl get --raw /api/v1/nodes/<node>/proxy/stats/summary): adds signals, thresholds met, the kubelet ranking and the relief candidate per node',
  )
  .addOption(new Option('--output <format>', 'report format').choices(['text', 'json']).default('text'))
  .option('--max-rows <n>', 'rows per section in text output', (v) => Number.parseInt(v, 10), 50)
  .action(
    async (
      file: string,
      opts: { at?: Date; config?: string; stats?: string; output: 'text' | 'json'; maxRows: number },
    ) => {
      const policy = opts.config ? await loadPolicyFile(opts.config) : defaultPolicy()
      const text = file === '-' ? await readStdin() : await readFile(file, 'utf8')
      let list: unknown
      try {
        list = JSON.parse(text)
      } catch (err) {
        throw new Error(`${file} is not JSON: ${(err as Error).message}`)
      }
      const stats = opts.stats ? await readStatsDir(opts.stats) : undefined
      const report = simulate(list, policy, opts.at ?? new Date(), {
        ...(stats ? { stats: stats.docs, statsSource: opts.stats } : {}),
      })
      report.warnings.unshift(...(stats?.warnings ?? []))
      for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`)
      process.stdout.write(
        opts.output === 'json'
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${renderText(report, { maxRows: opts.maxRows })}\n`,
      )
    },
  )

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

try {
  await program.parseAsync(process.argv)
} catch (err) {
  process.stderr.write(`nodewarden simulate: ${(err as Error).message}\n`)
  process.exitCode = 1
}
