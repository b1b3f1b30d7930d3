// No track is stopped while a media element still shows it. In WebKitGTK (GNOME Web) stopping a track that
// a <video> is playing can deadlock the page for good: its GStreamer sink waits on the main thread, which
// waits on the sink (seen when the device check's preview closed). Elements show tracks with show(); code
// that ends a track calls stopTrack(), which first lets go of every element showing it.
const showing = new WeakMap<MediaStreamTrack, Set<HTMLMediaElement>>();
const watchers = new WeakMap<MediaStreamTrack, (media: HTMLMediaElement) => void>();

export function show(media: HTMLMediaElement, stream: MediaStream): void {
  media.srcObject = stream;
  for (const track of stream.getTracks()) {
    showing.set(track, (showing.get(track) ?? new Set()).add(media));
    watchers.get(track)?.(media);
  }
}

/** Calls `watcher` with each element that shows `track` from now on (a face measuring when its frames show). */
export function whenShown(track: MediaStreamTrack, watcher: (media: HTMLMediaElement) => void): void {
  watchers.set(track, watcher);
}

export function stopTrack(track: MediaStreamTrack): void {
  for (const media of showing.get(track) ?? []) {
    if (media.srcObject instanceof MediaStream && media.srcObject.getTracks().includes(track)) media.srcObject = null;
  }
  showing.delete(track);
  track.stop();
}

/**
 * Resolves once a `<video>` showing `track` has its first frame to show (WebKit's shows it only 0.1–1.9 s after
 * it gets the track); null while no element shows it.
 */
export function firstFrameShown(track: MediaStreamTrack): Promise<void> | null {
  const videos = [...(showing.get(track) ?? [])].filter((m): m is HTMLVideoElement => m instanceof HTMLVideoElement);
  if (!videos.length) return null;
  if (videos.some((v) => v.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA)) return Promise.resolve();
  return new Promise((resolve) => {
    for (const video of videos) video.addEventListener('loadeddata', () => resolve(), { once: true });
  });
}
