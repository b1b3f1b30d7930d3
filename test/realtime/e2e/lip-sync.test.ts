// Lip sync as the visitor sees it (issue 32), in Chromium against the service process: the PAL speaks its
// greeting and says back a typed question, and the test's own instruments watch the stage — every frame the
// PAL's <video> presents (its mouth region's change from the resting mouth, at the frame's display time)
// against an analyser on the PAL's audio track (5 ms bins at their output time). For Ada, and for a trained
// face: a rig painted in the page, served by the test, its URL added to the room's PAL participant on its
// way to the page. Figures printed; asserted: the mouth moves in ≥ 95 % of the 100 ms windows where the
// voice is audible and rests in ≥ 90 % of the silent ones, the lag between mouth and voice is within
// ±40 ms, and the mouth first moves within 50 ms of the first audible sample of a turn (the turns' mean;
// each turn within 50 ms plus one 40 ms frame of the face).
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createDeployment, createPal, customerPage, eventually, openPage, startWorld, type World } from '../../helpers/e2e-world.js';
import { ADA_MOUTH, AUDIBLE, analyseLipSync, assertLipSync, describeLipSync, lipInstruments, type Figures, type MouthBox, type Recording } from '../../helpers/lip-sync.js';

/** No lips pressed (m, b, p): every voiced stretch opens the mouth. */
const GREETING = 'Hello there, I read all the notes you sent, and I think it is a good idea to start with the third one. Shall we look at it together?';
const QUESTION = 'Is the third one the idea you said you liked?';
/** Where the mouth is on the test rig's 320×320 frame. */
const RIG_MOUTH: MouthBox = { x: 130, y: 200, w: 60, h: 40, width: 320, height: 320 };

/** A 320×320 trained face painted in the page: a still face (eyes, a dark resting mouth) and a mouth per viseme. */
async function paintRig(page: Page): Promise<Map<string, { body: Buffer; type: string }>> {
  // A string, not a function: the test runner's transform would name its functions with a helper the page lacks.
  const files = await page.evaluate<{ rig: string; idle: string; mouths: string }>(`(async () => {
    const make = (w, h, paint) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      paint(canvas.getContext('2d'));
      return canvas.toDataURL('image/png').split(',')[1];
    };
    const frames = 8;
    const idle = make(320 * 4, 320 * 2, (c) => {
      for (let f = 0; f < frames; f++) {
        const [x, y] = [(f % 4) * 320, Math.floor(f / 4) * 320];
        c.fillStyle = '#c8a690';
        c.fillRect(x, y, 320, 320);
        c.fillStyle = '#2a2a2a';
        c.fillRect(x + 100 + f, y + 110, 30, 12); // the eyes drift a little: the loop is visible
        c.fillRect(x + 190 + f, y + 110, 30, 12);
        c.fillStyle = '#7a3030';
        c.fillRect(x + 135, y + 218, 50, 4); // the resting mouth
      }
    });
    const visemes = ['rest', 'A', 'E', 'I', 'O', 'U', 'M', 'F', 'L', 'S'];
    const mouths = make(80 * 5, 48 * 2, (c) => visemes.forEach((v, i) => {
      const [x, y] = [(i % 5) * 80 + 40, Math.floor(i / 5) * 48 + 24];
      const open = { rest: 2, A: 16, E: 12, I: 8, O: 14, U: 10, M: 1, F: 7, L: 10, S: 8 }[v];
      c.fillStyle = '#7a3030';
      c.beginPath();
      c.ellipse(x, y, 25, open + 2, 0, 0, 2 * Math.PI);
      c.fill();
      c.fillStyle = '#200808';
      c.beginPath();
      c.ellipse(x, y, 21, open, 0, 0, 2 * Math.PI);
      c.fill();
    }));
    const rig = {
      version: 1, width: 320, height: 320, fps: 12,
      idle: { url: 'idle.png', cellWidth: 320, cellHeight: 320, columns: 4, count: frames },
      poses: Array.from({ length: frames }, () => ({ x: 160, y: 220, width: 50, angle: 0 })),
      blinks: [3],
      mouths: { sheet: { url: 'mouths.png', cellWidth: 80, cellHeight: 48, columns: 5, count: 10 }, mouthWidth: 50 },
      visemes: Object.fromEntries(visemes.map((v, i) => [v, { cell: i, source: 'warp' }])),
    };
    return { rig: JSON.stringify(rig), idle, mouths };
  })()`);
  return new Map([
    ['rig.json', { body: Buffer.from(files.rig), type: 'application/json' }],
    ['idle.png', { body: Buffer.from(files.idle, 'base64'), type: 'image/png' }],
    ['mouths.png', { body: Buffer.from(files.mouths, 'base64'), type: 'image/png' }],
  ]);
}

