// Objectives in a live conversation: a PAL that asks a model is given one function, record_objective_values,
// whose parameters are the output variables of the objectives attached to it (objectives_id) and whose
// description carries each objective's prompt. What the visitor says, types into a canvas card or a tool
// returns reaches the model, which records the values; an objective completes (and its callback is sent)
// when all its variables are captured.
import type { ServiceDeps } from '../../platform/context.js';
import { attached, captureObjectiveVariables } from '../../resources/objectives/progress.js';
import { isRecord } from '../../resources/conversations/live-conversation.js';
import type { LlmTool } from './llm.js';

export const OBJECTIVES_TOOL = 'record_objective_values';

export interface LocalTool {
  definition: LlmTool;
  run(args: Record<string, unknown>): Promise<{ ok: boolean; output: string }>;
}

/** Keeps only values an objective can hold: text, numbers and yes/no, of a sane size. */
function capturable(args: Record<string, unknown>, names: Set<string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(
      ([k, v]) =>
        names.has(k) &&
        (typeof v === 'number'
          ? Number.isFinite(v)
          : typeof v === 'boolean' || (typeof v === 'string' && v.trim() !== '' && v.length <= 2000)),
    ),
  );
}

/** The function for the conversation's objectives, or null when its PAL has none. */
export async function objectivesTool(deps: ServiceDeps, conversationId: string): Promise<LocalTool | null> {
  const found = await attached(deps.db, conversationId);
  if (!found?.items.length) return null;
  const names = new Set(found.items.flatMap((o) => o.output_variables));
  const goals = found.items
    .map((o) => `- ${o.objective_name}${o.objective_prompt ? `: ${o.objective_prompt}` : ''} (captures ${o.output_variables.join(', ')})`)
    .join('\n');
  return {
    definition: {
      type: 'function',
      function: {
        name: OBJECTIVES_TOOL,
        description:
          `Record values the visitor has clearly given for the conversation's objectives. Call it as soon as you learn a value; never guess.\nObjectives:\n${goals}`.slice(
            0,
            4000,
          ),
        parameters: {
          type: 'object',
          properties: Object.fromEntries([...names].map((n) => [n, { type: ['string', 'number', 'boolean'] }])),
          additionalProperties: false,
        },
      },
    },
    async run(args) {
      const values = capturable(args, names);
      if (!Object.keys(values).length)
        return { ok: false, output: `No known variable was given; the variables are ${[...names].join(', ')}.` };
      const progress = await captureObjectiveVariables(deps, conversationId, values);
      const open = progress
        .filter((p) => !p.completed)
        .map(
          (p) =>
            `${p.objective_name} (missing ${found.items
              .find((o) => o.objective_name === p.objective_name)!
              .output_variables.filter((v) => !(v in p.output_variables))
              .join(', ')})`,
        );
      const done = progress.filter((p) => p.completed).map((p) => p.objective_name);
      return { ok: true, output: `Recorded. Completed: ${done.join(', ') || 'none'}. Still open: ${open.join('; ') || 'none'}.` };
    },
  };
}

/** A tool's structured result may itself carry objective values (e.g. a booking tool returning `booking_id`). */
export async function captureFromToolResult(deps: ServiceDeps, conversationId: string, result: unknown): Promise<void> {
  if (!isRecord(result)) return;
  const values = Object.fromEntries(
    Object.entries(result).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'),
  );
  if (Object.keys(values).length) await captureObjectiveVariables(deps, conversationId, values);
}
