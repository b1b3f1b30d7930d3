// The "make your face" page: consent (its words from the backend, recorded with the face), camera preview,
// an 8 s recording with a countdown (or a photo), the upload and training through this page's backend
// (/demo/api/face), then a call with that face. The face is this browser's: the visitor token its creation
// answered is kept here (localStorage, a day) and is what reads, calls and deletes it.
const $ = (id) => document.getElementById(id);
const consent = $('consent'),
  record = $('record'),
  photo = $('photo'),
  status = $('status'),
  progress = $('progress');
const deleteButton = $('delete'),
  nameInput = $('name');
const STORE = 'palkit-demo-face';
let consentVersion = null;
/** The face being trained or called with was deleted: the page stops following it. */
let deleted = false;
const preview = $('preview'),
  countdown = $('countdown');
const SECONDS = 8;
// Keeps a clip under the service's 1 MB body bound on the way through this page's backend.
const BITS_PER_SECOND = 600_000;
let stream;

const say = (text, bad = false) => {
  status.textContent = text;
  status.className = bad ? 'bad' : '';
};

// The words agreed to are the backend's, so that what is recorded is what was shown.
fetch('/demo/api/face/consent')
  .then((r) => r.json())
  .then((c) => {
    consentVersion = c.version;
    $('consent-text').textContent = c.text;
  })
  .catch(() => say('The consent text could not be loaded: reload the page.', true));

/** The face this browser made (within its day), or null. */
function ownFace() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? 'null');
    if (kept && Date.now() - kept.made_at < (kept.kept_hours ?? 24) * 3600_000) return kept;
  } catch {
    /* nothing kept */
  }
  localStorage.removeItem(STORE);
  return null;
}
const faceHeaders = (face) => ({ 'x-face-token': face.visitor_token });
deleteButton.hidden = !ownFace();
deleteButton.addEventListener('click', async () => {
  const face = ownFace();
  if (!face) return;
  deleteButton.disabled = true;
  const r = await fetch(`/demo/api/face/${face.face_id}`, { method: 'DELETE', headers: faceHeaders(face) });
  if (r.ok || r.status === 404) {
    deleted = true;
    localStorage.removeItem(STORE);
    deleteButton.hidden = true;
    progress.hidden = true;
    record.disabled = !stream || !consent.checked;
    photo.disabled = !consent.checked;
    $('frame').replaceChildren();
    document.body.classList.remove('in-call');
    say('Your face is deleted, with everything made from it.');
  } else {
    say(`The face could not be deleted (${r.status}): try again.`, true);
  }
  deleteButton.disabled = false;
});
consent.addEventListener('change', async () => {
  record.disabled = photo.disabled = !consent.checked;
  if (!consent.checked || stream) return;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
    preview.srcObject = stream;
    say('Look at the camera, then press Record.');
  } catch (error) {
    say(`No camera (${error.name}): upload a photo instead.`, true);
    record.disabled = true;
  }
});

record.addEventListener('click', async () => {
  record.disabled = photo.disabled = true;
  const type = MediaRecorder.isTypeSupported('video/webm') ? 'video/webm' : 'video/mp4';
  const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: BITS_PER_SECOND });
  const chunks = [];
  recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start(500);
  countdown.hidden = false;
  for (let left = SECONDS; left > 0; left--) {
    countdown.textContent = String(left);
    say(`Recording… ${left} s left. Talk, smile, turn a little.`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  recorder.stop();
  await stopped;
  countdown.hidden = true;
  await train(new Blob(chunks, { type }), type);
});

photo.addEventListener('change', async () => {
  const file = photo.files?.[0];
  if (!file) return;
  record.disabled = photo.disabled = true;
  await train(await shrink(file), 'image/jpeg');
});

/** A photo as a JPEG at most 1280 px across, so it fits the backend's body bound. */
async function shrink(file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1280 / Math.max(bitmap.width, bitmap.height));
  const canvas = Object.assign(document.createElement('canvas'), {
    width: Math.round(bitmap.width * scale),
    height: Math.round(bitmap.height * scale),
  });
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
}

async function train(blob, type) {
  say(`Uploading ${(blob.size / 1024).toFixed(0)} KB…`);
  const query = new URLSearchParams({ consent: consentVersion ?? '', name: nameInput.value.trim() });
  const created = await fetch(`/demo/api/face?${query}`, { method: 'POST', headers: { 'content-type': type }, body: blob });
  const face = await created.json();
  if (!created.ok) return fail(face.error ?? `upload failed (${created.status})`);
  deleted = false;
  localStorage.setItem(STORE, JSON.stringify({ ...face, made_at: Date.now() }));
  deleteButton.hidden = false;
  progress.hidden = false;
  for (;;) {
    const now = await (await fetch(`/demo/api/face/${face.face_id}`, { headers: faceHeaders(face) })).json();
    if (deleted) return;
    progress.value = Number(String(now.training_progress ?? '0/6').split('/')[0]);
    if (now.status === 'completed') break;
    if (now.status === 'error' || now.error) return fail(`Training failed: ${now.error_message ?? now.error}`);
    say(`Learning your face… step ${now.training_progress}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  say('Your face is ready: starting the call.');
  stream?.getTracks().forEach((t) => t.stop());
  if (deleted) return;
  const conversation = await (
    await fetch(`/demo/api/face/${face.face_id}/conversation`, { method: 'POST', headers: faceHeaders(face) })
  ).json();
  if (!conversation.conversation_url) return fail(conversation.error ?? 'the call could not start');
  document.body.classList.add('in-call');
  const el = document.createElement('pal-conversation');
  el.setAttribute('conversation-url', conversation.conversation_url);
  el.setAttribute('meeting-token', conversation.meeting_token);
  $('frame').append(el);
  // The call opens where the visitor sees it, not below the fold (the frame is never taller than the window).
  $('frame').scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  el.addEventListener('pal-conversation-ended', () => say('The call ended. Reload the page to make another face.'), { once: true });
}

function fail(message) {
  say(message, true);
  progress.hidden = true;
  record.disabled = !stream || !consent.checked;
  photo.disabled = !consent.checked;
}
