// pal-end-confirm: "End the call?" over the popup or expanded card it sits in (here a stage-like box),
// in the light and dark themes. The widget and embed show it when × or Escape would hang up a live call.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { PalEndAnswerEvent } from '../src/palkit/components/events/end-answer.js';

const meta: Meta = { title: 'In call/pal-end-confirm', component: 'pal-end-confirm' };
export default meta;

const frame = (scheme: 'light' | 'dark'): StoryObj => ({
  render: () => html`<div style="position: relative; width: min(100%, 400px); height: 520px; border-radius: 12px; color-scheme: ${scheme};
    background: linear-gradient(135deg, #28425e, #141c2b);"><pal-end-confirm @pal-end-answer=${(e: PalEndAnswerEvent) => console.info('pal-end-answer', e.detail)}></pal-end-confirm></div>`,
});

export const Asking = frame('light');
export const Dark = frame('dark');
