// A version-2 rig's frame with WebGL (face-drawing/mesh.ts; mesh-paint.ts draws the same on a 2D canvas):
// the mouth's inside as a fan over the opening (each layer's texture coordinates from its placement, nothing
// drawn outside its cell), then every triangle of the mesh at its place, textured by the idle frame. The mesh
// covers the whole frame but the opening, so nothing else is drawn.
import { cellOrigin, type FaceRig } from '../../../../protocol/faces/rig.js';
import { INSIDE, SHADE, meshFrame, type Affine, type Channels, type HeadMotion } from '../../../../face-drawing/mesh.js';
import { glContext, texture } from './rig-gl.js';

const VERTEX = `
attribute vec2 position;
attribute vec2 source;
uniform vec2 size;
varying vec2 uv;
void main() {
  uv = source;
  gl_Position = vec4(position.x / size.x * 2.0 - 1.0, 1.0 - position.y / size.y * 2.0, 0.0, 1.0);
}`;

// 'cell' bounds the texture coordinates (x0, y0, x1, y1): outside it a layer draws nothing. 'tinted': the
// mouth's shadow instead (mesh.ts SHADE), premultiplied 'tint' scaled by the first texture coordinate (its ramp).
const FRAGMENT = `
precision mediump float;
uniform sampler2D image;
uniform vec4 cell;
uniform vec4 tint;
uniform float tinted;
varying vec2 uv;
void main() {
  if (tinted > 0.5) {
    gl_FragColor = tint * uv.x;
    return;
  }
  if (uv.x < cell.x || uv.y < cell.y || uv.x > cell.z || uv.y > cell.w) discard;
  gl_FragColor = texture2D(image, uv);
}`;

export interface GlMeshPainter {
  draw(frame: number, channels: Channels, head?: HeadMotion): void;
  release(): void;
}

export function createGlMeshPainter(
  canvas: HTMLCanvasElement,
  rig: FaceRig,
  idle: ImageBitmap,
  inside: ImageBitmap,
  software = false,
): GlMeshPainter | null {
  const gl = glContext(canvas, software);
  if (!gl) return null;
  const largest = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  if ([idle, inside].some((b) => b.width > largest || b.height > largest)) return null;
  const program = link(gl);
  if (!program) return null;
  gl.useProgram(program);
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  const [position, source] = [gl.getAttribLocation(program, 'position'), gl.getAttribLocation(program, 'source')];
  gl.enableVertexAttribArray(position);
  gl.enableVertexAttribArray(source);
  gl.vertexAttribPointer(position, 2, gl.FLOAT, false, 16, 0);
  gl.vertexAttribPointer(source, 2, gl.FLOAT, false, 16, 8);
  const cellAt = gl.getUniformLocation(program, 'cell');
  const [tintAt, tintedAt] = [gl.getUniformLocation(program, 'tint'), gl.getUniformLocation(program, 'tinted')];
  /** The shadow at `alpha` for the next draws (0: textures again). */
  const shadow = (alpha: number) => {
    gl.uniform1f(tintedAt, alpha > 0 ? 1 : 0);
    const [r, g, b] = SHADE.rgb.map((c) => (c / 255) * alpha);
    gl.uniform4f(tintAt, r!, g!, b!, alpha);
  };
  gl.uniform2f(gl.getUniformLocation(program, 'size'), canvas.width, canvas.height);
  gl.uniform1i(gl.getUniformLocation(program, 'image'), 0);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
  const idleTexture = texture(gl, idle);
  const insideTexture = texture(gl, inside);
  gl.viewport(0, 0, canvas.width, canvas.height);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  const mesh = rig.mesh!;
  const data = new Float32Array(Math.max(mesh.triangles.length, mesh.hole.length * 6) * 4);

  const drawTriangles = (count: number) => {
    gl.bufferData(gl.ARRAY_BUFFER, data.subarray(0, count * 4), gl.STREAM_DRAW);
    gl.drawArrays(gl.TRIANGLES, 0, count);
  };

  return {
    draw(frame, channels, head) {
      const m = meshFrame(rig, frame, channels, head);
      const [ox, oy] = cellOrigin(rig.idle, frame);
      const [kx, ky] = [rig.idle.cellWidth / rig.width / idle.width, rig.idle.cellHeight / rig.height / idle.height];
      if (m.hole) {
        gl.enable(gl.BLEND);
        gl.bindTexture(gl.TEXTURE_2D, insideTexture);
        let [cx, cy] = [0, 0];
        for (const i of m.hole) [cx, cy] = [cx + m.target[2 * i]! / m.hole.length, cy + m.target[2 * i + 1]! / m.hole.length];
        for (const layer of m.inside) {
          const [sx, sy] = cellOrigin(rig.mouths.sheet, layer.cell);
          const back = inverse(layer.place);
          const put = (o: number, x: number, y: number) => {
            const [u, v] = [back[0] * x + back[2] * y + back[4], back[1] * x + back[3] * y + back[5]];
            data.set([x, y, (sx + u) / inside.width, (sy + v) / inside.height], o * 4);
          };
          let o = 0;
          m.hole.forEach((i, k) => {
            const j = m.hole![(k + 1) % m.hole!.length]!;
            put(o++, cx, cy);
            put(o++, m.target[2 * i]!, m.target[2 * i + 1]!);
            put(o++, m.target[2 * j]!, m.target[2 * j + 1]!);
          });
          gl.uniform4f(
            cellAt,
            sx / inside.width,
            sy / inside.height,
            (sx + INSIDE.width) / inside.width,
            (sy + INSIDE.height) / inside.height,
          );
          drawTriangles(o);
          if (layer.dim > 0) {
            // The depth's shadow: the same fan, in the shadow's colour.
            for (let v = 0; v < o; v++) data.set([1, 0], v * 4 + 2);
            shadow(layer.dim);
            drawTriangles(o);
            shadow(0);
          }
        }
        if (m.rim) {
          shadow(m.rim.alpha);
          drawTriangles(rimRamp(m.hole, m.target, m.rim.width, data));
          shadow(0);
        }
      }
      gl.disable(gl.BLEND);
      gl.bindTexture(gl.TEXTURE_2D, idleTexture);
      gl.uniform4f(cellAt, 0, 0, 1, 1);
      if (!m.hole) {
        // A closed mouth: the opening (no triangle of the mesh covers it) shows the idle frame's own lips.
        const hole = mesh.hole;
        const mean = (of: Float32Array, axis: number) => hole.reduce((sum, i) => sum + of[2 * i + axis]!, 0) / hole.length;
        const centre = [mean(m.target, 0), mean(m.target, 1), mean(m.source, 0), mean(m.source, 1)];
        let o = 0;
        const put = (x: number, y: number, sx: number, sy: number) =>
          data.set([x, y, ox / idle.width + sx * kx, oy / idle.height + sy * ky], 4 * o++);
        hole.forEach((i, k) => {
          const j = hole[(k + 1) % hole.length]!;
          put(centre[0]!, centre[1]!, centre[2]!, centre[3]!);
          put(m.target[2 * i]!, m.target[2 * i + 1]!, m.source[2 * i]!, m.source[2 * i + 1]!);
          put(m.target[2 * j]!, m.target[2 * j + 1]!, m.source[2 * j]!, m.source[2 * j + 1]!);
        });
        drawTriangles(o);
      }
      const t = mesh.triangles;
      for (let k = 0; k < t.length; k++) {
        const i = t[k]!;
        data.set(
          [m.target[2 * i]!, m.target[2 * i + 1]!, ox / idle.width + m.source[2 * i]! * kx, oy / idle.height + m.source[2 * i + 1]! * ky],
          k * 4,
        );
      }
      drawTriangles(t.length);
    },
    release() {
      gl.deleteTexture(idleTexture);
      gl.deleteTexture(insideTexture);
      gl.deleteBuffer(buffer);
      gl.deleteProgram(program);
    },
  };
}

