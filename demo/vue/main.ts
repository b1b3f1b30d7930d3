// The Vue page of the demo: palkit from npm, the elements used as custom elements (render functions here,
// since the page is built without @vitejs/plugin-vue; in SFC templates the same tags work once
// `isCustomElement: isPalElement` is set), `onPal…` listeners, and the events as they arrive.
import 'palkit';
import { isPalElement } from 'palkit/vue';
import { createApp, defineComponent, h, ref } from 'vue';

interface DemoConfig {
  deployments: { widget: string; embed: string; landing: string; captcha: string } | null;
}

type Logged = { at: string; type: string; detail: unknown };

const App = defineComponent(() => {
  const deployments = (window as Window & { PALKIT_DEMO?: DemoConfig }).PALKIT_DEMO?.deployments;
  const events = ref<Logged[]>([]);
  const lang = ref('en');
  const log = (event: Event & { detail?: unknown }) => {
    events.value = [{ at: new Date().toLocaleTimeString(), type: event.type, detail: event.detail ?? {} }, ...events.value].slice(0, 50);
  };
  const listeners = {
    onPalReady: log,
    onPalStateChange: log,
    onPalModeChange: log,
    onPalConversationStarted: log,
    onPalConversationEnded: log,
    onPalError: log,
    onPalToolCall: log,
    onPalCanvasInteraction: log,
  };
  return () => {
    if (!deployments) return h('p', 'The demo is not seeded yet (start it with npm start).');
    return [
      h('h1', 'Vue page'),
      h('p', ['The palkit elements as custom elements in a Vue 3 app (', h('code', 'isCustomElement: isPalElement'), ').']),
      h('label', [
        'Language ',
        h(
          'select',
          { value: lang.value, 'aria-label': 'Language', onChange: (e: Event) => (lang.value = (e.target as HTMLSelectElement).value) },
          ['en', 'de', 'es', 'fr', 'ja'].map((l) => h('option', { value: l }, l)),
        ),
      ]),
      h('div', { class: 'embed-frame' }, [
        h('pal-embed', { id: 'vue-embed', 'deployment-id': deployments.embed, lang: lang.value, ...listeners }),
      ]),
      // The round launcher: beside the embed on a phone it keeps to the column the embed leaves it (demo.css).
      h('pal-widget', {
        'deployment-id': deployments.widget,
        lang: lang.value,
        'override-config': JSON.stringify({ widget: { variant: 'tiny' } }),
        ...listeners,
      }),
      h('h2', 'Events'),
      h(
        'ol',
        { class: 'log', id: 'events', 'aria-label': 'Events from the elements', reversed: true },
        events.value.map((e, i) =>
          h('li', { key: events.value.length - i }, [h('code', e.type), ` ${JSON.stringify(e.detail)} `, h('small', e.at)]),
        ),
      ),
    ];
  };
});

const app = createApp(App);
// Only matters when templates are compiled at runtime; SFC builds set it in the Vue plugin's compilerOptions.
app.config.compilerOptions.isCustomElement = isPalElement;
app.mount('#app');
