import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type MessageType, parseData } from '../../../shared/messages/index.ts'

const dir = join(import.meta.dirname, '../../fixtures/messages')
const typeOf = (file: string): MessageType =>
  file.startsWith('decision-')
    ? 'io.nodewarden.decision.v1'
    : file.startsWith('alert-')
      ? 'io.nodewarden.alert.v1'
      : 'io.nodewarden.nodeview.v1'
const files = readdirSync(dir).filter((f) => f.endsWith('.json'))

describe('message fixtures', () => {
  it('covers every decision action', () => {
    const actions = files
      .filter((f) => f.startsWith('decision-'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).action)
    expect(new Set(actions)).toEqual(new Set(['taint', 'untaint', 'evict', 'backfillTolerations', 'deleteEvictedPod']))
  })

  it.each(files)('%s parses against its schema', (file) => {
    const raw = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    expect(() => parseData(typeOf(file), raw)).not.toThrow()
  })
})
