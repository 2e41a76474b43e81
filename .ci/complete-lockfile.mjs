// Completes package-lock.json with the platform-specific optional packages that the npm registry
// mirror on our build machines cannot serve (e.g. @biomejs/cli-darwin-arm64): `npm install` here
// silently leaves them out, and `npm ci` then rejects the lock as out of sync. Each missing entry
// is recorded as optional with the os/cpu/libc its name declares, so npm skips it on every other
// platform and fetches it from the registry only on its own. Run after `npm install` on such a
// machine: `node .ci/complete-lockfile.mjs`. It changes nothing when the lock is complete.
import { readFileSync, writeFileSync } from 'node:fs'

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'sunos', 'win32', 'aix', 'netbsd']
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el']

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const added = []
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${key ? `${key}/` : ''}node_modules/${name}`
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue
    const parts = name.split('/').pop().split('-')
    const os = parts.find((p) => OS.includes(p))
    const cpu = parts.find((p) => CPU.includes(p))
    if (!os || !cpu) continue // not a platform package: leave it to npm
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(parts.includes('musl') ? { libc: ['musl'] } : {}),
      optional: true,
      os: [os],
    }
    added.push(`${name}@${version}`)
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
)
if (added.length) writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `added ${added.length}: ${added.join(', ')}` : 'lockfile complete')
