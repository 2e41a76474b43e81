import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import type { KubeRest } from './kube-rest.ts'
import { subscriptionsPath } from './read-subscriptions.ts'

/** The CRD manifest the demo (and tests) install on the emulator. */
export const CRD_MANIFEST_URL = new URL('../../infra/k8s/alertsubscription-crd.yaml', import.meta.url)

export type DemoSubscription = {
  namespace: string
  /** AlertSubscription name (default `local-receiver`). */
  name?: string
  url: string
  signingKey: string
  format?: 'cloudevents' | 'slack' | 'alertmanager'
}

/**
 * subscribeLocalReceiver prepares the local demo on the emulator: installs the AlertSubscription
 * CRD, the namespace, a signing Secret and a subscription pointing at the local receiver —
 * objects an operator would `kubectl apply`. Idempotent: existing objects (409) are kept.
 */
export async function subscribeLocalReceiver(kube: KubeRest, demo: DemoSubscription): Promise<void> {
  const name = demo.name ?? 'local-receiver'
  const crd = parse(readFileSync(CRD_MANIFEST_URL, 'utf8'))
  await ensure(kube('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd), 'CRD')
  await ensure(kube('POST', '/api/v1/namespaces', { metadata: { name: demo.namespace } }), 'namespace')
  await ensure(
    kube('POST', `/api/v1/namespaces/${demo.namespace}/secrets`, {
      metadata: { name: `${name}-signing` },
      data: { signingKey: Buffer.from(demo.signingKey).toString('base64') },
    }),
    'signing secret',
  )
  await ensure(
    kube('POST', subscriptionsPath(demo.namespace), {
      apiVersion: 'nodewarden.io/v1alpha1',
      kind: 'AlertSubscription',
      metadata: { name },
      spec: { url: demo.url, secretRef: { name: `${name}-signing` }, format: demo.format ?? 'cloudevents' },
    }),
    'subscription',
  )
}

async function ensure(response: Promise<{ status: number }>, what: string): Promise<void> {
  const { status } = await response
  if (status !== 201 && status !== 200 && status !== 409) throw new Error(`create ${what}: HTTP ${status}`)
}
