// Storybook for the palkit elements: CSF3 stories under stories/, a stand-in session (no service, no
// camera, no network), controls and docs from the custom-elements manifest. Nothing is fetched at build
// or run time; telemetry is off.
import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  framework: '@storybook/web-components-vite',
  stories: ['../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
    // The package's own vite.config.ts builds the library; Storybook gets a plain app config.
    builder: { name: '@storybook/builder-vite', options: { viteConfigPath: '.storybook/vite.config.ts' } },
  },
};

export default config;
