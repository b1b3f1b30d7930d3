// pal-landing: the five hero templates, call-to-action links, the call, and the unavailable page.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mount, type Step } from './support/drive.js';
import { faceImage, standInDeployment, type Scenario } from './support/stand-in.js';

type Args = { lang: string; 'override-config': string };

const page = (template: 'split' | 'stacked' | 'centered' | 'spotlight' | 'minimal', extra: Record<string, unknown> = {}): Scenario => ({
  init: {
    channel: 'landing-page',
    customization: {
      landing_page: {
        template,
        logo_url: faceImage,
        title: 'Meet Nova, your bike adviser',
        description: 'Ask about sizes, delivery and service — face to face, any time.',
        cta_links: [
          { label: 'Browse bikes', url: 'https://example.com/bikes' },
          { label: 'Opening hours', url: 'https://example.com/hours' },
        ],
      },
      ...extra,
    },
  },
});

function story(id: string, scenario: Scenario, steps: Step[] = [], extra: Partial<Args> = {}): StoryObj<Args> {
  standInDeployment(id, scenario);
  return {
    args: extra,
    render: (args) => mount('pal-landing', { attributes: { 'deployment-id': id, ...args }, steps, frame: 'min-height: 700px;' }),
  };
}

const meta: Meta<Args> = {
  title: 'Channels/pal-landing',
  component: 'pal-landing',
  args: { lang: '', 'override-config': '' },
  parameters: { layout: 'fullscreen', docs: { story: { inline: false, iframeHeight: 720 } } },
};
export default meta;

export const Split = story('landing-split', page('split'));
export const Stacked = story('landing-stacked', page('stacked'));
export const Centered = story('landing-centered', page('centered'));
export const Spotlight = story('landing-spotlight', page('spotlight'));
export const Minimal = story('landing-minimal', page('minimal'));
export const Password = story('landing-password', { ...page('split'), init: { ...page('split').init, has_password: true } }, ['start']);
export const Call = story('landing-call', page('centered', { show_haircheck: false }), ['start', 'connected']);
export const Unavailable = story('landing-total-limit', {
  init: { ...page('split').init, is_available: false, unavailable_reason: 'total_limit' },
});
export const DarkTheme = story('landing-dark', page('spotlight', { theme: 'dark' }));
export const French = story('landing-fr', page('stacked'), [], { lang: 'fr' });
