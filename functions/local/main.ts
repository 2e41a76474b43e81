/**
 * Trigger: `npm start [-- options]`. Job: runs the whole pipeline on one machine — the emulator
 * playing a scenario (or a real cluster via --kubeconfig), embedded SQS, watcher, decide, write, alert, api.
 * Output: what started (addresses, queues), a timeline in scenario time, status lines, a final summary.
 */
import { readFileSync } from 'node:fs'
import { defaultPolicy, loadPolicyText, type Policy } from '../../shared/config/index.ts'
import { loadScenarioFile } from '../cluster/scenario/load.ts'
import { renderBanner, startedInfo } from './banner.ts'
import { type CliOptions, parseCli } from './cli.ts'
import { sleepUntil } from './scenario-clock.ts'
import { type LocalStack, type LocalStackOptions, startLocalStack } from './stack.ts'
import type { StackEvent } from './stack-events.ts'
import { renderSummary, summarizeRun } from './summary.ts'
import { formatStackEvent, isQuiet } from './timeline.ts'

// The AWS SDK warns on Node 20 about its releases after January 2027, not about this run; it reads
// this when the first client is built, which happens below.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'

const options = parseCli(process.argv)
const print = (line: string) => process.stdout.write(`${line}\n`)
const printJson = (record: Record<string, unknown>) => print(JSON.stringify(record))

try {
  await run(options)
} catch (err) {
  process.stderr.write(`nodewarden local: ${describeError(err)}\n`)
  process.exit(1)
}

/** run starts the stack, prints the timeline, waits for the end (or a signal), prints the summary. */
async function run(o: CliOptions): Promise<void> {
  const policy = loadPolicy(o.policy)
  const scenario = o.kubeconfig ? undefined : loadScenarioFile(o.scenario)
  let startedAt: Date | undefined
  const onEvent = (event: StackEvent) => {
    if (o.json) printJson({ ...event })
    else if (startedAt && !isQuiet(event)) print(formatStackEvent(event, startedAt))
  }
  const stack = await startLocalStack({
    ...targetOf(o, scenario),
    ...policyFileOf(o),
    logLevel: o.logLevel,
    badInput: o.badInput,
    onEvent,
  })
  startedAt = stack.startedAt
  const runsFor =
    o.duration ??
    (stack.scenarioEndsAt ? stack.scenarioEndsAt.getTime() - stack.startedAt.getTime() + o.settle : undefined)
  const info = startedInfo(stack, {
    ...(scenario ? { scenario: { name: scenario.name, steps: scenario.timeline.length } } : {}),
    ...(runsFor !== undefined ? { runsFor } : {}),
    ...(o.context ? { context: o.context } : {}),
  })
  if (o.json) printJson({ kind: 'started', at: stack.startedAt.toISOString(), ...info })
  else {
    for (const line of renderBanner(info)) print(line)
    print(
      `timeline (scenario time from ${stack.startedAt.toISOString()}; ${o.keepRunning || runsFor === undefined ? 'Ctrl-C to stop' : 'stops by itself'}):`,
    )
    // Events reported while the stack was starting (initial audits) are printed now, in order.
    for (const event of stack.events) if (!isQuiet(event)) print(formatStackEvent(event, stack.startedAt))
  }

  const status =
    o.statusEvery > 0
      ? setInterval(
          () => onEvent({ kind: 'status', at: stack.clock.now().toISOString(), counts: stack.counts() }),
          o.statusEvery * 1000,
        )
      : undefined
  const stopped = waitForSignal()
  const end = o.keepRunning || runsFor === undefined ? undefined : new Date(stack.startedAt.getTime() + runsFor)
  const reason = await (end
    ? Promise.race([sleepUntil(stack.clock, end).then(() => 'end' as const), stopped.signal])
    : stopped.signal)
  clearInterval(status)
  stopped.dispose()
  const over = o.duration !== undefined ? '--duration over' : 'scenario and settle time over'
  if (!o.json) print(reason === 'end' ? `${over}: stopping…` : `${reason}: stopping gracefully…`)
  await stack.stop()
  report(stack, policy, o)
}

function targetOf(
  o: CliOptions,
  scenario: ReturnType<typeof loadScenarioFile> | undefined,
): Pick<LocalStackOptions, 'target'> {
  if (o.kubeconfig)
    return {
      target: {
        kind: 'kubeconfig',
        kubeconfigPath: o.kubeconfig,
        ...(o.context ? { context: o.context } : {}),
        apply: o.apply,
      },
    }
  if (!scenario) throw new Error('no scenario loaded')
  return { target: { kind: 'embedded', scenario, speed: o.speed } }
}

function policyFileOf(o: CliOptions): Pick<LocalStackOptions, 'policyFile'> {
  return o.policy ? { policyFile: o.policy } : {}
}

/** loadPolicy validates the policy document up front, so a bad one fails before anything starts. */
function loadPolicy(path: string | undefined): Policy {
  if (!path) return defaultPolicy()
  return loadPolicyText(readFileSync(path, 'utf8'), path)
}

function report(stack: LocalStack, policy: Policy, o: CliOptions): void {
  const summary = summarizeRun(stack.events, stack.views.values(), policy.protection, !stack.apply)
  if (o.json) printJson({ kind: 'summary', at: stack.clock.now().toISOString(), ...summary })
  else for (const line of renderSummary(summary)) print(line)
}

/** waitForSignal resolves with the first SIGINT/SIGTERM; a second one exits at once. */
function waitForSignal(): { signal: Promise<'SIGINT' | 'SIGTERM'>; dispose: () => void } {
  let resolve: (s: 'SIGINT' | 'SIGTERM') => void = () => {}
  const signal = new Promise<'SIGINT' | 'SIGTERM'>((r) => {
    resolve = r
  })
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = () => {
      resolve(name)
      process.once(name, () => process.exit(130))
    }
    process.once(name, handler)
    return [name, handler] as const
  })
  const dispose = () => {
    for (const [name, h] of handlers) process.removeListener(name, h)
  }
  return { signal, dispose }
}

function describeError(err: unknown): string {
  const parts: string[] = []
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message)
  return parts.join(': ') || String(err)
}
