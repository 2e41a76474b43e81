import { fileURLToPath } from 'node:url'
import { Command, InvalidArgumentError, Option } from 'commander'
import { parseDuration } from '../../shared/config/index.ts'
import type { LogLevel } from '../../shared/log.ts'

/** `npm start`'s options: every one explained in `--help`. */

export const DEMO_SCENARIO = fileURLToPath(new URL('../cluster/scenarios/demo.yaml', import.meta.url))

export type CliOptions = {
  scenario: string
  speed: number
  settle: number
  duration?: number
  keepRunning: boolean
  kubeconfig?: string
  context?: string
  apply: boolean
  policy?: string
  json: boolean
  statusEvery: number
  badInput: boolean
  logLevel: LogLevel
}

const number = (min: number, max: number) => (value: string) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`a number from ${min} to ${max}`)
  return n
}

const duration = (value: string) => {
  const ms = parseDuration(value)
  if (ms === undefined) throw new InvalidArgumentError('a duration like 90s, 6m or 1h30m')
  return ms
}

/** buildCommand returns the commander program for `npm start`. */
export function buildCommand(): Command {
  return new Command('npm start --')
    .description(
      [
        'Run the whole nodewarden pipeline on this machine.',
        'Default: a Kubernetes API emulator plays a demo scenario (6 nodes, 3 zones) in accelerated time; the watcher forwards node views through an embedded SQS server to decide, write and alert on a local Lambda runtime; the writer applies to the emulator; a local webhook receiver is subscribed to alerts; the api serves on localhost. It ends after the scenario plus --settle.',
        'With --kubeconfig: no emulator and no scenario; the watcher, decide, write and alert run against that cluster, the writer in server-side dry run (dryRun=All) unless --apply.',
      ].join('\n\n'),
    )
    .addOption(
      new Option('--scenario <file>', 'scenario to play on the emulator (YAML or JSON)').default(
        DEMO_SCENARIO,
        'functions/cluster/scenarios/demo.yaml',
      ),
    )
    .option(
      '--speed <n>',
      'scenario seconds per real second; 1 = real time. Waits (rule durations, SQS delays, visibility timeouts, resync) shrink by the same factor',
      number(1, 600),
      30,
    )
    .addOption(
      new Option(
        '--settle <duration>',
        'scenario time to keep running after the last scenario step, so delayed decisions land',
      )
        .argParser(duration)
        .default(6 * 60_000, '6m'),
    )
    .option(
      '--duration <duration>',
      'stop after this long instead (scenario time against the emulator, wall time with --kubeconfig)',
      duration,
    )
    .option('--keep-running', 'do not stop at the end: run until Ctrl-C (SIGINT/SIGTERM shut down gracefully)')
    .option('--kubeconfig <file>', 'run against this cluster instead of the emulator (no scenario)')
    .option('--context <name>', 'kubeconfig context (default: its current-context)')
    .option(
      '--apply',
      'with --kubeconfig: let the writer change the cluster (default: server-side dry run, nothing changes)',
    )
    .option(
      '--policy <file>',
      'nodewarden policy document (YAML/JSON) for decide and write; default: the built-in policy',
    )
    .option('--json', 'print the timeline, status lines and summary as JSON lines')
    .option('--status-every <seconds>', 'print a status line every N real seconds (0 = never)', number(0, 3600), 10)
    .option(
      '--no-bad-input',
      'do not send the one deliberately malformed NodeView that shows bad input landing in the events DLQ (sent by default against the emulator)',
    )
    .addOption(
      new Option('--log-level <level>', 'level of the functions\u2019 JSON logs (stdout), beside the timeline')
        .choices(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'])
        .default('ERROR'),
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  npm start                                   # the demo, 30x, ends by itself (about 40 s)',
        '  npm start -- --speed 1 --keep-running       # the demo in real time, until Ctrl-C',
        '  npm start -- --json > run.jsonl             # the same events as JSON lines',
        '  npm start -- --kubeconfig ~/.kube/config    # a real cluster, dry run: nothing changes',
        '  npm start -- --kubeconfig ~/.kube/config --context prod --apply',
      ].join('\n'),
    )
}

/** parseCli parses argv into CliOptions (commander exits with its own message on a bad flag). */
export function parseCli(argv: readonly string[]): CliOptions {
  const program = buildCommand().parse(argv as string[])
  const o = program.opts<CliOptions>()
  // commander's negated flag defaults to true; the malformed view is only sent by default against the emulator.
  const badInputGiven = program.getOptionValueSource('badInput') === 'cli'
  return {
    ...o,
    keepRunning: o.keepRunning === true,
    apply: o.apply === true,
    json: o.json === true,
    badInput: badInputGiven ? o.badInput : o.kubeconfig === undefined,
  }
}
