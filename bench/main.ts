/**
 * Trigger: `npm run bench [-- --only <name>]`. Job: runs every `bench/*.bench.ts` module, each of
 * which measures a figure beside its baseline in this same process. Output: one JSON document.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command } from 'commander'

// The AWS SDK prints a Node 20 support notice at client creation; benches run on Node 20 here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'

type BenchModule = { name: string; run: () => Promise<Record<string, unknown>> }

const program = new Command('bench')
  .description('Measure nodewarden figures, each as a ratio to a baseline run in the same process; prints JSON.')
  .option('--only <names>', 'comma-separated bench names to run (default: all)')
  .parse()
const only = (program.opts().only as string | undefined)?.split(',')

const dir = dirname(fileURLToPath(import.meta.url))
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
const results: Record<string, unknown> = {}
for (const file of files) {
  const mod = (await import(join(dir, file))) as BenchModule
  if (only && !only.includes(mod.name)) continue
  process.stderr.write(`bench: ${mod.name}…\n`)
  const started = performance.now()
  results[mod.name] = await mod.run()
  process.stderr.write(`bench: ${mod.name} done in ${Math.round(performance.now() - started)} ms\n`)
}
const report = {
  node: process.version,
  platform: `${process.platform}/${process.arch}`,
  cpus: (await import('node:os')).cpus().length,
  at: new Date().toISOString(),
  results,
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
process.exit(0)
