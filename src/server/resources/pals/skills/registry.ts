// The skill registry: each skill a PAL can have, with the zod schema of its configuration.
import { z } from '@hono/zod-openapi';
import { unsafeBrowserUrl } from './safe-url.js';

export const CANVAS_COMPONENTS = ['question', 'input', 'calendar', 'scheduling_embed', 'text', 'chart', 'alert'] as const;
export type CanvasComponent = (typeof CANVAS_COMPONENTS)[number];

const Toggle = z.object({ enabled: z.boolean().optional() }).strict();

const SchedulingUrl = z
  .string()
  .max(2048, 'at most 2048 characters')
  .superRefine((value, ctx) => {
    const problem = unsafeBrowserUrl(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const MagicCanvasConfig = z
  .object({
    /** A sparse overlay: listed components are configured or disabled, unlisted ones stay on. */
    components: z
      .object({
        question: Toggle.optional(),
        input: Toggle.optional(),
        calendar: Toggle.optional(),
        scheduling_embed: z
          .object({ enabled: z.boolean().optional(), provider: z.literal('calendly').optional(), scheduling_url: SchedulingUrl.optional() })
          .strict()
          .optional(),
        text: Toggle.optional(),
        chart: Toggle.optional(),
        alert: Toggle.optional(),
      })
      .strict()
      .optional(),
    usage_guidance: z.string().max(2048, 'at most 2048 characters').optional(),
  })
  .strict();

const PresentationConfig = z
  .object({
    document_ids: z.array(z.string().min(1).max(64)).min(1, 'at least one document'),
    slides_trigger: z.enum(['walk_the_deck', 'on_demand']).optional(),
    prompt: z.string().max(4000).optional(),
  })
  .strict();

export interface SkillDefinition {
  skill_id: string;
  name: string;
  description: string;
  config: z.ZodType<Record<string, unknown>>;
}

export const skillRegistry: readonly SkillDefinition[] = [
  {
    skill_id: 'magic_canvas',
    name: 'Magic Canvas',
    description:
      'Interactive cards beside the face video in video conversations (question, input, calendar, scheduling_embed, text, chart, alert). Every component is on unless disabled; scheduling_embed needs a scheduling_url.',
    config: MagicCanvasConfig,
  },
  {
    skill_id: 'presentation',
    name: 'Presentation',
    description: 'Presents PDFs and images from the knowledge base; their content is added to the conversation context.',
    config: PresentationConfig,
  },
  {
    skill_id: 'internet_search',
    name: 'Internet search',
    description: 'Lets the PAL search the web while answering. No configuration.',
    config: z.object({}).strict(),
  },
];

export function findSkill(skillId: string): SkillDefinition | undefined {
  return skillRegistry.find((s) => s.skill_id === skillId);
}

/** For the live PAL: the canvas components that get a show action under this magic_canvas config. */
export function enabledCanvasComponents(config: Record<string, unknown>): CanvasComponent[] {
  const overlay = (config.components ?? {}) as Partial<Record<CanvasComponent, { enabled?: boolean; scheduling_url?: string }>>;
  return CANVAS_COMPONENTS.filter((name) => {
    const entry = overlay[name];
    if (entry?.enabled === false) return false;
    // Until a scheduling page is saved there is nothing to embed: no action, no error.
    return name !== 'scheduling_embed' || Boolean(entry?.scheduling_url);
  });
}
