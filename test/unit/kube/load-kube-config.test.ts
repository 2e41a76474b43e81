import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadKubeConfig } from '../../../shared/kube/load-kube-config.ts'

const NOW = () => new Date('2026-11-22T10:00:00Z')
const kubeconfig = (server: string) => `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${server}", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: ctx, context: { cluster: c, user: u } }, { name: other, context: { cluster: c, user: u } }]
current-context: ctx
`

describe('loadKubeConfig', () => {
  it('reads a kubeconfig file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'))
    writeFileSync(join(dir, 'config'), kubeconfig('http://127.0.0.1:6443'))
    const kc = loadKubeConfig({ mode: 'kubeconfig-file', path: join(dir, 'config') }, { now: NOW })
    expect(kc.getCurrentCluster()?.server).toBe('http://127.0.0.1:6443')
  })

  it('reads kubeconfig content (a secret) and selects the named context', () => {
    const kc = loadKubeConfig(
      { mode: 'kubeconfig-content', content: kubeconfig('https://k8s.example:6443'), context: 'other' },
      { now: NOW },
    )
    expect(kc.getCurrentContext()).toBe('other')
  })

  it('reads the in-cluster service account under a path prefix', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'sa-'))
    const sa = join(prefix, 'var/run/secrets/kubernetes.io/serviceaccount')
    mkdirSync(sa, { recursive: true })
    for (const [f, v] of Object.entries({ token: 'sa-token', namespace: 'nodewarden', 'ca.crt': 'CA' }))
      writeFileSync(join(sa, f), v)
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT }
    process.env.KUBERNETES_SERVICE_HOST = '10.0.0.1'
    process.env.KUBERNETES_SERVICE_PORT = '443'
    try {
      const kc = loadKubeConfig({ mode: 'in-cluster', pathPrefix: prefix }, { now: NOW })
      expect(kc.getCurrentCluster()?.server).toBe('https://10.0.0.1:443')
    } finally {
      if (saved.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST
      else process.env.KUBERNETES_SERVICE_HOST = saved.host
      if (saved.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT
      else process.env.KUBERNETES_SERVICE_PORT = saved.port
    }
  })

  it.each([
    {
      name: 'client-node’s silent localhost:8080 default',
      content: kubeconfig('http://localhost:8080'),
      want: /refusing http:\/\/localhost:8080/,
    },
    { name: 'a kubeconfig that is not YAML', content: ': : :', want: /load kubernetes access/ },
  ])('refuses $name', ({ content, want }) => {
    expect(() => loadKubeConfig({ mode: 'kubeconfig-content', content }, { now: NOW })).toThrow(want)
  })

  it('refuses EKS access without AWS credentials', () => {
    const access = {
      mode: 'eks' as const,
      clusterName: 'prod',
      region: 'eu-west-1',
      endpoint: 'https://x.eks.amazonaws.com',
      caData: 'Q0E=',
    }
    expect(() => loadKubeConfig(access, { now: NOW })).toThrow(/load kubernetes access \(eks\)/)
  })

  it('authenticates EKS requests with a fresh k8s-aws-v1 bearer token', async () => {
    const access = {
      mode: 'eks' as const,
      clusterName: 'prod',
      region: 'eu-west-1',
      endpoint: 'https://x.eks.amazonaws.com',
      caData: 'Q0E=',
    }
    const kc = loadKubeConfig(access, {
      now: NOW,
      awsCredentials: async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }),
    })
    const opts: { headers?: Record<string, string> } = {}
    await kc.applyToHTTPSOptions(opts as never)
    expect(opts.headers?.Authorization).toMatch(/^Bearer k8s-aws-v1\.[A-Za-z0-9_-]+$/)
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'https://x.eks.amazonaws.com', caData: 'Q0E=' })
  })
})