/**
 * The lips' shadow as quads along the opening's outline, from its edge (ramp 1) to `width` inside it (ramp 0),
 * into `data` (x, y, ramp, 0 a vertex); the vertex count. Whatever falls outside the opening is drawn over by
 * the mesh's triangles after it (mesh-paint.ts strokes the same ramp, clipped to the opening).
 */
function rimRamp(hole: number[], target: Float32Array, width: number, data: Float32Array): number {
  const n = hole.length;
  let area = 0;
  for (let k = 0; k < n; k++) {
    const [i, j] = [hole[k]!, hole[(k + 1) % n]!];
    area += target[2 * i]! * target[2 * j + 1]! - target[2 * j]! * target[2 * i + 1]!;
  }
  const inward = area >= 0 ? 1 : -1;
  let o = 0;
  const put = (x: number, y: number, ramp: number) => data.set([x, y, ramp, 0], 4 * o++);
  for (let k = 0; k < n; k++) {
    const [i, j] = [hole[k]!, hole[(k + 1) % n]!];
    const [x0, y0, x1, y1] = [target[2 * i]!, target[2 * i + 1]!, target[2 * j]!, target[2 * j + 1]!];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 1e-3) continue;
    const [nx, ny] = [(-inward * (y1 - y0) * width) / len, (inward * (x1 - x0) * width) / len];
    put(x0, y0, 1);
    put(x1, y1, 1);
    put(x1 + nx, y1 + ny, 0);
    put(x0, y0, 1);
    put(x1 + nx, y1 + ny, 0);
    put(x0 + nx, y0 + ny, 0);
  }
  return o;
}

function inverse([a, b, c, d, e, f]: Affine): Affine {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

function link(gl: WebGLRenderingContext): WebGLProgram | null {
  const program = gl.createProgram();
  for (const [type, text] of [
    [gl.VERTEX_SHADER, VERTEX],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader || !program) return null;
    gl.shaderSource(shader, text);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  if (!program) return null;
  gl.linkProgram(program);
  return gl.getProgramParameter(program, gl.LINK_STATUS) ? program : null;
}
