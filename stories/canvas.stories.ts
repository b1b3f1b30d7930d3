// pal-canvas: every Magic Canvas card (question, input, calendar modes, scheduling embed, text, chart
// kinds, alert severities), a failed post kept for retry, right-to-left and other languages.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mountPart } from './support/part.js';
import { showCard, type StandInLink } from './support/stand-in.js';

type Args = { lang: string };
const meta: Meta<Args> = {
  title: 'In call/pal-canvas',
  component: 'pal-canvas',
  args: { lang: '' },
  parameters: { docs: { story: { inline: false, iframeHeight: 560 } } },
};
export default meta;

const card = (
  component: string,
  args: Record<string, unknown>,
  frameAttributes: Record<string, string> = {},
  setup?: (el: HTMLElement, link: StandInLink) => void,
): StoryObj<Args> => ({
  render: (a) =>
    mountPart('pal-canvas', {
      attributes: { lang: a.lang },
      script: [showCard(component, args, `tc_${component}`, 0)],
      frameAttributes,
      ...(setup ? { setup } : {}),
    }),
});

const sizes = [
  { id: 's', label: 'S (150–165 cm)' },
  { id: 'm', label: 'M (165–178 cm)' },
  { id: 'l', label: 'L (178–190 cm)' },
];
const today = new Date();
const iso = (d: Date) => d.toISOString().slice(0, 10);
const inDays = (n: number) => new Date(today.getTime() + n * 86_400_000);
const slot = (days: number, hour: number) => {
  const d = inDays(days);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().replace('.000', '');
};

export const Question = card('question', { question: 'Which frame size fits best?', options: sizes });
export const QuestionMultiWithOther = card('question', {
  question: 'What do you ride on?',
  options: [
    { id: 'trail', label: 'Trails' },
    { id: 'road', label: 'Roads' },
    { id: 'gravel', label: 'Gravel' },
  ],
  multi_select: true,
  allow_other: true,
  allow_skip: true,
});
export const InputEmail = card('input', {
  prompt: 'Where should we send the quote?',
  placeholder: 'name@example.com',
  input_type: 'email',
  required: true,
  allow_skip: true,
});
export const CalendarDate = card('calendar', {
  title: 'Pick a test-ride day',
  description: 'We are open Monday to Saturday.',
  mode: 'date_picker',
  date_range: { start: iso(today), end: iso(inDays(60)) },
});
export const CalendarSlots = card('calendar', {
  title: 'Choose a time',
  mode: 'slot_picker',
  slots: [slot(1, 9), slot(1, 11), slot(2, 14), { start: slot(3, 16), label: 'Late slot' }],
});
export const CalendarRange = card('calendar', {
  title: 'Rental period',
  mode: 'range',
  presets: [{ label: 'This weekend', date: iso(inDays(3)) }],
});
export const SchedulingEmbed = card('scheduling_embed', {
  provider: 'calendly',
  scheduling_url: 'https://calendly.com/northwind/test-ride',
  title: 'Book a test ride',
});
export const TextMarkdown = card('text', {
  title: 'Trail 29 at a glance',
  format: 'markdown',
  body: '**Frame:** aluminium, 12.9 kg\n\n- 120 mm fork\n- 12-speed drivetrain\n- 150 mm dropper post\n\n*From €1,299.*',
});
export const ChartBar = card('chart', {
  chart_type: 'bar',
  title: 'Weight by size (kg)',
  data: [
    { label: 'S', value: 12.6 },
    { label: 'M', value: 12.9 },
    { label: 'L', value: 13.2 },
  ],
  x_label: 'Size',
  y_label: 'kg',
});
export const ChartLine = card('chart', {
  chart_type: 'line',
  title: 'Orders per month',
  data: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'].map((label, i) => ({ label, value: [12, 18, 25, 31, 28, 40][i]! })),
});
export const ChartPie = card('chart', {
  chart_type: 'pie',
  title: 'Riders by discipline',
  data: [
    { label: 'Trail', value: 48 },
    { label: 'Road', value: 30 },
    { label: 'Gravel', value: 22 },
  ],
});
export const AlertInfo = card('alert', { severity: 'info', title: 'Workshop hours', body: 'The workshop is open until 18:00 today.' });
export const AlertSuccess = card('alert', { severity: 'success', body: 'Your test ride is booked for Saturday at 10:00.' });
export const AlertWarning = card('alert', { severity: 'warning', title: 'Low stock', body: 'Only two size M frames are left.' });
export const AlertError = card('alert', {
  severity: 'error',
  title: 'Payment failed',
  body: 'The card was declined. Nothing was charged.',
});
export const SendFailedRetry: StoryObj<Args> = {
  render: () =>
    mountPart('pal-canvas', {
      script: [showCard('input', { prompt: 'Your phone number?', input_type: 'tel', required: true }, 'tc_phone', 0)],
      setup: (el, link) => {
        link.postCanvasInteraction = async () => {
          throw new Error('stand-in: network down');
        };
        // Submit once the card is there (the element upgrades and draws it when it can): the post fails and
        // the card keeps the value with a retry.
        const submit = (tries: number) => {
          const input = el.shadowRoot?.querySelector('input');
          if (!input) return void (tries > 0 && setTimeout(() => submit(tries - 1), 100));
          input.value = '+49 30 1234567';
          input.dispatchEvent(new Event('input', { bubbles: true }));
          el.shadowRoot!.querySelector<HTMLElement>('form button[type=submit], button.primary')?.click();
        };
        setTimeout(() => submit(50), 200);
      },
    }),
};
export const German = {
  ...card('question', { question: 'Welche Rahmengröße passt?', options: sizes, allow_skip: true }),
  args: { lang: 'de' },
};
export const RightToLeft = card(
  'question',
  {
    question: 'ما المقاس الأنسب لك؟',
    options: [
      { id: 's', label: 'صغير' },
      { id: 'm', label: 'متوسط' },
      { id: 'l', label: 'كبير' },
    ],
  },
  { dir: 'rtl', lang: 'ar' },
);
