import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { createKubeRest, type KubeRest } from '../../../functions/alert/kube-rest.ts'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import type { SubscriptionSpecInput } from '../../../shared/alerts/subscription.ts'

/** A Kubernetes API emulator with the AlertSubscription CRD applied and the `nodewarden` namespace. */
export type AlertCluster = { emulator: Emulator; kube: KubeRest; close: () => Promise<void> }

export const NAMESPACE = 'nodewarden'

/** startAlertCluster starts the emulator and installs what the alert function and api read. */
export async function startAlertCluster(): Promise<AlertCluster> {
  const emulator = await startEmulator()
  const kube = createKubeRest({ server: emulator.url })
  const crd = parse(readFileSync(new URL('../../../infra/k8s/alertsubscription-crd.yaml', import.meta.url), 'utf8'))
  await expectStatus(kube('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd), 201)
  await expectStatus(kube('POST', '/api/v1/namespaces', { metadata: { name: NAMESPACE } }), 201)
  return { emulator, kube, close: () => emulator.close() }
}

/** createSigningSecret stores a signing key the way an operator would (kubectl create secret generic). */
export async function createSigningSecret(kube: KubeRest, name: string, key: string): Promise<void> {
  await expectStatus(
    kube('POST', `/api/v1/namespaces/${NAMESPACE}/secrets`, {
      metadata: { name },
      data: { signingKey: Buffer.from(key).toString('base64') },
    }),
    201,
  )
}

/** createSubscription applies an AlertSubscription object directly (kubectl apply). */
export async function createSubscription(kube: KubeRest, name: string, spec: SubscriptionSpecInput): Promise<void> {
  await expectStatus(
    kube('POST', `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions`, {
      apiVersion: 'nodewarden.io/v1alpha1',
      kind: 'AlertSubscription',
      metadata: { name },
      spec,
    }),
    201,
  )
}

async function expectStatus(response: Promise<{ status: number; body: unknown }>, want: number): Promise<void> {
  const r = await response
  if (r.status !== want) throw new Error(`setup: HTTP ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`)
}
