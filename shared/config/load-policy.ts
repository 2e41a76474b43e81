import { readFile } from 'node:fs/promises'
import { parse as parseYaml } from 'yaml'
import type * as z from 'zod'
import { type Policy, type PolicyInput, PolicySchema } from './policy-schema.ts'

/** PolicyError: the policy document is invalid; `issues` name every bad field and what is accepted. */
export class PolicyError extends Error {
  override name = 'PolicyError'
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(message)
  }
}

/** The ConfigMap data keys a policy may live under, first found wins. */
export const POLICY_CONFIGMAP_KEYS = ['policy.yaml', 'policy.yml', 'policy.json'] as const

/** A key with a dot in it (an eviction signal like `memory.available`) is bracketed so the path stays readable. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const path =
    issue.path
      .map(String)
      .map((k, i) => (/^[\w-]+$/.test(k) ? `${i === 0 ? '' : '.'}${k}` : `["${k}"]`))
      .join('') || '(root)'
  return `${path}: ${issue.message}`
}

/** parsePolicy validates an already-decoded document (undefined/null = all defaults). */
export function parsePolicy(doc: unknown, source = 'policy'): Policy {
  const result = PolicySchema.safeParse(doc ?? {})
  if (result.success) return result.data
  const issues = result.error.issues.map(describeIssue)
  throw new PolicyError(`invalid policy (${source}):\n  ${issues.join('\n  ')}`, issues)
}

/** loadPolicyText parses YAML or JSON text and validates it. */
export function loadPolicyText(text: string, source = 'policy'): Policy {
  let doc: unknown
  try {
    doc = parseYaml(text)
  } catch (err) {
    throw new PolicyError(`policy (${source}) is not YAML/JSON: ${(err as Error).message}`, ['(root)'])
  }
  return parsePolicy(doc, source)
}

/** loadPolicyFile reads a YAML/JSON policy file and validates it. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    throw new PolicyError(`read policy file ${path}: ${(err as Error).message}`)
  }
  return loadPolicyText(text, path)
}

/** policyFromConfigMap validates the policy in a ConfigMap's `data` (key policy.yaml, policy.yml or policy.json). */
export function policyFromConfigMap(data: Readonly<Record<string, string>> | undefined, name = 'configmap'): Policy {
  const key = POLICY_CONFIGMAP_KEYS.find((k) => data?.[k] !== undefined)
  if (!key || !data) throw new PolicyError(`${name}: no ${POLICY_CONFIGMAP_KEYS.join(' / ')} key in data`)
  return loadPolicyText(data[key] ?? '', `${name}/${key}`)
}

/** defaultPolicy returns the policy with every default applied. */
export function defaultPolicy(overrides: PolicyInput = {}): Policy {
  return parsePolicy(overrides, 'defaults')
}
