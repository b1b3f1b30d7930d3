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
