import { toSlimNode } from '../../shared/kube-slim/to-slim-node.ts'
import { toSlimPdb } from '../../shared/kube-slim/to-slim-pdb.ts'
import { toSlimPod } from '../../shared/kube-slim/to-slim-pod.ts'
import type { SlimConverters } from './resource-sinks.ts'

/** defaultConverters are the shared full-object → slim converters (the same ones the writer and tests use). */
export const defaultConverters: SlimConverters = { node: toSlimNode, pod: toSlimPod, pdb: toSlimPdb }
