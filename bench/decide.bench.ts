/**
 * decide: (1) decide time per NodeView for a 110-pod node as a ratio to JSON.parse of the same
 * message body; (2) simulate on a synthetic 5,000-node / 150,000-pod List beside JSON.parse of
 * that List's text. Both figures and both baselines come from this one process.
 */
import { simulate } from '../functions/simulate/simulate.ts'
import { syntheticList } from '../functions/simulate/synthetic-list.ts'
import { defaultPolicy } from '../shared/config/index.ts'
import { buildNodeViews } from '../shared/kube-slim/index.ts'
import { parseEnvelope, serializeEnvelope, toEnvelope } from '../shared/messages/index.ts'
import { decide } from '../shared/policy/index.ts'

export const name = 'decide'

const AT = new Date('2026-11-22T10:01:00Z')

function perOp(fn: () => unknown, minMs = 1500): number {
  for (let i = 0; i < 200; i++) fn()
  let n = 0
  const start = performance.now()
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 50; i++) fn()
    n += 50
  }
  return ((performance.now() - start) * 1000) / n
}

function timeOnce(fn: () => unknown): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? Number.NaN
}

/** The view of the synthetic list's first node (sick: KernelDeadlock, unreachable NoExecute taint) with 110 pods. */
function nodeViewBody(): string {
  const snapshot = buildNodeViews(syntheticList(3, 110), AT)
  const view = snapshot.views[0]
  if (!view) throw new Error('no view')
  return serializeEnvelope(toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'bench', time: AT }))
}

export async function run(): Promise<Record<string, unknown>> {
  const policy = defaultPolicy()
  const body = nodeViewBody()
  const view = parseEnvelope(body, 'io.nodewarden.nodeview.v1').data
  const result = decide(view, policy, AT)
  const jsonParseUs = perOp(() => JSON.parse(body))
  const decideUs = perOp(() => decide(view, policy, AT))
  const parseAndDecideUs = perOp(() => decide(parseEnvelope(body, 'io.nodewarden.nodeview.v1').data, policy, AT))

  const list = syntheticList(5000, 30)
  const text = JSON.stringify(list)
  const parseMs: number[] = []
  const simulateMs: number[] = []
  let report: ReturnType<typeof simulate> | undefined
  for (let i = 0; i < 3; i++) {
    let parsed: unknown
    parseMs.push(timeOnce(() => (parsed = JSON.parse(text))))
    simulateMs.push(timeOnce(() => (report = simulate(parsed, policy, AT))))
  }
  const simulateMedian = median(simulateMs)
  const parseMedian = median(parseMs)
  return {
    nodeView: {
      pods: view.pods.length,
      bytes: Buffer.byteLength(body),
      decisions: result.decisions.length,
      alerts: result.alerts.length,
      decideMicros: Number(decideUs.toFixed(1)),
      baselineJsonParseMicros: Number(jsonParseUs.toFixed(1)),
      ratioDecideToJsonParse: Number((decideUs / jsonParseUs).toFixed(2)),
      aim: '≤ 3×',
      parseEnvelopePlusDecideMicros: Number(parseAndDecideUs.toFixed(1)),
      ratioParseEnvelopePlusDecideToJsonParse: Number((parseAndDecideUs / jsonParseUs).toFixed(2)),
    },
    simulate: {
      nodes: 5000,
      pods: report?.pods.length ?? 0,
      listBytes: text.length,
      decisions: report?.decisions.length ?? 0,
      alerts: report?.alerts.length ?? 0,
      simulateMs: Math.round(simulateMedian),
      baselineJsonParseMs: Math.round(parseMedian),
      ratioSimulateToJsonParse: Number((simulateMedian / parseMedian).toFixed(2)),
      parsePlusSimulateMs: Math.round(simulateMedian + parseMedian),
      aim: 'simulate ≤ 2000 ms on one core',
      runs: simulateMs.map(Math.round),
    },
  }
}
