// A trained face's mouths drawn with canvas 2D (rig-face.ts draws the idle frame, then this; rig-gl.ts is the
// WebGL twin and draws the same picture): face-drawing/jaw-mix.ts on the page's canvases.
import type { FaceRig } from '../../../../protocol/faces/rig.js';
import { createJawMixer, type JawMixer } from '../../../../face-drawing/jaw-mix.js';

export type CanvasMouths = JawMixer<CanvasImageSource>;

export function createCanvasMouths(rig: FaceRig, idle: ImageBitmap, mouths: ImageBitmap): CanvasMouths {
  return createJawMixer<CanvasImageSource>(rig, idle, mouths, {
    surface(width, height) {
      const canvas = Object.assign(document.createElement('canvas'), { width, height });
      // A software canvas (willReadFrequently): hundreds of small draws cost less there than as GPU calls.
      return { canvas, context: canvas.getContext('2d', { willReadFrequently: true })! };
    },
    image(rgba, width, height) {
      const canvas = Object.assign(document.createElement('canvas'), { width, height });
      canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
      return canvas;
    },
  });
}
