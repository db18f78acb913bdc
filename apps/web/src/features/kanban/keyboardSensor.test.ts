import { KeyboardSensor, type KeyboardSensorProps } from '@dnd-kit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PromptKeyboardSensor } from './keyboardSensor';

const press = (target: EventTarget, code: string) =>
  target.dispatchEvent(
    new KeyboardEvent('keydown', { code, key: code, bubbles: true, cancelable: true }),
  );

/** A card's handle picked up with Space, then arrow and Space pressed in the same instant. */
function pickUpAndPress(Sensor: typeof KeyboardSensor | typeof PromptKeyboardSensor) {
  const handle = document.createElement('button');
  document.body.append(handle);
  const pickUp = new KeyboardEvent('keydown', { code: 'Space', key: ' ', bubbles: true });
  handle.dispatchEvent(pickUp);
  const props = {
    active: 'card',
    activeNode: {
      id: 'card',
      key: 'card',
      node: { current: handle },
      activatorNode: { current: handle },
      data: { current: {} },
    },
    event: pickUp,
    context: {
      current: {
        collisionRect: { left: 0, top: 0, width: 100, height: 50, right: 100, bottom: 50 },
        scrollableAncestors: [],
      },
    },
    options: {
      // the next lane is 300 px to the right
      coordinateGetter: (event: KeyboardEvent) =>
        event.code === 'ArrowRight' ? { x: 300, y: 0 } : undefined,
    },
    onStart: vi.fn(),
    onMove: vi.fn(),
    onEnd: vi.fn(),
    onCancel: vi.fn(),
    onAbort: vi.fn(),
    onPending: vi.fn(),
  };
  new Sensor(props as unknown as KeyboardSensorProps);
  press(handle, 'ArrowRight');
  press(handle, 'Space');
  return props;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('PromptKeyboardSensor', () => {
  it("dnd-kit's own sensor loses the keys pressed before it listens", async () => {
    const stock = pickUpAndPress(KeyboardSensor);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stock.onMove).not.toHaveBeenCalled();
    expect(stock.onEnd).not.toHaveBeenCalled();
    press(document.body, 'Escape');
    expect(stock.onCancel).toHaveBeenCalledTimes(1);
  });

  it('hands those keys to the sensor in order once it listens', async () => {
    const prompt = pickUpAndPress(PromptKeyboardSensor);
    expect(prompt.onStart).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prompt.onMove).toHaveBeenCalledWith({ x: 300, y: 0 });
    expect(prompt.onEnd).toHaveBeenCalledTimes(1);
    expect(prompt.onMove.mock.invocationCallOrder[0]).toBeLessThan(
      prompt.onEnd.mock.invocationCallOrder[0]!,
    );
  });

  it('hands nothing on once the move is over, and takes later keys straight away', async () => {
    const props = pickUpAndPress(PromptKeyboardSensor);
    await new Promise((resolve) => setTimeout(resolve, 20));
    press(document.body, 'Space');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(props.onEnd).toHaveBeenCalledTimes(1);
  });
});
