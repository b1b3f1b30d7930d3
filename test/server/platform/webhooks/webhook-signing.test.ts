// The demo receiver's verifyWebhook agrees with the standardwebhooks package: signatures it makes verify
// there, and like the package it refuses deliveries outside the 5-minute timestamp tolerance.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from '../../../../src/server/platform/webhooks/signing.js';

const secret = `whsec_${Buffer.from('a test secret of enough bytes!!').toString('base64')}`;
const body = JSON.stringify({ event_type: 'system.shutdown', properties: { shutdown_reason: 'end' } });

describe('webhook signatures', () => {
  it('signs what standardwebhooks verifies, and verifies what it signs', () => {
    const now = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, 'msg_1', now, body);
    assert.doesNotThrow(() =>
      new Webhook(secret).verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': signature }),
    );
    const theirs = new Webhook(secret).sign('msg_2', new Date(now * 1000), body);
    assert.equal(verifyWebhook(secret, { id: 'msg_2', timestamp: String(now), signature: `v1,bogus ${theirs}` }, body), true);
    assert.equal(verifyWebhook(secret, { id: 'msg_2', timestamp: String(now), signature: theirs }, `${body} `), false, 'a changed body');
  });

  it('refuses timestamps outside the tolerance, as standardwebhooks does', () => {
    const now = new Date();
    for (const offset of [-(WEBHOOK_TOLERANCE_SECONDS + 5), WEBHOOK_TOLERANCE_SECONDS + 5]) {
      const ts = Math.floor(now.getTime() / 1000) + offset;
      const signature = signWebhook(secret, 'msg_3', ts, body);
      assert.equal(verifyWebhook(secret, { id: 'msg_3', timestamp: String(ts), signature }, body, now), false, `offset ${offset}`);
      assert.throws(() =>
        new Webhook(secret).verify(body, { 'webhook-id': 'msg_3', 'webhook-timestamp': String(ts), 'webhook-signature': signature }),
      );
    }
    const inside = Math.floor(now.getTime() / 1000) - 60;
    assert.equal(
      verifyWebhook(secret, { id: 'msg_4', timestamp: String(inside), signature: signWebhook(secret, 'msg_4', inside, body) }, body, now),
      true,
    );
    assert.equal(
      verifyWebhook(secret, { id: 'msg_4', timestamp: 'soon', signature: signWebhook(secret, 'msg_4', inside, body) }, body, now),
      false,
    );
  });
});
