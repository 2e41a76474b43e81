/** Kubeconfigs that point kubectl and @kubernetes/client-node at an emulator over plain http. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { stringify } from 'yaml'

/** renderKubeconfig returns kubeconfig YAML; insecure-skip-tls-verify is required by client-node for http://. */
export function renderKubeconfig(url: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'nodewarden-emulator', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    contexts: [
      { name: 'nodewarden-emulator', context: { cluster: 'nodewarden-emulator', user: 'emulator', namespace } },
    ],
    'current-context': 'nodewarden-emulator',
    users: [{ name: 'emulator', user: { token: 'emulator-token' } }],
    preferences: {},
  })
}

/** writeKubeconfigFile writes the kubeconfig into `dir` (a fresh temp dir by default) and returns its path. */
export function writeKubeconfigFile(url: string, dir?: string): string {
  const target = dir ?? mkdtempSync(join(tmpdir(), 'nodewarden-emulator-'))
  const path = join(target, 'kubeconfig.yaml')
  writeFileSync(path, renderKubeconfig(url), { mode: 0o600 })
  return path
}

/** toKubeConfig returns a loaded client-node KubeConfig for the emulator. */
export function toKubeConfig(url: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromOptions({
    clusters: [{ name: 'nodewarden-emulator', server: url, skipTLSVerify: true }],
    users: [{ name: 'emulator', token: 'emulator-token' }],
    contexts: [{ name: 'nodewarden-emulator', cluster: 'nodewarden-emulator', user: 'emulator', namespace: 'default' }],
    currentContext: 'nodewarden-emulator',
  })
  return kc
}
