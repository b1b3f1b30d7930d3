// Every UI string of the elements, keyed, English first. Add a language by adding a table; the `lang`
// attribute picks it (falling back to English per key), and `customization.strings[lang]` overrides keys.

export const en = {
  'launcher.label': 'Talk to us',
  'launcher.open': 'Open conversation',
  'popup.label': 'Conversation',
  'popup.close': 'Close',
  'preview.title': 'Talk with us face to face',
  'preview.description': 'Start a video conversation. You can turn your camera off at any time.',
  'preview.start': 'Start conversation',
  'preview.thumbnail': 'Preview of the conversation partner',
  'connecting.title': 'Connecting…',
  'connecting.description': 'Setting up your conversation.',
  'loading': 'Loading…',
  'haircheck.title': 'Check your camera and microphone',
  'haircheck.description': 'Make sure you can be seen and heard.',
  'haircheck.join': 'Join now',
  'haircheck.camera': 'Camera',
  'haircheck.microphone': 'Microphone',
  'haircheck.level': 'Microphone level',
  'haircheck.camera_off': 'Camera is off',
  'haircheck.no_access': 'Camera and microphone are not available. You can still join.',
  'gate.password.title': 'This conversation is protected',
  'gate.password.description': 'Enter the password you were given.',
  'gate.password.label': 'Password',
  'gate.password.submit': 'Continue',
  'gate.captcha.title': 'One quick check',
  'gate.captcha.description': 'Confirm you are a person to continue.',
  'gate.error.invalid_password': 'That password is not right. Please try again.',
  'gate.error.password_required': 'Please enter the password.',
  'gate.error.too_many_attempts': 'Too many attempts. Please wait a moment and try again.',
  'gate.error.captcha_failed': 'The check did not pass. Please try again.',
  'gate.error.captcha_required': 'Please complete the check.',
  'unavailable.title': 'Not available right now',
  'unavailable.inactive': 'This conversation is not open at the moment.',
  'unavailable.daily_limit': 'You have reached today’s limit of conversations. Please come back tomorrow.',
  'unavailable.total_limit': 'This conversation has reached its limit and is closed.',
  'unavailable.busy': 'All conversations are busy right now. Please try again in a few minutes.',
  'unavailable.captcha': 'The security check could not load. Check your connection or browser extensions and try again.',
  'retry': 'Try again',
  'ended.title': 'Thank you for the conversation',
  'ended.description': 'The conversation has ended.',
  'ended.button': 'Start a new conversation',
  'error.title': 'Something went wrong',
  'error.network_error': 'We could not reach the service. Check your connection and try again.',
  'error.deployment_not_found': 'This conversation does not exist.',
  'error.origin_not_allowed': 'This conversation cannot be started from this website.',
  'error.join_failed': 'We could not connect you to the conversation.',
  'error.media_denied': 'Camera or microphone access was refused.',
  'error.generic': 'Please try again in a moment.',
  'controls.label': 'Call controls',
  'controls.mic_off': 'Turn microphone off',
  'controls.mic_on': 'Turn microphone on',
  'controls.camera_off': 'Turn camera off',
  'controls.camera_on': 'Turn camera on',
  'controls.devices': 'Devices',
  'controls.end': 'End conversation',
  'controls.captions': 'Captions',
  'controls.chat': 'Chat',
  'stage.pal': 'Conversation partner',
  'stage.self': 'Your camera',
  'stage.sound': 'Tap to turn on sound',
  'landing.powered': 'Conversation',
} as const;

export type StringKey = keyof typeof en;
export type StringTable = Partial<Record<StringKey, string>>;

/** Further languages are added here (e.g. `de`, `es`, `fr`, `ja`). */
const tables: Record<string, StringTable> = { en };

export type Translate = (key: StringKey) => string;

/** Translator for a language, with deployment overrides (`customization.strings`) taking precedence. */
export function translator(lang: string | undefined, overrides: Record<string, Record<string, string>> = {}): Translate {
  const base = (lang ?? 'en').toLowerCase();
  const short = base.split('-')[0] ?? 'en';
  const layers: Record<string, string | undefined>[] = [
    overrides[base] ?? {}, overrides[short] ?? {}, tables[base] ?? {}, tables[short] ?? {},
  ];
  return (key) => {
    for (const layer of layers) {
      const value = layer[key];
      if (value) return value;
    }
    return en[key];
  };
}

export const defaultTranslate: Translate = translator('en');
