// pal-embed through every state of the managed flow, on the stand-in session (stories/support).
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { mount, type Step } from './support/drive.js';
import { disclose, say, showCard, standInDeployment, themeConfig, type Scenario } from './support/stand-in.js';

type Args = { lang: string; 'override-config': string; layout: string; 'expand-options': string };

const callScript: Scenario['script'] = [
  disclose('delivering'),
  say('Hi! I am Nova from Northwind Bikes. How can I help you today?', 'replica', 900),
  disclose('delivered', undefined, 300),
  say('I am looking for a trail bike for my daughter.', 'user', 1200),
  say('Great. How tall is she? I will show you our sizes.', 'replica', 900),
  showCard(
    'question',
    {
      question: 'Which frame size fits best?',
      options: [
        { id: 's', label: 'S (150–165 cm)' },
        { id: 'm', label: 'M (165–178 cm)' },
        { id: 'l', label: 'L (178–190 cm)' },
      ],
      allow_other: true,
    },
    'tc_size',
    300,
  ),
];

function story(id: string, scenario: Scenario, steps: Step[] = [], extra: Partial<Args> = {}): StoryObj<Args> {
  standInDeployment(id, scenario);
  return {
    args: extra,
    render: (args) => mount('pal-embed', { attributes: { 'deployment-id': id, ...args }, steps }),
  };
}

const meta: Meta<Args> = {
  title: 'Channels/pal-embed',
  component: 'pal-embed',
  args: { lang: '', 'override-config': '', layout: '', 'expand-options': '' },
  parameters: { docs: { story: { inline: false, iframeHeight: 620 } } },
};
export default meta;

export const Preview = story('embed-preview', {});
export const PreviewFullScreenLayout = story(
  'embed-preview-layout',
  { init: { customization: { preview: { title: 'Ask Nova about bikes', description: 'Sizes, delivery, service — face to face.' } } } },
  [],
  { layout: 'full-screen' },
);
export const Loading = story('embed-loading', { initError: undefined, holdJoin: true }, []);
Loading.render = () => {
  const frame = document.createElement('div');
  frame.style.width = 'min(100%, 960px)';
  frame.innerHTML = '<pal-embed></pal-embed>';
  return frame;
};
export const Password = story('embed-password', { init: { has_password: true, customization: { show_haircheck: false } } }, ['start']);
export const PasswordWrong = story('embed-password-wrong', { init: { has_password: true, customization: { show_haircheck: false } } }, [
  'start',
  'wrong-password',
]);
export const Captcha = story('embed-captcha', { init: { captcha: { provider: 'turnstile', site_key: 'stand-in' } } }, ['start']);
export const Haircheck = story('embed-haircheck', { init: { customization: { show_haircheck: true } } }, ['start']);
export const Connecting = story('embed-connecting', { init: { customization: { show_haircheck: false } }, holdJoin: true }, ['start']);
export const Call = story('embed-call', { init: { customization: { show_haircheck: false } }, script: callScript }, ['start', 'connected']);
export const UnavailableInactive = story('embed-inactive', { init: { is_available: false, unavailable_reason: 'inactive' } });
export const UnavailableDailyLimit = story('embed-daily-limit', { init: { is_available: false, unavailable_reason: 'daily_limit' } });
export const UnavailableTotalLimit = story('embed-total-limit', { init: { is_available: false, unavailable_reason: 'total_limit' } });
export const UnavailableBusy = story('embed-busy', { init: { is_available: false, unavailable_reason: 'busy' } });
export const UnavailableCaptcha = story(
  'embed-captcha-blocked',
  { init: { captcha: { provider: 'turnstile', site_key: 'stand-in-unavailable' } } },
  ['start'],
);
export const Ended = story('embed-ended', { init: { customization: { show_haircheck: false } } }, ['start', 'end']);
export const EndedCustomCopy = story(
  'embed-ended-copy',
  {
    init: {
      customization: {
        show_haircheck: false,
        after_call: { title: 'Thanks for riding with us', description: 'We sent a summary to your inbox.', btn_title: 'Talk again' },
      },
    },
  },
  ['start', 'end'],
);
export const ErrorNotFound = story('embed-error-404', { initError: { status: 404, error: 'deployment_not_found' } });
export const ErrorOffline = story('embed-error-offline', { initError: 'offline' });
export const ErrorOriginNotAllowed = story(
  'embed-error-origin',
  { init: { customization: { show_haircheck: false } }, startError: { status: 403, error: 'origin_not_allowed' } },
  ['start'],
);

export const DarkTheme = story('embed-dark', { init: { customization: { theme: 'dark', show_haircheck: false } }, script: callScript }, [
  'start',
  'connected',
]);
export const DarkPreview = story('embed-dark-preview', { init: { customization: { theme: 'dark' } } });
export const CustomTheme = story('embed-custom-theme', {}, [], {
  'override-config': themeConfig({
    accent_color: '#c2410c',
    background_color: '#fff7ed',
    text_color: '#431407',
    radius: 20,
    font_family: 'Georgia, serif',
    preview: { title: 'Talk to our workshop', description: 'Our service desk answers face to face.', btn_title: 'Call the workshop' },
  }),
});
export const German = story('embed-de', {}, [], { lang: 'de' });
export const Japanese = story('embed-ja', { init: { has_password: true } }, ['start'], { lang: 'ja' });
export const DeploymentStringOverrides = story(
  'embed-strings',
  { init: { customization: { strings: { fr: { 'preview.start': 'Parlons vélo !' } } } } },
  [],
  { lang: 'fr' },
);
export const RightToLeft: StoryObj<Args> = {
  render: () => {
    standInDeployment('embed-rtl', {
      init: {
        customization: { show_haircheck: false, preview: { title: 'تحدث معنا وجهاً لوجه', description: 'ابدأ محادثة فيديو مع نوفا.' } },
      },
    });
    return mount('pal-embed', { attributes: { 'deployment-id': 'embed-rtl' }, frameAttributes: { dir: 'rtl', lang: 'ar' } });
  },
};

/** Tokens and parts from the page's own CSS (the pictures in docs/theming-light.png and docs/theming-dark.png). */
export const ThemedWithTokensAndParts: StoryObj<Args> = {
  render: () => {
    standInDeployment('embed-themed', { init: { customization: { show_haircheck: false } }, script: callScript });
    const frame = mount('pal-embed', { attributes: { 'deployment-id': 'embed-themed', id: 'themed' }, steps: ['start', 'connected'] });
    const style = document.createElement('style');
    style.textContent = `
      #themed {
        --pal-accent: #c2410c; --pal-color-surface: #fff7ed; --pal-color-surface-raised: #ffedd5; --pal-color-text: #431407;
        --pal-color-border: #fdba74; --pal-radius: 22px; --pal-font: Georgia, 'Times New Roman', serif;
        --pal-captions-background: rgb(67 20 7 / 0.82); --pal-canvas-card-width: 300px;
      }
      #themed::part(base) { box-shadow: 0 0 0 4px #fdba74, 0 18px 40px rgb(67 20 7 / 0.25); }
      #themed::part(controls) { background: #ffedd5; }`;
    frame.prepend(style);
    return frame;
  },
};
