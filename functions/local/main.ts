/**
 * Trigger: `npm start [-- options]`. Job: runs the pipeline on one machine — an embedded SQS server
 * with the deployed queue definitions, and a local runtime feeding each queue to the same handler
 * modules Lambda runs. Output: what started (addresses, queues, functions), then a timeline of messages.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, InvalidArgumentError, Option } from 'commander'
import { createLogger, type LogLevel } from '../../shared/log.ts'
import { QUEUE_NAMES } from '../../shared/sqs/config.ts'
import { demoMessages } from './demo-views.ts'
import { loadHandlers, startPipeline } from './pipeline.ts'
import { formatDelivery, formatRuntimeEvent } from './timeline.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')

const integer = (min: number, max: number) => (value: string) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`an integer from ${min} to ${max}`)
  return n
}

const options = new Command('nodewarden')
  .description('Run nodewarden locally: embedded SQS queues and a local Lambda runtime, printing a message timeline.')
  .option(
    '--sqs-port <port>',
    'port of the embedded SQS server on 127.0.0.1 (0 = any free port)',
    integer(0, 65_535),
    0,
  )
  .option('--functions <names>', 'comma-separated functions to run from functions/<name>/handler.ts', 'decide')
  .option('--visibility-timeout <seconds>', 'local redelivery delay of a failed record', integer(1, 43_200), 2)
  .option('--no-demo', 'do not send the demo NodeViews (and the malformed record) to the events queue')
  .option('--no-sinks', 'leave queues without a function unconsumed instead of printing what reaches them')
  .option('--duration <seconds>', 'stop after this many seconds (0 = run until Ctrl-C)', integer(0, 86_400), 0)
  .addOption(
    new Option('--log-level <level>', 'level of the handlers\u2019 JSON logs')
      .choices(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'])
      .default('WARN'),
  )
  .option('--json', 'print the timeline as JSON lines')
  .parse()
  .opts<{
    sqsPort: number
    functions: string
    visibilityTimeout: number
    demo: boolean
    sinks: boolean
    duration: number
    logLevel: LogLevel
    json?: boolean
  }>()

// The AWS SDK's notice is about its releases after January 2027 on Node 20, not about this run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
const log = createLogger('local', options.logLevel)
const startedAt = new Date()
const print = (line: string) => process.stdout.write(`${line}\n`)
let missing: string[] = []

const pipeline = await startPipeline({
  log,
  sqsPort: options.sqsPort,
  sinks: options.sinks,
  visibilityTimeoutSeconds: options.visibilityTimeout,
  // Handlers read their environment on first use, as on Lambda: publish it before importing them.
  functions: async (env, sqs) => {
    Object.assign(process.env, env, { LOG_LEVEL: options.logLevel })
    const loaded = await loadHandlers(ROOT, sqs.definitions, options.functions.split(',').filter(Boolean))
    missing = loaded.missing
    return loaded.functions
  },
  onEvent: (e) => print(options.json ? JSON.stringify(e) : formatRuntimeEvent(e, startedAt)),
  onSinkMessage: (queue, envelope) =>
    print(
      options.json
        ? JSON.stringify({ at: new Date(), kind: 'delivered', queue, envelope })
        : formatDelivery(queue, envelope, new Date(), startedAt),
    ),
})

print(`nodewarden local — embedded SQS on ${pipeline.sqs.endpoint}`)
for (const queue of QUEUE_NAMES) {
  const consumer =
    pipeline.functions.find((f) => f.queue === queue)?.name ?? (pipeline.sinks.includes(queue) ? 'sink' : 'none')
  print(`  ${queue.padEnd(10)} ${pipeline.sqs.queueUrls[queue]}  → ${consumer}   DLQ ${pipeline.sqs.dlqUrls[queue]}`)
}
for (const name of missing) print(`  (functions/${name}/handler.ts does not exist yet: not running ${name})`)
print(`  handler environment: ${Object.keys(pipeline.env).join(', ')}`)
print('timeline (Ctrl-C to stop):')

if (options.demo) await pipeline.send('events', demoMessages(new Date()))

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  print('stopping: draining in-flight batches…')
  await pipeline.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
if (options.duration > 0) setTimeout(stop, options.duration * 1000)
