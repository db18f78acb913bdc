import { KeyboardSensor, type KeyboardSensorProps, type SensorInstance } from '@dnd-kit/core';

/**
 * dnd-kit's keyboard sensor, taking keys from the moment a card is picked up.
 *
 * The library's sensor starts listening to the document's keys a timer's tick after the key that
 * picked the card up (so that key does not drop it again at once). Chrome runs input before
 * timers, so a key pressed right after the pick-up (an arrow, the drop) was handled before that
 * tick and lost: the card stayed where it was. Here such keys are held from the pick-up on and
 * handed to the sensor, in order, once it listens.
 */
export class PromptKeyboardSensor implements SensorInstance {
  static activators = KeyboardSensor.activators;

  readonly #sensor: KeyboardSensor;

  constructor(props: KeyboardSensorProps) {
    const document = (props.event.target as Node | null)?.ownerDocument ?? window.document;
    const held: KeyboardEvent[] = [];
    let over = false;
    const hold = (event: KeyboardEvent) => {
      if (event === props.event) return;
      // the sensor does not have it yet: nothing else acts on it before the sensor does
      event.preventDefault();
      event.stopImmediatePropagation();
      held.push(event);
    };
    const finish =
      (done: () => void): (() => void) =>
      () => {
        over = true;
        done();
      };
    document.addEventListener('keydown', hold, true);
    this.#sensor = new KeyboardSensor({
      ...props,
      onEnd: finish(props.onEnd),
      onCancel: finish(props.onCancel),
    });
    // scheduled after the sensor's own tick: it listens by now
    setTimeout(() => {
      document.removeEventListener('keydown', hold, true);
      for (const event of held) {
        if (over) break;
        (event.target ?? document).dispatchEvent(
          new KeyboardEvent('keydown', {
            key: event.key,
            code: event.code,
            shiftKey: event.shiftKey,
            ctrlKey: event.ctrlKey,
            altKey: event.altKey,
            metaKey: event.metaKey,
            bubbles: true,
            cancelable: true,
          }),
        );
      }
    });
  }

  get autoScrollEnabled(): boolean {
    return this.#sensor.autoScrollEnabled;
  }
}
