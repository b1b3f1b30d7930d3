// pal-transcript: the panel (chat, downloads, windowed long transcripts) and live captions, with
// interrupted turns, right-to-left text and other languages.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mountPart, type PartOptions } from './support/part.js';
import { say, type ScriptStep } from './support/stand-in.js';

type Args = { lang: string; mode: string; 'pal-name': string };
const meta: Meta<Args> = {
  title: 'In call/pal-transcript',
  component: 'pal-transcript',
  args: { lang: '', mode: 'panel', 'pal-name': 'Nova' },
  argTypes: { mode: { control: 'inline-radio', options: ['panel', 'captions'] } },
};
export default meta;

const panelFrame =
  'position: relative; width: min(100%, 420px); height: 560px; border: 1px solid #d8d8e0; border-radius: 12px; overflow: hidden; background: #fff;';

const story = (script: ScriptStep[], options: Partial<PartOptions> = {}, args: Partial<Args> = {}): StoryObj<Args> => ({
  args,
  render: (a) =>
    mountPart('pal-transcript', {
      attributes: { lang: a.lang, mode: a.mode, 'pal-name': a['pal-name'] },
      frame: a.mode === 'captions' ? undefined : panelFrame,
      script,
      ...options,
    }),
});

const chat: ScriptStep[] = [
  say('Hi! I am Nova. What are you riding at the moment?', 'replica', 0),
  say('An old steel hardtail. I want something lighter.', 'user', 10),
  say('Then the Trail 29 is a good fit: aluminium frame, 12.9 kg in size M.', 'replica', 10),
  say('Does it come with a dropper post?', 'user', 10),
  {
    after: 10,
    message: {
      event_type: 'conversation.utterance.streaming',
      properties: { role: 'replica', speech: 'Yes, a 150 mm dropper, and', final: true, is_interrupted: true, content_index: 0 },
    },
  },
  say('Sorry — what about delivery?', 'user', 10),
];

export const Empty = story([]);
export const Panel = story(chat);
export const Captions = story(
  [
    {
      after: 0,
      message: {
        event_type: 'conversation.utterance.streaming',
        properties: { role: 'replica', speech: 'Then the Trail 29 is a good fit', final: false, content_index: 0 },
      },
    },
  ],
  {},
  { mode: 'captions' },
);
export const LongTranscript = story([], {
  setup: (_el, link) => {
    for (let i = 0; i < 2000; i++)
      link.event('conversation.utterance', {
        role: i % 2 ? 'user' : 'replica',
        speech: `Message ${i + 1}: ${i % 2 ? 'a question about frame sizes, delivery times and the warranty' : 'an answer with the details the visitor asked for, long enough to wrap onto a second line in the panel'}.`,
      });
  },
});
export const HiddenChat: StoryObj<Args> = {
  ...story(chat),
  render: (a) =>
    mountPart('pal-transcript', { attributes: { 'hide-chat': 'true', 'pal-name': a['pal-name'] }, frame: panelFrame, script: chat }),
};
export const RightToLeft = story(
  [
    say('مرحباً! أنا نوفا. كيف يمكنني مساعدتك اليوم؟', 'replica', 0),
    say('أبحث عن دراجة جبلية لابنتي.', 'user', 10),
    say('رائع! كم طولها؟ سأعرض لك المقاسات المتوفرة.', 'replica', 10),
  ],
  { frameAttributes: { dir: 'rtl', lang: 'ar' } },
);
export const Japanese = story(
  [
    say('こんにちは！ノヴァです。今日はどのようなご用件ですか？', 'replica', 0),
    say('娘のためにマウンテンバイクを探しています。', 'user', 10),
  ],
  {},
  { lang: 'ja' },
);
