import { z } from '@hono/zod-openapi';

const HttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL');
const VariableName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a name (letters, digits, underscore)');

export const ObjectiveItem = z
  .object({
    objective_name: z.string().min(1).max(200),
    objective_prompt: z.string().max(4000).optional().openapi({ description: 'What the PAL should find out' }),
    output_variables: z
      .array(VariableName)
      .min(1)
      .max(50)
      .openapi({ description: 'Variables the objective captures; it completes when all of them are captured' }),
    callback_url: HttpUrl.optional().openapi({
      description: 'Receives {conversation_id, objective_name, output_variables} when the objective completes',
    }),
  })
  .strict()
  .openapi('ObjectiveItem');

export const CreateObjectives = z
  .object({ name: z.string().max(200).optional(), data: z.array(ObjectiveItem).min(1).max(50) })
  .strict()
  .refine((b) => new Set(b.data.map((o) => o.objective_name)).size === b.data.length, {
    message: 'objective_name must be unique',
    path: ['data'],
  })
  .openapi('CreateObjectives');

export const Objectives = z
  .object({ objectives_id: z.string(), name: z.string().optional(), data: z.array(ObjectiveItem), created_at: z.string() })
  .openapi('Objectives');

export const CaptureVariables = z
  .object({ variables: z.record(VariableName, z.unknown()).refine((v) => Object.keys(v).length > 0, 'give at least one variable') })
  .strict()
  .openapi('CaptureObjectiveVariables');

export const ObjectiveProgress = z
  .object({ objective_name: z.string(), output_variables: z.record(z.string(), z.unknown()), completed: z.boolean() })
  .openapi('ObjectiveProgress');
