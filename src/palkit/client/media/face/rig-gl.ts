// A trained face's frame drawn with WebGL (rig-face.ts picks it when the page can have a WebGL context,
// else it draws with canvas 2D): the idle frame is a texture drawn whole, then one quad at the frame's mouth
// pose whose fragment shader mixes up to three mouth cells by their weights (the current shape cross-fading
// into the next: a true weighted mix, the idle frame's own mouth keeping the rest), its edge feathered so
// that filtering never shows a neighbouring cell. Shaders are compiled from strings by the GPU driver, not
// evaluated as script: a strict CSP allows them.
import { cellOrigin, mouthTransform, type FaceRig, type MouthPose, type Sheet } from '../../../../protocol/faces/rig.js';
import { JAW_SIDES, JAW_STILL, PATCH, blendedJaw, jawDropOf, jawsDiffer } from '../../../../face-drawing/jaw.js';
import { INTERIOR, interiorPull, openingOf } from '../../../../face-drawing/mouth-interior.js';
import type { Viseme } from '../../../../protocol/visemes.js';

/** At most this many mouth shapes mixed in one frame (a fourth only shows during a very fast run of sounds). */
const MIXED = 3;

const VERTEX = `
attribute vec2 corner;
uniform mat3 place;
varying vec2 uv;
void main() {
  uv = corner;
  gl_Position = vec4((place * vec3(corner, 1.0)).xy, 0.0, 1.0);
}`;

const f = (x: number) => x.toFixed(3);

// With jaws moving (face-drawing/jaw.ts; rig-2d.ts draws the same in bands): every mouth (its own jaw drop
// 'drops', half-widths) is sampled where it shows what the blend, its jaw at 'jaw', shows here, and under them
// the idle frame's own mouth region likewise (drop 0), feathered into the frame by the made patch's alpha.
// The mouths are mixed by weight over it (the idle frame's own mouth keeping 'restShare'), except inside an
// opening where the 'picked' mouth (-1: the idle frame's) disagrees with the mix of the others: there it shows
// alone (face-drawing/mouth-interior.ts, as jaw-mix.ts does on a 2D canvas). A half-width is 'halfWidth' in
// cell uv. 'mouth' 0 draws cell 0 of 'sheet' as it is (the idle frame, an eyelid).
const FRAGMENT = `
precision mediump float;
uniform sampler2D sheet;
uniform sampler2D idle;
uniform vec4 cells[${MIXED}];
uniform float weights[${MIXED}];
uniform float drops[${MIXED}];
uniform float openings[${MIXED}];
uniform float mouth;
uniform float restShare;
uniform float picked;
uniform float jaw;
uniform float jaws;
uniform vec2 halfWidth;
uniform mat3 toIdle;
uniform float feather;
varying vec2 uv;
float smooth1(float e0, float e1, float x) { return smoothstep(e0, e1, x); }
float slope1(float e0, float e1, float x) { float t = (x - e0) / (e1 - e0); return t <= 0.0 || t >= 1.0 ? 0.0 : 6.0 * t * (1.0 - t) / (e1 - e0); }
float share(float v) { return smooth1(0.0, 1.0, v) * (1.0 - smooth1(${JAW_STILL.from.toFixed(2)}, ${JAW_STILL.to.toFixed(2)}, v)); }
float shareSlope(float v) { return slope1(0.0, 1.0, v) * (1.0 - smooth1(${JAW_STILL.from.toFixed(2)}, ${JAW_STILL.to.toFixed(2)}, v)) - smooth1(0.0, 1.0, v) * slope1(${JAW_STILL.from.toFixed(2)}, ${JAW_STILL.to.toFixed(2)}, v); }
float side(float u) { return 1.0 - smoothstep(${JAW_SIDES.whole.toFixed(2)}, ${JAW_SIDES.still.toFixed(2)}, abs(u)); }
// face-drawing/jaw.ts jawSource: the height at which a mouth with this drop shows what the blend shows at v.
float source(float v, float k, float drop) {
  float c = v - jaw * k * share(v);
  float x = v - (jaw - drop) * k * share(v);
  for (int i = 0; i < 4; i++) x -= (x - drop * k * share(x) - c) / (1.0 - drop * k * shareSlope(x));
  return x;
}
float patch(vec2 p) {
  float outX = max(0.0, abs(p.x) - ${PATCH.x.toFixed(2)});
  float outY = max(0.0, p.y < 0.0 ? -p.y - ${PATCH.top.toFixed(2)} : p.y - ${PATCH.bottom.toFixed(2)});
  return 1.0 - smoothstep(0.0, ${PATCH.fade.toFixed(2)}, length(vec2(outX, outY)));
}
// face-drawing/mouth-interior.ts openingZone.
float zoneOf(float u, float v, float opening) {
  if (opening <= 0.0) return 0.0;
  float lens = pow(max(1.0 - u * u, 0.0), 0.6);
  float bottom = opening * lens;
  return smoothstep(${f(INTERIOR.top - INTERIOR.topFade / 2)}, ${f(INTERIOR.top + INTERIOR.topFade / 2)}, v) * (1.0 - smoothstep(bottom - ${f(INTERIOR.fade)}, bottom, v)) * smoothstep(0.0, 0.1, lens);
}
vec2 at(float drop, vec2 p, float k) { return vec2(uv.x, clamp(0.5 + source(p.y, k, drop) * halfWidth.y, 0.0, 1.0)); }
void main() {
  vec2 edge = min(uv, 1.0 - uv);
  float fade = mix(1.0, smoothstep(0.0, feather, min(edge.x, edge.y)), step(0.0001, feather));
  if (mouth < 0.5) {
    gl_FragColor = texture2D(sheet, cells[0].xy + uv * cells[0].zw);
    return;
  }
  vec2 p = (uv - 0.5) / halfWidth;
  float k = side(p.x);
  vec3 under = texture2D(idle, (toIdle * vec3(uv, 1.0)).xy).rgb;
  if (jaws > 0.5) under = mix(under, texture2D(idle, (toIdle * vec3(at(0.0, p, k), 1.0)).xy).rgb, patch(p));
  vec3 mixed = restShare * under;
  vec3 chosen = under;
  float chosenShare = restShare;
  float zone = 0.0;
  for (int i = 0; i < ${MIXED}; i++) {
    vec2 from = jaws > 0.5 ? at(drops[i], p, k) : uv;
    vec4 m = texture2D(sheet, cells[i].xy + from * cells[i].zw);
    vec3 e = m.rgb + (1.0 - m.a) * under;
    mixed += weights[i] * e;
    if (abs(float(i) - picked) < 0.5) { chosen = e; chosenShare = weights[i]; }
    if (weights[i] > 0.0) zone = max(zone, zoneOf(p.x, (from.y - 0.5) / halfWidth.y, openings[i]));
  }
  float others = 1.0 - chosenShare;
  vec3 apart = abs(chosen - (mixed - chosenShare * chosen) / max(others, 0.001));
  float alone = others > 0.001 ? zone * smoothstep(${f(INTERIOR.agree)}, ${f(INTERIOR.disagree)}, max(apart.r, max(apart.g, apart.b))) : 0.0;
  gl_FragColor = vec4(mix(mixed, chosen, alone) * fade, fade);
}`;

