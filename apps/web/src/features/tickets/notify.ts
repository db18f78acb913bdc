import { readVolume } from '../../app/preferences';

let context: AudioContext | null = null;

/** A short two-tone chime at the volume the top bar keeps; silent where audio is unavailable. */
export function playNotificationSound(): void {
  const volume = readVolume();
  if (volume <= 0) return;
  const Context =
    typeof window === 'undefined'
      ? undefined
      : (window.AudioContext ??
        (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Context) return;
  try {
    context ??= new Context();
    const now = context.currentTime;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, 0.3 * volume), now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    gain.connect(context.destination);
    for (const [index, frequency] of [880, 1320].entries()) {
      const tone = context.createOscillator();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(now + index * 0.12);
      tone.stop(now + 0.45);
    }
  } catch {
    // autoplay rules may refuse sound before the first click: nothing to do
  }
}

/** A browser notification, only where the user already allowed them. */
export function showBrowserNotification(title: string, body: string, onClick: () => void): void {
  if (typeof Notification === 'undefined') {
    console.info('Notifications are not supported in this browser');
    return;
  }
  if (Notification.permission !== 'granted') return;
  try {
    const notification = new Notification(title, { body, tag: title });
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
  } catch {
    // some browsers allow notifications only from a service worker
  }
}

export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined') return;
  if (Notification.permission === 'default') void Notification.requestPermission().catch(() => {});
}
