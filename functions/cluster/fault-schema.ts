/** FaultRuleSchema validates a fault rule given in a scenario (same shape as `Faults.inject`). */
import * as z from 'zod'

export const FaultRuleSchema = z.strictObject({
  resource: z.string().optional(),
  verb: z.enum(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'proxy']).optional(),
  code: z.number().int().min(400).max(599).optional(),
  rate: z.number().min(0).max(1).optional(),
  times: z.number().int().positive().optional(),
  latencyMs: z.number().nonnegative().optional(),
  message: z.string().optional(),
})
