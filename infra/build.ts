/**
 * Trigger: `npm run build` (and `npm run package`). Job: bundles each Lambda function's
 * `functions/<fn>/handler.ts` with esbuild into `dist/<fn>/index.mjs` (ESM, node22, AWS SDK external),
 * refusing bundles that pull a forbidden package, and the in-cluster watcher's `functions/watcher/main.ts`
 * into `dist/watcher/index.mjs` (self-contained: its image has no node_modules).
 * Output: the bundles and a size table on stdout.
 */
import { readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

export type BundleReport = {
  fn: LambdaFunction | 'watcher'
  bytes: number
  gzipBytes: number
  ms: number
  largest: string[]
}

/** bundleFunction bundles one handler and fails if its metafile shows a forbidden package. */
export async function bundleFunction(fn: LambdaFunction, root = ROOT): Promise<BundleReport> {
  const outfile = join(root, 'dist', fn, 'index.mjs')
  return bundle(fn, join(root, 'functions', fn, 'handler.ts'), outfile, ['@aws-sdk/*'], (inputs) => {
    for (const pkg of LAMBDA_FUNCTIONS[fn].forbidden) {
      const offenders = inputs.filter((path) => path.includes(`node_modules/${pkg}/`))
      if (offenders.length > 0) {
        rmSync(outfile, { force: true })
        throw new Error(
          `${fn} bundle must not include ${pkg}, but it pulls ${offenders.length} file(s), e.g. ${offenders[0]}`,
        )
      }
    }
  })
}

/**
 * bundleWatcher bundles the watcher shim for its container image: one self-contained ESM file (the
 * AWS SDK included, as the image has no node_modules), run by plain node without tsx.
 */
export function bundleWatcher(outfile = join(ROOT, 'dist', 'watcher', 'index.mjs')): Promise<BundleReport> {
  return bundle('watcher', join(ROOT, 'functions', 'watcher', 'main.ts'), outfile, [], () => {})
}

/** bundle builds one minified node22 ESM bundle, lets `check` refuse its inputs, and reports its size. */
async function bundle(
  fn: BundleReport['fn'],
  entry: string,
  outfile: string,
  external: string[],
  check: (inputs: string[]) => void,
): Promise<BundleReport> {
  const started = performance.now()
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external,
    banner: { js: BANNER },
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  check(Object.keys(result.metafile.inputs))
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

async function main(): Promise<void> {
  const options = new Command('build')
    .description('Bundle the Lambda functions into dist/<fn>/index.mjs and the watcher into dist/watcher/index.mjs.')
    .option(
      '--only <names>',
      `comma-separated bundles to build: ${[...Object.keys(LAMBDA_FUNCTIONS), 'watcher']} (default: all)`,
    )
    .parse()
    .opts<{ only?: string }>()
  const wanted = (name: string) => !options.only || options.only.split(',').includes(name)
  const jobs: Array<() => Promise<BundleReport>> = (Object.keys(LAMBDA_FUNCTIONS) as LambdaFunction[])
    .filter(wanted)
    .map((fn) => () => bundleFunction(fn))
  if (wanted('watcher')) jobs.push(() => bundleWatcher())
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  let failed = false
  for (const job of jobs) {
    try {
      const r = await job()
      process.stdout.write(
        `${r.fn.padEnd(7)} dist/${r.fn}/index.mjs ${kib(r.bytes).padStart(10)} (${kib(r.gzipBytes)} gz) in ${r.ms} ms; largest: ${r.largest.join(', ')}\n`,
      )
    } catch (err) {
      process.stderr.write(`build: ${(err as Error).message}\n`)
      failed = true
    }
  }
  if (failed) process.exit(1)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
