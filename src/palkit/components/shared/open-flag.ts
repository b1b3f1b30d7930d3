// What assigning the widget's `open` property means. Frameworks hand the `open` attribute over as a
// property (Vue does for `<pal-widget open>`, passing ''), so anything but an explicit "no" opens.

export function isOpenFlag(value: unknown): boolean {
  return value !== false && value !== null && value !== undefined && value !== 'false';
}