type Affine = [number, number, number, number, number, number];

export interface GlPainter {
  /** Draws idle frame `frame` with the mouth mix `weights` (the rest's share drawn by the idle frame itself). */
  draw(frame: number, weights: ReadonlyMap<Viseme, number>): void;
  /** Copies a rectangle of the idle frame (unrotated, its pixels) to the rectangle (x, y, w, h) in the turned axes `place`: a closing eyelid. */
  lid(frame: number, source: [number, number, number, number], place: Affine, target: [number, number, number, number]): void;
  release(): void;
}

/**
 * A WebGL painter on `canvas`, or null when the page gets no WebGL context (unless `software`, none that
 * is only emulated on the CPU) or the sheets exceed its textures.
 */
export function createGlPainter(
  canvas: HTMLCanvasElement,
  rig: FaceRig,
  idle: ImageBitmap,
  mouths: ImageBitmap,
  software = false,
): GlPainter | null {
  const gl = glContext(canvas, software);
  if (!gl) return null;
  const largest = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  if ([idle, mouths].some((b) => b.width > largest || b.height > largest)) return null;
  const program = link(gl);
  if (!program) return null;

  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW);
  const corner = gl.getAttribLocation(program, 'corner');
  gl.enableVertexAttribArray(corner);
  gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
  gl.useProgram(program);
  const at = (name: string) => gl.getUniformLocation(program, name);
  const [place, cells, weights, feather] = [at('place'), at('cells'), at('weights'), at('feather')];
  const [drops, jawAt, jaws, half, toIdle] = [at('drops'), at('jaw'), at('jaws'), at('halfWidth'), at('toIdle')];
  const [openings, mouthPass, restShare, picked] = [at('openings'), at('mouth'), at('restShare'), at('picked')];
  gl.uniform1i(at('sheet'), 0);
  gl.uniform1i(at('idle'), 1);
  const a = rig.mouths.mouthWidth / 2;
  gl.uniform2f(half, a / rig.mouths.sheet.cellWidth, a / rig.mouths.sheet.cellHeight);
  const dropOf = (v: Viseme) => jawDropOf(v, rig.visemes[v].source);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
  const idleTexture = texture(gl, idle);
  const mouthTexture = texture(gl, mouths);
  gl.viewport(0, 0, canvas.width, canvas.height);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);

  /** The cell's rectangle in the sheet's texture coordinates (x, y, width, height). */
  const uvOf = (
    sheet: Sheet,
    bitmap: ImageBitmap,
    index: number,
    inset: [number, number, number, number] = [0, 0, sheet.cellWidth, sheet.cellHeight],
  ): number[] => {
    const [x, y] = cellOrigin(sheet, index);
    return [(x + inset[0]) / bitmap.width, (y + inset[1]) / bitmap.height, inset[2] / bitmap.width, inset[3] / bitmap.height];
  };
  /** The unit quad sized w × h at (ox, oy), onto canvas pixels by `affine`, then to clip space. */
  const quad = (affine: Affine, ox: number, oy: number, w: number, h: number) => {
    const [a, b, c, d, e, f] = affine;
    // Pixel = affine · (corner · size + offset); clip = (2x / W − 1, 1 − 2y / H).
    const [sx, sy] = [2 / canvas.width, -2 / canvas.height];
    const m = [a * w * sx, b * w * sy, 0, c * h * sx, d * h * sy, 0, (a * ox + c * oy + e) * sx - 1, (b * ox + d * oy + f) * sy + 1, 1];
    gl.uniformMatrix3fv(place, false, m);
  };
  const paint = (
    tex: WebGLTexture | null,
    rects: number[][],
    shares: number[],
    edge: number,
    jawDrops: number[] = [],
    opens: number[] = [],
  ) => {
    while (rects.length < MIXED) {
      rects.push([0, 0, 0, 0]);
      shares.push(0);
    }
    while (jawDrops.length < MIXED) jawDrops.push(0);
    while (opens.length < MIXED) opens.push(0);
    gl.uniform1fv(drops, jawDrops);
    gl.uniform1fv(openings, opens);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.uniform4fv(cells, rects.flat());
    gl.uniform1fv(weights, shares);
    gl.uniform1f(feather, edge);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  };

  /** The matrix from a mouth cell's uv (placed by \`placed\`) to idle frame \`frame\`'s texture coordinates. */
  const idleUv = ([a0, b0, c0, d0, e0, f0]: Affine, frame: number): number[] => {
    const [cw, ch] = [rig.mouths.sheet.cellWidth, rig.mouths.sheet.cellHeight];
    const [ox, oy] = cellOrigin(rig.idle, frame);
    // Cell uv → cell pixels centred (uv · size − size / 2) → frame pixels (placed) → the idle sheet (scaled cell).
    const [kx, ky] = [rig.idle.cellWidth / rig.width / idle.width, rig.idle.cellHeight / rig.height / idle.height];
    const [x0, y0] = [-cw / 2, -ch / 2];
    return [
      kx * a0 * cw,
      ky * b0 * cw,
      0,
      kx * c0 * ch,
      ky * d0 * ch,
      0,
      kx * (a0 * x0 + c0 * y0 + e0) + ox / idle.width,
      ky * (b0 * x0 + d0 * y0 + f0) + oy / idle.height,
      1,
    ];
  };

  return {
    draw(frame, mix) {
      gl.disable(gl.BLEND);
      gl.uniform1f(jaws, 0);
      gl.uniform1f(mouthPass, 0);
      quad([1, 0, 0, 1, 0, 0], 0, 0, canvas.width, canvas.height);
      paint(idleTexture, [uvOf(rig.idle, idle, frame)], [1], 0);
      // The heaviest shapes other than rest, each with its share of the whole mix (rest's share is the idle frame).
      const total = [...mix.values()].reduce((s, w) => s + w, 0);
      const shown = [...mix]
        .filter(([v, w]) => v !== 'rest' && w > 0)
        .sort((x, y) => y[1] - x[1])
        .slice(0, MIXED);
      if (!shown.length || total <= 0) return;
      const pose: MouthPose = rig.poses[frame]!;
      const sheet = rig.mouths.sheet;
      const jaw = blendedJaw(mix, dropOf);
      const moving = jawsDiffer(mix, jaw, dropOf);
      gl.enable(gl.BLEND);
      const placed = mouthTransform(pose, rig.mouths.mouthWidth);
      quad(placed, -sheet.cellWidth / 2, -sheet.cellHeight / 2, sheet.cellWidth, sheet.cellHeight);
      gl.uniform1f(jaws, moving ? 1 : 0);
      gl.uniform1f(mouthPass, 1);
      gl.uniform1f(jawAt, jaw);
      gl.uniformMatrix3fv(toIdle, false, idleUv(placed, frame));
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, idleTexture);
      gl.activeTexture(gl.TEXTURE0);
      const shares = shown.map(([, w]) => w / total);
      // The idle frame's own mouth keeps what the shown shapes leave; the pick depends on the weights only.
      const rest = Math.max(0, 1 - shares.reduce((s, w) => s + w, 0));
      let [pick, pull] = [-1, interiorPull(rest, 0)];
      shown.forEach(([v], i) => {
        if (interiorPull(shares[i]!, openingOf(v)) > pull) [pick, pull] = [i, interiorPull(shares[i]!, openingOf(v))];
      });
      gl.uniform1f(restShare, rest);
      gl.uniform1f(picked, pick);
      paint(
        mouthTexture,
        shown.map(([v]) => uvOf(sheet, mouths, rig.visemes[v].cell)),
        shares,
        0.03,
        shown.map(([v]) => dropOf(v)),
        shown.map(([v]) => openingOf(v)),
      );
    },
    lid(frame, source, affine, [x, y, w, h]) {
      gl.disable(gl.BLEND);
      gl.uniform1f(jaws, 0);
      gl.uniform1f(mouthPass, 0);
      quad(affine, x, y, w, h);
      paint(idleTexture, [uvOf(rig.idle, idle, frame, source)], [1], 0);
    },
    release() {
      gl.deleteTexture(idleTexture);
      gl.deleteTexture(mouthTexture);
      gl.deleteBuffer(buffer);
      gl.deleteProgram(program);
    },
  };
}

