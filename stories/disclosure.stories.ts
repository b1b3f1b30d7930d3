// pal-disclosure: the AI disclosure banner while spoken, once delivered (dismissible), long texts, languages.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mountPart } from './support/part.js';
import { disclose, type ScriptStep } from './support/stand-in.js';

type Args = { lang: string };
const meta: Meta<Args> = { title: 'In call/pal-disclosure', component: 'pal-disclosure', args: { lang: '' } };
export default meta;

const story = (steps: ScriptStep[], frameAttributes: Record<string, string> = {}): StoryObj<Args> => ({
  render: (args) => mountPart('pal-disclosure', { attributes: { lang: args.lang }, script: steps, frameAttributes }),
});

export const Delivering = story([disclose('delivering', undefined, 0)]);
export const Delivered = story([disclose('delivering', undefined, 0), disclose('delivered', undefined, 10)]);
export const DefaultText = story([disclose('delivered', '', 0)]);
export const LongText = story([
  disclose(
    'delivered',
    'You are talking with Nova, an AI assistant operated by Northwind Bikes. '.repeat(12) +
      'Conversations may be recorded and reviewed to improve the service. You can ask for a human at any time.',
    0,
  ),
]);
export const German: StoryObj<Args> = { ...story([disclose('delivered', '', 0)]), args: { lang: 'de' } };
export const RightToLeft = story(
  [disclose('delivered', 'أنت تتحدث مع نوفا، وهي مساعدة تعمل بالذكاء الاصطناعي. قد يتم تسجيل المحادثات لتحسين الخدمة.', 0)],
  { dir: 'rtl', lang: 'ar' },
);
