import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * readStatsDir reads `simulate --stats <dir>`: one kubelet Summary per node in `<dir>/<node>.json`
 * (what `kubectl get --raw /api/v1/nodes/<node>/proxy/stats/summary` prints). A file that is not
 * JSON is a warning, and its node's signals are unknown.
 */
export async function readStatsDir(dir: string): Promise<{ docs: Map<string, unknown>; warnings: string[] }> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'))
  } catch (err) {
    throw new Error(`--stats ${dir}: ${(err as Error).message}`, { cause: err })
  }
  const docs = new Map<string, unknown>()
  const warnings: string[] = []
  for (const name of names.sort()) {
    const path = join(dir, name)
    try {
      docs.set(name.slice(0, -'.json'.length), JSON.parse(await readFile(path, 'utf8')))
    } catch (err) {
      warnings.push(`${path} is not JSON (${(err as Error).message}): its node's signals are unknown`)
    }
  }
  return { docs, warnings }
}
