import { serializeEnvelope, toEnvelope } from '../../shared/messages/envelope.ts'
import type { NodeViewInput } from '../../shared/messages/node-view.ts'
import type { OutgoingMessage } from '../../shared/sqs/transport.ts'

/**
 * A stand-in for the watcher until `npm start` runs the cluster emulator: three NodeViews (healthy,
 * KernelDeadlock held 10 minutes, NotReady with a pod lacking the default tolerations) and one
 * malformed record that shows bad input failing alone and landing in the DLQ.
 */

const ZONE = 'eu-west-1:\u0000:eu-west-1a'

function view(
  name: string,
  now: Date,
  extra: { conditions?: NodeViewInput['node']['conditions'] } = {},
): NodeViewInput {
  const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString()
  const ready = { type: 'Ready', status: 'True' as const, lastTransitionTime: ago(86_400), lastHeartbeatTime: ago(5) }
  return {
    node: {
      name,
      uid: `uid-${name}`,
      resourceVersion: '1',
      labels: { 'topology.kubernetes.io/region': 'eu-west-1', 'topology.kubernetes.io/zone': 'eu-west-1a' },
      conditions: extra.conditions ?? [ready],
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3900m', memory: '15Gi', pods: '110' },
    },
    pods: [
      {
        namespace: 'default',
        name: `web-${name}`,
        uid: `uid-web-${name}`,
        nodeName: name,
        owners: [{ kind: 'ReplicaSet', name: 'web-5d8f', controller: true }],
        phase: 'Running',
        ready: true,
        tolerations: [],
      },
    ],
    zones: [{ zone: ZONE, ready: 2, notReady: 1, total: 3 }],
    clusterSize: 3,
    observedAt: now.toISOString(),
    cause: 'node',
  }
}

/** demoMessages returns the demo's events-queue messages at `now`, in send order. */
export function demoMessages(now: Date): OutgoingMessage[] {
  const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString()
  const views = [
    view('node-a', now),
    view('node-b', now, {
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: ago(86_400), lastHeartbeatTime: ago(5) },
        { type: 'KernelDeadlock', status: 'True', reason: 'AUFSUmountHung', lastTransitionTime: ago(600) },
      ],
    }),
    view('node-c', now, {
      conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', lastTransitionTime: ago(120) }],
    }),
  ]
  const messages = views.map((v) => {
    const envelope = toEnvelope('io.nodewarden.nodeview.v1', v, { source: 'nodewarden/local-demo', time: now })
    return { body: serializeEnvelope(envelope), groupId: v.node.name, deduplicationId: envelope.id }
  })
  const malformed = JSON.stringify({
    specversion: '1.0',
    id: 'demo-bad',
    source: 'demo',
    type: 'io.nodewarden.nodeview.v1',
    data: { node: { name: 'node-x' } },
  })
  return [...messages, { body: malformed, groupId: 'node-x', deduplicationId: 'demo-bad' }]
}
