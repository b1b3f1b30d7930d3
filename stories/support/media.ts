// Synthetic media for stories: an animated "face" as a video track (canvas capture) and a quiet tone as
// an audio track, so the device check and the call look alive without a camera, a microphone or a network.
// `installStandInMedia()` replaces getUserMedia/enumerateDevices for the whole Storybook.

function faceCanvas(label: string, hue: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  const ctx = canvas.getContext('2d')!;
  let frame = 0;
  const draw = (): void => {
    frame++;
    const g = ctx.createLinearGradient(0, 0, 640, 480);
    g.addColorStop(0, `hsl(${hue} 45% 28%)`);
    g.addColorStop(1, `hsl(${(hue + 40) % 360} 50% 16%)`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 640, 480);
    const bob = Math.sin(frame / 20) * 6;
    ctx.fillStyle = `hsl(${hue} 35% 78%)`;
    ctx.beginPath();
    ctx.ellipse(320, 210 + bob, 95, 120, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillRect(210, 360 + bob, 220, 140);
    ctx.fillStyle = '#1d2430';
    const blink = frame % 120 < 6 ? 2 : 12;
    ctx.fillRect(280, 190 + bob, 18, blink);
    ctx.fillRect(342, 190 + bob, 18, blink);
    const mouth = 6 + Math.abs(Math.sin(frame / 6)) * 10;
    ctx.fillRect(295, 262 + bob, 50, mouth);
    ctx.fillStyle = 'rgb(255 255 255 / 0.85)';
    ctx.font = '600 22px system-ui, sans-serif';
    ctx.fillText(label, 20, 460);
  };
  draw();
  const timer = setInterval(draw, 1000 / 15);
  (canvas as HTMLCanvasElement & { stop?: () => void }).stop = () => clearInterval(timer);
  return canvas;
}

/** A live video track showing a drawn face with `label`. Stopping the track stops the drawing. */
export function syntheticVideoTrack(label: string, hue = 210): MediaStreamTrack {
  const canvas = faceCanvas(label, hue);
  const track = canvas.captureStream(15).getVideoTracks()[0]!;
  const stop = track.stop.bind(track);
  track.stop = () => {
    (canvas as HTMLCanvasElement & { stop?: () => void }).stop?.();
    stop();
  };
  return track;
}

let audio: AudioContext | null = null;

/** A live, nearly silent audio track (so the microphone meter has a signal to show). */
export function syntheticAudioTrack(): MediaStreamTrack {
  audio ??= new AudioContext();
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  const destination = audio.createMediaStreamDestination();
  oscillator.frequency.value = 220;
  gain.gain.value = 0.05;
  oscillator.connect(gain).connect(destination);
  oscillator.start();
  return destination.stream.getAudioTracks()[0]!;
}

const fakeDevices = [
  { deviceId: 'stand-in-camera', kind: 'videoinput', label: 'Stand-in camera', groupId: 'stand-in' },
  { deviceId: 'stand-in-microphone', kind: 'audioinput', label: 'Stand-in microphone', groupId: 'stand-in' },
] as const;

/** Camera and microphone for every story: synthetic tracks, no permission prompt, no hardware. */
export function installStandInMedia(): void {
  const devices = navigator.mediaDevices as MediaDevices | undefined;
  if (!devices || (devices as { standIn?: boolean }).standIn) return;
  Object.assign(devices, {
    standIn: true,
    getUserMedia: async (constraints: MediaStreamConstraints = {}) => {
      const tracks: MediaStreamTrack[] = [];
      if (constraints.video) tracks.push(syntheticVideoTrack('You', 150));
      if (constraints.audio) tracks.push(syntheticAudioTrack());
      return new MediaStream(tracks);
    },
    enumerateDevices: async () => fakeDevices.map((d) => ({ ...d, toJSON: () => d })) as unknown as MediaDeviceInfo[],
  });
}
