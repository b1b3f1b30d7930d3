// pal-widget: launcher variants and corners, the popup through the flow, themes and languages.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mount, type Step } from './support/drive.js';
import { disclose, faceImage, say, standInDeployment, type Scenario } from './support/stand-in.js';

type Args = { lang: string; 'override-config': string };

function story(id: string, scenario: Scenario, steps: Step[] = [], extra: Partial<Args> = {}): StoryObj<Args> {
  standInDeployment(id, scenario);
  return {
    args: extra,
    render: (args) => mount('pal-widget', { attributes: { 'deployment-id': id, ...args }, steps, frame: 'min-height: 720px;' }),
  };
}

const meta: Meta<Args> = {
  title: 'Channels/pal-widget',
  component: 'pal-widget',
  args: { lang: '', 'override-config': '' },
  parameters: { layout: 'fullscreen', docs: { story: { inline: false, iframeHeight: 760 } } },
};
export default meta;

const widget = (c: Record<string, unknown>) => ({ init: { channel: 'widget' as const, customization: c } });

export const LauncherCompact = story('widget-compact', widget({ widget: { variant: 'compact' } }));
export const LauncherTiny = story('widget-tiny', widget({ widget: { variant: 'tiny', corner: 'bottom-left' } }));
export const LauncherFull = story('widget-full', {
  init: {
    channel: 'widget',
    thumbnail_image_url: faceImage,
    customization: { widget: { variant: 'full', text: 'Ask Nova', corner: 'top-right' } },
  },
});
export const PopupPreview = story('widget-open', widget({}), ['open']);
export const PopupHaircheck = story('widget-haircheck', widget({ show_haircheck: true }), ['open', 'start']);
export const PopupCall = story(
  'widget-call',
  {
    ...widget({ show_haircheck: false }),
    script: [disclose('delivering'), say('Hello! Ask me anything about our bikes.', 'replica', 800), disclose('delivered', undefined, 300)],
  },
  ['open', 'start', 'connected'],
);
export const PopupUnavailable = story('widget-busy', { init: { channel: 'widget', is_available: false, unavailable_reason: 'busy' } }, [
  'open',
]);
export const PopupEnded = story('widget-ended', widget({ show_haircheck: false }), ['open', 'start', 'end']);
export const DarkTheme = story('widget-dark', widget({ theme: 'dark' }), ['open']);
export const CustomTheme = story(
  'widget-custom',
  widget({ accent_color: '#0f766e', radius: 4, widget: { text: 'Chat with the workshop' } }),
  ['open'],
);
export const Spanish = story('widget-es', widget({}), ['open'], { lang: 'es' });
