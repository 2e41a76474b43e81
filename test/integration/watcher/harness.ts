import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { type EmbeddedSqs, startEmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { parseEnvelope } from '../../../shared/messages/envelope.ts'
import type { NodeView } from '../../../shared/messages/index.ts'
import { deleteMessages, receiveMessages } from '../../../shared/sqs/transport.ts'
import { rawNode, rawPod } from '../../unit/watcher/raw-objects.ts'

export type Received = { group: string; dedupId: string; view: NodeView }

/** Peers for watcher tests: the Kubernetes API emulator (with the nodewarden namespace) and embedded SQS. */
export async function startPeers(): Promise<{ emu: Emulator; sqs: EmbeddedSqs; close: () => Promise<void> }> {
  const emu = await startEmulator({ bookmarkIntervalMs: 500 })
  const sqs = await startEmbeddedSqs()
  emu.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nodewarden' } })
  return { emu, sqs, close: async () => Promise.all([sqs.close(), emu.close()]).then(() => {}) }
}

/** seedNodes creates `n` nodes node-0…, each with two pods. */
export function seedNodes(emu: Emulator, n: number): void {
  for (let i = 0; i < n; i++) {
    const node = `node-${i}`
    emu.store.create(strip(rawNode(node)))
    for (const p of [0, 1]) emu.store.create(strip(rawPod(`${node}-pod-${p}`, { node })))
  }
}

/** QueueReader drains the events queue (receive + delete) and keeps every NodeView in arrival order. */
export class QueueReader {
  readonly received: Received[] = []
  constructor(private readonly sqs: EmbeddedSqs) {}

  /** until polls the queue until `predicate` holds over what was received, or fails after `timeoutMs`. */
  async until(predicate: (all: Received[]) => boolean, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`queue condition not met; got ${describe(this.received)}`)
      await this.poll()
    }
    return this.received
  }

  /** poll receives once (short wait) and deletes what it got. */
  async poll(waitTimeSeconds = 0): Promise<void> {
    const deps = { client: this.sqs.client, sleep: async () => {}, random: Math.random }
    const messages = await receiveMessages(deps, this.sqs.queueUrls.events, { waitTimeSeconds, maxMessages: 10 })
    if (messages.length === 0) {
      await new Promise((r) => setTimeout(r, 50))
      return
    }
    for (const m of messages) {
      this.received.push({
        group: m.Attributes?.MessageGroupId ?? '',
        dedupId: m.Attributes?.MessageDeduplicationId ?? '',
        view: parseEnvelope(m.Body ?? '', 'io.nodewarden.nodeview.v1').data,
      })
    }
    await deleteMessages(
      deps,
      this.sqs.queueUrls.events,
      messages.map((m) => m.ReceiptHandle ?? ''),
    )
  }

  /** settle polls until nothing new arrives for `quietMs`. */
  async settle(quietMs = 1_000): Promise<void> {
    let last = -1
    let quietSince = Date.now()
    while (Date.now() - quietSince < quietMs) {
      await this.poll()
      if (this.received.length !== last) {
        last = this.received.length
        quietSince = Date.now()
      }
    }
  }

  of(node: string): NodeView[] {
    return this.received.filter((r) => r.group === node).map((r) => r.view)
  }
}

function describe(all: Received[]): string {
  return all.map((r) => `${r.group}:${r.view.cause}`).join(', ') || 'nothing'
}

/** strip removes fields the emulator assigns itself (uid, resourceVersion, managedFields). */
function strip<T extends Record<string, unknown>>(o: T): T & { kind: string; apiVersion: string } {
  const meta = { ...(o.metadata as Record<string, unknown>) }
  delete meta.resourceVersion
  delete meta.managedFields
  delete meta.uid
  return { ...o, metadata: meta } as unknown as T & { kind: string; apiVersion: string }
}

/** readyOf is a node view's Ready condition status. */
export function readyOf(view: NodeView): string | undefined {
  return view.node.conditions.find((c) => c.type === 'Ready')?.status
}
