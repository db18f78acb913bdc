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
    const handedOn = new WeakSet<Event>();
    let over = false;
    const hold = (event: KeyboardEvent) => {
      if (event === props.event || handedOn.has(event)) return;
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
    // One held key a task, as typed keys come: the board draws the card's new place (and the
    // lane it is over) before the next key. The first waits for the sensor's own tick.
    const handOn = () => {
      const event = held.shift();
      if (!event || over) {
        document.removeEventListener('keydown', hold, true);
        return;
      }
      const copy = new KeyboardEvent('keydown', {
        key: event.key,
        code: event.code,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
        bubbles: true,
        cancelable: true,
      });
      handedOn.add(copy);
      (event.target ?? document).dispatchEvent(copy);
      setTimeout(handOn);
    };
    setTimeout(handOn);
  }

  get autoScrollEnabled(): boolean {
    return this.#sensor.autoScrollEnabled;
  }
}
