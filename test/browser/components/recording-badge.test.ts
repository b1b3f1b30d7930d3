// A recorded call is visible in the call: the local room's `joined` frame says so, the session passes it
// on and the stage shows a localized badge.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalConversation } from '../../../src/palkit/components/conversation/conversation.js';
import type { PalStage } from '../../../src/palkit/components/stage/stage.js';
import { loadLanguage, translator } from '../../../src/palkit/components/i18n/strings.js';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { deep } from '../helpers/deployment.js';

class RecordedTransport extends StandInTransport {
  readonly recording = true;
}

class JoinSocket extends EventTarget {
  readyState = 0;
  binaryType = 'arraybuffer';
  constructor(readonly frame: unknown) {
    super();
    setTimeout(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(): void {
    setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(this.frame) })));
  }
  close(): void {}
}

describe('recording indicator', () => {
  it('the local transport reads `recording` from the joined frame', async () => {
    for (const recording of [true, undefined]) {
      const joined = { type: 'joined', participant_id: 'v1', conversation_id: 'c1', participants: [], ...(recording ? { recording } : {}) };
      const transport = new LocalTransport({
        voice: false,
        listen: false,
        createSocket: () => new JoinSocket(joined) as unknown as WebSocket,
      });
      await transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
      expect(transport.recording).to.equal(recording === true);
      await transport.leave();
    }
  });

  it('pal-conversation shows a Recorded badge on the stage only when the call is recorded', async () => {
    const { ConversationSession } = await import('../../../src/palkit/client/session.js');
    for (const [transport, shown] of [
      [new RecordedTransport(), true],
      [new StandInTransport(), false],
    ] as const) {
      const session = new ConversationSession({ transportFactory: () => transport });
      const el = document.createElement('pal-conversation') as PalConversation;
      el.session = session;
      await fixture(html`<div style="width:800px;height:500px"></div>`).then((d) => d.append(el));
      await session.join('http://pal.test/rooms/c7', 'tok');
      await el.updateComplete;
      const stage = deep(el, 'pal-stage') as PalStage;
      await stage.updateComplete;
      const badge = deep<HTMLElement>(stage, '[part=recording]');
      expect(badge !== null, `badge shown: ${shown}`).to.equal(shown);
      if (badge) {
        expect(badge.textContent!.trim()).to.equal('Recorded');
        expect(badge.getAttribute('role')).to.equal('status');
        const box = badge.getBoundingClientRect();
        expect(box.width).to.be.greaterThan(20);
        expect(box.height).to.be.greaterThan(8);
        await expect(el).to.be.accessible();
      }
      await session.endConversation();
    }
  });

  it('is localized', async () => {
    await loadLanguage('de');
    const el = await fixture<PalStage>(html`<pal-stage recording .t=${translator('de')}></pal-stage>`);
    expect(deep(el, '[part=recording]')!.textContent!.trim()).to.equal('Aufzeichnung');
  });
});
