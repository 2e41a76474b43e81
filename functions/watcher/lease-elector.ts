import type { Log } from '../../shared/log.ts'
import { type KubeApi, KubeApiError } from './kube-api.ts'
import {
  decideLeadership,
  type LeaseRecord,
  nextLeaseRecord,
  type Observation,
  releasedLeaseRecord,
  toMicroTime,
} from './leadership.ts'

export type ElectorOptions = {
  namespace: string
  name: string
  identity: string
  leaseDurationMs: number
  /** A leader that could not renew for this long steps down (must be < leaseDurationMs). */
  renewDeadlineMs: number
  retryPeriodMs: number
}

export type ElectorDeps = {
  api: Pick<KubeApi, 'request'>
  now: () => Date
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  log: Log
  onChange: (leader: boolean) => void
}

type LeaseObject = {
  apiVersion?: string
  kind?: string
  metadata: { name: string; namespace: string; resourceVersion?: string }
  spec?: Partial<LeaseRecord>
}

/**
 * LeaseElector keeps trying to acquire or renew a coordination.k8s.io/v1 Lease every retry period
 * (409 Conflict = another replica won the race). It reports every change of leadership; a leader
 * that cannot renew within the renew deadline steps down before its lease can expire, so two
 * replicas never forward at once. `release` hands the lease over on shutdown.
 */
export class LeaseElector {
  private leader = false
  private observed: Observation | undefined
  private lastRenew = 0
  private lastLease: { record: LeaseRecord; resourceVersion: string } | undefined

  constructor(
    private readonly options: ElectorOptions,
    private readonly deps: ElectorDeps,
  ) {}

  isLeader(): boolean {
    return this.leader
  }

  /** run tries every retry period until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.tryOnce()
      await this.deps.sleep(this.options.retryPeriodMs, signal)
    }
  }

  /** tryOnce reads the lease and acts on decideLeadership; errors only cost this round. */
  async tryOnce(): Promise<void> {
    const now = this.deps.now()
    try {
      const current = await this.read()
      const { decision, observed } = decideLeadership(current?.record, this.options.identity, this.observed, now)
      this.observed = observed
      if (decision.action === 'wait') return this.setLeader(false, decision.reason)
      const seconds = Math.ceil(this.options.leaseDurationMs / 1000)
      const record = nextLeaseRecord(decision.action, current?.record, this.options.identity, seconds, toMicroTime(now))
      this.lastLease = { record, resourceVersion: await this.write(record, current?.resourceVersion) }
      this.lastRenew = now.getTime()
      this.setLeader(true, decision.reason)
    } catch (err) {
      const conflict = err instanceof KubeApiError && err.status === 409
      if (!conflict)
        this.deps.log.warn('lease update failed', { lease: this.options.name, error: (err as Error).message })
      if (conflict || now.getTime() - this.lastRenew > this.options.renewDeadlineMs) {
        this.setLeader(false, conflict ? 'lost the lease race' : 'renew deadline passed')
      }
    }
  }

  /** release gives the lease up (empty holder) if this replica holds it, so a standby takes over at once. */
  async release(): Promise<void> {
    if (!this.leader || !this.lastLease) return
    this.setLeader(false, 'shutting down')
    try {
      const record = releasedLeaseRecord(this.lastLease.record, toMicroTime(this.deps.now()))
      await this.write(record, this.lastLease.resourceVersion)
      this.deps.log.info('lease released', { lease: this.options.name })
    } catch (err) {
      // Best effort: if it fails, the standby takes over when the lease expires.
      this.deps.log.warn('lease release failed', { lease: this.options.name, error: (err as Error).message })
    }
  }

  private setLeader(leader: boolean, reason: string): void {
    if (leader === this.leader) return
    this.leader = leader
    this.deps.log.info(leader ? 'leadership acquired' : 'leadership lost', {
      lease: this.options.name,
      identity: this.options.identity,
      reason,
    })
    this.deps.onChange(leader)
  }

  private path(name?: string): string {
    const base = `/apis/coordination.k8s.io/v1/namespaces/${this.options.namespace}/leases`
    return name ? `${base}/${name}` : base
  }

  private async read(): Promise<{ record: LeaseRecord; resourceVersion: string } | undefined> {
    try {
      const lease = (await this.deps.api.request('GET', this.path(this.options.name))) as LeaseObject
      const spec = lease.spec ?? {}
      const record: LeaseRecord = {
        holderIdentity: spec.holderIdentity ?? '',
        leaseDurationSeconds: spec.leaseDurationSeconds ?? Math.ceil(this.options.leaseDurationMs / 1000),
        leaseTransitions: spec.leaseTransitions ?? 0,
        ...(spec.acquireTime ? { acquireTime: String(spec.acquireTime) } : {}),
        ...(spec.renewTime ? { renewTime: String(spec.renewTime) } : {}),
      }
      return { record, resourceVersion: lease.metadata.resourceVersion ?? '' }
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 404) return undefined
      throw err
    }
  }

  /** write creates the lease (no resourceVersion) or replaces it with compare-and-swap; returns the new resourceVersion. */
  private async write(record: LeaseRecord, resourceVersion: string | undefined): Promise<string> {
    const metadata = { name: this.options.name, namespace: this.options.namespace }
    const body: LeaseObject = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: resourceVersion === undefined ? metadata : { ...metadata, resourceVersion },
      spec: record,
    }
    const saved = (await (resourceVersion === undefined
      ? this.deps.api.request('POST', this.path(), body)
      : this.deps.api.request('PUT', this.path(this.options.name), body))) as LeaseObject
    return saved.metadata.resourceVersion ?? ''
  }
}