/** A WebGL context on `canvas`, or null when there is none (unless `software`, none that is only emulated on the CPU). */
export function glContext(canvas: HTMLCanvasElement, software: boolean): WebGLRenderingContext | null {
  let gl: WebGLRenderingContext | null = null;
  try {
    // preserveDrawingBuffer: the captured stream (and a test's read-back) may take the frame after it was drawn.
    gl = canvas.getContext('webgl', {
      alpha: false,
      antialias: false,
      preserveDrawingBuffer: true,
      premultipliedAlpha: true,
      failIfMajorPerformanceCaveat: !software,
    });
    // A context refused as emulated leaves the canvas for the 2D path (rig-face.ts draws on a fresh one then).
  } catch {
    gl = null;
  }
  return !gl || (!software && emulated(gl)) ? null : gl;
}

/** A WebGL emulated on the CPU (Chromium's SwiftShader, Mesa's llvmpipe), or one that may be: slower there than the 2D canvas. */
function emulated(gl: WebGLRenderingContext): boolean {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return mayBeEmulated(String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)), globalThis.navigator?.platform ?? '');
}

/**
 * Whether a WebGL renderer named `renderer` on `platform` (navigator.platform) may run on the CPU: a software
 * one by name, or one whose name is WebKit's mask ('Apple GPU', or 'WebKit WebGL' without the renderer info)
 * off Apple's devices. WebKit names every renderer so; on a Mac, iPhone or iPad there is a GPU behind it, but
 * WebKitGTK here said 'Apple GPU' of Mesa's llvmpipe: the face drew 3 frames a second there with WebGL and
 * stalled the page up to a second at a time (18 with canvas 2D, as Ada), and in a call its mouth came 130–170 ms late.
 */
export function mayBeEmulated(renderer: string, platform: string): boolean {
  if (/swiftshader|llvmpipe|softpipe|software/i.test(renderer)) return true;
  return /^(Apple GPU|WebKit WebGL)$/.test(renderer.trim()) && !/^(Mac|iPhone|iPad|iPod)/.test(platform);
}

/** Whether a face drawn here by default gets WebGL: a context, and not an emulated one. */
export function gpuWebgl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl', { failIfMajorPerformanceCaveat: true });
  return gl !== null && !emulated(gl);
}

export function texture(gl: WebGLRenderingContext, bitmap: ImageBitmap): WebGLTexture | null {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  // Sheets are any size (WebGL 1: no mipmaps, clamped edges for sizes other than powers of two).
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  return t;
}

function link(gl: WebGLRenderingContext): WebGLProgram | null {
  const program = gl.createProgram();
  for (const [type, source] of [
    [gl.VERTEX_SHADER, VERTEX],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader || !program) return null;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  if (!program) return null;
  gl.linkProgram(program);
  return gl.getProgramParameter(program, gl.LINK_STATUS) ? program : null;
}
