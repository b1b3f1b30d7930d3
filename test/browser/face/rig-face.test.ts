// A trained face drawn from its rig (issue 32): a small rig painted here on canvases — four idle frames, each
// with a coloured corner mark, a dark resting mouth; a white and a black mouth patch — is served from memory,
// drawn on the face's own clock, and read back from the captured video track.
import { expect } from '@open-wc/testing';
import { BLEND_MS, RigLoadError, createRigFace } from '../../../src/palkit/client/media/face/rig-face.js';
import type { FaceTimeline } from '../../../src/palkit/client/media/face/face-track.js';
import { PresentationDelay } from '../../../src/palkit/client/media/face/presentation.js';
import { gpuWebgl, mayBeEmulated } from '../../../src/palkit/client/media/face/rig-gl.js';
import type { FaceRig } from '../../../src/protocol/faces/rig.js';
import { VISEMES, type Viseme } from '../../../src/protocol/visemes.js';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { MOUTH_LEAD_S } from '../../../src/palkit/client/transport/pal-audio.js';
import { TransportNoticeEvent } from '../../../src/palkit/client/transport/transport.js';
import { RoomSocket, canvasOf, frameOf as frameAt, png, servedFiles } from '../helpers/rig-stand-ins.js';
import { waitFor } from '../helpers/wait-for.js';

const SIZE = 160;
const MARKS = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
] as const;
const MOUTH = { x: 80, y: 120, w: 40 };

/** The rig's files, served by a fetch of its own; `json` replaces rig.json. */
async function syntheticRig(json?: unknown): Promise<typeof fetch> {
  const idle = canvasOf(SIZE * 2, SIZE * 2, (c) => {
    MARKS.forEach((mark, i) => {
      const [x, y] = [(i % 2) * SIZE, Math.floor(i / 2) * SIZE];
      c.fillStyle = '#808080';
      c.fillRect(x, y, SIZE, SIZE);
      c.fillStyle = `rgb(${mark.join(',')})`;
      c.fillRect(x, y, 20, 20);
      c.fillStyle = '#202020'; // the resting mouth
      c.fillRect(x + MOUTH.x - 15, y + MOUTH.y - 2, 30, 4);
    });
  });
  const mouths = canvasOf(128, 32, (c) => {
    c.fillStyle = '#ffffff';
    c.beginPath();
    c.ellipse(32, 16, 20, 12, 0, 0, 2 * Math.PI);
    c.fill();
    c.fillStyle = '#000000';
    c.beginPath();
    c.ellipse(96, 16, 20, 11, 0, 0, 2 * Math.PI);
    c.fill();
  });
  const rig: FaceRig = {
    version: 1,
    width: SIZE,
    height: SIZE,
    fps: 10,
    idle: { url: 'idle.png', cellWidth: SIZE, cellHeight: SIZE, columns: 2, count: 4 },
    poses: MARKS.map(() => ({ x: MOUTH.x, y: MOUTH.y, width: MOUTH.w, angle: 0 })),
    blinks: [],
    mouths: { sheet: { url: 'mouths.png', cellWidth: 64, cellHeight: 32, columns: 2, count: 2 }, mouthWidth: 40 },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: v === 'M' || v === 'F' ? 1 : 0, source: 'warp' }])) as FaceRig['visemes'],
  };
  return servedFiles(
    new Map<string, Blob | string>([
      ['/faces/f1/rig.json', JSON.stringify(json ?? rig)],
      ['/faces/f1/idle.png', await png(idle)],
      ['/faces/f1/mouths.png', await png(mouths)],
    ]),
  ).fetch;
}

const frameOf = (track: MediaStreamTrack) => frameAt(track, SIZE);

/** Mean brightness (0–255) of the mouth's box. */
function mouthBrightness(frame: ImageData): number {
  let sum = 0;
  let n = 0;
  for (let y = MOUTH.y - 8; y < MOUTH.y + 8; y++)
    for (let x = MOUTH.x - 12; x < MOUTH.x + 12; x++, n++) {
      const i = (y * SIZE + x) * 4;
      sum += (frame.data[i]! + frame.data[i + 1]! + frame.data[i + 2]!) / 3;
    }
  return sum / n;
}

/** Which idle frame shows: the index of its corner mark. */
function idleFrame(frame: ImageData): number {
  const i = (10 * SIZE + 10) * 4;
  const pixel = [frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!];
  return MARKS.findIndex((mark) => mark.every((v, k) => Math.abs(v - pixel[k]!) < 60));
}

/** Reads frames until `ok` holds (a new drawing reaches a reading video late on a busy machine); the last figure. */
async function settled<T>(measure: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let last!: T;
  await waitFor(async () => ok((last = await measure())), { timeout: 8_000, interval: 50 }).catch(() => undefined);
  return last; // the caller's assertion says what it was when it did not settle
}

