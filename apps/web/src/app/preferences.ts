import { useCallback, useSyncExternalStore } from 'react';

const VOLUME_KEY = 'volume';
const DEFAULT_VOLUME = 1;
const listeners = new Set<() => void>();

/** Notification volume, 0 to 1 in steps of 0.1, kept in this browser. */
export function readVolume(): number {
  const value = Number.parseFloat(localStorage.getItem(VOLUME_KEY) ?? '');
  if (!Number.isFinite(value)) return DEFAULT_VOLUME;
  return Math.min(1, Math.max(0, Math.round(value * 10) / 10));
}

export function writeVolume(volume: number): void {
  const clamped = Math.min(1, Math.max(0, Math.round(volume * 10) / 10));
  localStorage.setItem(VOLUME_KEY, String(clamped));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useVolume(): [number, (volume: number) => void] {
  const volume = useSyncExternalStore(subscribe, readVolume, () => DEFAULT_VOLUME);
  return [volume, useCallback((next: number) => writeVolume(next), [])];
}
