import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { loadConfig } from '../../../functions/watcher/config.ts'
import { loadQueueDefinitions, queueNameOf } from '../../../infra/queues.ts'

type Doc = {
  kind: string
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> }
} & Record<string, unknown>
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }

const dir = join(import.meta.dirname, '../../../infra/k8s')
const render = (file: string): Doc[] =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`)
    return d.toJS() as Doc
  })
const docs = [...render('namespace.yaml'), ...render('watcher.yaml')]
const find = (kind: string) => {
  const found = docs.filter((d) => d.kind === kind)
  if (found.length !== 1) throw new Error(`want one ${kind}, got ${found.length}`)
  return found[0] as Doc
}
/** grants flattens rules to sorted `group/resource[/name]:verb` strings, so the test compares exact sets. */
const grants = (rules: Rule[]) =>
  rules
    .flatMap((r) =>
      r.apiGroups.flatMap((g) =>
        r.resources.flatMap((res) =>
          (r.resourceNames ?? ['*']).flatMap((n) => r.verbs.map((v) => `${g || 'core'}/${res}/${n}:${v}`)),
        ),
      ),
    )
    .sort()

describe('watcher manifests', () => {
  it('grants cluster-wide exactly list and watch on nodes, pods and PDBs, and get on the node proxy (kubelet stats)', () => {
    expect(grants(find('ClusterRole').rules as Rule[])).toEqual([
      'core/nodes/*:list',
      'core/nodes/*:watch',
      'core/nodes/proxy/*:get',
      'core/pods/*:list',
      'core/pods/*:watch',
      'policy/poddisruptionbudgets/*:list',
      'policy/poddisruptionbudgets/*:watch',
    ])
  })

  it('grants leases only in its own namespace: create, and get/update of its own Lease', () => {
    const role = find('Role')
    expect(role.metadata.namespace).toBe('nodewarden')
    expect(grants(role.rules as Rule[])).toEqual([
      'coordination.k8s.io/leases/*:create',
      'coordination.k8s.io/leases/nodewarden-watcher:get',
      'coordination.k8s.io/leases/nodewarden-watcher:update',
    ])
    expect(find('RoleBinding').metadata.namespace).toBe('nodewarden')
    const defaults = loadConfig({
      EVENTS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/e.fifo',
      KUBERNETES_SERVICE_HOST: 'k',
    })
    expect(defaults.leaseName).toBe('nodewarden-watcher')
  })

  it('binds both roles to the watcher ServiceAccount, which carries the IRSA role annotation', () => {
    const sa = find('ServiceAccount')
    expect(sa.metadata.annotations?.['eks.amazonaws.com/role-arn']).toMatch(/^arn:aws:iam::/)
    for (const kind of ['ClusterRoleBinding', 'RoleBinding']) {
      expect(find(kind).subjects).toEqual([{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: 'nodewarden' }])
    }
  })

  it('sends to the events queue packaging creates: the stack-prefixed name from infra/queues.yml', () => {
    const deploy = find('Deployment') as Doc & {
      spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } }
    }
    const url = deploy.spec.template.spec.containers[0]?.env.find((e) => e.name === 'EVENTS_QUEUE_URL')?.value
    const queue = queueNameOf('events', loadQueueDefinitions().events)
    expect(url).toBe(`https://sqs.REGION.amazonaws.com/ACCOUNT_ID/STACK-${queue}`)
  })

  it('runs two non-root replicas with probes, resources and a read-only root filesystem', () => {
    const deploy = find('Deployment') as Doc & { spec: { replicas: number; template: { spec: Record<string, never> } } }
    const pod = deploy.spec.template.spec as unknown as {
      serviceAccountName: string
      securityContext: { runAsNonRoot: boolean }
      containers: Record<string, { path?: string } & Record<string, unknown>>[]
    }
    const container = pod.containers[0] as unknown as {
      readinessProbe: { httpGet: { path: string } }
      livenessProbe: { httpGet: { path: string } }
      resources: { requests: Record<string, string>; limits: Record<string, string> }
      securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean }
    }
    expect(deploy.spec.replicas).toBe(2)
    expect(pod.serviceAccountName).toBe('nodewarden-watcher')
    expect(pod.securityContext.runAsNonRoot).toBe(true)
    expect(container.readinessProbe.httpGet.path).toBe('/readyz')
    expect(container.livenessProbe.httpGet.path).toBe('/healthz')
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory'])
    expect(container.resources.limits.memory).toBeDefined()
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false })
  })
})

describe('watcher configuration', () => {
  const base = { EVENTS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/e.fifo' }
  it.each([
    { name: 'no cluster access at all', env: { ...base }, error: /KUBECONFIG/ },
    { name: 'a missing queue URL', env: { KUBECONFIG: '/k' }, error: /EVENTS_QUEUE_URL/ },
    { name: 'a bad duration', env: { ...base, KUBECONFIG: '/k', RESYNC_PERIOD: 'soon' }, error: /RESYNC_PERIOD/ },
    {
      name: 'a renew deadline over the lease',
      env: { ...base, KUBECONFIG: '/k', RENEW_DEADLINE: '20s' },
      error: /RENEW_DEADLINE/,
    },
  ])('rejects $name, naming the variable', ({ env, error }) => {
    expect(() => loadConfig(env)).toThrow(error)
  })

  it('reads durations and lets --kubeconfig win over KUBECONFIG', () => {
    const config = loadConfig({ ...base, KUBECONFIG: '/env', RESYNC_PERIOD: '1m' }, { kubeconfig: '/flag' })
    expect(config.access).toEqual({ mode: 'kubeconfig-file', path: '/flag' })
    expect(config.resyncPeriodMs).toBe(60_000)
  })
})