describe('lip sync at the <video> a visitor sees', { timeout: 240_000 }, () => {
  let world: World;
  let palId = '';
  before(async () => {
    world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '170' });
    palId = await createPal(world, { pal_name: 'Lip PAL', custom_greeting: GREETING, default_face_id: 'rpalkitada', disclosure_type: 'off' });
  });
  after(async () => world?.close());

  async function greetingSeen(box: MouthBox, prepare?: (page: Page) => Promise<void>): Promise<Figures> {
    const id = await createDeployment(world, { pal_id: palId, channel: 'widget', allowed_origins: [world.siteOrigin], customization: { show_haircheck: false } });
    const page = await openPage(world);
    try {
      await page.context().addInitScript(lipInstruments(box));
      await prepare?.(page);
      await page.goto(world.sitePage(`/lip-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
      await page.locator('pal-widget [part="launcher"]').click();
      await page.locator('pal-preview [part="start"]').click();
      await page.locator('pal-controls [part="end"]').waitFor();
      const read = () => page.evaluate(() => (window as unknown as { __lip: Recording }).__lip);
      // The greeting spoken, then a second of silence; then a typed question, which the echo PAL says back.
      const spokenSince = (since: number) => (r: Recording) => r.levels.some((l) => l.at > since && l.peak > AUDIBLE) && r.levels.length > 200 && r.levels.slice(-200).every((l) => l.peak <= AUDIBLE);
      await eventually(read, spokenSince(0), 'the greeting heard to its end', 60_000);
      const asked = await page.evaluate((text) => {
        (document.querySelector('pal-widget') as unknown as { sendChat(text: string): void }).sendChat(text);
        return performance.now();
      }, QUESTION);
      await eventually(read, spokenSince(asked), 'the answer heard to its end', 60_000);
      return analyseLipSync(await read());
    } finally {
      await page.context().close().catch(() => undefined);
    }
  }

  function check(name: string, f: Figures): void {
    console.log(`# ${describeLipSync(name, f)}`);
    assertLipSync(name, f);
  }

  it('Ada', async () => {
    check('Ada', await greetingSeen(ADA_MOUTH));
  });

  it('a trained face drawn from its rig', async () => {
    check('trained face', await greetingSeen(RIG_MOUTH, async (page) => {
      const files = await paintRig(page);
      await page.context().route('**/test-faces/lip/*', (route) => {
        const file = files.get(new URL(route.request().url()).pathname.split('/').pop()!);
        return file ? route.fulfill({ status: 200, contentType: file.type, body: file.body }) : route.fulfill({ status: 404 });
      });
      // The room's PAL participant gets the rig's URL on its way to the page (the service gives it for trained faces).
      await page.context().routeWebSocket(/\/rooms\//, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((message) => {
          if (typeof message !== 'string') return ws.send(message);
          const frame = JSON.parse(message) as { type?: string; participants?: Array<Record<string, unknown>>; participant?: Record<string, unknown> };
          const rig = `${world.serviceUrl}/test-faces/lip/rig.json`;
          for (const p of [...(frame.participants ?? []), ...(frame.participant ? [frame.participant] : [])]) if (p.role === 'pal') p.face_rig_url = rig;
          ws.send(JSON.stringify(frame));
        });
      });
    }));
  });
});
