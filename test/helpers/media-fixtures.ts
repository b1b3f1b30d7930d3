// The sample media (a 3 s face video as MP4, a 2 s WebM, one JPEG frame) kept in the repo for the demo
// and for tests, copied from the product's shared fixtures.
import { fileURLToPath } from 'node:url';

export function mediaFixture(name: 'sample-face.mp4' | 'sample-face.webm' | 'sample-face.jpg'): string {
  return fileURLToPath(new URL(`../../demo/media/${name}`, import.meta.url));
}
