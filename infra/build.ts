/**
 * Trigger: `npm run build` (and `npm run package`). Job: bundles each Lambda function's
 * `functions/<fn>/handler.ts` with esbuild into `dist/<fn>/index.mjs` (ESM, node22, AWS SDK external),
 * refusing bundles that pull a forbidden package. Output: the bundles and a size table on stdout.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { Command } from 'commander'
import { build, type Metafile } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The Lambda functions serverless.yml declares, and the packages each must not bundle. */
export const LAMBDA_FUNCTIONS = {
  decide: { forbidden: ['@kubernetes/client-node'] },
  write: { forbidden: [] },
  alert: { forbidden: ['@kubernetes/client-node'] },
  api: { forbidden: [] },
} as const satisfies Record<string, { forbidden: readonly string[] }>
export type LambdaFunction = keyof typeof LAMBDA_FUNCTIONS

// ESM bundles of CommonJS dependencies still call require(); give them one.
const BANNER = "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);"

export type BundleReport = { fn: LambdaFunction; bytes: number; gzipBytes: number; ms: number; largest: string[] }

/** bundleFunction bundles one handler and fails if its metafile shows a forbidden package. */
export async function bundleFunction(fn: LambdaFunction, root = ROOT): Promise<BundleReport> {
  const started = performance.now()
  const outfile = join(root, 'dist', fn, 'index.mjs')
  const result = await build({
    entryPoints: [join(root, 'functions', fn, 'handler.ts')],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: ['@aws-sdk/*'],
    banner: { js: BANNER },
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const inputs = Object.keys(result.metafile.inputs)
  for (const pkg of LAMBDA_FUNCTIONS[fn].forbidden) {
    const offenders = inputs.filter((path) => path.includes(`node_modules/${pkg}/`))
    if (offenders.length > 0) {
      rmSync(outfile, { force: true })
      throw new Error(
        `${fn} bundle must not include ${pkg}, but it pulls ${offenders.length} file(s), e.g. ${offenders[0]}`,
      )
    }
  }
  const output = Object.values(result.metafile.outputs)[0]
  return {
    fn,
    bytes: output?.bytes ?? 0,
    gzipBytes: gzipSync(readFileSync(outfile)).length,
    ms: Math.round(performance.now() - started),
    largest: largestPackages(result.metafile, 3),
  }
}

/** largestPackages names the packages (or `src`) contributing most bytes to a bundle. */
function largestPackages(metafile: Metafile, count: number): string[] {
  const byPackage = new Map<string, number>()
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
      const key = match?.[1] ?? 'src'
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput)
    }
  }
  return [...byPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${kib(bytes)}`)
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

/** writePlaceholder writes a bundle that fails every invocation, so a function not yet written still packages. */
function writePlaceholder(fn: LambdaFunction, root = ROOT): void {
  const outfile = join(root, 'dist', fn, 'index.mjs')
  mkdirSync(dirname(outfile), { recursive: true })
  const message = `nodewarden: functions/${fn}/handler.ts was not built (it did not exist at build time)`
  writeFileSync(outfile, `export const handler = async () => { throw new Error(${JSON.stringify(message)}) }\n`)
}

async function main(): Promise<void> {
  const options = new Command('build')
    .description('Bundle the Lambda functions into dist/<fn>/index.mjs with esbuild.')
    .option('--only <names>', 'comma-separated functions to build (default: all)')
    .option('--require-all', 'fail when a function has no handler.ts instead of packaging a placeholder')
    .parse()
    .opts<{ only?: string; requireAll?: boolean }>()
  const names = (Object.keys(LAMBDA_FUNCTIONS) as LambdaFunction[]).filter(
    (fn) => !options.only || options.only.split(',').includes(fn),
  )
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  let failed = false
  for (const fn of names) {
    const entry = join(ROOT, 'functions', fn, 'handler.ts')
    if (!existsSync(entry)) {
      if (options.requireAll) {
        process.stderr.write(`build: ${relative(ROOT, entry)} does not exist\n`)
        failed = true
        continue
      }
      writePlaceholder(fn)
      process.stdout.write(
        `${fn.padEnd(7)} skipped: ${relative(ROOT, entry)} does not exist yet (placeholder bundle)\n`,
      )
      continue
    }
    try {
      const r = await bundleFunction(fn)
      process.stdout.write(
        `${fn.padEnd(7)} dist/${fn}/index.mjs ${kib(r.bytes).padStart(10)} (${kib(r.gzipBytes)} gz) in ${r.ms} ms; largest: ${r.largest.join(', ')}\n`,
      )
    } catch (err) {
      process.stderr.write(`build: ${fn}: ${(err as Error).message}\n`)
      failed = true
    }
  }
  if (failed) process.exit(1)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
