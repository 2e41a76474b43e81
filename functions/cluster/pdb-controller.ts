/**
 * Keeps PodDisruptionBudget status current, as kube-controller-manager's disruption controller does:
 * pod or PDB writes mark a namespace dirty; `reconcile` recomputes and writes status only on change.
 */
import { computePdbStatus } from './disruption.ts'
import type { ResourceDef } from './resources.ts'
import type { KubeObject, ObjectStore, StoreEvent } from './store.ts'

export class PdbController {
  private readonly dirty = new Set<string>()
  private readonly pdbDef: ResourceDef
  private readonly podDef: ResourceDef
  private writing = false

  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => Date,
  ) {
    this.pdbDef = store.resolve('poddisruptionbudgets.policy')
    this.podDef = store.resolve('pods')
    store.afterWrite.push((event) => this.observe(event))
  }

  private observe(event: StoreEvent): void {
    if (this.writing) return
    if (event.resource === 'pods' || event.resource === 'poddisruptionbudgets.policy') {
      this.dirty.add(event.entry.obj.metadata?.namespace ?? '')
    }
  }

  /** hasWork reports namespaces waiting for a recompute. */
  get hasWork(): boolean {
    return this.dirty.size > 0
  }

  /** reconcile recomputes the PDBs of dirty namespaces (or just `namespace`) and stores changed statuses. */
  reconcile(namespace?: string): void {
    const namespaces = namespace !== undefined ? [namespace] : [...this.dirty]
    for (const ns of namespaces) {
      if (!this.dirty.delete(ns) && namespace === undefined) continue
      const pdbs: KubeObject[] = []
      this.store.forEachEntry(this.pdbDef, (e) => pdbs.push(e.obj), ns)
      if (pdbs.length === 0) continue
      // Index pods by label pair so each PDB scans only candidates of its first matchLabels pair.
      const pods: KubeObject[] = []
      const byLabel = new Map<string, KubeObject[]>()
      this.store.forEachEntry(
        this.podDef,
        (e) => {
          pods.push(e.obj)
          for (const [k, v] of Object.entries(e.obj.metadata?.labels ?? {})) {
            const key = `${k}=${v}`
            const list = byLabel.get(key) ?? []
            byLabel.set(key, list)
            list.push(e.obj)
          }
        },
        ns,
      )
      for (const pdb of pdbs) {
        const first = Object.entries(pdb.spec?.selector?.matchLabels ?? {})[0]
        const candidates = first ? (byLabel.get(`${first[0]}=${first[1]}`) ?? []) : pods
        const status = computePdbStatus(pdb, candidates, this.now())
        if (JSON.stringify(status) === JSON.stringify(pdb.status)) continue
        const next = structuredClone(pdb)
        next.status = status
        this.writing = true
        try {
          this.store.replace(this.pdbDef, next)
        } finally {
          this.writing = false
        }
      }
    }
  }
}