function controlled() {
  const state = { now: 0, viseme: 'rest' as Viseme };
  const timeline: FaceTimeline = { visemeNow: () => state.viseme, speaking: () => state.viseme !== 'rest' };
  return { state, timeline, options: { clock: () => state.now, random: () => 0.99, reducedMotion: true } };
}

describe('a trained face drawn from its rig', () => {
  it('opens its mouth with the viseme timeline and rests in silence', async () => {
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, fetch: await syntheticRig() });
    expect(face.track.kind).to.equal('video');
    const mouth = () => frameOf(face.track).then(mouthBrightness);
    const resting = await settled(mouth, (b) => b < 110);
    expect(resting, "the idle frame's own dark mouth").to.be.lessThan(110);
    state.viseme = 'A';
    state.now += 500;
    expect(await settled(mouth, (b) => b > 200), 'the white open mouth over it').to.be.greaterThan(200);
    state.viseme = 'M';
    state.now += 500;
    expect(await settled(mouth, (b) => b < 60), 'the black pressed lips').to.be.lessThan(60);
    state.viseme = 'rest';
    state.now += 500;
    expect(await settled(mouth, (b) => Math.abs(b - resting) < 3), 'back to the resting mouth in silence').to.be.closeTo(resting, 3);
    face.stop();
    expect(face.track.readyState).to.equal('ended');
  });

  it('makes what a mouth needs before its first frame, not at the first word (canvas 2D)', async () => {
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, webgl: 'never', fetch: await syntheticRig() });
    const mouth = () => frameOf(face.track).then(mouthBrightness);
    expect(await settled(mouth, (b) => b < 110), 'the resting mouth first').to.be.lessThan(110);
    // The 2D path's scratch canvases and mask, made at the first mouth drawn, held up the greeting's first frame.
    // (Counted by their maker, rig-2d.ts: reading the track back makes canvases of its own.)
    const create = document.createElement;
    let made = 0;
    document.createElement = function (this: Document, tag: string, ...rest: unknown[]) {
      if (tag.toLowerCase() === 'canvas' && new Error().stack?.includes('rig-2d')) made++;
      return create.call(this, tag, ...(rest as [ElementCreationOptions?]));
    } as typeof document.createElement;
    try {
      // Half blended in, the clock then standing still: the resting and the open mouth mixed, as a word begins.
      state.viseme = 'A';
      state.now += BLEND_MS / 2;
      expect(await settled(mouth, (b) => b > 130), 'the mouth opening').to.be.greaterThan(130);
    } finally {
      document.createElement = create;
    }
    expect(made, 'canvases made once the face was shown').to.equal(0);
    face.stop();
  });

  it('blends one mouth into the next through intermediate frames', async () => {
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, fetch: await syntheticRig() });
    const mouth = () => frameOf(face.track).then(mouthBrightness);
    const resting = await settled(mouth, (b) => b < 110);
    // Half a blend later (the clock then stands still, so every frame drawn shows that moment).
    state.viseme = 'A';
    state.now += BLEND_MS / 2;
    const open = 235;
    const halfway = await settled(mouth, (b) => b > resting + 20);
    expect(halfway, 'between the resting and the open mouth').to.be.within(
      resting + 0.25 * (open - resting),
      resting + 0.75 * (open - resting),
    );
    state.now += BLEND_MS;
    expect(await settled(mouth, (b) => b > 200), 'then fully open').to.be.greaterThan(200);
    face.stop();
  });

  // Over the gate's 5 s budget in Firefox on CI's machine (a face made, drawn and read back for each of
  // four frame phases); it keeps 15 s until that is cut.
  it("shows a new mouth more than half blended in on the first frame it reaches the screen with, 30 ms before its sound to 10 ms after, whatever the frame's phase", async function () {
    this.timeout(15_000);
    // The sound begins at page time SOUND; a frame drawn at `now` reaches the screen PRESENTATION_MS later (the
    // face's presentation delay, here not measured: no <video> shows the track), and the timeline gives the
    // shape heard at `now + aheadMs`, plus the player's half frame (MOUTH_LEAD_S). The face draws every 40 ms
    // (this rig's 10 fps is drawn at 25); whatever their phase against the sound, the first frame showing the
    // open mouth is on the screen from 30 ms before the sound (the player's half frame and the face's 10 ms
    // lead) to 10 ms after it, and shows it more than half blended in (its first frame covers 40 of the
    // blend's 70 ms).
    const SOUND = 10_000;
    const PRESENTATION_MS = 60;
    const open = 235;
    for (const phase of [0, 10, 20, 30]) {
      const state = { now: 0, drawnAt: -1, firstOpen: -1 };
      const timeline: FaceTimeline = {
        visemeNow: (aheadMs = 0) => {
          state.drawnAt = state.now;
          const heard = state.now + aheadMs + MOUTH_LEAD_S * 1000 >= SOUND;
          if (heard && state.firstOpen < 0) state.firstOpen = state.now;
          return heard ? 'A' : 'rest';
        },
        speaking: () => state.now >= SOUND,
      };
      // Frames on the screen at SOUND + phase + 40 k.
      const screens = [-160, -120, -80, -40, 0, 40].map((k) => SOUND + phase + k);
      state.now = screens[0]! - PRESENTATION_MS - 40;
      const face = await createRigFace('/faces/f1/rig.json', timeline, {
        clock: () => state.now,
        random: () => 0.99,
        reducedMotion: true,
        fetch: await syntheticRig(),
        presentation: new PresentationDelay(PRESENTATION_MS),
      });
      const mouth = () => frameOf(face.track).then(mouthBrightness);
      const resting = await settled(mouth, (b) => b < 110);
      for (const at of screens) {
        state.now = at - PRESENTATION_MS;
        await waitFor(() => state.drawnAt === state.now, { what: 'a frame drawn at that moment' });
        if (state.firstOpen >= 0) break;
      }
      expect(state.firstOpen, `phase ${phase} ms: a frame showed the open mouth`).to.be.at.least(0);
      expect(
        state.firstOpen + PRESENTATION_MS - SOUND,
        `phase ${phase} ms: the first frame with the open mouth on the screen, from the sound`,
      ).to.be.within(-30, 10);
      const half = resting + 0.5 * (open - resting);
      expect(await settled(mouth, (b) => b > half), `phase ${phase} ms: that frame's mouth`).to.be.above(half);
      face.stop();
    }
  });

  it("plays its idle loop at the rig's frame rate, round and round", async () => {
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, fetch: await syntheticRig() });
    const shown = () => frameOf(face.track).then(idleFrame);
    expect(await settled(shown, (f) => f === 0)).to.equal(0);
    state.now = 150; // 10 frames a second: the second frame
    expect(await settled(shown, (f) => f === 1)).to.equal(1);
    state.now = 350;
    expect(await settled(shown, (f) => f === 3)).to.equal(3);
    state.now = 450; // and from the start again
    expect(await settled(shown, (f) => f === 0)).to.equal(0);
    face.stop();
  });

  it('draws with WebGL where the page has it on a GPU, and where it has any when asked to', async () => {
    const onGpu = gpuWebgl();
    const auto = await createRigFace('/faces/f1/rig.json', controlled().timeline, { ...controlled().options, fetch: await syntheticRig() });
    expect(auto.renderer, 'by default').to.equal(onGpu ? 'webgl' : '2d');
    auto.stop();
    const any = document.createElement('canvas').getContext('webgl');
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, webgl: 'any', fetch: await syntheticRig() });
    expect(face.renderer).to.equal(any ? 'webgl' : '2d');
    const mouth = () => frameOf(face.track).then(mouthBrightness);
    expect(await settled(mouth, (b) => b < 110), `${face.renderer}: the resting mouth`).to.be.lessThan(110);
    state.viseme = 'A';
    state.now += 500;
    expect(await settled(mouth, (b) => b > 200), `${face.renderer}: the open mouth differs from the resting one`).to.be.greaterThan(200);
    face.stop();
  });

  it("takes WebKit's masked renderer off Apple's devices for one that may be software (WebKitGTK says 'Apple GPU' of llvmpipe)", () => {
    expect(mayBeEmulated('Apple GPU', 'Linux x86_64'), 'WebKitGTK').to.equal(true);
    expect(mayBeEmulated('WebKit WebGL', 'Linux x86_64'), 'WebKitGTK without the renderer info').to.equal(true);
    expect(mayBeEmulated('Apple GPU', 'MacIntel'), 'Safari on a Mac').to.equal(false);
    expect(mayBeEmulated('Apple GPU', 'iPhone'), 'Safari on an iPhone').to.equal(false);
    expect(mayBeEmulated('ANGLE (Intel, Mesa Intel(R) UHD Graphics 620, OpenGL 4.6)', 'Linux x86_64'), 'a GPU by name').to.equal(false);
    expect(mayBeEmulated('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)', 'Linux x86_64')).to.equal(true);
    expect(mayBeEmulated('llvmpipe (LLVM 15.0.6, 256 bits)', 'Linux x86_64')).to.equal(true);
  });

  it('shows the idle frame as it is outside the mouth, the mouth open or not', async () => {
    const { state, timeline, options } = controlled();
    const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, webgl: 'any', fetch: await syntheticRig() });
    // Idle frame 0 (10 fps: 0–100 ms) with its mouth fully open: the blend (70 ms) runs on the clock.
    state.viseme = 'A';
    state.now = 10;
    await frameOf(face.track);
    state.now = 90;
    /** Largest difference from the idle frame as painted (grey, its red corner mark) outside the mouth's patch. */
    const outside = async () => {
      const frame = await frameOf(face.track);
      let worst = 0;
      for (let y = 0; y < SIZE; y += 2) {
        for (let x = 0; x < SIZE; x += 2) {
          if (Math.abs(x - MOUTH.x) < 40 && Math.abs(y - MOUTH.y) < 24) continue;
          // Away from the mark's edge, where the video's chroma subsampling blurs it.
          if (x < 26 && y < 26 && (x > 14 || y > 14)) continue;
          const expected = x < 20 && y < 20 ? [255, 0, 0] : [128, 128, 128];
          const i = (y * SIZE + x) * 4;
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(frame.data[i + c]! - expected[c]!));
        }
      }
      return worst;
    };
    expect(
      await settled(
        () => frameOf(face.track).then(mouthBrightness),
        (b) => b > 200,
      ),
      `${face.renderer}: the mouth open`,
    ).to.be.greaterThan(200);
    expect(await settled(outside, (d) => d <= 12), `${face.renderer}: the idle frame's own pixels (video coding aside)`).to.be.at.most(12);
    face.stop();
  });

  it('falls back to canvas 2D where WebGL is unavailable, and still moves the mouth', async () => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: any[]) {
      return kind.includes('webgl') ? null : getContext.call(this, kind as '2d', ...rest);
    } as typeof getContext;
    try {
      const { state, timeline, options } = controlled();
      const face = await createRigFace('/faces/f1/rig.json', timeline, { ...options, webgl: 'any', fetch: await syntheticRig() });
      expect(face.renderer).to.equal('2d');
      const mouth = () => frameOf(face.track).then(mouthBrightness);
      expect(await settled(mouth, (b) => b < 110)).to.be.lessThan(110);
      state.viseme = 'A';
      state.now += 500;
      expect(await settled(mouth, (b) => b > 200)).to.be.greaterThan(200);
      face.stop();
    } finally {
      HTMLCanvasElement.prototype.getContext = getContext;
    }
  });

  it('refuses a rig.json that is not a rig, and a rig whose image is missing, with a RigLoadError', async () => {
    const { timeline } = controlled();
    const bad = await createRigFace('/faces/f1/rig.json', timeline, { fetch: await syntheticRig({ version: 1, width: 'wide' }) }).catch(
      (e: unknown) => e,
    );
    expect(bad).to.be.instanceOf(RigLoadError);
    expect((bad as Error).message).to.contain('not a rig');
    const missing = await createRigFace('/faces/f2/rig.json', timeline, { fetch: await syntheticRig() }).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(RigLoadError);
    expect((missing as Error).message).to.contain('HTTP 404');
  });
});

