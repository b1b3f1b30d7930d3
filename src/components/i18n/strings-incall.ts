// UI strings of the in-call parts (disclosure, transcript, canvas), English. Keys are the
// `<ui-string-key>`s of a deployment's `customization.strings['<lang>']`, so translations and
// per-deployment wording override them one key at a time through each element's `strings` property.

export const incallStrings = {
  'disclosure.label': 'AI disclosure',
  'disclosure.default': 'You are interacting with an AI system.',
  'disclosure.dismiss': 'Dismiss disclosure',

  'transcript.label': 'Conversation transcript',
  'transcript.captionsLabel': 'Live captions',
  'transcript.you': 'You',
  'transcript.pal': 'PAL',
  'transcript.interrupted': 'interrupted',
  'transcript.empty': 'The conversation will appear here.',
  'transcript.chatLabel': 'Message',
  'transcript.chatPlaceholder': 'Type a message…',
  'transcript.send': 'Send',
  'transcript.downloadTxt': 'Download .txt',
  'transcript.downloadJson': 'Download .json',
  'transcript.jumpToLatest': 'Jump to latest',
  'transcript.fileName': 'transcript',

  'canvas.label': 'Canvas card',
  'canvas.submit': 'Submit',
  'canvas.skip': 'Skip',
  'canvas.dismiss': 'Dismiss',
  'canvas.other': 'Other',
  'canvas.otherPlaceholder': 'Your answer',
  'canvas.sending': 'Sending…',
  'canvas.sent': 'Response sent.',
  'canvas.sendFailed': 'Your answer could not be sent. It is kept here.',
  'canvas.retry': 'Retry',
  'canvas.required': 'This field is required.',
  'canvas.chooseOption': 'Choose an option.',
  'canvas.invalid.email': 'Enter a valid email address.',
  'canvas.invalid.number': 'Enter a number.',
  'canvas.invalid.tel': 'Enter a valid phone number.',
  'canvas.invalid.text': 'Enter a value.',
  'canvas.prevMonth': 'Previous month',
  'canvas.nextMonth': 'Next month',
  'canvas.chooseDate': 'Choose a date.',
  'canvas.chooseSlot': 'Choose a time.',
  'canvas.rangeHint': 'Choose a start date, then an end date.',
  'canvas.noSlots': 'No times on this date.',
  'canvas.schedulingTitle': 'Schedule a meeting',
  'canvas.scheduled': 'Booked.',
  'canvas.chartData': 'Chart data',
  'canvas.chartLabel': 'Label',
  'canvas.chartValue': 'Value',
  'canvas.shown': 'New card:',
  'canvas.severity.info': 'Information',
  'canvas.severity.success': 'Success',
  'canvas.severity.warning': 'Warning',
  'canvas.severity.error': 'Error',
} as const;

export type IncallStringKey = keyof typeof incallStrings;
export type IncallStrings = Partial<Record<IncallStringKey, string>>;

/** The string for `key`, from the overrides when they have it. */
export function incallString(key: IncallStringKey, overrides?: IncallStrings | null): string {
  return overrides?.[key] ?? incallStrings[key];
}
