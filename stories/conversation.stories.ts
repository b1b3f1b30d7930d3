// pal-conversation on its own surface: a stand-in room joined directly (no deployment), with the
// disclosure banner, live captions, the chat panel and a canvas card.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { ApiClient } from '../src/palkit/client/api.js';
import { ConversationSession } from '../src/palkit/client/session.js';
import type { PalConversation } from '../src/palkit/components/conversation/conversation.js';
import { disclose, say, showCard, standInDeployment, standInFetch, StandInRoom, type Scenario } from './support/stand-in.js';

type Args = { lang: string };

function story(
  id: string,
  scenario: Scenario,
  elementAttrs: Record<string, string> = {},
  frameAttrs: Record<string, string> = {},
): StoryObj<Args> {
  standInDeployment(id, scenario);
  return {
    render: (args) => {
      const frame = document.createElement('div');
      frame.style.cssText = 'width: min(100%, 960px); aspect-ratio: 16 / 9;';
      for (const [k, v] of Object.entries(frameAttrs)) frame.setAttribute(k, v);
      const el = document.createElement('pal-conversation') as PalConversation;
      if (args.lang) el.lang = args.lang;
      for (const [k, v] of Object.entries(elementAttrs)) el.setAttribute(k, v);
      el.style.cssText = 'display: block; height: 100%;';
      const session = new ConversationSession({
        api: new ApiClient({ apiBase: location.origin, fetch: standInFetch }),
        transportFactory: (url) => new StandInRoom(url),
      });
      el.session = session;
      frame.append(el);
      void session.join(`http://stand-in.palkit.invalid/rooms/${id}`, 'stand-in');
      return frame;
    },
  };
}

const meta: Meta<Args> = {
  title: 'In call/pal-conversation',
  component: 'pal-conversation',
  args: { lang: '' },
  parameters: { docs: { story: { inline: false, iframeHeight: 600 } } },
};
export default meta;

const talk: Scenario['script'] = [
  disclose('delivering'),
  say('Welcome back! Last time we talked about the Trail 29.', 'replica', 700),
  disclose('delivered', undefined, 200),
  say('Yes — is it available in medium?', 'user', 900),
  say('It is. Want me to reserve one for a test ride?', 'replica', 700),
];

export const Call = story('conversation-call', { script: talk });
export const WithCanvasCard = story('conversation-canvas', {
  script: [...talk, showCard('calendar', { title: 'Pick a test-ride day', mode: 'date_picker' }, 'tc_day', 200)],
});
export const DarkTheme = story('conversation-dark', { script: talk }, { theme: 'dark' });
export const Japanese = story(
  'conversation-ja',
  {
    script: [
      disclose('delivered', 'あなたはAIアシスタントのノヴァと話しています。'),
      say('こんにちは！自転車について何でも聞いてください。', 'replica', 500),
    ],
  },
  {},
  { lang: 'ja' },
);
