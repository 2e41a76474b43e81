import type { ConditionRuleInput } from './policy-schema.ts'

/**
 * Default condition rules for node-problem-detector's conditions. Every default taint is
 * NoSchedule: a NoExecute taint would make the control plane delete pods without consulting
 * PodDisruptionBudgets, so where a rule drains it does so gracefully through the Eviction API.
 *
 * Durations (the evidence is in PEERS.md §5: hardware-class problems 10 min, other NPD
 * conditions 30 min, as in the EKS node-monitoring tables):
 * - KernelDeadlock, ReadonlyFilesystem — 10m. Both are "permanent" NPD conditions that a reboot
 *   clears, not the node; 10 minutes rides out a single hung-task log line while a node that cannot
 *   write its disk or schedule a blocked task is drained before it fails workloads for longer.
 * - KubeletUnhealthy, ContainerRuntimeUnhealthy — 10m. NPD's health-checker already retries
 *   (and may restart the service) before it sets them; 10 more minutes is one restart+recovery cycle.
 *   Pods keep running, so these taint (stop new pods) without draining.
 * - FrequentKubeletRestart, FrequentDockerRestart, FrequentContainerdRestart — 30m. The
 *   condition itself already integrates a window (≥5 restarts in 20 min); 30 min more separates a
 *   persistent crash loop from an upgrade or config rollout that restarts the service a few times.
 * Escalation steps count from the condition's lastTransitionTime: restart the service, then
 * reprovision the node, then hand it to humans for repair.
 */
export const DEFAULT_CONDITION_RULES: ConditionRuleInput[] = [
  {
    id: 'kernel-deadlock',
    condition: 'KernelDeadlock',
    status: 'True',
    for: '10m',
    taint: { key: 'nodewarden.io/kernel-deadlock', effect: 'NoSchedule' },
    drain: true,
    severity: 'critical',
    escalation: [
      { action: 'restart', after: '15m' },
      { action: 'reprovision', after: '45m' },
      { action: 'repair', after: '4h' },
    ],
  },
  {
    id: 'readonly-filesystem',
    condition: 'ReadonlyFilesystem',
    status: 'True',
    for: '10m',
    taint: { key: 'nodewarden.io/readonly-filesystem', effect: 'NoSchedule' },
    drain: true,
    severity: 'critical',
    escalation: [
      { action: 'restart', after: '15m' },
      { action: 'reprovision', after: '45m' },
      { action: 'repair', after: '4h' },
    ],
  },
  ...(['Kubelet', 'ContainerRuntime'] as const).map((c) => ({
    id: `${c === 'Kubelet' ? 'kubelet' : 'container-runtime'}-unhealthy`,
    condition: `${c}Unhealthy`,
    status: 'True' as const,
    for: '10m',
    taint: {
      key: `nodewarden.io/${c === 'Kubelet' ? 'kubelet' : 'container-runtime'}-unhealthy`,
      effect: 'NoSchedule' as const,
    },
    drain: false,
    severity: 'warning' as const,
    escalation: [
      { action: 'restart' as const, after: '10m' },
      { action: 'reprovision' as const, after: '40m' },
      { action: 'repair' as const, after: '4h' },
    ],
  })),
  ...(['Kubelet', 'Docker', 'Containerd'] as const).map((c) => ({
    id: `frequent-${c.toLowerCase()}-restart`,
    condition: `Frequent${c}Restart`,
    status: 'True' as const,
    for: '30m',
    taint: { key: `nodewarden.io/frequent-${c.toLowerCase()}-restart`, effect: 'NoSchedule' as const },
    drain: false,
    severity: 'warning' as const,
    escalation: [
      { action: 'restart' as const, after: '30m' },
      { action: 'reprovision' as const, after: '2h' },
      { action: 'repair' as const, after: '8h' },
    ],
  })),
]
