/** A task of the to-do list; it lives only in this browser (spec core 2). */
export interface Task {
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** The original product's key, so lists kept by it are read as they are. */
export const TASKS_KEY = 'tasks';

const isTask = (value: unknown): value is Task =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Task).text === 'string' &&
  typeof (value as Task).createdAt === 'string' &&
  typeof (value as Task).updatedAt === 'string';

export function loadTasks(): Task[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(TASKS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function saveTasks(tasks: Task[]): void {
  try {
    localStorage.setItem(TASKS_KEY, JSON.stringify(tasks));
  } catch {
    // storage full or blocked: the list still works until the page is left
  }
}
