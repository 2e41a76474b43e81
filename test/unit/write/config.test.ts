import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../functions/write/config.ts'

const queues = {
  DECISIONS_QUEUE_URL: 'http://127.0.0.1:1/q/decisions',
  ALERTS_QUEUE_URL: 'http://127.0.0.1:1/q/alerts',
}

describe('write loadConfig', () => {
  it.each([
    { name: 'dry-run and in-cluster by default', env: {}, want: { APPLY: false, access: { mode: 'in-cluster' } } },
    { name: 'APPLY=true applies', env: { APPLY: 'true' }, want: { APPLY: true } },
    {
      name: 'a KUBECONFIG path selects the file',
      env: { KUBECONFIG: '/k/config' },
      want: { access: { mode: 'kubeconfig-file', path: '/k/config' } },
    },
    {
      name: 'EKS_CLUSTER_NAME selects EKS',
      env: {
        EKS_CLUSTER_NAME: 'prod',
        EKS_ENDPOINT: 'https://x.eks.amazonaws.com',
        EKS_CA_DATA: 'Q0E=',
        AWS_REGION: 'eu-west-1',
      },
      want: { access: { mode: 'eks', clusterName: 'prod', region: 'eu-west-1' } },
    },
    {
      name: 'the namespace and ledger default',
      env: {},
      want: { NODEWARDEN_NAMESPACE: 'nodewarden', LEDGER_NAME: 'nodewarden-writer-ledger' },
    },
  ])('$name', ({ env, want }) => {
    expect(loadConfig({ ...queues, ...env })).toMatchObject(want)
  })

  it.each([
    { name: 'a missing queue URL', env: { ALERTS_QUEUE_URL: undefined }, want: /ALERTS_QUEUE_URL/ },
    { name: 'an unreadable APPLY', env: { APPLY: 'yes please' }, want: /APPLY/ },
    {
      name: 'EKS without its endpoint',
      env: { KUBE_ACCESS: 'eks', EKS_CLUSTER_NAME: 'prod', EKS_CA_DATA: 'Q0E=' },
      want: /EKS_ENDPOINT/,
    },
    {
      name: 'kubeconfig content without content',
      env: { KUBE_ACCESS: 'kubeconfig-content' },
      want: /KUBECONFIG_CONTENT/,
    },
  ])('fails naming $name', ({ env, want }) => {
    expect(() => loadConfig({ ...queues, ...env })).toThrow(want)
  })
})
