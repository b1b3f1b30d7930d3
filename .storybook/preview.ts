// Every story runs against the stand-ins (stories/support): deployments answered from memory, a scripted
// room, synthetic camera and microphone, a Turnstile look-alike. Controls and docs come from the
// custom-elements manifest that `npm run build-storybook` / `npm run storybook` generate first.
import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import '../src/palkit/components/define.js';
import manifest from './generated/custom-elements.json';
import { installStandInMedia } from '../stories/support/media.js';
import { installStandInSession } from '../stories/support/stand-in.js';
import { installStandInTurnstile } from '../stories/support/turnstile.js';

setCustomElementsManifest(manifest);
installStandInSession();
installStandInMedia();
installStandInTurnstile();

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    docs: { toc: false },
  },
  tags: ['autodocs'],
};

export default preview;
