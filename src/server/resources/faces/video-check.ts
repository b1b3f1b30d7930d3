// Tells a real video container from anything else by its signature, before any decoder sees the bytes:
// MP4/MOV carry an `ftyp` box at offset 4, WebM/Matroska start with the EBML magic 1A 45 DF A3.
export interface VideoContainer {
  container: 'mp4' | 'mov' | 'webm' | 'matroska' | 'jpeg' | 'png' | 'webp';
  contentType: string;
  extension: string;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** A still photo a face can also be made from (JPEG, PNG, WebP), by its signature. */
export function sniffImage(bytes: Uint8Array): VideoContainer | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { container: 'jpeg', contentType: 'image/jpeg', extension: 'jpg' };
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n')
    return { container: 'png', contentType: 'image/png', extension: 'png' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { container: 'webp', contentType: 'image/webp', extension: 'webp' };
  return null;
}

export const isStill = (container: VideoContainer | undefined) => container?.contentType.startsWith('image/') ?? false;

export function sniffVideoContainer(bytes: Uint8Array): VideoContainer | null {
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    // HEIC/AVIF images are ISO-BMFF too: their brands are not video.
    if (/^(heic|heix|hevc|mif1|msf1|avif|avis)$/.test(brand)) return null;
    return brand === 'qt  '
      ? { container: 'mov', contentType: 'video/quicktime', extension: 'mov' }
      : { container: 'mp4', contentType: 'video/mp4', extension: 'mp4' };
  }
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    // The DocType element near the start says which flavour it is.
    const head = ascii(bytes, 0, Math.min(bytes.length, 64));
    return head.includes('webm')
      ? { container: 'webm', contentType: 'video/webm', extension: 'webm' }
      : { container: 'matroska', contentType: 'video/x-matroska', extension: 'mkv' };
  }
  return null;
}