describe('a call with a trained face', () => {
  it("shows the face's still image and tells the page (face_unavailable) when its rig does not load", async () => {
    let socket: RoomSocket | undefined;
    const transport = new LocalTransport({
      listen: false,
      fetch: await syntheticRig('not a rig'),
      createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
    });
    const notices: TransportNoticeEvent[] = [];
    transport.addEventListener(TransportNoticeEvent.type, (e) => notices.push(e as TransportNoticeEvent));
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
    await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
    socket!.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [
        { participant_id: 'v1', user_name: 'You', role: 'visitor' },
        {
          participant_id: 'p1',
          user_name: 'Dana',
          role: 'pal',
          video_url: '/faces/f1/footage.mp4',
          image_url: '/faces/f1/still.jpg',
          face_rig_url: '/faces/f1/rig.json',
        },
      ],
    });
    await joined;
    await waitFor(() => notices.length > 0, { what: 'the notice' });
    expect(notices.map((n) => n.code)).to.deep.equal(['face_unavailable']);
    expect(notices[0]!.message).to.contain('not a rig');
    const pal = transport.participants.find((p) => p.role === 'pal')!;
    expect(pal.videoTrack, 'no drawn face').to.equal(null);
    expect(pal.videoUrl, 'nor the footage').to.equal(null);
    expect(pal.imageUrl, 'the still image').to.equal('/faces/f1/still.jpg');
    await transport.leave();
  });

  it("draws the trained face as the PAL's video track when its rig loads", async () => {
    let socket: RoomSocket | undefined;
    const transport = new LocalTransport({
      listen: false,
      fetch: await syntheticRig(),
      createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
    await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
    socket!.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [{ participant_id: 'p1', user_name: 'Dana', role: 'pal', face_rig_url: '/faces/f1/rig.json' }],
    });
    await joined;
    await waitFor(() => transport.participants.find((p) => p.role === 'pal')?.videoTrack != null, { what: "the face's track" });
    expect(transport.participants.find((p) => p.role === 'pal')!.videoTrack!.kind).to.equal('video');
    await transport.leave();
  });
});
