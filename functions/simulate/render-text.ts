import type { PressureReport } from '../../shared/pressure/index.ts'
import type { SimulateReport } from './simulate.ts'

/** renderText prints a simulate report for people: zones, taints, forecasts, protected pods, decisions, alerts. */
export function renderText(r: SimulateReport, options: { maxRows?: number } = {}): string {
  const max = options.maxRows ?? 50
  const out: string[] = [`nodewarden simulate at ${r.at}`, '']
  const section = (title: string, rows: string[]) => {
    out.push(`${title} (${rows.length})`)
    for (const row of rows.slice(0, max)) out.push(`  ${row}`)
    if (rows.length > max) out.push(`  … ${rows.length - max} more (use --output json for all)`)
    if (rows.length === 0) out.push('  none')
    out.push('')
  }
  section(
    'Zones',
    r.zones.map(
      (z) =>
        `${z.name}: ${z.state} — ${z.ready} ready, ${z.notReady} not ready of ${z.total}; NoExecute rate ${z.ratePerSecond}/s`,
    ),
  )
  section(
    'Taints to add / remove',
    r.taints.map(
      (t) =>
        `${t.action === 'taint' ? '+' : '-'} ${t.node} ${t.key}:${t.effect}${t.notBefore ? ` not before ${t.notBefore}` : ''} — ${t.reason}`,
    ),
  )
  const forecasts = r.pods
    .filter((p) => p.evictAt !== null)
    .sort((a, b) => (a.evictAt ?? '').localeCompare(b.evictAt ?? ''))
  section(
    'Eviction forecasts (control plane, NoExecute)',
    forecasts.map((p) => `${p.namespace}/${p.name} on ${p.node}: ${p.evictAt} — ${p.reason}`),
  )
  section(
    'Protected pods',
    r.pods
      .filter((p) => p.protected)
      .map((p) => `${p.namespace}/${p.name} (${p.node ?? 'unscheduled'}): ${p.protectedReasons.join('; ')}`),
  )
  if (r.nodes) section('Node pressure (kubelet stats)', r.nodes.map(pressureRow))
  section(
    'Decisions',
    r.decisions.map(
      (d) =>
        `${d.action} ${d.target.kind === 'Pod' ? `${d.target.namespace}/${d.target.name}` : d.target.name}${d.notBefore ? ` not before ${d.notBefore}` : ''} [${d.ruleId}] — ${d.reason}`,
    ),
  )
  section(
    'Held or waiting',
    r.verdicts
      .filter((v) => v.outcome === 'hold' || v.outcome === 'wait')
      .map((v) => `${v.outcome} ${v.subject} [${v.ruleId}] — ${v.reason}`),
  )
  section(
    'Alerts',
    r.alerts.map((a) => `${a.severity} ${a.kind} ${a.status}: ${a.summary}`),
  )
  if (r.warnings.length > 0) section('Warnings', r.warnings)
  return out.join('\n')
}

const gib = (n: number) => `${(n / 2 ** 30).toFixed(1)}Gi`
const amount = (signal: string, n: number) => (signal.includes('inodes') || signal.startsWith('pid') ? `${n}` : gib(n))

/** pressureRow renders one node's signals, thresholds met, kubelet ranking and relief candidate. */
function pressureRow(n: PressureReport): string {
  const known = n.signals.filter((s) => s.unknown === undefined)
  const unknown = n.signals.filter((s) => s.unknown !== undefined)
  const lines = [`${n.name}:`]
  if (known.length > 0)
    lines.push(
      `signals: ${known.map((s) => `${s.signal} ${amount(s.signal, s.available ?? 0)} of ${amount(s.signal, s.capacity ?? 0)}`).join(', ')}`,
    )
  if (unknown.length > 0)
    lines.push(`unknown: ${unknown.map((s) => `${s.signal} (${s.unknown})`).join(', ')} — not treated as healthy`)
  lines.push(
    `thresholds met: ${n.thresholdsMet.map((m) => `${m.signal} < ${m.kind} ${m.threshold}${m.gracePending ? ' (grace pending)' : ''}`).join(', ') || 'none'}`,
  )
  if (n.ranking.length > 0) lines.push(`kubelet ranking (${n.rankedFor}): ${n.ranking.join(', ')}`)
  if (n.kubeletVictim) lines.push(`kubelet's next victim: ${n.kubeletVictim}`)
  lines.push(`relief candidate: ${n.reliefCandidate ?? 'none'}${n.holdBack ? ` (held back: ${n.holdBack})` : ''}`)
  return lines.join('\n    ')
}
