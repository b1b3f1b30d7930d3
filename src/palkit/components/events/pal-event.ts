// What every palkit event shares: a typed, readonly `detail`, and bubbling. The page-facing events are
// composed (they leave the element's shadow root for the page); a part's own events are not, so they
// reach the element that renders the part, or the page when the part is used on its own, and never leak
// from inside a widget to the page. One base keeps each event class to its name and detail type.
export abstract class PalEvent<Detail> extends Event {
  readonly detail: Detail;

  constructor(type: string, detail: Detail, composed = true) {
    super(type, { bubbles: true, composed });
    this.detail = detail;
  }
}
