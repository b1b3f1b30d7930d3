// JSX typings for the raw `pal-*` tags in React (attributes as written in HTML, plus React's own props).
// With React 19 the raw tags also take the element's properties; the wrappers in index.ts work in 18 too.
import type * as React from 'react';

type Base<E extends HTMLElement> = React.DetailedHTMLProps<React.HTMLAttributes<E>, E> & { class?: string };

/** Attributes shared by pal-widget, pal-embed and pal-landing. */
export interface PalDeploymentAttributes {
  'deployment-id'?: string;
  'api-base'?: string;
  'conversational-context'?: string;
  'custom-greeting'?: string;
  'memory-stores'?: string;
  'override-config'?: string;
  'user-name'?: string;
  lang?: string;
  theme?: 'light' | 'dark' | 'auto';
}

export interface PalWidgetAttributes extends PalDeploymentAttributes {
  open?: boolean;
}

export interface PalEmbedAttributes extends PalDeploymentAttributes {
  layout?: string;
  'expand-options'?: string;
}

export interface PalConversationAttributes {
  'conversation-url'?: string;
  'meeting-token'?: string;
  'api-base'?: string;
  lang?: string;
}

export interface PalTranscriptAttributes {
  mode?: 'panel' | 'captions';
  'pal-name'?: string;
  'hide-chat'?: boolean;
  live?: 'polite' | 'off';
  'caption-hold'?: number | string;
  lang?: string;
}

export interface PalDisclosureAttributes {
  state?: 'hidden' | 'delivering' | 'delivered' | 'dismissed';
  text?: string;
  lang?: string;
}

export interface PalCanvasAttributes {
  lang?: string;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'pal-widget': Base<HTMLElementTagNameMap['pal-widget']> & PalWidgetAttributes;
      'pal-embed': Base<HTMLElementTagNameMap['pal-embed']> & PalEmbedAttributes;
      'pal-landing': Base<HTMLElementTagNameMap['pal-landing']> & PalDeploymentAttributes;
      'pal-conversation': Base<HTMLElementTagNameMap['pal-conversation']> & PalConversationAttributes;
      'pal-transcript': Base<HTMLElementTagNameMap['pal-transcript']> & PalTranscriptAttributes;
      'pal-disclosure': Base<HTMLElementTagNameMap['pal-disclosure']> & PalDisclosureAttributes;
      'pal-canvas': Base<HTMLElementTagNameMap['pal-canvas']> & PalCanvasAttributes;
    }
  }
}
