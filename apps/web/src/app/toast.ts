export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface Toast {
  id: number;
  severity: ToastSeverity;
  message: string;
}

type Listener = (toasts: readonly Toast[]) => void;

/** Toasts live outside React so the API client, sockets and pages can all raise them. */
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const MAX_VISIBLE = 4;

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function push(severity: ToastSeverity, message: string): number {
  const id = nextId++;
  // the same message twice in a row (two failing calls) shows once
  const rest = toasts.filter((item) => item.message !== message);
  publish([...rest, { id, severity, message }].slice(-MAX_VISIBLE));
  return id;
}

export const toast = {
  success: (message: string) => push('success', message),
  info: (message: string) => push('info', message),
  warning: (message: string) => push('warning', message),
  error: (message: string) => push('error', message),
  dismiss: (id: number) => publish(toasts.filter((item) => item.id !== id)),
  clear: () => publish([]),
};

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): readonly Toast[] => toasts;
