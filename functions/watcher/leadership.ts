/**
 * Leader election on a coordination.k8s.io Lease, decided purely (clock passed in), the way
 * client-go's leaderelection does it: a lease is expired when this candidate has seen the same
 * holder + renewTime for longer than the lease duration *on its own clock* (observed time, so
 * clock skew between replicas does not matter); an empty holder means the last leader released it.
 * https://github.com/kubernetes/client-go/blob/master/tools/leaderelection/leaderelection.go
 */

export type LeaseRecord = {
  holderIdentity: string
  leaseDurationSeconds: number
  acquireTime?: string
  renewTime?: string
  leaseTransitions: number
}

/** What this candidate last saw of the lease, and when (on its own clock). */
export type Observation = { holder: string; renewTime: string; at: Date }

export type LeadershipDecision =
  | { action: 'create'; reason: string }
  | { action: 'renew'; reason: string }
  | { action: 'acquire'; reason: string }
  | { action: 'wait'; reason: string; holder: string; expiresAt: Date }

/** decideLeadership says what this candidate does with the lease it just read, and what it now has observed. */
export function decideLeadership(
  lease: LeaseRecord | undefined,
  identity: string,
  observed: Observation | undefined,
  now: Date,
): { decision: LeadershipDecision; observed: Observation | undefined } {
  if (!lease) return { decision: { action: 'create', reason: 'no lease yet' }, observed: undefined }
  const seen: Observation =
    observed && observed.holder === lease.holderIdentity && observed.renewTime === (lease.renewTime ?? '')
      ? observed
      : { holder: lease.holderIdentity, renewTime: lease.renewTime ?? '', at: now }
  if (lease.holderIdentity === identity)
    return { decision: { action: 'renew', reason: 'we hold the lease' }, observed: seen }
  if (lease.holderIdentity === '') return { decision: { action: 'acquire', reason: 'lease released' }, observed: seen }
  const expiresAt = new Date(seen.at.getTime() + lease.leaseDurationSeconds * 1000)
  if (now.getTime() >= expiresAt.getTime()) {
    const reason = `lease of ${lease.holderIdentity} not renewed for ${lease.leaseDurationSeconds}s`
    return { decision: { action: 'acquire', reason }, observed: seen }
  }
  const reason = `held by ${lease.holderIdentity}`
  return { decision: { action: 'wait', reason, holder: lease.holderIdentity, expiresAt }, observed: seen }
}

/** nextLeaseRecord is the record this candidate writes for a create, renew or acquire at `now`. */
export function nextLeaseRecord(
  action: 'create' | 'renew' | 'acquire',
  lease: LeaseRecord | undefined,
  identity: string,
  leaseDurationSeconds: number,
  nowMicro: string,
): LeaseRecord {
  if (action === 'renew' && lease) return { ...lease, leaseDurationSeconds, renewTime: nowMicro }
  return {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: nowMicro,
    renewTime: nowMicro,
    leaseTransitions: action === 'create' ? 0 : (lease?.leaseTransitions ?? 0) + 1,
  }
}

/** releasedLeaseRecord is what a leader writes on shutdown: no holder, so a standby acquires at once. */
export function releasedLeaseRecord(lease: LeaseRecord, nowMicro: string): LeaseRecord {
  return { ...lease, holderIdentity: '', leaseDurationSeconds: 1, renewTime: nowMicro }
}

/** toMicroTime renders a time as Kubernetes MicroTime (RFC 3339, six fractional digits), as Lease times require. */
export function toMicroTime(at: Date): string {
  return at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}
