import { fc } from '@fast-check/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import { BudgetLimitsSchema } from '../../../functions/write/budget-ledger.ts'
import { ensureLedger, makeCluster } from '../../../functions/write/cluster.ts'
import { handleDecision, type WriteDeps } from '../../../functions/write/handle-decision.ts'
import { silentLog } from '../../../shared/log.ts'
import type { Decision } from '../../../shared/messages/index.ts'
import { aNodeObject, aTaintDecision } from '../../unit/write/fixtures.ts'
import { NAMESPACE, startWriterEmulator } from './emulator-setup.ts'

let emulator: Emulator
beforeAll(async () => {
  emulator = await startWriterEmulator({ nodes: 0 })
})
afterAll(async () => {
  await emulator.close()
})

const T = new Date('2026-11-22T10:00:00Z')
const ZONES = ['eu-west-1:\u0000:eu-west-1a', 'eu-west-1:\u0000:eu-west-1b']
let run = 0

describe('budgets across concurrent writers (emulator, injected conflicts)', () => {
  it('never exceeds a budget and loses no action', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 3, maxLength: 12 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 8 }),
        async (writers, zoneOfNode, burst, perHour) => {
          run++
          const ledgerName = `ledger-run-${run}`
          await ensureLedger(emulator.kubeConfig(), NAMESPACE, ledgerName)
          const limits = BudgetLimitsSchema.parse({ burst, globalPerHour: perHour, maxZoneFraction: 0.3 })
          const decisions: Decision[] = zoneOfNode.map((z, i) => {
            const name = `r${run}-n${i}`
            emulator.store.create({ apiVersion: 'v1', kind: 'Node', ...aNodeObject({ name }) })
            return aTaintDecision({
              id: `run-${run}-decision-${i}`,
              target: { kind: 'Node', name, uid: `uid-${name}` },
              budget: { kind: 'noExecuteTaint', zone: ZONES[z]!, zoneNodes: 10, ratePerSecond: 0.1 },
            })
          })
          const requeued: string[] = []
          const deps = (w: number): WriteDeps => ({
            cluster: makeCluster({
              kubeConfig: emulator.kubeConfig(),
              namespace: NAMESPACE,
              ledgerName,
              reportingInstance: `writer-${w}`,
              timeoutMs: 5_000,
            }),
            now: () => T,
            dryRun: false,
            limits,
            requeue: async (d) => {
              requeued.push(d.id)
            },
            sendAlert: async () => {},
            log: silentLog,
            maxConflictRetries: 8,
            maxBlockedAttempts: 6,
          })
          const stopConflicts = emulator.faults.fail(409, { resource: 'nodes', verb: 'patch', rate: 0.1 })
          try {
            // Each writer takes every `writers`-th decision; all run at once.
            const outcomes = await Promise.all(decisions.map((d, i) => handleDecision(d, deps(i % writers))))
            const applied = decisions.filter((_, i) => outcomes[i]?.status === 'applied').map((d) => d.id)
            const tainted = decisions.filter(
              (d) => (emulator.store.get('nodes', '', d.target.name)?.spec?.taints ?? []).length > 0,
            )
            // Never exceeded: per zone at most min(burst, 30 % of 10 nodes) at one instant, overall the hourly budget.
            for (const z of [0, 1]) {
              const inZone = tainted.filter((d) => d.budget?.zone === ZONES[z]).length
              expect(inZone).toBeLessThanOrEqual(Math.min(burst, 3))
            }
            expect(tainted.length).toBeLessThanOrEqual(perHour)
            // No action lost: every decision was applied or requeued, and the budget was used to the full.
            expect(applied.length + requeued.length).toBe(decisions.length)
            expect(tainted.map((d) => d.id).sort()).toEqual([...applied].sort())
            const perZone = [0, 1].map((z) => Math.min(burst, 3, zoneOfNode.filter((x) => x === z).length))
            expect(applied.length).toBe(Math.min(perHour, perZone[0]! + perZone[1]!))
          } finally {
            stopConflicts()
          }
        },
      ),
      { numRuns: 12 },
    )
  }, 120_000)
})
